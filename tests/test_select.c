/* SPDX-License-Identifier: MIT */
/* Select, partition, unique and run-length encoding against the CPU reference: every
 * mode and type, with and without payloads, partitions, all / none / half the flags,
 * at the size boundaries (0, 1, the 4-element steps, tiles of both tunings +-1), and
 * bad inputs with their exact result codes. */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t max_n(void) {
    const char *e = getenv("WGSCAN_TEST_MAX_N");
    return e ? strtoull(e, NULL, 10) : (1ull << 22) + 3;
}

static int sizes_for(uint64_t *s) {
    const uint64_t base[] = {0, 1, 2, 3, 4, 5, 1023, 1024, 1025, 4095, 4096, 4097, 3 * 4096 + 7, 100003};
    int k = 0;
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        if (base[i] <= max_n()) s[k++] = base[i];
    s[k++] = max_n();
    return k;
}

typedef struct select_case {
    wgs_select_mode mode;
    wgs_type type;
    wgs_predicate pred;
    int partition;
    wgs_payload payload;
    int flag_pattern; /* 0 random half, 1 all, 2 none */
} select_case;

/* Runs one select of n elements and compares everything it wrote. */
/* float_edges: f32 data from ref_fill_f32_edges with these kinds instead (0: none). */
/* gpu_count >= 0: the encode takes n as the bound and the count (clamped to it) from a
 * GPU buffer; it must select from the first count elements and write nothing past
 * what it selected. */
