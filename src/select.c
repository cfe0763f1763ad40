/* SPDX-License-Identifier: MIT */
/*
 * select.c: select, partition, unique and run-length plans (kernels in
 * wgsl/device/select.wgsl). Per encode, single pass:
 *   reset_state, select_single_pass   tile states zeroed, then one chained pass
 *   (run_lengths for RUN_LENGTH)
 * or three passes (the default, and every partition):
 *   pass 1  select_count_flags  counts of groups of tiles into group_sums, flags as bits
 *           (or select_clear, select_count: the other modes)
 *   scan    the plan's u32 inclusive scan of the group counts, in place
 *   pass 2  select_scatter   a workgroup per group (and run_lengths for RUN_LENGTH)
 */
#include "chain.h"
#include "tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct wgs_select_plan {
    wgs_context *ctx;
    uint64_t scratch_bytes; /* the GPU memory it holds, inner plans' included */
    wgs_type type;
    wgs_select_mode mode;
    wgs_payload payload;
    uint32_t flags, pred_a, pred_b;
    uint64_t capacity;
    uint32_t wg, items, tile;
    uint32_t group_tiles; /* at most this many tiles per workgroup of select_scatter */
    int group_forced;     /* an experiment fixed group_tiles whatever the size */
    int do_count, do_scan, do_scatter; /* all 1 unless an experiment times one phase */
    int single_pass;
    WGPUComputePipeline count, clear, scatter, lengths, empty, sp;
    wgs_scan_plan *scan;           /* three passes */
    WGPUBuffer group_sums, starts; /* group_sums: one count per group of tiles */
    WGPUBuffer bits;               /* FLAGGED, three passes: the flags as bits */
    wgs__chain chain;              /* single pass */
};

static void plan_release(wgs_select_plan *p) {
    wgs_scan_plan_destroy(p->scan);
    wgs__gpu_buffer_release(p->ctx->gpu, p->group_sums);
    wgs__gpu_buffer_release(p->ctx->gpu, p->starts);
    wgs__gpu_buffer_release(p->ctx->gpu, p->bits);
    wgs__chain_release(p->ctx, &p->chain);
}

/* Workgroup memory of a select tile: the ranked tile, twice, and the kernels' scratch. */
static uint64_t select_storage(uint32_t wg, uint32_t items, const void *arg) {
    (void)arg;
    return (uint64_t)wg * items * 4 * 2 + 4096;
}

/* Zero fields take their defaults here, once; then the description is checked as a
 * whole. */
static wgs_select_plan_desc desc_defaults(const wgs_select_plan_desc *d) {
    wgs_select_plan_desc r = *d;
    if (r.type == WGS_TYPE_DEFAULT) r.type = WGS_TYPE_U32;
    if (r.mode == WGS_SELECT_DEFAULT) r.mode = WGS_SELECT_FLAGGED;
    if (r.capacity == 0) r.capacity = 1;
    return r;
}

