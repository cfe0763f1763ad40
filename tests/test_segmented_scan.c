/* SPDX-License-Identifier: MIT */
/* The segmented scan against a CPU reference (ref_scan per segment, the identity in no
 * segment): every type x operator x kind, both forms of segments; segment lengths 0, 1,
 * 2, tile - 1, tile, tile + 1, one segment over everything, random mixtures with many
 * empty segments, the begin/end form with gaps, CSR offsets that leave elements before
 * the first and after the last segment, no segments, n = 0; the portable kernels;
 * grids folded into two dimensions; no status word;
 * fallbacks forced with and without subgroups (and the outputs bit for bit the same as
 * without); float sums within the documented bound; the bad offsets' status codes, the
 * bad arguments' results and the host helper. */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0xD1B54A32D192ED03ull;
static uint32_t rnd(void) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* Segment s is [begin[s], end[s]); n elements in all. */
typedef struct layout {
    uint64_t n, segs;
    uint32_t *begin, *end;
} layout;

static void layout_free(layout *l) {
    free(l->begin);
    free(l->end);
    memset(l, 0, sizeof *l);
}

static void layout_push(layout *l, uint64_t *cap, uint64_t b, uint64_t e) {
    if (l->segs == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        l->begin = realloc(l->begin, *cap * 4);
        l->end = realloc(l->end, *cap * 4);
    }
    l->begin[l->segs] = (uint32_t)b;
    l->end[l->segs] = (uint32_t)e;
    l->segs++;
}

/* Back to back segments of the given lengths in turn from `first`, cut at `last` (at
 * most n): before `first` and from `last` on, elements in no segment. */
static layout layout_lengths(uint64_t n, uint64_t first, uint64_t last, const uint64_t *lens, int count) {
    layout l = {.n = n};
    uint64_t cap = 0, pos = first;
    for (int k = 0; pos < last || k < count; k++) {
        uint64_t len = lens[k % count];
        if (pos + len > last) len = last > pos ? last - pos : 0;
        layout_push(&l, &cap, pos, pos + len);
        pos += len;
        if (pos >= last && k + 1 >= count) break;
    }
    return l;
}

/* Random segments: `empty_pct` percent empty, the others 1..max_len long; with gaps
 * (BEGIN_END only) a random gap before a quarter of them. */
static layout layout_random(uint64_t n, int empty_pct, uint32_t max_len, int gaps) {
    layout l = {.n = n};
    uint64_t cap = 0, pos = 0;
    while (pos < n) {
        if (gaps && rnd() % 4 == 0) pos += rnd() % 60;
        if (pos > n) pos = n;
        uint64_t len = (int)(rnd() % 100) < empty_pct ? 0 : 1 + rnd() % max_len;
        if (pos + len > n) len = n - pos;
        layout_push(&l, &cap, pos, pos + len);
        pos += len;
    }
    return l;
}

/* Values the sums of which are exact in any grouping (small integers, multiples of 1/8
 * for floats: f16 sums of up to 2^7 such terms, f32 of up to 2^14), or any values of
 * the type (exact = 0: float sums checked against the bound). */
static void fill_values(void *v, wgs_type type, wgs_op op, uint64_t n, int exact, uint64_t seed) {
    ref_fill_random(v, type, op, n, seed);
    if (!exact) return;
    for (uint64_t i = 0; i < n; i++) {
        if (type == WGS_TYPE_F32) {
            float f = (float)((int)(rnd() % 2001) - 1000) / 8.0f;
            memcpy((char *)v + 4 * i, &f, 4);
        } else if (type == WGS_TYPE_F16) {
            ((uint16_t *)v)[i] = ref_f32_to_f16((float)((int)(rnd() % 17) - 8) / 8.0f);
        }
    }
}

static double value_at(const void *v, wgs_type type, uint64_t i) {
    if (type == WGS_TYPE_F16) return ref_f16_to_f32(((const uint16_t *)v)[i]);
    float f;
    memcpy(&f, (const char *)v + 4 * i, 4);
    return f;
}

/* The reference: each segment scanned alone, the identity in no segment. */
static void reference(const layout *l, const void *in, void *want, wgs_type type, wgs_op op, int inclusive) {
    const size_t es = wgs_type_size(type);
    char ident[4];
    ref_scan(in, ident, type, op, 0, 1); /* an exclusive scan's first output */
    for (uint64_t i = 0; i < l->n; i++) memcpy((char *)want + i * es, ident, es);
    for (uint64_t s = 0; s < l->segs; s++)
        ref_scan((const char *)in + l->begin[s] * es, (char *)want + l->begin[s] * es, type, op, inclusive,
                 l->end[s] - l->begin[s]);
}

/* Mismatches of got against want: bits, or for float sums that need not be exact the
 * bound of wgscan.h (k rounding steps of the type times the magnitudes, plus 2k
 * smallest normals). */
