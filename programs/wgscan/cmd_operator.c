/* SPDX-License-Identifier: MIT */
/*
 * `wgscan scan --operator FILE.wgsl` and `wgscan reduce --operator FILE.wgsl`: a scan
 * or a reduce with the user's own operator
 * (wgs_operator_desc), read from a WGSL file whose header line says how to use it:
 *
 *   // wgscan-operator: element=Affine combine=then identity=1.0,0.0 [commutative] [reference=affine-f32]
 *
 * identity: one value a 32-bit word, in the element's order: 0x hex or an integer (the
 * word's bits), or a number with '.', 'e', inf or nan (an f32's bits).
 *
 * The tool cannot run WGSL on the CPU, so --verify needs a CPU reference that the file
 * names: reference=affine-f32 (pairs (a, b), x -> a x + b, composed in order) or
 * reference=mat2-u32 (2x2 u32 matrices, multiplied in order), the operators of
 * examples/operators/. Any other file is refused with --verify (exit 2). Random inputs
 * for those two references keep every result exact (integers, f32 small integers), so
 * the check is bit for bit; for other operators they are random words 0..15; with --in
 * the file is taken as it is (affine-f32 results are then compared within 1e-4 of the
 * magnitude, as the order of rounding differs).
 */
#include "cli.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { REF_NONE, REF_AFFINE_F32, REF_MAT2_U32 };

typedef struct cli_operator {
    char *text;
    char element[64], combine[64];
    uint32_t identity[4], words;
    int commutative, reference;
} cli_operator;

