/* SPDX-License-Identifier: MIT */
/* The segmented reduce against the CPU reference (ref_reduce per segment): every type x
 * operator, segment lengths at the tile's borders (0, 1, 2, tile - 1, tile, tile + 1),
 * one segment over everything, random mixtures with many empty segments, n = 0 and no
 * segments, both forms of segments (with gaps between begin/end segments), float sums
 * against the documented bound and bit-identical run to run, and the bad inputs with
 * their exact codes (the GPU's status word included). */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* Values of the type: small integers so that sums are checked exactly (u32 and i32 wrap
 * the same on both sides anyway), signed floats with ties for the arg ops. */
static void fill_values(wgs_type type, uint32_t *v, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        uint32_t r = rnd();
        if (type == WGS_TYPE_F32) {
            float f = (float)((int)(r % 2001) - 1000) / 8.0f;
            memcpy(&v[i], &f, 4);
        } else if (type == WGS_TYPE_I32) {
            int32_t x = (int32_t)(r % 200001) - 100000;
            memcpy(&v[i], &x, 4);
        } else {
            v[i] = r % 1000 == 0 ? r : r % 100000;
        }
    }
}

/* A layout: segment s is [begin[s], end[s]). */
typedef struct layout {
    uint64_t n, segs;
    uint32_t *begin, *end;
} layout;

static void layout_free(layout *l) {
    free(l->begin);
    free(l->end);
    memset(l, 0, sizeof *l);
}

/* Back to back segments of the given lengths, repeated until n is reached (the last
 * one cut at n). */
static layout layout_lengths(uint64_t n, const uint32_t *lens, int count) {
    layout l = {.n = n};
    uint64_t cap = 16, pos = 0;
    l.begin = malloc(cap * 4);
    l.end = malloc(cap * 4);
    for (int k = 0; pos < n || k < count; k++) {
        if (l.segs == cap) {
            cap *= 2;
            l.begin = realloc(l.begin, cap * 4);
            l.end = realloc(l.end, cap * 4);
        }
        uint64_t len = lens[k % count];
        if (pos + len > n) len = n - pos;
        l.begin[l.segs] = (uint32_t)pos;
        l.end[l.segs] = (uint32_t)(pos + len);
        l.segs++;
        pos += len;
        if (pos >= n && k + 1 >= count) break;
    }
    return l;
}

/* Random segments: `empty_pct` percent empty, the others 1..max_len long; with gaps
 * (BEGIN_END only) a random gap before some segments. */
static layout layout_random(uint64_t n, int empty_pct, uint32_t max_len, int gaps) {
    layout l = {.n = n};
    uint64_t cap = 16, pos = 0;
    l.begin = malloc(cap * 4);
    l.end = malloc(cap * 4);
    while (pos < n) {
        if (l.segs == cap) {
            cap *= 2;
            l.begin = realloc(l.begin, cap * 4);
            l.end = realloc(l.end, cap * 4);
        }
        if (gaps && rnd() % 4 == 0) pos += rnd() % 40;
        if (pos > n) pos = n;
        uint64_t len = (int)(rnd() % 100) < empty_pct ? 0 : 1 + rnd() % max_len;
        if (pos + len > n) len = n - pos;
        l.begin[l.segs] = (uint32_t)pos;
        l.end[l.segs] = (uint32_t)(pos + len);
        l.segs++;
        pos += len;
    }
    return l;
}

/* `count` empty segments at n after the layout's last. */
static void layout_add_empties_at_n(layout *l, uint64_t count) {
    l->begin = realloc(l->begin, (l->segs + count) * 4);
    l->end = realloc(l->end, (l->segs + count) * 4);
    for (uint64_t i = 0; i < count; i++) l->begin[l->segs + i] = l->end[l->segs + i] = (uint32_t)l->n;
    l->segs += count;
}

/* The CSR offsets of a layout without gaps (n_segments + 1 of them). */
static uint32_t *csr_of(const layout *l) {
    uint32_t *o = malloc((l->segs + 1) * 4);
    for (uint64_t s = 0; s < l->segs; s++) o[s] = l->begin[s];
    o[l->segs] = l->segs ? l->end[l->segs - 1] : 0;
    return o;
}

