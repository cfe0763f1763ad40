/* SPDX-License-Identifier: MIT */
/*
 * chain.h: what every chained pass shares. A chained pass (the single-pass scan and
 * select, the scan by key and the segmented scan) claims tiles in order, publishes each
 * tile's aggregate in a tile-state buffer and looks back over its predecessors' states,
 * reducing a stalled predecessor's tile itself after a few fruitless steps (decoupled
 * look-back with decoupled fallback: WebGPU promises no forward progress between
 * workgroups, so no tile may wait on another forever).
 *
 * The WGSL side is workgroup/tile_state.wgsl and one look-back file; the kernel that
 * includes them provides its tile's aggregate and a predecessor's aggregate read from
 * the input (see the look-back files). A new chained primitive needs its tile kernel,
 * a wgs__chain, wgs__chain_spec for its pipelines and wgs__chain_reset per encode.
 */
#ifndef WGS_CHAIN_H
#define WGS_CHAIN_H

#include "internal.h"

typedef struct wgs__chain {
    WGPUBuffer state;   /* the tile counter, then 2 * value_words words per tile */
    uint64_t max_tiles; /* tiles the state buffer holds */
    WGPUComputePipeline reset;
    uint32_t reset_wg;
    uint32_t value_words; /* 32-bit words of a tile's value (a user's element: up to 4) */
} wgs__chain;

/* Bytes of tile state for `tiles` tiles of values of `words` 32-bit words. */
uint64_t wgs__chain_state_bytes(uint64_t tiles, uint32_t words);

/* Whether a chained kernel of `wg` invocations can use subgroups (row tiles and the
 * one-subgroup look-back): subgroups of 4 lanes or more, none wider than the workgroup. */
int wgs__chain_subgroups(const wgs_context_info *ci, uint32_t wg);

/* Makes `spec` (its wg set) a chained kernel's: the tile-state and look-back files
 * included after its own helpers, subgroups where the chain can use them, and the
 * look-back's constants from the context's experiments. A kernel that sets
 * spec->ordered_lookback afterwards folds every prefix in tile order from the nearest
 * inclusive one (bit-identical floats; the look-back files say how). */
void wgs__chain_spec(const wgs_context *ctx, wgs_kernel_spec *spec);

/* Compiles the reset kernel (entry reset_state of `spec`'s module) and allocates the
 * states of max_tiles tiles. On failure the error is recorded and returned; the chain
 * holds what was made (wgs__chain_release frees it). */
wgs_result wgs__chain_create(wgs_context *ctx, const wgs_kernel_spec *spec, uint64_t max_tiles,
                             const char *label, wgs__chain *c);
void wgs__chain_release(wgs_context *ctx, wgs__chain *c);

/* The tile-state binding (3) of a run over `tiles` tiles. */
gpu_binding wgs__chain_binding(const wgs__chain *c, uint64_t tiles);

/* Records the zeroing of the counter and the states of `tiles` tiles (stale flags of
 * the last run must not survive) into `pass`, before the chained kernel. */
void wgs__chain_reset(wgs_context *ctx, WGPUComputePassEncoder pass, const wgs__chain *c, uint64_t tiles);

#endif
