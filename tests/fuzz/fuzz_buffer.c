/* SPDX-License-Identifier: MIT */
/*
 * fuzz_buffer.c: the memory side of the API from bytes: wgs_buffer_create (sizes from 0
 * to 2^64 - 1, any usage bits), wgs_buffer_write and wgs_buffer_read at odd offsets and
 * sizes (up to 2^64 - 1), wgs_copy_encode, wgs_buffer_release, and the bump allocator
 * (wgs_alloc_plan_create / wgs_alloc_encode), as a program of up to 24 operations on
 * four buffer slots. A host copy of every buffer says what each read must return; reads
 * must not write the host memory past `size`.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#define SLOTS 4
#define MAX_BYTES (64u << 10) /* buffers this program reads and writes */

typedef struct slot {
    WGPUBuffer b;
    uint64_t size; /* as asked */
    WGPUBufferUsage usage;
    uint8_t *shadow; /* what the buffer holds (size rounded up to 4) */
} slot;

static slot slots[SLOTS];

static uint64_t round4(uint64_t v) { return v > UINT64_MAX - 3 ? UINT64_MAX : (v + 3) & ~3ull; }

/* WebGPU's rules for a buffer's usage (the library passes it through). */
static int usage_valid(WGPUBufferUsage u) {
    const WGPUBufferUsage known = 0x3FF;
    if (u == 0 || (u & ~known)) return 0;
    if ((u & WGPUBufferUsage_MapRead) && (u & ~(WGPUBufferUsage)(WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst))) return 0;
    if ((u & WGPUBufferUsage_MapWrite) && (u & ~(WGPUBufferUsage)(WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc))) return 0;
    return 1;
}

static WGPUBufferUsage make_usage(fz *f) {
    static const WGPUBufferUsage common[] = {
        WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst,
        WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst,
        WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc,
        WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst,
        WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst,
        WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc,
        WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc,
        WGPUBufferUsage_Storage,
        WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc,
    };
    uint32_t mode = fz_u8(f);
    if (mode < 160) return common[0];
    if (mode < 240) return common[mode % (sizeof common / sizeof common[0])];
    return (WGPUBufferUsage)fz_u16(f);
}

static void slot_release(slot *s) {
    wgs_buffer_release(fz_context(), s->b);
    free(s->shadow);
    memset(s, 0, sizeof *s);
}

static void op_create(fz *f, slot *s) {
    wgs_context *ctx = fz_context();
    slot_release(s);
    uint64_t size = fz_size(f, MAX_BYTES);
    WGPUBufferUsage usage = make_usage(f);
    fz_expect e = {0};
    fz_rule(&e, size == 0, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, size > fz_info()->max_buffer_size, WGS_ERROR_TOO_LARGE, 0);
    if (!usage_valid(usage)) {
        fz_must(&e, WGS_ERROR_GPU_VALIDATION);
        fz_may(&e, WGS_ERROR_INVALID_ARGUMENT);
        fz_may(&e, WGS_ERROR_BUFFER_USAGE);
    }
    if (size > MAX_BYTES) fz_may(&e, WGS_ERROR_GPU_OUT_OF_MEMORY);
    int null_out = fz_u8(f) == 255;
    if (null_out) e = (fz_expect){FZ_CODE(WGS_ERROR_INVALID_ARGUMENT), 0};
    WGPUBuffer b = (WGPUBuffer)(void *)&slots; /* not NULL: must be set on failure */
    wgs_result r = wgs_buffer_create(ctx, size, usage, null_out ? NULL : &b);
    if (!fz_check("wgs_buffer_create", r, e)) {
        if (!null_out && b) fz_fail("wgs_buffer_create failed but left its out-parameter non-NULL");
        return;
    }
    if (size > MAX_BYTES) { /* accepted and huge: not for this program */
        wgs_buffer_release(ctx, b);
        return;
    }
    s->b = b;
    s->size = size;
    s->usage = usage;
    s->shadow = calloc(1, (size_t)round4(size)); /* WebGPU buffers start zeroed */
    if (!s->shadow) fz_fail("out of host memory");
}