static double f32_of(uint32_t bits) {
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Runs one encode with a status word. got: n_segments results (2 words each for arg ops). */
static wgs_result run_seg(wgs_context *ctx, wgs_segmented_reduce_plan *plan, wgs_segments_form form,
                          const uint32_t *values, uint64_t n, const uint32_t *begins, const uint32_t *ends,
                          uint64_t segs, uint32_t *got, int words, wgs_result *status) {
    int csr = form != WGS_SEGMENTS_BEGIN_END;
    WGPUBuffer in = test_upload(ctx, values, n * 4);
    WGPUBuffer b = test_upload(ctx, begins, (csr ? segs + 1 : segs) * 4);
    WGPUBuffer e = csr ? NULL : test_upload(ctx, ends, segs * 4);
    WGPUBuffer out = test_buffer(ctx, segs * words * 4 + 16);
    WGPUBuffer st = test_buffer(ctx, 16);
    wgs_result r = WGS_ERROR_GPU_INTERNAL;
    WGPUCommandEncoder enc;
    if (!in || !b || (!csr && !e) || !out || !st) goto done;
    /* A guard in every result word, so an unwritten one cannot pass for a zero. */
    uint32_t *guard = malloc((segs * words + 4) * 4);
    for (uint64_t i = 0; i < segs * words + 4; i++) guard[i] = 0xDEADBEEFu;
    CHECK_RESULT(wgs_buffer_write(ctx, out, 0, guard, (segs * words + 4) * 4), WGS_OK);
    free(guard);
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_segmented_reduce_args a = {.input = in, .n = n, .n_segments = segs, .output = out, .status = st};
    if (csr) a.offsets = b;
    else a.begin_offsets = b, a.end_offsets = e;
    r = wgs_segmented_reduce_encode(plan, enc, &a);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    if (r != WGS_OK) goto done;
    uint32_t s = 0xDEAD;
    CHECK(test_download(ctx, st, &s, 4));
    *status = (wgs_result)s;
    if (segs) CHECK(test_download(ctx, out, got, segs * words * 4));
done:
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, b);
    wgs_buffer_release(ctx, e);
    wgs_buffer_release(ctx, out);
    wgs_buffer_release(ctx, st);
    return r;
}

/* Every segment against ref_reduce over its elements; returns the failures (the first
 * few are reported). */
static int check_segments(const char *what, wgs_type type, wgs_op op, const uint32_t *values, const layout *l,
                          const uint32_t *got) {
    int arg = op == WGS_OP_ARGMIN || op == WGS_OP_ARGMAX, words = arg ? 2 : 1, bad = 0;
    for (uint64_t s = 0; s < l->segs; s++) {
        uint64_t len = l->end[s] - l->begin[s];
        ref_reduction want = ref_reduce(values + l->begin[s], type, op, len);
        uint32_t want_index = want.index == 0xFFFFFFFFu ? want.index : want.index + l->begin[s];
        const uint32_t *g = got + s * words;
        int ok;
        if (type == WGS_TYPE_F32 && op == WGS_OP_ADD) {
            /* wgscan.h's bound for a segment of len elements. */
            double tol = ((double)len / 1024 + 128) * ldexp(1, -24) * want.abs_sum + 2.0 * (double)len * ldexp(1, -126);
            ok = ref_sum_matches(f32_of(g[0]), want.exact, tol);
        } else {
            ok = g[0] == want.bits && (!arg || g[1] == want_index);
        }
        if (!ok && bad++ < 3)
            test_fail(__FILE__, __LINE__, "%s %s %s: segment %llu [%u, %u) got %08x/%u, want %08x/%u", what,
                      wgs_type_name(type), wgs_op_name(op), (unsigned long long)s, l->begin[s], l->end[s], g[0],
                      arg ? g[1] : 0, want.bits, arg ? want_index : 0);
    }
    return bad;
}

/* One plan for (type, op, form); runs layout l (CSR offsets when it has no gaps) and
 * checks it. */
static void run_layout(wgs_context *ctx, const char *what, wgs_type type, wgs_op op, wgs_segments_form form,
                       const layout *l) {
    wgs_segmented_reduce_plan *plan = NULL;
    wgs_segmented_reduce_plan_desc d = {.type = type, .op = op, .segments = form, .capacity = l->n,
                                        .segment_capacity = l->segs};
    CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    int words = op == WGS_OP_ARGMIN || op == WGS_OP_ARGMAX ? 2 : 1;
    uint32_t *values = malloc((l->n + 1) * 4), *got = calloc(l->segs * words + 1, 4);
    fill_values(type, values, l->n);
    int csr = form != WGS_SEGMENTS_BEGIN_END;
    uint32_t *offsets = csr ? csr_of(l) : NULL;
    wgs_result status = WGS_ERROR_GPU_INTERNAL;
    wgs_result r = run_seg(ctx, plan, form, values, l->n, csr ? offsets : l->begin, l->end, l->segs, got, words,
                           &status);
    if (r != WGS_OK) test_fail(__FILE__, __LINE__, "%s: %s", what, wgs_context_last_error(ctx));
    else if (status != WGS_OK) test_fail(__FILE__, __LINE__, "%s: status %s", what, wgs_result_name(status));
    else check_segments(what, type, op, values, l, got);
    free(values);
    free(got);
    free(offsets);
    wgs_segmented_reduce_plan_destroy(plan);
}