static wgs_result desc_validate(wgs_context *ctx, const wgs_select_plan_desc *d) {
    const wgs_context_info *ci = &ctx->caps.info;
    WGS_FAIL_IF(ctx, d->type == WGS_TYPE_F16 || (unsigned)d->type > WGS_TYPE_F32, WGS_ERROR_UNSUPPORTED_TYPE,
                "select takes u32, i32 and f32, not %s", wgs_type_name(d->type));
    WGS_FAIL_IF(ctx, (unsigned)d->mode > WGS_SELECT_RUN_LENGTH, WGS_ERROR_INVALID_ARGUMENT, "unknown select mode %d",
                (int)d->mode);
    WGS_FAIL_IF(ctx, (unsigned)d->payload > WGS_PAYLOAD_INDEX, WGS_ERROR_INVALID_ARGUMENT,
                "unknown payload kind %d", (int)d->payload);
    int heads = d->mode == WGS_SELECT_UNIQUE || d->mode == WGS_SELECT_RUN_LENGTH;
    WGS_FAIL_IF(ctx, heads && d->partition, WGS_ERROR_INVALID_ARGUMENT, "unique and run-length plans do not partition");
    WGS_FAIL_IF(ctx, d->mode == WGS_SELECT_RUN_LENGTH && d->payload, WGS_ERROR_INVALID_ARGUMENT,
                "run-length plans write the lengths to payload_out; they take no payload");
    WGS_FAIL_IF(ctx, (unsigned)d->algorithm > WGS_SELECT_ALGORITHM_THREE_PASS, WGS_ERROR_INVALID_ARGUMENT,
                "unknown select algorithm %d", (int)d->algorithm);
    WGS_FAIL_IF(ctx, d->algorithm == WGS_SELECT_ALGORITHM_SINGLE_PASS && d->partition, WGS_ERROR_INVALID_ARGUMENT,
                "a single-pass select cannot partition (the rejected elements need the total first)");
    WGS_FAIL_IF(ctx, d->capacity > ci->max_storage_binding_size / 4 || d->capacity > 0xFFFFFFFFull,
                WGS_ERROR_TOO_LARGE, "select capacity %llu exceeds one storage binding (%llu bytes) or 2^32 - 1",
                (unsigned long long)d->capacity, (unsigned long long)ci->max_storage_binding_size);
    return WGS_OK;
}

