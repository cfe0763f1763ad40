/* SPDX-License-Identifier: MIT */
/*
 * test_plans: every plan kind's scratch query (wgs_<kind>_plan_scratch_size) against the
 * GPU memory its creation really made, as the context counts it
 * (wgs_experimental_buffer_bytes_created), and the query before creation
 * (wgs_<kind>_plan_desc_scratch_size) against both. Each description is created twice:
 * the first creation compiles the pipelines and lets the context make what it makes
 * once (parameter ring, placeholders), the second is measured.
 */
#include "test_main.h"

#include <inttypes.h>

/* Creates the plan twice (see above). Before the second creation the description's
 * query (wgs_<kind>_plan_desc_scratch_size) must allocate nothing; the plan's query and
 * the description's must both equal what the second creation added to the context's
 * buffers. */
#define CHECK_SCRATCH(ctx, what, kind, desc, type)                                                \
    do {                                                                                           \
        for (int round_ = 0; round_ < 2; round_++) {                                               \
            uint64_t asked_ = UINT64_MAX;                                                          \
            uint64_t before_ = wgs_experimental_buffer_bytes_created(ctx);                         \
            if (round_ == 1) {                                                                     \
                CHECK_RESULT(wgs_##kind##_plan_desc_scratch_size(ctx, desc, &asked_), WGS_OK);     \
                if (wgs_experimental_buffer_bytes_created(ctx) != before_)                         \
                    test_fail(__FILE__, __LINE__, "%s: the query before creation allocated", what); \
            }                                                                                      \
            type *plan_ = NULL;                                                                    \
            wgs_result r_ = wgs_##kind##_plan_create(ctx, desc, &plan_);                           \
            uint64_t made_ = wgs_experimental_buffer_bytes_created(ctx) - before_;                 \
            if (r_ != WGS_OK) {                                                                    \
                test_fail(__FILE__, __LINE__, "%s: %s", what, wgs_result_name(r_));                \
            } else if (round_ == 1 && (SCRATCH_OF_##kind(plan_) != made_ || asked_ != made_)) {    \
                test_fail(__FILE__, __LINE__,                                                      \
                          "%s: scratch size %" PRIu64 ", before creation %" PRIu64                 \
                          ", creation made %" PRIu64, what, SCRATCH_OF_##kind(plan_), asked_, made_); \
            }                                                                                      \
            DESTROY_##kind(plan_);                                                                 \
        }                                                                                          \
    } while (0)
/* The count plan is a reduce plan. */
#define SCRATCH_OF_scan wgs_scan_plan_scratch_size
#define SCRATCH_OF_reduce wgs_reduce_plan_scratch_size
#define SCRATCH_OF_count wgs_reduce_plan_scratch_size
#define SCRATCH_OF_segmented_reduce wgs_segmented_reduce_plan_scratch_size
#define SCRATCH_OF_scan_by_key wgs_scan_by_key_plan_scratch_size
#define SCRATCH_OF_segmented_scan wgs_segmented_scan_plan_scratch_size
#define SCRATCH_OF_reduce_by_key wgs_reduce_by_key_plan_scratch_size
#define SCRATCH_OF_select wgs_select_plan_scratch_size
#define SCRATCH_OF_histogram wgs_histogram_plan_scratch_size
#define SCRATCH_OF_alloc wgs_alloc_plan_scratch_size
#define SCRATCH_OF_sort wgs_sort_plan_scratch_size
#define SCRATCH_OF_segmented_sort wgs_segmented_sort_plan_scratch_size
#define DESTROY_scan wgs_scan_plan_destroy
#define DESTROY_reduce wgs_reduce_plan_destroy
#define DESTROY_count wgs_reduce_plan_destroy
#define DESTROY_segmented_reduce wgs_segmented_reduce_plan_destroy
#define DESTROY_scan_by_key wgs_scan_by_key_plan_destroy
#define DESTROY_segmented_scan wgs_segmented_scan_plan_destroy
#define DESTROY_reduce_by_key wgs_reduce_by_key_plan_destroy
#define DESTROY_select wgs_select_plan_destroy
#define DESTROY_histogram wgs_histogram_plan_destroy
#define DESTROY_alloc wgs_alloc_plan_destroy
#define DESTROY_sort wgs_sort_plan_destroy
#define DESTROY_segmented_sort wgs_segmented_sort_plan_destroy

TEST(plans_scratch_size_is_what_creation_allocates) {
    wgs_context *ctx = test_context();
    const uint64_t caps[] = {1, 5000, 300001};
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
        const uint64_t n = caps[c];
        CHECK_SCRATCH(ctx, "scan", scan, (&(wgs_scan_plan_desc){.capacity = n}), wgs_scan_plan);
        CHECK_SCRATCH(ctx, "reduce", reduce, (&(wgs_reduce_plan_desc){.capacity = n}), wgs_reduce_plan);
        CHECK_SCRATCH(ctx, "reduce, atomic", reduce,
                      (&(wgs_reduce_plan_desc){.algorithm = WGS_REDUCE_ALGORITHM_ATOMIC, .capacity = n}), wgs_reduce_plan);
        CHECK_SCRATCH(ctx, "count", count, (&(wgs_count_plan_desc){.capacity = n}), wgs_reduce_plan);
        CHECK_SCRATCH(ctx, "segmented reduce", segmented_reduce,
                      (&(wgs_segmented_reduce_plan_desc){.capacity = n, .segment_capacity = 7}), wgs_segmented_reduce_plan);
        CHECK_SCRATCH(ctx, "scan by key", scan_by_key, (&(wgs_scan_by_key_plan_desc){.capacity = n}), wgs_scan_by_key_plan);
        CHECK_SCRATCH(ctx, "segmented scan", segmented_scan,
                      (&(wgs_segmented_scan_plan_desc){.capacity = n, .segment_capacity = 7}), wgs_segmented_scan_plan);
        CHECK_SCRATCH(ctx, "reduce by key", reduce_by_key,
                      (&(wgs_reduce_by_key_plan_desc){.capacity = n}), wgs_reduce_by_key_plan);
        CHECK_SCRATCH(ctx, "select, flagged", select, (&(wgs_select_plan_desc){.capacity = n}), wgs_select_plan);
        CHECK_SCRATCH(ctx, "select, run length, single pass", select,
                      (&(wgs_select_plan_desc){.mode = WGS_SELECT_RUN_LENGTH,
                                               .algorithm = WGS_SELECT_ALGORITHM_SINGLE_PASS, .capacity = n}), wgs_select_plan);
        CHECK_SCRATCH(ctx, "histogram", histogram,
                      (&(wgs_histogram_plan_desc){.bins = 16, .lower = 0, .upper = 256, .capacity = n}), wgs_histogram_plan);
        CHECK_SCRATCH(ctx, "alloc", alloc, (&(wgs_alloc_plan_desc){.capacity = n}), wgs_alloc_plan);
        CHECK_SCRATCH(ctx, "sort, u32 keys", sort, (&(wgs_sort_plan_desc){.capacity = n}), wgs_sort_plan);
        CHECK_SCRATCH(ctx, "sort, u64 pairs, one-sweep", sort,
                      (&(wgs_sort_plan_desc){.type = WGS_TYPE_U64, .payload = WGS_PAYLOAD_BUFFER, .value_bytes = 8,
                                             .algorithm = WGS_SORT_ALGORITHM_ONESWEEP, .capacity = n}), wgs_sort_plan);
        CHECK_SCRATCH(ctx, "segmented sort, u32 with indices", segmented_sort,
                      (&(wgs_segmented_sort_plan_desc){.payload = WGS_PAYLOAD_INDEX, .capacity = n,
                                                       .segment_capacity = 7}), wgs_segmented_sort_plan);
    }
    /* Nothing for NULL. */
    CHECK(wgs_sort_plan_scratch_size(NULL) == 0 && wgs_select_plan_scratch_size(NULL) == 0 &&
          wgs_reduce_plan_scratch_size(NULL) == 0 && wgs_alloc_plan_scratch_size(NULL) == 0 &&
          wgs_histogram_plan_scratch_size(NULL) == 0);
    /* The counter sees a plan's memory at all (else every comparison above holds trivially). */
    wgs_sort_plan *s = NULL;
    uint64_t before = wgs_experimental_buffer_bytes_created(ctx);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.capacity = 1 << 20}, &s), WGS_OK);
    CHECK(wgs_experimental_buffer_bytes_created(ctx) - before >= (1u << 22));
    wgs_sort_plan_destroy(s);
}