static uint32_t tile_of(wgs_context *ctx) {
    wgs_segmented_reduce_plan *plan = NULL;
    CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &(wgs_segmented_reduce_plan_desc){0}, &plan), WGS_OK);
    uint32_t t = wgs_segmented_reduce_plan_tile_size(plan);
    wgs_segmented_reduce_plan_destroy(plan);
    return t;
}

TEST(segmented_every_type_and_op) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t tile = tile_of(ctx);
    const struct {
        wgs_type type;
        wgs_op ops[8];
    } cases[] = {
        {WGS_TYPE_U32, {WGS_OP_ADD, WGS_OP_MIN, WGS_OP_MAX, WGS_OP_AND, WGS_OP_OR, WGS_OP_XOR, WGS_OP_ARGMIN, WGS_OP_ARGMAX}},
        {WGS_TYPE_I32, {WGS_OP_ADD, WGS_OP_MIN, WGS_OP_MAX, WGS_OP_AND, WGS_OP_OR, WGS_OP_XOR, WGS_OP_ARGMIN, WGS_OP_ARGMAX}},
        {WGS_TYPE_F32, {WGS_OP_ADD, WGS_OP_MIN, WGS_OP_MAX, WGS_OP_ARGMIN, WGS_OP_ARGMAX}},
    };
    /* Lengths at the tile's borders and a long one, mixed with empty segments. */
    const uint32_t lens[] = {0, 1, 2, 0, 0, tile - 1, tile, 3, tile + 1, 0, 5 * tile + 7, 17};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int k = 0; k < 8 && cases[c].ops[k]; k++) {
            layout l = layout_lengths(12 * tile + 91, lens, (int)(sizeof lens / sizeof lens[0]));
            run_layout(ctx, "mixed lengths", cases[c].type, cases[c].ops[k], WGS_SEGMENTS_OFFSETS, &l);
            layout_free(&l);
        }
    }
}

TEST(segmented_fixed_lengths) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t tile = tile_of(ctx);
    const uint32_t lens[] = {1, 2, 3, 16, tile - 1, tile, tile + 1, 2 * tile + 5};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "length %u", lens[i]);
        layout l = layout_lengths(6 * tile + 3, &lens[i], 1);
        run_layout(ctx, what, WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &l);
        run_layout(ctx, what, WGS_TYPE_F32, WGS_OP_ARGMAX, WGS_SEGMENTS_BEGIN_END, &l);
        layout_free(&l);
    }
}

TEST(segmented_one_segment_over_everything) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t tile = tile_of(ctx);
    /* A tile and a tile's worth of tiles or more, so the last pass folds many partials. */
    const uint64_t sizes[] = {1, 3, tile, tile + 1, 300ull * tile + 13};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t len = (uint32_t)sizes[i];
        layout l = layout_lengths(sizes[i], &len, 1);
        run_layout(ctx, "one segment", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &l);
        run_layout(ctx, "one segment", WGS_TYPE_F32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &l);
        run_layout(ctx, "one segment", WGS_TYPE_I32, WGS_OP_ARGMIN, WGS_SEGMENTS_BEGIN_END, &l);
        layout_free(&l);
    }
    /* Several segments of more than 16 tiles (those a workgroup folds) and short ones
     * between them, so that one workgroup of the last pass meets several long spans. */
    const uint32_t lens[] = {17 * tile + 1, 3, 0, 18 * tile, 16 * tile + 1, 15 * tile - 1};
    layout l = layout_lengths(150ull * tile + 5, lens, (int)(sizeof lens / sizeof lens[0]));
    run_layout(ctx, "long spans", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &l);
    run_layout(ctx, "long spans", WGS_TYPE_F32, WGS_OP_ARGMIN, WGS_SEGMENTS_BEGIN_END, &l);
    layout_free(&l);
}

