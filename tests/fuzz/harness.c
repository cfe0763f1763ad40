/* SPDX-License-Identifier: MIT */
/* harness.c: see harness.h. */
#define WGSCAN_EXPERIMENTAL_API /* the small-tile context */
#include "harness.h"

#include "reference.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading the input ----------------------------------------------------------- */

uint32_t fz_u8(fz *f) { return f->i < f->n ? f->p[f->i++] : 0u; }

uint32_t fz_u16(fz *f) { return fz_u8(f) | fz_u8(f) << 8; }

uint32_t fz_u32(fz *f) { return fz_u16(f) | fz_u16(f) << 16; }

uint64_t fz_u64(fz *f) { return fz_u32(f) | (uint64_t)fz_u32(f) << 32; }

uint32_t fz_below(fz *f, uint32_t count) {
    if (count <= 1) return 0;
    uint32_t v = count <= 256 ? fz_u8(f) : count <= 65536 ? fz_u16(f) : fz_u32(f);
    return v % count;
}

int fz_one_in(fz *f, uint32_t k) { return fz_u8(f) % k == 0; }

int32_t fz_enum(fz *f, int32_t last) {
    uint32_t b = fz_u8(f);
    if (b < 232) return (int32_t)(b % (uint32_t)(last + 1));
    switch (b % 6) {
    case 0: return last + 1;
    case 1: return last + 2;
    case 2: return -1;
    case 3: return INT32_MAX;
    case 4: return INT32_MIN;
    default: return (int32_t)fz_u32(f);
    }
}

uint64_t fz_size(fz *f, uint64_t max) {
    static const uint64_t huge[] = {0xFFFFFFFFull, 0x100000000ull, 0x100000001ull, 1ull << 40,
                                    1ull << 62, UINT64_MAX, UINT64_MAX - 3, UINT64_MAX / 4 + 1,
                                    UINT64_MAX - 255, 1ull << 31};
    uint32_t mode = fz_u8(f);
    uint64_t v;
    if (mode < 96) {
        v = fz_u8(f) % 65;
    } else if (mode < 176) {
        v = max == UINT64_MAX ? fz_u64(f) : fz_u32(f) % (max + 1);
    } else if (mode < 236) { /* k 2^j - 1, k 2^j, k 2^j + 1: tile and binding edges */
        unsigned bits = 0;
        while (bits < 63 && (2ull << bits) <= max) bits++;
        v = (uint64_t)(1 + fz_u8(f) % 3) * (1ull << (fz_u8(f) % (bits + 1))) + (uint64_t)(int)(fz_u8(f) % 3) - 1;
    } else {
        return huge[fz_u8(f) % (sizeof huge / sizeof huge[0])];
    }
    return v > max ? max : v;
}