static uint64_t verify(const layout *l, const void *in, const void *got, const void *want, wgs_type type, wgs_op op,
                       int inclusive, int exact, uint64_t *first_bad) {
    const size_t es = wgs_type_size(type);
    uint64_t bad = 0;
    const int bound = (type == WGS_TYPE_F32 || type == WGS_TYPE_F16) && op == WGS_OP_ADD && !exact;
    uint8_t *in_seg = bound ? calloc(l->n + 1, 1) : NULL;
    if (bound) {
        const double u = type == WGS_TYPE_F16 ? ldexp(1.0, -11) : ldexp(1.0, -24);
        const double tiny = type == WGS_TYPE_F16 ? ldexp(1.0, -14) : ldexp(1.0, -126);
        for (uint64_t s = 0; s < l->segs; s++) {
            double sum = 0, mag = 0;
            for (uint64_t i = l->begin[s]; i < l->end[s]; i++) {
                double x = value_at(in, type, i);
                if (inclusive) sum += x, mag += fabs(x);
                double k = (double)(i - l->begin[s] + 1);
                int wrong = !(fabs(value_at(got, type, i) - sum) <= k * u * mag + 2 * k * tiny);
                if (wrong && !bad) *first_bad = i;
                bad += (uint64_t)wrong;
                in_seg[i] = 1;
                if (!inclusive) sum += x, mag += fabs(x);
            }
        }
    }
    for (uint64_t i = 0; i < l->n; i++) {
        if (bound && in_seg[i]) continue;
        int wrong = memcmp((const char *)got + i * es, (const char *)want + i * es, es) != 0;
        if (wrong && (!bad || i < *first_bad)) *first_bad = i;
        bad += (uint64_t)wrong;
    }
    free(in_seg);
    return bad;
}

/* Whether run_scan passes a status word (then its result is the status). */
static int with_status = 1;

/* One encode of a layout; returns the status word (or the encode's failure) and fills
 * got (n values). The output starts as a pattern that no result has, with a guard past
 * its end that must survive. */
static wgs_result run_scan(wgs_context *ctx, wgs_segmented_scan_plan *plan, wgs_segments_form form, wgs_type type,
                           const layout *l, const uint32_t *offsets, const void *in, void *got) {
    const size_t es = wgs_type_size(type);
    const int csr = form != WGS_SEGMENTS_BEGIN_END;
    const uint64_t n = l->n, segs = l->segs, out_bytes = (n * es + 3) / 4 * 4;
    WGPUBuffer ib = test_upload(ctx, in, n * es);
    WGPUBuffer bb = test_upload(ctx, csr ? offsets : l->begin, (csr ? segs + 1 : segs) * 4);
    WGPUBuffer eb = csr ? NULL : test_upload(ctx, l->end, segs * 4);
    WGPUBuffer ob = test_buffer(ctx, out_bytes + 256), sb = test_buffer(ctx, 256);
    uint8_t *pattern = malloc(out_bytes + 256);
    memset(pattern, 0xA5, out_bytes + 256);
    CHECK_RESULT(wgs_buffer_write(ctx, ob, 0, pattern, out_bytes + 256), WGS_OK);
    uint32_t stale = 0xDEAD;
    CHECK_RESULT(wgs_buffer_write(ctx, sb, 0, &stale, 4), WGS_OK);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_segmented_scan_args a = {.input = ib, .output = ob, .n = n, .n_segments = segs,
                                 .status = with_status ? sb : NULL};
    if (csr) a.offsets = bb;
    else a.begin_offsets = bb, a.end_offsets = eb;
    wgs_result r = wgs_segmented_scan_encode(plan, enc, &a);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    uint32_t status = 0;
    if (r == WGS_OK && with_status) CHECK_RESULT(wgs_buffer_read(ctx, sb, 0, &status, 4), WGS_OK);
    if (r == WGS_OK) r = (wgs_result)status;
    if (n) CHECK(test_download(ctx, ob, got, out_bytes));
    uint8_t after[256];
    CHECK_RESULT(wgs_buffer_read(ctx, ob, out_bytes, after, 256), WGS_OK);
    CHECK(memcmp(after, pattern, 256) == 0);
    free(pattern);
    WGPUBuffer all[] = {ib, bb, eb, ob, sb};
    for (int i = 0; i < 5; i++) wgs_buffer_release(ctx, all[i]);
    return r;
}

/* The CSR offsets of a layout whose segments lie back to back (n_segments + 1). */
static uint32_t *csr_of(const layout *l) {
    uint32_t *o = malloc((l->segs + 1) * 4);
    for (uint64_t s = 0; s < l->segs; s++) o[s] = l->begin[s];
    o[l->segs] = l->segs ? l->end[l->segs - 1] : 0;
    return o;
}

