/* SPDX-License-Identifier: MIT */
/*
 * segmented.c: the segmented reduce (kernels in wgsl/device/segmented_reduce.wgsl).
 *
 * Work is split by elements: a tile of the values per workgroup, whatever the
 * segments' lengths. Per encode, one compute pass of three dispatches:
 *   seg_bounds  each tile's first segment (a search per tile), the status zeroed
 *   seg_tiles   each tile's pieces of segments: whole segments written, partials kept
 *               (persistent workgroups take the tiles in turn, loading the next tile's
 *               values while they finish the current one)
 *   seg_spans   the segments that cross tiles, from the partials
 */
#include "chain.h"
#include "tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wgs_segmented_reduce_plan {
    wgs_context *ctx;
    wgs__operator *custom; /* a user's operator, or NULL for type and op */
    wgs_type type;
    wgs_op op;
    uint32_t es;             /* bytes of a value */
    uint32_t partial_stride; /* aux words a tile's partials take */
    uint32_t form;          /* SEG_FORM: wgs_segments_form, or SEG_RUNS (wgs__segmented_runs_*) */
    uint32_t arg;           /* 0, 1 arg-min, 2 arg-max */
    uint32_t result_bytes;  /* es, or 8 for arg ops */
    uint64_t capacity, segment_capacity;
    uint32_t wg, items, groups;
    WGPUComputePipeline bounds, tiles, spans;
    WGPUBuffer aux; /* per tile PARTIAL_WORDS words, then tiles + 1 bounds */
    uint64_t aux_bytes;
};

typedef struct storage_arg {
    const wgs_context_info *ci;
    uint32_t es;
    int custom;
} storage_arg;

/* Workgroup memory of seg_tiles: a head bit per element, three words per invocation
 * (its run's first non-empty segment and that begin, the code it hands on), and the
 * segmented scan's arrays (es + 8 bytes an entry): per invocation without subgroups,
 * per (row, subgroup of the device's smallest size) with them (the helper's arrays are
 * sized for row tiles; the reduce uses the first row); for values wider than a word the
 * spans' tree too (es + 4 bytes an invocation: the one-word tree, 8 bytes, was left out
 * of this sum before a user's operator, and the built-ins' shapes stay as they were). */
static uint64_t tile_storage(uint32_t wg, uint32_t items, const void *arg) {
    const storage_arg *a = arg;
    uint64_t tile = (uint64_t)wg * items, rows = items / 4, entry = a->es + 8ull;
    uint64_t sg = a->ci->subgroup_min_size ? a->ci->subgroup_min_size : 4;
    uint64_t scan = !a->custom && wgs__chain_subgroups(a->ci, wg) ? entry * rows * ((wg + sg - 1) / sg) + 16
                                                                  : entry * wg + 16 * rows;
    uint64_t tree = a->es > 4 ? (a->es + 4ull) * wg : 0;
    return tile / 8 + 12ull * wg + scan + tree;
}

static uint64_t tiles_of(const wgs_segmented_reduce_plan *p, uint64_t n) {
    uint64_t t = wgs__div_up(n, (uint64_t)p->wg * p->items);
    return t ? t : 1; /* one tile even for n = 0: it owns the segments that begin at n */
}

static wgs_segmented_reduce_plan_desc desc_defaults(const wgs_segmented_reduce_plan_desc *d) {
    wgs_segmented_reduce_plan_desc r = *d;
    if (r.type == WGS_TYPE_DEFAULT && !r.custom) r.type = WGS_TYPE_U32;
    if (r.op == WGS_OP_DEFAULT && !r.custom) r.op = WGS_OP_ADD;
    if (r.segments == WGS_SEGMENTS_DEFAULT) r.segments = WGS_SEGMENTS_OFFSETS;
    if (r.capacity == 0) r.capacity = 1;
    if (r.segment_capacity == 0) r.segment_capacity = 1;
    return r;
}

