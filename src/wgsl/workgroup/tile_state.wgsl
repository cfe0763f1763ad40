// SPDX-License-Identifier: MIT
// tile_state.wgsl: the published states of a chained single pass (decoupled look-back),
// shared by the scan and the single-pass select. State buffer: word 0 is the tile
// counter, then STATE_STRIDE = 2 * ELEMENT_WORDS words per tile (the prelude's
// ELEMENT_WORDS: 1 for the built-in types, up to 4 for a user's operator). Each word
// holds a 2-bit flag over 16 bits of the tile's value, since WGSL has no 64-bit
// atomics: a reader accepts a state only when every word carries the same flag; flags
// only grow, so a mixed read is retried.
//
// A tile's aggregate travels as a TileAgg (common.wgsl): a closed tile is published
// inclusive at once, and a look-back or a fallback stops at it.
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

const STATE_STRIDE: u32 = 2u * ELEMENT_WORDS;

// What read_state found: NOT_READY (v meaningless), AGGREGATE or INCLUSIVE, and v.
struct TileState {
    flag: u32,
    v: T,
}

fn publish(t: u32, flag: u32, v: T) {
    let w = to_words(v);
    for (var k = 0u; k < ELEMENT_WORDS; k++) {
        atomicStore(&state[1u + STATE_STRIDE * t + 2u * k], (flag << 30u) | (w[k] & 0xFFFFu));
        atomicStore(&state[2u + STATE_STRIDE * t + 2u * k], (flag << 30u) | (w[k] >> 16u));
    }
}

// A helper's publication: atomicMax never lowers a flag the owner already raised, and
// both writers of an aggregate computed the same bits (same code, same order).
fn publish_if_higher(t: u32, flag: u32, v: T) {
    let w = to_words(v);
    for (var k = 0u; k < ELEMENT_WORDS; k++) {
        atomicMax(&state[1u + STATE_STRIDE * t + 2u * k], (flag << 30u) | (w[k] & 0xFFFFu));
        atomicMax(&state[2u + STATE_STRIDE * t + 2u * k], (flag << 30u) | (w[k] >> 16u));
    }
}

// The decoupled fallback, shared by both look-backs. A step that found no predecessor
// ready counts as a spin; after MAX_SPINS the waiter reduces tile j from the input
// itself (j lies in this chunk: earlier chunks finished in an earlier dispatch).
fn fallback_due(spins: ptr<function, u32>, j: u32) -> bool {
    *spins = *spins + 1u;
    return *spins >= MAX_SPINS && j >= params.tile_base;
}

// After the waiter reduced tile j to agg_j: its leader publishes it (inclusive for tile
// 0 and closed tiles) for other waiters, the prefix takes it, the walk moves to j - 1.
// True once tile 0 or a closed tile is folded in: the prefix is complete.
fn fallback_fold(j: ptr<function, u32>, prefix: ptr<function, T>, spins: ptr<function, u32>, agg_j: TileAgg,
                 leader: bool) -> bool {
    let last = *j == 0u || agg_j.closed;
    if (leader) {
        publish_if_higher(*j, select(AGGREGATE, INCLUSIVE, last), agg_j.v);
    }
    *prefix = combine(agg_j.v, *prefix);
    if (last) {
        return true;
    }
    *j = *j - 1u;
    *spins = 0u;
    return false;
}

// The flag and value; NOT_READY while the words disagree.
fn read_state(t: u32) -> TileState {
    var w = vec4<u32>(0u);
    var flag = NOT_READY;
    var same = true;
    for (var k = 0u; k < ELEMENT_WORDS; k++) {
        let lo = atomicLoad(&state[1u + STATE_STRIDE * t + 2u * k]);
        let hi = atomicLoad(&state[2u + STATE_STRIDE * t + 2u * k]);
        if (k == 0u) {
            flag = lo >> 30u;
        }
        same = same && (lo >> 30u) == flag && (hi >> 30u) == flag;
        w[k] = (lo & 0xFFFFu) | ((hi & 0xFFFFu) << 16u);
    }
    if (!same) {
        flag = NOT_READY;
    }
    if (flag == NOT_READY) {
        w = vec4<u32>(0u);
    }
    return TileState(flag, from_words(w));
}

// Zeroes the tile counter and the states (the whole binding); a grid-stride loop, so any grid
// size covers any count, counted in rounds of the grid so that Tint sees its end (Dawn's
// robustness counts the iterations of any other loop: docs/design.md, 3).
@compute @workgroup_size(WG)
fn reset_state(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let stride = nwg.x * nwg.y * WG;
    let words = arrayLength(&state);
    let first = tile_index(wid, nwg) * WG + ids.lid;
    let rounds = (words + stride - 1u) / stride;
    for (var k = 0u; k < rounds; k++) {
        let i = first + k * stride;
        if (i < words) {
            atomicStore(&state[i], 0u);
        }
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