wgs_result wgs_select_plan_create(wgs_context *ctx, const wgs_select_plan_desc *user_desc, wgs_select_plan **out) {
    WGS_CREATE_BEGIN(ctx, user_desc, out);
    const wgs_select_plan_desc d = desc_defaults(user_desc), *desc = &d;
    wgs_result r = desc_validate(ctx, desc);
    if (r != WGS_OK) return r;
    wgs_type type = desc->type;
    wgs_select_mode mode = desc->mode;
    uint32_t kind = 0, pa = 0, pb = 0;
    if (mode == WGS_SELECT_IF && (r = wgs__predicate_bits(ctx, type, &desc->predicate, &kind, &pa, &pb)) != WGS_OK)
        return r;
    const wgs_context_info *ci = &ctx->caps.info;
    uint64_t capacity = desc->capacity;

    wgs_select_plan *p = calloc(1, sizeof *p);
    WGS_FAIL_IF(ctx, !p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the select plan");
    p->ctx = ctx;
    p->type = type;
    p->mode = mode;
    p->payload = mode == WGS_SELECT_RUN_LENGTH ? WGS_PAYLOAD_INDEX : desc->payload;
    p->capacity = capacity;
    p->pred_a = pa;
    p->pred_b = pb;
    p->flags = (mode == WGS_SELECT_FLAGGED ? WGS_MODE_FLAGGED : mode == WGS_SELECT_IF ? WGS_MODE_IF : WGS_MODE_HEADS) |
               (desc->partition ? WGS_FLAG_PARTITION : 0u) |
               (p->payload == WGS_PAYLOAD_BUFFER ? WGS_FLAG_PAYLOAD : 0u) |
               (p->payload == WGS_PAYLOAD_INDEX ? WGS_FLAG_PAYLOAD_INDEX : 0u) | kind << 8;
    const wgs__tuning *tu = wgs__tuning_of(ctx);
    p->single_pass = desc->algorithm == WGS_SELECT_ALGORITHM_SINGLE_PASS ||
                     (desc->algorithm == WGS_SELECT_ALGORITHM_DEFAULT && !desc->partition &&
                      capacity <= tu->select_single_pass_auto);
    /* The single pass's bigger tile where the device holds it, else the three passes'. */
    wgs_tile_shape shape = tu->select;
    if (p->single_pass && select_storage(tu->select_single_pass.wg, tu->select_single_pass.items, NULL) <=
                              ci->max_workgroup_storage_size &&
        tu->select_single_pass.wg <= ci->max_invocations_per_workgroup)
        shape = tu->select_single_pass;
    r = wgs__shape(ctx, "select", ctx->exp.select, shape, 8, 16, select_storage, NULL, &shape);
    uint32_t group = 0;
    if (r == WGS_OK)
        r = wgs__tuned_pow2(ctx, "select_group_tiles", ctx->exp.select_group_tiles, tu->select_group_tiles, 16, &group);
    if (r != WGS_OK) {
        free(p);
        return r;
    }
    p->wg = shape.wg;
    p->items = shape.items;
    p->tile = p->wg * p->items;
    p->group_tiles = group;
    p->group_forced = ctx->exp.select_group_tiles != 0;
    uint32_t phases = ctx->exp.select_phases ? ctx->exp.select_phases : 7u;
    p->do_count = (phases & WGS_EXPERIMENTAL_PHASE_COUNT) != 0;
    p->do_scan = (phases & WGS_EXPERIMENTAL_PHASE_SCAN) != 0;
    p->do_scatter = (phases & WGS_EXPERIMENTAL_PHASE_SCATTER) != 0;
    /* Every entry of select.wgsl sees the single pass's look-back (the module is one). */
    wgs_kernel_spec spec = {.file = "device/select.wgsl", .helper = "element/predicate.wgsl",
                            .primitive = 1, .value_type = type, .type = WGS_TYPE_U32,
                            .op = WGS_OP_ADD, .wg = p->wg, .items = p->items,
                            .params = WGS_PARAMS_KIND_SELECT, .consts = {{"SEL_FLAGS", p->flags}}};
    wgs__chain_spec(ctx, &spec);
    uint64_t tiles = wgs__div_up(capacity, p->tile);
    if (p->single_pass) {
        spec.entry = "select_single_pass";
        r = wgs__pipeline(ctx, &spec, &p->sp);
        if (r == WGS_OK) r = wgs__chain_create(ctx, &spec, tiles, "wgscan select tile states", &p->chain);
    } else {
        spec.entry = mode == WGS_SELECT_FLAGGED ? "select_count_flags" : "select_count";
        r = wgs__pipeline(ctx, &spec, &p->count);
        spec.entry = "select_clear";
        if (r == WGS_OK && mode != WGS_SELECT_FLAGGED) r = wgs__pipeline(ctx, &spec, &p->clear);
        spec.entry = "select_scatter";
        if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->scatter);
    }
    spec.entry = "run_lengths";
    if (r == WGS_OK && mode == WGS_SELECT_RUN_LENGTH) r = wgs__pipeline(ctx, &spec, &p->lengths);
    spec.entry = "select_empty";
    if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->empty);
    wgs_scan_plan_desc sd = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .kind = WGS_SCAN_INCLUSIVE,
                             .algorithm = WGS_SCAN_ALGORITHM_MULTILEVEL, .capacity = tiles,
                             .label = "wgscan select group sums"};
    if (r == WGS_OK && !p->single_pass) r = wgs_scan_plan_create(ctx, &sd, &p->scan);
    if (r == WGS_OK) {
        const uint64_t bits = mode == WGS_SELECT_FLAGGED ? wgs__div_up(capacity, 32) * 4 : 256;
        p->scratch_bytes = (p->single_pass ? wgs__chain_state_bytes(p->chain.max_tiles, p->chain.value_words)
                                           : wgs_scan_plan_scratch_size(p->scan) + tiles * 4 + bits) +
                           (mode == WGS_SELECT_RUN_LENGTH ? capacity * 4 : 0);
        wgs__gpu_scope_push(ctx->gpu);
        if (!p->single_pass) /* as many sums as tiles: the groups of small inputs hold one tile */
            p->group_sums = wgs__gpu_buffer_create(ctx->gpu, tiles * 4, WGPUBufferUsage_Storage, "wgscan select group sums");
        /* (a placeholder of its own in the other modes: the scatter's writable bindings
         * may not share the context's one) */
        if (!p->single_pass)
            p->bits = wgs__gpu_buffer_create(ctx->gpu, bits, WGPUBufferUsage_Storage, "wgscan select flag bits");
        if (mode == WGS_SELECT_RUN_LENGTH)
            p->starts = wgs__gpu_buffer_create(ctx->gpu, capacity * 4, WGPUBufferUsage_Storage, "wgscan run starts");
        r = wgs__scope_end(ctx, "allocating the select plan's scratch");
    }
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