/* One layout through `plan` against the reference; a failure names what ran. */
static void check_layout(wgs_context *ctx, wgs_segmented_scan_plan *plan, const wgs_segmented_scan_plan_desc *d,
                         const layout *l, int exact, uint64_t seed, const char *what) {
    const size_t es = wgs_type_size(d->type ? d->type : WGS_TYPE_U32);
    const wgs_type type = d->type ? d->type : WGS_TYPE_U32;
    const wgs_op op = d->op ? d->op : WGS_OP_ADD;
    const int inclusive = d->kind == WGS_SCAN_INCLUSIVE;
    const uint64_t n = l->n;
    void *in = malloc(n * es + 4), *got = calloc(n * es + 4, 1), *want = malloc(n * es + 4);
    fill_values(in, type, op, n, exact, seed);
    reference(l, in, want, type, op, inclusive);
    uint32_t *offsets = d->segments == WGS_SEGMENTS_BEGIN_END ? NULL : csr_of(l);
    wgs_result r = run_scan(ctx, plan, d->segments, type, l, offsets, in, got);
    uint64_t first = 0, bad = r == WGS_OK ? verify(l, in, got, want, type, op, inclusive, exact, &first) : 0;
    if (r != WGS_OK || bad)
        test_fail(__FILE__, __LINE__, "%s: %s %s %s %s, n = %llu, %llu segments: %s, %llu wrong, first at %llu", what,
                  wgs_type_name(type), wgs_op_name(op), inclusive ? "inclusive" : "exclusive",
                  d->segments == WGS_SEGMENTS_BEGIN_END ? "begin/end" : "offsets", (unsigned long long)n,
                  (unsigned long long)l->segs, wgs_result_name(r), (unsigned long long)bad, (unsigned long long)first);
    free(in), free(got), free(want), free(offsets);
}

static wgs_segmented_scan_plan *make_plan(wgs_context *ctx, const wgs_segmented_scan_plan_desc *d) {
    wgs_segmented_scan_plan *plan = NULL;
    CHECK_RESULT(wgs_segmented_scan_plan_create(ctx, d, &plan), WGS_OK);
    return plan;
}

/* The layouts of a plan (its form) at its tile's borders: n elements. Every CSR layout
 * also runs with elements before its first and after its last segment. */
static void layouts(wgs_context *ctx, wgs_segmented_scan_plan *plan, const wgs_segmented_scan_plan_desc *d,
                    uint64_t n, int all, uint64_t seed) {
    const uint64_t t = wgs_segmented_scan_plan_tile_size(plan);
    const int csr = d->segments != WGS_SEGMENTS_BEGIN_END;
    const uint64_t singles[][1] = {{0}, {1}, {2}, {t - 1}, {t}, {t + 1}};
    const uint64_t mix[] = {0, 1, 0, 0, 2, t - 1, 0, 3, t + 1, 7, t, 0, 16};
    const int float_sums = (d->type == WGS_TYPE_F32 || d->type == WGS_TYPE_F16) && d->op == WGS_OP_ADD;
    /* sums of fill_values' multiples of 1/8 stay exact up to 2^7 terms (f16), 2^14 (f32) */
    const uint64_t exact_len = d->type == WGS_TYPE_F16 ? 128 : 1u << 14;
    layout l;
    for (int k = all ? 1 : 3; k < 6; k++) { /* (length 0 alone is no layout) */
        l = layout_lengths(n, 0, n, singles[k], 1);
        check_layout(ctx, plan, d, &l, !float_sums || singles[k][0] <= exact_len, seed + k, "one length");
        layout_free(&l);
    }
    l = layout_lengths(n, 0, n, mix, (int)(sizeof mix / sizeof mix[0]));
    check_layout(ctx, plan, d, &l, !float_sums || t + 1 <= exact_len, seed + 10, "mixed lengths");
    layout_free(&l);
    l = layout_lengths(n, 0, n, &n, 1); /* one segment over everything */
    check_layout(ctx, plan, d, &l, !float_sums || n <= exact_len, seed + 11, "one segment");
    layout_free(&l);
    l = layout_random(n, 30, (uint32_t)(2 * t), !csr);
    check_layout(ctx, plan, d, &l, !float_sums || 2 * t <= exact_len, seed + 12, csr ? "random" : "random, gaps");
    layout_free(&l);
    if (csr && n > 8) { /* elements before offsets[0] and after offsets[n_segments] */
        const uint64_t lens[] = {5, 0, t + 3, 1};
        l = layout_lengths(n, n / 5 + 1, n - n / 7 - 1, lens, 4);
        check_layout(ctx, plan, d, &l, !float_sums || t + 3 <= exact_len, seed + 13, "leading and trailing gaps");
        layout_free(&l);
    }
    if (float_sums && all) { /* values of any size, against the bound */
        l = layout_random(n, 10, (uint32_t)(5 * t), !csr);
        check_layout(ctx, plan, d, &l, 0, seed + 14, "the float bound");
        layout_free(&l);
    }
}

