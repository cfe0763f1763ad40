/* SPDX-License-Identifier: MIT */
/*
 * reduce.c: reduce and count plans (kernels in wgsl/device/reduce.wgsl).
 *
 * One pass over the array by a fixed grid of workgroups, then a short step that
 * produces the result:
 *   tree                  reduce_partials per chunk, then reduce_final (1 workgroup)
 *   atomic                reduce_atomic_init, reduce_atomic per chunk, reduce_atomic_finish
 *   atomic per element    reduce_atomic_init, count_per_element per chunk, ..._finish
 * The grid is as large as the device keeps busy and no larger: each workgroup folds a
 * long run of the array, so the per-workgroup steps (tree in workgroup memory, the
 * partial or the atomic) cost nothing next to the loads.
 */
#include "tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct wgs_reduce_plan {
    wgs_context *ctx;
    uint64_t scratch_bytes; /* the GPU memory it holds, inner plans' included */
    wgs_type type;
    wgs_op op;
    int count; /* a count plan */
    wgs_reduce_algorithm algorithm;
    uint32_t flags; /* fixed point, predicate */
    uint32_t identity_bits; /* of the operator the kernels combine with */
    uint32_t result_bytes;  /* 4, or 8 for arg ops (value and index) */
    uint32_t pred_a, pred_b;
    uint64_t capacity;
    uint32_t wg, items, groups_max;
    uint64_t chunk_elems;
    WGPUComputePipeline main, final_, init, finish;
    WGPUBuffer partials, acc;
    /* A user's operator: its reduce runs on a multi-level scan plan's tile passes
     * (scan.c), which keep the input's order. */
    wgs_scan_plan *custom;
    uint32_t custom_size;
};

/* Invocations, 16-byte loads in flight per invocation, and the grid (tuning.c). */
static wgs_result choose_tuning(wgs_context *ctx, wgs_reduce_plan *p) {
    const wgs__tuning *tu = wgs__tuning_of(ctx);
    wgs_tile_shape s;
    wgs_result r = wgs__shape(ctx, "reduce", ctx->exp.reduce, tu->reduce, 1, 16, NULL, NULL, &s);
    if (r != WGS_OK) return r;
    p->wg = s.wg;
    p->items = s.items;
    p->groups_max = ctx->exp.reduce_groups ? ctx->exp.reduce_groups : tu->reduce_groups;
    return WGS_OK;
}

static void plan_release(wgs_reduce_plan *p) {
    wgs__gpu_buffer_release(p->ctx->gpu, p->partials);
    wgs__gpu_buffer_release(p->ctx->gpu, p->acc);
    if (p->custom) {
        wgs_scan_plan_destroy(p->custom);
        p->custom = NULL;
    }
}

void wgs__reduce_plan_sizes(const wgs_reduce_plan *p, uint32_t *element, uint32_t *result) {
    *element = p->custom ? p->custom_size : 4;
    *result = p->custom ? p->custom_size : p->result_bytes;
}

