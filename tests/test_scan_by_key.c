/* SPDX-License-Identifier: MIT */
/* The scan by key against a CPU reference (ref_scan per segment): every type x operator
 * x kind, keys and head flags, a single run, all distinct, runs shorter and longer than
 * a tile (crossing its borders), n = 0, 1, 2, tile +- 1 and several tiles; the portable
 * kernels; fallbacks forced after one fruitless look-back step, with and without
 * subgroups; float sums exact where every partial sum is representable and within the
 * documented bound against a double reference otherwise; the fold across tiles in tile
 * order, exactly, with every look-back walking through runs of aggregates; bad inputs
 * with their codes. */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint32_t rnd(void) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* Segment layouts: where segments start (heads[0] is always 1). */
enum { ONE_RUN, ALL_DISTINCT, SHORT_RUNS, LONG_RUNS };

static void make_heads(uint8_t *heads, uint64_t n, int layout, uint32_t tile) {
    for (uint64_t i = 0; i < n; i++) {
        switch (layout) {
        case ONE_RUN: heads[i] = 0; break;
        case ALL_DISTINCT: heads[i] = 1; break;
        case SHORT_RUNS: heads[i] = rnd() % 5 == 0; break;              /* mean 5: many a word */
        default: heads[i] = rnd() % (tile + tile / 2) == 0; break;       /* mean 1.5 tiles */
        }
    }
    if (n) heads[0] = 1;
}

/* Keys whose runs are the segments: a key repeats only in a later, non-adjacent run
 * (run index % 3, negative too for i32), so the kernel must compare neighbours. */
static void keys_of(const uint8_t *heads, uint32_t *keys, uint64_t n) {
    uint32_t run = 0;
    for (uint64_t i = 0; i < n; i++) {
        run += heads[i] && i;
        keys[i] = (run % 3) * 0x9E3779B1u; /* also in the high bits: 32-bit equality */
    }
}

/* Flags whose heads are the segments: any non-zero byte starts one; element 0's flag
 * is left 0 now and then, since element 0 starts a segment whatever its flag. */
static void flags_of(const uint8_t *heads, uint8_t *flags, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) flags[i] = heads[i] ? (uint8_t)(1 + rnd() % 255) : 0;
    if (n && rnd() % 2) flags[0] = 0;
}

/* Values: exact_floats gives small multiples of 1/8, so that float sums of up to 2^14
 * terms are exact whatever the grouping. */
static void fill_values(void *v, wgs_type type, wgs_op op, uint64_t n, int exact_floats, uint64_t seed) {
    ref_fill_random(v, type, op, n, seed);
    if (!exact_floats) return;
    for (uint64_t i = 0; i < n; i++) {
        float f = (float)((int)(rnd() % 2001) - 1000) / 8.0f;
        if (type == WGS_TYPE_F32) memcpy((char *)v + 4 * i, &f, 4);
        if (type == WGS_TYPE_F16) ((uint16_t *)v)[i] = ref_f32_to_f16((float)((int)(rnd() % 17) - 8) / 8.0f);
    }
}

static double value_at(const void *v, wgs_type type, uint64_t i) {
    if (type == WGS_TYPE_F16) return ref_f16_to_f32(((const uint16_t *)v)[i]);
    float f;
    memcpy(&f, (const char *)v + 4 * i, 4);
    return f;
}

/* Compares got with the reference, segment by segment; float sums that are not exact
 * (exact = 0) against the documented bound: k rounding steps times the magnitudes,
 * plus 2k smallest normals for flushed subnormals. Returns the mismatches. */
static uint64_t verify(const uint8_t *heads, const void *in, const void *got, wgs_type type, wgs_op op,
                       int inclusive, uint64_t n, int exact, uint64_t *first_bad) {
    const size_t es = wgs_type_size(type);
    void *want = malloc(n * es + 4);
    uint64_t bad = 0;
    int is_float = type == WGS_TYPE_F32 || type == WGS_TYPE_F16;
    for (uint64_t s = 0; s < n;) {
        uint64_t e = s + 1;
        while (e < n && !heads[e]) e++;
        ref_scan((const char *)in + s * es, (char *)want + s * es, type, op, inclusive, e - s);
        double sum = 0, mag = 0;
        for (uint64_t i = s; i < e; i++) {
            double x = value_at(in, type, i);
            if (inclusive) sum += x, mag += fabs(x);
            double k = (double)(i - s + 1);
            int wrong;
            if (is_float && op == WGS_OP_ADD && !exact) {
                double u = type == WGS_TYPE_F16 ? ldexp(1.0, -11) : ldexp(1.0, -24);
                double tiny = type == WGS_TYPE_F16 ? ldexp(1.0, -14) : ldexp(1.0, -126);
                wrong = !(fabs(value_at(got, type, i) - sum) <= k * u * mag + 2 * k * tiny);
            } else {
                wrong = memcmp((const char *)got + i * es, (const char *)want + i * es, es) != 0;
            }
            if (wrong && !bad) *first_bad = i;
            bad += (uint64_t)wrong;
            if (!inclusive) sum += x, mag += fabs(x);
        }
        s = e;
    }
    free(want);
    return bad;
}

/* One run of `plan` on a fresh layout; failures reported. */
static void run_case(wgs_context *ctx, wgs_scan_by_key_plan *plan, const wgs_scan_by_key_plan_desc *d, uint64_t n,
                     int layout, int exact, uint64_t seed) {
    const size_t es = wgs_type_size(d->type);
    const int flags = d->heads == WGS_HEADS_FLAGS;
    uint32_t tile = wgs_scan_by_key_plan_tile_size(plan);
    uint8_t *heads = malloc(n + 4), *fl = calloc(n + 4, 1);
    uint32_t *keys = malloc(n * 4 + 4);
    void *in = malloc(n * es + 4), *got = calloc(n * es + 4, 1);
    make_heads(heads, n, layout, tile);
    keys_of(heads, keys, n);
    flags_of(heads, fl, n);
    fill_values(in, d->type, d->op, n, exact, seed);
    WGPUBuffer hb = flags ? test_upload(ctx, fl, n) : test_upload(ctx, keys, n * 4);
    WGPUBuffer ib = test_upload(ctx, in, n * es);
    /* The output with a guard word past its end, which must survive. */
    uint64_t out_bytes = (n * es + 3) / 4 * 4;
    WGPUBuffer ob = test_buffer(ctx, out_bytes + 256);
    uint32_t guard[64];
    memset(guard, 0xA5, sizeof guard);
    CHECK_RESULT(wgs_buffer_write(ctx, ob, out_bytes, guard, sizeof guard), WGS_OK);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_scan_by_key_args a = {.input = ib, .output = ob, .n = n};
    if (flags) a.flags = hb;
    else a.keys = hb;
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    uint32_t after[64];
    if (n) CHECK(test_download(ctx, ob, got, out_bytes));
    CHECK_RESULT(wgs_buffer_read(ctx, ob, out_bytes, after, sizeof after), WGS_OK);
    CHECK(memcmp(after, guard, sizeof guard) == 0);
    uint64_t first = 0, bad = verify(heads, in, got, d->type, d->op, d->kind == WGS_SCAN_INCLUSIVE, n, exact, &first);
    if (bad)
        test_fail(__FILE__, __LINE__, "%s %s %s %s, n = %llu, layout %d: %llu wrong, first at %llu",
                  wgs_type_name(d->type), wgs_op_name(d->op), d->kind == WGS_SCAN_INCLUSIVE ? "inclusive" : "exclusive",
                  flags ? "flags" : "keys", (unsigned long long)n, layout, (unsigned long long)bad,
                  (unsigned long long)first);
    wgs_buffer_release(ctx, hb);
    wgs_buffer_release(ctx, ib);
    wgs_buffer_release(ctx, ob);
    free(heads), free(fl), free(keys), free(in), free(got);
}