TEST(segmented_random_mixtures) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t tile = tile_of(ctx);
    const struct {
        uint64_t n;
        int empty_pct;
        uint32_t max_len;
    } mixes[] = {{5 * tile + 1, 90, 8}, {7 * tile - 1, 60, 3 * tile}, {20 * tile, 30, 40}, {1000, 99, 2},
                 {(1u << 18) + 5, 50, 700}};
    for (size_t i = 0; i < sizeof mixes / sizeof mixes[0]; i++) {
        layout l = layout_random(mixes[i].n, mixes[i].empty_pct, mixes[i].max_len, 0);
        run_layout(ctx, "random", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &l);
        run_layout(ctx, "random", WGS_TYPE_F32, WGS_OP_ADD, WGS_SEGMENTS_BEGIN_END, &l);
        run_layout(ctx, "random", WGS_TYPE_I32, WGS_OP_MAX, WGS_SEGMENTS_OFFSETS, &l);
        layout_free(&l);
        layout g = layout_random(mixes[i].n, mixes[i].empty_pct, mixes[i].max_len, 1);
        run_layout(ctx, "random with gaps", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_BEGIN_END, &g);
        run_layout(ctx, "random with gaps", WGS_TYPE_F32, WGS_OP_ARGMIN, WGS_SEGMENTS_BEGIN_END, &g);
        layout_free(&g);
    }
}

/* Many empty segments in one place (more than a tile's elements), at the start, in the
 * middle of the values and at n. */
TEST(segmented_empty_segments) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t tile = tile_of(ctx);
    uint32_t lens[3 * 2048 + 3];
    int k = 0;
    for (uint32_t i = 0; i < 3 * tile && k < 2048 * 3; i++) lens[k++] = 0;
    lens[k++] = tile / 2 + 1;
    for (uint32_t i = 0; i < tile + 3 && k < 2048 * 3 + 2; i++) lens[k++] = 0;
    lens[k++] = 2 * tile;
    layout l = layout_lengths(5 * tile / 2 + 1 + 20, lens, k);
    /* layout_lengths ends the values with the last length cut at n; add empties at n. */
    layout_add_empties_at_n(&l, tile + 2);
    run_layout(ctx, "empties", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &l);
    run_layout(ctx, "empties", WGS_TYPE_F32, WGS_OP_MIN, WGS_SEGMENTS_BEGIN_END, &l);
    run_layout(ctx, "empties", WGS_TYPE_U32, WGS_OP_ARGMAX, WGS_SEGMENTS_OFFSETS, &l);
    layout_free(&l);
}

/* Tiles that own more segments than elements, 70000 and more (runs of empty ones, within
 * a tile and at n): their owners mark and check many segments each. */
TEST(segmented_wide_tiles) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t tile = tile_of(ctx);
    enum { RUN = 70000 };
    uint32_t *lens = calloc(3 * RUN + 16, 4);
    int k = 0;
    lens[k++] = 7;
    k += RUN; /* zeros */
    lens[k++] = 1;
    lens[k++] = 1;
    lens[k++] = tile + 3;
    k += RUN;
    lens[k++] = 2;
    lens[k++] = 9;
    lens[k++] = 2 * tile;
    layout l = layout_lengths(3 * tile + 17, lens, k);
    layout_add_empties_at_n(&l, RUN);
    run_layout(ctx, "wide tiles", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &l);
    run_layout(ctx, "wide tiles", WGS_TYPE_F32, WGS_OP_ARGMIN, WGS_SEGMENTS_BEGIN_END, &l);
    layout_free(&l);
    free(lens);
}

