/* SPDX-License-Identifier: MIT */
/*
 * measure.c: how much GPU memory a plan would hold, before it is created
 * (wgs_<kind>_plan_desc_scratch_size). The plan is created with the device's buffer
 * creation turned off (wgs__gpu_set_measuring): the same code decides the sizes as for
 * the real plan, so the answer cannot drift from what creation allocates. The
 * pipelines are compiled and stay in the context's cache for the creation to come.
 */
#include "internal.h"

#define WGS_DESC_SCRATCH_SIZE(kind, create, desc_type, plan_type, destroy, size)               \
    wgs_result wgs_##kind##_plan_desc_scratch_size(wgs_context *ctx, const desc_type *desc,    \
                                                  uint64_t *bytes) {                           \
        if (bytes) *bytes = 0;                                                                 \
        if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;                                           \
        WGS_FAIL_IF(ctx, !desc || !bytes, WGS_ERROR_INVALID_ARGUMENT, "desc and bytes are required"); \
        plan_type *plan = NULL;                                                                \
        wgs__gpu_set_measuring(ctx->gpu, 1);                                                   \
        wgs_result r = create(ctx, desc, &plan);                                               \
        wgs__gpu_set_measuring(ctx->gpu, 0);                                                   \
        if (r == WGS_OK) *bytes = size(plan);                                                  \
        destroy(plan);                                                                         \
        return r;                                                                              \
    }

WGS_DESC_SCRATCH_SIZE(scan, wgs_scan_plan_create, wgs_scan_plan_desc, wgs_scan_plan, wgs_scan_plan_destroy,
                      wgs_scan_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(reduce, wgs_reduce_plan_create, wgs_reduce_plan_desc, wgs_reduce_plan, wgs_reduce_plan_destroy,
                      wgs_reduce_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(count, wgs_count_plan_create, wgs_count_plan_desc, wgs_reduce_plan, wgs_reduce_plan_destroy,
                      wgs_reduce_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(segmented_reduce, wgs_segmented_reduce_plan_create, wgs_segmented_reduce_plan_desc,
                      wgs_segmented_reduce_plan, wgs_segmented_reduce_plan_destroy,
                      wgs_segmented_reduce_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(scan_by_key, wgs_scan_by_key_plan_create, wgs_scan_by_key_plan_desc, wgs_scan_by_key_plan,
                      wgs_scan_by_key_plan_destroy, wgs_scan_by_key_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(segmented_scan, wgs_segmented_scan_plan_create, wgs_segmented_scan_plan_desc,
                      wgs_segmented_scan_plan, wgs_segmented_scan_plan_destroy, wgs_segmented_scan_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(reduce_by_key, wgs_reduce_by_key_plan_create, wgs_reduce_by_key_plan_desc,
                      wgs_reduce_by_key_plan, wgs_reduce_by_key_plan_destroy, wgs_reduce_by_key_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(select, wgs_select_plan_create, wgs_select_plan_desc, wgs_select_plan, wgs_select_plan_destroy,
                      wgs_select_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(histogram, wgs_histogram_plan_create, wgs_histogram_plan_desc, wgs_histogram_plan,
                      wgs_histogram_plan_destroy, wgs_histogram_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(alloc, wgs_alloc_plan_create, wgs_alloc_plan_desc, wgs_alloc_plan, wgs_alloc_plan_destroy,
                      wgs_alloc_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(sort, wgs_sort_plan_create, wgs_sort_plan_desc, wgs_sort_plan, wgs_sort_plan_destroy,
                      wgs_sort_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(topk, wgs_topk_plan_create, wgs_topk_plan_desc, wgs_topk_plan, wgs_topk_plan_destroy,
                      wgs_topk_plan_scratch_size)
WGS_DESC_SCRATCH_SIZE(segmented_sort, wgs_segmented_sort_plan_create, wgs_segmented_sort_plan_desc,
                      wgs_segmented_sort_plan, wgs_segmented_sort_plan_destroy, wgs_segmented_sort_plan_scratch_size)
