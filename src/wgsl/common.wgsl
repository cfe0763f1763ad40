// SPDX-License-Identifier: MIT
// common.wgsl: what every wgscan kernel shares. It follows the generated prelude,
// which defines T, combine(a, b), identity_from_bits(bits), load_in(i), the data
// bindings and the sizes WG (invocations per workgroup) and ITEMS (per invocation).
//
// Binding convention (group 0):
//   0  input data, read-only            (absent when the kernel works in place)
//   1  output data, read-write          (also the input when in place)
//   2  Params, uniform                  (the dispatch's record: src/params.h)
//   3  auxiliary array, read-write      (tile totals or tile prefixes)

// Params, the dispatch's record, and the constants of the kernel's family (FLAG_*, ...)
// come from the prelude, written from src/params.h.

const TILE: u32 = WG * ITEMS;

@group(0) @binding(2) var<uniform> params: Params;

// Workgroups beyond 65535 are laid out in two dimensions; this gives the linear index.
fn tile_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return wid.x + wid.y * nwg.x;
}

// One padding slot every 32 entries spreads strided workgroup-memory accesses over the
// 32 banks (the seed article's bank-conflict avoidance).
fn pad(i: u32) -> u32 {
    return i + (i >> 5u);
}

// A tile's aggregate as a chained single pass carries it (workgroup/tile_state.wgsl).
// `closed`: nothing before the tile can change what its end hands on (a segmented
// scan's tile that holds a segment start), so the tile is published inclusive at once
// and a look-back stops there; the plain scan and select never close a tile. Here, not
// in tile_state.wgsl, because the scan's tile files, in every scan kernel, define the
// chain's hooks.
struct TileAgg {
    v: T,
    closed: bool,
}
