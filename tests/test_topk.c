/* SPDX-License-Identifier: MIT */
/* Top-k against the CPU reference (reference/topk.c): every key type x largest /
 * smallest x sorted / input order x payload, the boundaries of n and k (1, n, a tile
 * +-1, several tiles), ties everywhere (all keys equal, few distinct: the indices say
 * which of the ties were taken), f32 NaN / -0 / +0 / inf / subnormals in the sort's
 * order, several rows, the host call, the scratch query, and bad inputs with their
 * exact codes. Both paths: the plan's choice, each forced (wgs_experimental
 * topk_path), and the row kernel with a candidates' room so small that its passes over
 * global memory do the work. */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

enum dist { D_UNIFORM, D_EQUAL, D_FEW, D_FLOAT_EDGES, D_COUNT };
static const char *const dist_names[D_COUNT] = {"uniform", "equal", "few", "float-edges"};

static uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static void fill_keys(uint32_t *keys, enum dist d, uint64_t count, uint64_t seed) {
    static const uint32_t edges[] = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                     0xFFC00001u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x3F800000u,
                                     0xBF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800001u};
    for (uint64_t i = 0; i < count; i++) {
        uint64_t v = mix(seed * 1000003u + i);
        switch (d) {
        case D_EQUAL: v = mix(seed); break;
        case D_FEW: v = mix(seed + v % 5); break;
        case D_FLOAT_EDGES: v = v % 3 ? edges[v % (sizeof edges / sizeof edges[0])] : (uint32_t)v; break;
        default: break;
        }
        keys[i] = (uint32_t)v;
    }
}

typedef struct topk_case {
    wgs_type type;
    wgs_topk_select select;
    wgs_topk_output output;
    wgs_payload payload;
} topk_case;

/* One encode of `plan` on rows x n keys of the distribution, checked against the
 * reference: keys and values (indices or the moved values). */
static void check_topk(wgs_context *ctx, wgs_topk_plan *plan, const topk_case *c, enum dist d, uint64_t n,
                       uint32_t rows, uint32_t k, uint64_t seed) {
    uint64_t in = n * rows, out = (uint64_t)k * rows;
    uint32_t *keys = malloc(in * 4), *vals = malloc(in * 4), *want = malloc(out * 4), *got = malloc(out * 4);
    uint32_t *want_v = malloc(out * 4), *got_v = malloc(out * 4);
    WGPUBuffer bk = NULL, bko = NULL, bv = NULL, bvo = NULL;
    if (!keys || !vals || !want || !got || !want_v || !got_v) goto done;
    fill_keys(keys, d, in, seed);
    for (uint64_t i = 0; i < in; i++) vals[i] = (uint32_t)mix(i ^ (seed << 20));
    if (ref_topk(c->type, c->select == WGS_TOPK_LARGEST, c->output == WGS_TOPK_SORTED, keys, vals,
                 c->payload == WGS_PAYLOAD_INDEX, n, rows, k, want, want_v) != 0)
        goto done;
    bk = test_upload(ctx, keys, in * 4);
    bko = test_buffer(ctx, out * 4);
    if (c->payload == WGS_PAYLOAD_BUFFER) bv = test_upload(ctx, vals, in * 4);
    if (c->payload != WGS_PAYLOAD_NONE) bvo = test_buffer(ctx, out * 4);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_topk_args a = {.keys_in = bk, .keys_out = bko, .values_in = bv, .values_out = bvo, .n = n, .rows = rows,
                       .k = k};
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    if (!test_download(ctx, bko, got, out * 4)) goto done;
    const char *what = c->select == WGS_TOPK_LARGEST ? "largest" : "smallest";
    const char *order = c->output == WGS_TOPK_SORTED ? "sorted" : "input order";
    for (uint64_t i = 0; i < out; i++)
        if (got[i] != want[i]) {
            test_fail(__FILE__, __LINE__, "%s %s %s %s n=%llu rows=%u k=%u: key %llu (row %llu) is 0x%x, want 0x%x",
                      wgs_type_name(c->type), what, order, dist_names[d], (unsigned long long)n, rows, k,
                      (unsigned long long)(i % k), (unsigned long long)(i / k), got[i], want[i]);
            goto done;
        }
    if (c->payload != WGS_PAYLOAD_NONE) {
        if (!test_download(ctx, bvo, got_v, out * 4)) goto done;
        for (uint64_t i = 0; i < out; i++)
            if (got_v[i] != want_v[i]) {
                test_fail(__FILE__, __LINE__, "%s %s %s %s n=%llu rows=%u k=%u payload %d: value %llu is 0x%x, "
                          "want 0x%x (ties by index?)", wgs_type_name(c->type), what, order, dist_names[d],
                          (unsigned long long)n, rows, k, (int)c->payload, (unsigned long long)i, got_v[i],
                          want_v[i]);
                break;
            }
    }
done:
    wgs_buffer_release(ctx, bk);
    wgs_buffer_release(ctx, bko);
    wgs_buffer_release(ctx, bv);
    wgs_buffer_release(ctx, bvo);
    free(keys), free(vals), free(want), free(got), free(want_v), free(got_v);
}