static void check_select_count(wgs_context *ctx, wgs_select_plan *plan, const select_case *c, uint64_t n,
                               uint64_t seed, unsigned float_edges, int64_t gpu_count) {
    uint64_t bytes = n ? n * 4 : 4;
    uint64_t m = gpu_count >= 0 && (uint64_t)gpu_count < n ? (uint64_t)gpu_count : n; /* elements selected from */
    WGPUBuffer bn = NULL;
    uint32_t *in = malloc(bytes), *pay = malloc(bytes), *want = malloc(bytes), *want_pay = malloc(bytes);
    uint32_t *got = malloc(bytes), *got_pay = malloc(bytes);
    uint8_t *flags = malloc(n + 4);
    WGPUBuffer bin = NULL, bflags = NULL, bpay = NULL, bout = NULL, bpout = NULL, bcount = NULL;
    if (!in || !pay || !want || !want_pay || !got || !got_pay || !flags) goto done;
    ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, n, seed);
    for (uint64_t i = 0; i < n; i++) {
        pay[i] = (uint32_t)(i * 2654435761u);
        flags[i] = c->flag_pattern == 1 ? (uint8_t)(1 + in[i] % 255) : c->flag_pattern == 2 ? 0 : (uint8_t)((in[i] >> 7) & 1 ? in[i] >> 24 | 1 : 0);
        /* Values with runs (for unique) and in a small range (for the predicates). */
        int v = (int)((in[i] >> 3) % 9) - 4;
        if ((in[i] & 3) != 0 && i > 0) {
            memcpy(&in[i], &in[i - 1], 4);
            continue;
        }
        if (c->type == WGS_TYPE_F32) {
            float f = (float)v * 0.5f;
            memcpy(&in[i], &f, 4);
        } else {
            in[i] = c->type == WGS_TYPE_U32 ? (uint32_t)(v + 4) : (uint32_t)v;
        }
    }
    if (float_edges) ref_fill_f32_edges(in, n, seed, float_edges);
    memset(flags + n, 0x5A, 4); /* bytes past n count for nothing, whatever they hold */
    uint64_t want_count = ref_select(in, c->type, c->mode, &c->pred, flags, c->partition, c->payload, pay, m,
                                     want, want_pay);
    bin = test_upload(ctx, in, n * 4);
    bflags = test_upload(ctx, flags, (n + 3) & ~3ull);
    bpay = test_upload(ctx, pay, n * 4);
    memset(got, 0xC3, bytes);
    bout = test_upload(ctx, got, n * 4);
    bpout = test_upload(ctx, got, n * 4);
    bcount = test_buffer(ctx, 4);
    if (gpu_count >= 0) bn = test_count_buffer(ctx, (uint32_t)gpu_count, 20);
    uint32_t junk = 0xDEADBEEF;
    if (!bin || !bflags || !bpay || !bout || !bpout || !bcount) goto done;
    wgs_buffer_write(ctx, bcount, 0, &junk, 4);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_select_args a = {.input = bin, .flags = bflags, .payload_in = bpay, .output = bout,
                         .payload_out = bpout, .count = bcount, .n = n, .n_buffer = bn, .n_offset = 20};
    wgs_result r = wgs_select_encode(plan, enc, &a);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    if (r != WGS_OK) {
        test_fail(__FILE__, __LINE__, "encode n=%llu: %s", (unsigned long long)n, wgs_context_last_error(ctx));
        goto done;
    }
    uint32_t count = 0;
    uint64_t written = c->partition ? m : want_count;
    if (!test_download(ctx, bcount, &count, 4) || !test_download(ctx, bout, got, n * 4)) goto done;
    int has_pay = c->payload != WGS_PAYLOAD_NONE || c->mode == WGS_SELECT_RUN_LENGTH;
    if (has_pay && !test_download(ctx, bpout, got_pay, n * 4)) goto done;
    for (uint64_t i = written; i < n && gpu_count >= 0; i++) {
        if (got[i] != 0xC3C3C3C3u || (has_pay && got_pay[i] != 0xC3C3C3C3u)) {
            test_fail(__FILE__, __LINE__, "mode %d bound %llu count %lld: element %llu past the selected written",
                      (int)c->mode, (unsigned long long)n, (long long)gpu_count, (unsigned long long)i);
            break;
        }
    }
    if (count != want_count) {
        test_fail(__FILE__, __LINE__, "mode %d %s n=%llu: count %u, want %llu", (int)c->mode,
                  wgs_type_name(c->type), (unsigned long long)n, count, (unsigned long long)want_count);
        goto done;
    }
    for (uint64_t i = 0; i < written; i++) {
        if (got[i] != want[i] || (has_pay && got_pay[i] != want_pay[i])) {
            test_fail(__FILE__, __LINE__,
                      "mode %d %s partition %d payload %d n=%llu: element %llu is %08x/%08x, want %08x/%08x",
                      (int)c->mode, wgs_type_name(c->type), c->partition, (int)c->payload, (unsigned long long)n,
                      (unsigned long long)i, got[i], has_pay ? got_pay[i] : 0, want[i], has_pay ? want_pay[i] : 0);
            break;
        }
    }
done:
    wgs_buffer_release(ctx, bin);
    wgs_buffer_release(ctx, bflags);
    wgs_buffer_release(ctx, bpay);
    wgs_buffer_release(ctx, bout);
    wgs_buffer_release(ctx, bpout);
    wgs_buffer_release(ctx, bcount);
    wgs_buffer_release(ctx, bn);
    free(in), free(pay), free(want), free(want_pay), free(got), free(got_pay), free(flags);
}

static void check_select(wgs_context *ctx, wgs_select_plan *plan, const select_case *c, uint64_t n, uint64_t seed,
                         unsigned float_edges) {
    check_select_count(ctx, plan, c, n, seed, float_edges, -1);
}

/* Every case with each algorithm that takes it (a partition only in three passes), at
 * the given sizes (NULL: sizes_for's). */
