/* SPDX-License-Identifier: MIT */
/*
 * scan_by_key.c: the scan by key (kernel in wgsl/device/scan_by_key.wgsl). One chained
 * pass, the chain of the single-pass scan (chain.h): per encode
 *   reset_state   the tile counter and states zeroed
 *   scan_by_key   per tile: heads and values loaded, the tile's segmented scan, the
 *                 look-back (closed tiles, those holding a segment start, published
 *                 inclusive at once), the tile stored
 * The values, keys and output each fit one binding, so there are no chunks.
 */
#include "chain.h"
#include "tuning.h"

#include <stdlib.h>
#include <string.h>

struct wgs_scan_by_key_plan {
    wgs_context *ctx;
    wgs_type type;
    wgs_segment_heads heads;
    uint64_t capacity;
    uint32_t es;         /* value bytes */
    uint32_t word_elems; /* the output's word view ends at a multiple of this many elements */
    uint32_t wg, items;
    WGPUComputePipeline scan;
    wgs__chain chain;
};

/* Workgroup memory: the segmented scan's tables (12 bytes an entry: per (row, subgroup
 * of 4 lanes or more) with subgroups, per invocation and per row without), the
 * workgroup scan's of the look-back, a few words. */
static uint64_t tile_storage(uint32_t wg, uint32_t items, const void *arg) {
    const wgs_context_info *ci = arg;
    uint64_t rows = items / 4;
    uint64_t scan = wgs__chain_subgroups(ci, wg) ? 12 * rows * ((wg + 3) / 4) + 16 : 12ull * wg + 16 * rows;
    return scan + 4ull * (wg + wg / 32 + 64) + 64;
}

static wgs_scan_by_key_plan_desc desc_defaults(const wgs_scan_by_key_plan_desc *d) {
    wgs_scan_by_key_plan_desc r = *d;
    if (r.type == WGS_TYPE_DEFAULT) r.type = WGS_TYPE_U32;
    if (r.op == WGS_OP_DEFAULT) r.op = WGS_OP_ADD;
    if (r.kind == WGS_SCAN_DEFAULT) r.kind = WGS_SCAN_EXCLUSIVE;
    if (r.heads == WGS_HEADS_DEFAULT) r.heads = WGS_HEADS_KEYS;
    if (r.key_type == WGS_TYPE_DEFAULT) r.key_type = WGS_TYPE_U32;
    if (r.capacity == 0) r.capacity = 1;
    return r;
}

static wgs_result desc_validate(wgs_context *ctx, const wgs_scan_by_key_plan_desc *d) {
    wgs_result r = wgs__check_type_op(ctx, d->type, d->op);
    if (r != WGS_OK) return r;
    WGS_FAIL_IF(ctx, (unsigned)d->kind > WGS_SCAN_INCLUSIVE, WGS_ERROR_INVALID_ARGUMENT, "unknown scan kind %d",
                (int)d->kind);
    WGS_FAIL_IF(ctx, (unsigned)d->heads > WGS_HEADS_FLAGS, WGS_ERROR_INVALID_ARGUMENT, "unknown segment heads %d",
                (int)d->heads);
    WGS_FAIL_IF(ctx, d->key_type != WGS_TYPE_U32 && d->key_type != WGS_TYPE_I32, WGS_ERROR_UNSUPPORTED_TYPE,
                "keys are u32 or i32, not type %d", (int)d->key_type);
    uint64_t bind = ctx->caps.info.max_storage_binding_size;
    WGS_FAIL_IF(ctx, d->capacity >= (1ull << 31) || wgs__mul_sat(d->capacity, 4) > bind, WGS_ERROR_TOO_LARGE,
                "capacity %llu: the values, keys and output must each fit one binding of %llu bytes, and n "
                "stays below 2^31",
                (unsigned long long)d->capacity, (unsigned long long)bind);
    return WGS_OK;
}

static void plan_release(wgs_scan_by_key_plan *p) { wgs__chain_release(p->ctx, &p->chain); }