/* Sizes at a 512-key tile's borders (the CPU class's 64 x 8) and past several tiles. */
static const uint64_t sizes[] = {1, 2, 511, 512, 513, 1800};

/* Every type, direction, order and payload at the sizes above, k up to k_cap. Outside
 * the long run, half of the twelve plans: each type still meets both directions and
 * both orders (each plan compiles its own row kernel, 5-8 s on SwiftShader). */
static void cases_and_boundaries(wgs_context *ctx, uint32_t k_cap) {
    if (!ctx) return;
    static const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_I32, WGS_TYPE_F32};
    int turn = 0;
    for (int t = 0; t < 3; t++)
        for (int sel = 0; sel < 2; sel++)
            for (int o = 0; o < 2; o++) {
                if (!test_long() && (t + sel + o) % 2) continue;
                /* Each type and direction once per payload over the output orders, in turn. */
                topk_case c = {types[t], (wgs_topk_select)sel, (wgs_topk_output)o,
                               (wgs_payload)((t + sel + o) % 3)};
                wgs_topk_plan_desc d = {.type = c.type, .select = c.select, .output = c.output,
                                        .payload = c.payload, .capacity = 1800, .k_capacity = k_cap,
                                        .row_capacity = 3};
                wgs_topk_plan *plan = NULL;
                CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_OK);
                if (!plan) continue;
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                    uint64_t n = sizes[s];
                    uint32_t ks[] = {1, (uint32_t)n, (uint32_t)(n / 2 + 1), (uint32_t)(n > 3 ? n - 1 : 1)};
                    for (int j = 0; j < 4; j++, turn++) {
                        if (ks[j] > k_cap) ks[j] = k_cap;
                        enum dist di = c.type == WGS_TYPE_F32 && turn % 2 ? D_FLOAT_EDGES : (enum dist)(turn % 3);
                        check_topk(ctx, plan, &c, di, n, 1 + (uint32_t)(turn % 3), ks[j], (uint64_t)turn);
                    }
                }
                wgs_topk_plan_destroy(plan);
            }
}

/* All keys equal: the first k indices, in order, whatever the direction. */
static void ties_everywhere(wgs_context *ctx, uint32_t k_cap) {
    if (!ctx) return;
    for (int sel = 0; sel < 2; sel++) {
        topk_case c = {WGS_TYPE_F32, (wgs_topk_select)sel, WGS_TOPK_SORTED, WGS_PAYLOAD_INDEX};
        wgs_topk_plan_desc d = {.type = c.type, .select = c.select, .payload = c.payload, .capacity = 1537,
                                .k_capacity = k_cap, .row_capacity = 2};
        wgs_topk_plan *plan = NULL;
        CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_OK);
        if (!plan) continue;
        uint32_t ks[] = {1, 700, 1536, 1537};
        for (int j = 0; j < 4; j++)
            check_topk(ctx, plan, &c, D_EQUAL, 1537, 2, ks[j] < k_cap ? ks[j] : k_cap, 7u + (uint64_t)j);
        check_topk(ctx, plan, &c, D_FEW, 1537, 2, 1000, 3);
        wgs_topk_plan_destroy(plan);
    }
}