static wgs_scan_by_key_plan *make_plan(wgs_context *ctx, const wgs_scan_by_key_plan_desc *d) {
    wgs_scan_by_key_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_by_key_plan_create(ctx, d, &plan), WGS_OK);
    return plan;
}

/* Every type x operator x kind, keys and flags alternating, at the tile's borders with
 * runs that cross them. The sanitized build, there for the host code, takes each
 * operator with one kind (the kinds, heads and key types still each met): the operator
 * and the kind are constants of the kernels, which take one host path, and each plan's
 * pipelines, compiled on ASan's allocator, are most of its time. */
static void matrix(wgs_type type) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    if (type == WGS_TYPE_F16 && !info.has_shader_f16) {
        test_skip("the device has no shader-f16");
        return;
    }
    const int is_float = type == WGS_TYPE_F32 || type == WGS_TYPE_F16;
    const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_MIN, WGS_OP_MAX, WGS_OP_AND, WGS_OP_OR, WGS_OP_XOR};
    for (int o = 0; o < (is_float ? 3 : 6); o++)
        for (int k = 0; k < 2; k++) {
            if (test_sanitized() && !test_long() && k != ((o >> 1) & 1)) continue;
            wgs_scan_by_key_plan_desc d = {.type = type, .op = ops[o],
                                           .kind = k ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                           .heads = (o + k) % 2 ? WGS_HEADS_FLAGS : WGS_HEADS_KEYS,
                                           .key_type = o % 3 == 1 ? WGS_TYPE_I32 : WGS_TYPE_U32,
                                           .capacity = 1 << 16};
            wgs_scan_by_key_plan *plan = make_plan(ctx, &d);
            if (!plan) continue;
            uint64_t t = wgs_scan_by_key_plan_tile_size(plan);
            const uint64_t sizes[] = {1, 2, 3, t - 1, t + 1, 7 * t + 3};
            for (int i = 0; i < 6; i++)
                run_case(ctx, plan, &d, sizes[i], i % 2 ? LONG_RUNS : SHORT_RUNS, 1, 100 * o + 10 * k + i);
            wgs_scan_by_key_plan_destroy(plan);
        }
}

TEST(scan_by_key_matrix_u32) { matrix(WGS_TYPE_U32); }
TEST(scan_by_key_matrix_i32) { matrix(WGS_TYPE_I32); }
TEST(scan_by_key_matrix_f32) { matrix(WGS_TYPE_F32); }
TEST(scan_by_key_matrix_f16) { matrix(WGS_TYPE_F16); }

/* The layouts at every border, keys and flags, both kinds; f32 sums exact and, with
 * values in [-1, 1), within the bound. */
static void layouts(wgs_context *ctx) {
    const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_F32};
    for (int ty = 0; ty < 2; ty++)
        for (int h = 0; h < 2; h++)
            for (int k = 0; k < 2; k++) {
                wgs_scan_by_key_plan_desc d = {.type = types[ty], .op = WGS_OP_ADD, .kind = k ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                               .heads = h ? WGS_HEADS_FLAGS : WGS_HEADS_KEYS, .capacity = 1 << 18};
                wgs_scan_by_key_plan *plan = make_plan(ctx, &d);
                if (!plan) continue;
                uint64_t t = wgs_scan_by_key_plan_tile_size(plan);
                const uint64_t sizes[] = {0, 1, 2, t - 1, t, t + 1, 37 * t + 5};
                for (int l = ONE_RUN; l <= LONG_RUNS; l++)
                    for (int i = 0; i < 7; i++) {
                        /* Exact float sums need segments below 2^14 terms. */
                        int exact = !(ty && (l == ONE_RUN || l == LONG_RUNS) && sizes[i] > 16384);
                        run_case(ctx, plan, &d, sizes[i], l, exact, 7 * l + i);
                        if (ty && exact && i == 6) run_case(ctx, plan, &d, sizes[i], l, 0, 99 + l); /* the bound */
                    }
                wgs_scan_by_key_plan_destroy(plan);
            }
}

TEST(scan_by_key_layouts) {
    wgs_context *ctx = test_context();
    if (ctx) layouts(ctx);
}

/* The portable kernels (workgroup memory only), as on a device without subgroups. */
TEST(scan_by_key_without_subgroups) {
    wgs_experimental e = {.disable_subgroups = 1};
    wgs_context *ctx = test_context_experimental(&e);
    if (ctx) layouts(ctx);
}

/* Fallbacks after one fruitless look-back step: helpers reduce predecessors' tiles all
 * the time, closed ones (with a segment start) among them, racing the owners. */
TEST(scan_by_key_forced_fallback) {
    for (int sg = 0; sg < 2; sg++) {
        wgs_context *ctx = test_context_forced_fallback(sg);
        if (!ctx) return;
        const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_F32, WGS_TYPE_I32};
        const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_ADD, WGS_OP_MAX};
        for (int k = 0; k < 3; k++) {
            wgs_scan_by_key_plan_desc d = {.type = types[k], .op = ops[k], .kind = WGS_SCAN_INCLUSIVE,
                                           .heads = k == 2 ? WGS_HEADS_FLAGS : WGS_HEADS_KEYS, .capacity = 1 << 20};
            wgs_scan_by_key_plan *plan = make_plan(ctx, &d);
            if (!plan) continue;
            uint64_t t = wgs_scan_by_key_plan_tile_size(plan);
            run_case(ctx, plan, &d, 61 * t + 7, LONG_RUNS, 1, 500 + k);
            run_case(ctx, plan, &d, 61 * t + 7, SHORT_RUNS, 1, 510 + k);
            run_case(ctx, plan, &d, (1 << 18) - 3, k == 1 ? SHORT_RUNS : ONE_RUN, 1, 520 + k);
            wgs_scan_by_key_plan_destroy(plan);
        }
    }
}

/* The order of the fold across tiles, exactly: inclusive prefixes withheld (an
 * experiment), so every look-back walks back to tile 0 or to the last tile with a
 * segment start through runs of aggregates, found ready or reduced by fallbacks. Tile t
 * holds one value, k 2^-25 (k = 1..3; 1 at tile 0 and at a segment start) at its first
 * element, zeros after it, so that every sum inside a tile is exact and the outputs
 * of tile t are I_t = I_(t-1) + A_t rounded, the left fold in tile order: any other
 * grouping of the quarter-ulp steps gives other bits. */
