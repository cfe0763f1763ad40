/* SPDX-License-Identifier: MIT */
/* Reduce and count against the CPU reference: every type, operator and algorithm at the
 * size boundaries (0, 1, the tail below 4, a workgroup's share +-1, the whole grid's
 * share +-1, larger), ties for arg ops, several bindings under capped limits, the
 * fixed-point and compare-exchange float sums, the contention variants of count. */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t max_n(void) {
    const char *e = getenv("WGSCAN_TEST_MAX_N");
    uint64_t m = e ? strtoull(e, NULL, 10) : (1ull << 22) + 3;
    return m;
}

/* 0..4, grid shares of both tunings (512 and 2048 elements per workgroup on the CPU and
 * GPU tunings; 64 and 1024 workgroups), +-1, and the largest. */
static int sizes_for(uint64_t *s) {
    const uint64_t base[] = {0, 1, 2, 3, 4, 5, 511, 512, 513, 2047, 2048, 2049, 32767, 32769,
                             (1u << 21) - 1, (1u << 21) + 1, 3000017};
    int k = 0;
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        if (base[i] <= max_n()) s[k++] = base[i];
    s[k++] = max_n();
    return k;
}

/* Runs one encode; result[0..1] = value bits, index. */
static int run_reduce(wgs_context *ctx, wgs_reduce_plan *plan, const void *data, uint64_t n,
                      uint32_t result[2]) {
    WGPUBuffer in = test_upload(ctx, data, n * 4), out = test_buffer(ctx, 256);
    int ok = 0;
    WGPUCommandEncoder enc;
    uint32_t guard[4] = {0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF};
    if (!in || !out) goto done;
    wgs_buffer_write(ctx, out, 0, guard, 16);
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_reduce_args a = {.input = in, .n = n, .output = out};
    wgs_result r = wgs_reduce_encode(plan, enc, &a);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    if (r != WGS_OK) {
        test_fail(__FILE__, __LINE__, "encode n=%llu: %s", (unsigned long long)n, wgs_context_last_error(ctx));
        goto done;
    }
    uint32_t got[4];
    CHECK_RESULT(wgs_buffer_read(ctx, out, 0, got, 16), WGS_OK);
    result[0] = got[0];
    result[1] = got[1];
    ok = 1;
done:
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, out);
    return ok;
}