static void run_cases_sized(wgs_context *ctx, const select_case *cases, int count, const uint64_t *given, int ng,
                            const unsigned *float_edges) {
    uint64_t sizes[32];
    int ns = given ? 0 : sizes_for(sizes);
    for (int i = 0; given && i < ng && i < 32; i++)
        if (given[i] <= max_n()) sizes[ns++] = given[i];
    const wgs_select_algorithm algos[] = {WGS_SELECT_ALGORITHM_SINGLE_PASS, WGS_SELECT_ALGORITHM_THREE_PASS};
    for (int k = 0; k < count; k++) {
        for (int a = cases[k].partition ? 1 : 0; a < 2; a++) {
            wgs_select_plan_desc d = {.type = cases[k].type, .mode = cases[k].mode,
                                      .predicate = cases[k].pred, .partition = cases[k].partition,
                                      .payload = cases[k].payload, .capacity = max_n(), .algorithm = algos[a]};
            wgs_select_plan *plan = NULL;
            CHECK_RESULT(wgs_select_plan_create(ctx, &d, &plan), WGS_OK);
            for (int i = 0; plan && i < ns; i++)
                check_select(ctx, plan, &cases[k], sizes[i], sizes[i] * 7 + (uint64_t)k,
                             float_edges ? float_edges[k] : 0);
            wgs_select_plan_destroy(plan);
        }
    }
}

static void run_cases_on(wgs_context *ctx, const select_case *cases, int count) {
    run_cases_sized(ctx, cases, count, NULL, 0, NULL);
}

static void run_cases(const select_case *cases, int count) {
    wgs_context *ctx = test_context();
    if (ctx) run_cases_on(ctx, cases, count);
}

/* The single pass with fallbacks after one fruitless look-back step (helpers count
 * their predecessors' tiles all the time, racing the owners), with the subgroup
 * look-back and with the workgroup one (a device without subgroups). */
TEST(select_single_pass_forced_fallback) {
    const select_case cases[] = {
        {WGS_SELECT_FLAGGED, WGS_TYPE_U32, {0, 0, 0}, 0, WGS_PAYLOAD_INDEX, 0},
        {WGS_SELECT_IF, WGS_TYPE_F32, {WGS_PREDICATE_LESS, 0.5, 0}, 0, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_RUN_LENGTH, WGS_TYPE_I32, {0, 0, 0}, 0, WGS_PAYLOAD_NONE, 0},
    };
    /* The sanitized build takes each case under one of the two contexts (the first and
     * the run-length one without subgroups, the predicate with them): the fallback is
     * the kernels' own, the host's part is the forced context's plans, and each context
     * compiles every case's pipelines again on ASan's allocator. */
    const int one = test_sanitized() && !test_long();
    for (int sg = 0; sg < 2; sg++) {
        wgs_context *ctx = test_context_forced_fallback(sg);
        if (ctx && !one) run_cases_on(ctx, cases, 3);
        for (int k = 0; ctx && one && k < 3; k++)
            if ((k == 1) == (sg == 0)) run_cases_on(ctx, cases + k, 1);
    }
}

TEST(select_flagged) {
    const select_case cases[] = {
        {WGS_SELECT_FLAGGED, WGS_TYPE_U32, {0, 0, 0}, 0, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_FLAGGED, WGS_TYPE_F32, {0, 0, 0}, 0, WGS_PAYLOAD_NONE, 1},
        {WGS_SELECT_FLAGGED, WGS_TYPE_I32, {0, 0, 0}, 0, WGS_PAYLOAD_NONE, 2},
        {WGS_SELECT_FLAGGED, WGS_TYPE_U32, {0, 0, 0}, 0, WGS_PAYLOAD_BUFFER, 0},
        {WGS_SELECT_FLAGGED, WGS_TYPE_U32, {0, 0, 0}, 0, WGS_PAYLOAD_INDEX, 0},
    };
    run_cases(cases, 5);
}