TEST(segmented_n_zero_and_no_segments) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    /* n = 0 with empty segments: identities. */
    layout l = {.n = 0, .segs = 5};
    l.begin = calloc(5, 4);
    l.end = calloc(5, 4);
    run_layout(ctx, "n = 0", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &l);
    run_layout(ctx, "n = 0", WGS_TYPE_F32, WGS_OP_MIN, WGS_SEGMENTS_BEGIN_END, &l);
    run_layout(ctx, "n = 0", WGS_TYPE_I32, WGS_OP_ARGMAX, WGS_SEGMENTS_OFFSETS, &l);
    layout_free(&l);
    /* No segments, with and without values. */
    layout none = {.n = 1000};
    run_layout(ctx, "no segments", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &none);
    run_layout(ctx, "no segments", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_BEGIN_END, &none);
    none.n = 0;
    run_layout(ctx, "no segments, n = 0", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &none);
    /* No segments and no status word: the output and the status are both placeholders,
     * which must not alias (WebGPU refuses two writable bindings of one range). */
    {
        wgs_segmented_reduce_plan *plan = NULL;
        CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &(wgs_segmented_reduce_plan_desc){.capacity = 1000}, &plan),
                     WGS_OK);
        uint32_t zero = 0, vals[1000] = {0};
        WGPUBuffer in = test_upload(ctx, vals, sizeof vals), offs = test_upload(ctx, &zero, 4);
        WGPUBuffer out = test_buffer(ctx, 256);
        WGPUCommandEncoder enc = NULL;
        if (plan && in && offs && out && wgs_encoder_create(ctx, &enc) == WGS_OK) {
            wgs_segmented_reduce_args a = {.input = in, .n = 1000, .offsets = offs, .n_segments = 0, .output = out};
            CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &a), WGS_OK);
            CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
            CHECK_RESULT(wgs_wait(ctx), WGS_OK);
        }
        wgs_buffer_release(ctx, in);
        wgs_buffer_release(ctx, offs);
        wgs_buffer_release(ctx, out);
        wgs_segmented_reduce_plan_destroy(plan);
    }
    /* Through the host helper: identities of an f32 max (-inf) for 3 empty segments. */
    uint32_t offs[4] = {0, 0, 0, 0}, res[3] = {1, 1, 1};
    float ninf = -INFINITY;
    uint32_t ninf_bits;
    memcpy(&ninf_bits, &ninf, 4);
    CHECK_RESULT(wgs_segmented_reduce_host(ctx, &(wgs_segmented_reduce_plan_desc){.type = WGS_TYPE_F32,
                                               .op = WGS_OP_MAX}, NULL, offs, NULL, 0, 3, res), WGS_OK);
    CHECK(res[0] == ninf_bits && res[1] == ninf_bits && res[2] == ninf_bits);
}

/* Offsets that leave values before the first segment and after the last one (in no
 * segment), in a tile of their own and inside a tile. */
TEST(segmented_offsets_inside_the_values) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t tile = tile_of(ctx);
    const uint64_t n = 9ull * tile + 7;
    const uint32_t firsts[] = {5, tile + 3}, lasts[] = {(uint32_t)n - 7, 7 * tile - 2};
    for (int c = 0; c < 2; c++) {
        uint32_t lens[] = {0, 3, tile + 1, 17, 0};
        layout l = layout_lengths(lasts[c] - firsts[c], lens, 5);
        for (uint64_t s = 0; s < l.segs; s++) l.begin[s] += firsts[c], l.end[s] += firsts[c];
        l.n = n;
        run_layout(ctx, "inside the values", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &l);
        run_layout(ctx, "inside the values", WGS_TYPE_I32, WGS_OP_ARGMAX, WGS_SEGMENTS_OFFSETS, &l);
        run_layout(ctx, "inside the values", WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_BEGIN_END, &l);
        layout_free(&l);
    }
}

/* The host helper against the reference, and the same f32 sums bit for bit twice. */
TEST(segmented_host_and_deterministic) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    layout l = layout_random(100000, 20, 3000, 0);
    uint32_t *values = malloc(l.n * 4), *a = malloc(l.segs * 4), *b = malloc(l.segs * 4);
    uint32_t *offsets = csr_of(&l);
    fill_values(WGS_TYPE_F32, values, l.n);
    wgs_segmented_reduce_plan_desc d = {.type = WGS_TYPE_F32};
    CHECK_RESULT(wgs_segmented_reduce_host(ctx, &d, values, offsets, NULL, l.n, l.segs, a), WGS_OK);
    CHECK_RESULT(wgs_segmented_reduce_host(ctx, &d, values, offsets, NULL, l.n, l.segs, b), WGS_OK);
    check_segments("host", WGS_TYPE_F32, WGS_OP_ADD, values, &l, a);
    CHECK(memcmp(a, b, l.segs * 4) == 0);
    d.segments = WGS_SEGMENTS_BEGIN_END;
    CHECK_RESULT(wgs_segmented_reduce_host(ctx, &d, values, l.begin, l.end, l.n, l.segs, b), WGS_OK);
    CHECK(memcmp(a, b, l.segs * 4) == 0);
    free(values);
    free(a);
    free(b);
    free(offsets);
    layout_free(&l);
}

