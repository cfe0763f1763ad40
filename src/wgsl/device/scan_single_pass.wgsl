// scan_single_pass.wgsl: chained scan with decoupled look-back (Merrill and Garland
// 2016) and decoupled fallback (Smith, Levien and Owens 2025). The data is read once and
// written once.
//
// Each workgroup takes the next tile index from a counter, so every tile's predecessors
// were taken earlier. It publishes its tile's aggregate, then looks back over the
// predecessors' published states, a window of WG tiles at a time, combining aggregates
// until it meets an inclusive prefix; then it publishes its own inclusive prefix and
// writes its tile. WebGPU promises no forward progress between workgroups, so a
// predecessor may never get to publish while we wait: after MAX_SPINS fruitless looks
// the workgroup reduces that predecessor's tile from the input itself and goes on.
//
// Tile state: two u32 atomics per tile, each a 2-bit flag over 16 bits of the 32-bit
// value, since WGSL has no 64-bit atomics. A reader accepts a state only when both
// halves carry the same flag; flags only grow, so a mixed read is simply retried.
//
// Bindings: 0 input, 1 output, 2 Params, 3 state (word 0: tile counter, then 2 per tile).
// Params: n = elements of this chunk, tile_base = global index of its first tile.

@group(0) @binding(3) var<storage, read_write> state: array<atomic<u32>>;

const NOT_READY: u32 = 0u;
const AGGREGATE: u32 = 1u;
const INCLUSIVE: u32 = 2u;
const NONE: u32 = 0xFFFFFFFFu;

var<workgroup> claimed_tile: u32;
var<workgroup> first_inclusive: atomic<u32>;
var<workgroup> first_not_ready: atomic<u32>;
var<workgroup> window_inclusive: u32;
var<workgroup> window_not_ready: u32;

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

// (flag, value bits); NOT_READY while the halves disagree.
fn read_state(t: u32) -> vec2<u32> {
    let lo = atomicLoad(&state[1u + 2u * t]);
    let hi = atomicLoad(&state[2u + 2u * t]);
    if ((lo >> 30u) != (hi >> 30u)) {
        return vec2<u32>(NOT_READY, 0u);
    }
    return vec2<u32>(lo >> 30u, (lo & 0xFFFFu) | ((hi & 0xFFFFu) << 16u));
}

// The aggregate of a whole tile read straight from the input, computed in exactly the
// order tile_thread_reduce + workgroup_exclusive_scan use for the owner's aggregate.
fn fallback_reduce(ids: Ids, base: u32, n: u32, ident: T) -> T {
    var acc = ident;
    for (var j = 0u; j < ITEMS; j++) {
        let i = base + ids.lid * ITEMS + j;
        var v = ident;
        if (i < n) {
            v = load_in(i);
        }
        acc = combine(acc, v);
    }
    workgroup_exclusive_scan(ids, acc, ident);
    return workgroupUniformLoad(&wg_total);
}

@compute @workgroup_size(WG)
fn reset_state(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = tile_index(wid, nwg) * WG + ids.lid;
    if (i < params.n) {
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
    let ident = identity_from_bits(params.identity_bits);

    tile_load(base, n, lid, ident);
    let own_prefix = workgroup_exclusive_scan(ids, tile_thread_reduce(lid, ident), ident);
    let aggregate = workgroupUniformLoad(&wg_total);
    if (lid == 0u) {
        publish(t, select(AGGREGATE, INCLUSIVE, t == 0u), aggregate);
    }

    var prefix = ident;
    if (t > 0u) {
        var j = t - 1u; // nearest predecessor not yet combined
        var spins = 0u;
        loop {
            if (lid == 0u) {
                atomicStore(&first_inclusive, NONE);
                atomicStore(&first_not_ready, NONE);
            }
            workgroupBarrier();
            // Invocation i looks at tile j - i.
            var v = ident;
            if (lid <= j) {
                let s = read_state(j - lid);
                v = from_bits(s.y);
                if (s.x == INCLUSIVE) {
                    atomicMin(&first_inclusive, lid);
                } else if (s.x == NOT_READY) {
                    atomicMin(&first_not_ready, lid);
                }
            }
            workgroupBarrier();
            if (lid == 0u) {
                window_inclusive = atomicLoad(&first_inclusive);
                window_not_ready = atomicLoad(&first_not_ready);
            }
            let inc = workgroupUniformLoad(&window_inclusive);
            let nr = workgroupUniformLoad(&window_not_ready);
            // Combine the run of ready tiles next to us: through the inclusive one when
            // it comes before any unready tile, else up to the first unready tile.
            let done = inc != NONE && inc < nr;
            var take = min(nr, WG);
            if (done) {
                take = inc + 1u;
            }
            if (take > 0u) {
                var mine = ident;
                if (lid < take) {
                    mine = v;
                }
                workgroup_exclusive_scan(ids, mine, ident);
                prefix = combine(workgroupUniformLoad(&wg_total), prefix);
            }
            if (done) {
                break;
            }
            if (take > 0u) {
                j = j - take; // cannot pass tile 0: it is published inclusive at once
                spins = 0u;
                continue;
            }
            spins = spins + 1u;
            if (spins >= MAX_SPINS && j >= params.tile_base) {
                // Decoupled fallback: reduce tile j ourselves (it lies in this chunk:
                // earlier chunks finished in an earlier dispatch).
                let agg_j = fallback_reduce(ids, (j - params.tile_base) * TILE, n, ident);
                if (lid == 0u) {
                    publish_if_higher(j, select(AGGREGATE, INCLUSIVE, j == 0u), agg_j);
                }
                prefix = combine(agg_j, prefix);
                if (j == 0u) {
                    break;
                }
                j = j - 1u;
                spins = 0u;
            }
        }
        if (lid == 0u) {
            publish(t, INCLUSIVE, combine(prefix, aggregate));
        }
    }

    tile_rescan(lid, combine(prefix, own_prefix), (params.flags & FLAG_INCLUSIVE) != 0u);
    tile_store(base, n, lid);
}