/* A user's operator: a multi-level scan plan of it does the work. */
static wgs_result custom_create(wgs_context *ctx, const wgs_reduce_plan_desc *d, wgs_reduce_plan **out) {
    WGS_FAIL_IF(ctx, d->type || d->op || d->algorithm > WGS_REDUCE_ALGORITHM_TREE || d->float_sum || d->fixed_point_bits,
                WGS_ERROR_INVALID_ARGUMENT,
                "a reduce with its own operator (custom) takes no type, op, atomic algorithm or float_sum");
    wgs_reduce_plan *p = calloc(1, sizeof *p);
    WGS_FAIL_IF(ctx, !p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the plan");
    p->ctx = ctx;
    p->capacity = d->capacity ? d->capacity : 1;
    p->algorithm = WGS_REDUCE_ALGORITHM_TREE;
    wgs_result r = wgs_scan_plan_create(ctx,
                                        &(wgs_scan_plan_desc){.custom = d->custom,
                                                              .algorithm = WGS_SCAN_ALGORITHM_MULTILEVEL,
                                                              .capacity = p->capacity, .label = d->label},
                                        &p->custom);
    if (r == WGS_OK) p->custom_size = wgs__scan_plan_element_size(p->custom);
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

/* Everything after the description is checked: pipelines and scratch. */
static wgs_result plan_finish(wgs_context *ctx, wgs_reduce_plan *p, wgs_type acc_type, wgs_op acc_op,
                              uint32_t arg, const char *lift, wgs_reduce_plan **out) {
    const wgs_context_info *ci = &ctx->caps.info;
    p->identity_bits = wgs__identity_bits(acc_type, acc_op);
    p->result_bytes = arg ? 8 : 4;
    wgs_result r = choose_tuning(ctx, p);
    if (r != WGS_OK) {
        free(p);
        return r;
    }
    p->chunk_elems = wgs__chunk_elems(ctx, 4);
    int wide_index = arg || p->count;
    if (p->chunk_elems == 0 || wgs__mul_sat(p->capacity, 4) > ci->max_buffer_size ||
        (wide_index && p->capacity > 0xFFFFFFFFull)) {
        unsigned long long capacity = (unsigned long long)p->capacity;
        free(p);
        return wgs__fail(ctx, WGS_ERROR_TOO_LARGE,
                         "capacity %llu does not fit this device (max buffer %llu bytes)%s", capacity,
                         (unsigned long long)ci->max_buffer_size,
                         wide_index ? "; counts and arg indices are 32-bit" : "");
    }
    wgs_kernel_spec spec = {.file = "device/reduce.wgsl", .helper = lift, .primitive = 1,
                            .value_type = p->type, .params = WGS_PARAMS_KIND_REDUCE, .consts = {{"ARG", arg}},
                            .type = acc_type, .op = acc_op,
                            .wg = p->wg, .items = p->items};
    r = WGS_OK;
    int atomic = p->algorithm != WGS_REDUCE_ALGORITHM_TREE;
    spec.entry = !atomic ? "reduce_partials"
                 : p->algorithm == WGS_REDUCE_ALGORITHM_ATOMIC ? "reduce_atomic"
                                                               : "count_per_element";
    r = wgs__pipeline(ctx, &spec, &p->main);
    spec.entry = atomic ? "reduce_atomic_finish" : "reduce_final";
    if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->final_);
    if (atomic) {
        spec.entry = "reduce_atomic_init";
        if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->init);
    }
    if (r != WGS_OK) {
        free(p);
        return r;
    }
    uint64_t chunks = wgs__div_up(p->capacity, p->chunk_elems);
    p->scratch_bytes = atomic ? 256 : chunks * p->groups_max * 8;
    wgs__gpu_scope_push(ctx->gpu);
    if (!atomic)
        p->partials = wgs__gpu_buffer_create(ctx->gpu, p->scratch_bytes, WGPUBufferUsage_Storage,
                                        "wgscan reduce partials");
    else
        p->acc = wgs__gpu_buffer_create(ctx->gpu, p->scratch_bytes, WGPUBufferUsage_Storage, "wgscan reduce accumulator");
    r = wgs__scope_end(ctx, "allocating the reduce plan's scratch");
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

/* What reduce and count plans check and allocate first, their defaults applied. */
static wgs_result plan_start(wgs_context *ctx, wgs_type type, wgs_reduce_plan **p) {
    WGS_FAIL_IF(ctx, type == WGS_TYPE_F16, WGS_ERROR_UNSUPPORTED_TYPE,
                "reduce, count, select and histogram take u32, i32 and f32, not f16");
    WGS_FAIL_IF(ctx, (unsigned)type > WGS_TYPE_F32, WGS_ERROR_UNSUPPORTED_TYPE, "unknown element type %d",
                (int)type);
    *p = calloc(1, sizeof **p);
    WGS_FAIL_IF(ctx, !*p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the plan");
    (*p)->ctx = ctx;
    (*p)->type = type;
    return WGS_OK;
}

/* Zero fields take their defaults here, once; then the description is checked as a
 * whole (as scan.c and select.c do). */
static wgs_reduce_plan_desc reduce_desc_defaults(const wgs_reduce_plan_desc *d) {
    wgs_reduce_plan_desc r = *d;
    if (r.type == WGS_TYPE_DEFAULT) r.type = WGS_TYPE_U32;
    if (r.op == WGS_OP_DEFAULT) r.op = WGS_OP_ADD;
    if (r.algorithm == WGS_REDUCE_ALGORITHM_DEFAULT) r.algorithm = WGS_REDUCE_ALGORITHM_TREE;
    if (r.fixed_point_bits == 0) r.fixed_point_bits = 24;
    if (r.capacity == 0) r.capacity = 1;
    return r;
}

static wgs_result reduce_desc_validate(wgs_context *ctx, const wgs_reduce_plan_desc *d) {
    int arg = d->op == WGS_OP_ARGMIN || d->op == WGS_OP_ARGMAX;
    const char *why = NULL;
    wgs_result code = WGS_ERROR_INVALID_ARGUMENT;
    if ((unsigned)d->op > WGS_OP_ARGMAX) why = "unknown operator", code = WGS_ERROR_UNSUPPORTED_OPERATOR;
    else if (d->type == WGS_TYPE_F32 && d->op >= WGS_OP_AND && !arg)
        why = "and, or and xor are defined for integer types only", code = WGS_ERROR_UNSUPPORTED_OPERATOR;
    else if ((unsigned)d->algorithm > WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT) why = "unknown algorithm";
    else if (d->algorithm == WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT)
        why = "one atomic per element is a counting algorithm (wgs_count_plan_create)";
    else if (arg && d->algorithm == WGS_REDUCE_ALGORITHM_ATOMIC)
        why = "arg-min and arg-max have no atomic form (no 64-bit atomics); use the tree",
        code = WGS_ERROR_UNSUPPORTED_OPERATOR;
    else if ((unsigned)d->float_sum > WGS_FLOAT_SUM_FIXED_POINT) why = "unknown float_sum";
    else if (d->fixed_point_bits > 40) why = "fixed_point_bits must be 1..40";
    if (why) return wgs__fail(ctx, code, "%s (op %s, type %s)", why, wgs_op_name(d->op), wgs_type_name(d->type));
    return WGS_OK;
}

wgs_result wgs_reduce_plan_create(wgs_context *ctx, const wgs_reduce_plan_desc *user_desc, wgs_reduce_plan **out) {
    WGS_CREATE_BEGIN(ctx, user_desc, out);
    if (user_desc->custom) return custom_create(ctx, user_desc, out);
    const wgs_reduce_plan_desc d = reduce_desc_defaults(user_desc), *desc = &d;
    wgs_type type = desc->type;
    wgs_reduce_plan *p = NULL;
    wgs_result r = plan_start(ctx, type, &p);
    if (r != WGS_OK) return r;
    if ((r = reduce_desc_validate(ctx, desc)) != WGS_OK) {
        free(p);
        return r;
    }
    wgs_op op = desc->op;
    int arg = op == WGS_OP_ARGMIN ? 1 : op == WGS_OP_ARGMAX ? 2 : 0;
    wgs_op acc_op = arg == 1 ? WGS_OP_MIN : arg == 2 ? WGS_OP_MAX : op;
    p->op = op;
    p->algorithm = desc->algorithm;
    p->capacity = desc->capacity;
    if (desc->float_sum == WGS_FLOAT_SUM_FIXED_POINT && type == WGS_TYPE_F32 && op == WGS_OP_ADD &&
        desc->algorithm == WGS_REDUCE_ALGORITHM_ATOMIC)
        p->flags = WGS_FLAG_FIXED_POINT | desc->fixed_point_bits << 16;
    return plan_finish(ctx, p, type, acc_op, (uint32_t)arg,
                       arg ? "element/lift_value.wgsl element/acc.wgsl element/acc_arg.wgsl workgroup/reduce_tree.wgsl"
                           : "element/lift_value.wgsl element/acc.wgsl element/acc_value.wgsl workgroup/reduce_tree.wgsl",
                       out);
}

static wgs_count_plan_desc count_desc_defaults(const wgs_count_plan_desc *d) {
    wgs_count_plan_desc r = *d;
    if (r.type == WGS_TYPE_DEFAULT) r.type = WGS_TYPE_U32;
    if (r.algorithm == WGS_REDUCE_ALGORITHM_DEFAULT) r.algorithm = WGS_REDUCE_ALGORITHM_TREE;
    if (r.capacity == 0) r.capacity = 1;
    return r;
}

wgs_result wgs_count_plan_create(wgs_context *ctx, const wgs_count_plan_desc *user_desc, wgs_reduce_plan **out) {
    WGS_CREATE_BEGIN(ctx, user_desc, out);
    const wgs_count_plan_desc d = count_desc_defaults(user_desc), *desc = &d;
    wgs_type type = desc->type;
    wgs_reduce_plan *p = NULL;
    wgs_result r = plan_start(ctx, type, &p);
    if (r != WGS_OK) return r;
    uint32_t kind = 0;
    r = wgs__predicate_bits(ctx, type, &desc->predicate, &kind, &p->pred_a, &p->pred_b);
    if (r == WGS_OK && (unsigned)desc->algorithm > WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT)
        r = wgs__fail(ctx, WGS_ERROR_INVALID_ARGUMENT, "unknown algorithm %d", (int)desc->algorithm);
    if (r != WGS_OK) {
        free(p);
        return r;
    }
    p->count = 1;
    p->op = WGS_OP_ADD;
    p->algorithm = desc->algorithm;
    p->flags = kind << 8;
    p->capacity = desc->capacity;
    return plan_finish(ctx, p, WGS_TYPE_U32, WGS_OP_ADD, 0,
                       "element/predicate.wgsl element/lift_count.wgsl element/acc.wgsl element/acc_value.wgsl "
                       "workgroup/reduce_tree.wgsl", out);
}

uint64_t wgs_reduce_plan_scratch_size(const wgs_reduce_plan *p) { return p ? p->scratch_bytes : 0; }

void wgs_reduce_plan_destroy(wgs_reduce_plan *p) {
    if (!p) return;
    plan_release(p);
    wgs__plan_gone(p->ctx);
    free(p);
}

wgs_result wgs_reduce_encode(wgs_reduce_plan *p, WGPUCommandEncoder encoder, const wgs_reduce_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK) return r;
    if (p->custom) return wgs__scan_reduce_encode(p->custom, encoder, a);
    if ((r = wgs__check_buffer(ctx, a->input, a->input_offset, a->n * 4, "input")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->output, a->output_offset, p->result_bytes, "output")) != WGS_OK) return r;
    WGS_FAIL_IF(ctx, a->input == a->output, WGS_ERROR_ALIASING,
                "the result must go to another buffer than the input");
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK) return r;

    wgs_reduce_params base = {.identity_bits = p->identity_bits, .flags = p->flags, .pred_a = p->pred_a,
                              .pred_b = p->pred_b};
    if (a->predicate && p->count &&
        (r = wgs__predicate_override(ctx, p->type, (p->flags >> 8) & 15u, a->predicate, &base.pred_a, &base.pred_b)) != WGS_OK)
        return r;
    int atomic = p->algorithm != WGS_REDUCE_ALGORITHM_TREE;
    uint64_t chunks = wgs__div_up(a->n, p->chunk_elems), partials = 0;
    if ((r = wgs__params_reserve(ctx, chunks + (atomic ? 2 : 1))) != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    WGPUComputePassEncoder pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                 a->timestamp_begin_index, a->timestamp_end_index);
    uint64_t po;
    gpu_binding accb = {5, p->acc, 0, 256};
    /* A count on the GPU: each chunk's grid and groups follow it (so the partials are
     * those of a host n of the count: the same bits), the final step sums the groups. */
    wgs__dispatch_begin(ctx, a->n_buffer, a->n_offset, a->n);
    if (atomic) {
        wgs_params rec = {.reduce = base};
        po = wgs__param_push(ctx, &rec);
        wgs__dispatch(ctx, pass, p->init, &accb, 1, &rec, po, 1, NULL);
    }
    uint64_t per_group = (uint64_t)4 * p->wg * p->items;
    for (uint64_t c = 0; c < chunks; c++) {
        uint64_t first = c * p->chunk_elems, len = a->n - first < p->chunk_elems ? a->n - first : p->chunk_elems;
        uint64_t groups = wgs__div_up(len, per_group);
        if (groups > p->groups_max) groups = p->groups_max;
        wgs_params rec = {.reduce = base};
        rec.reduce.n = (uint32_t)len;
        rec.reduce.tile_base = (uint32_t)partials;
        rec.reduce.first = (uint32_t)first;
        rec.reduce.groups = (uint32_t)groups;
        po = wgs__param_push(ctx, &rec);
        gpu_binding b[3];
        wgs__bind_vec4_input(ctx, b, a->input, a->input_offset + first * 4, len);
        b[2] = atomic ? accb : (gpu_binding){3, p->partials, 0, wgs__gpu_buffer_size(ctx->gpu, p->partials)};
        wgs__count_rule rule = wgs__count_follow(first, per_group);
        rule.ops[0] = (wgs__count_op){WGS_COUNT_OP_DIV_UP, 7, (uint32_t)per_group, 0}; /* groups */
        wgs__dispatch(ctx, pass, p->main, b, 3, &rec, po, groups, &rule);
        partials += groups;
    }
    wgs_params fin = {.reduce = base};
    fin.reduce.n = (uint32_t)partials;
    po = wgs__param_push(ctx, &fin);
    gpu_binding fb[2] = {{1, a->output, a->output_offset, p->result_bytes},
                         atomic ? accb : (gpu_binding){3, p->partials, 0, wgs__gpu_buffer_size(ctx->gpu, p->partials)}};
    wgs__count_rule fin_rule = {.unit = 0, .ops = {{WGS_COUNT_OP_SUM, 0, 7, (uint32_t)chunks}}};
    wgs__dispatch(ctx, pass, p->final_, fb, 2, &fin, po, 1, &fin_rule);
    r = wgs__dispatch_end(ctx, pass);
    wgs__gpu_pass_end(ctx->gpu, pass);
    wgs_result rs = wgs__scope_end(ctx, "recording the reduction");
    return r != WGS_OK ? r : rs;
}