wgs_result wgs_scan_by_key_plan_create(wgs_context *ctx, const wgs_scan_by_key_plan_desc *user_desc,
                                       wgs_scan_by_key_plan **out) {
    WGS_CREATE_BEGIN(ctx, user_desc, out);
    const wgs_scan_by_key_plan_desc d = desc_defaults(user_desc);
    wgs_result r = desc_validate(ctx, &d);
    if (r != WGS_OK) return r;
    wgs_tile_shape s;
    r = wgs__shape(ctx, "scan_by_key", ctx->exp.scan_by_key, wgs__tuning_of(ctx)->scan_by_key, 4, 64,
                   tile_storage, &ctx->caps.info, &s);
    if (r != WGS_OK) return r;
    wgs_scan_by_key_plan *p = calloc(1, sizeof *p);
    WGS_FAIL_IF(ctx, !p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the plan");
    p->ctx = ctx;
    p->type = d.type;
    p->heads = d.heads;
    p->capacity = d.capacity;
    p->es = d.type == WGS_TYPE_F16 ? 2 : 4;
    p->wg = s.wg;
    p->items = s.items;
    /* The output's tail binding starts where its word view ends: at an offset aligned
     * for both the values and the 4-byte keys. */
    uint32_t align = ctx->caps.info.min_storage_offset_alignment < 16 ? 16 : ctx->caps.info.min_storage_offset_alignment;
    p->word_elems = align / p->es;

    wgs_kernel_spec spec = {.file = "device/scan_by_key.wgsl", .entry = "scan_by_key",
                            .primitive = 1, .value_type = d.type, .params = WGS_PARAMS_KIND_SCAN,
                            .consts = {{"ARG", 0}, {"BYKEY_FLAGS", d.heads == WGS_HEADS_FLAGS}},
                            .type = d.type, .op = d.op, .inclusive = d.kind == WGS_SCAN_INCLUSIVE,
                            .wg = p->wg, .items = p->items};
    wgs__chain_spec(ctx, &spec);
    spec.ordered_lookback = 1; /* float results bit-identical run to run */
    spec.helper = spec.subgroups ? "element/acc.wgsl element/segment_entry.wgsl workgroup/segmented_scan_subgroup.wgsl "
                                   "workgroup/segmented_chain_subgroup.wgsl"
                                 : "element/acc.wgsl element/segment_entry.wgsl workgroup/segmented_scan_workgroup.wgsl "
                                   "workgroup/segmented_chain_workgroup.wgsl";
    r = wgs__pipeline(ctx, &spec, &p->scan);
    if (r == WGS_OK)
        r = wgs__chain_create(ctx, &spec, wgs__div_up(p->capacity, (uint64_t)p->wg * p->items),
                              "wgscan scan by key tile states", &p->chain);
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

void wgs_scan_by_key_plan_destroy(wgs_scan_by_key_plan *p) {
    if (!p) return;
    plan_release(p);
    p->ctx->live_plans--;
    free(p);
}

uint64_t wgs_scan_by_key_plan_scratch_size(const wgs_scan_by_key_plan *p) {
    return p ? wgs__chain_state_bytes(p->chain.max_tiles) : 0;
}

uint32_t wgs_scan_by_key_plan_tile_size(const wgs_scan_by_key_plan *p) { return p ? p->wg * p->items : 0; }

/* Bytes of `count` values (f16 bindings are whole 4-byte words). */
static uint64_t value_bytes(const wgs_scan_by_key_plan *p, uint64_t count) {
    return wgs__round_up(count * p->es, 4);
}

wgs_result wgs_scan_by_key_encode(wgs_scan_by_key_plan *p, WGPUCommandEncoder encoder,
                                  const wgs_scan_by_key_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK) return r;
    const uint64_t n = a->n;
    const int flags = p->heads == WGS_HEADS_FLAGS;
    WGPUBuffer heads = flags ? a->flags : a->keys;
    uint64_t heads_offset = flags ? a->flags_offset : a->keys_offset;
    uint64_t heads_bytes = flags ? wgs__round_up(n, 4) : n * 4;
    if ((r = wgs__check_buffer(ctx, a->input, a->input_offset, value_bytes(p, n), "input")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, heads, heads_offset, heads_bytes, flags ? "flags" : "keys")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->output, a->output_offset, value_bytes(p, n), "output")) != WGS_OK) return r;
    WGS_FAIL_IF(ctx, a->output == a->input || a->output == heads, WGS_ERROR_ALIASING,
                "the output needs a buffer of its own (the fallback rereads the values and the %s)",
                flags ? "flags" : "keys");
    if (n == 0) return WGS_OK;

    const uint64_t tiles = wgs__div_up(n, (uint64_t)p->wg * p->items);
    const uint64_t words = n / p->word_elems * p->word_elems / 4; /* the output's word view */
    wgs_params rec = {.scan = {.n = (uint32_t)n, .words = (uint32_t)words}};
    if ((r = wgs__params_reserve(ctx, 1)) != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    WGPUComputePassEncoder pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                      a->timestamp_begin_index, a->timestamp_end_index);
    uint64_t po = wgs__param_push(ctx, &rec);
    wgs__chain_reset(ctx, pass, &p->chain, tiles);
    const uint64_t word_bytes = words * 4 * p->es;
    gpu_binding b[8];
    uint32_t nb = 0;
    b[nb++] = wgs__binding_or_dummy(ctx, 0, a->input, a->input_offset, n / 4 * 4 * p->es, 0);
    b[nb++] = (gpu_binding){4, a->input, a->input_offset, value_bytes(p, n)};
    /* With flags the kernel reads 9 alone; 8 still belongs to its layout. */
    b[nb++] = wgs__binding_or_dummy(ctx, 8, heads, heads_offset, flags ? 0 : n / 4 * 16, 0);
    b[nb++] = (gpu_binding){9, heads, heads_offset, heads_bytes};
    b[nb++] = wgs__binding_or_dummy(ctx, 1, a->output, a->output_offset, word_bytes, 1);
    b[nb++] = wgs__binding_or_dummy(ctx, 5, a->output, a->output_offset + word_bytes,
                                    value_bytes(p, n) - word_bytes, 1);
    b[nb++] = wgs__chain_binding(&p->chain, tiles);
    wgs__dispatch(ctx, pass, p->scan, b, nb, ctx->param_ring, po, tiles);
    wgs__gpu_pass_end(ctx->gpu, pass);
    return wgs__scope_end(ctx, "recording the scan by key");
}
