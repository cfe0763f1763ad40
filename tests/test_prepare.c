/* SPDX-License-Identifier: MIT */
/*
 * test_prepare: wgs_prepare, the pipelines of plan descriptions compiled ahead of the
 * plans. The context's counts of pipelines compiled (wgs_experimental_pipelines) tell
 * whether a creation compiled anything: after a prepare, creating the prepared plans
 * must leave them put, and the plans must still compute what the CPU does. Each test
 * takes a fresh context, so that its cache starts empty.
 */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

static wgs_context *fresh_context(void) {
    static const wgs_experimental none;
    return test_context_experimental(&none);
}

static int same_counts(wgs_experimental_pipeline_counts a, wgs_experimental_pipeline_counts b) {
    return a.created == b.created && a.prepared == b.prepared;
}

#define SCAN_N 100003u
#define SORT_N 5001u

/* Runs the scan plan on SCAN_N random u32 and checks the result against the CPU. */
static void check_scan(wgs_context *ctx, wgs_scan_plan *plan) {
    uint32_t *in = malloc(SCAN_N * 4), *out = malloc(SCAN_N * 4), *want = malloc(SCAN_N * 4);
    CHECK(in && out && want);
    if (!in || !out || !want) goto done;
    ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, SCAN_N, 34);
    ref_scan(in, want, WGS_TYPE_U32, WGS_OP_ADD, 0, SCAN_N);
    WGPUBuffer a = test_upload(ctx, in, SCAN_N * 4), b = test_buffer(ctx, SCAN_N * 4);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    CHECK_RESULT(wgs_scan_encode(plan, enc, &(wgs_scan_args){.input = a, .output = b, .n = SCAN_N}), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    CHECK(test_download(ctx, b, out, SCAN_N * 4));
    CHECK(memcmp(out, want, SCAN_N * 4) == 0);
    wgs_buffer_release(ctx, a);
    wgs_buffer_release(ctx, b);
done:
    free(in);
    free(out);
    free(want);
}

/* Runs the sort plan on SORT_N random u32 keys and checks the result against the CPU. */
static void check_sort(wgs_context *ctx, wgs_sort_plan *plan) {
    uint32_t in[SORT_N], out[SORT_N], want[SORT_N];
    ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, SORT_N, 35);
    for (uint32_t i = 0; i < SORT_N; i += 7) in[i] = in[i / 2]; /* some equal keys */
    CHECK(ref_sort(WGS_TYPE_U32, 0, 0, 0, in, NULL, 0, 0, SORT_N, want, NULL) == 0);
    WGPUBuffer a = test_upload(ctx, in, sizeof in), b = test_buffer(ctx, sizeof in);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    CHECK_RESULT(wgs_sort_encode(plan, enc, &(wgs_sort_args){.keys_in = a, .keys_out = b, .n = SORT_N}), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    CHECK(test_download(ctx, b, out, sizeof out));
    CHECK(memcmp(out, want, sizeof out) == 0);
    wgs_buffer_release(ctx, a);
    wgs_buffer_release(ctx, b);
}