TEST(topk_cases_and_boundaries) {
    /* The plan's choice: the row kernel for k up to its bound, the passes past it. */
    cases_and_boundaries(test_context(), 1800);
}

TEST(topk_ties_everywhere) { ties_everywhere(test_context(), 1537); }

static void many_short_rows(wgs_context *ctx);

/* The multi-pass path forced: the same cases through it. The sanitized run leaves the
 * cases out: their host path is the plan's choice above, and each plan compiles the
 * passes' eight pipelines again on ASan's allocator. */
TEST(topk_multi_pass_path) {
    const wgs_experimental e = {.topk_path = 1};
    wgs_context *ctx = test_context_experimental(&e);
    if (!test_sanitized() || test_long()) cases_and_boundaries(ctx, 1800);
    ties_everywhere(ctx, 1537);
    many_short_rows(ctx);
}

/* The row path forced: its own boundaries, rows of 2^18 keys (its longest) with k =
 * 1024 (its largest), uniform, few distinct and all equal (every key level and the
 * index's top levels over global memory); n at its step of WG x ITEMS keys +-1. The
 * plan's choice above took it for every k up to 1024 of the cases; the long run
 * repeats them forced. */
TEST(topk_row_path) {
    const wgs_experimental e = {.topk_path = 2};
    wgs_context *ctx = test_context_experimental(&e);
    if (!ctx) return;
    if (test_long()) {
        cases_and_boundaries(ctx, 1024);
        ties_everywhere(ctx, 1024);
    }
    topk_case c = {WGS_TYPE_F32, WGS_TOPK_LARGEST, WGS_TOPK_SORTED, WGS_PAYLOAD_INDEX};
    wgs_topk_plan_desc d = {.type = c.type, .payload = c.payload, .capacity = 1u << 18, .k_capacity = 1024,
                            .row_capacity = 3};
    wgs_topk_plan *plan = NULL;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_OK);
    if (plan) {
        check_topk(ctx, plan, &c, D_UNIFORM, 1u << 18, 1, 1024, 41);
        check_topk(ctx, plan, &c, D_EQUAL, 1u << 18, 1, 1000, 42);
        check_topk(ctx, plan, &c, D_FEW, 1u << 18, 1, 1024, 43);
        static const uint64_t ns[] = {255, 256, 257};
        for (int i = 0; i < 3; i++) check_topk(ctx, plan, &c, (enum dist)i, ns[i], 3, (uint32_t)(ns[i] / 3), 44u + i);
    }
    wgs_topk_plan_destroy(plan);
}

/* The row kernel with room for 1 and 40 candidates: buckets that do not fit are split
 * by further passes over the row in global memory (a broken pass there fails every
 * distribution but the uniform one at 40), then collected. */
TEST(topk_row_path_small_room) {
    static const uint32_t rooms[] = {1, 40};
    for (int r = 0; r < 2; r++) {
        const wgs_experimental e = {.topk_path = 2, .topk_rows_candidates = rooms[r]};
        wgs_context *ctx = test_context_experimental(&e);
        if (!ctx) return;
        for (int o = 0; o < 2; o++) {
            topk_case c = {o ? WGS_TYPE_I32 : WGS_TYPE_F32, (wgs_topk_select)o, (wgs_topk_output)o,
                           (wgs_payload)(o ? WGS_PAYLOAD_BUFFER : WGS_PAYLOAD_INDEX)};
            wgs_topk_plan_desc d = {.type = c.type, .select = c.select, .output = c.output, .payload = c.payload,
                                    .capacity = 3000, .k_capacity = 600, .row_capacity = 3};
            wgs_topk_plan *plan = NULL;
            CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_OK);
            if (!plan) continue;
            for (int di = 0; di < D_COUNT; di++) {
                check_topk(ctx, plan, &c, (enum dist)di, 3000, 3, 600, 60u + (uint64_t)di);
                check_topk(ctx, plan, &c, (enum dist)di, 1000, 2, 7, 70u + (uint64_t)di);
            }
            wgs_topk_plan_destroy(plan);
        }
    }
}

