/* SPDX-License-Identifier: MIT */
/*
 * prepare.c: wgs_prepare, the pipelines of several plan descriptions compiled at once,
 * ahead of the plans. Each described plan is created and destroyed as measure.c does
 * (no GPU memory), twice: first with compilation off, so that a bad description is
 * refused before anything compiles, then with every pipeline the cache lacks requested
 * asynchronously (kernels.c); the requests are then collected into the context's
 * cache, where the plans created afterwards find them. The same creation code decides
 * the pipelines in both cases, so what is prepared is what creation would compile.
 */
#include "internal.h"

static const char *kind_name(wgs_plan_kind kind) {
    static const char *const names[] = {
        [WGS_PLAN_SCAN] = "scan", [WGS_PLAN_REDUCE] = "reduce", [WGS_PLAN_COUNT] = "count",
        [WGS_PLAN_SEGMENTED_REDUCE] = "segmented reduce", [WGS_PLAN_SCAN_BY_KEY] = "scan by key",
        [WGS_PLAN_SEGMENTED_SCAN] = "segmented scan", [WGS_PLAN_REDUCE_BY_KEY] = "reduce by key",
        [WGS_PLAN_SELECT] = "select", [WGS_PLAN_HISTOGRAM] = "histogram", [WGS_PLAN_ALLOC] = "alloc",
        [WGS_PLAN_SORT] = "sort", [WGS_PLAN_TOPK] = "top-k", [WGS_PLAN_SEGMENTED_SORT] = "segmented sort"};
    return kind > 0 && (size_t)kind < sizeof names / sizeof names[0] ? names[kind] : NULL;
}

#define WGS_PREPARE_CASE_(KIND, member, create, plan_type, destroy)                            \
    case KIND: {                                                                               \
        plan_type *plan = NULL;                                                                \
        r = create(ctx, item->member, &plan);                                                  \
        destroy(plan);                                                                         \
        break;                                                                                 \
    }

/* Creates and destroys the plan an item describes, under the context's compile mode. */
static wgs_result create_and_destroy(wgs_context *ctx, const wgs_prepare_desc *item, size_t index) {
    const char *name = kind_name(item->kind);
    WGS_FAIL_IF(ctx, !name, WGS_ERROR_INVALID_ARGUMENT, "wgs_prepare: item %zu has no plan kind (%d)", index,
                (int)item->kind);
    WGS_FAIL_IF(ctx, !item->scan, WGS_ERROR_INVALID_ARGUMENT, "wgs_prepare: item %zu (%s) has no description",
                index, name);
    wgs_result r = WGS_ERROR_INVALID_ARGUMENT;
    switch (item->kind) {
        WGS_PREPARE_CASE_(WGS_PLAN_SCAN, scan, wgs_scan_plan_create, wgs_scan_plan, wgs_scan_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_REDUCE, reduce, wgs_reduce_plan_create, wgs_reduce_plan, wgs_reduce_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_COUNT, count, wgs_count_plan_create, wgs_reduce_plan, wgs_reduce_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_SEGMENTED_REDUCE, segmented_reduce, wgs_segmented_reduce_plan_create,
                          wgs_segmented_reduce_plan, wgs_segmented_reduce_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_SCAN_BY_KEY, scan_by_key, wgs_scan_by_key_plan_create, wgs_scan_by_key_plan,
                          wgs_scan_by_key_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_SEGMENTED_SCAN, segmented_scan, wgs_segmented_scan_plan_create,
                          wgs_segmented_scan_plan, wgs_segmented_scan_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_REDUCE_BY_KEY, reduce_by_key, wgs_reduce_by_key_plan_create,
                          wgs_reduce_by_key_plan, wgs_reduce_by_key_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_SELECT, select, wgs_select_plan_create, wgs_select_plan, wgs_select_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_HISTOGRAM, histogram, wgs_histogram_plan_create, wgs_histogram_plan,
                          wgs_histogram_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_ALLOC, alloc, wgs_alloc_plan_create, wgs_alloc_plan, wgs_alloc_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_SORT, sort, wgs_sort_plan_create, wgs_sort_plan, wgs_sort_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_TOPK, topk, wgs_topk_plan_create, wgs_topk_plan, wgs_topk_plan_destroy)
        WGS_PREPARE_CASE_(WGS_PLAN_SEGMENTED_SORT, segmented_sort, wgs_segmented_sort_plan_create,
                          wgs_segmented_sort_plan, wgs_segmented_sort_plan_destroy)
    default: break;
    }
    return r;
}

wgs_result wgs_prepare(wgs_context *ctx, const wgs_prepare_desc *items, size_t n) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, n && !items, WGS_ERROR_INVALID_ARGUMENT, "wgs_prepare: %zu items and no array", n);
    wgs_result r = wgs__check_device(ctx);
    wgs__gpu_set_measuring(ctx->gpu, 1);
    ctx->compile = WGS__COMPILE_NONE;
    for (size_t i = 0; r == WGS_OK && i < n; i++) r = create_and_destroy(ctx, &items[i], i);
    ctx->compile = WGS__COMPILE_LATER;
    for (size_t i = 0; r == WGS_OK && i < n; i++) r = create_and_destroy(ctx, &items[i], i);
    ctx->compile = WGS__COMPILE_NOW;
    wgs__gpu_set_measuring(ctx->gpu, 0);
    /* Also after a failure: requests already made are waited for, and kept when they
     * compiled (the cache then holds what the next call would compile anyway). */
    wgs_result c = wgs__pipelines_collect(ctx, r == WGS_OK);
    return r != WGS_OK ? r : c;
}
