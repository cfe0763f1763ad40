// common.wgsl: what every wgscan kernel shares. It follows the generated prelude,
// which defines T, combine(a, b), identity_from_bits(bits), load_in(i), the data
// bindings and the sizes WG (invocations per workgroup) and ITEMS (per invocation).
//
// Binding convention (group 0):
//   0  input data, read-only            (absent when the kernel works in place)
//   1  output data, read-write          (also the input when in place)
//   2  Params, uniform                  (one slot of the plan's parameter buffer)
//   3  auxiliary array, read-write      (tile totals or tile prefixes)

struct Params {
    n: u32,             // elements this dispatch covers
    tile_base: u32,     // index of this dispatch's first tile in the auxiliary array
    identity_bits: u32, // reduce: the identity as bits; histogram: its scale (scans: IDENTITY_BITS)
    flags: u32,         // FLAG_* below
    a: u32,             // a..d: per kernel (predicate operands, histogram range, ...)
    b: u32,
    c: u32,
    d: u32,
}

const FLAG_WRITE_TOTALS: u32 = 2u;
const FLAG_SEEDED: u32 = 4u; // scan_tiles: each tile starts from its prefix in aux[]

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