double fz_double(fz *f) {
    static const double table[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2147483647.0, 2147483648.0,
                                   -2147483648.0, -2147483649.0, 4294967295.0, 4294967296.0,
                                   1e30, -1e30, 3.4e38, -3.4e38, 1e300, 0.1, 1e-3, 255.0, 256.0,
                                   INFINITY, -INFINITY, NAN, -NAN, 1e-40, -1e-45, 1.1754943508222875e-38};
    uint32_t mode = fz_u8(f) % 8;
    switch (mode) {
    case 0: return (double)(int8_t)fz_u8(f);
    case 1: return (double)(int16_t)fz_u16(f) / 2.0;
    case 2: return table[fz_u8(f) % (sizeof table / sizeof table[0])];
    case 3: {
        uint64_t bits = fz_u64(f);
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    case 4: return (double)fz_u32(f);
    case 5: return (double)(int32_t)fz_u32(f);
    default: return (double)(int16_t)fz_u16(f);
    }
}

/* ---- the context ------------------------------------------------------------------ */

static wgs_context *fz_ctxs[2];
static wgs_context_info fz_infos[2];
static int fz_small; /* this input runs in the small-tile context */
static wgs_context *fz_ctx; /* for fz_fail's message */

static void quiet(wgs_log_level level, wgs_result r, const char *m, void *u) {
    (void)level, (void)r, (void)m, (void)u;
}

void fz_begin(fz *f) { fz_small = fz_u8(f) % 4 == 3; }

wgs_context *fz_context(void) {
    if (fz_ctxs[fz_small]) return fz_ctx = fz_ctxs[fz_small];
    static wgs_experimental small = {
        .max_workgroups_per_dimension = 3,
        .max_storage_binding_size = 64 * 1024,
        .lookback_spins = 1,
        .scan_single_pass = {32, 4},
        .scan_multilevel = {32, 4},
        .select = {32, 8},
        .reduce = {32, 2},
        .select_group_tiles = 4,
        .reduce_groups = 3,
    };
    wgs_context_desc d = {0};
    d.log = quiet;
    /* A GPU that never finishes shows as WGS_ERROR_TIMEOUT, not as a silent hang. */
    d.wait_timeout_s = 120.0;
    if (fz_small) d.experimental = &small;
    wgs_result r = wgs_context_create(&d, &fz_ctxs[fz_small]);
    if (r != WGS_OK) {
        fprintf(stderr, "fuzz: no WebGPU context%s: %s\n", fz_small ? " (small tiles)" : "", wgs_result_name(r));
        exit(2);
    }
    wgs_context_get_info(fz_ctxs[fz_small], &fz_infos[fz_small]);
    return fz_ctx = fz_ctxs[fz_small];
}

const wgs_context_info *fz_info(void) {
    fz_context();
    return &fz_infos[fz_small];
}

uint64_t fz_max_n(void) { return fz_small ? FZ_MAX_N_SMALL_TILES : FZ_MAX_N; }

int fz_small_tiles(void) { return fz_small; }

/* ---- expected results -------------------------------------------------------------- */

void fz_must(fz_expect *e, wgs_result code) { e->must |= FZ_CODE(code); }

void fz_may(fz_expect *e, wgs_result code) { e->may |= FZ_CODE(code); }

void fz_rule(fz_expect *e, int broken, wgs_result code, int lenient) {
    if (!broken) return;
    if (lenient) fz_may(e, code);
    else fz_must(e, code);
}

void fz_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("\n==== wgscan fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n     last error: %s\n", fz_ctx ? wgs_context_last_error(fz_ctx) : "(no context)");
    fflush(stderr);
    abort();
}

static void codes(uint32_t set, char *out, size_t cap) {
    out[0] = 0;
    for (unsigned c = 0; c < 32; c++) {
        if (!(set & (1u << c))) continue;
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", len ? " " : "", wgs_result_name((wgs_result)c));
    }
    if (!out[0]) snprintf(out, cap, "(none)");
}

/* FUZZ_STATS=1: at exit, how often each call succeeded and was refused (does the
 * generator reach the success paths?). */
static struct {
    const char *call;
    unsigned long ok, refused;
} stats[32];

static void print_stats(void) {
    for (int i = 0; i < 32 && stats[i].call; i++)
        fprintf(stderr, "fuzz stats: %-28s %8lu succeeded %8lu refused\n", stats[i].call, stats[i].ok,
                stats[i].refused);
}

static void count_call(const char *call, int ok) {
    static int registered;
    if (!registered) {
        registered = 1;
        if (getenv("FUZZ_STATS")) atexit(print_stats);
    }
    for (int i = 0; i < 32; i++) {
        if (stats[i].call && strcmp(stats[i].call, call) != 0) continue;
        stats[i].call = call;
        if (ok) stats[i].ok++;
        else stats[i].refused++;
        return;
    }
}