static void fold_order(int portable, uint32_t spins) {
    wgs_experimental e = {.disable_subgroups = portable, .lookback_spins = spins, .chain_withhold_inclusive = 1};
    wgs_context *ctx = test_context_experimental(&e);
    if (!ctx) return;
    /* 300 tiles of the device's shape: 1.2M elements with a GPU's 4096-element tiles
     * (a capacity of 2^20 failed there), 300K on a CPU driver's. */
    wgs_scan_by_key_plan_desc d = {.type = WGS_TYPE_F32, .op = WGS_OP_ADD, .kind = WGS_SCAN_INCLUSIVE,
                                   .heads = WGS_HEADS_FLAGS, .capacity = 1 << 23};
    wgs_scan_by_key_plan *plan = make_plan(ctx, &d);
    if (!plan) return;
    const uint64_t t = wgs_scan_by_key_plan_tile_size(plan), tiles = 300, n = tiles * t - 5;
    if (n > d.capacity) {
        test_fail(__FILE__, __LINE__, "a tile of %llu elements: 300 tiles exceed the plan", (unsigned long long)t);
        wgs_scan_by_key_plan_destroy(plan);
        return;
    }
    float *v = calloc(n, 4), *got = calloc(n, 4), *want = malloc(n * 4);
    uint8_t *flags = calloc(n + 4, 1);
    float run = 0;
    for (uint64_t k = 0; k < tiles; k++) {
        int head = k == 0 || k % 97 == 40;
        v[k * t] = head ? 1.0f : ldexpf((float)(1 + rnd() % 3), -25);
        flags[k * t] = (uint8_t)head;
        run = head ? v[k * t] : run + v[k * t];
        for (uint64_t i = k * t; i < (k + 1) * t && i < n; i++) want[i] = run;
    }
    WGPUBuffer fb = test_upload(ctx, flags, n), ib = test_upload(ctx, v, n * 4), ob = test_buffer(ctx, n * 4);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &(wgs_scan_by_key_args){.flags = fb, .input = ib, .output = ob, .n = n}),
                 WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    CHECK(test_download(ctx, ob, got, n * 4));
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < n; i++)
        if (memcmp(&got[i], &want[i], 4) && !bad++) first = i;
    if (bad)
        test_fail(__FILE__, __LINE__, "%s, spins %u: %llu differ, first at %llu (tile %llu): %.9g, want %.9g",
                  portable ? "without subgroups" : "subgroups", spins, (unsigned long long)bad,
                  (unsigned long long)first, (unsigned long long)(first / t), got[first], want[first]);
    wgs_buffer_release(ctx, fb), wgs_buffer_release(ctx, ib), wgs_buffer_release(ctx, ob);
    wgs_scan_by_key_plan_destroy(plan);
    free(v), free(got), free(want), free(flags);
}

/* The same walks over f32 values in [-1, 1), whose tile sums round: a helper that
 * reduces a predecessor's tile must publish its owner's very bits, or the fold (and
 * the output) would differ between walks that meet helpers' states and walks that do
 * not. Returns the output (the caller frees it). */
static float *fold_random(int portable, uint32_t spins, uint64_t n) {
    wgs_experimental e = {.disable_subgroups = portable, .lookback_spins = spins, .chain_withhold_inclusive = 1};
    wgs_context *ctx = test_context_experimental(&e);
    if (!ctx) return NULL;
    wgs_scan_by_key_plan_desc d = {.type = WGS_TYPE_F32, .op = WGS_OP_ADD, .kind = WGS_SCAN_EXCLUSIVE, .capacity = n};
    wgs_scan_by_key_plan *plan = make_plan(ctx, &d);
    if (!plan) return NULL;
    float *v = malloc(n * 4), *got = calloc(n, 4);
    uint32_t *keys = calloc(n, 4);
    ref_fill_random(v, WGS_TYPE_F32, WGS_OP_ADD, n, 91);
    for (uint64_t i = 0; i < n; i++) keys[i] = (uint32_t)(i / 40000); /* runs of many tiles */
    WGPUBuffer kb = test_upload(ctx, keys, n * 4), ib = test_upload(ctx, v, n * 4), ob = test_buffer(ctx, n * 4);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &(wgs_scan_by_key_args){.keys = kb, .input = ib, .output = ob, .n = n}),
                 WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    CHECK(test_download(ctx, ob, got, n * 4));
    wgs_buffer_release(ctx, kb), wgs_buffer_release(ctx, ib), wgs_buffer_release(ctx, ob);
    wgs_scan_by_key_plan_destroy(plan);
    free(v), free(keys);
    return got;
}

TEST(scan_by_key_fold_order) {
    for (int portable = 0; portable < 2; portable++) {
        fold_order(portable, 0);
        fold_order(portable, 1);
        const uint64_t n = 300000;
        float *a = fold_random(portable, 0, n), *b = fold_random(portable, 1, n);
        if (a && b && memcmp(a, b, n * 4))
            test_fail(__FILE__, __LINE__, "%s: f32 sums differ with fallbacks forced",
                      portable ? "without subgroups" : "subgroups");
        free(a), free(b);
    }
}

/* Bad descriptions and arguments, each with its exact code. */
TEST(scan_by_key_bad_inputs) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_scan_by_key_plan *plan = NULL;
    wgs_scan_by_key_plan_desc bad[] = {
        {.type = (wgs_type)99}, {.type = WGS_TYPE_F32, .op = WGS_OP_XOR}, {.op = WGS_OP_ARGMIN},
        {.kind = (wgs_scan_kind)7}, {.heads = (wgs_segment_heads)5}, {.key_type = WGS_TYPE_F32},
        {.capacity = 1ull << 31}};
    const wgs_result want[] = {WGS_ERROR_UNSUPPORTED_TYPE, WGS_ERROR_UNSUPPORTED_OPERATOR, WGS_ERROR_UNSUPPORTED_OPERATOR,
                               WGS_ERROR_INVALID_ARGUMENT, WGS_ERROR_INVALID_ARGUMENT, WGS_ERROR_UNSUPPORTED_TYPE,
                               WGS_ERROR_TOO_LARGE};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_RESULT(wgs_scan_by_key_plan_create(ctx, &bad[i], &plan), want[i]);
        CHECK(plan == NULL);
    }
    CHECK_RESULT(wgs_scan_by_key_plan_create(ctx, NULL, &plan), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_scan_by_key_plan_create(NULL, &bad[0], &plan), WGS_ERROR_INVALID_ARGUMENT);
    wgs_scan_by_key_plan_destroy(NULL);
    CHECK(wgs_scan_by_key_plan_tile_size(NULL) == 0 && wgs_scan_by_key_plan_scratch_size(NULL) == 0);

    wgs_scan_by_key_plan_desc d = {.capacity = 1000};
    CHECK_RESULT(wgs_scan_by_key_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    CHECK(wgs_scan_by_key_plan_scratch_size(plan) > 0);
    WGPUBuffer keys = test_buffer(ctx, 4096), in = test_buffer(ctx, 4096), out = test_buffer(ctx, 4096);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_scan_by_key_args ok = {.keys = keys, .input = in, .output = out, .n = 1000};
    wgs_scan_by_key_args a = ok;
    a.n = 1001;
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a = ok, a.keys = NULL;
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = ok, a.output = in;
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.output = keys;
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.input_offset = 4;
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    a = ok, a.keys_offset = 256;
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    CHECK_RESULT(wgs_scan_by_key_encode(plan, NULL, &ok), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, NULL), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_scan_by_key_encode(NULL, enc, &ok), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &ok), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    wgs_scan_by_key_plan_destroy(plan);
    wgs_buffer_release(ctx, keys);
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, out);
}

