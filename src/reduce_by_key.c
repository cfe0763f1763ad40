/* SPDX-License-Identifier: MIT */
/*
 * reduce_by_key.c: the reduce by key, built from the scan by key and select (kernel of
 * its own: wgsl/device/reduce_by_key.wgsl). Per encode, three compute passes:
 *   the inclusive scan by key of the values        into `scanned` (scratch)
 *   select UNIQUE of the keys, payload INDEX       unique keys, each run's first index
 *                                                  (scratch) and the count (num_runs)
 *   gather_ends                                    each run's reduction: the scan at
 *                                                  the element before the next run
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define GATHER_WG 256u /* WebGPU's default invocation limit */

struct wgs_reduce_by_key_plan {
    wgs_context *ctx;
    uint64_t capacity;
    uint32_t es; /* value bytes */
    wgs_scan_by_key_plan *scan;
    wgs_select_plan *unique;
    WGPUComputePipeline gather;
    WGPUBuffer scanned, starts;
    uint64_t scratch_bytes;
};

static void plan_release(wgs_reduce_by_key_plan *p) {
    wgs_scan_by_key_plan_destroy(p->scan);
    wgs_select_plan_destroy(p->unique);
    wgs__gpu_buffer_release(p->ctx->gpu, p->scanned);
    wgs__gpu_buffer_release(p->ctx->gpu, p->starts);
}

wgs_result wgs_reduce_by_key_plan_create(wgs_context *ctx, const wgs_reduce_by_key_plan_desc *d,
                                         wgs_reduce_by_key_plan **out) {
    WGS_CREATE_BEGIN(ctx, d, out);
    /* The scan by key checks the description (its defaults are these plan's). */
    wgs_scan_by_key_plan_desc sd = {.type = d->type, .op = d->op, .kind = WGS_SCAN_INCLUSIVE,
                                    .heads = WGS_HEADS_KEYS, .key_type = d->key_type,
                                    .capacity = d->capacity, .label = d->label};
    wgs_scan_by_key_plan *scan = NULL;
    wgs_result r = wgs_scan_by_key_plan_create(ctx, &sd, &scan);
    if (r != WGS_OK) return r;
    wgs_reduce_by_key_plan *p = calloc(1, sizeof *p);
    if (!p) {
        wgs_scan_by_key_plan_destroy(scan);
        return wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the plan");
    }
    p->ctx = ctx;
    p->scan = scan;
    p->capacity = d->capacity ? d->capacity : 1;
    p->es = d->type == WGS_TYPE_F16 ? 2 : 4;
    wgs_type vt = d->type == WGS_TYPE_DEFAULT ? WGS_TYPE_U32 : d->type;
    /* Keys compared bit for bit, as the scan by key compares them: u32 for both types. */
    wgs_select_plan_desc seld = {.type = WGS_TYPE_U32, .mode = WGS_SELECT_UNIQUE, .payload = WGS_PAYLOAD_INDEX,
                                 .capacity = p->capacity, .label = d->label};
    r = wgs_select_plan_create(ctx, &seld, &p->unique);
    wgs_kernel_spec spec = {.file = "device/reduce_by_key.wgsl", .entry = "gather_ends", .primitive = 1,
                            .value_type = vt, .type = vt, .op = WGS_OP_ADD, .params = WGS_PARAMS_KIND_SCAN,
                            .wg = GATHER_WG, .items = 1};
    if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->gather);
    if (r == WGS_OK) {
        uint64_t vbytes = wgs__round_up(p->capacity * p->es, 4);
        wgs__gpu_scope_push(ctx->gpu);
        p->scanned = wgs__gpu_buffer_create(ctx->gpu, vbytes, WGPUBufferUsage_Storage, "wgscan reduce by key scan");
        p->starts = wgs__gpu_buffer_create(ctx->gpu, p->capacity * 4, WGPUBufferUsage_Storage,
                                           "wgscan reduce by key run starts");
        r = wgs__scope_end(ctx, "allocating the reduce by key plan's scratch");
        p->scratch_bytes = vbytes + p->capacity * 4 + wgs_scan_by_key_plan_scratch_size(scan);
    }
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