uint64_t wgs_select_plan_scratch_size(const wgs_select_plan *p) { return p ? p->scratch_bytes : 0; }

void wgs_select_plan_destroy(wgs_select_plan *p) {
    if (!p) return;
    plan_release(p);
    wgs__plan_gone(p->ctx);
    free(p);
}

static wgs_result check_args(wgs_select_plan *p, const wgs_select_args *a) {
    wgs_context *ctx = p->ctx;
    uint64_t n = a->n, bytes = n * 4;
    wgs_result r;
    if ((r = wgs__check_buffer(ctx, a->input, a->input_offset, bytes, "input")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->output, a->output_offset, bytes, "output")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->count, a->count_offset, 4, "count")) != WGS_OK) return r;
    if (p->mode == WGS_SELECT_FLAGGED &&
        (r = wgs__check_buffer(ctx, a->flags, a->flags_offset, wgs__round_up(n, 4), "flags")) != WGS_OK)
        return r;
    if (p->payload == WGS_PAYLOAD_BUFFER &&
        (r = wgs__check_buffer(ctx, a->payload_in, a->payload_in_offset, bytes, "payload_in")) != WGS_OK)
        return r;
    if (p->payload != WGS_PAYLOAD_NONE &&
        (r = wgs__check_buffer(ctx, a->payload_out, a->payload_out_offset, bytes, "payload_out")) != WGS_OK)
        return r;
    WGPUBuffer ins[3] = {a->input, p->mode == WGS_SELECT_FLAGGED ? a->flags : NULL,
                         p->payload == WGS_PAYLOAD_BUFFER ? a->payload_in : NULL};
    WGPUBuffer outs[3] = {a->output, a->count, p->payload != WGS_PAYLOAD_NONE ? a->payload_out : NULL};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            WGS_FAIL_IF(ctx, ins[i] && ins[i] == outs[j], WGS_ERROR_ALIASING,
                        "select writes to a buffer it reads (outputs must be other buffers)");
            WGS_FAIL_IF(ctx, j > i && outs[j] && outs[i] == outs[j], WGS_ERROR_ALIASING,
                        "select's outputs must be separate buffers");
        }
    }
    return WGS_OK;
}

/* A dispatch of `groups` workgroups with the record `rec` (at po); with the count on
 * the GPU, n and tiles follow the count and the grid takes `per` elements a workgroup. */
static void dispatch(wgs_select_plan *p, WGPUComputePassEncoder pass, WGPUComputePipeline pipe, const gpu_binding *b,
                     uint32_t nb, const wgs_params *rec, uint64_t po, uint64_t groups, uint64_t per) {
    wgs__count_rule rule = wgs__count_follow(0, per);
    rule.ops[0] = (wgs__count_op){WGS_COUNT_OP_DIV_UP, 6, p->tile, 0}; /* tiles */
    wgs__dispatch(p->ctx, pass, pipe, b, nb, rec, po, groups, &rule);
}

/* With the count on the GPU: a count of 0 runs no pass, so the count output is zeroed
 * first, as an encode of n = 0 does. */
static void count_zero(wgs_select_plan *p, WGPUComputePassEncoder pass, gpu_binding count_b) {
    static const wgs__count_rule counted = {.only_counted = 1};
    wgs__dispatch(p->ctx, pass, p->empty, &count_b, 1, NULL, 0, 1, &counted);
}

/* The three passes' first two: group counts (FLAGGED reads only the flags and writes
 * them as bits for the scatter, the other modes read the values), then their scan; the
 * scatter follows in the caller's pass. */
