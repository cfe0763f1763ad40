/* SPDX-License-Identifier: MIT */
/*
 * alloc.c: the bump allocator (kernels in wgsl/device/alloc.wgsl). Scan version: the
 * plan's exclusive scan of the sizes into offsets, then alloc_place and alloc_commit.
 * Atomic version: alloc_atomic_begin, alloc_atomic (one fetch-add a request), alloc_atomic_end.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct wgs_alloc_plan {
    wgs_context *ctx;
    wgs_alloc_algorithm algorithm;
    uint64_t capacity;
    uint32_t wg;
    wgs_scan_plan *scan;
    WGPUComputePipeline place, commit, atomic, atomic_begin, atomic_end;
};

wgs_result wgs_alloc_plan_create(wgs_context *ctx, const wgs_alloc_plan_desc *desc, wgs_alloc_plan **out) {
    WGS_CREATE_BEGIN(ctx, desc, out);
    wgs_result r = WGS_OK;
    wgs_alloc_algorithm algo = desc->algorithm ? desc->algorithm : WGS_ALLOC_SCAN;
    WGS_FAIL_IF(ctx, (unsigned)algo > WGS_ALLOC_ATOMIC, WGS_ERROR_INVALID_ARGUMENT, "unknown algorithm %d",
                (int)desc->algorithm);
    uint64_t capacity = desc->capacity ? desc->capacity : 1;
    WGS_FAIL_IF(ctx, wgs__mul_sat(capacity, 4) > ctx->caps.info.max_storage_binding_size || capacity > 0xFFFFFFFFull,
                WGS_ERROR_TOO_LARGE, "%llu requests exceed one storage binding", (unsigned long long)capacity);
    wgs_alloc_plan *p = calloc(1, sizeof *p);
    WGS_FAIL_IF(ctx, !p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the alloc plan");
    p->ctx = ctx;
    p->algorithm = algo;
    p->capacity = capacity;
    p->wg = 64;
    wgs_kernel_spec spec = {.file = "device/alloc.wgsl", .primitive = 1, .value_type = WGS_TYPE_U32, .params = WGS_PARAMS_KIND_ALLOC,
                            .type = WGS_TYPE_U32, .op = WGS_OP_ADD, .wg = p->wg, .items = 1};
    if (algo == WGS_ALLOC_ATOMIC) {
        spec.entry = "alloc_atomic";
        r = wgs__pipeline(ctx, &spec, &p->atomic);
        spec.entry = "alloc_atomic_begin";
        if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->atomic_begin);
        spec.entry = "alloc_atomic_end";
        if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->atomic_end);
    } else {
        spec.entry = "alloc_place";
        r = wgs__pipeline(ctx, &spec, &p->place);
        spec.entry = "alloc_commit";
        if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->commit);
        wgs_scan_plan_desc sd = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .kind = WGS_SCAN_EXCLUSIVE,
                                 .capacity = capacity, .label = "wgscan alloc"};
        if (r == WGS_OK) r = wgs_scan_plan_create(ctx, &sd, &p->scan);
    }
    WGS_CREATE_END(ctx, r, p, wgs_scan_plan_destroy(p->scan), out);
}

uint64_t wgs_alloc_plan_scratch_size(const wgs_alloc_plan *p) { return p ? wgs_scan_plan_scratch_size(p->scan) : 0; }

void wgs_alloc_plan_destroy(wgs_alloc_plan *p) {
    if (!p) return;
    wgs_scan_plan_destroy(p->scan);
    wgs__plan_gone(p->ctx);
    free(p);
}

wgs_result wgs_alloc_encode(wgs_alloc_plan *p, WGPUCommandEncoder encoder, const wgs_alloc_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->sizes, a->sizes_offset, a->n * 4, "sizes")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->offsets, a->offsets_offset, a->n * 4, "offsets")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->state, a->state_offset, 8, "state")) != WGS_OK) return r;
    WGS_FAIL_IF(ctx, a->sizes == a->offsets || a->sizes == a->state || a->offsets == a->state,
                WGS_ERROR_ALIASING, "sizes, offsets and state must be three buffers");
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK) return r;
    if (a->n == 0) return WGS_OK;
    const uint32_t none = 0xFFFFFFFFu;
    int scan = p->algorithm == WGS_ALLOC_SCAN;
    gpu_binding b[3] = {{0, a->sizes, a->sizes_offset, a->n * 4},
                        {1, a->offsets, a->offsets_offset, a->n * 4},
                        {3, a->state, a->state_offset, 8}};
    wgs_params rec = {.alloc = {.n = (uint32_t)a->n, .arena = a->arena_size}};
    if ((r = wgs__params_reserve(ctx, 1)) != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    uint64_t po = wgs__param_push(ctx, &rec);
    if (scan) {
        /* The scan's own pass carries the begin timestamp through an empty pass first. */
        WGPUComputePassEncoder mark = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                     a->timestamp_begin_index, none);
        wgs__gpu_pass_end(ctx->gpu, mark);
        wgs_scan_args sa = {.input = a->sizes, .input_offset = a->sizes_offset, .output = a->offsets,
                            .output_offset = a->offsets_offset, .n = a->n, .n_buffer = a->n_buffer,
                            .n_offset = a->n_offset};
        if ((r = wgs_scan_encode(p->scan, encoder, &sa)) != WGS_OK) {
            wgs__scope_end(ctx, "recording the allocation");
            return r;
        }
    }
    WGPUComputePassEncoder pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                 scan ? none : a->timestamp_begin_index, a->timestamp_end_index);
    uint64_t groups = wgs__div_up(a->n, p->wg);
    /* A count on the GPU: the requests' n and grid follow it; the one-workgroup steps
     * run in any case (with no request they leave the top as it was). */
    wgs__count_rule follow = wgs__count_follow(0, p->wg), once = wgs__count_follow(0, 0);
    wgs__dispatch_begin(ctx, a->n_buffer, a->n_offset, a->n);
    if (scan) {
        wgs__dispatch(ctx, pass, p->place, b, 3, &rec, po, groups, &follow);
        wgs__dispatch(ctx, pass, p->commit, b, 3, &rec, po, 1, &once);
    } else {
        wgs__dispatch(ctx, pass, p->atomic_begin, b + 2, 1, NULL, 0, 1, NULL);
        wgs__dispatch(ctx, pass, p->atomic, b, 3, &rec, po, groups, &follow);
        wgs__dispatch(ctx, pass, p->atomic_end, b + 2, 1, NULL, 0, 1, NULL);
    }
    r = wgs__dispatch_end(ctx, pass);
    wgs__gpu_pass_end(ctx->gpu, pass);
    wgs_result rs = wgs__scope_end(ctx, "recording the allocation");
    return r != WGS_OK ? r : rs;
}