TEST(select_if) {
    const select_case cases[] = {
        {WGS_SELECT_IF, WGS_TYPE_I32, {WGS_PREDICATE_NONZERO, 0, 0}, 0, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_IF, WGS_TYPE_F32, {WGS_PREDICATE_LESS, 0.5, 0}, 0, WGS_PAYLOAD_INDEX, 0},
        {WGS_SELECT_IF, WGS_TYPE_U32, {WGS_PREDICATE_GREATER, 5, 0}, 0, WGS_PAYLOAD_BUFFER, 0},
        {WGS_SELECT_IF, WGS_TYPE_I32, {WGS_PREDICATE_IN_RANGE, -2, 3}, 0, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_IF, WGS_TYPE_F32, {WGS_PREDICATE_EQUAL, -1.5, 0}, 0, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_IF, WGS_TYPE_U32, {WGS_PREDICATE_NOT_EQUAL, 4, 0}, 0, WGS_PAYLOAD_NONE, 0},
    };
    run_cases(cases, 6);
}

TEST(select_partition) {
    const select_case cases[] = {
        {WGS_SELECT_FLAGGED, WGS_TYPE_U32, {0, 0, 0}, 1, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_FLAGGED, WGS_TYPE_I32, {0, 0, 0}, 1, WGS_PAYLOAD_BUFFER, 1},
        {WGS_SELECT_FLAGGED, WGS_TYPE_F32, {0, 0, 0}, 1, WGS_PAYLOAD_INDEX, 2},
        {WGS_SELECT_IF, WGS_TYPE_F32, {WGS_PREDICATE_GREATER, 0, 0}, 1, WGS_PAYLOAD_BUFFER, 0},
    };
    run_cases(cases, 4);
}

TEST(select_unique_and_run_length) {
    const select_case cases[] = {
        {WGS_SELECT_UNIQUE, WGS_TYPE_U32, {0, 0, 0}, 0, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_UNIQUE, WGS_TYPE_F32, {0, 0, 0}, 0, WGS_PAYLOAD_BUFFER, 0},
        {WGS_SELECT_RUN_LENGTH, WGS_TYPE_I32, {0, 0, 0}, 0, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_RUN_LENGTH, WGS_TYPE_F32, {0, 0, 0}, 0, WGS_PAYLOAD_NONE, 0},
    };
    run_cases(cases, 4);
}

/* f32 data full of NaNs (several payloads), +-0, +-inf and subnormals: predicates as IEEE
 * compares (NaN unordered, -0 == +0, subnormals not flushed) and heads of unique and
 * run-length where x[i] != x[i - 1] as IEEE has it (each NaN a run of its own, -0 and +0
 * one run, neighbouring subnormals distinct), the same on the device and the CPU. */
TEST(select_float_edges) {
    const double tiny = 1.4e-45;
    const unsigned all = REF_EDGE_ALL, only = REF_EDGE_ALL | REF_EDGE_ONLY;
    /* Mostly the shapes of the cases above, whose pipelines the context has compiled. */
    const select_case cases[] = {
        {WGS_SELECT_IF, WGS_TYPE_F32, {WGS_PREDICATE_NOT_EQUAL, NAN, 0}, 0, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_IF, WGS_TYPE_F32, {WGS_PREDICATE_LESS, 0, 0}, 0, WGS_PAYLOAD_INDEX, 0},
        {WGS_SELECT_IF, WGS_TYPE_F32, {WGS_PREDICATE_EQUAL, -0.0, 0}, 0, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_IF, WGS_TYPE_F32, {WGS_PREDICATE_IN_RANGE, -0.0, tiny}, 0, WGS_PAYLOAD_INDEX, 0},
        {WGS_SELECT_IF, WGS_TYPE_F32, {WGS_PREDICATE_GREATER, -INFINITY, 0}, 1, WGS_PAYLOAD_BUFFER, 0},
        {WGS_SELECT_UNIQUE, WGS_TYPE_F32, {0, 0, 0}, 0, WGS_PAYLOAD_BUFFER, 0},
        {WGS_SELECT_RUN_LENGTH, WGS_TYPE_F32, {0, 0, 0}, 0, WGS_PAYLOAD_NONE, 0},
    };
    const unsigned edges[] = {all, only, only, only, all, all, only};
    const uint64_t sizes[] = {1, 6, 1025, 40001};
    wgs_context *ctx = test_context();
    if (ctx) run_cases_sized(ctx, cases, (int)(sizeof cases / sizeof cases[0]), sizes, 4, edges);
}