/* Offsets that break the rules: the host helper returns the GPU's status. */
TEST(segmented_bad_offsets) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t tile = tile_of(ctx);
    uint64_t n = 4 * tile + 3;
    uint32_t *values = calloc(n, 4), res[16];
    CHECK(WGS_ERROR_SEGMENTS_UNORDERED == 22 && WGS_ERROR_SEGMENT_OUT_OF_RANGE == 23); /* numbers are fixed */
    CHECK(!strcmp(wgs_result_name(WGS_ERROR_SEGMENTS_UNORDERED), "WGS_ERROR_SEGMENTS_UNORDERED"));
    wgs_segmented_reduce_plan_desc csr = {0}, be = {.segments = WGS_SEGMENTS_BEGIN_END};
    {
        uint32_t o[5] = {0, 10, 5, 20, (uint32_t)n}; /* decreasing */
        CHECK_RESULT(wgs_segmented_reduce_host(ctx, &csr, values, o, NULL, n, 4, res), WGS_ERROR_SEGMENTS_UNORDERED);
    }
    {
        uint32_t o[4] = {0, tile + 5, 3 * tile, 2}; /* the last end before its begin, across tiles */
        CHECK_RESULT(wgs_segmented_reduce_host(ctx, &csr, values, o, NULL, n, 3, res), WGS_ERROR_SEGMENTS_UNORDERED);
    }
    {
        uint32_t o[4] = {0, 10, 20, (uint32_t)n + 1}; /* past n */
        CHECK_RESULT(wgs_segmented_reduce_host(ctx, &csr, values, o, NULL, n, 3, res), WGS_ERROR_SEGMENT_OUT_OF_RANGE);
    }
    {
        uint32_t o[3] = {0, 0xFFFFFFF0u, 5}; /* far past n, then back */
        CHECK_RESULT(wgs_segmented_reduce_host(ctx, &csr, values, o, NULL, n, 2, res), WGS_ERROR_SEGMENT_OUT_OF_RANGE);
    }
    {
        uint32_t b[3] = {0, 30, 40}, e[3] = {20, 25, 50}; /* a begin/end segment ends before it begins */
        CHECK_RESULT(wgs_segmented_reduce_host(ctx, &be, values, b, e, n, 3, res), WGS_ERROR_SEGMENTS_UNORDERED);
    }
    {
        uint32_t b[3] = {0, 10, 2 * tile}, e[3] = {20, 30, 2 * tile + 1}; /* overlapping */
        CHECK_RESULT(wgs_segmented_reduce_host(ctx, &be, values, b, e, n, 3, res), WGS_ERROR_SEGMENTS_UNORDERED);
    }
    {
        uint32_t b[2] = {3 * tile, 5}, e[2] = {3 * tile + 1, 6}; /* begins not in order */
        CHECK_RESULT(wgs_segmented_reduce_host(ctx, &be, values, b, e, n, 2, res), WGS_ERROR_SEGMENTS_UNORDERED);
    }
    {
        uint32_t b[2] = {0, 5}, e[2] = {5, (uint32_t)n + 7}; /* an end past n */
        CHECK_RESULT(wgs_segmented_reduce_host(ctx, &be, values, b, e, n, 2, res), WGS_ERROR_SEGMENT_OUT_OF_RANGE);
    }
    {
        uint32_t o[3] = {0, 1, 1}; /* n = 0: any offset above 0 is past n */
        CHECK_RESULT(wgs_segmented_reduce_host(ctx, &csr, NULL, o, NULL, 0, 2, res), WGS_ERROR_SEGMENT_OUT_OF_RANGE);
    }
    /* And a good run after the bad ones: the status is zeroed by each encode. */
    {
        uint32_t o[3] = {0, 10, (uint32_t)n};
        CHECK_RESULT(wgs_segmented_reduce_host(ctx, &csr, values, o, NULL, n, 2, res), WGS_OK);
        CHECK(res[0] == 0 && res[1] == 0);
    }
    free(values);
}