/* The query before creation refuses what creation refuses, with *bytes 0, and leaves the
 * device creating buffers again. */
TEST(plans_desc_scratch_size_bad_input) {
    wgs_context *ctx = test_context();
    uint64_t bytes = 7;
    CHECK_RESULT(wgs_sort_plan_desc_scratch_size(ctx, NULL, &bytes), WGS_ERROR_INVALID_ARGUMENT);
    CHECK(bytes == 0);
    CHECK_RESULT(wgs_sort_plan_desc_scratch_size(ctx, &(wgs_sort_plan_desc){0}, NULL), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_sort_plan_desc_scratch_size(NULL, &(wgs_sort_plan_desc){0}, &bytes), WGS_ERROR_INVALID_ARGUMENT);
    bytes = 7;
    CHECK_RESULT(wgs_reduce_plan_desc_scratch_size(ctx, &(wgs_reduce_plan_desc){.type = WGS_TYPE_F16}, &bytes),
                 WGS_ERROR_UNSUPPORTED_TYPE);
    CHECK(bytes == 0);
    bytes = 7;
    CHECK_RESULT(wgs_sort_plan_desc_scratch_size(ctx, &(wgs_sort_plan_desc){.capacity = 1ull << 40}, &bytes),
                 WGS_ERROR_TOO_LARGE);
    CHECK(bytes == 0);
    wgs_scan_plan *p = NULL;
    uint64_t before = wgs_experimental_buffer_bytes_created(ctx);
    CHECK_RESULT(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.capacity = 100000}, &p), WGS_OK);
    CHECK(wgs_experimental_buffer_bytes_created(ctx) - before == wgs_scan_plan_scratch_size(p));
    CHECK(wgs_scan_plan_scratch_size(p) > 0);
    wgs_scan_plan_destroy(p);
}