void wgs_reduce_by_key_plan_destroy(wgs_reduce_by_key_plan *p) {
    if (!p) return;
    plan_release(p);
    p->ctx->live_plans--;
    free(p);
}

uint64_t wgs_reduce_by_key_plan_scratch_size(const wgs_reduce_by_key_plan *p) { return p ? p->scratch_bytes : 0; }

wgs_result wgs_reduce_by_key_encode(wgs_reduce_by_key_plan *p, WGPUCommandEncoder encoder,
                                    const wgs_reduce_by_key_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK) return r;
    const uint64_t n = a->n, vbytes = wgs__round_up(n * p->es, 4);
    if ((r = wgs__check_buffer(ctx, a->keys, a->keys_offset, n * 4, "keys")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->input, a->input_offset, vbytes, "input")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->unique_keys, a->unique_keys_offset, n * 4, "unique_keys")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->aggregates, a->aggregates_offset, vbytes, "aggregates")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->num_runs, a->num_runs_offset, 4, "num_runs")) != WGS_OK) return r;
    const WGPUBuffer outs[3] = {a->unique_keys, a->aggregates, a->num_runs};
    for (int i = 0; i < 3; i++)
        WGS_FAIL_IF(ctx, outs[i] == a->keys || outs[i] == a->input || outs[i] == outs[(i + 1) % 3], WGS_ERROR_ALIASING,
                    "unique_keys, aggregates and num_runs need buffers of their own");
    /* The first pass writes the begin timestamp, the last the end one. */
    const uint32_t none = WGPU_QUERY_SET_INDEX_UNDEFINED;
    const int timed = a->timestamp_query_set != NULL;
    if (n) {
        wgs_scan_by_key_args sa = {.keys = a->keys, .keys_offset = a->keys_offset, .input = a->input,
                                   .input_offset = a->input_offset, .output = p->scanned, .n = n,
                                   .timestamp_query_set = a->timestamp_query_set,
                                   .timestamp_begin_index = timed ? a->timestamp_begin_index : none,
                                   .timestamp_end_index = none};
        if ((r = wgs_scan_by_key_encode(p->scan, encoder, &sa)) != WGS_OK) return r;
    }
    wgs_select_args sel = {.input = a->keys, .input_offset = a->keys_offset, .output = a->unique_keys,
                           .output_offset = a->unique_keys_offset, .payload_out = p->starts, .count = a->num_runs,
                           .count_offset = a->num_runs_offset, .n = n, .timestamp_query_set = a->timestamp_query_set,
                           .timestamp_begin_index = timed && !n ? a->timestamp_begin_index : none,
                           .timestamp_end_index = timed && !n ? a->timestamp_end_index : none};
    if ((r = wgs_select_encode(p->unique, encoder, &sel)) != WGS_OK) return r;
    if (!n) return WGS_OK;
    wgs_params rec = {.scan = {.n = (uint32_t)n}};
    if ((r = wgs__params_reserve(ctx, 1)) != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    WGPUComputePassEncoder pass =
        wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set, none, timed ? a->timestamp_end_index : none);
    uint64_t po = wgs__param_push(ctx, &rec);
    gpu_binding b[4] = {{0, p->scanned, 0, vbytes},
                        {4, p->starts, 0, n * 4},
                        {5, a->num_runs, a->num_runs_offset, 4},
                        {1, a->aggregates, a->aggregates_offset, vbytes}};
    wgs__dispatch(ctx, pass, p->gather, b, 4, ctx->param_ring, po, wgs__div_up(n, GATHER_WG));
    wgs__gpu_pass_end(ctx->gpu, pass);
    return wgs__scope_end(ctx, "recording the reduce by key");
}
