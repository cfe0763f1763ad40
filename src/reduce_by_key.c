/* SPDX-License-Identifier: MIT */
/*
 * reduce_by_key.c: the reduce by key, built from select and the segmented reduce. Per
 * encode, two compute passes:
 *   select UNIQUE of the keys, payload INDEX    the unique keys, each run's first index
 *                                               (scratch) and the count (num_runs)
 *   the segmented reduce over those runs        each run's reduction, the count read
 *                                               from num_runs on the GPU
 * So the keys and the values are each read once (and the run starts written and read
 * once), with no trip to the host in between.
 */
#include "internal.h"

#include <stdlib.h>

struct wgs_reduce_by_key_plan {
    wgs_context *ctx;
    uint64_t capacity;
    uint32_t es;           /* bytes of a value: 4, or a user's element's */
    uint32_t result_bytes; /* es, or 8 for arg ops (value bits, index) */
    wgs_select_plan *unique;
    wgs_segmented_reduce_plan *runs;
    WGPUBuffer starts;
    uint64_t scratch_bytes;
};

static void plan_release(wgs_reduce_by_key_plan *p) {
    wgs_select_plan_destroy(p->unique);
    wgs_segmented_reduce_plan_destroy(p->runs);
    wgs__gpu_buffer_release(p->ctx->gpu, p->starts);
}

wgs_result wgs_reduce_by_key_plan_create(wgs_context *ctx, const wgs_reduce_by_key_plan_desc *d,
                                         wgs_reduce_by_key_plan **out) {
    WGS_CREATE_BEGIN(ctx, d, out);
    WGS_FAIL_IF(ctx, d->key_type != WGS_TYPE_DEFAULT && d->key_type != WGS_TYPE_U32 && d->key_type != WGS_TYPE_I32,
                WGS_ERROR_UNSUPPORTED_TYPE, "keys are u32 or i32, not type %d", (int)d->key_type);
    const uint64_t capacity = d->capacity ? d->capacity : 1;
    /* The segmented reduce checks the type, the operator (or makes the user's) and the
     * capacity. */
    wgs_segmented_reduce_plan *runs = NULL;
    wgs_result r = wgs__segmented_runs_plan_create(ctx, d->type, d->op, d->custom, capacity, d->label, &runs);
    if (r != WGS_OK) return r;
    wgs_reduce_by_key_plan *p = calloc(1, sizeof *p);
    if (!p) {
        wgs_segmented_reduce_plan_destroy(runs);
        return wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the plan");
    }
    p->ctx = ctx;
    p->runs = runs;
    p->capacity = capacity;
    p->result_bytes = wgs__segmented_reduce_plan_result_size(runs);
    p->es = d->custom ? p->result_bytes : 4;
    /* Keys compared bit for bit: u32 for both key types. */
    wgs_select_plan_desc seld = {.type = WGS_TYPE_U32, .mode = WGS_SELECT_UNIQUE, .payload = WGS_PAYLOAD_INDEX,
                                 .capacity = capacity, .label = d->label};
    r = wgs_select_plan_create(ctx, &seld, &p->unique);
    if (r == WGS_OK) {
        wgs__gpu_scope_push(ctx->gpu);
        p->starts = wgs__gpu_buffer_create(ctx->gpu, capacity * 4, WGPUBufferUsage_Storage,
                                           "wgscan reduce by key run starts");
        r = wgs__scope_end(ctx, "allocating the reduce by key plan's scratch");
        p->scratch_bytes = capacity * 4 + wgs_segmented_reduce_plan_scratch_size(runs) +
                           wgs_select_plan_scratch_size(p->unique);
    }
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

void wgs_reduce_by_key_plan_destroy(wgs_reduce_by_key_plan *p) {
    if (!p) return;
    plan_release(p);
    wgs__plan_gone(p->ctx);
    free(p);
}

void wgs__reduce_by_key_plan_sizes(const wgs_reduce_by_key_plan *p, uint32_t *element, uint32_t *result) {
    *element = p->es;
    *result = p->result_bytes;
}

uint64_t wgs_reduce_by_key_plan_scratch_size(const wgs_reduce_by_key_plan *p) { return p ? p->scratch_bytes : 0; }

wgs_result wgs_reduce_by_key_encode(wgs_reduce_by_key_plan *p, WGPUCommandEncoder encoder,
                                    const wgs_reduce_by_key_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK) return r;
    const uint64_t n = a->n;
    if ((r = wgs__check_buffer(ctx, a->keys, a->keys_offset, n * 4, "keys")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->input, a->input_offset, n * p->es, "input")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->unique_keys, a->unique_keys_offset, n * 4, "unique_keys")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->aggregates, a->aggregates_offset, n * p->result_bytes, "aggregates")) != WGS_OK)
        return r;
    if ((r = wgs__check_buffer(ctx, a->num_runs, a->num_runs_offset, 4, "num_runs")) != WGS_OK) return r;
    const WGPUBuffer outs[3] = {a->unique_keys, a->aggregates, a->num_runs};
    for (int i = 0; i < 3; i++)
        WGS_FAIL_IF(ctx, outs[i] == a->keys || outs[i] == a->input || outs[i] == outs[(i + 1) % 3], WGS_ERROR_ALIASING,
                    "unique_keys, aggregates and num_runs need buffers of their own");
    /* The first pass writes the begin timestamp, the last the end one. */
    const uint32_t none = WGPU_QUERY_SET_INDEX_UNDEFINED;
    const int timed = a->timestamp_query_set != NULL;
    wgs_select_args sel = {.input = a->keys, .input_offset = a->keys_offset, .output = a->unique_keys,
                           .output_offset = a->unique_keys_offset, .payload_out = p->starts, .count = a->num_runs,
                           .count_offset = a->num_runs_offset, .n = n, .timestamp_query_set = a->timestamp_query_set,
                           .timestamp_begin_index = timed ? a->timestamp_begin_index : none,
                           .timestamp_end_index = timed && !n ? a->timestamp_end_index : none,
                           .n_buffer = a->n_buffer, .n_offset = a->n_offset};
    if ((r = wgs_select_encode(p->unique, encoder, &sel)) != WGS_OK) return r;
    if (!n) return WGS_OK;
    wgs_segmented_reduce_args sr = {.input = a->input, .input_offset = a->input_offset, .n = n,
                                    .output = a->aggregates, .output_offset = a->aggregates_offset,
                                    .timestamp_query_set = a->timestamp_query_set,
                                    .timestamp_begin_index = none,
                                    .timestamp_end_index = timed ? a->timestamp_end_index : none,
                                    .n_buffer = a->n_buffer, .n_offset = a->n_offset};
    return wgs__segmented_runs_encode(p->runs, encoder, &sr, p->starts, a->num_runs, a->num_runs_offset);
}