int fz_check(const char *call, wgs_result got, fz_expect e) {
    char must[512], may[512];
    count_call(call, got == WGS_OK);
    if (strcmp(wgs_result_name(got), "WGS_UNKNOWN_RESULT") == 0)
        fz_fail("%s returned %d, a number not in the result list", call, (int)got);
    if (got == WGS_OK) {
        if (!e.must) return 1;
        codes(e.must, must, sizeof must);
        fz_fail("%s succeeded although it breaks rules whose codes are: %s", call, must);
    }
    if ((unsigned)got < 32 && (FZ_CODE(got) & (e.must | e.may))) return 0;
    codes(e.must, must, sizeof must);
    codes(e.may, may, sizeof may);
    fz_fail("%s returned %s; expected %s%s (may also: %s)", call, wgs_result_name(got),
            e.must ? "one of " : "WGS_OK", e.must ? must : "", may);
}

/* ---- buffers ------------------------------------------------------------------------ */

#define FZ_SENTINEL 0xA5

void fz_buffer_rules(const fz_buffer *b, uint64_t bytes, fz_expect *e, int lenient) {
    if (!b->b) {
        fz_rule(e, 1, WGS_ERROR_INVALID_ARGUMENT, lenient);
        return;
    }
    uint32_t align = fz_info()->min_storage_offset_alignment;
    fz_rule(e, b->offset % align != 0, WGS_ERROR_MISALIGNED_OFFSET, lenient);
    fz_rule(e, !(b->usage & WGPUBufferUsage_Storage), WGS_ERROR_BUFFER_USAGE, lenient);
    fz_rule(e, b->offset > b->size || b->size - b->offset < bytes, WGS_ERROR_BUFFER_TOO_SMALL, lenient);
}

fz_buffer fz_buffer_for(fz *f, uint64_t bytes, const void *fill, fz_expect *e, int lenient) {
    fz_buffer b = {0};
    uint32_t align = fz_info()->min_storage_offset_alignment;
    if (fz_u8(f) >= 252) { /* no buffer */
        fz_buffer_rules(&b, bytes, e, lenient);
        return b;
    }
    uint32_t mode = fz_u8(f);
    if (mode < 200) b.offset = 0;
    else if (mode < 236) b.offset = (uint64_t)align * (1 + mode % 2);
    else {
        static const uint64_t odd[] = {4, 16, 128, 1, 8, 260};
        b.offset = odd[mode % (sizeof odd / sizeof odd[0])];
    }
    /* Ranges far beyond FZ_MAX_N come only from sizes that break a rule: a small buffer
     * stands in (too small for them, as the rules then say). */
    uint64_t need = bytes > (64ull << 20) ? 256 : b.offset + bytes;
    mode = fz_u8(f);
    uint64_t size = (need + 3) & ~3ull;
    if (mode >= 160 && mode < 232) size += 4ull * (fz_u8(f) % 64);
    else if (mode >= 232 && size >= 4) size -= 4;
    if (size < 4) size = 4;
    b.size = size;
    b.usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
    mode = fz_u8(f);
    if (mode >= 244) b.usage &= ~(WGPUBufferUsage)WGPUBufferUsage_Storage;
    if (mode >= 240 && mode % 2) b.usage |= WGPUBufferUsage_Uniform;
    wgs_context *ctx = fz_context();
    wgs_result r = wgs_buffer_create(ctx, size, b.usage, &b.b);
    if (r != WGS_OK) fz_fail("wgs_buffer_create(%llu) failed: %s", (unsigned long long)size, wgs_result_name(r));
    b.init = malloc((size_t)size);
    if (!b.init) fz_fail("out of host memory");
    memset(b.init, FZ_SENTINEL, (size_t)size);
    if (fill && b.offset < size && bytes <= (64ull << 20)) {
        uint64_t len = size - b.offset < bytes ? size - b.offset : bytes;
        memcpy(b.init + b.offset, fill, (size_t)len);
    }
    r = wgs_buffer_write(ctx, b.b, 0, b.init, size);
    if (r != WGS_OK) fz_fail("wgs_buffer_write of a fresh buffer failed: %s", wgs_result_name(r));
    fz_buffer_rules(&b, bytes, e, lenient);
    return b;
}