/* Every type x operator x kind, the forms in turn, at the tile's borders. The sanitized
 * build, there for the host code, takes each operator with one kind (both kinds and
 * forms still met): the operator and the kind are constants of the kernels, which take
 * one host path, and each plan's pipelines, compiled on ASan's allocator, are most of
 * its time. */
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
            wgs_segmented_scan_plan_desc d = {.type = type, .op = ops[o],
                                              .kind = k ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                              .segments = (o + k) % 2 ? WGS_SEGMENTS_BEGIN_END : WGS_SEGMENTS_OFFSETS,
                                              .capacity = 1 << 16, .segment_capacity = 1 << 16};
            wgs_segmented_scan_plan *plan = make_plan(ctx, &d);
            if (!plan) continue;
            uint64_t t = wgs_segmented_scan_plan_tile_size(plan);
            layouts(ctx, plan, &d, 7 * t + 3, 0, 100 * o + 10 * k);
            wgs_segmented_scan_plan_destroy(plan);
        }
}

TEST(segmented_scan_matrix_u32) { matrix(WGS_TYPE_U32); }
TEST(segmented_scan_matrix_i32) { matrix(WGS_TYPE_I32); }
TEST(segmented_scan_matrix_f32) { matrix(WGS_TYPE_F32); }
TEST(segmented_scan_matrix_f16) { matrix(WGS_TYPE_F16); }

/* u32 and f32 sums, both kinds and forms, every layout at sizes around the tile and of
 * many tiles; no segments; n = 0 with and without (empty) segments. */
static void all_layouts(wgs_context *ctx) {
    const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_F32};
    for (int ty = 0; ty < 2; ty++)
        for (int f = 0; f < 2; f++)
            for (int k = 0; k < 2; k++) {
                wgs_segmented_scan_plan_desc d = {.type = types[ty], .kind = k ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                                  .segments = f ? WGS_SEGMENTS_BEGIN_END : WGS_SEGMENTS_OFFSETS,
                                                  .capacity = 1 << 18, .segment_capacity = 1 << 18};
                wgs_segmented_scan_plan *plan = make_plan(ctx, &d);
                if (!plan) continue;
                uint64_t t = wgs_segmented_scan_plan_tile_size(plan);
                const uint64_t sizes[] = {1, 2, t - 1, t, t + 1, 37 * t + 5};
                for (int i = 0; i < 6; i++) layouts(ctx, plan, &d, sizes[i], 1, 1000 * ty + 100 * f + 10 * k + i);
                layout none = {.n = 3 * t + 1}; /* every element in no segment */
                check_layout(ctx, plan, &d, &none, 1, 5, "no segments");
                none.n = 0;
                check_layout(ctx, plan, &d, &none, 1, 6, "n = 0, no segments");
                const uint64_t zeros[3] = {0, 0, 0};
                layout empties = layout_lengths(0, 0, 0, zeros, 3);
                check_layout(ctx, plan, &d, &empties, 1, 7, "n = 0, three empty segments");
                layout_free(&empties);
                wgs_segmented_scan_plan_destroy(plan);
            }
}

TEST(segmented_scan_layouts) {
    wgs_context *ctx = test_context();
    if (ctx) all_layouts(ctx);
}

/* The portable kernels (workgroup memory only), as on a device without subgroups. */
TEST(segmented_scan_without_subgroups) {
    wgs_experimental e = {.disable_subgroups = 1};
    wgs_context *ctx = test_context_experimental(&e);
    if (ctx) all_layouts(ctx);
}

/* Fallbacks after one fruitless look-back step: helpers rebuild predecessors' tiles
 * from the offsets all the time, gaps and closed tiles among them, racing the owners. */
TEST(segmented_scan_forced_fallback) {
    for (int sg = 0; sg < 2; sg++) {
        wgs_context *ctx = test_context_forced_fallback(sg);
        if (!ctx) return;
        const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_F32, WGS_TYPE_I32};
        const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_ADD, WGS_OP_MAX};
        for (int k = 0; k < 3; k++) {
            wgs_segmented_scan_plan_desc d = {.type = types[k], .op = ops[k], .kind = k ? WGS_SCAN_INCLUSIVE : 0,
                                              .segments = k == 1 ? WGS_SEGMENTS_BEGIN_END : WGS_SEGMENTS_OFFSETS,
                                              .capacity = 1 << 20, .segment_capacity = 1 << 20};
            wgs_segmented_scan_plan *plan = make_plan(ctx, &d);
            if (!plan) continue;
            uint64_t t = wgs_segmented_scan_plan_tile_size(plan), n = 61 * t + 7;
            layout l = layout_random(n, 20, (uint32_t)(3 * t), k == 1);
            check_layout(ctx, plan, &d, &l, 1, 500 + k, "fallbacks, long segments");
            layout_free(&l);
            l = layout_random(n, 40, 9, k == 1);
            check_layout(ctx, plan, &d, &l, 1, 510 + k, "fallbacks, short segments");
            layout_free(&l);
            const uint64_t lens[] = {40 * t};
            l = layout_lengths(n, 3 * t + 1, n - 2 * t, lens, 1); /* a long segment between gaps */
            check_layout(ctx, plan, &d, &l, 1, 520 + k, "fallbacks, gaps around a long segment");
            layout_free(&l);
            wgs_segmented_scan_plan_destroy(plan);
        }
    }
}