TEST(prepare_scan_and_sort_then_create_compiles_nothing) {
    wgs_context *ctx = fresh_context();
    if (!ctx) return;
    const wgs_scan_plan_desc scan = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .kind = WGS_SCAN_EXCLUSIVE,
                                     .capacity = 1u << 17};
    const wgs_sort_plan_desc sort = {.type = WGS_TYPE_U32, .capacity = 8192};
    const wgs_prepare_desc items[] = {{.kind = WGS_PLAN_SCAN, .scan = &scan}, {.kind = WGS_PLAN_SORT, .sort = &sort}};
    wgs_experimental_pipeline_counts c0 = wgs_experimental_pipelines(ctx);
    uint64_t bytes0 = wgs_experimental_buffer_bytes_created(ctx);
    CHECK_RESULT(wgs_prepare(ctx, items, 2), WGS_OK);
    wgs_experimental_pipeline_counts c1 = wgs_experimental_pipelines(ctx);
    CHECK(c1.created == c0.created);    /* nothing compiled one at a time */
    CHECK(c1.prepared > c0.prepared);   /* and something compiled ahead */
    CHECK(wgs_experimental_buffer_bytes_created(ctx) == bytes0); /* no plan memory made */

    wgs_scan_plan *sp = NULL;
    wgs_sort_plan *so = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &scan, &sp), WGS_OK);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &sort, &so), WGS_OK);
    CHECK(same_counts(wgs_experimental_pipelines(ctx), c1));
    if (sp) check_scan(ctx, sp);
    if (so) check_sort(ctx, so);
    CHECK(same_counts(wgs_experimental_pipelines(ctx), c1));

    /* Again: everything is cached, so nothing compiles and nothing changes. */
    CHECK_RESULT(wgs_prepare(ctx, items, 2), WGS_OK);
    CHECK(same_counts(wgs_experimental_pipelines(ctx), c1));
    /* An empty list does nothing. */
    CHECK_RESULT(wgs_prepare(ctx, NULL, 0), WGS_OK);
    CHECK_RESULT(wgs_prepare(ctx, items, 0), WGS_OK);
    CHECK(same_counts(wgs_experimental_pipelines(ctx), c1));
    wgs_scan_plan_destroy(sp);
    wgs_sort_plan_destroy(so);

    /* The counts can move: a plan nobody prepared compiles as it is created. */
    wgs_reduce_plan *rp = NULL;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.type = WGS_TYPE_F32, .op = WGS_OP_MAX,
                                                                    .capacity = 1000},
                                        &rp),
                 WGS_OK);
    wgs_experimental_pipeline_counts c2 = wgs_experimental_pipelines(ctx);
    CHECK(c2.created > c1.created && c2.prepared == c1.prepared);
    wgs_reduce_plan_destroy(rp);
}

TEST(prepare_refuses_bad_items_before_compiling) {
    wgs_context *ctx = fresh_context();
    if (!ctx) return;
    const wgs_histogram_plan_desc hist = {.type = WGS_TYPE_U32, .bins = 16, .upper = 256, .capacity = 4096};
    const wgs_scan_plan_desc bad_scan = {.type = WGS_TYPE_U64, .capacity = 4096}; /* sort keys only */
    const wgs_sort_plan_desc bad_sort = {.type = WGS_TYPE_U32, .capacity = 4096, .payload = WGS_PAYLOAD_BUFFER,
                                         .value_bytes = 3};
    wgs_experimental_pipeline_counts c0 = wgs_experimental_pipelines(ctx);
    uint64_t bytes0 = wgs_experimental_buffer_bytes_created(ctx);
    struct {
        wgs_prepare_desc items[2];
        wgs_result want;
        const char *what;
    } cases[] = {
        {{{.kind = WGS_PLAN_HISTOGRAM, .histogram = &hist}, {.kind = WGS_PLAN_NONE, .scan = &bad_scan}},
         WGS_ERROR_INVALID_ARGUMENT, "no kind"},
        {{{.kind = WGS_PLAN_HISTOGRAM, .histogram = &hist}, {.kind = (wgs_plan_kind)99, .scan = &bad_scan}},
         WGS_ERROR_INVALID_ARGUMENT, "a kind past the list"},
        {{{.kind = WGS_PLAN_HISTOGRAM, .histogram = &hist}, {.kind = WGS_PLAN_SCAN, .scan = NULL}},
         WGS_ERROR_INVALID_ARGUMENT, "no description"},
        {{{.kind = WGS_PLAN_HISTOGRAM, .histogram = &hist}, {.kind = WGS_PLAN_SCAN, .scan = &bad_scan}},
         WGS_ERROR_UNSUPPORTED_TYPE, "a scan of u64"},
        {{{.kind = WGS_PLAN_HISTOGRAM, .histogram = &hist}, {.kind = WGS_PLAN_SORT, .sort = &bad_sort}},
         WGS_ERROR_INVALID_ARGUMENT, "3-byte sort values"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wgs_result r = wgs_prepare(ctx, cases[i].items, 2);
        if (r != cases[i].want)
            test_fail(__FILE__, __LINE__, "%s: %s, expected %s", cases[i].what, wgs_result_name(r),
                      wgs_result_name(cases[i].want));
        /* Refused before anything compiled: the good first item compiled nothing either. */
        if (!same_counts(wgs_experimental_pipelines(ctx), c0))
            test_fail(__FILE__, __LINE__, "%s: pipelines were compiled before the refusal", cases[i].what);
        if (!strstr(wgs_context_last_error(ctx), wgs_result_name(cases[i].want)))
            test_fail(__FILE__, __LINE__, "%s: last error '%s'", cases[i].what, wgs_context_last_error(ctx));
    }
    CHECK_RESULT(wgs_prepare(ctx, NULL, 1), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_prepare(NULL, NULL, 0), WGS_ERROR_INVALID_ARGUMENT);
    CHECK(wgs_experimental_buffer_bytes_created(ctx) == bytes0);

    /* The good item alone: prepared, then its plan compiles nothing and counts right. */
    const wgs_prepare_desc good = {.kind = WGS_PLAN_HISTOGRAM, .histogram = &hist};
    CHECK_RESULT(wgs_prepare(ctx, &good, 1), WGS_OK);
    wgs_experimental_pipeline_counts c1 = wgs_experimental_pipelines(ctx);
    CHECK(c1.prepared > c0.prepared && c1.created == c0.created);
    uint32_t in[4096], counts[16], want[16] = {0};
    ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, 4096, 36);
    for (int i = 0; i < 4096; i++) in[i] %= 300; /* some past the bins' upper bound */
    for (int i = 0; i < 4096; i++)
        if (in[i] < 256) want[in[i] / 16]++;
    CHECK_RESULT(wgs_histogram_host(ctx, &hist, in, 4096, counts), WGS_OK);
    CHECK(memcmp(counts, want, sizeof want) == 0);
    CHECK(same_counts(wgs_experimental_pipelines(ctx), c1));
}

