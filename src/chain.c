/* SPDX-License-Identifier: MIT */
/*
 * chain.c: the host side of chained passes (see chain.h).
 */
#include "chain.h"

uint64_t wgs__chain_state_bytes(uint64_t tiles, uint32_t words) { return (1 + 2 * (uint64_t)words * tiles) * 4; }

int wgs__chain_subgroups(const wgs_context_info *ci, uint32_t wg) {
    return ci->has_subgroups && ci->subgroup_min_size >= 4 && ci->subgroup_max_size <= wg;
}

void wgs__chain_spec(const wgs_context *ctx, wgs_kernel_spec *spec) {
    spec->chained = 1;
    /* A user's operator: portable tiles here, for the primitives whose subgroup kernels
     * are not yet checked for a non-commutative order (the scan takes its row tiles,
     * which move a T as its words: scan.c), and its look-back folded in tile order
     * (deterministic, and the order a non-commutative operator needs). */
    spec->subgroups = !spec->custom && wgs__chain_subgroups(&ctx->caps.info, spec->wg);
    if (spec->custom) spec->ordered_lookback = 1;
    spec->max_spins = ctx->exp.lookback_spins ? ctx->exp.lookback_spins : 16;
    spec->lookback_per_lane = ctx->exp.lookback_per_lane ? ctx->exp.lookback_per_lane : 1;
    spec->withhold_inclusive = ctx->exp.chain_withhold_inclusive;
    spec->withhold_first = ctx->exp.chain_withhold_first;
}

wgs_result wgs__chain_create(wgs_context *ctx, const wgs_kernel_spec *spec, uint64_t max_tiles,
                             const char *label, wgs__chain *c) {
    wgs_kernel_spec reset = *spec;
    reset.entry = "reset_state";
    c->max_tiles = max_tiles;
    c->reset_wg = spec->wg;
    c->value_words = spec->custom ? spec->custom->words : 1;
    wgs_result r = wgs__pipeline(ctx, &reset, &c->reset);
    if (r != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    c->state = wgs__gpu_buffer_create(ctx->gpu, wgs__chain_state_bytes(max_tiles, c->value_words), WGPUBufferUsage_Storage, label);
    return wgs__scope_end(ctx, "allocating tile states");
}

void wgs__chain_release(wgs_context *ctx, wgs__chain *c) {
    wgs__gpu_buffer_release(ctx->gpu, c->state);
    c->state = NULL;
}

gpu_binding wgs__chain_binding(const wgs__chain *c, uint64_t tiles) {
    return (gpu_binding){3, c->state, 0, wgs__chain_state_bytes(tiles, c->value_words)};
}

void wgs__chain_reset(wgs_context *ctx, WGPUComputePassEncoder pass, const wgs__chain *c, uint64_t tiles) {
    /* reset_state zeroes its binding with a grid-stride loop: one row of workgroups, at
     * most the dimension's limit, covers any count. */
    gpu_binding b = wgs__chain_binding(c, tiles);
    uint64_t groups = wgs__div_up(b.size / 4, c->reset_wg);
    uint64_t max_dim = ctx->caps.info.max_workgroups_per_dimension;
    wgs__dispatch(ctx, pass, c->reset, &b, 1, NULL, 0, groups < max_dim ? groups : max_dim, NULL);
}