static uint64_t pick_offset(fz *f, uint64_t size) {
    uint32_t mode = fz_u8(f);
    if (mode < 96) return 0;
    if (mode < 176) return 4ull * fz_below(f, (uint32_t)(size / 4 + 2));
    if (mode < 216) return fz_below(f, (uint32_t)size + 8);
    if (mode < 236) return fz_info()->min_storage_offset_alignment * (uint64_t)(fz_u8(f) % 4);
    return fz_size(f, UINT64_MAX);
}

static uint64_t pick_size(fz *f, uint64_t size, uint64_t offset) {
    uint32_t mode = fz_u8(f);
    uint64_t rest = offset < size ? size - offset : 0;
    if (mode < 96) return rest;
    if (mode < 176) return 4ull * fz_below(f, (uint32_t)(rest / 4 + 2));
    if (mode < 216) return fz_below(f, (uint32_t)rest + 8);
    if (mode < 232) return UINT64_MAX - fz_u8(f); /* near 2^64 */
    return fz_size(f, UINT64_MAX);
}

static void op_write(fz *f, slot *s) {
    wgs_context *ctx = fz_context();
    uint64_t offset = pick_offset(f, s->size), size = pick_size(f, s->size, offset);
    uint64_t bsize = round4(s->size);
    fz_expect e = {0};
    int null_data = fz_u8(f) == 255;
    fz_rule(&e, !s->b, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, null_data && size, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, size % 4 || offset % 4, WGS_ERROR_MISALIGNED_OFFSET, 0);
    fz_rule(&e, s->b && (offset > bsize || bsize - offset < size), WGS_ERROR_BUFFER_TOO_SMALL, 0);
    /* between the size asked and the 4-byte multiple created: either way */
    if (s->b && !(offset > bsize || bsize - offset < size) && (offset > s->size || s->size - offset < size))
        fz_may(&e, WGS_ERROR_BUFFER_TOO_SMALL);
    if (s->b && size && !(s->usage & WGPUBufferUsage_CopyDst)) {
        fz_must(&e, WGS_ERROR_BUFFER_USAGE);
        fz_may(&e, WGS_ERROR_GPU_VALIDATION);
    }
    /* Data for what a write may take; larger sizes must be refused before any read. */
    uint64_t have = size <= MAX_BYTES ? size : 16;
    uint8_t *data = malloc((size_t)have + 1);
    if (!data) fz_fail("out of host memory");
    for (uint64_t i = 0; i < have; i++) data[i] = (uint8_t)(fz_u8(f) ^ (i * 131));
    wgs_result r = wgs_buffer_write(ctx, s->b, offset, null_data ? NULL : data, size);
    if (fz_check("wgs_buffer_write", r, e) && size) memcpy(s->shadow + offset, data, (size_t)size);
    free(data);
}