static float f32_of(uint32_t w) {
    float f;
    memcpy(&f, &w, 4);
    return f;
}
static uint32_t bits_of(float f) {
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

static int parse_word(const char *s, size_t len, uint32_t *out) {
    char buf[64];
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *end;
    if (strpbrk(buf, ".eEnN") && strncmp(buf, "0x", 2) != 0) {
        double d = strtod(buf, &end);
        if (*end) return -1;
        *out = bits_of((float)d);
        return 0;
    }
    if (buf[0] == '-') {
        long long v = strtoll(buf, &end, 0);
        if (*end || v < -2147483648LL) return -1;
        *out = (uint32_t)(int32_t)v;
        return 0;
    }
    unsigned long long v = strtoull(buf, &end, 0);
    if (*end || v > 0xFFFFFFFFull) return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Reads the file and its header line; EXIT_OK or EXIT_USAGE (said why). */
static int load(const char *path, cli_operator *op) {
    memset(op, 0, sizeof *op);
    uint64_t size;
    if (cli_input_size(path, &size) != 0) return EXIT_USAGE;
    if (size > (1u << 20)) return cli_usage_error("'%s': an operator file of %llu bytes (1 MiB at most)", path, (unsigned long long)size);
    op->text = calloc(1, (size_t)size + 1);
    if (!op->text) return cli_usage_error("cannot allocate %llu bytes", (unsigned long long)size);
    if (size && cli_read_input(path, op->text, size) != 0) return EXIT_USAGE;
    const char *h = strstr(op->text, "// wgscan-operator:");
    if (!h) return cli_usage_error("'%s' has no '// wgscan-operator: element=... combine=... identity=...' line", path);
    h += strlen("// wgscan-operator:");
    const char *eol = strchr(h, '\n');
    if (!eol) eol = h + strlen(h);
    int have_identity = 0;
    while (h < eol) {
        while (h < eol && isspace((unsigned char)*h)) h++;
        const char *t = h;
        while (h < eol && !isspace((unsigned char)*h)) h++;
        size_t len = (size_t)(h - t);
        if (!len) continue;
        const char *eq = memchr(t, '=', len);
        size_t klen = eq ? (size_t)(eq - t) : len, vlen = eq ? len - klen - 1 : 0;
        const char *v = eq ? eq + 1 : NULL;
        if (!eq && klen == 11 && !strncmp(t, "commutative", 11)) {
            op->commutative = 1;
        } else if (eq && klen == 7 && (!strncmp(t, "element", 7) || !strncmp(t, "combine", 7))) {
            char *dst = !strncmp(t, "element", 7) ? op->element : op->combine;
            if (vlen == 0 || vlen >= 64) return cli_usage_error("'%s': %.*s is empty or too long", path, (int)klen, t);
            memcpy(dst, v, vlen);
            dst[vlen] = 0;
        } else if (eq && klen == 8 && !strncmp(t, "identity", 8)) {
            const char *p = v, *end = v + vlen;
            op->words = 0;
            while (p < end) {
                const char *c = memchr(p, ',', (size_t)(end - p));
                if (!c) c = end;
                if (op->words == 4 || parse_word(p, (size_t)(c - p), &op->identity[op->words]) != 0)
                    return cli_usage_error("'%s': identity=%.*s is not 1 to 4 comma-separated words", path, (int)vlen, v);
                op->words++;
                p = c + (c < end);
            }
            have_identity = op->words > 0;
        } else if (eq && klen == 9 && !strncmp(t, "reference", 9)) {
            if (vlen == 10 && !strncmp(v, "affine-f32", 10)) op->reference = REF_AFFINE_F32;
            else if (vlen == 8 && !strncmp(v, "mat2-u32", 8)) op->reference = REF_MAT2_U32;
            else return cli_usage_error("'%s': reference=%.*s is none of affine-f32, mat2-u32", path, (int)vlen, v);
        } else {
            return cli_usage_error("'%s': '%.*s' in the wgscan-operator line is none of element=, combine=, "
                                   "identity=, commutative, reference=", path, (int)len, t);
        }
    }
    if (!op->element[0] || !op->combine[0] || !have_identity)
        return cli_usage_error("'%s': the wgscan-operator line needs element=, combine= and identity=", path);
    if ((op->reference == REF_AFFINE_F32 && op->words != 2) || (op->reference == REF_MAT2_U32 && op->words != 4))
        return cli_usage_error("'%s': reference=%s takes an identity of %d words", path,
                               op->reference == REF_AFFINE_F32 ? "affine-f32" : "mat2-u32",
                               op->reference == REF_AFFINE_F32 ? 2 : 4);
    return EXIT_OK;
}

/* acc = combine(acc, x) for the references. */
static void ref_combine(int reference, uint32_t *acc, const uint32_t *x) {
    if (reference == REF_AFFINE_F32) {
        float fa = f32_of(acc[0]), fb = f32_of(acc[1]), ga = f32_of(x[0]), gb = f32_of(x[1]);
        acc[0] = bits_of(ga * fa);
        acc[1] = bits_of(ga * fb + gb);
        return;
    }
    uint32_t a = acc[0] * x[0] + acc[1] * x[2], b = acc[0] * x[1] + acc[1] * x[3];
    uint32_t c = acc[2] * x[0] + acc[3] * x[2], d = acc[2] * x[1] + acc[3] * x[3];
    acc[0] = a, acc[1] = b, acc[2] = c, acc[3] = d;
}

static void fill_random(const cli_operator *op, uint32_t *x, uint64_t n, uint64_t seed) {
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (uint64_t i = 0; i < n * op->words; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        uint32_t r = (uint32_t)(s >> 32);
        if (op->reference == REF_AFFINE_F32) /* a in {-1, 0, 1}, b in -8..8: exact in any grouping */
            x[i] = i % 2 == 0 ? bits_of(r % 16 == 0 ? 0.0f : (r & 16) ? -1.0f : 1.0f)
                              : bits_of((float)((int)(r % 17) - 8));
        else if (op->reference == REF_MAT2_U32) /* odd determinants: the products never collapse to 0 */
            x[i] = 2 * (r % 3) + (i % 4 == 0 || i % 4 == 3);
        else
            x[i] = r % 16;
    }
}

static wgs_result scan_once(wgs_context *ctx, wgs_scan_plan *plan, WGPUBuffer in, WGPUBuffer out, uint64_t n,
                            wgs_timer *timer, int pair, double *wall) {
    WGPUCommandEncoder enc;
    double t0 = cli_now();
    wgs_result r = wgs_encoder_create(ctx, &enc);
    if (r != WGS_OK) return r;
    wgs_scan_args a = {.input = in, .output = out, .n = n};
    if (timer && pair >= 0) {
        a.timestamp_query_set = wgs_timer_query_set(timer);
        a.timestamp_begin_index = 2u * (uint32_t)pair;
        a.timestamp_end_index = 2u * (uint32_t)pair + 1u;
    }
    r = wgs_scan_encode(plan, enc, &a);
    wgs_result sr = wgs_submit(ctx, enc);
    if (r == WGS_OK) r = sr;
    if (r == WGS_OK) r = wgs_wait(ctx);
    *wall = cli_now() - t0;
    return r;
}

/* What a scan or a reduce with a file's operator takes from its command's options. */
typedef struct operator_run {
    const char *operator_path, *in_path, *out_path;
    uint64_t n, seed;
    int have_n, verify, repeat, reduce, inclusive;
    wgs_scan_algorithm algorithm;
} operator_run;

static wgs_result reduce_once(wgs_context *ctx, wgs_reduce_plan *plan, WGPUBuffer in, WGPUBuffer out, uint64_t n,
                              wgs_timer *timer, int pair, double *wall) {
    WGPUCommandEncoder enc;
    double t0 = cli_now();
    wgs_result r = wgs_encoder_create(ctx, &enc);
    if (r != WGS_OK) return r;
    wgs_reduce_args a = {.input = in, .output = out, .n = n};
    if (timer && pair >= 0) {
        a.timestamp_query_set = wgs_timer_query_set(timer);
        a.timestamp_begin_index = 2u * (uint32_t)pair;
        a.timestamp_end_index = 2u * (uint32_t)pair + 1u;
    }
    r = wgs_reduce_encode(plan, enc, &a);
    wgs_result sr = wgs_submit(ctx, enc);
    if (r == WGS_OK) r = sr;
    if (r == WGS_OK) r = wgs_wait(ctx);
    *wall = cli_now() - t0;
    return r;
}

static int run_operator(wgs_context *ctx, const operator_run *o) {
    cli_operator op;
    int rc = load(o->operator_path, &op);
    if (rc == EXIT_OK && o->verify && op.reference == REF_NONE)
        rc = cli_usage_error("--verify needs a CPU reference, and '%s' names none: the tool cannot run WGSL on "
                             "the CPU (reference=affine-f32 or mat2-u32, as in examples/operators/)",
                             o->operator_path);
    const uint64_t es = 4ull * op.words;
    uint64_t n = o->n;
    if (rc == EXIT_OK && o->in_path) {
        uint64_t size;
        if (cli_input_size(o->in_path, &size) != 0) rc = EXIT_USAGE;
        else if (size % es)
            rc = cli_usage_error("'%s' holds %llu bytes, not a whole number of %llu-byte elements", o->in_path,
                                 (unsigned long long)size, (unsigned long long)es);
        else if (o->have_n && o->n != size / es)
            rc = cli_usage_error("--n %llu disagrees with '%s' (%llu elements)", (unsigned long long)o->n, o->in_path,
                                 (unsigned long long)(size / es));
        else n = size / es;
    }
    if (rc != EXIT_OK) return free(op.text), rc;

    wgs_operator_desc desc = {op.text, op.element, op.combine, op.identity, es, op.commutative};
    wgs_scan_plan *plan = NULL;
    wgs_reduce_plan *rplan = NULL;
    wgs_result r = o->reduce
        ? wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.capacity = n, .label = "wgscan cli", .custom = &desc},
                                 &rplan)
        : wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.kind = o->inclusive ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                                          .algorithm = o->algorithm, .capacity = n,
                                                          .label = "wgscan cli", .custom = &desc},
                               &plan);
    if (r != WGS_OK) return free(op.text), cli_gpu_error(ctx, r, "creating the plan");
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    printf("%s: n = %llu, %s (%s, %llu bytes), %s, on %s\n", o->reduce ? "reduce" : "scan", (unsigned long long)n,
           op.combine, op.element, (unsigned long long)es,
           o->reduce ? "tiles level after level" : o->inclusive ? "inclusive" : "exclusive",
           info.device);
    if (!o->reduce) printf("  algorithm: %s\n", cli_algorithm_name(wgs_scan_plan_algorithm(plan, n, 0)));
    const uint64_t out_elems = o->reduce ? 1 : n;
    uint32_t *in = calloc(n ? n : 1, es), *out = calloc(out_elems ? out_elems : 1, es);
    WGPUBuffer bin = NULL, bout = NULL;
    wgs_timer *timer = NULL;
    const int repeat = o->repeat < 1 ? 1 : o->repeat > CLI_MAX_REPEAT ? CLI_MAX_REPEAT : o->repeat;
    double wall[CLI_MAX_REPEAT], gpu[CLI_MAX_REPEAT], warm;
    if (!in || !out) {
        rc = cli_usage_error("cannot allocate %llu bytes", (unsigned long long)(n * es));
        goto done;
    }
    if (o->in_path) {
        if (n && cli_read_input(o->in_path, in, n * es) != 0) {
            rc = EXIT_USAGE;
            goto done;
        }
    } else {
        fill_random(&op, in, n, o->seed);
    }
    if (n || o->reduce) {
        const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
        r = wgs_buffer_create(ctx, n ? n * es : 16, usage, &bin);
        if (r == WGS_OK) r = wgs_buffer_create(ctx, out_elems * es, usage, &bout);
        if (r == WGS_OK && n) r = wgs_buffer_write(ctx, bin, 0, in, n * es);
        if (r == WGS_OK && info.has_timestamp_query && wgs_timer_create(ctx, (uint32_t)repeat, &timer) != WGS_OK)
            timer = NULL;
        for (int i = -1; r == WGS_OK && i < repeat; i++) /* -1: the warm-up */
            r = o->reduce ? reduce_once(ctx, rplan, bin, bout, n, timer, i, i < 0 ? &warm : &wall[i])
                          : scan_once(ctx, plan, bin, bout, n, timer, i, i < 0 ? &warm : &wall[i]);
        if (r == WGS_OK && timer) {
            WGPUCommandEncoder enc;
            r = wgs_encoder_create(ctx, &enc);
            if (r == WGS_OK) r = wgs_timer_resolve(timer, enc);
            if (r == WGS_OK) r = wgs_submit(ctx, enc);
            if (r == WGS_OK) r = wgs_timer_read(timer, gpu, (uint32_t)repeat);
        }
        if (r == WGS_OK) r = wgs_buffer_read(ctx, bout, 0, out, out_elems * es);
        if (r != WGS_OK) {
            rc = cli_gpu_error(ctx, r, o->reduce ? "running the reduce" : "running the scan");
            goto done;
        }
        printf("  median of %d runs: wall %.3f ms%s", repeat, cli_median(wall, repeat) * 1e3, timer ? "" : "\n");
        if (timer) printf(", GPU %.3f ms (%.1f GB/s, %s)\n", cli_median(gpu, repeat) * 1e3,
                          (o->reduce ? 1.0 : 2.0) * (double)(n * es) / cli_median(gpu, repeat) * 1e-9,
                          o->reduce ? "n read" : "n read + n written");
        if (o->reduce) {
            printf("  result:");
            for (uint32_t w = 0; w < op.words; w++) printf(" 0x%08x", out[w]);
            printf("\n");
        }
    } else {
        printf("  n = 0: nothing to scan\n");
    }
    if (o->verify) {
        uint32_t acc[4];
        memcpy(acc, op.identity, es);
        uint64_t bad = 0, first = 0;
        int exact = op.reference == REF_MAT2_U32 || !o->in_path;
        for (uint64_t i = 0; i < n || (o->reduce && i == n); i++) {
            uint32_t want[4];
            if (o->reduce && i == n) {
                memcpy(want, acc, es); /* the reduce: everything combined */
            } else {
                if (o->inclusive || o->reduce) ref_combine(op.reference, acc, in + i * op.words);
                memcpy(want, acc, es);
                if (!o->inclusive && !o->reduce) ref_combine(op.reference, acc, in + i * op.words);
                if (o->reduce) continue;
            }
            const uint32_t *got = o->reduce ? out : out + i * op.words;
            int same = memcmp(got, want, es) == 0;
            if (!same && !exact) { /* affine-f32 from a file: within 1e-4 of the magnitude */
                same = 1;
                for (uint32_t w = 0; w < 2; w++) {
                    double g = f32_of(got[w]), e = f32_of(want[w]), d = fabs(g - e);
                    if (!(d <= 1e-4 * (fabs(e) > 1 ? fabs(e) : 1))) same = 0;
                }
            }
            if (!same && bad++ == 0) first = i;
        }
        const char *ref = op.reference == REF_AFFINE_F32 ? "affine-f32" : "mat2-u32";
        if (bad) {
            printf("  verify: FAILED, %llu of %llu results differ from the CPU's %s, first at %llu\n",
                   (unsigned long long)bad, (unsigned long long)out_elems, ref, (unsigned long long)first);
            rc = EXIT_VERIFY_FAILED;
        } else {
            printf("  verify: OK, all %llu %s %s the CPU's %s reference, combined in input order\n",
                   (unsigned long long)out_elems, out_elems == 1 ? "result" : "elements",
                   exact ? "equal" : "within 1e-4 of", ref);
        }
    }
    if (rc == EXIT_OK && o->out_path && cli_write_file(o->out_path, out, out_elems * es) != 0) rc = EXIT_USAGE;
done:
    wgs_timer_destroy(timer);
    wgs_buffer_release(ctx, bin);
    wgs_buffer_release(ctx, bout);
    wgs_scan_plan_destroy(plan);
    wgs_reduce_plan_destroy(rplan);
    free(in);
    free(out);
    free(op.text);
    return rc;
}

int run_scan_operator(wgs_context *ctx, const scan_options *o) {
    operator_run r = {o->operator_path, o->in_path, o->out_path, o->n, o->seed, o->have_n, o->verify, o->repeat,
                      0, o->inclusive, o->algorithm};
    return run_operator(ctx, &r);
}

int run_reduce_operator(wgs_context *ctx, const prim_options *o) {
    operator_run r = {o->operator_path, o->in_path, o->out_path, o->n, o->seed, o->have_n, o->verify, o->repeat,
                      1, 0, WGS_SCAN_ALGORITHM_DEFAULT};
    return run_operator(ctx, &r);
}