static double f32_of(uint32_t bits) {
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* The documented bound of wgscan.h: (n / 1024 + 64) u S, plus 2n 2^-126 for a device
 * that flushes subnormals, plus for fixed point half a step of 2^-bits per workgroup (at
 * most n / 128 workgroups) and a final rounding; an infinite or NaN exact sum (inputs
 * with infinities or NaN) must come back as the same infinity, or a NaN. Float min and
 * max: the same bits, or both NaN; arg ops: the very bits of the element at the index. */
static void check_reduction(const char *what, wgs_type type, wgs_op op, uint64_t n, const void *data,
                            const uint32_t got[2], uint32_t fixed_bits) {
    ref_reduction want = ref_reduce(data, type, op, n);
    int arg = op == WGS_OP_ARGMIN || op == WGS_OP_ARGMAX;
    if (type == WGS_TYPE_F32 && op == WGS_OP_ADD) {
        double g = f32_of(got[0]);
        double tol = ref_reduce_sum_tolerance(&want, n);
        if (fixed_bits) tol += ((double)n / 128 + 1) * ldexp(1, -(int)fixed_bits - 1) + ldexp(1, -23) * fabs(want.exact);
        if (!ref_sum_matches(g, want.exact, tol))
            test_fail(__FILE__, __LINE__, "%s n=%llu: sum %.9g, exact %.9g, error %.3g, tolerance %.3g", what,
                      (unsigned long long)n, g, want.exact, fabs(g - want.exact), tol);
        return;
    }
    if ((arg ? got[0] != want.bits : !ref_same_value(type, got[0], want.bits)) || (arg && got[1] != want.index))
        test_fail(__FILE__, __LINE__, "%s %s %s n=%llu: got %08x/%u, want %08x/%u", what, wgs_type_name(type),
                  wgs_op_name(op), (unsigned long long)n, got[0], arg ? got[1] : 0, want.bits,
                  arg ? want.index : 0);
}

static void *random_data(wgs_type type, wgs_op op, uint64_t n, uint64_t seed) {
    void *d = malloc(n ? n * 4 : 4);
    if (!d) return NULL;
    ref_fill_random(d, type, op == WGS_OP_ARGMIN || op == WGS_OP_ARGMAX ? WGS_OP_MIN : op, n, seed);
    /* Arg ops: few distinct integers, so the extreme value repeats and ties decide. */
    if ((op == WGS_OP_ARGMIN || op == WGS_OP_ARGMAX) && type != WGS_TYPE_F32) {
        uint32_t *w = d;
        for (uint64_t i = 0; i < n; i++) w[i] = type == WGS_TYPE_I32 ? (uint32_t)((int32_t)(w[i] % 61) - 30) : w[i] % 61;
    }
    return d;
}

static void reduce_matrix(wgs_context *ctx, wgs_type type, wgs_reduce_algorithm algo, wgs_float_sum fs) {
    static const wgs_op int_ops[] = {WGS_OP_ADD, WGS_OP_MIN, WGS_OP_MAX, WGS_OP_AND,
                                     WGS_OP_OR, WGS_OP_XOR, WGS_OP_ARGMIN, WGS_OP_ARGMAX};
    static const wgs_op float_ops[] = {WGS_OP_ADD, WGS_OP_MIN, WGS_OP_MAX, WGS_OP_ARGMIN, WGS_OP_ARGMAX};
    const wgs_op *ops = type == WGS_TYPE_F32 ? float_ops : int_ops;
    int nops = type == WGS_TYPE_F32 ? 5 : 8;
    uint64_t sizes[32];
    int ns = sizes_for(sizes);
    for (int o = 0; o < nops; o++) {
        int arg = ops[o] == WGS_OP_ARGMIN || ops[o] == WGS_OP_ARGMAX;
        if (arg && algo == WGS_REDUCE_ALGORITHM_ATOMIC) continue;
        wgs_reduce_plan_desc d = {.type = type, .op = ops[o], .algorithm = algo, .float_sum = fs,
                                  .capacity = max_n(), .label = "test"};
        wgs_reduce_plan *plan = NULL;
        CHECK_RESULT(wgs_reduce_plan_create(ctx, &d, &plan), WGS_OK);
        if (!plan) continue;
        for (int i = 0; i < ns; i++) {
            void *data = random_data(type, ops[o], sizes[i], sizes[i] * 13 + (uint64_t)o);
            uint32_t got[2];
            if (data && run_reduce(ctx, plan, data, sizes[i], got))
                check_reduction("reduce", type, ops[o], sizes[i], data, got,
                                fs == WGS_FLOAT_SUM_FIXED_POINT && type == WGS_TYPE_F32 && algo == WGS_REDUCE_ALGORITHM_ATOMIC ? 24 : 0);
            free(data);
        }
        wgs_reduce_plan_destroy(plan);
    }
}

TEST(reduce_tree_u32) { reduce_matrix(test_context(), WGS_TYPE_U32, WGS_REDUCE_ALGORITHM_TREE, 0); }
TEST(reduce_tree_i32) { reduce_matrix(test_context(), WGS_TYPE_I32, WGS_REDUCE_ALGORITHM_TREE, 0); }
TEST(reduce_tree_f32) { reduce_matrix(test_context(), WGS_TYPE_F32, WGS_REDUCE_ALGORITHM_TREE, 0); }
TEST(reduce_atomic_u32) { reduce_matrix(test_context(), WGS_TYPE_U32, WGS_REDUCE_ALGORITHM_ATOMIC, 0); }
TEST(reduce_atomic_i32) { reduce_matrix(test_context(), WGS_TYPE_I32, WGS_REDUCE_ALGORITHM_ATOMIC, 0); }
TEST(reduce_atomic_f32_cas) { reduce_matrix(test_context(), WGS_TYPE_F32, WGS_REDUCE_ALGORITHM_ATOMIC, WGS_FLOAT_SUM_CAS); }
TEST(reduce_atomic_f32_fixed_point) {
    reduce_matrix(test_context(), WGS_TYPE_F32, WGS_REDUCE_ALGORITHM_ATOMIC, WGS_FLOAT_SUM_FIXED_POINT);
}

/* Several bindings: a 64 KiB binding cap cuts the array into chunks of 16384 elements;
 * 3 workgroups a dimension fold each chunk's grid into two dimensions with spare
 * workgroups (which once counted their share twice). */
TEST(reduce_multi_binding) {
    wgs_context *ctx = test_context_capped(3, 64 * 1024);
    if (!ctx) return;
    const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_ARGMAX, WGS_OP_MIN, WGS_OP_ADD};
    const wgs_reduce_algorithm algos[] = {WGS_REDUCE_ALGORITHM_TREE, WGS_REDUCE_ALGORITHM_TREE,
                                          WGS_REDUCE_ALGORITHM_ATOMIC, WGS_REDUCE_ALGORITHM_ATOMIC};
    for (int k = 0; k < 4; k++) {
        wgs_reduce_plan_desc d = {.type = WGS_TYPE_I32, .op = ops[k], .algorithm = algos[k],
                                  .capacity = 200000};
        wgs_reduce_plan *plan = NULL;
        CHECK_RESULT(wgs_reduce_plan_create(ctx, &d, &plan), WGS_OK);
        const uint64_t sizes[] = {16383, 16384, 16385, 65536 * 3 + 1};
        for (int i = 0; plan && i < 4; i++) {
            void *data = random_data(WGS_TYPE_I32, ops[k], sizes[i], 77 + (uint64_t)i);
            uint32_t got[2];
            if (data && run_reduce(ctx, plan, data, sizes[i], got))
                check_reduction("chunked", WGS_TYPE_I32, ops[k], sizes[i], data, got, 0);
            free(data);
        }
        wgs_reduce_plan_destroy(plan);
    }
}