/* A compile that fails: a user's operator whose text passes its own check but declares
 * select, which WGSL lets a module declaration shadow, so the kernels' own calls of
 * select on u32 no longer compile (the first of the scan's pipelines already). */
TEST(prepare_reports_a_failed_compile_as_creation_does) {
    static const char src[] = "struct P { a: f32, b: f32 }\n"
                              "fn then(f: P, g: P) -> P { return P(f.a + g.a, f.b + g.b); }\n"
                              "fn select(a: f32, b: f32, c: bool) -> f32 { return a; }\n";
    const float identity[2] = {0, 0};
    const wgs_operator_desc op = {.source = src, .element = "P", .combine = "then", .identity = identity,
                                  .identity_size = 8};
    const wgs_scan_plan_desc d = {.kind = WGS_SCAN_INCLUSIVE, .capacity = 4096, .custom = &op};
    char sync_msg[1024] = "";
    wgs_context *ctx = fresh_context();
    if (!ctx) return;
    wgs_scan_plan *plan = NULL;
    wgs_result sync = wgs_scan_plan_create(ctx, &d, &plan);
    snprintf(sync_msg, sizeof sync_msg, "%s", wgs_context_last_error(ctx));
    wgs_scan_plan_destroy(plan);
    CHECK(sync != WGS_OK && sync != WGS_ERROR_OPERATOR_COMPILE); /* the kernel's failure, not the check's */
    CHECK(strstr(sync_msg, "compiling kernel") != NULL);

    ctx = fresh_context();
    if (!ctx) return;
    const wgs_histogram_plan_desc hist = {.type = WGS_TYPE_U32, .bins = 4, .upper = 4, .capacity = 64};
    const wgs_prepare_desc items[] = {{.kind = WGS_PLAN_HISTOGRAM, .histogram = &hist},
                                      {.kind = WGS_PLAN_SCAN, .scan = &d}};
    CHECK_RESULT(wgs_prepare(ctx, items, 2), sync);
    const char *msg = wgs_context_last_error(ctx);
    if (!strstr(msg, "compiling kernel") || strncmp(msg, sync_msg, strcspn(sync_msg, "\n")) != 0)
        test_fail(__FILE__, __LINE__, "prepare said '%.300s'; creation said '%.300s'", msg, sync_msg);
    /* The histogram's pipelines, requested before the failure, were waited for and kept. */
    wgs_experimental_pipeline_counts c = wgs_experimental_pipelines(ctx);
    CHECK(c.prepared > 0 && c.created == 0);
    wgs_histogram_plan *h = NULL;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &hist, &h), WGS_OK);
    CHECK(same_counts(wgs_experimental_pipelines(ctx), c));
    wgs_histogram_plan_destroy(h);
}
