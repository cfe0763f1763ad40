// SPDX-License-Identifier: MIT
// scan_single_pass.wgsl: chained scan with decoupled look-back (Merrill and Garland
// 2016) and decoupled fallback (Smith, Levien and Owens 2025). The data is read once and
// written once.
//
// Each workgroup takes the next tile index from a counter, so every tile's predecessors
// were taken earlier. It publishes its tile's aggregate, then looks back over the
// predecessors' published states, a window of tiles at a time, combining aggregates
// until it meets an inclusive prefix; then it publishes its own inclusive prefix and
// writes its tile. WebGPU promises no forward progress between workgroups, so a
// predecessor may never get to publish while we wait: after MAX_SPINS fruitless looks
// the workgroup reduces that predecessor's tile from the input itself and goes on.
//
// Tile states, the tile counter and their reset: workgroup/tile_state.wgsl.
//
// This kernel, one tile a workgroup, is the single pass of devices without subgroups
// (tile.wgsl); with subgroups (row tiles) the scan runs scan_persistent.wgsl instead.
// The middle of it, tile_chain(ids, t, n, ident) -> exclusive prefix of tile t (the
// aggregate published, the look-back, the inclusive prefix published), comes from
// workgroup/lookback_workgroup.wgsl.
//
// Bindings: 0 input, 1 output, 2 Params, 3 state (word 0: tile counter, then 2 per tile),
// 6 the carry-in (element/scan_carry.wgsl: each tile's prefix starts from it).
// Params: n = elements of this chunk, tile_base = global index of its first tile.

@compute @workgroup_size(WG)
fn scan_single_pass(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) nwg: vec3<u32>) {
    let lid = ids.lid;
    let n = params.n;
    let tiles = (n + TILE - 1u) / TILE;
    if (tile_index(wid, nwg) >= tiles) {
        return; // a spare workgroup of a two-dimensional grid: takes no tile
    }
    let t = claim_tile(lid); // global tile index
    let base = (t - params.tile_base) * TILE;
    let ident = identity_from_bits(IDENTITY_BITS);

    tile_scan_local(ids, base, n, ident, SCAN_INCLUSIVE);
    let prefix = with_carry(tile_chain(ids, t, n, ident));
    tile_store(ids, base, n, prefix, SCAN_INCLUSIVE);
}