/* The host helper: flags, inclusive sums of ones give each element's place in its
 * segment. */
TEST(scan_by_key_host) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { N = 10000 };
    static uint8_t flags[N];
    static uint32_t ones[N], got[N];
    for (int i = 0; i < N; i++) flags[i] = i % 7 == 3, ones[i] = 1;
    wgs_scan_by_key_plan_desc d = {.kind = WGS_SCAN_INCLUSIVE, .heads = WGS_HEADS_FLAGS};
    CHECK_RESULT(wgs_scan_by_key_host(ctx, &d, flags, ones, N, got), WGS_OK);
    uint32_t want = 0;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        want = flags[i] ? 1 : want + 1;
        bad += got[i] != want;
    }
    CHECK(bad == 0);
    CHECK_RESULT(wgs_scan_by_key_host(ctx, &d, NULL, ones, N, got), WGS_ERROR_INVALID_ARGUMENT);
}

/* ---- the carry-in ----------------------------------------------------------------- */

/* One scan by key with a carry-in (mode 1: init_value, 2: init_buffer at offset 256 among
 * other words), checked as the scan of [carry, values] whose element 1 continues the
 * carry's run, from its second output on. */
static void carry_case(wgs_context *ctx, wgs_scan_by_key_plan *plan, const wgs_scan_by_key_plan_desc *d, uint64_t n,
                       int layout, int mode, uint64_t seed) {
    const wgs_type type = d->type ? d->type : WGS_TYPE_U32;
    const wgs_op op = d->op ? d->op : WGS_OP_ADD;
    const size_t es = wgs_type_size(type);
    const int flags = d->heads == WGS_HEADS_FLAGS, inclusive = d->kind == WGS_SCAN_INCLUSIVE;
    uint8_t *heads = malloc(n + 5), *fl = calloc(n + 4, 1);
    uint32_t *keys = malloc(n * 4 + 4);
    char *in = malloc((n + 1) * es + 4), *got = calloc(n + 1, es + 4);
    make_heads(heads + 1, n, layout, wgs_scan_by_key_plan_tile_size(plan));
    keys_of(heads + 1, keys, n);
    flags_of(heads + 1, fl, n);
    fill_values(in, type, op, n + 1, 1, seed); /* in[0] is the carry */
    heads[0] = 1;
    heads[1] = 0;
    WGPUBuffer hb = flags ? test_upload(ctx, fl, n) : test_upload(ctx, keys, n * 4);
    WGPUBuffer ib = test_upload(ctx, in + es, n * es), ob = test_buffer(ctx, n * es + 4), cb = NULL;
    if (mode == 2) {
        uint8_t words[512];
        memset(words, 0x5A, sizeof words);
        memcpy(words + 256, in, es);
        cb = test_upload(ctx, words, sizeof words);
    }
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_scan_by_key_args a = {.input = ib, .output = ob, .n = n, .init_value = mode == 1 ? in : NULL,
                              .init_buffer = cb, .init_offset = cb ? 256 : 0};
    if (flags) a.flags = hb;
    else a.keys = hb;
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    ref_scan(in, got, type, op, inclusive, 1); /* the reference's own first output */
    if (n) CHECK(test_download(ctx, ob, got + es, n * es));
    uint64_t first = 0, bad = verify(heads, in, got, type, op, inclusive, n + 1, 1, &first);
    if (bad)
        test_fail(__FILE__, __LINE__, "carry from a %s: %s %s %s %s, n = %llu, layout %d: %llu wrong, first at %llu",
                  mode == 1 ? "value" : "buffer", wgs_type_name(type), wgs_op_name(op),
                  inclusive ? "inclusive" : "exclusive", flags ? "flags" : "keys", (unsigned long long)n, layout,
                  (unsigned long long)bad, (unsigned long long)(first - 1));
    WGPUBuffer all[] = {hb, ib, ob, cb};
    for (int i = 0; i < 4; i++) wgs_buffer_release(ctx, all[i]);
    free(heads), free(fl), free(keys), free(in), free(got);
}

/* The carry from a value and from a buffer: every type x operator x kind, keys and
 * flags, a first run shorter than a word, than a tile, and of every element. */
static void carry_matrix(wgs_context *ctx, int all_ops) {
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_I32, WGS_TYPE_F32, WGS_TYPE_F16};
    const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_MIN, WGS_OP_MAX, WGS_OP_AND, WGS_OP_OR, WGS_OP_XOR};
    for (int ty = 0; ty < 4; ty++) {
        if (types[ty] == WGS_TYPE_F16 && !info.has_shader_f16) continue;
        for (int o = 0; o < (ty >= 2 ? 3 : 6); o++) {
            if (!all_ops && o != ty % 3) continue;
            for (int k = 0; k < 2; k++) {
                wgs_scan_by_key_plan_desc d = {.type = types[ty], .op = ops[o],
                                               .kind = k ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                               .heads = (o + k + ty) % 2 ? WGS_HEADS_FLAGS : WGS_HEADS_KEYS,
                                               .capacity = 1 << 16};
                wgs_scan_by_key_plan *plan = make_plan(ctx, &d);
                if (!plan) continue;
                uint64_t t = wgs_scan_by_key_plan_tile_size(plan);
                carry_case(ctx, plan, &d, 1, ONE_RUN, 1, 700 + o);
                carry_case(ctx, plan, &d, 3, ALL_DISTINCT, 2, 710 + o);
                carry_case(ctx, plan, &d, 5 * t + 3, SHORT_RUNS, 1 + k, 720 + o);
                carry_case(ctx, plan, &d, 5 * t + 3, LONG_RUNS, 2 - k, 730 + o);
                carry_case(ctx, plan, &d, 3 * t - 1, ONE_RUN, 2, 740 + o);
                wgs_scan_by_key_plan_destroy(plan);
            }
        }
    }
}

/* The sanitized build takes one operator a type, as the fallbacks below do: the carry's
 * host paths (from a value, from a buffer, keys and flags, both kinds) are all still met. */
TEST(scan_by_key_carry) {
    wgs_context *ctx = test_context();
    if (ctx) carry_matrix(ctx, !test_sanitized() || test_long());
}

/* Tile 0 (the one that holds the carry) rebuilt by helpers: its owner publishes nothing,
 * inclusive prefixes are withheld so that look-backs walk back to it, and fallbacks come
 * after one fruitless step; the portable kernels too. */
TEST(scan_by_key_carry_fallback) {
    for (int sg = 0; sg < 2; sg++) {
        wgs_experimental e = {.disable_subgroups = sg, .lookback_spins = 1, .chain_withhold_inclusive = 1,
                              .chain_withhold_first = 1};
        wgs_context *ctx = test_context_experimental(&e);
        if (!ctx) return;
        carry_matrix(ctx, 0);
    }
}