/* Grids folded into two dimensions (at most 7 workgroups a row): the scan's tiles, the
 * tile states' reset and the check of n = 0 each take their linear index from both. */
TEST(segmented_scan_folded_grid) {
    wgs_context *ctx = test_context_capped(7, 0);
    if (!ctx) return;
    for (int f = 0; f < 2; f++) {
        wgs_segmented_scan_plan_desc d = {.type = WGS_TYPE_F32, .kind = f ? WGS_SCAN_INCLUSIVE : 0,
                                          .segments = f ? WGS_SEGMENTS_BEGIN_END : 0, .capacity = 1 << 18,
                                          .segment_capacity = 1 << 18};
        wgs_segmented_scan_plan *plan = make_plan(ctx, &d);
        if (!plan) continue;
        const uint64_t t = wgs_segmented_scan_plan_tile_size(plan);
        layout l = layout_random(45 * t + 9, 25, (uint32_t)(3 * t), f);
        check_layout(ctx, plan, &d, &l, 1, 650 + f, "a folded grid");
        layout_free(&l);
        /* n = 0: more empty segments than 7 workgroups check, the last end past n */
        enum { S = 5000 };
        uint32_t *b = calloc(S + 1, 4), *e = calloc(S, 4), none = 0;
        e[S - 1] = 1, b[S] = 1; /* (b doubles as the CSR offsets) */
        layout l0 = {.n = 0, .segs = S, .begin = b, .end = e};
        CHECK_RESULT(run_scan(ctx, plan, d.segments, d.type, &l0, b, &none, &none), WGS_ERROR_SEGMENT_OUT_OF_RANGE);
        free(b), free(e);
        wgs_segmented_scan_plan_destroy(plan);
    }
}

/* No status word: sizes whose output has no scalar tail (whole 16-byte words up to an
 * aligned end), no word view (fewer elements than one aligned block) and both. */
TEST(segmented_scan_without_status) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    with_status = 0;
    for (int f = 0; f < 2; f++) {
        wgs_segmented_scan_plan_desc d = {.kind = WGS_SCAN_INCLUSIVE, .segments = f ? WGS_SEGMENTS_BEGIN_END : 0,
                                          .capacity = 1 << 14, .segment_capacity = 1 << 14};
        wgs_segmented_scan_plan *plan = make_plan(ctx, &d);
        if (!plan) continue;
        const uint64_t t = wgs_segmented_scan_plan_tile_size(plan), sizes[] = {t, 2 * t, 5, 3 * t + 3};
        for (int i = 0; i < 4; i++) {
            layout l = layout_random(sizes[i], 20, 50, f);
            check_layout(ctx, plan, &d, &l, 1, 600 + i, "without a status word");
            layout_free(&l);
        }
        wgs_segmented_scan_plan_destroy(plan);
    }
    with_status = 1;
}

/* Deterministic: f32 sums of values whose tile sums round come out bit for bit the same
 * with inclusive prefixes withheld (tile 0's too) and fallbacks forced (every look-back
 * walks through aggregates, helpers' among them) as in a plain run. */
static float *fold_run(const wgs_experimental *e, const layout *l, const float *v) {
    wgs_context *ctx = test_context_experimental(e);
    if (!ctx) return NULL;
    wgs_segmented_scan_plan_desc d = {.type = WGS_TYPE_F32, .kind = WGS_SCAN_INCLUSIVE,
                                      .segments = WGS_SEGMENTS_BEGIN_END, .capacity = l->n, .segment_capacity = l->segs};
    wgs_segmented_scan_plan *plan = make_plan(ctx, &d);
    if (!plan) return NULL;
    float *got = calloc(l->n, 4);
    CHECK_RESULT(run_scan(ctx, plan, d.segments, d.type, l, NULL, v, got), WGS_OK);
    wgs_segmented_scan_plan_destroy(plan);
    return got;
}

TEST(segmented_scan_deterministic) {
    const uint64_t n = 300000;
    const uint64_t lens[] = {40000, 0, 3, 70001, 1};
    layout l = layout_lengths(n, 17, n - 5, lens, 5);
    float *v = malloc(n * 4);
    ref_fill_random(v, WGS_TYPE_F32, WGS_OP_ADD, n, 77);
    for (int portable = 0; portable < 2; portable++) {
        wgs_experimental plain = {.disable_subgroups = portable};
        wgs_experimental walks = {.disable_subgroups = portable, .lookback_spins = 1, .chain_withhold_inclusive = 1,
                                  .chain_withhold_first = 1};
        float *a = fold_run(&plain, &l, v), *b = fold_run(&walks, &l, v);
        if (a && b && memcmp(a, b, n * 4))
            test_fail(__FILE__, __LINE__, "%s: f32 sums differ with fallbacks forced",
                      portable ? "without subgroups" : "subgroups");
        free(a), free(b);
    }
    free(v);
    layout_free(&l);
}