TEST(select_bad_input) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_select_plan *plan = NULL;
    wgs_select_plan_desc d = {.type = WGS_TYPE_F16, .capacity = 16};
    CHECK_RESULT(wgs_select_plan_create(ctx, &d, &plan), WGS_ERROR_UNSUPPORTED_TYPE);
    d.type = WGS_TYPE_U32;
    d.mode = WGS_SELECT_UNIQUE;
    d.partition = 1;
    CHECK_RESULT(wgs_select_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.partition = 0;
    d.mode = WGS_SELECT_RUN_LENGTH;
    d.payload = WGS_PAYLOAD_BUFFER;
    CHECK_RESULT(wgs_select_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.payload = 0;
    d.mode = WGS_SELECT_FLAGGED;
    d.partition = 1;
    d.algorithm = WGS_SELECT_ALGORITHM_SINGLE_PASS;
    CHECK_RESULT(wgs_select_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.partition = 0;
    d.algorithm = (wgs_select_algorithm)7;
    CHECK_RESULT(wgs_select_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.algorithm = 0;
    d.mode = WGS_SELECT_IF;
    d.predicate = (wgs_predicate){.kind = WGS_PREDICATE_LESS, .a = 1e12};
    CHECK_RESULT(wgs_select_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.predicate.a = 3;
    d.capacity = 1ull << 40;
    CHECK_RESULT(wgs_select_plan_create(ctx, &d, &plan), WGS_ERROR_TOO_LARGE);
    d.mode = WGS_SELECT_FLAGGED;
    d.capacity = 100;
    CHECK_RESULT(wgs_select_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    WGPUBuffer in = test_buffer(ctx, 400), flags = test_buffer(ctx, 100), out = test_buffer(ctx, 400),
               count = test_buffer(ctx, 4);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_select_args a = {.input = in, .flags = flags, .output = out, .count = count, .n = 101};
    CHECK_RESULT(wgs_select_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a.n = 100;
    a.flags = NULL;
    CHECK_RESULT(wgs_select_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a.flags = flags;
    a.count = in;
    CHECK_RESULT(wgs_select_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a.count = out;
    CHECK_RESULT(wgs_select_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a.count = count;
    a.output_offset = 8;
    CHECK_RESULT(wgs_select_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    a.output_offset = 0;
    a.n = 97; /* 97 flag bytes round up to 100: fits */
    CHECK_RESULT(wgs_select_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, flags);
    wgs_buffer_release(ctx, out);
    wgs_buffer_release(ctx, count);
    wgs_select_plan_destroy(plan);
}

/* The host helper: every mode with a payload where it takes one, a partition, ragged
 * flag counts (n not a multiple of 4), n = 0, and a missing array refused. */
TEST(select_host) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t n = 1003;
    uint32_t in[1003], pay[1003], want[1003], want_pay[1003], got[1003], got_pay[1003];
    uint8_t flags[1003];
    ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, n, 11);
    for (uint64_t i = 0; i < n; i++) {
        in[i] = i && (in[i] & 1) ? in[i - 1] : in[i] % 7; /* runs, small values */
        pay[i] = (uint32_t)i * 3u;
        flags[i] = (uint8_t)(i % 3 == 0);
    }
    const wgs_select_plan_desc cases[] = {
        {.mode = WGS_SELECT_FLAGGED, .payload = WGS_PAYLOAD_BUFFER},
        {.mode = WGS_SELECT_IF, .predicate = {.kind = WGS_PREDICATE_LESS, .a = 3}, .partition = 1,
         .payload = WGS_PAYLOAD_INDEX},
        {.mode = WGS_SELECT_UNIQUE},
        {.mode = WGS_SELECT_RUN_LENGTH},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const wgs_select_plan_desc *d = &cases[c];
        uint64_t k = ref_select(in, d->type, d->mode, &d->predicate, flags, d->partition, d->payload, pay, n, want,
                                want_pay);
        memset(got, 0xEE, sizeof got), memset(got_pay, 0xEE, sizeof got_pay);
        uint32_t count = 12345;
        CHECK_RESULT(wgs_select_host(ctx, d, in, flags, pay, n, got, got_pay, &count), WGS_OK);
        CHECK(count == k);
        uint64_t filled = d->partition ? n : k;
        CHECK(memcmp(got, want, filled * 4) == 0);
        if (d->payload != WGS_PAYLOAD_NONE || d->mode == WGS_SELECT_RUN_LENGTH)
            CHECK(memcmp(got_pay, want_pay, filled * 4) == 0);
        CHECK(got[filled < n ? filled : n - 1] == (filled < n ? 0xEEEEEEEEu : want[n - 1])); /* nothing past */
    }
    uint32_t count = 7;
    CHECK_RESULT(wgs_select_host(ctx, &(wgs_select_plan_desc){0}, NULL, NULL, NULL, 0, NULL, NULL, &count), WGS_OK);
    CHECK(count == 0);
    CHECK_RESULT(wgs_select_host(ctx, &(wgs_select_plan_desc){0}, in, NULL, NULL, n, got, NULL, &count),
                 WGS_ERROR_INVALID_ARGUMENT); /* no flags */
    CHECK_RESULT(wgs_select_host(ctx, &cases[0], in, flags, pay, n, got, got_pay, NULL), WGS_ERROR_INVALID_ARGUMENT);
}

/* ---- counts on the GPU (args.n_buffer) --------------------------------------------- */

/* Every mode (with a payload, a partition, run lengths), both algorithms: counts at the
 * tile's edges, the bound and above it, each against the reference of the first count
 * elements, with nothing written past what was selected. */
TEST(select_count_from_gpu) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const select_case cases[] = {
        {WGS_SELECT_FLAGGED, WGS_TYPE_U32, {0}, 0, WGS_PAYLOAD_INDEX, 0},
        {WGS_SELECT_FLAGGED, WGS_TYPE_U32, {0}, 1, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_IF, WGS_TYPE_F32, {.kind = WGS_PREDICATE_GREATER, .a = 0.0}, 0, WGS_PAYLOAD_BUFFER, 0},
        {WGS_SELECT_IF, WGS_TYPE_I32, {.kind = WGS_PREDICATE_LESS, .a = 1.0}, 1, WGS_PAYLOAD_INDEX, 0},
        {WGS_SELECT_UNIQUE, WGS_TYPE_U32, {0}, 0, WGS_PAYLOAD_NONE, 0},
        {WGS_SELECT_RUN_LENGTH, WGS_TYPE_I32, {0}, 0, WGS_PAYLOAD_NONE, 0},
    };
    const uint64_t bound = 3 * 4096 + 7;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (int alg = WGS_SELECT_ALGORITHM_SINGLE_PASS; alg <= WGS_SELECT_ALGORITHM_THREE_PASS; alg++) {
            const select_case *c = &cases[k];
            if (c->partition && alg == WGS_SELECT_ALGORITHM_SINGLE_PASS) continue;
            wgs_select_plan_desc d = {.type = c->type, .mode = c->mode, .predicate = c->pred,
                                      .partition = c->partition, .payload = c->payload,
                                      .algorithm = (wgs_select_algorithm)alg, .capacity = bound};
            wgs_select_plan *plan = NULL;
            CHECK_RESULT(wgs_select_plan_create(ctx, &d, &plan), WGS_OK);
            if (!plan) continue;
            /* tiles of 1024 and 4096 (both tunings) */
            const int64_t counts[] = {0, 1, 1023, 1025, 4097, (int64_t)bound, (int64_t)bound + 1000};
            for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
                check_select_count(ctx, plan, c, bound, 40 + k * 10 + i, 0, counts[i]);
            wgs_select_plan_destroy(plan);
        }
    }
}

/* A chain in one encoder, the count never read back by the host: a select's count is
 * the n of a scan and of a reduce of what it selected. */
TEST(select_count_feeds_scan_and_reduce) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t n = 20011;
    uint32_t *in = malloc(n * 4), *sel = malloc(n * 4), *want = malloc(n * 4), *got = malloc(n * 4);
    uint8_t *flags = malloc(n + 4);
    wgs_select_plan *sp = NULL;
    wgs_scan_plan *scp = NULL;
    wgs_reduce_plan *rp = NULL;
    if (!in || !sel || !want || !got || !flags) goto done;
    ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, n, 3);
    for (uint64_t i = 0; i < n; i++) flags[i] = (uint8_t)((in[i] >> 5) % 3 == 0);
    uint64_t kept = ref_select(in, WGS_TYPE_U32, WGS_SELECT_FLAGGED, &(wgs_predicate){0}, flags, 0,
                               WGS_PAYLOAD_NONE, NULL, n, sel, NULL);
    ref_scan(sel, want, WGS_TYPE_U32, WGS_OP_ADD, 1, kept);
    uint32_t sum = 0;
    for (uint64_t i = 0; i < kept; i++) sum += sel[i];
    CHECK_RESULT(wgs_select_plan_create(ctx, &(wgs_select_plan_desc){.capacity = n}, &sp), WGS_OK);
    CHECK_RESULT(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.kind = WGS_SCAN_INCLUSIVE, .capacity = n}, &scp),
                 WGS_OK);
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.capacity = n}, &rp), WGS_OK);
    memset(got, 0xC3, n * 4);
    WGPUBuffer bin = test_upload(ctx, in, n * 4), bflags = test_upload(ctx, flags, (n + 3) & ~3ull);
    WGPUBuffer bsel = test_buffer(ctx, n * 4), bscan = test_upload(ctx, got, n * 4);
    WGPUBuffer bcount = test_buffer(ctx, 256), bsum = test_buffer(ctx, 256);
    if (sp && scp && rp && bin && bflags && bsel && bscan && bcount && bsum) {
        WGPUCommandEncoder enc;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        CHECK_RESULT(wgs_select_encode(sp, enc, &(wgs_select_args){.input = bin, .flags = bflags, .output = bsel,
                                                                   .count = bcount, .count_offset = 0, .n = n}),
                     WGS_OK);
        CHECK_RESULT(wgs_scan_encode(scp, enc, &(wgs_scan_args){.input = bsel, .output = bscan, .n = n,
                                                                .n_buffer = bcount}),
                     WGS_OK);
        CHECK_RESULT(wgs_reduce_encode(rp, enc, &(wgs_reduce_args){.input = bsel, .n = n, .output = bsum,
                                                                   .n_buffer = bcount}),
                     WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        uint32_t got_sum = 0;
        if (test_download(ctx, bscan, got, n * 4) && test_download(ctx, bsum, &got_sum, 4)) {
            CHECK(memcmp(got, want, kept * 4) == 0);
            for (uint64_t i = kept; i < n; i++)
                if (got[i] != 0xC3C3C3C3u) {
                    test_fail(__FILE__, __LINE__, "scan element %llu past the count written", (unsigned long long)i);
                    break;
                }
            CHECK(got_sum == sum);
        }
    }
    wgs_buffer_release(ctx, bin);
    wgs_buffer_release(ctx, bflags);
    wgs_buffer_release(ctx, bsel);
    wgs_buffer_release(ctx, bscan);
    wgs_buffer_release(ctx, bcount);
    wgs_buffer_release(ctx, bsum);
done:
    wgs_select_plan_destroy(sp);
    wgs_scan_plan_destroy(scp);
    wgs_reduce_plan_destroy(rp);
    free(in), free(sel), free(want), free(got), free(flags);
}
