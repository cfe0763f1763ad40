// SPDX-License-Identifier: MIT
// lookback_workgroup.wgsl: the single pass's look-back for devices without subgroups.
// The whole workgroup steps back together: LOOKBACK invocations read one predecessor
// state each, workgroup atomics find the nearest inclusive and the nearest unready
// tile, and a workgroup scan combines the ready run. Barriers on every step, so it is
// slower than the subgroup version, but it needs nothing beyond WebGPU's core.
//
// The kernel that includes it (with tile_state.wgsl) provides, for its own tiles:
//   tile_aggregate_wg(ids, ident) -> TileAgg     every invocation: the loaded tile's
//                                                aggregate
//   fallback_aggregate_wg(ids, j, n, ident) -> TileAgg   every invocation: tile j's aggregate
//                                                (j counted from this chunk's first
//                                                tile) read from the input, the very
//                                                bits its owner publishes

// Tiles examined per step: every state read is two uncached atomic loads, repeated by
// every waiting workgroup, so the window stays small.
const LOOKBACK: u32 = 32u;

var<workgroup> first_inclusive: atomic<u32>;
var<workgroup> first_not_ready: atomic<u32>;
var<workgroup> window_inclusive: u32;
var<workgroup> window_not_ready: u32;
var<workgroup> ordered_prefix: T;
var<workgroup> ordered_used: u32;
var<workgroup> forward_flags: array<u32, LOOKBACK>;
var<workgroup> forward_values: array<T, LOOKBACK>;

// LOOKBACK_ORDERED: as in lookback_subgroup.wgsl, the walk back only finds the nearest
// tile c with an inclusive prefix, and the fold goes forward from it in tile order.
// Every invocation calls it (barriers): LOOKBACK states read at a time, invocation 0
// folds them in order, up to one caught between its two words, which the workgroup
// reduces from the input.
fn fold_forward_wg(ids: Ids, c: u32, base: T, t: u32, n: u32, ident: T) -> T {
    let lid = ids.lid;
    var prefix = base;
    var k = c + 1u;
    loop {
        if (k >= t) {
            break;
        }
        let m = min(t - k, LOOKBACK);
        if (lid < m) {
            let s = read_state(k + lid);
            forward_flags[lid] = s.flag;
            forward_values[lid] = s.v;
        }
        workgroupBarrier();
        if (lid == 0u) {
            var p = prefix;
            var used = m;
            for (var l = 0u; l < m; l++) {
                let fl = forward_flags[l];
                if (fl == NOT_READY) {
                    used = l;
                    break;
                }
                // (a branch, not select: T may be a user's struct, which select does not take)
                if (fl == INCLUSIVE) {
                    p = forward_values[l];
                } else {
                    p = combine(p, forward_values[l]);
                }
            }
            ordered_prefix = p;
            ordered_used = used;
        }
        prefix = workgroupUniformLoad(&ordered_prefix);
        let used = workgroupUniformLoad(&ordered_used);
        k += used;
        if (used < m) {
            prefix = combine(prefix, fallback_aggregate_wg(ids, k - params.tile_base, n, ident).v);
            k += 1u;
        }
    }
    return prefix;
}

// Every invocation calls this (barriers). Returns the exclusive prefix of tile t > 0
// and publishes its inclusive prefix (a closed tile published it already).
fn look_back(ids: Ids, t: u32, aggregate: TileAgg, n: u32, ident: T) -> T {
    let lid = ids.lid;
    var prefix = ident;
    var base = ident; // LOOKBACK_ORDERED: the inclusive prefix of tile j, once found
    var j = t - 1u; // nearest predecessor not yet combined
    var spins = 0u;
    loop {
        if (lid == 0u) {
            atomicStore(&first_inclusive, NONE);
            atomicStore(&first_not_ready, NONE);
        }
        workgroupBarrier();
        // Invocation i < LOOKBACK looks at tile j - i.
        var v = ident;
        if (lid < LOOKBACK && lid <= j) {
            let s = read_state(j - lid);
            v = s.v;
            if (s.flag == INCLUSIVE) {
                atomicMin(&first_inclusive, lid);
            } else if (s.flag == NOT_READY) {
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
        var take = min(nr, LOOKBACK);
        if (done) {
            take = inc + 1u;
        }
        if (take > 0u && !LOOKBACK_ORDERED) {
            var mine = ident;
            if (lid < take) {
                mine = v;
            }
            workgroup_exclusive_scan(ids, mine, ident);
            prefix = combine(workgroupUniformLoad(&wg_total), prefix);
        }
        if (done) {
            if (LOOKBACK_ORDERED) {
                if (lid == inc) {
                    ordered_prefix = v;
                }
                base = workgroupUniformLoad(&ordered_prefix);
                j = j - inc;
            }
            break;
        }
        if (take > 0u) {
            j = j - take; // cannot pass tile 0: it is published inclusive at once
            spins = 0u;
            continue;
        }
        if (fallback_due(&spins, j)) {
            let agg_j = fallback_aggregate_wg(ids, j - params.tile_base, n, ident);
            if (fallback_fold(&j, &prefix, &spins, agg_j, lid == 0u)) {
                base = agg_j.v;
                break;
            }
        }
    }
    if (LOOKBACK_ORDERED) {
        prefix = fold_forward_wg(ids, j, base, t, n, ident);
    }
    if (lid == 0u && !aggregate.closed && !WITHHOLD_INCLUSIVE) { // (the experiment: tests only)
        publish(t, INCLUSIVE, combine(prefix, aggregate.v));
    }
    return prefix;
}

// A single pass's middle (every invocation calls it, once its tile is loaded):
// publishes the tile's aggregate (inclusive for tile 0 and closed tiles), looks back,
// returns the tile's exclusive prefix.
fn tile_chain(ids: Ids, t: u32, n: u32, ident: T) -> T {
    let aggregate = tile_aggregate_wg(ids, ident);
    if (ids.lid == 0u && !(t == 0u && WITHHOLD_FIRST)) { // (the experiment: tests only)
        publish(t, select(AGGREGATE, INCLUSIVE, t == 0u || aggregate.closed), aggregate.v);
    }
    if (t == 0u) {
        return ident;
    }
    return look_back(ids, t, aggregate, n, ident);
}