typedef void (*copy_fn)(WGPUCommandEncoder, WGPUBuffer, uint64_t, WGPUBuffer, uint64_t, uint64_t);

/* A scan by key continued: the whole input scanned in two chunks, the second carrying
 * the first's last output in from a GPU buffer (copied there by the GPU) or from a
 * value where the run goes on across the border, and no carry where one starts there,
 * gives the one scan's bits. */
TEST(scan_by_key_carry_chunks) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    copy_fn copy = (copy_fn)wgs_context_get_proc(ctx, "wgpuCommandEncoderCopyBufferToBuffer");
    if (!copy) {
        test_fail(__FILE__, __LINE__, "no wgpuCommandEncoderCopyBufferToBuffer");
        return;
    }
    const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_F32, WGS_TYPE_I32};
    const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_ADD, WGS_OP_MIN};
    for (int c = 0; c < 6; c++) {
        const int flags = c % 2, from_buffer = c < 2 || c >= 4;
        wgs_scan_by_key_plan_desc d = {.type = types[c % 3], .op = ops[c % 3], .kind = WGS_SCAN_INCLUSIVE,
                                       .heads = flags ? WGS_HEADS_FLAGS : WGS_HEADS_KEYS, .capacity = 1 << 16};
        wgs_scan_by_key_plan *plan = make_plan(ctx, &d);
        if (!plan) continue;
        const uint64_t t = wgs_scan_by_key_plan_tile_size(plan), m = 3 * t + 256, n = m + 2 * t + 7;
        uint8_t *heads = malloc(n + 4), *fl = calloc(n + 4, 1);
        uint32_t *keys = malloc(n * 4), *in = malloc(n * 4), *whole = calloc(n, 4), *parts = calloc(n, 4);
        make_heads(heads, n, c < 2 ? ONE_RUN : LONG_RUNS, (uint32_t)t);
        heads[m] = c >= 4; /* the run goes on across the border, or one starts there */
        keys_of(heads, keys, n);
        flags_of(heads, fl, n);
        fill_values(in, d.type, d.op, n, 1, 800 + c);
        WGPUBuffer hb = flags ? test_upload(ctx, fl, n) : test_upload(ctx, keys, n * 4);
        WGPUBuffer ib = test_upload(ctx, in, n * 4), ob = test_buffer(ctx, n * 4), cb = test_buffer(ctx, 512);
        WGPUCommandEncoder enc = NULL;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        wgs_scan_by_key_args a = {.input = ib, .output = ob, .n = n};
        if (flags) a.flags = hb;
        else a.keys = hb;
        CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        CHECK(test_download(ctx, ob, whole, n * 4));

        /* chunk 1 [0, m), then chunk 2 [m, n) at offsets m and 4m (multiples of 256) */
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        a.n = m;
        CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_OK);
        copy(enc, ob, (m - 1) * 4, cb, 256, 4);
        wgs_scan_by_key_args b = a;
        b.n = n - m;
        b.input_offset = b.output_offset = m * 4;
        if (flags) b.flags_offset = m;
        else b.keys_offset = m * 4;
        uint32_t last = 0;
        if (!from_buffer) { /* the value read back between the chunks */
            CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
            CHECK_RESULT(wgs_buffer_read(ctx, ob, (m - 1) * 4, &last, 4), WGS_OK);
            CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        }
        if (!heads[m]) { /* the carry only where the run goes on */
            if (from_buffer) b.init_buffer = cb, b.init_offset = 256;
            else b.init_value = &last;
        }
        WGPUBuffer ob2 = test_buffer(ctx, n * 4); /* chunk 2's output: the carry's buffer is another */
        b.output = ob2;
        CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &b), WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        CHECK(test_download(ctx, ob, parts, m * 4));
        CHECK_RESULT(wgs_buffer_read(ctx, ob2, m * 4, parts + m, (n - m) * 4), WGS_OK);
        if (memcmp(whole, parts, n * 4))
            test_fail(__FILE__, __LINE__, "%s %s %s, carry from a %s%s: the chunks differ from the whole scan",
                      wgs_type_name(d.type), wgs_op_name(d.op), flags ? "flags" : "keys",
                      from_buffer ? "buffer" : "value", heads[m] ? " (none: a run starts there)" : "");
        WGPUBuffer all[] = {hb, ib, ob, cb, ob2};
        for (int i = 0; i < 5; i++) wgs_buffer_release(ctx, all[i]);
        free(heads), free(fl), free(keys), free(in), free(whole), free(parts);
        wgs_scan_by_key_plan_destroy(plan);
    }
}

/* The carry's bad arguments, with their codes. */
TEST(scan_by_key_carry_bad_inputs) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_scan_by_key_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_by_key_plan_create(ctx, &(wgs_scan_by_key_plan_desc){.capacity = 1000}, &plan), WGS_OK);
    if (!plan) return;
    WGPUBuffer keys = test_buffer(ctx, 4096), in = test_buffer(ctx, 4096), out = test_buffer(ctx, 4096),
               small = test_buffer(ctx, 256);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_scan_by_key_args ok = {.keys = keys, .input = in, .output = out, .n = 1000, .init_buffer = small};
    wgs_scan_by_key_args a = ok;
    a.init_buffer = out;
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.init_offset = 4;
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    a = ok, a.init_offset = 256;
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &ok), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    wgs_scan_by_key_plan_destroy(plan);
    WGPUBuffer all[] = {keys, in, out, small};
    for (int i = 0; i < 4; i++) wgs_buffer_release(ctx, all[i]);
}

/* ---- reduce by key ---------------------------------------------------------------- */

/* One reduce by key against the reference: the runs of the keys, each run's first key,
 * its reduction (ref_scan's last element, exact values, so any grouping gives its bits;
 * for arg ops ref_reduce's value and index) and their count, read from the GPU buffer. */
/* gpu_count >= 0: n is the bound and the count (clamped) comes from a GPU buffer; the
 * runs are those of the first count elements, nothing written past them. */