void fz_buffer_download(const fz_buffer *b, void *out) {
    wgs_result r = wgs_buffer_read(fz_context(), b->b, 0, out, b->size);
    if (r != WGS_OK) fz_fail("reading back a result buffer failed: %s", wgs_result_name(r));
}

void fz_buffer_release(fz_buffer *b) {
    wgs_buffer_release(fz_context(), b->b);
    free(b->init);
    memset(b, 0, sizeof *b);
}

WGPUCommandEncoder fz_encoder(void) {
    WGPUCommandEncoder enc = NULL;
    wgs_result r = wgs_encoder_create(fz_context(), &enc);
    if (r != WGS_OK || !enc) fz_fail("wgs_encoder_create failed: %s", wgs_result_name(r));
    return enc;
}

void fz_submit(WGPUCommandEncoder enc, int must_succeed) {
    wgs_context *ctx = fz_context();
    wgs_result r = wgs_submit(ctx, enc);
    if (must_succeed && r != WGS_OK)
        fz_fail("wgs_submit of work every encode accepted failed: %s", wgs_result_name(r));
    if (!must_succeed && r != WGS_OK && r != WGS_ERROR_GPU_VALIDATION)
        fz_fail("wgs_submit returned %s", wgs_result_name(r));
    r = wgs_wait(ctx);
    if (r != WGS_OK) fz_fail("wgs_wait failed: %s", wgs_result_name(r));
}

/* ---- data ----------------------------------------------------------------------------- */

static uint64_t mix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* For sums: finite exponents near 1, so that no sum of FZ_MAX_N overflows. */
static uint32_t tame_f32(uint32_t bits, int for_sum) {
    uint32_t e = (bits >> 23) & 0xFF;
    if (for_sum && e != 0xFF && e != 0 && (e < 127 - 30 || e > 127 + 30))
        bits = (bits & 0x807FFFFFu) | (uint32_t)(127 - 30 + e % 61) << 23;
    return bits;
}

static uint16_t tame_f16(uint16_t bits, int for_sum) {
    uint32_t e = (bits >> 10) & 0x1F;
    if (for_sum && e != 0x1F && e > 15 + 4) bits = (uint16_t)((bits & 0x83FFu) | (uint32_t)(15 + e % 5) << 10);
    return bits;
}

static const uint32_t edges_f32[] = {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x7F800000u, 0xFF800000u,
                                     0x80000000u, 0x00000000u, 0x00000001u, 0x807FFFFFu, 0x00400000u,
                                     0x7F7FFFFFu, 0xFF7FFFFFu, 0x00800000u, 0x80800000u, 0x3F800000u,
                                     0xBF800000u};
static const uint16_t edges_f16[] = {0x7E00u, 0xFE00u, 0x7C01u, 0x7C00u, 0xFC00u, 0x8000u, 0x0000u, 0x0001u,
                                     0x83FFu, 0x0200u, 0x7BFFu, 0xFBFFu, 0x0400u, 0x8400u, 0x3C00u, 0xBC00u};

