// scan_single_pass.wgsl: chained scan with decoupled look-back (Merrill and Garland
// 2016) and decoupled fallback (Smith, Levien and Owens 2025). The data is read once and
// written once.
//
// Each workgroup takes the next tile index from a counter, so every tile's predecessors
// were taken earlier. It publishes its tile's aggregate, then looks back over the
// predecessors' published states, a window of LOOKBACK tiles at a time, combining aggregates
// until it meets an inclusive prefix; then it publishes its own inclusive prefix and
// writes its tile. WebGPU promises no forward progress between workgroups, so a
// predecessor may never get to publish while we wait: after MAX_SPINS fruitless looks
// the workgroup reduces that predecessor's tile from the input itself and goes on.
//
// Tile state: two u32 atomics per tile, each a 2-bit flag over 16 bits of the 32-bit
// value, since WGSL has no 64-bit atomics. A reader accepts a state only when both
// halves carry the same flag; flags only grow, so a mixed read is simply retried.
//
// The middle of it, tile_chain(ids, t, n, ident) -> exclusive prefix of tile t (the
// aggregate published, the look-back, the inclusive prefix published), comes from
// workgroup/lookback_subgroup.wgsl where the device has subgroups (row tiles), else
// from workgroup/lookback_workgroup.wgsl.
//
// Bindings: 0 input, 1 output, 2 Params, 3 state (word 0: tile counter, then 2 per tile).
// Params: n = elements of this chunk, tile_base = global index of its first tile.

@group(0) @binding(3) var<storage, read_write> state: array<atomic<u32>>;

const NOT_READY: u32 = 0u;
const AGGREGATE: u32 = 1u;
const INCLUSIVE: u32 = 2u;
const NONE: u32 = 0xFFFFFFFFu;

var<workgroup> claimed_tile: u32;

fn publish(t: u32, flag: u32, v: T) {
    let b = to_bits(v);
    atomicStore(&state[1u + 2u * t], (flag << 30u) | (b & 0xFFFFu));
    atomicStore(&state[2u + 2u * t], (flag << 30u) | (b >> 16u));
}

// A helper's publication: atomicMax never lowers a flag the owner already raised, and
// both writers of an aggregate computed the same bits (same code, same order).
fn publish_if_higher(t: u32, flag: u32, v: T) {
    let b = to_bits(v);
    atomicMax(&state[1u + 2u * t], (flag << 30u) | (b & 0xFFFFu));
    atomicMax(&state[2u + 2u * t], (flag << 30u) | (b >> 16u));
}

// The helper's side of the decoupled fallback: tile j's aggregate, reduced from the
// input by a waiting workgroup, published by its leader (inclusive for tile 0).
fn publish_fallback(j: u32, agg: T, leader: bool) {
    if (leader) {
        publish_if_higher(j, select(AGGREGATE, INCLUSIVE, j == 0u), agg);
    }
}

// (flag, value bits); NOT_READY while the halves disagree.
fn read_state(t: u32) -> vec2<u32> {
    let lo = atomicLoad(&state[1u + 2u * t]);
    let hi = atomicLoad(&state[2u + 2u * t]);
    if ((lo >> 30u) != (hi >> 30u)) {
        return vec2<u32>(NOT_READY, 0u);
    }
    return vec2<u32>(lo >> 30u, (lo & 0xFFFFu) | ((hi & 0xFFFFu) << 16u));
}

// Zeroes the tile counter and params.n state words; a grid-stride loop, so any grid
// size covers any count.
@compute @workgroup_size(WG)
fn reset_state(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let stride = nwg.x * nwg.y * WG;
    for (var i = tile_index(wid, nwg) * WG + ids.lid; i < params.n; i += stride) {
        atomicStore(&state[i], 0u);
    }
}

@compute @workgroup_size(WG)
fn scan_single_pass(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) nwg: vec3<u32>) {
    let lid = ids.lid;
    let n = params.n;
    let tiles = (n + TILE - 1u) / TILE;
    if (tile_index(wid, nwg) >= tiles) {
        return; // a spare workgroup of a two-dimensional grid: takes no tile
    }
    if (lid == 0u) {
        claimed_tile = atomicAdd(&state[0], 1u);
    }
    let t = workgroupUniformLoad(&claimed_tile); // global tile index
    let base = (t - params.tile_base) * TILE;
    let ident = identity_from_bits(IDENTITY_BITS);

    tile_scan_local(ids, base, n, ident, SCAN_INCLUSIVE);
    let prefix = tile_chain(ids, t, n, ident);
    tile_store(ids, base, n, prefix, SCAN_INCLUSIVE);
}