static void reduce_case_count(wgs_context *ctx, wgs_reduce_by_key_plan *plan, const wgs_reduce_by_key_plan_desc *d,
                              uint64_t n, int layout, uint32_t tile, uint64_t seed, int64_t gpu_count) {
    const uint64_t m = gpu_count >= 0 && (uint64_t)gpu_count < n ? (uint64_t)gpu_count : n;
    const size_t es = wgs_type_size(d->type ? d->type : WGS_TYPE_U32);
    const wgs_type type = d->type ? d->type : WGS_TYPE_U32;
    const wgs_op op = d->op ? d->op : WGS_OP_ADD;
    const int arg = op == WGS_OP_ARGMIN || op == WGS_OP_ARGMAX;
    const size_t rs = arg ? 8 : es; /* a run's result: (value bits, index) for arg ops */
    uint8_t *heads = malloc(n + 4);
    uint32_t *keys = malloc(n * 4 + 4), *got_keys = calloc(n + 1, 4), *want_keys = malloc(n * 4 + 4);
    void *in = malloc(n * es + 4), *got = calloc(n + 1, rs), *want = malloc(n * rs + 8), *scan = malloc(n * es + 4);
    make_heads(heads, n, layout, tile);
    keys_of(heads, keys, n);
    fill_values(in, type, op, n, 1, seed);
    uint64_t runs = 0;
    for (uint64_t s = 0; s < m;) {
        uint64_t e = s + 1;
        while (e < m && !heads[e]) e++;
        if (arg) {
            ref_reduction w = ref_reduce((const char *)in + s * es, type, op, e - s);
            const uint32_t pair[2] = {w.bits, w.index + (uint32_t)s};
            memcpy((char *)want + runs * rs, pair, rs);
        } else {
            ref_scan((const char *)in + s * es, (char *)scan + s * es, type, op, 1, e - s);
            memcpy((char *)want + runs * rs, (char *)scan + (e - 1) * es, es);
        }
        want_keys[runs++] = keys[s];
        s = e;
    }
    WGPUBuffer kb = test_upload(ctx, keys, n * 4), ib = test_upload(ctx, in, n * es);
    uint8_t *guard = malloc(n * rs + 8);
    memset(guard, 0xC3, n * rs + 8);
    WGPUBuffer ukb = test_upload(ctx, guard, n * 4 + 4), ab = test_upload(ctx, guard, n * rs + 4), rb = test_buffer(ctx, 4);
    WGPUBuffer cb = gpu_count >= 0 ? test_count_buffer(ctx, (uint32_t)gpu_count, 16) : NULL;
    uint32_t stale = 0xDEADBEEF, count = 0;
    CHECK_RESULT(wgs_buffer_write(ctx, rb, 0, &stale, 4), WGS_OK);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_reduce_by_key_args a = {.keys = kb, .input = ib, .n = n, .unique_keys = ukb, .aggregates = ab, .num_runs = rb,
                                .n_buffer = cb, .n_offset = 16};
    CHECK_RESULT(wgs_reduce_by_key_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    CHECK_RESULT(wgs_buffer_read(ctx, rb, 0, &count, 4), WGS_OK);
    if (count == runs && runs) {
        CHECK(test_download(ctx, ukb, got_keys, runs * 4));
        CHECK(test_download(ctx, ab, got, runs * rs));
    }
    if (gpu_count >= 0 && count == runs) { /* nothing past the runs */
        uint8_t *after = malloc(n * rs + 4);
        if (n > runs && test_download(ctx, ukb, after, n * 4))
            CHECK(memcmp(after + runs * 4, guard, (n - runs) * 4) == 0);
        if (n > runs && test_download(ctx, ab, after, n * rs))
            CHECK(memcmp(after + runs * rs, guard, (n - runs) * rs) == 0);
        free(after);
    }
    if (count != runs || memcmp(got_keys, want_keys, runs * 4) || memcmp(got, want, runs * rs))
        test_fail(__FILE__, __LINE__, "reduce by key %s %s, n = %llu, layout %d: %u runs (want %llu)%s",
                  wgs_type_name(type), wgs_op_name(op), (unsigned long long)n, layout, count,
                  (unsigned long long)runs, count == runs ? ", keys or aggregates differ" : "");
    WGPUBuffer all[] = {kb, ib, ukb, ab, rb, cb};
    for (int i = 0; i < 6; i++) wgs_buffer_release(ctx, all[i]);
    free(heads), free(keys), free(got_keys), free(want_keys), free(in), free(got), free(want), free(scan), free(guard);
}

static void reduce_case(wgs_context *ctx, wgs_reduce_by_key_plan *plan, const wgs_reduce_by_key_plan_desc *d,
                        uint64_t n, int layout, uint32_t tile, uint64_t seed) {
    reduce_case_count(ctx, plan, d, n, layout, tile, seed, -1);
}

static wgs_reduce_by_key_plan *make_reduce_plan(wgs_context *ctx, const wgs_reduce_by_key_plan_desc *d) {
    wgs_reduce_by_key_plan *plan = NULL;
    CHECK_RESULT(wgs_reduce_by_key_plan_create(ctx, d, &plan), WGS_OK);
    return plan;
}

/* Every type x operator at the tile's borders; the layouts at every size for u32 add.
 * The sanitized build, there for the host code (the operator only picks the kernels'
 * combine), takes a third of the operators, in turn over the types, arg ones included:
 * each plan's pipelines cost most of its time there. */
TEST(reduce_by_key_matrix) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_I32, WGS_TYPE_F32};
    const wgs_op int_ops[] = {WGS_OP_ADD, WGS_OP_MIN,    WGS_OP_MAX,   WGS_OP_AND,
                              WGS_OP_OR,  WGS_OP_XOR,    WGS_OP_ARGMIN, WGS_OP_ARGMAX};
    const wgs_op float_ops[] = {WGS_OP_ADD, WGS_OP_MIN, WGS_OP_MAX, WGS_OP_ARGMIN, WGS_OP_ARGMAX};
    for (int ty = 0; ty < 3; ty++) {
        const wgs_op *ops = ty == 2 ? float_ops : int_ops;
        for (int o = 0; o < (ty == 2 ? 5 : 8); o++) {
            if (test_sanitized() && !test_long() && (o + ty) % 3 != 0) continue;
            wgs_reduce_by_key_plan_desc d = {.type = types[ty], .op = ops[o], .key_type = o % 2 ? WGS_TYPE_I32 : 0,
                                             .capacity = 1 << 16};
            wgs_reduce_by_key_plan *plan = make_reduce_plan(ctx, &d);
            if (!plan) continue;
            const uint32_t t = 1024; /* about a tile of the CPU drivers' segmented reduce */
            const uint64_t sizes[] = {1, t + 1, 7ull * t + 3};
            for (int i = 0; i < 3; i++) reduce_case(ctx, plan, &d, sizes[i], i % 2 ? LONG_RUNS : SHORT_RUNS, t, 30 * o + i);
            wgs_reduce_by_key_plan_destroy(plan);
        }
    }
    wgs_reduce_by_key_plan_desc d = {.capacity = 1 << 18};
    wgs_reduce_by_key_plan *plan = make_reduce_plan(ctx, &d);
    if (!plan) return;
    CHECK(wgs_reduce_by_key_plan_scratch_size(plan) >= (1u << 18) * 4u); /* the run starts */
    const uint64_t sizes[] = {0, 1, 2, 1023, 1024, 1025, 37 * 1024 + 5};
    for (int l = ONE_RUN; l <= LONG_RUNS; l++)
        for (int i = 0; i < 7; i++) reduce_case(ctx, plan, &d, sizes[i], l, 1024, 40 + i);
    wgs_reduce_by_key_plan_destroy(plan);
}

/* With fallbacks forced (select's chain), with and without subgroups. */
TEST(reduce_by_key_forced_fallback) {
    for (int sg = 0; sg < 2; sg++) {
        wgs_context *ctx = test_context_forced_fallback(sg);
        if (!ctx) return;
        wgs_reduce_by_key_plan_desc d = {.type = WGS_TYPE_F32, .op = WGS_OP_ADD, .capacity = 1 << 20};
        wgs_reduce_by_key_plan *plan = make_reduce_plan(ctx, &d);
        if (!plan) continue;
        reduce_case(ctx, plan, &d, (1 << 18) - 7, LONG_RUNS, 1024, 60 + sg);
        reduce_case(ctx, plan, &d, (1 << 18) - 7, SHORT_RUNS, 1024, 62 + sg);
        wgs_reduce_by_key_plan_destroy(plan);
    }
}

