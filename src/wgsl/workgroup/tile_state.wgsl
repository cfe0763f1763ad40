// tile_state.wgsl: the published states of a chained single pass (decoupled look-back),
// shared by the scan and the single-pass select. State buffer: word 0 is the tile
// counter, then two words per tile. Each word holds a 2-bit flag over 16 bits of the
// tile's 32-bit value, since WGSL has no 64-bit atomics: a reader accepts a state only
// when both halves carry the same flag; flags only grow, so a mixed read is retried.
//
// The look-backs (lookback_subgroup.wgsl, lookback_workgroup.wgsl) read these; the
// kernel that includes them claims its tile with claim_tile and resets the states
// before each run with reset_state.

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

// The next tile index from the counter (every invocation calls it: one barrier), so
// every tile's predecessors were claimed, and started, earlier.
fn claim_tile(lid: u32) -> u32 {
    if (lid == 0u) {
        claimed_tile = atomicAdd(&state[0], 1u);
    }
    return workgroupUniformLoad(&claimed_tile);
}