/* 3 workgroups a dimension: a grid capped at the tuning's group count folds into two
 * dimensions with spare workgroups, which once reduced (and counted) a share twice. */
TEST(reduce_folded_grid) {
    wgs_context *ctx = test_context_capped(3, 0);
    if (!ctx) return;
    const uint64_t n = 65536 * 3 + 1;
    for (int algo = WGS_REDUCE_ALGORITHM_TREE; algo <= WGS_REDUCE_ALGORITHM_ATOMIC; algo++) {
        wgs_reduce_plan_desc d = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .algorithm = (wgs_reduce_algorithm)algo,
                                  .capacity = n};
        wgs_reduce_plan *plan = NULL;
        CHECK_RESULT(wgs_reduce_plan_create(ctx, &d, &plan), WGS_OK);
        void *data = random_data(WGS_TYPE_U32, WGS_OP_ADD, n, 91);
        uint32_t got[2];
        if (plan && data && run_reduce(ctx, plan, data, n, got))
            check_reduction("folded grid", WGS_TYPE_U32, WGS_OP_ADD, n, data, got, 0);
        free(data);
        wgs_reduce_plan_destroy(plan);
    }
}

/* The tree and the fixed-point sum give the same bits every run; all-equal values tie
 * everywhere and arg ops must return index 0. */
TEST(reduce_deterministic_and_ties) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t n = 1000003;
    float *x = malloc(n * 4);
    if (!x) return;
    ref_fill_random(x, WGS_TYPE_F32, WGS_OP_ADD, n, 5);
    const wgs_reduce_algorithm algos[] = {WGS_REDUCE_ALGORITHM_TREE, WGS_REDUCE_ALGORITHM_ATOMIC};
    for (int a = 0; a < 2; a++) {
        wgs_reduce_plan_desc d = {.type = WGS_TYPE_F32, .op = WGS_OP_ADD, .algorithm = algos[a],
                                  .float_sum = WGS_FLOAT_SUM_FIXED_POINT, .fixed_point_bits = 20,
                                  .capacity = n};
        wgs_reduce_plan *plan = NULL;
        CHECK_RESULT(wgs_reduce_plan_create(ctx, &d, &plan), WGS_OK);
        uint32_t first[2] = {0, 0}, got[2];
        for (int run = 0; plan && run < 5; run++) {
            if (!run_reduce(ctx, plan, x, n, got)) break;
            if (run == 0) memcpy(first, got, sizeof first);
            else CHECK(got[0] == first[0]);
        }
        wgs_reduce_plan_destroy(plan);
    }
    for (uint64_t i = 0; i < n; i++) x[i] = 0.5f;
    wgs_reduce_plan_desc d = {.type = WGS_TYPE_F32, .op = WGS_OP_ARGMAX, .capacity = n};
    uint32_t res[2];
    CHECK_RESULT(wgs_reduce_host(ctx, &d, x, n, res), WGS_OK);
    CHECK(res[1] == 0 && f32_of(res[0]) == 0.5);
    free(x);
}

static void count_matrix(wgs_type type, wgs_reduce_algorithm algo) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const wgs_predicate preds[] = {
        {.kind = WGS_PREDICATE_NONZERO}, {.kind = WGS_PREDICATE_EQUAL, .a = 3}, {.kind = WGS_PREDICATE_NOT_EQUAL, .a = 3},
        {.kind = WGS_PREDICATE_LESS, .a = 10},   {.kind = WGS_PREDICATE_GREATER, .a = 10}, {.kind = WGS_PREDICATE_IN_RANGE, .a = -5, .b = 17}};
    uint64_t sizes[32];
    int ns = sizes_for(sizes);
    for (int p = 0; p < 6; p++) {
        wgs_predicate pr = preds[p];
        if (type == WGS_TYPE_U32 && pr.a < 0) pr.a = 0;
        wgs_count_plan_desc d = {.type = type, .predicate = pr, .algorithm = algo, .capacity = max_n()};
        wgs_reduce_plan *plan = NULL;
        CHECK_RESULT(wgs_count_plan_create(ctx, &d, &plan), WGS_OK);
        for (int i = 0; plan && i < ns; i++) {
            uint64_t n = sizes[i];
            uint32_t *data = malloc(n ? n * 4 : 4);
            ref_fill_random(data, WGS_TYPE_U32, WGS_OP_ADD, n, n + (uint64_t)p);
            /* Small values (and quarter steps for f32) so that every predicate hits often. */
            for (uint64_t k = 0; k < n; k++) {
                int v = (int)(data[k] % 41) - 20;
                if (type == WGS_TYPE_F32) {
                    float f = (float)v * 0.75f;
                    memcpy(&data[k], &f, 4);
                } else {
                    data[k] = type == WGS_TYPE_U32 ? (uint32_t)(v + 20) : (uint32_t)v;
                }
            }
            uint32_t got[2];
            if (run_reduce(ctx, plan, data, n, got)) {
                uint64_t want = ref_count(data, type, &pr, n);
                if (got[0] != want)
                    test_fail(__FILE__, __LINE__, "count %s predicate %d n=%llu: got %u, want %llu",
                              wgs_type_name(type), (int)pr.kind, (unsigned long long)n, got[0],
                              (unsigned long long)want);
            }
            free(data);
        }
        wgs_reduce_plan_destroy(plan);
    }
}