TEST(topk_paths_refused) {
    wgs_experimental e = {.topk_path = 3};
    wgs_context *ctx = test_context_experimental(&e);
    if (!ctx) return;
    wgs_topk_plan *plan = NULL;
    wgs_topk_plan_desc d = {.capacity = 1000, .k_capacity = 10};
    CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL);
    /* Forced rows: the plan's n and k within the row kernel's bounds. */
    e.topk_path = 2;
    ctx = test_context_experimental(&e);
    if (!ctx) return;
    wgs_topk_plan_desc big = {.capacity = (1u << 18) + 1, .k_capacity = 10};
    CHECK_RESULT(wgs_topk_plan_create(ctx, &big, &plan), WGS_ERROR_INVALID_ARGUMENT);
    big = (wgs_topk_plan_desc){.capacity = 5000, .k_capacity = 1025};
    CHECK_RESULT(wgs_topk_plan_create(ctx, &big, &plan), WGS_ERROR_INVALID_ARGUMENT);
    /* A room past the device's workgroup memory. */
    e.topk_rows_candidates = 1u << 20;
    ctx = test_context_experimental(&e);
    if (!ctx) return;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL);
}

TEST(topk_float_edges) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    /* -NaN, -inf, -0, +0, subnormals, +inf, +NaN: their places in the sort's order. */
    static const uint32_t edges[] = {0x7FC00000u, 0xFFC00001u, 0x80000000u, 0x00000000u, 0x00000001u,
                                     0x80000001u, 0x7F800000u, 0xFF800000u, 0x3F800000u, 0x007FFFFFu};
    uint32_t n = sizeof edges / sizeof edges[0];
    for (int sel = 0; sel < 2; sel++) {
        wgs_topk_plan_desc d = {.type = WGS_TYPE_F32, .select = (wgs_topk_select)sel, .payload = WGS_PAYLOAD_INDEX};
        uint32_t got[10], idx[10], want[10], want_i[10];
        for (uint32_t k = 1; k <= n; k += 3) {
            CHECK_RESULT(wgs_topk_host(ctx, &d, edges, NULL, n, 1, k, got, idx), WGS_OK);
            CHECK(ref_topk(WGS_TYPE_F32, sel == 0, 1, edges, NULL, 1, n, 1, k, want, want_i) == 0);
            CHECK(memcmp(got, want, k * 4) == 0 && memcmp(idx, want_i, k * 4) == 0);
        }
        /* The first of the largest is +NaN, of the smallest -NaN. */
        CHECK_RESULT(wgs_topk_host(ctx, &d, edges, NULL, n, 1, 1, got, idx), WGS_OK);
        CHECK(got[0] == (sel == 0 ? 0x7FC00000u : 0xFFC00001u));
    }
}

/* LLM sampling's shape, scaled down: 70 rows (more than a workgroup picks for), the
 * top 50 of each, with indices. */
static void many_short_rows(wgs_context *ctx) {
    if (!ctx) return;
    topk_case c = {WGS_TYPE_F32, WGS_TOPK_LARGEST, WGS_TOPK_SORTED, WGS_PAYLOAD_INDEX};
    wgs_topk_plan_desc d = {.type = c.type, .payload = c.payload, .capacity = 4099, .k_capacity = 50,
                            .row_capacity = 70};
    wgs_topk_plan *plan = NULL;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_OK);
    if (plan) {
        check_topk(ctx, plan, &c, D_UNIFORM, 4099, 70, 50, 11);
        check_topk(ctx, plan, &c, D_FEW, 4099, 70, 50, 12);
        check_topk(ctx, plan, &c, D_UNIFORM, 100, 17, 1, 13);
    }
    wgs_topk_plan_destroy(plan);
}