/* es: the bytes of a value (a user's element's size, else 4). */
static wgs_result desc_validate(wgs_context *ctx, const wgs_segmented_reduce_plan_desc *d, uint32_t es) {
    WGS_FAIL_IF(ctx, d->custom && (d->type || d->op), WGS_ERROR_INVALID_ARGUMENT,
                "a segmented reduce with its own operator (custom) takes no type or op; leave them 0");
    WGS_FAIL_IF(ctx, !d->custom && (d->type == WGS_TYPE_F16 || (unsigned)d->type > WGS_TYPE_F32),
                WGS_ERROR_UNSUPPORTED_TYPE,
                "the segmented reduce takes u32, i32 and f32, not type %d", (int)d->type);
    WGS_FAIL_IF(ctx, (unsigned)d->op > WGS_OP_ARGMAX, WGS_ERROR_UNSUPPORTED_OPERATOR, "unknown operator %d",
                (int)d->op);
    WGS_FAIL_IF(ctx, d->type == WGS_TYPE_F32 && d->op >= WGS_OP_AND && d->op <= WGS_OP_XOR,
                WGS_ERROR_UNSUPPORTED_OPERATOR, "%s is defined for integer types only", wgs_op_name(d->op));
    WGS_FAIL_IF(ctx, (unsigned)d->segments > WGS_SEGMENTS_BEGIN_END, WGS_ERROR_INVALID_ARGUMENT,
                "unknown segments form %d", (int)d->segments);
    const wgs_context_info *ci = &ctx->caps.info;
    uint64_t result_bytes = d->op >= WGS_OP_ARGMIN ? 8 : es;
    uint64_t bind = ci->max_storage_binding_size;
    WGS_FAIL_IF(ctx, d->capacity >= (1ull << 31) || wgs__mul_sat(d->capacity, es) > bind ||
                         d->segment_capacity >= (1ull << 31) || wgs__mul_sat(d->segment_capacity + 1, 4) > bind ||
                         wgs__mul_sat(d->segment_capacity, result_bytes) > bind,
                WGS_ERROR_TOO_LARGE,
                "capacity %llu and segment_capacity %llu: values, offsets and results must each fit one "
                "binding of %llu bytes, and both counts stay below 2^31",
                (unsigned long long)d->capacity, (unsigned long long)d->segment_capacity,
                (unsigned long long)bind);
    return WGS_OK;
}

static void plan_release(wgs_segmented_reduce_plan *p) {
    wgs__gpu_buffer_release(p->ctx->gpu, p->aux);
    p->aux = NULL;
    wgs__operator_destroy(p->custom);
    p->custom = NULL;
}

/* A description with defaults, the kernels' form: the operator made, then checked
 * with its element's size. */