TEST(count_tree) { count_matrix(WGS_TYPE_I32, WGS_REDUCE_ALGORITHM_TREE); }
TEST(count_two_level_atomic) { count_matrix(WGS_TYPE_F32, WGS_REDUCE_ALGORITHM_ATOMIC); }
TEST(count_atomic_per_element) { count_matrix(WGS_TYPE_U32, WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT); }

/* ---- Floats (wgscan.h "Floats"): NaN of several payloads, +-0, +-inf, subnormals -- */

/* Small sizes: one element, the vector tail, one workgroup, several, and a grid share. */
static const uint64_t edge_sizes[] = {1, 6, 257, 4099, 40001};
static const unsigned edge_kinds[] = {
    REF_EDGE_ZERO | REF_EDGE_ONLY,                      /* the zeros are the extremes */
    REF_EDGE_ZERO | REF_EDGE_SUBNORMAL | REF_EDGE_ONLY, /* so are the subnormals */
    REF_EDGE_ZERO | REF_EDGE_SUBNORMAL,                 /* finite, with normal numbers */
    REF_EDGE_INF | REF_EDGE_ZERO | REF_EDGE_SUBNORMAL,
    REF_EDGE_ALL,
    REF_EDGE_NAN | REF_EDGE_ONLY,
};

/* Every f32 reduction of data full of special values against the reference: min and max
 * exact to the bit and NaN-propagating, -0 below +0, subnormals never flushed; arg ops
 * the first index; sums IEEE's for infinities and NaN, within the bound otherwise. */
TEST(reduce_float_edges) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const struct {
        wgs_op op;
        wgs_reduce_algorithm algo;
    } runs[] = {{WGS_OP_ADD, WGS_REDUCE_ALGORITHM_TREE}, {WGS_OP_ADD, WGS_REDUCE_ALGORITHM_ATOMIC},
                {WGS_OP_MIN, WGS_REDUCE_ALGORITHM_TREE}, {WGS_OP_MIN, WGS_REDUCE_ALGORITHM_ATOMIC},
                {WGS_OP_MAX, WGS_REDUCE_ALGORITHM_TREE}, {WGS_OP_MAX, WGS_REDUCE_ALGORITHM_ATOMIC},
                {WGS_OP_ARGMIN, WGS_REDUCE_ALGORITHM_TREE}, {WGS_OP_ARGMAX, WGS_REDUCE_ALGORITHM_TREE}};
    const uint64_t cap = edge_sizes[sizeof edge_sizes / sizeof edge_sizes[0] - 1];
    uint32_t *data = malloc(cap * 4);
    if (!data) return;
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        wgs_reduce_plan_desc d = {.type = WGS_TYPE_F32, .op = runs[r].op, .algorithm = runs[r].algo,
                                  .float_sum = WGS_FLOAT_SUM_CAS, .capacity = cap, .label = "edges"};
        wgs_reduce_plan *plan = NULL;
        CHECK_RESULT(wgs_reduce_plan_create(ctx, &d, &plan), WGS_OK);
        for (size_t k = 0; plan && k < sizeof edge_kinds / sizeof edge_kinds[0]; k++) {
            for (size_t i = 0; i < sizeof edge_sizes / sizeof edge_sizes[0]; i++) {
                uint64_t n = edge_sizes[i];
                ref_fill_f32_edges(data, n, 100 * k + i, edge_kinds[k]);
                uint32_t got[2];
                char what[64];
                snprintf(what, sizeof what, "edges %s kinds %u", wgs_op_name(runs[r].op), edge_kinds[k]);
                if (run_reduce(ctx, plan, data, n, got)) check_reduction(what, WGS_TYPE_F32, runs[r].op, n, data, got, 0);
            }
        }
        wgs_reduce_plan_destroy(plan);
    }
    free(data);
}

/* -0 and +0 tie in value but not in order: argmin takes the first -0, argmax the first
 * +0, each with its own bits; a NaN anywhere wins at its first index. */