TEST(topk_many_rows) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    /* The short rows (the row path), then one row of more tiles than a workgroup scans
     * at once (the passes). */
    many_short_rows(ctx);
    wgs_topk_plan *plan = NULL;
    topk_case u = {WGS_TYPE_U32, WGS_TOPK_SMALLEST, WGS_TOPK_INPUT_ORDER, WGS_PAYLOAD_BUFFER};
    wgs_topk_plan_desc du = {.type = u.type, .select = u.select, .output = u.output, .payload = u.payload,
                             .capacity = 300001, .k_capacity = 300001};
    plan = NULL;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &du, &plan), WGS_OK);
    if (plan) {
        check_topk(ctx, plan, &u, D_UNIFORM, 300001, 1, 1000, 14);
        check_topk(ctx, plan, &u, D_FEW, 300001, 1, 150000, 15);
    }
    wgs_topk_plan_destroy(plan);
}

TEST(topk_sorted_past_the_ranking) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    /* One row, k past WGS_TOPK_SORTED_MAX_K: the plan's sort orders the k (pairs: the
     * indices move with the keys); the same plan ranks a small k in a workgroup. One
     * case: the sort's pipelines take most of this test's time on SwiftShader, and
     * test_sort covers the sort's types and payloads. */
    const topk_case c = {WGS_TYPE_F32, WGS_TOPK_LARGEST, WGS_TOPK_SORTED, WGS_PAYLOAD_INDEX};
    wgs_topk_plan_desc d = {.type = c.type, .payload = c.payload, .capacity = 7001, .k_capacity = 7001};
    wgs_topk_plan *plan = NULL;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    check_topk(ctx, plan, &c, D_UNIFORM, 7001, 1, WGS_TOPK_SORTED_MAX_K + 1, 21);
    check_topk(ctx, plan, &c, D_FEW, 7001, 1, 7001, 22);
    check_topk(ctx, plan, &c, D_FLOAT_EDGES, 7001, 1, 50, 23);
    wgs_topk_plan_destroy(plan);
}

TEST(topk_folded_grids_and_binding_limit) {
    /* 16 workgroups a dimension: every grid of 70 rows x 9 tiles, and the candidates',
     * folds into two dimensions; the row kernel's grid of 70 rows too. */
    wgs_topk_plan *plan = NULL;
    for (uint32_t path = 1; path <= 2; path++) {
        const wgs_experimental e = {.max_workgroups_per_dimension = 16, .topk_path = path};
        wgs_context *ctx = test_context_experimental(&e);
        if (!ctx) return;
        topk_case c = {WGS_TYPE_U32, WGS_TOPK_LARGEST, WGS_TOPK_SORTED, WGS_PAYLOAD_BUFFER};
        wgs_topk_plan_desc d = {.type = c.type, .payload = c.payload, .capacity = 4099, .k_capacity = 300,
                                .row_capacity = 70};
        CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_OK);
        if (plan) {
            check_topk(ctx, plan, &c, D_UNIFORM, 4099, 70, 300, 31);
            check_topk(ctx, plan, &c, D_EQUAL, 4099, 70, 2, 32);
        }
        wgs_topk_plan_destroy(plan);
    }
    /* The keys of every row in one binding: refused at creation past it. */
    wgs_context *ctx = test_context_capped(0, 65536);
    if (!ctx) return;
    wgs_topk_plan_desc big = {.capacity = 8193, .row_capacity = 2, .k_capacity = 10};
    CHECK_RESULT(wgs_topk_plan_create(ctx, &big, &plan), WGS_ERROR_TOO_LARGE);
    wgs_topk_plan_destroy(plan); /* NULL unless the check failed */
    big.row_capacity = 1;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &big, &plan), WGS_OK);
    wgs_topk_plan_destroy(plan);
}