TEST(segmented_bad_arguments) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_segmented_reduce_plan *plan = (wgs_segmented_reduce_plan *)1;
    CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &(wgs_segmented_reduce_plan_desc){.type = WGS_TYPE_F16}, &plan),
                 WGS_ERROR_UNSUPPORTED_TYPE);
    CHECK(plan == NULL);
    CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &(wgs_segmented_reduce_plan_desc){.type = WGS_TYPE_U64}, &plan),
                 WGS_ERROR_UNSUPPORTED_TYPE);
    CHECK_RESULT(wgs_segmented_reduce_plan_create(
                     ctx, &(wgs_segmented_reduce_plan_desc){.type = WGS_TYPE_F32, .op = WGS_OP_XOR}, &plan),
                 WGS_ERROR_UNSUPPORTED_OPERATOR);
    CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &(wgs_segmented_reduce_plan_desc){.op = (wgs_op)99}, &plan),
                 WGS_ERROR_UNSUPPORTED_OPERATOR);
    CHECK_RESULT(wgs_segmented_reduce_plan_create(
                     ctx, &(wgs_segmented_reduce_plan_desc){.segments = (wgs_segments_form)3}, &plan),
                 WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &(wgs_segmented_reduce_plan_desc){.capacity = 1ull << 40},
                                                  &plan),
                 WGS_ERROR_TOO_LARGE);
    CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, NULL, &plan), WGS_ERROR_INVALID_ARGUMENT);

    CHECK_RESULT(wgs_segmented_reduce_plan_create(
                     ctx, &(wgs_segmented_reduce_plan_desc){.capacity = 100, .segment_capacity = 4}, &plan),
                 WGS_OK);
    if (!plan) return;
    CHECK(wgs_segmented_reduce_plan_scratch_size(plan) > 0);
    WGPUBuffer in = test_buffer(ctx, 1024), offs = test_buffer(ctx, 1024), out = test_buffer(ctx, 1024);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_segmented_reduce_args good = {.input = in, .n = 100, .offsets = offs, .n_segments = 4, .output = out};
    wgs_segmented_reduce_args a = good;
    a.n = 101;
    CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a = good;
    a.n_segments = 5;
    CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a = good;
    a.offsets = NULL;
    CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = good;
    a.input = NULL;
    CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = good;
    a.output = NULL;
    CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = good;
    a.output = in;
    CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = good;
    a.status = out;
    CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = good;
    a.output_offset = 4;
    CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, NULL), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_segmented_reduce_encode(NULL, enc, &good), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &good), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    CHECK_RESULT(wgs_segmented_reduce_host(ctx, &(wgs_segmented_reduce_plan_desc){.segments = WGS_SEGMENTS_BEGIN_END},
                                           NULL, NULL, NULL, 0, 2, (uint32_t[2]){0}),
                 WGS_ERROR_INVALID_ARGUMENT);
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, offs);
    wgs_buffer_release(ctx, out);
    wgs_segmented_reduce_plan_destroy(plan);
    wgs_segmented_reduce_plan_destroy(NULL);
}

/* The portable path (workgroup-memory segmented scan) where the device has subgroups,
 * and grids folded into two dimensions (spare workgroups in the last row). */
static void other_paths(wgs_context *ctx, const char *what) {
    if (!ctx) return;
    uint32_t tile = tile_of(ctx);
    const uint32_t lens[] = {0, 1, 2, 0, tile - 1, tile, tile + 1, 0, 0, 3 * tile + 5};
    layout l = layout_lengths(40 * tile + 3, lens, (int)(sizeof lens / sizeof lens[0]));
    run_layout(ctx, what, WGS_TYPE_U32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &l);
    run_layout(ctx, what, WGS_TYPE_F32, WGS_OP_ARGMAX, WGS_SEGMENTS_BEGIN_END, &l);
    layout_free(&l);
    uint32_t all = 70 * tile + 1;
    layout one = layout_lengths(all, &all, 1);
    run_layout(ctx, what, WGS_TYPE_F32, WGS_OP_ADD, WGS_SEGMENTS_OFFSETS, &one);
    layout_free(&one);
    layout g = layout_random(30 * tile, 50, 300, 1);
    run_layout(ctx, what, WGS_TYPE_I32, WGS_OP_ARGMIN, WGS_SEGMENTS_BEGIN_END, &g);
    layout_free(&g);
}

TEST(segmented_without_subgroups) { other_paths(test_context_forced_fallback(1), "without subgroups"); }

TEST(segmented_folded_grid) { other_paths(test_context_capped(16, 0), "folded grid"); }

/* Another tile shape: runs of one word (the GPUs' are 4, the CPU drivers' 8), and three
 * workgroups taking every tile in turn (a grid that divides no tile count below). */
TEST(segmented_one_word_runs) {
    static wgs_experimental e;
    e = (wgs_experimental){.segmented = {64, 4}, .segmented_groups = 3};
    wgs_context *ctx = NULL;
    CHECK_RESULT(wgs_context_create(&(wgs_context_desc){.experimental = &e}, &ctx), WGS_OK);
    if (!ctx) return;
    CHECK(tile_of(ctx) == 256);
    other_paths(ctx, "one-word runs, 3 workgroups");
    wgs_context_destroy(ctx);
}

/* ---- counts on the GPU (args.n_buffer, n_segments_buffer) ---------------------------- */

/* A CSR layout of `bound` values in segments of tile-edge lengths; for each (values,
 * segments) pair of counts on the GPU: the first segments against the reference and
 * the bits of a host encode of those counts, the results past them unwritten, status 0. */