TEST(reduce_float_zeros_and_nan) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t x[9] = {0x00000000u, 0x00000000u, 0x80000000u, 0x00000001u, 0x80000000u,
                     0x80000001u, 0x00000000u, 0x80000001u, 0x00000001u};
    const wgs_op ops[] = {WGS_OP_ARGMIN, WGS_OP_ARGMAX, WGS_OP_MIN, WGS_OP_MAX};
    const uint32_t want_bits[] = {0x80000001u, 0x00000001u, 0x80000001u, 0x00000001u};
    const uint32_t want_index[] = {5, 3};
    for (int z = 0; z < 2; z++) { /* z = 1: without the subnormals, the zeros decide */
        if (z) x[3] = x[8] = 0x00000000u, x[5] = x[7] = 0x80000000u;
        for (int o = 0; o < 4; o++) {
            wgs_reduce_plan_desc d = {.type = WGS_TYPE_F32, .op = ops[o], .capacity = 9};
            uint32_t res[2] = {0, 0};
            CHECK_RESULT(wgs_reduce_host(ctx, &d, x, 9, res), WGS_OK);
            uint32_t wb = z ? (o % 2 ? 0x00000000u : 0x80000000u) : want_bits[o];
            uint32_t wi = z ? (o % 2 ? 0u : 2u) : want_index[o % 2];
            if (res[0] != wb || (o < 2 && res[1] != wi))
                test_fail(__FILE__, __LINE__, "%s zeros %d: got %08x/%u, want %08x/%u", wgs_op_name(ops[o]), z,
                          res[0], o < 2 ? res[1] : 0, wb, o < 2 ? wi : 0);
        }
    }
    x[6] = 0xFFC00000u; /* a negative quiet NaN, then a positive one */
    x[8] = 0x7FC00001u;
    for (int o = 0; o < 4; o++) {
        wgs_reduce_plan_desc d = {.type = WGS_TYPE_F32, .op = ops[o], .capacity = 9};
        uint32_t res[2] = {0, 0};
        CHECK_RESULT(wgs_reduce_host(ctx, &d, x, 9, res), WGS_OK);
        CHECK(isnan(f32_of(res[0])));
        if (o < 2) CHECK(res[1] == 6 && res[0] == 0xFFC00000u);
    }
}

/* Count with operands and data at the edges: IEEE comparisons on every device (NaN
 * unordered, so `ne:nan` counts everything; -0 == +0; subnormals not zero). */
TEST(count_float_edges) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const double tiny = 1.4e-45, inf = INFINITY, nan = NAN;
    const wgs_predicate preds[] = {
        {.kind = WGS_PREDICATE_NONZERO},        {.kind = WGS_PREDICATE_EQUAL},
        {.kind = WGS_PREDICATE_EQUAL, .a = -0.0},       {.kind = WGS_PREDICATE_EQUAL, .a = nan},
        {.kind = WGS_PREDICATE_NOT_EQUAL, .a = nan},    {.kind = WGS_PREDICATE_NOT_EQUAL, .a = -0.0},
        {.kind = WGS_PREDICATE_EQUAL, .a = tiny},       {.kind = WGS_PREDICATE_EQUAL, .a = inf},
        {.kind = WGS_PREDICATE_LESS},           {.kind = WGS_PREDICATE_LESS, .a = tiny},
        {.kind = WGS_PREDICATE_GREATER, .a = -0.0},     {.kind = WGS_PREDICATE_GREATER, .a = -inf},
        {.kind = WGS_PREDICATE_LESS, .a = inf},         {.kind = WGS_PREDICATE_LESS, .a = nan},
        {.kind = WGS_PREDICATE_IN_RANGE, .a = -0.0, .b = tiny}, {.kind = WGS_PREDICATE_IN_RANGE, .a = -inf, .b = inf},
        {.kind = WGS_PREDICATE_IN_RANGE, .a = -tiny},   {.kind = WGS_PREDICATE_IN_RANGE, .b = nan}};
    const uint64_t n = 40001;
    uint32_t *data = malloc(n * 4);
    if (!data) return;
    const unsigned kinds[] = {REF_EDGE_ALL, REF_EDGE_ALL | REF_EDGE_ONLY};
    for (size_t p = 0; p < sizeof preds / sizeof preds[0]; p++) {
        for (int k = 0; k < 2; k++) {
            ref_fill_f32_edges(data, n, 7 * p + (uint64_t)k, kinds[k]);
            const wgs_reduce_algorithm algo = p % 2 ? WGS_REDUCE_ALGORITHM_TREE : WGS_REDUCE_ALGORITHM_ATOMIC;
            wgs_count_plan_desc d = {.type = WGS_TYPE_F32, .predicate = preds[p], .algorithm = algo,
                                     .capacity = n};
            uint32_t got = 0;
            CHECK_RESULT(wgs_count_host(ctx, &d, data, n, &got), WGS_OK);
            uint64_t want = ref_count(data, WGS_TYPE_F32, &preds[p], n);
            if (got != want)
                test_fail(__FILE__, __LINE__, "count predicate %d (%g, %g) kinds %u: got %u, want %llu",
                          (int)preds[p].kind, preds[p].a, preds[p].b, kinds[k], got, (unsigned long long)want);
        }
    }
    free(data);
}