static void op_read(fz *f, slot *s) {
    wgs_context *ctx = fz_context();
    uint64_t offset = pick_offset(f, s->size), size = pick_size(f, s->size, offset);
    uint64_t bsize = round4(s->size);
    fz_expect e = {0};
    int null_data = fz_u8(f) == 255;
    fz_rule(&e, !s->b, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, null_data && size, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, offset % 4, WGS_ERROR_MISALIGNED_OFFSET, 0);
    int past = s->b && (offset > bsize || bsize - offset < size);
    fz_rule(&e, past, WGS_ERROR_BUFFER_TOO_SMALL, 0);
    /* The read moves whole words: a size that ends within the last word of the buffer
     * may be refused; so may sizes past the size asked. */
    if (s->b && !past && (bsize - offset < round4(size) || offset > s->size || s->size - offset < size))
        fz_may(&e, WGS_ERROR_BUFFER_TOO_SMALL);
    if (s->b && size && !(s->usage & WGPUBufferUsage_CopySrc)) {
        fz_must(&e, WGS_ERROR_BUFFER_USAGE);
        fz_may(&e, WGS_ERROR_GPU_VALIDATION);
        fz_may(&e, WGS_ERROR_MAP_FAILED);
    }
    /* The host memory: what a read may fill, then a guard that must stay as it is. */
    uint64_t have = size <= MAX_BYTES ? size : 16;
    const size_t guard = 64;
    uint8_t *data = malloc((size_t)have + guard);
    if (!data) fz_fail("out of host memory");
    memset(data, 0x5A, (size_t)have + guard);
    wgs_result r = wgs_buffer_read(ctx, s->b, offset, null_data ? NULL : data, size);
    if (fz_check("wgs_buffer_read", r, e)) {
        for (uint64_t i = 0; i < size; i++)
            if (data[i] != s->shadow[offset + i])
                fz_fail("wgs_buffer_read(offset %llu, size %llu) of a buffer of %llu (usage 0x%x): byte %llu is 0x%02x, "
                        "want 0x%02x",
                        (unsigned long long)offset, (unsigned long long)size, (unsigned long long)s->size,
                        (unsigned)s->usage, (unsigned long long)i, data[i], s->shadow[offset + i]);
    }
    for (size_t i = 0; i < guard + (have - (r == WGS_OK ? size : 0)); i++)
        if (data[(r == WGS_OK ? size : 0) + i] != 0x5A)
            fz_fail("wgs_buffer_read(offset %llu, size %llu) -> %s wrote host memory past what it returned",
                    (unsigned long long)offset, (unsigned long long)size, wgs_result_name(r));
    free(data);
}

static void op_copy(fz *f) {
    wgs_context *ctx = fz_context();
    uint32_t i = fz_below(f, SLOTS), j = fz_below(f, SLOTS);
    if (i == j && fz_u8(f) < 224) j = (j + 1) % SLOTS; /* mostly two buffers */
    slot *src = &slots[i], *dst = &slots[j];
    uint32_t align = fz_info()->min_storage_offset_alignment;
    wgs_copy_args a = {0};
    a.src = src->b;
    a.dst = dst->b;
    a.src_offset = fz_u8(f) < 200 ? 0 : pick_offset(f, src->size);
    a.dst_offset = fz_u8(f) < 200 ? 0 : pick_offset(f, dst->size);
    uint64_t most = src->size < dst->size ? src->size : dst->size;
    uint32_t mode = fz_u8(f);
    a.bytes = mode < 112 ? most / 16 * 16 : mode < 176 ? 16ull * fz_below(f, (uint32_t)(most / 16 + 2)) : pick_size(f, most, 0);
    fz_expect e = {0};
    fz_rule(&e, !a.src || !a.dst, WGS_ERROR_INVALID_ARGUMENT, 0);
    if (a.src && a.dst) {
        int lenient = a.bytes == 0;
        fz_rule(&e, a.bytes % 16 || a.src_offset % align || a.dst_offset % align, WGS_ERROR_MISALIGNED_OFFSET, 0);
        fz_rule(&e, a.src == a.dst, WGS_ERROR_ALIASING, 0);
        uint64_t ss = round4(src->size), ds = round4(dst->size);
        fz_rule(&e, a.src_offset > ss || ss - a.src_offset < a.bytes || a.dst_offset > ds || ds - a.dst_offset < a.bytes,
                WGS_ERROR_BUFFER_TOO_SMALL, 0);
        if (!((src->usage & WGPUBufferUsage_Storage) && (dst->usage & WGPUBufferUsage_Storage))) {
            fz_rule(&e, 1, WGS_ERROR_BUFFER_USAGE, lenient);
            fz_may(&e, WGS_ERROR_GPU_VALIDATION);
        }
    }
    WGPUCommandEncoder enc = fz_encoder(), use = enc;
    if (fz_u8(f) == 255) use = NULL, e = (fz_expect){FZ_CODE(WGS_ERROR_INVALID_ARGUMENT), 0};
    wgs_result r = wgs_copy_encode(ctx, use, &a);
    int ok = fz_check("wgs_copy_encode", r, e);
    fz_submit(enc, r == WGS_OK);
    if (ok && a.bytes) memcpy(dst->shadow + a.dst_offset, src->shadow + a.src_offset, (size_t)a.bytes);
}