TEST(topk_tile_groups) {
    /* Tiles of 64 keys, 8 to a workgroup of the first histogram and 4 (the CPU class's),
     * 1 or 32 (a whole word of flags) to one of the write: rows of 16 tiles and more end
     * in a partial group of each, rows of 16 are one partial write group of 32; k small,
     * so that most tiles of the write hold no winner and skip their keys, and ties, so
     * that tiles of equal keys past the ones taken skip too. */
    static const uint32_t write_tiles[] = {0, 1, 32};
    wgs_experimental e = {.topk = {32, 2}, .topk_hist_tiles = 8, .topk_path = 1};
    topk_case c = {WGS_TYPE_U32, WGS_TOPK_SMALLEST, WGS_TOPK_INPUT_ORDER, WGS_PAYLOAD_INDEX};
    wgs_topk_plan_desc d = {.type = c.type, .select = c.select, .output = c.output, .payload = c.payload,
                            .capacity = 3000, .k_capacity = 700, .row_capacity = 3};
    wgs_topk_plan *plan = NULL;
    for (size_t w = 0; w < sizeof write_tiles / sizeof write_tiles[0]; w++) {
        e.topk_write_tiles = write_tiles[w];
        wgs_context *ctx = test_context_experimental(&e);
        if (!ctx) return;
        CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_OK);
        if (plan) {
            static const uint64_t ns[] = {64, 1000, 1024, 1025, 3000};
            static const uint32_t ks[] = {1, 5, 63, 700};
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
                for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++)
                    if (ks[j] <= ns[i])
                        check_topk(ctx, plan, &c, (enum dist)((i + j + w) % 3), ns[i], 1 + (uint32_t)(j % 3),
                                   ks[j], 100 + i * 8 + j + w * 64);
        }
        wgs_topk_plan_destroy(plan);
        plan = NULL;
    }
    /* Tiles a histogram workgroup: a power of two up to 64; a write workgroup: up to 32. */
    e.topk_write_tiles = 0;
    e.topk_hist_tiles = 3;
    wgs_context *ctx = test_context_experimental(&e);
    if (!ctx) return;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    wgs_topk_plan_destroy(plan);
    e.topk_hist_tiles = 8;
    static const uint32_t bad_write[] = {3, 64};
    for (size_t w = 0; w < 2; w++) {
        e.topk_write_tiles = bad_write[w];
        ctx = test_context_experimental(&e);
        if (!ctx) return;
        CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
        wgs_topk_plan_destroy(plan);
    }
}

TEST(topk_scratch_query) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_topk_plan_desc d = {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_BUFFER, .capacity = 300000,
                            .k_capacity = 100, .row_capacity = 10};
    /* The query before creation allocates nothing and says what creation then makes
     * (the inner scan plan's and, past k = 4096, the sort plan's buffers included). */
    for (int big_k = 0; big_k < 2; big_k++) {
        d.k_capacity = big_k ? 5000 : 100;
        d.row_capacity = big_k ? 1 : 10;
        d.capacity = big_k ? 100000 : 300000; /* past the row kernel's rows: the passes' scratch */
        if (big_k) /* topk_sorted_past_the_ranking's description: its pipelines are cached */
            d.type = WGS_TYPE_F32, d.payload = WGS_PAYLOAD_INDEX;
        uint64_t before = 0, made = wgs_experimental_buffer_bytes_created(ctx);
        CHECK_RESULT(wgs_topk_plan_desc_scratch_size(ctx, &d, &before), WGS_OK);
        CHECK(wgs_experimental_buffer_bytes_created(ctx) == made);
        wgs_topk_plan *plan = NULL;
        CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_OK);
        made = wgs_experimental_buffer_bytes_created(ctx) - made;
        CHECK(before > 0 && before == wgs_topk_plan_scratch_size(plan) && before == made);
        wgs_topk_plan_destroy(plan);
    }
    /* Rows the row kernel takes, every n and k of them: no scratch (its state lives in
     * workgroup memory). */
    d = (wgs_topk_plan_desc){.type = WGS_TYPE_F32, .payload = WGS_PAYLOAD_INDEX, .capacity = 4099,
                             .k_capacity = 50, .row_capacity = 70};
    uint64_t rows_bytes = 1;
    CHECK_RESULT(wgs_topk_plan_desc_scratch_size(ctx, &d, &rows_bytes), WGS_OK);
    CHECK(rows_bytes == 0);
    uint64_t before = 0;
    d.output = WGS_TOPK_SORTED + 7;
    CHECK_RESULT(wgs_topk_plan_desc_scratch_size(ctx, &d, &before), WGS_ERROR_INVALID_ARGUMENT);
    CHECK(before == 0);
}