/* Scans of f32 (and f16 where the device has it) through both algorithms, with data full
 * of zeros and subnormals, then an infinity (-inf for min) and later a NaN planted: min
 * and max exact to the bit, sums within the bound of reference.h (which allows for
 * flushed subnormals), the infinity and NaN carried as IEEE has it. (Here, beside the reductions' float
 * rules; the scan's own tests are in test_scan.c.) */
TEST(scan_float_edges) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_context_info info;
    CHECK_RESULT(wgs_context_get_info(ctx, &info), WGS_OK);
    const uint64_t sizes[] = {1, 5, 3001, 40001};
    const uint64_t cap = 40001;
    uint32_t *f = malloc(cap * 4), *in = malloc(cap * 4), *got = malloc(cap * 4);
    if (!f || !in || !got) goto done;
    for (int t = 0; t < 2; t++) {
        wgs_type type = t ? WGS_TYPE_F16 : WGS_TYPE_F32;
        if (type == WGS_TYPE_F16 && !info.has_shader_f16) continue;
        size_t es = wgs_type_size(type);
        const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_MIN, WGS_OP_MAX};
        const wgs_scan_algorithm algos[] = {WGS_SCAN_ALGORITHM_SINGLE_PASS, WGS_SCAN_ALGORITHM_MULTILEVEL};
        for (int o = 0; o < 3; o++) {
            for (int a = 0; a < 2; a++) {
                { /* the single pass exclusive, the multi-level scan inclusive */
                    int inc = a;
                    wgs_scan_plan_desc d = {.type = type, .op = ops[o],
                                            .kind = inc ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                            .algorithm = algos[a], .capacity = cap, .label = "edges"};
                    wgs_scan_plan *plan = NULL;
                    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
                    for (size_t i = 0; plan && i < sizeof sizes / sizeof sizes[0]; i++) {
                        uint64_t n = sizes[i];
                        /* Sums among normal numbers; min and max among zeros (and subnormals)
                         * only, so that these are the extremes (-0 below +0). */
                        ref_fill_f32_edges(f, n, 31 * i + (uint64_t)o,
                                           REF_EDGE_ZERO | (o && i % 2 ? 0 : REF_EDGE_SUBNORMAL) | (o ? REF_EDGE_ONLY : 0));
                        if (n > 4) f[n / 2] = ops[o] == WGS_OP_MIN ? 0xFF800000u : 0x7F800000u, f[3 * n / 4] = 0x7FC00001u;
                        for (uint64_t j = 0; j < n; j++) {
                            if (type == WGS_TYPE_F32) {
                                in[j] = f[j];
                                continue;
                            }
                            float v;
                            memcpy(&v, &f[j], 4);
                            uint16_t h = ref_f32_to_f16(v);
                            if (v != 0 && fabsf(v) < 1e-30f) h = (uint16_t)((f[j] >> 16 & 0x8000u) | (1u + j % 0x3FF));
                            memcpy((char *)in + 2 * j, &h, 2); /* f16 subnormals where f32 had them */
                        }
                        uint64_t bytes = (n * es + 3) & ~3ull;
                        WGPUBuffer bi = test_upload(ctx, in, bytes), bo = test_buffer(ctx, bytes);
                        WGPUCommandEncoder enc;
                        if (bi && bo && wgs_encoder_create(ctx, &enc) == WGS_OK) {
                            wgs_scan_args sa = {.input = bi, .output = bo, .n = n};
                            CHECK_RESULT(wgs_scan_encode(plan, enc, &sa), WGS_OK);
                            CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
                            if (test_download(ctx, bo, got, bytes)) {
                                ref_check c = ref_verify(in, got, type, ops[o], inc, n);
                                if (c.mismatches)
                                    test_fail(__FILE__, __LINE__,
                                              "scan %s %s %s algorithm %d n=%llu: %llu wrong, first at %llu: got "
                                              "%.9g, want %.9g",
                                              wgs_type_name(type), wgs_op_name(ops[o]), inc ? "inclusive" : "exclusive",
                                              (int)algos[a], (unsigned long long)n, (unsigned long long)c.mismatches,
                                              (unsigned long long)c.first_bad, c.got, c.want);
                            }
                        }
                        wgs_buffer_release(ctx, bi);
                        wgs_buffer_release(ctx, bo);
                    }
                    wgs_scan_plan_destroy(plan);
                }
            }
        }
    }
done:
    free(f), free(in), free(got);
}