static wgs_result plan_create(wgs_context *ctx, const wgs_segmented_reduce_plan_desc *dp, uint32_t form,
                              wgs_segmented_reduce_plan **out) {
    const wgs_segmented_reduce_plan_desc d = *dp;
    wgs__operator *custom = NULL;
    wgs_result r = WGS_OK;
    if (d.custom && !d.type && !d.op && (r = wgs__operator_create(ctx, d.custom, &custom)) != WGS_OK) return r;
    const uint32_t es = custom ? custom->size : 4;
    const storage_arg sa = {&ctx->caps.info, es, custom != NULL};
    wgs_tile_shape s;
    if ((r = desc_validate(ctx, &d, es)) == WGS_OK)
        r = wgs__shape(ctx, "segmented", ctx->exp.segmented, wgs__tuning_of(ctx)->segmented, 4, 64, tile_storage,
                       &sa, &s);
    wgs_segmented_reduce_plan *p = r == WGS_OK ? calloc(1, sizeof *p) : NULL;
    if (!p) {
        wgs__operator_destroy(custom);
        return r != WGS_OK ? r : wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the plan");
    }
    p->ctx = ctx;
    p->custom = custom;
    p->es = es;
    p->partial_stride = WGS_PARTIAL_WORDS + 2 * (es / 4 - 1);
    p->type = d.type;
    p->op = d.op;
    p->form = form;
    p->arg = d.op == WGS_OP_ARGMIN ? 1 : d.op == WGS_OP_ARGMAX ? 2 : 0;
    wgs_op acc_op = p->arg == 1 ? WGS_OP_MIN : p->arg == 2 ? WGS_OP_MAX : d.op;
    p->result_bytes = p->arg ? 8 : es;
    p->capacity = d.capacity;
    p->segment_capacity = d.segment_capacity;
    p->wg = s.wg;
    p->items = s.items;
    p->groups = ctx->exp.segmented_groups ? ctx->exp.segmented_groups : wgs__tuning_of(ctx)->segmented_groups;

    /* A user's operator: the portable scan (its element may be a struct, which subgroup
     * operations do not take). */
    int subgroups = !custom && wgs__chain_subgroups(&ctx->caps.info, p->wg);
    char helper[320];
    snprintf(helper, sizeof helper,
             "element/lift_value.wgsl element/acc.wgsl element/%s.wgsl workgroup/reduce_tree.wgsl "
             "element/segment_entry.wgsl workgroup/segmented_scan_%s.wgsl",
             p->arg ? "acc_arg" : "acc_value", subgroups ? "subgroup" : "workgroup");
    wgs_kernel_spec spec = {.file = "device/segmented_reduce.wgsl", .helper = helper,
                            .subgroups = subgroups, .primitive = 1, .value_type = d.type, .params = WGS_PARAMS_KIND_SEGMENTED,
                            .consts = {{"ARG", p->arg}, {"SEG_FORM", form}},
                            .type = d.type, .op = acc_op, .wg = p->wg, .items = p->items, .custom = custom};
    const char *entries[3] = {"seg_bounds", "seg_tiles", "seg_spans"};
    WGPUComputePipeline *pipes[3] = {&p->bounds, &p->tiles, &p->spans};
    for (int i = 0; i < 3 && r == WGS_OK; i++) {
        spec.entry = entries[i];
        r = wgs__pipeline(ctx, &spec, pipes[i]);
    }
    if (r != WGS_OK) {
        plan_release(p);
        free(p);
        return r;
    }
    uint64_t tiles = tiles_of(p, p->capacity);
    p->aux_bytes = (tiles * p->partial_stride + tiles + 1) * 4;
    wgs__gpu_scope_push(ctx->gpu);
    p->aux = wgs__gpu_buffer_create(ctx->gpu, p->aux_bytes, WGPUBufferUsage_Storage,
                                    "wgscan segmented reduce partials");
    r = wgs__scope_end(ctx, "allocating the segmented reduce plan's scratch");
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

wgs_result wgs_segmented_reduce_plan_create(wgs_context *ctx, const wgs_segmented_reduce_plan_desc *user_desc,
                                            wgs_segmented_reduce_plan **out) {
    WGS_CREATE_BEGIN(ctx, user_desc, out);
    const wgs_segmented_reduce_plan_desc d = desc_defaults(user_desc);
    return plan_create(ctx, &d, (uint32_t)d.segments, out);
}

wgs_result wgs__segmented_runs_plan_create(wgs_context *ctx, wgs_type type, wgs_op op,
                                           const wgs_operator_desc *custom, uint64_t capacity, const char *label,
                                           wgs_segmented_reduce_plan **out) {
    const wgs_segmented_reduce_plan_desc user = {.type = type, .op = op, .capacity = capacity,
                                                 .segment_capacity = capacity, .label = label, .custom = custom};
    *out = NULL; /* (an internal caller: a context, a live device) */
    const wgs_segmented_reduce_plan_desc d = desc_defaults(&user);
    return plan_create(ctx, &d, WGS_SEG_RUNS, out);
}

uint32_t wgs__segmented_reduce_plan_result_size(const wgs_segmented_reduce_plan *p) { return p->result_bytes; }

void wgs_segmented_reduce_plan_destroy(wgs_segmented_reduce_plan *p) {
    if (!p) return;
    plan_release(p);
    wgs__plan_gone(p->ctx);
    free(p);
}

uint64_t wgs_segmented_reduce_plan_scratch_size(const wgs_segmented_reduce_plan *p) { return p ? p->aux_bytes : 0; }

uint32_t wgs_segmented_reduce_plan_tile_size(const wgs_segmented_reduce_plan *p) { return p ? p->wg * p->items : 0; }

/* One compute pass of the three dispatches; `segs` segments at most (the form's count
 * where it is on the GPU), their begins and ends (or count) bound at slots 5 and 6. */
static wgs_result record(wgs_segmented_reduce_plan *p, WGPUCommandEncoder encoder, const wgs_segmented_reduce_args *a,
                         uint64_t segs, gpu_binding begins, gpu_binding ends) {
    wgs_context *ctx = p->ctx;
    const uint64_t n = a->n, tiles = tiles_of(p, n);
    /* (The identity is the prelude's IDENTITY_BITS, a constant of the pipelines.) */
    wgs_params rec = {.segmented = {.n = (uint32_t)n, .segments = (uint32_t)segs, .tiles = (uint32_t)tiles,
                                    .bounds_base = (uint32_t)(tiles * p->partial_stride)}};
    wgs_result r = wgs__params_reserve(ctx, 1);
    if (r != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    WGPUComputePassEncoder pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                      a->timestamp_begin_index, a->timestamp_end_index);
    uint64_t po = wgs__param_push(ctx, &rec);
    gpu_binding b[7];
    b[0] = wgs__binding_or_dummy(ctx, 0, a->input, a->input_offset, n * p->es, 0);
    b[1] = wgs__binding_or_dummy(ctx, 4, a->input, a->input_offset, n / 4 * 4 * p->es, 0);
    b[2] = wgs__binding_or_dummy(ctx, 1, a->output, a->output_offset, segs * p->result_bytes, 1);
    b[3] = (gpu_binding){3, p->aux, 0, p->aux_bytes};
    b[4] = begins;
    b[5] = ends;
    b[6] = wgs__binding_or_dummy(ctx, 8, a->status, a->status_offset, a->status ? 4 : 0, 1);
    /* Each entry point is given exactly the bindings it uses (its automatic layout); every
     * one reads the count through slot 6 (segment_count). */
    gpu_binding bounds_b[4] = {b[3], b[4], b[5], b[6]}, spans_b[3] = {b[2], b[3], b[5]};
    /* Counts on the GPU: n and the tiles follow the count, the segments the second
     * count; the bounds pass keeps the bound's grid (its spare workgroups return). */
    const uint64_t tile = (uint64_t)p->wg * p->items;
    wgs__count_rule rule = wgs__count_follow(0, 0);
    rule.ops[0] = (wgs__count_op){WGS_COUNT_OP_DIV_UP, 2, (uint32_t)tile, 1}; /* a tile even for n = 0 */
    rule.grid_min = 1;
    rule.ops[1] = (wgs__count_op){WGS_COUNT_OP_SECOND, 1, 0, 0};
    wgs__dispatch_begin2(ctx, a->n_buffer, a->n_offset, n, a->n_segments_buffer, a->n_segments_offset, segs);
    wgs__dispatch(ctx, pass, p->bounds, bounds_b, 4, &rec, po, wgs__div_up(tiles + 1, p->wg), &rule);
    rule.per = tile;
    wgs__dispatch(ctx, pass, p->tiles, b, 7, &rec, po, tiles < p->groups ? tiles : p->groups, &rule);
    rule.per = tile * p->wg;
    wgs__dispatch(ctx, pass, p->spans, spans_b, 3, &rec, po, wgs__div_up(tiles, p->wg), &rule);
    r = wgs__dispatch_end(ctx, pass);
    wgs__gpu_pass_end(ctx->gpu, pass);
    wgs_result rs = wgs__scope_end(ctx, "recording the segmented reduction");
    return r != WGS_OK ? r : rs;
}

wgs_result wgs_segmented_reduce_encode(wgs_segmented_reduce_plan *p, WGPUCommandEncoder encoder,
                                       const wgs_segmented_reduce_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK) return r;
    const uint64_t n = a->n, segs = a->n_segments;
    WGS_FAIL_IF(ctx, segs > p->segment_capacity, WGS_ERROR_CAPACITY_EXCEEDED,
                "n_segments = %llu exceeds the plan's segment_capacity %llu", (unsigned long long)segs,
                (unsigned long long)p->segment_capacity);
    const int csr = p->form == WGS_SEGMENTS_OFFSETS;
    WGPUBuffer begins = csr ? a->offsets : a->begin_offsets;
    uint64_t begins_offset = csr ? a->offsets_offset : a->begin_offsets_offset;
    uint64_t begins_bytes = (csr ? segs + 1 : segs) * 4;
    if ((r = wgs__check_buffer(ctx, a->input, a->input_offset, n * p->es, "input")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, begins, begins_offset, begins_bytes, csr ? "offsets" : "begin_offsets")) != WGS_OK)
        return r;
    if (!csr && (r = wgs__check_buffer(ctx, a->end_offsets, a->end_offsets_offset, segs * 4, "end_offsets")) != WGS_OK)
        return r;
    if ((r = wgs__check_buffer(ctx, a->output, a->output_offset, segs * p->result_bytes, "output")) != WGS_OK)
        return r;
    if (a->status && (r = wgs__check_buffer(ctx, a->status, a->status_offset, 4, "status")) != WGS_OK) return r;
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK ||
        (r = wgs__check_count(ctx, a->n_segments_buffer, a->n_segments_offset, "n_segments")) != WGS_OK)
        return r;
    WGS_FAIL_IF(ctx, a->output == a->input || a->output == begins || (!csr && a->output == a->end_offsets) ||
                         (a->status && (a->status == a->output || a->status == a->input || a->status == begins ||
                                        (!csr && a->status == a->end_offsets))),
                WGS_ERROR_ALIASING, "the output and the status need buffers of their own");

    const gpu_binding ends = wgs__binding_or_dummy(ctx, 6, a->end_offsets, a->end_offsets_offset, csr ? 0 : segs * 4, 0);
    return record(p, encoder, a, segs, wgs__binding_or_dummy(ctx, 5, begins, begins_offset, begins_bytes, 0), ends);
}

wgs_result wgs__segmented_runs_encode(wgs_segmented_reduce_plan *p, WGPUCommandEncoder encoder,
                                      const wgs_segmented_reduce_args *a, WGPUBuffer starts, WGPUBuffer count,
                                      uint64_t count_offset) {
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a->n, p->capacity, a->timestamp_query_set);
    if (r != WGS_OK) return r;
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK) return r;
    return record(p, encoder, a, a->n, wgs__binding_or_dummy(ctx, 5, starts, 0, a->n * 4, 0),
                  (gpu_binding){6, count, count_offset, 4});
}
