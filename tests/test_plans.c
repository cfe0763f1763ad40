/* SPDX-License-Identifier: MIT */
/*
 * test_plans: every plan kind's scratch query (wgs_<kind>_plan_scratch_size) against the
 * GPU memory its creation really made, as the context counts it
 * (wgs_experimental_buffer_bytes_created). Each description is created twice: the
 * first creation compiles the pipelines and lets the context make what it makes once
 * (parameter ring, placeholders), the second is measured.
 */
#include "test_main.h"

#include <inttypes.h>

/* Creates the plan twice (see above); the second time compares what its creation added
 * to the context's buffers with `size` of it. */
#define CHECK_SCRATCH(ctx, what, create, desc, size, destroy, type)                              \
    do {                                                                                           \
        for (int round_ = 0; round_ < 2; round_++) {                                               \
            type *plan_ = NULL;                                                                    \
            uint64_t before_ = wgs_experimental_buffer_bytes_created(ctx);                         \
            wgs_result r_ = create(ctx, desc, &plan_);                                             \
            uint64_t made_ = wgs_experimental_buffer_bytes_created(ctx) - before_;                 \
            if (r_ != WGS_OK) {                                                                    \
                test_fail(__FILE__, __LINE__, "%s: %s", what, wgs_result_name(r_));                \
            } else if (round_ == 1 && size(plan_) != made_) {                                      \
                test_fail(__FILE__, __LINE__, "%s: scratch size %" PRIu64 ", creation made %" PRIu64, \
                          what, size(plan_), made_);                                               \
            }                                                                                      \
            destroy(plan_);                                                                        \
        }                                                                                          \
    } while (0)

TEST(plans_scratch_size_is_what_creation_allocates) {
    wgs_context *ctx = test_context();
    const uint64_t caps[] = {1, 5000, 300001};
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
        const uint64_t n = caps[c];
        CHECK_SCRATCH(ctx, "scan", wgs_scan_plan_create, (&(wgs_scan_plan_desc){.capacity = n}),
                      wgs_scan_plan_scratch_size, wgs_scan_plan_destroy, wgs_scan_plan);
        CHECK_SCRATCH(ctx, "reduce", wgs_reduce_plan_create, (&(wgs_reduce_plan_desc){.capacity = n}),
                      wgs_reduce_plan_scratch_size, wgs_reduce_plan_destroy, wgs_reduce_plan);
        CHECK_SCRATCH(ctx, "reduce, atomic", wgs_reduce_plan_create,
                      (&(wgs_reduce_plan_desc){.algorithm = WGS_REDUCE_ALGORITHM_ATOMIC, .capacity = n}),
                      wgs_reduce_plan_scratch_size, wgs_reduce_plan_destroy, wgs_reduce_plan);
        CHECK_SCRATCH(ctx, "count", wgs_count_plan_create, (&(wgs_count_plan_desc){.capacity = n}),
                      wgs_reduce_plan_scratch_size, wgs_reduce_plan_destroy, wgs_reduce_plan);
        CHECK_SCRATCH(ctx, "segmented reduce", wgs_segmented_reduce_plan_create,
                      (&(wgs_segmented_reduce_plan_desc){.capacity = n, .segment_capacity = 7}),
                      wgs_segmented_reduce_plan_scratch_size, wgs_segmented_reduce_plan_destroy,
                      wgs_segmented_reduce_plan);
        CHECK_SCRATCH(ctx, "scan by key", wgs_scan_by_key_plan_create, (&(wgs_scan_by_key_plan_desc){.capacity = n}),
                      wgs_scan_by_key_plan_scratch_size, wgs_scan_by_key_plan_destroy, wgs_scan_by_key_plan);
        CHECK_SCRATCH(ctx, "segmented scan", wgs_segmented_scan_plan_create,
                      (&(wgs_segmented_scan_plan_desc){.capacity = n, .segment_capacity = 7}),
                      wgs_segmented_scan_plan_scratch_size, wgs_segmented_scan_plan_destroy, wgs_segmented_scan_plan);
        CHECK_SCRATCH(ctx, "reduce by key", wgs_reduce_by_key_plan_create,
                      (&(wgs_reduce_by_key_plan_desc){.capacity = n}), wgs_reduce_by_key_plan_scratch_size,
                      wgs_reduce_by_key_plan_destroy, wgs_reduce_by_key_plan);
        CHECK_SCRATCH(ctx, "select, flagged", wgs_select_plan_create, (&(wgs_select_plan_desc){.capacity = n}),
                      wgs_select_plan_scratch_size, wgs_select_plan_destroy, wgs_select_plan);
        CHECK_SCRATCH(ctx, "select, run length, single pass", wgs_select_plan_create,
                      (&(wgs_select_plan_desc){.mode = WGS_SELECT_RUN_LENGTH,
                                               .algorithm = WGS_SELECT_ALGORITHM_SINGLE_PASS, .capacity = n}),
                      wgs_select_plan_scratch_size, wgs_select_plan_destroy, wgs_select_plan);
        CHECK_SCRATCH(ctx, "histogram", wgs_histogram_plan_create,
                      (&(wgs_histogram_plan_desc){.bins = 16, .lower = 0, .upper = 256, .capacity = n}),
                      wgs_histogram_plan_scratch_size, wgs_histogram_plan_destroy, wgs_histogram_plan);
        CHECK_SCRATCH(ctx, "alloc", wgs_alloc_plan_create, (&(wgs_alloc_plan_desc){.capacity = n}),
                      wgs_alloc_plan_scratch_size, wgs_alloc_plan_destroy, wgs_alloc_plan);
        CHECK_SCRATCH(ctx, "sort, u32 keys", wgs_sort_plan_create, (&(wgs_sort_plan_desc){.capacity = n}),
                      wgs_sort_plan_scratch_size, wgs_sort_plan_destroy, wgs_sort_plan);
        CHECK_SCRATCH(ctx, "sort, u64 pairs, one-sweep", wgs_sort_plan_create,
                      (&(wgs_sort_plan_desc){.type = WGS_TYPE_U64, .payload = WGS_PAYLOAD_BUFFER, .value_bytes = 8,
                                             .algorithm = WGS_SORT_ALGORITHM_ONESWEEP, .capacity = n}),
                      wgs_sort_plan_scratch_size, wgs_sort_plan_destroy, wgs_sort_plan);
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