/* The allocator over three fresh buffers: offsets checked against the manual's rules. */
static void op_alloc(fz *f) {
    wgs_context *ctx = fz_context();
    wgs_alloc_plan_desc d = {0};
    d.algorithm = (wgs_alloc_algorithm)fz_enum(f, WGS_ALLOC_ATOMIC);
    d.capacity = fz_size(f, 2048);
    uint64_t capacity = d.capacity ? d.capacity : 1;
    fz_expect e = {0};
    fz_rule(&e, (unsigned)d.algorithm > WGS_ALLOC_ATOMIC, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, capacity > 0xFFFFFFFFull || capacity > fz_info()->max_storage_binding_size / 4, WGS_ERROR_TOO_LARGE, 0);
    if (capacity > 2048) {
        fz_may(&e, WGS_ERROR_TOO_LARGE);
        fz_may(&e, WGS_ERROR_GPU_OUT_OF_MEMORY);
#ifdef FZ_TOLERATE_SCRATCH_VALIDATION
        fz_may(&e, WGS_ERROR_GPU_VALIDATION);
#endif
    }
    static char not_null;
    wgs_alloc_plan *plan = (wgs_alloc_plan *)(void *)&not_null;
    if (!fz_check("wgs_alloc_plan_create", wgs_alloc_plan_create(ctx, &d, &plan), e)) {
        if (plan) fz_fail("wgs_alloc_plan_create failed but left its out-parameter non-NULL");
        return;
    }
    uint64_t n = fz_u8(f) < 200 && capacity <= 2048 ? fz_below(f, (uint32_t)capacity + 1) : fz_size(f, 2048);
    uint64_t filled = n <= 2048 ? n : 0;
    uint32_t sizes[2048 + 1], state[2];
    uint32_t smode = fz_u8(f) % 3;
    uint64_t seed = fz_u64(f);
    for (uint64_t i = 0; i < filled; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)(seed >> 33);
        sizes[i] = smode == 0 ? r % 4 : smode == 1 ? r % 64 : r % 1024; /* sums stay far below 2^32 */
    }
    uint32_t arena = fz_u8(f) < 128 ? fz_u16(f) : fz_u32(f) % 100000;
    state[0] = fz_u8(f) < 192 ? 0 : fz_u16(f) % (arena + 1); /* a top within the arena */
    state[1] = fz_u32(f);
    uint64_t bytes = n > UINT64_MAX / 4 ? UINT64_MAX : n * 4;
    fz_expect ee = {0};
    int lenient = n == 0;
    fz_rule(&ee, n > capacity, WGS_ERROR_CAPACITY_EXCEEDED, 0);
    fz_buffer bs = fz_buffer_for(f, bytes, sizes, &ee, lenient);
    fz_buffer bo = fz_buffer_for(f, bytes, NULL, &ee, lenient);
    fz_buffer bt = fz_buffer_for(f, 8, state, &ee, lenient);
    fz_buffer *roles[3] = {&bs, &bo, &bt};
    if (fz_one_in(f, 12)) { /* one buffer in two roles */
        int from = (int)fz_below(f, 3), to = (int)fz_below(f, 3);
        if (from != to && roles[from]->b) {
            roles[to] = roles[from];
            ee = (fz_expect){0};
            fz_rule(&ee, n > capacity, WGS_ERROR_CAPACITY_EXCEEDED, 0);
            uint64_t need[3] = {bytes, bytes, 8};
            for (int i = 0; i < 3; i++) fz_buffer_rules(roles[i], need[i], &ee, lenient);
            fz_must(&ee, WGS_ERROR_ALIASING);
        }
    }
    wgs_alloc_args a = {roles[0]->b, roles[0]->offset, roles[1]->b, roles[1]->offset, roles[2]->b,
                        roles[2]->offset, n, arena, NULL, 0, 0};
    WGPUCommandEncoder enc = fz_encoder();
    int ok = fz_check("wgs_alloc_encode", wgs_alloc_encode(plan, enc, &a), ee);
    fz_submit(enc, 1);
    if (ok && n) {
        uint32_t *got = malloc((size_t)bo.size), *top = malloc((size_t)bt.size);
        if (!got || !top) fz_fail("out of host memory");
        fz_buffer_download(&bo, got);
        fz_buffer_download(&bt, top);
        const uint32_t *off = (const uint32_t *)((const uint8_t *)got + bo.offset);
        uint32_t top0 = state[0], top1;
        memcpy(&top1, (const uint8_t *)top + bt.offset, 4);
        fz_check_untouched("alloc offsets", (const uint8_t *)got, bo.init, bo.size, bo.offset, bo.offset + bytes);
        fz_check_untouched("alloc state", (const uint8_t *)top, bt.init, bt.size, bt.offset, bt.offset + 8);
        int atomic = d.algorithm == WGS_ALLOC_ATOMIC;
        if (!atomic) { /* request order: served up to the first that does not fit */
            uint64_t t = top0;
            int failed = 0;
            for (uint64_t i = 0; i < n; i++) {
                uint32_t want = WGS_ALLOC_FAILED;
                if (!failed && t + sizes[i] <= arena) want = (uint32_t)t, t += sizes[i];
                else failed = 1;
                if (off[i] != want)
                    fz_fail("alloc (scan) of %llu requests, arena %u, top %u: offsets[%llu] = %u, want %u",
                            (unsigned long long)n, arena, top0, (unsigned long long)i, off[i], want);
            }
            if (top1 != t) fz_fail("alloc (scan): top %u after, want %llu", top1, (unsigned long long)t);
        } else { /* any order: served blocks tile [top0, top1) without overlap */
            uint64_t served = 0;
            int any_failed = 0, failed_too_big = 0;
            uint8_t *used = calloc(1, (size_t)arena + 1);
            if (!used) fz_fail("out of host memory");
            for (uint64_t i = 0; i < n; i++) {
                if (off[i] == WGS_ALLOC_FAILED) {
                    any_failed = 1;
                    if ((uint64_t)top1 + sizes[i] > arena) failed_too_big = 1;
                    continue;
                }
                if (off[i] < top0 || (uint64_t)off[i] + sizes[i] > top1)
                    fz_fail("alloc (atomic): block %llu at %u + %u outside [%u, %u)", (unsigned long long)i, off[i],
                            sizes[i], top0, top1);
                for (uint32_t k = 0; k < sizes[i]; k++) {
                    if (used[off[i] + k]) fz_fail("alloc (atomic): blocks overlap at %u", off[i] + k);
                    used[off[i] + k] = 1;
                }
                served += sizes[i];
            }
            free(used);
            if (top1 > arena || served != (uint64_t)top1 - top0)
                fz_fail("alloc (atomic): top %u -> %u, arena %u, %llu units served", top0, top1, arena,
                        (unsigned long long)served);
            if (any_failed && !failed_too_big)
                fz_fail("alloc (atomic): requests failed although none would overflow the arena from top %u", top1);
        }
        free(got);
        free(top);
    }
    fz_buffer_release(&bs);
    fz_buffer_release(&bo);
    fz_buffer_release(&bt);
    wgs_alloc_plan_destroy(plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size) {
    fz f = {input, size, 0};
    fz_begin(&f);
    fz_context();
    /* A usable slot to begin with, so that short inputs reach reads and writes. */
    slot *first = &slots[0];
    first->size = 256;
    first->usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
    if (wgs_buffer_create(fz_context(), first->size, first->usage, &first->b) != WGS_OK)
        fz_fail("a buffer of 256 bytes could not be made");
    first->shadow = calloc(1, 256);
    if (!first->shadow) fz_fail("out of host memory");
    for (int step = 0; step < 24 && f.i < f.n; step++) {
        slot *s = &slots[fz_below(&f, SLOTS)];
        switch (fz_u8(&f) % 8) {
        case 0: op_create(&f, s); break;
        case 1:
        case 2: op_write(&f, s); break;
        case 3:
        case 4: op_read(&f, s); break;
        case 5: op_copy(&f); break;
        case 6: op_alloc(&f); break;
        default: slot_release(s); break;
        }
    }
    for (int i = 0; i < SLOTS; i++) slot_release(&slots[i]);
    return 0;
}