TEST(segmented_count_from_gpu) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t t = tile_of(ctx);
    const uint32_t lens[] = {0, 1, t - 1, t, t + 1, 2, 5 * t + 3, 0, 7};
    layout l = layout_lengths(12 * (uint64_t)t, lens, 9);
    uint32_t *offsets = csr_of(&l);
    const wgs_type types[] = {WGS_TYPE_F32, WGS_TYPE_I32};
    const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_ARGMIN};
    for (int k = 0; k < 2; k++) {
        wgs_segmented_reduce_plan *plan = NULL;
        CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &(wgs_segmented_reduce_plan_desc){
                         .type = types[k], .op = ops[k], .capacity = l.n, .segment_capacity = l.segs}, &plan),
                     WGS_OK);
        int words = ops[k] == WGS_OP_ARGMIN ? 2 : 1;
        uint64_t out_bytes = l.segs * words * 4 + 16;
        uint32_t *values = malloc(l.n * 4), *got = malloc(out_bytes), *host = malloc(out_bytes);
        uint32_t *guard = malloc(out_bytes);
        fill_values(types[k], values, l.n);
        for (uint64_t i = 0; i < out_bytes / 4; i++) guard[i] = 0xDEADBEEFu;
        WGPUBuffer in = test_upload(ctx, values, l.n * 4), ob = test_upload(ctx, offsets, (l.segs + 1) * 4);
        /* (segments, values) counts: none; one; all but the last; all; a values count past the
         * segments' end; both above their bounds; a values count of 0 with empty segments */
        const uint32_t segs_counts[] = {0, 1, (uint32_t)l.segs - 1, (uint32_t)l.segs, 4, (uint32_t)l.segs + 9, 1};
        for (size_t i = 0; i < sizeof segs_counts / sizeof segs_counts[0] && plan && in && ob; i++) {
            uint32_t sc = segs_counts[i];
            uint64_t s = sc < l.segs ? sc : l.segs;
            uint32_t nc = i == 4 ? offsets[s] + t + 3 : i == 5 ? (uint32_t)l.n + 100 : offsets[s];
            uint64_t nv = nc < l.n ? nc : l.n;
            WGPUBuffer out = test_upload(ctx, guard, out_bytes), out_host = test_upload(ctx, guard, out_bytes);
            WGPUBuffer st = test_upload(ctx, guard, 16), st_host = test_upload(ctx, guard, 16);
            WGPUBuffer cn = test_count_buffer(ctx, nc, 4), cs = test_count_buffer(ctx, sc, 8);
            WGPUCommandEncoder enc;
            CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
            CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &(wgs_segmented_reduce_args){
                             .input = in, .n = l.n, .offsets = ob, .n_segments = l.segs, .output = out,
                             .status = st, .n_buffer = cn, .n_offset = 4, .n_segments_buffer = cs,
                             .n_segments_offset = 8}),
                         WGS_OK);
            CHECK_RESULT(wgs_segmented_reduce_encode(plan, enc, &(wgs_segmented_reduce_args){
                             .input = in, .n = nv, .offsets = ob, .n_segments = s, .output = out_host,
                             .status = st_host}),
                         WGS_OK);
            CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
            uint32_t status = 1;
            if (test_download(ctx, out, got, out_bytes) && test_download(ctx, out_host, host, out_bytes) &&
                test_download(ctx, st, &status, 4)) {
                layout part = l;
                part.segs = s;
                check_segments("segmented reduce with GPU counts", types[k], ops[k], values, &part, got);
                CHECK(memcmp(got, host, s * words * 4) == 0);
                for (uint64_t w = s * words; w < out_bytes / 4; w++)
                    if (got[w] != 0xDEADBEEFu) {
                        test_fail(__FILE__, __LINE__, "segments %u values %u: word %llu past the count written", sc,
                                  nc, (unsigned long long)w);
                        break;
                    }
                if (status != 0) test_fail(__FILE__, __LINE__, "segments %u values %u: status %u", sc, nc, status);
            }
            wgs_buffer_release(ctx, out);
            wgs_buffer_release(ctx, out_host);
            wgs_buffer_release(ctx, st);
            wgs_buffer_release(ctx, st_host);
            wgs_buffer_release(ctx, cn);
            wgs_buffer_release(ctx, cs);
        }
        wgs_buffer_release(ctx, in);
        wgs_buffer_release(ctx, ob);
        free(values), free(got), free(host), free(guard);
        wgs_segmented_reduce_plan_destroy(plan);
    }
    free(offsets);
    layout_free(&l);
}