static wgs_result record_three_passes(wgs_select_plan *p, WGPUCommandEncoder encoder, const wgs_select_args *a,
                                      uint64_t po, const wgs_params *rec, const gpu_binding in[2],
                                      gpu_binding flags_b, gpu_binding sums_b, gpu_binding bits_b,
                                      gpu_binding count_b, uint64_t tiles, uint32_t group) {
    uint64_t groups = wgs__div_up(tiles, group);
    wgs_context *ctx = p->ctx;
    WGPUComputePassEncoder pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                 a->timestamp_begin_index, 0xFFFFFFFFu);
    wgs__dispatch_begin(ctx, a->n_buffer, a->n_offset, a->n);
    count_zero(p, pass, count_b);
    if (p->mode == WGS_SELECT_FLAGGED) {
        /* The flags alone: as 16-byte words up to the last whole one, and as 4-byte words. */
        uint64_t whole = a->n / 16 * 16;
        gpu_binding b1[4] = {flags_b, {9, whole ? a->flags : wgs__dummy(ctx), whole ? a->flags_offset : 0,
                                       whole ? whole : 256}, sums_b, bits_b};
        if (p->do_count)
            dispatch(p, pass, p->count, b1, 4, rec, po, wgs__div_up(tiles, WGS_FLAG_TILES),
                     (uint64_t)p->tile * WGS_FLAG_TILES);
    } else {
        gpu_binding b1[4] = {in[0], in[1], flags_b, sums_b};
        if (p->do_count) {
            if (group > WGS_COUNT_TILES) /* groups span workgroups: their counts are added */
                dispatch(p, pass, p->clear, &sums_b, 1, rec, po, wgs__div_up(groups, p->wg),
                         (uint64_t)p->tile * group * p->wg);
            dispatch(p, pass, p->count, b1, 4, rec, po, wgs__div_up(tiles, WGS_COUNT_TILES),
                     (uint64_t)p->tile * WGS_COUNT_TILES);
        }
    }
    wgs_result r = wgs__dispatch_end(ctx, pass);
    wgs__gpu_pass_end(ctx->gpu, pass);
    /* With the count on the GPU, the bound's groups are scanned: those past the count's
     * hold stale sums that no scatter reads. */
    wgs_scan_args sa = {.input = p->group_sums, .output = p->group_sums, .n = groups};
    if (r == WGS_OK && p->do_scan) r = wgs_scan_encode(p->scan, encoder, &sa);
    if (r != WGS_OK) wgs__scope_end(ctx, "recording the select");
    return r;
}

/* Tiles per group, a power of two up to group_tiles (16 at most: select_count_flags's
 * workgroups hold whole groups): the smallest that leaves at most SCAN_ONE_DISPATCH
 * groups, whose sums the multi-level scan takes in one dispatch on GPUs (one tile of
 * 256 x 8). Small inputs thus keep most of their tiles in flight at once, and no size
 * pays for scan levels it could avoid. */
#define SCAN_ONE_DISPATCH 2048u
static uint32_t tile_group(const wgs_select_plan *p, uint64_t tiles) {
    if (p->group_forced) return p->group_tiles;
    uint32_t g = 1;
    while (g < p->group_tiles && wgs__div_up(tiles, g) > SCAN_ONE_DISPATCH) g *= 2;
    return g;
}