TEST(reduce_by_key_bad_inputs) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_reduce_by_key_plan *plan = NULL;
    CHECK_RESULT(wgs_reduce_by_key_plan_create(ctx, &(wgs_reduce_by_key_plan_desc){.type = WGS_TYPE_F32, .op = WGS_OP_XOR},
                                               &plan),
                 WGS_ERROR_UNSUPPORTED_OPERATOR);
    CHECK_RESULT(wgs_reduce_by_key_plan_create(ctx, &(wgs_reduce_by_key_plan_desc){.type = WGS_TYPE_F16}, &plan),
                 WGS_ERROR_UNSUPPORTED_TYPE);
    CHECK_RESULT(wgs_reduce_by_key_plan_create(ctx, &(wgs_reduce_by_key_plan_desc){.key_type = WGS_TYPE_F32}, &plan),
                 WGS_ERROR_UNSUPPORTED_TYPE);
    CHECK_RESULT(wgs_reduce_by_key_plan_create(ctx, &(wgs_reduce_by_key_plan_desc){.capacity = 1ull << 31}, &plan),
                 WGS_ERROR_TOO_LARGE);
    CHECK_RESULT(wgs_reduce_by_key_plan_create(ctx, NULL, &plan), WGS_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL);
    wgs_reduce_by_key_plan_destroy(NULL);
    CHECK(wgs_reduce_by_key_plan_scratch_size(NULL) == 0);
    CHECK_RESULT(wgs_reduce_by_key_plan_create(ctx, &(wgs_reduce_by_key_plan_desc){.capacity = 1000}, &plan), WGS_OK);
    if (!plan) return;
    WGPUBuffer keys = test_buffer(ctx, 4096), in = test_buffer(ctx, 4096), uk = test_buffer(ctx, 4096),
               agg = test_buffer(ctx, 4096), runs = test_buffer(ctx, 4);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_reduce_by_key_args ok = {.keys = keys, .input = in, .n = 1000, .unique_keys = uk, .aggregates = agg,
                                 .num_runs = runs};
    wgs_reduce_by_key_args a = ok;
    a.n = 1001;
    CHECK_RESULT(wgs_reduce_by_key_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a = ok, a.num_runs = NULL;
    CHECK_RESULT(wgs_reduce_by_key_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = ok, a.aggregates = uk;
    CHECK_RESULT(wgs_reduce_by_key_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.unique_keys = keys;
    CHECK_RESULT(wgs_reduce_by_key_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.num_runs_offset = 4;
    CHECK_RESULT(wgs_reduce_by_key_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    CHECK_RESULT(wgs_reduce_by_key_encode(NULL, enc, &ok), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_reduce_by_key_encode(plan, enc, &ok), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    wgs_reduce_by_key_plan_destroy(plan);
    WGPUBuffer all[] = {keys, in, uk, agg, runs};
    for (int i = 0; i < 5; i++) wgs_buffer_release(ctx, all[i]);
}

/* The host helper: counts per run of i / 7 keys. */
TEST(reduce_by_key_host) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { N = 10000 };
    static uint32_t keys[N], ones[N], uk[N], agg[N];
    for (int i = 0; i < N; i++) keys[i] = (uint32_t)i / 7, ones[i] = 1;
    uint32_t runs = 0;
    CHECK_RESULT(wgs_reduce_by_key_host(ctx, &(wgs_reduce_by_key_plan_desc){0}, keys, ones, N, uk, agg, &runs), WGS_OK);
    CHECK(runs == (N + 6) / 7);
    int bad = 0;
    for (uint32_t r = 0; r < runs && r < N; r++) bad += uk[r] != r || agg[r] != (r + 1 < runs ? 7u : N - 7u * r);
    CHECK(bad == 0);
    CHECK_RESULT(wgs_reduce_by_key_host(ctx, &(wgs_reduce_by_key_plan_desc){0}, keys, ones, 0, uk, agg, &runs), WGS_OK);
    CHECK(runs == 0);
}

/* ---- counts on the GPU (args.n_buffer) --------------------------------------------- */

/* Keys and flags, f32 (same bits as n = the count: the fold is in tile order) and u32:
 * counts at the tile's edges, the bound and above it; nothing past the count written. */
TEST(scan_by_key_count_from_gpu) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const wgs_scan_by_key_plan_desc descs[] = {
        {.type = WGS_TYPE_F32, .op = WGS_OP_ADD, .kind = WGS_SCAN_INCLUSIVE},
        {.type = WGS_TYPE_U32, .op = WGS_OP_MAX, .kind = WGS_SCAN_EXCLUSIVE, .heads = WGS_HEADS_FLAGS},
    };
    for (size_t k = 0; k < 2; k++) {
        wgs_scan_by_key_plan_desc d = descs[k];
        wgs_scan_by_key_plan *probe = make_plan(ctx, &d);
        uint32_t t = wgs_scan_by_key_plan_tile_size(probe);
        wgs_scan_by_key_plan_destroy(probe);
        const uint64_t bound = 3ull * t + 37;
        d.capacity = bound;
        wgs_scan_by_key_plan *plan = make_plan(ctx, &d);
        if (!plan) continue;
        const int flags = d.heads == WGS_HEADS_FLAGS;
        uint8_t *heads = malloc(bound + 4), *fl = calloc(bound + 4, 1);
        uint32_t *keys = malloc(bound * 4), *in = malloc(bound * 4), *got = malloc(bound * 4 + 256);
        uint32_t *host = malloc(bound * 4 + 256), *guard = malloc(bound * 4 + 256);
        make_heads(heads, bound, SHORT_RUNS, t);
        keys_of(heads, keys, bound);
        flags_of(heads, fl, bound);
        fill_values(in, d.type, d.op, bound, 0, 17 + k);
        memset(guard, 0xC3, bound * 4 + 256);
        WGPUBuffer hb = flags ? test_upload(ctx, fl, bound) : test_upload(ctx, keys, bound * 4);
        WGPUBuffer ib = test_upload(ctx, in, bound * 4);
        uint32_t counts[8];
        int nc = test_count_values(t, bound, counts);
        for (int i = 0; i < nc; i++) {
            uint64_t c = counts[i] < bound ? counts[i] : bound;
            WGPUBuffer ob = test_upload(ctx, guard, bound * 4 + 256), hob = test_upload(ctx, guard, bound * 4 + 256);
            WGPUBuffer cb = test_count_buffer(ctx, counts[i], 8);
            WGPUCommandEncoder enc = NULL;
            CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
            wgs_scan_by_key_args a = {.input = ib, .output = ob, .n = bound, .n_buffer = cb, .n_offset = 8};
            wgs_scan_by_key_args h = {.input = ib, .output = hob, .n = c};
            if (flags) a.flags = h.flags = hb;
            else a.keys = h.keys = hb;
            CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &a), WGS_OK);
            CHECK_RESULT(wgs_scan_by_key_encode(plan, enc, &h), WGS_OK);
            CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
            if (test_download(ctx, ob, got, bound * 4 + 256) && test_download(ctx, hob, host, bound * 4 + 256)) {
                uint64_t first = 0, bad = verify(heads, in, got, d.type, d.op, d.kind == WGS_SCAN_INCLUSIVE, c, 0, &first);
                if (bad)
                    test_fail(__FILE__, __LINE__, "%s bound %llu count %u: %llu wrong, first at %llu",
                              wgs_type_name(d.type), (unsigned long long)bound, counts[i], (unsigned long long)bad,
                              (unsigned long long)first);
                if (memcmp(got, host, c * 4) != 0)
                    test_fail(__FILE__, __LINE__, "bound %llu count %u: not the bits of n = %llu",
                              (unsigned long long)bound, counts[i], (unsigned long long)c);
                if (memcmp((char *)got + c * 4, guard, (bound - c) * 4 + 256) != 0)
                    test_fail(__FILE__, __LINE__, "bound %llu count %u: written past the count",
                              (unsigned long long)bound, counts[i]);
            }
            wgs_buffer_release(ctx, ob);
            wgs_buffer_release(ctx, hob);
            wgs_buffer_release(ctx, cb);
        }
        wgs_buffer_release(ctx, hb);
        wgs_buffer_release(ctx, ib);
        free(heads), free(fl), free(keys), free(in), free(got), free(host), free(guard);
        wgs_scan_by_key_plan_destroy(plan);
    }
}

/* The reduce by key with its element count on the GPU: u32 add and f32 arg-max, counts
 * at the tile's edges, the bound and above it. */
TEST(reduce_by_key_count_from_gpu) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const wgs_reduce_by_key_plan_desc descs[] = {{.type = WGS_TYPE_U32, .op = WGS_OP_ADD},
                                                 {.type = WGS_TYPE_F32, .op = WGS_OP_ARGMAX}};
    for (int k = 0; k < 2; k++) {
        const uint64_t bound = 9000;
        wgs_reduce_by_key_plan_desc d = descs[k];
        d.capacity = bound;
        wgs_reduce_by_key_plan *plan = make_reduce_plan(ctx, &d);
        if (!plan) continue;
        uint32_t counts[8];
        int nc = test_count_values(1024, bound, counts);
        for (int i = 0; i < nc; i++) reduce_case_count(ctx, plan, &d, bound, SHORT_RUNS, 1024, 60 + i, counts[i]);
        wgs_reduce_by_key_plan_destroy(plan);
    }
}