/* The status word: each broken rule with its code, in both forms. */
static void bad_offsets(wgs_context *ctx, wgs_segments_form form) {
    wgs_segmented_scan_plan_desc d = {.segments = form, .capacity = 1 << 14, .segment_capacity = 64};
    wgs_segmented_scan_plan *plan = make_plan(ctx, &d);
    if (!plan) return;
    const uint64_t t = wgs_segmented_scan_plan_tile_size(plan), n = 3 * t + 5;
    uint32_t *in = calloc(n, 4), *got = calloc(n, 4);
    /* begin/end pairs; for CSR the begins and then the last end are the offsets */
    struct {
        uint32_t b[4], e[4];
        uint64_t segs;
        wgs_result want;
    } cases[] = {
        {{0, 10, 20}, {10, 20, (uint32_t)n}, 3, WGS_OK},
        {{0, 20, 10}, {20, 10, (uint32_t)n}, 3, WGS_ERROR_SEGMENTS_UNORDERED},          /* begins go back */
        {{0, (uint32_t)t + 9, (uint32_t)t}, {(uint32_t)t + 9, (uint32_t)t, (uint32_t)n}, 3,
         WGS_ERROR_SEGMENTS_UNORDERED},                                                 /* across a tile */
        {{0, 10, 20}, {10, 20, (uint32_t)n + 1}, 3, WGS_ERROR_SEGMENT_OUT_OF_RANGE},    /* the last end past n */
        {{0, (uint32_t)n + 7}, {(uint32_t)n + 7, (uint32_t)n + 9}, 2, WGS_ERROR_SEGMENT_OUT_OF_RANGE},
        {{30, 10}, {10, (uint32_t)n + 1}, 2, WGS_ERROR_SEGMENT_OUT_OF_RANGE},           /* both: the larger */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        layout l = {.n = n, .segs = cases[c].segs, .begin = cases[c].b, .end = cases[c].e};
        uint32_t offs[5];
        for (uint64_t s = 0; s < l.segs; s++) offs[s] = l.begin[s];
        offs[l.segs] = l.end[l.segs - 1];
        CHECK_RESULT(run_scan(ctx, plan, form, WGS_TYPE_U32, &l, offs, in, got), cases[c].want);
    }
    if (form == WGS_SEGMENTS_BEGIN_END) { /* end before begin, end past the next begin */
        uint32_t b[2] = {5, 40}, e[2] = {4, 60};
        layout l = {.n = n, .segs = 2, .begin = b, .end = e};
        CHECK_RESULT(run_scan(ctx, plan, form, WGS_TYPE_U32, &l, NULL, in, got), WGS_ERROR_SEGMENTS_UNORDERED);
        e[0] = 41;
        CHECK_RESULT(run_scan(ctx, plan, form, WGS_TYPE_U32, &l, NULL, in, got), WGS_ERROR_SEGMENTS_UNORDERED);
    }
    /* n = 0: any offset but 0 lies past n */
    uint32_t b0[2] = {0, 0}, e0[2] = {0, 1};
    layout l0 = {.n = 0, .segs = 2, .begin = b0, .end = e0};
    uint32_t offs0[3] = {0, 0, 1};
    CHECK_RESULT(run_scan(ctx, plan, form, WGS_TYPE_U32, &l0, offs0, in, got), WGS_ERROR_SEGMENT_OUT_OF_RANGE);
    e0[1] = 0, offs0[2] = 0;
    CHECK_RESULT(run_scan(ctx, plan, form, WGS_TYPE_U32, &l0, offs0, in, got), WGS_OK);
    free(in), free(got);
    wgs_segmented_scan_plan_destroy(plan);
}