TEST(reduce_bad_input) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_reduce_plan *plan = NULL;
    wgs_reduce_plan_desc d = {.type = WGS_TYPE_F16, .op = WGS_OP_ADD, .capacity = 16};
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &d, &plan), WGS_ERROR_UNSUPPORTED_TYPE);
    d.type = WGS_TYPE_F32;
    d.op = WGS_OP_XOR;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &d, &plan), WGS_ERROR_UNSUPPORTED_OPERATOR);
    d.op = WGS_OP_ARGMIN;
    d.algorithm = WGS_REDUCE_ALGORITHM_ATOMIC;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &d, &plan), WGS_ERROR_UNSUPPORTED_OPERATOR);
    d.op = WGS_OP_ADD;
    d.algorithm = WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.algorithm = 0;
    d.capacity = 1ull << 40;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &d, &plan), WGS_ERROR_TOO_LARGE);
    wgs_count_plan_desc c = {.type = WGS_TYPE_U32, .predicate = {.kind = WGS_PREDICATE_EQUAL, .a = -1},
                             .capacity = 16};
    CHECK_RESULT(wgs_count_plan_create(ctx, &c, &plan), WGS_ERROR_INVALID_ARGUMENT);
    c.predicate.a = 0.5;
    CHECK_RESULT(wgs_count_plan_create(ctx, &c, &plan), WGS_ERROR_INVALID_ARGUMENT);
    c.predicate.kind = (wgs_predicate_kind)99;
    CHECK_RESULT(wgs_count_plan_create(ctx, &c, &plan), WGS_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL);

    d.capacity = 100;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    WGPUBuffer in = test_buffer(ctx, 400), out = test_buffer(ctx, 256);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_reduce_args a = {.input = in, .n = 101, .output = out};
    CHECK_RESULT(wgs_reduce_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a.n = 100;
    a.input_offset = 4;
    CHECK_RESULT(wgs_reduce_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    a.input_offset = 256;
    CHECK_RESULT(wgs_reduce_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    a.input_offset = 0;
    a.output = in;
    CHECK_RESULT(wgs_reduce_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a.output = NULL;
    CHECK_RESULT(wgs_reduce_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, out);
    wgs_reduce_plan_destroy(plan);
}

/* The host helpers: an arg op's 8-byte result (value, index) and a count. */
TEST(reduce_and_count_host) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint32_t v[] = {5, 9, 2, 9, 7};
    uint32_t got[2] = {0, 0};
    CHECK_RESULT(wgs_reduce_host(ctx, &(wgs_reduce_plan_desc){.op = WGS_OP_ARGMAX}, v, 5, got), WGS_OK);
    CHECK(got[0] == 9 && got[1] == 1);
    CHECK_RESULT(wgs_reduce_host(ctx, &(wgs_reduce_plan_desc){0}, v, 5, got), WGS_OK);
    CHECK(got[0] == 32);
    uint32_t count = 0;
    wgs_count_plan_desc cd = {.predicate = {.kind = WGS_PREDICATE_GREATER, .a = 6}};
    CHECK_RESULT(wgs_count_host(ctx, &cd, v, 5, &count), WGS_OK);
    CHECK(count == 3);
    CHECK_RESULT(wgs_count_host(ctx, &cd, NULL, 0, &count), WGS_OK);
    CHECK(count == 0);
}

/* ---- counts on the GPU (args.n_buffer) --------------------------------------------- */

/* For each count: a reduce of n = bound with the count in a buffer (at byte 12) and
 * one of n = the count (clamped), in one encoder: the first must be the reference's
 * result of the first count elements (the identity for 0) and the second's bits, and
 * leave the output's bytes past the result as they were. */
static void counted_reduces(wgs_context *ctx, wgs_reduce_plan *plan, wgs_type type, wgs_op op, const void *data,
                            uint64_t bound, const uint32_t *counts, int ncounts, const wgs_predicate *pred) {
    WGPUBuffer in = test_upload(ctx, data, bound * 4);
    uint32_t guard[8] = {0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF,
                         0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF};
    int arg = op == WGS_OP_ARGMIN || op == WGS_OP_ARGMAX;
    for (int i = 0; i < ncounts && in; i++) {
        uint64_t c = counts[i] < bound ? counts[i] : bound;
        WGPUBuffer cb = test_count_buffer(ctx, counts[i], 12);
        WGPUBuffer out = test_upload(ctx, guard, 32), out_host = test_upload(ctx, guard, 32);
        WGPUCommandEncoder enc;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        CHECK_RESULT(wgs_reduce_encode(plan, enc, &(wgs_reduce_args){.input = in, .n = bound, .output = out,
                                                                     .n_buffer = cb, .n_offset = 12}),
                     WGS_OK);
        CHECK_RESULT(wgs_reduce_encode(plan, enc, &(wgs_reduce_args){.input = in, .n = c, .output = out_host}),
                     WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        uint32_t got[8], host[8];
        if (test_download(ctx, out, got, 32) && test_download(ctx, out_host, host, 32)) {
            if (pred) {
                uint64_t want = ref_count(data, type, pred, c);
                if (got[0] != want)
                    test_fail(__FILE__, __LINE__, "count bound %llu count %u: %u, want %llu", (unsigned long long)bound,
                              counts[i], got[0], (unsigned long long)want);
            } else {
                check_reduction("reduce with a GPU count", type, op, c, data, got, 0);
            }
            if (memcmp(got, host, arg ? 8 : 4) != 0)
                test_fail(__FILE__, __LINE__, "%s %s bound %llu count %u: %08x, n = %llu gave %08x",
                          wgs_type_name(type), wgs_op_name(op), (unsigned long long)bound, counts[i], got[0],
                          (unsigned long long)c, host[0]);
            for (int w = arg ? 2 : 1; w < 8; w++)
                if (got[w] != 0xDEADBEEF) {
                    test_fail(__FILE__, __LINE__, "bound %llu count %u: word %d past the result written",
                              (unsigned long long)bound, counts[i], w);
                    break;
                }
        }
        wgs_buffer_release(ctx, out);
        wgs_buffer_release(ctx, out_host);
        wgs_buffer_release(ctx, cb);
    }
    wgs_buffer_release(ctx, in);
}

/* Tree and atomic, sums (f32: the same bits as n = the count), arg ops and a count,
 * at a workgroup's share's edges, past the grid's share, at the bound and above it. */
TEST(reduce_count_from_gpu) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const struct {
        wgs_type type;
        wgs_op op;
        wgs_reduce_algorithm algo;
    } cases[] = {{WGS_TYPE_U32, WGS_OP_ADD, WGS_REDUCE_ALGORITHM_TREE},
                 {WGS_TYPE_F32, WGS_OP_ADD, WGS_REDUCE_ALGORITHM_TREE},
                 {WGS_TYPE_I32, WGS_OP_ARGMAX, WGS_REDUCE_ALGORITHM_TREE},
                 {WGS_TYPE_F32, WGS_OP_MIN, WGS_REDUCE_ALGORITHM_TREE},
                 {WGS_TYPE_U32, WGS_OP_XOR, WGS_REDUCE_ALGORITHM_ATOMIC},
                 {WGS_TYPE_I32, WGS_OP_MAX, WGS_REDUCE_ALGORITHM_ATOMIC}};
    const uint64_t bound = 98309; /* three grid shares (CPU tuning: 64 x 512) and 5 */
    const uint32_t counts[] = {0, 1, 511, 512, 513, 40000, (uint32_t)bound, (uint32_t)bound + 1000};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        wgs_reduce_plan *plan = NULL;
        CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.type = cases[k].type, .op = cases[k].op,
                                                                        .algorithm = cases[k].algo,
                                                                        .capacity = bound},
                                            &plan),
                     WGS_OK);
        void *data = random_data(cases[k].type, cases[k].op, bound, 77 + k);
        if (plan && data) counted_reduces(ctx, plan, cases[k].type, cases[k].op, data, bound, counts, 8, NULL);
        free(data);
        wgs_reduce_plan_destroy(plan);
    }
    wgs_predicate pred = {.kind = WGS_PREDICATE_GREATER, .a = 0};
    for (int algo = WGS_REDUCE_ALGORITHM_TREE; algo <= WGS_REDUCE_ALGORITHM_ATOMIC; algo++) {
        wgs_reduce_plan *plan = NULL;
        CHECK_RESULT(wgs_count_plan_create(ctx, &(wgs_count_plan_desc){.type = WGS_TYPE_I32, .predicate = pred,
                                                                       .algorithm = (wgs_reduce_algorithm)algo,
                                                                       .capacity = bound},
                                           &plan),
                     WGS_OK);
        void *data = random_data(WGS_TYPE_I32, WGS_OP_ADD, bound, 91);
        if (plan && data) counted_reduces(ctx, plan, WGS_TYPE_I32, WGS_OP_ADD, data, bound, counts, 8, &pred);
        free(data);
        wgs_reduce_plan_destroy(plan);
    }
}

/* Capped limits: the bound over several bindings, counts in the first, at a chunk's
 * end and in the last; the final step's partials are summed over the chunks. */
TEST(reduce_count_from_gpu_chunks) {
    wgs_context *ctx = test_context_capped(3, 64 * 1024);
    if (!ctx) return;
    const uint64_t chunk = 16384, bound = 3 * chunk + 5;
    const uint32_t counts[] = {0, 3, chunk - 1, chunk, chunk + 1, 2 * chunk + 700, (uint32_t)bound};
    wgs_reduce_plan *plan = NULL;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.type = WGS_TYPE_F32, .capacity = bound},
                                        &plan),
                 WGS_OK);
    void *data = random_data(WGS_TYPE_F32, WGS_OP_ADD, bound, 5);
    if (plan && data) counted_reduces(ctx, plan, WGS_TYPE_F32, WGS_OP_ADD, data, bound, counts, 7, NULL);
    free(data);
    wgs_reduce_plan_destroy(plan);
}