/* A chain in one encoder, no count read back by the host: a select of flagged
 * (key, value) pairs, a sort of the selected pairs by key (n: the select's count), and
 * a reduce by key of the sorted pairs (n: the same count), against the CPU. */
TEST(select_sort_reduce_by_key_chain) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t n = 5003;
    uint32_t *keys = malloc(n * 4), *vals = malloc(n * 4), *sel_k = malloc(n * 4), *sel_v = malloc(n * 4);
    uint32_t *got_k = malloc(n * 4 + 4), *got_a = malloc(n * 4 + 4), *want_k = malloc(n * 4), *want_a = malloc(n * 4);
    uint8_t *flags = malloc(n + 4);
    for (uint64_t i = 0; i < n; i++) {
        keys[i] = rnd() % 97;
        vals[i] = rnd() % 1000;
        flags[i] = rnd() % 3 == 0;
    }
    /* The CPU: the selected pairs, summed per key (a stable sort groups them by key). */
    uint64_t kept = 0, runs = 0;
    for (uint64_t i = 0; i < n; i++)
        if (flags[i]) sel_k[kept] = keys[i], sel_v[kept++] = vals[i];
    for (uint32_t key = 0; key < 97; key++) {
        uint32_t sum = 0;
        int seen = 0;
        for (uint64_t i = 0; i < kept; i++)
            if (sel_k[i] == key) sum += sel_v[i], seen = 1;
        if (seen) want_k[runs] = key, want_a[runs++] = sum;
    }
    wgs_select_plan *sp = NULL;
    wgs_sort_plan *so = NULL;
    wgs_reduce_by_key_plan *rk = NULL;
    CHECK_RESULT(wgs_select_plan_create(ctx, &(wgs_select_plan_desc){.payload = WGS_PAYLOAD_BUFFER, .capacity = n}, &sp),
                 WGS_OK);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.payload = WGS_PAYLOAD_BUFFER, .capacity = n}, &so),
                 WGS_OK);
    rk = make_reduce_plan(ctx, &(wgs_reduce_by_key_plan_desc){.capacity = n});
    WGPUBuffer kb = test_upload(ctx, keys, n * 4), vb = test_upload(ctx, vals, n * 4);
    WGPUBuffer fb = test_upload(ctx, flags, (n + 3) & ~3ull);
    WGPUBuffer sk = test_buffer(ctx, n * 4), sv = test_buffer(ctx, n * 4), ok = test_buffer(ctx, n * 4),
               ov = test_buffer(ctx, n * 4), uk = test_buffer(ctx, n * 4), ag = test_buffer(ctx, n * 4);
    WGPUBuffer count = test_buffer(ctx, 256), num_runs = test_buffer(ctx, 256);
    if (sp && so && rk && kb && vb && fb && sk && sv && ok && ov && uk && ag && count && num_runs) {
        WGPUCommandEncoder enc = NULL;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        CHECK_RESULT(wgs_select_encode(sp, enc, &(wgs_select_args){.input = kb, .flags = fb, .payload_in = vb,
                                                                   .output = sk, .payload_out = sv, .count = count,
                                                                   .n = n}),
                     WGS_OK);
        CHECK_RESULT(wgs_sort_encode(so, enc, &(wgs_sort_args){.keys_in = sk, .keys_out = ok, .values_in = sv,
                                                               .values_out = ov, .n = n, .n_buffer = count}),
                     WGS_OK);
        CHECK_RESULT(wgs_reduce_by_key_encode(rk, enc, &(wgs_reduce_by_key_args){
                         .keys = ok, .input = ov, .n = n, .unique_keys = uk, .aggregates = ag, .num_runs = num_runs,
                         .n_buffer = count}),
                     WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        uint32_t got_runs = 0;
        if (test_download(ctx, num_runs, &got_runs, 4) && got_runs == runs && test_download(ctx, uk, got_k, runs * 4) &&
            test_download(ctx, ag, got_a, runs * 4)) {
            CHECK(memcmp(got_k, want_k, runs * 4) == 0);
            CHECK(memcmp(got_a, want_a, runs * 4) == 0);
        } else {
            test_fail(__FILE__, __LINE__, "%u runs, want %llu", got_runs, (unsigned long long)runs);
        }
    }
    WGPUBuffer all[] = {kb, vb, fb, sk, sv, ok, ov, uk, ag, count, num_runs};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_select_plan_destroy(sp);
    wgs_sort_plan_destroy(so);
    wgs_reduce_by_key_plan_destroy(rk);
    free(keys), free(vals), free(sel_k), free(sel_v), free(got_k), free(got_a), free(want_k), free(want_a), free(flags);
}