/* Bad descriptions and arguments, each with its exact code; the status codes. */
TEST(segmented_scan_bad_inputs) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_segmented_scan_plan *plan = NULL;
    wgs_segmented_scan_plan_desc bad[] = {
        {.type = (wgs_type)99}, {.type = WGS_TYPE_U64}, {.type = WGS_TYPE_F32, .op = WGS_OP_XOR},
        {.op = WGS_OP_ARGMIN}, {.kind = (wgs_scan_kind)7}, {.segments = (wgs_segments_form)3},
        {.capacity = 1ull << 31}, {.segment_capacity = 1ull << 31}};
    const wgs_result want[] = {WGS_ERROR_UNSUPPORTED_TYPE, WGS_ERROR_UNSUPPORTED_TYPE, WGS_ERROR_UNSUPPORTED_OPERATOR,
                               WGS_ERROR_UNSUPPORTED_OPERATOR, WGS_ERROR_INVALID_ARGUMENT, WGS_ERROR_INVALID_ARGUMENT,
                               WGS_ERROR_TOO_LARGE, WGS_ERROR_TOO_LARGE};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_RESULT(wgs_segmented_scan_plan_create(ctx, &bad[i], &plan), want[i]);
        CHECK(plan == NULL);
    }
    CHECK_RESULT(wgs_segmented_scan_plan_create(ctx, NULL, &plan), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_segmented_scan_plan_create(NULL, &bad[0], &plan), WGS_ERROR_INVALID_ARGUMENT);
    wgs_segmented_scan_plan_destroy(NULL);
    CHECK(wgs_segmented_scan_plan_tile_size(NULL) == 0 && wgs_segmented_scan_plan_scratch_size(NULL) == 0);

    wgs_segmented_scan_plan_desc d = {.capacity = 1000, .segment_capacity = 10};
    CHECK_RESULT(wgs_segmented_scan_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    CHECK(wgs_segmented_scan_plan_scratch_size(plan) > 0 && wgs_segmented_scan_plan_tile_size(plan) > 0);
    WGPUBuffer offs = test_buffer(ctx, 4096), in = test_buffer(ctx, 4096), out = test_buffer(ctx, 4096),
               st = test_buffer(ctx, 256);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_segmented_scan_args ok = {.input = in, .output = out, .n = 1000, .offsets = offs, .n_segments = 10, .status = st};
    wgs_segmented_scan_args a = ok;
    a.n = 1001;
    CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a = ok, a.n_segments = 11;
    CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a = ok, a.offsets = NULL;
    CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = ok, a.output = NULL;
    CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = ok, a.output = in;
    CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.output = offs;
    CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.status = out;
    CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.input_offset = 4;
    CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    a = ok, a.offsets_offset = 4096;
    CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    CHECK_RESULT(wgs_segmented_scan_encode(plan, NULL, &ok), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, NULL), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_segmented_scan_encode(NULL, enc, &ok), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &ok), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    wgs_segmented_scan_plan_destroy(plan);
    WGPUBuffer all[] = {offs, in, out, st};
    for (int i = 0; i < 4; i++) wgs_buffer_release(ctx, all[i]);
    bad_offsets(ctx, WGS_SEGMENTS_OFFSETS);
    bad_offsets(ctx, WGS_SEGMENTS_BEGIN_END);
}

/* The host helper: inclusive sums of ones count each element's place in its segment,
 * 0 in a gap; bad offsets come back as the result. */
TEST(segmented_scan_host) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { N = 10000, S = 1200 };
    static uint32_t ones[N], got[N], begins[S], ends[S];
    for (int i = 0; i < N; i++) ones[i] = 1;
    for (int s = 0; s < S; s++) begins[s] = (uint32_t)(8 * s + s % 3), ends[s] = (uint32_t)(8 * s + 6);
    wgs_segmented_scan_plan_desc d = {.kind = WGS_SCAN_INCLUSIVE, .segments = WGS_SEGMENTS_BEGIN_END};
    CHECK_RESULT(wgs_segmented_scan_host(ctx, &d, ones, begins, ends, N, S, got), WGS_OK);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int s = i / 8, want = 0;
        if (s < S && (uint32_t)i >= begins[s] && (uint32_t)i < ends[s]) want = i - (int)begins[s] + 1;
        bad += got[i] != (uint32_t)want;
    }
    CHECK(bad == 0);
    ends[7] = begins[8] + 1;
    CHECK_RESULT(wgs_segmented_scan_host(ctx, &d, ones, begins, ends, N, S, got), WGS_ERROR_SEGMENTS_UNORDERED);
    d.segments = WGS_SEGMENTS_OFFSETS;
    uint32_t offs[3] = {0, 5000, N + 1};
    CHECK_RESULT(wgs_segmented_scan_host(ctx, &d, ones, offs, NULL, N, 2, got), WGS_ERROR_SEGMENT_OUT_OF_RANGE);
    CHECK_RESULT(wgs_segmented_scan_host(ctx, &d, ones, NULL, NULL, N, 2, got), WGS_ERROR_INVALID_ARGUMENT);
}

/* ---- counts on the GPU (args.n_buffer, n_segments_buffer) ---------------------------- */

/* Both forms, u32 and f32 (the bits of a host encode of the counts): segments of the
 * tile's edge lengths over a bound, the first of them counted on the GPU with the
 * values up to their end (or past it: elements in no segment), both counts above their
 * bounds, and a values count of 0; nothing past the values' count written. */
