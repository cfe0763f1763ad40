/* SPDX-License-Identifier: MIT */
/*
 * copy.c: the copy kernel that benchmarks use as their ceiling (see copy.wgsl). Public
 * because users comparing their own kernels need the same yardstick in the same run.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define COPY_WG 256u
#define COPY_ITEMS 4u /* 16-byte words per invocation */

wgs_result wgs_copy_encode(wgs_context *ctx, WGPUCommandEncoder encoder, const wgs_copy_args *a) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !encoder || !a || !a->src || !a->dst, WGS_ERROR_INVALID_ARGUMENT,
                "encoder, args, src and dst are required");
    wgs_result r = wgs__check_device(ctx);
    if (r != WGS_OK) return r;
    const wgs_context_info *ci = &ctx->caps.info;
    WGS_FAIL_IF(ctx, a->bytes % 16 || a->src_offset % ci->min_storage_offset_alignment ||
                         a->dst_offset % ci->min_storage_offset_alignment,
                WGS_ERROR_MISALIGNED_OFFSET,
                "copy sizes must be multiples of 16 bytes and offsets of %u",
                ci->min_storage_offset_alignment);
    WGS_FAIL_IF(ctx, a->src == a->dst, WGS_ERROR_ALIASING, "copy source and destination are one buffer");
    uint64_t ssize = wgs__gpu_buffer_size(ctx->gpu, a->src), dsize = wgs__gpu_buffer_size(ctx->gpu, a->dst);
    WGS_FAIL_IF(ctx, a->src_offset > ssize || ssize - a->src_offset < a->bytes ||
                         a->dst_offset > dsize || dsize - a->dst_offset < a->bytes,
                WGS_ERROR_BUFFER_TOO_SMALL, "copy of %llu bytes runs past a buffer's end",
                (unsigned long long)a->bytes);
    WGS_FAIL_IF(ctx, a->timestamp_query_set && !ci->has_timestamp_query, WGS_ERROR_FEATURE_MISSING,
                "timestamps need the timestamp-query feature");
    if (a->bytes == 0) return WGS_OK;

    int scalar = ctx->exp.copy_scalar; /* the 4-byte-load variant, for experiments */
    wgs_kernel_spec spec = {.file = "device/copy.wgsl", .entry = scalar ? "copy_scalar" : "copy", .params = WGS_PARAMS_KIND_COPY, .type = WGS_TYPE_U32,
                            .op = WGS_OP_ADD, .wg = COPY_WG, .items = COPY_ITEMS};
    WGPUComputePipeline pipe;
    r = wgs__pipeline(ctx, &spec, &pipe);
    if (r != WGS_OK) return r;
    /* Chunks: what one binding and one two-dimensional grid of workgroups hold. */
    uint64_t block = 16ull * COPY_WG * COPY_ITEMS;
    uint64_t per_grid = (uint64_t)ci->max_workgroups_per_dimension * ci->max_workgroups_per_dimension;
    uint64_t chunk = ci->max_storage_binding_size / block;
    if (chunk > per_grid) chunk = per_grid;
    chunk *= block;
    uint64_t chunks = wgs__div_up(a->bytes, chunk);
    if ((r = wgs__params_reserve(ctx, chunks)) != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    WGPUComputePassEncoder pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                 a->timestamp_begin_index, a->timestamp_end_index);
    for (uint64_t c = 0; c < chunks; c++) {
        uint64_t off = c * chunk, len = a->bytes - off < chunk ? a->bytes - off : chunk;
        wgs_params rec = {.copy = {.n = (uint32_t)(len / 16)}};
        uint64_t po = wgs__param_push(ctx, &rec);
        gpu_binding b[2] = {{0, a->src, a->src_offset + off, len}, {1, a->dst, a->dst_offset + off, len}};
        wgs__dispatch(ctx, pass, pipe, b, 2, &rec, po, wgs__div_up(len, block), NULL);
    }
    wgs__gpu_pass_end(ctx->gpu, pass);
    return wgs__scope_end(ctx, "recording the copy");
}