int fz_fill(fz *f, void *data, wgs_type type, uint64_t n, int for_sum) {
    uint32_t style = fz_u8(f) % 6;
    uint64_t seed = fz_u64(f);
    int is_float = type == WGS_TYPE_F32 || type == WGS_TYPE_F16;
    uint32_t run_left = 0, run_value = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = mix(&seed);
        uint32_t w = 0;
        float x = 0.0f;
        int have_float = 0;
        switch (style) {
        case 0: /* the input's own bytes while they last */
            w = f->i + 4 <= f->n ? fz_u32(f) : (uint32_t)r;
            break;
        case 1: /* runs of few values: unique, run-length, ties for arg ops */
            if (!run_left) run_left = 1 + (uint32_t)(r >> 40) % 8, run_value = (uint32_t)(r >> 8) % 4;
            run_left--;
            w = run_value;
            x = (float)run_value - 1.5f;
            if (run_value == 0) x = (r >> 60) & 1 ? -0.0f : 0.0f;
            have_float = 1;
            break;
        case 2: /* small exact values */
            w = (uint32_t)(int32_t)(int8_t)r;
            x = (float)(int8_t)r / 8.0f;
            have_float = 1;
            break;
        case 3: /* full range */
            w = (uint32_t)r;
            break;
        case 5: /* float edges among small values (integers: the type's extremes) */
            if ((r >> 32) % 3) {
                x = (float)(int8_t)r / 8.0f;
                w = (uint32_t)(int32_t)(int8_t)r;
                have_float = 1;
            } else if (type == WGS_TYPE_F16) {
                w = edges_f16[(r >> 40) % 16];
            } else {
                static const uint32_t ints[] = {0, 1, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0x80000001u};
                w = is_float ? edges_f32[(r >> 40) % 16] : ints[(r >> 40) % 6];
            }
            break;
        default: /* ascending */
            w = (uint32_t)i * (1 + (uint32_t)(seed >> 60)) + (uint32_t)(r % 2);
            x = (float)w / 8.0f;
            have_float = 1;
            break;
        }
        if (type == WGS_TYPE_F16) {
            uint16_t h = have_float ? ref_f32_to_f16(x) : tame_f16((uint16_t)w, for_sum);
            if (have_float && style != 1 && style != 5 && for_sum) h = ref_f32_to_f16((float)(int8_t)r / 32.0f);
            ((uint16_t *)data)[i] = tame_f16(h, for_sum);
        } else if (is_float) {
            uint32_t bits;
            if (have_float) memcpy(&bits, &x, 4);
            else bits = w;
            bits = tame_f32(bits, for_sum);
            memcpy((char *)data + 4 * i, &bits, 4);
        } else {
            memcpy((char *)data + 4 * i, &w, 4);
        }
    }
    if (!is_float) return 1;
    double eighths = 0.0, limit = type == WGS_TYPE_F16 ? 2048.0 : 16777216.0;
    for (uint64_t i = 0; i < n; i++) {
        double v;
        if (type == WGS_TYPE_F16) {
            v = ref_f16_to_f32(((const uint16_t *)data)[i]);
        } else {
            float g;
            memcpy(&g, (const char *)data + 4 * i, 4);
            v = g;
        }
        if (v * 8.0 != floor(v * 8.0)) return 0;
        eighths += fabs(v * 8.0);
        if (eighths > limit) return 0;
    }
    return 1;
}

void fz_fill_words(fz *f, uint32_t *data, uint64_t n) {
    uint64_t seed = fz_u64(f);
    uint32_t style = fz_u8(f) % 3;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = mix(&seed);
        data[i] = style == 0 ? (uint32_t)r : style == 1 ? (uint32_t)r % 16 : (uint32_t)i;
    }
}

void fz_fill_bytes(fz *f, uint8_t *data, uint64_t n) {
    uint64_t seed = fz_u64(f);
    uint32_t density = fz_u8(f); /* share of non-zero flags, in 256ths */
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = mix(&seed);
        data[i] = (r & 0xFF) < density ? (uint8_t)(1 + (r >> 8) % 255) : 0;
    }
}

void fz_check_untouched(const char *what, const uint8_t *got, const uint8_t *sentinel, uint64_t size,
                        uint64_t from, uint64_t to) {
    for (uint64_t i = 0; i < size; i++) {
        if (i >= from && i < to) continue;
        if (got[i] != sentinel[i])
            fz_fail("%s: byte %llu outside the output range [%llu, %llu) was written (0x%02x, was 0x%02x)",
                    what, (unsigned long long)i, (unsigned long long)from, (unsigned long long)to, got[i],
                    sentinel[i]);
    }
}