wgs_result wgs_select_encode(wgs_select_plan *p, WGPUCommandEncoder encoder, const wgs_select_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK || (r = check_args(p, a)) != WGS_OK) return r;
    const uint32_t none = 0xFFFFFFFFu; /* WGPU_QUERY_SET_INDEX_UNDEFINED */
    uint64_t n = a->n, tiles = wgs__div_up(n, p->tile);
    uint32_t group = tile_group(p, tiles);
    uint64_t groups = wgs__div_up(tiles, group);
    wgs_params rec = {.select = {.n = (uint32_t)n, .flags = p->flags, .pred_a = p->pred_a, .pred_b = p->pred_b,
                                 .group_tiles = group, .tiles = (uint32_t)tiles}};
    if (a->predicate && p->mode == WGS_SELECT_IF &&
        (r = wgs__predicate_override(ctx, p->type, (p->flags >> 8) & 15u, a->predicate, &rec.select.pred_a, &rec.select.pred_b)) != WGS_OK)
        return r;
    gpu_binding count_b = {8, a->count, a->count_offset, 4};
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK) return r;
    if ((r = wgs__params_reserve(ctx, 1)) != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    uint64_t po = wgs__param_push(ctx, &rec);
    if (n == 0) {
        WGPUComputePassEncoder pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                     a->timestamp_begin_index, a->timestamp_end_index);
        wgs__dispatch(ctx, pass, p->empty, &count_b, 1, NULL, 0, 1, NULL);
        wgs__gpu_pass_end(ctx->gpu, pass);
        return wgs__scope_end(ctx, "recording the select");
    }
    gpu_binding in[2];
    wgs__bind_vec4_input(ctx, in, a->input, a->input_offset, n);
    gpu_binding flags_b = wgs__binding_or_dummy(ctx, 5, a->flags, a->flags_offset,
                                                p->mode == WGS_SELECT_FLAGGED ? wgs__round_up(n, 4) : 0, 0);
    gpu_binding sums_b = {3, p->group_sums, 0, groups * 4};
    WGPUBuffer pay_out = p->mode == WGS_SELECT_RUN_LENGTH ? p->starts : a->payload_out;
    uint64_t pay_out_off = p->mode == WGS_SELECT_RUN_LENGTH ? 0 : a->payload_out_offset;
    gpu_binding outs[4] = {
        {1, a->output, a->output_offset, n * 4},
        wgs__binding_or_dummy(ctx, 6, a->payload_in, a->payload_in_offset, p->payload == WGS_PAYLOAD_BUFFER ? n * 4 : 0, 0),
        wgs__binding_or_dummy(ctx, 7, pay_out, pay_out_off, p->payload != WGS_PAYLOAD_NONE ? n * 4 : 0, 1),
        count_b,
    };
    WGPUComputePassEncoder pass;
    if (p->single_pass) {
        gpu_binding state_b = wgs__chain_binding(&p->chain, tiles);
        pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set, a->timestamp_begin_index,
                              a->timestamp_end_index);
        wgs__dispatch_begin(ctx, a->n_buffer, a->n_offset, n);
        count_zero(p, pass, count_b);
        wgs__chain_reset(ctx, pass, &p->chain, tiles);
        gpu_binding b[8] = {in[0], in[1], flags_b, state_b, outs[0], outs[1], outs[2], outs[3]};
        dispatch(p, pass, p->sp, b, 8, &rec, po, tiles, p->tile);
    } else {
        gpu_binding bits_b = {10, p->bits, 0, p->mode == WGS_SELECT_FLAGGED ? wgs__div_up(n, 32) * 4 : 256};
        if ((r = record_three_passes(p, encoder, a, po, &rec, in, flags_b, sums_b, bits_b, count_b, tiles,
                                     group)) != WGS_OK)
            return r;
        pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set, none, a->timestamp_end_index);
        wgs__dispatch_begin(ctx, a->n_buffer, a->n_offset, n);
        gpu_binding b2[8] = {in[0], in[1], sums_b, bits_b, outs[0], outs[1], outs[2], outs[3]};
        if (p->do_scatter) dispatch(p, pass, p->scatter, b2, 8, &rec, po, groups, (uint64_t)p->tile * group);
    }
    if (p->mode == WGS_SELECT_RUN_LENGTH) {
        gpu_binding b3[3] = {{6, p->starts, 0, n * 4}, {7, a->payload_out, a->payload_out_offset, n * 4}, count_b};
        dispatch(p, pass, p->lengths, b3, 3, &rec, po, wgs__div_up(n, p->wg), p->wg);
    }
    r = wgs__dispatch_end(ctx, pass);
    wgs__gpu_pass_end(ctx->gpu, pass);
    wgs_result rs = wgs__scope_end(ctx, "recording the select");
    return r != WGS_OK ? r : rs;
}