TEST(topk_bad_input) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_topk_plan *plan = NULL;
    wgs_topk_plan_desc d = {.capacity = 1000, .k_capacity = 10, .row_capacity = 2, .payload = WGS_PAYLOAD_INDEX};
    wgs_topk_plan_desc bad = d;
    bad.type = WGS_TYPE_F16;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &bad, &plan), WGS_ERROR_UNSUPPORTED_TYPE);
    CHECK(plan == NULL);
    bad = d, bad.type = WGS_TYPE_U64;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &bad, &plan), WGS_ERROR_UNSUPPORTED_TYPE);
    bad = d, bad.select = (wgs_topk_select)2;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &bad, &plan), WGS_ERROR_INVALID_ARGUMENT);
    bad = d, bad.payload = (wgs_payload)3;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &bad, &plan), WGS_ERROR_INVALID_ARGUMENT);
    bad = d, bad.k_capacity = 1001;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &bad, &plan), WGS_ERROR_INVALID_ARGUMENT);
    bad = d, bad.capacity = 100000, bad.k_capacity = WGS_TOPK_SORTED_MAX_K + 1; /* sorted, 2 rows */
    CHECK_RESULT(wgs_topk_plan_create(ctx, &bad, &plan), WGS_ERROR_TOO_LARGE);
    bad = d, bad.capacity = 1ull << 31, bad.row_capacity = 4;
    CHECK_RESULT(wgs_topk_plan_create(ctx, &bad, &plan), WGS_ERROR_TOO_LARGE);
    CHECK_RESULT(wgs_topk_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    WGPUBuffer in = test_buffer(ctx, 2000 * 4), out = test_buffer(ctx, 20 * 4), idx = test_buffer(ctx, 20 * 4);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_topk_args ok = {.keys_in = in, .keys_out = out, .values_out = idx, .n = 1000, .rows = 2, .k = 10}, a;
    a = ok, a.k = 0;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = ok, a.n = 5, a.k = 6;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = ok, a.n = 0, a.k = 1;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = ok, a.rows = 0;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = ok, a.rows = 3;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a = ok, a.n = 1001;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a = ok, a.k = 11;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a = ok, a.keys_out = idx, a.values_out = out, a.keys_out_offset = 256;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    a = ok, a.values_out = NULL;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = ok, a.values_out = out;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.keys_out = in;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.keys_in_offset = 2;
    CHECK_RESULT(wgs_topk_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    /* Refused before any GPU work: the encoder is still good. */
    CHECK_RESULT(wgs_topk_encode(plan, enc, &ok), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    uint32_t keys[4] = {1, 2, 3, 4}, got[4];
    CHECK_RESULT(wgs_topk_host(ctx, &d, keys, NULL, 4, 1, 0, got, got), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_topk_host(ctx, &d, keys, NULL, 4, 1, 5, got, got), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_topk_host(ctx, &d, keys, NULL, 4, 1, 2, got, NULL), WGS_ERROR_INVALID_ARGUMENT);
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, out);
    wgs_buffer_release(ctx, idx);
    wgs_topk_plan_destroy(plan);
}