TEST(segmented_scan_count_from_gpu) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    for (int form = WGS_SEGMENTS_OFFSETS; form <= WGS_SEGMENTS_BEGIN_END; form++) {
        wgs_segmented_scan_plan_desc d = {.type = form == WGS_SEGMENTS_OFFSETS ? WGS_TYPE_F32 : WGS_TYPE_U32,
                                          .kind = WGS_SCAN_INCLUSIVE, .segments = (wgs_segments_form)form};
        wgs_segmented_scan_plan *probe = make_plan(ctx, &d);
        uint64_t t = wgs_segmented_scan_plan_tile_size(probe);
        wgs_segmented_scan_plan_destroy(probe);
        const uint64_t lens[] = {0, 1, t - 1, t, t + 1, 3, 2 * t + 5, 0, 9};
        layout l = layout_lengths(8 * t, 0, 7 * t, lens, 9);
        d.capacity = l.n;
        d.segment_capacity = l.segs;
        wgs_segmented_scan_plan *plan = make_plan(ctx, &d);
        uint32_t *offsets = csr_of(&l);
        const int csr = form == WGS_SEGMENTS_OFFSETS;
        const uint64_t bytes = l.n * 4 + 256;
        uint32_t *in = malloc(bytes), *got = malloc(bytes), *host = malloc(bytes), *want = malloc(bytes);
        uint32_t *guard = malloc(bytes);
        memset(guard, 0xA5, bytes);
        fill_values(in, d.type, WGS_OP_ADD, l.n, 0, 23 + form);
        WGPUBuffer ib = test_upload(ctx, in, l.n * 4);
        WGPUBuffer bb = test_upload(ctx, csr ? offsets : l.begin, (csr ? l.segs + 1 : l.segs) * 4);
        WGPUBuffer eb = csr ? NULL : test_upload(ctx, l.end, l.segs * 4);
        const uint32_t segs_counts[] = {0, 1, 4, (uint32_t)l.segs - 1, 5, (uint32_t)l.segs + 3, 2};
        for (size_t i = 0; i < sizeof segs_counts / sizeof segs_counts[0] && plan && ib && bb; i++) {
            uint32_t sc = segs_counts[i];
            uint64_t s = sc < l.segs ? sc : l.segs;
            uint64_t seg_end = s ? l.end[s - 1] : 0;
            uint32_t nc = i == 4 ? (uint32_t)seg_end + (uint32_t)t + 1 : i == 5 ? (uint32_t)l.n + 50
                        : i == 6 ? 0 : (uint32_t)seg_end;
            /* (i == 6: a values count of 0 with two segments counted: nothing is written, and
             * the status stays 0, the offsets unchecked, as wgscan.h says) */
            uint64_t nv = nc < l.n ? nc : l.n;
            WGPUBuffer ob = test_upload(ctx, guard, bytes), hob = test_upload(ctx, guard, bytes);
            WGPUBuffer st = test_upload(ctx, guard, 16), hst = test_upload(ctx, guard, 16);
            WGPUBuffer cn = test_count_buffer(ctx, nc, 0), cs = test_count_buffer(ctx, sc, 12);
            WGPUCommandEncoder enc = NULL;
            CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
            wgs_segmented_scan_args a = {.input = ib, .output = ob, .n = l.n, .n_segments = l.segs, .status = st,
                                         .n_buffer = cn, .n_segments_buffer = cs, .n_segments_offset = 12};
            wgs_segmented_scan_args h = {.input = ib, .output = hob, .n = nv, .n_segments = s, .status = hst};
            if (csr) a.offsets = h.offsets = bb;
            else a.begin_offsets = h.begin_offsets = bb, a.end_offsets = h.end_offsets = eb;
            CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &a), WGS_OK);
            CHECK_RESULT(wgs_segmented_scan_encode(plan, enc, &h), WGS_OK);
            CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
            uint32_t status = 1;
            if (test_download(ctx, ob, got, bytes) && test_download(ctx, hob, host, bytes) &&
                test_download(ctx, st, &status, 4)) {
                layout part = l;
                part.n = nv;
                part.segs = s;
                if (i == 6) part.segs = 0;
                reference(&part, in, want, d.type, WGS_OP_ADD, 1);
                uint64_t first = 0, bad = verify(&part, in, got, want, d.type, WGS_OP_ADD, 1, 0, &first);
                if (bad)
                    test_fail(__FILE__, __LINE__, "form %d segments %u values %u: %llu wrong, first at %llu", form, sc,
                              nc, (unsigned long long)bad, (unsigned long long)first);
                if (memcmp(got, host, nv * 4) != 0)
                    test_fail(__FILE__, __LINE__, "form %d segments %u values %u: not a host encode's bits", form, sc,
                              nc);
                if (memcmp(got + nv, guard, bytes - nv * 4) != 0)
                    test_fail(__FILE__, __LINE__, "form %d segments %u values %u: written past the count", form, sc,
                              nc);
                if (status != 0) test_fail(__FILE__, __LINE__, "form %d: status %u", form, status);
            }
            WGPUBuffer all[] = {ob, hob, st, hst, cn, cs};
            for (int k = 0; k < 6; k++) wgs_buffer_release(ctx, all[k]);
        }
        wgs_buffer_release(ctx, ib);
        wgs_buffer_release(ctx, bb);
        wgs_buffer_release(ctx, eb);
        free(in), free(got), free(host), free(want), free(guard), free(offsets);
        layout_free(&l);
        wgs_segmented_scan_plan_destroy(plan);
    }
}
