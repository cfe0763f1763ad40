// SPDX-License-Identifier: MIT
// lookback_subgroup.wgsl: a single pass's look-back run by the workgroup's first
// subgroup alone, with subgroup operations and no workgroup barrier per step (as CUB
// does it with one warp). Each lane reads one predecessor state; subgroupMin finds the
// nearest inclusive and the nearest unready tile; a subgroup reduction combines the
// ready run. The rest of the workgroup waits at one barrier for the result.
//
// The kernel that includes it (with tile_state.wgsl) provides, for its own tiles:
//   tile_aggregate_sg(lane, size, ident) -> TileAgg   run by the first subgroup, after
//                                                a barrier: the loaded tile's aggregate
//   fallback_aggregate(lane, size, j, n, ident) -> TileAgg   run by the first subgroup:
//                                                tile j's aggregate (j counted from this
//                                                chunk's first tile) read from the
//                                                input, the very bits its owner publishes

var<workgroup> lookback_prefix: T;

// LOOKBACK_ORDERED (a constant of the kernel): the prefix of tile t is always the fold
// in tile order of the inclusive prefix of the nearest tile c that has one and the
// aggregates of tiles c + 1 .. t - 1, so every inclusive prefix published is that same
// fold and float results repeat bit for bit. The walk back then only finds c (and
// publishes what a fallback reduced), and fold_forward folds from there. Otherwise the
// walk folds the ready runs as it meets them, by subgroup reductions: fewer steps, but
// the grouping depends on what was ready.

// Tiles c + 1 .. t - 1 from base, the inclusive prefix of tile c, in order; each was
// found published by the walk back, or published by it. A state found inclusive holds
// this very fold; one caught between its two words (its owner raising it to
// inclusive) is reduced from the input instead, which cannot wait (c + 1 lies in this
// chunk when that happens: earlier chunks finished in earlier dispatches).
fn fold_forward(lane: u32, size: u32, c: u32, base: T, t: u32, n: u32, ident: T) -> T {
    var prefix = base;
    var k = c + 1u;
    loop {
        if (k >= t) {
            break;
        }
        let m = min(t - k, size);
        let s = read_state(k + min(lane, m - 1u)); // lanes past m read the last one again: no branch
        let f = s.flag;
        let v = s.v;
        var used = m;
        for (var l = 0u; l < m; l++) {
            let fl = subgroupShuffle(f, l);
            if (fl == NOT_READY) {
                used = l;
                break;
            }
            let vl = shuffle_t(v, l);
            prefix = select_t(combine(prefix, vl), vl, fl == INCLUSIVE);
        }
        k += used;
        if (used < m) {
            prefix = combine(prefix, fallback_aggregate(lane, size, k - params.tile_base, n, ident).v);
            k += 1u;
        }
    }
    return prefix;
}

// Run by the first subgroup only. Returns the exclusive prefix of tile t > 0 on every
// lane, after publishing t's inclusive prefix (a closed tile published it already).
fn look_back_subgroup(lane: u32, size: u32, t: u32, aggregate: TileAgg, n: u32, ident: T) -> T {
    var prefix = ident;
    var base = ident; // LOOKBACK_ORDERED: the inclusive prefix of tile j, once found
    var j = t - 1u; // nearest predecessor not yet combined
    var spins = 0u;
    var narrow = false; // after a fruitless step, poll only tile j until it is ready
    loop {
        // Lane l looks at tiles j - d for d = l * LOOKBACK_PER_LANE + q: the window
        // covers size * LOOKBACK_PER_LANE tiles per step.
        var flags: array<u32, LOOKBACK_PER_LANE>;
        var vs: array<T, LOOKBACK_PER_LANE>;
        var my_inc = NONE;
        var my_nr = NONE;
        for (var q = 0u; q < LOOKBACK_PER_LANE; q++) {
            let d = lane * LOOKBACK_PER_LANE + q;
            flags[q] = NOT_READY;
            vs[q] = ident;
            if (d <= j && (!narrow || d == 0u)) {
                let s = read_state(j - d);
                flags[q] = s.flag;
                vs[q] = s.v;
                if (s.flag == INCLUSIVE) {
                    my_inc = min(my_inc, d);
                } else if (s.flag == NOT_READY) {
                    my_nr = min(my_nr, d);
                }
            }
        }
        let inc = subgroupMin(my_inc);
        let nr = subgroupMin(my_nr);
        // The run of ready tiles next to us: through the inclusive one when it comes
        // before any unready tile, else up to the first unready tile.
        let done = inc != NONE && inc < nr;
        var take = min(nr, size * LOOKBACK_PER_LANE);
        if (narrow) {
            take = min(take, 1u);
        }
        if (done) {
            take = inc + 1u;
        }
        if (take > 0u && !LOOKBACK_ORDERED) {
            var mine = ident;
            for (var q = 0u; q < LOOKBACK_PER_LANE; q++) {
                if (lane * LOOKBACK_PER_LANE + q < take) {
                    mine = combine(vs[q], mine); // farther tiles first
                }
            }
            prefix = combine(subgroup_reduce(lane, size, mine), prefix);
        }
        if (done) {
            if (LOOKBACK_ORDERED) {
                base = shuffle_t(vs[inc % LOOKBACK_PER_LANE], inc / LOOKBACK_PER_LANE);
                j = j - inc;
            }
            break;
        }
        if (take > 0u) {
            j = j - take; // cannot pass tile 0: it is published inclusive at once
            spins = 0u;
            narrow = false;
            continue;
        }
        // Nothing ready next to us: every waiting workgroup polling a whole window
        // floods the L2 with atomic loads (wider windows measured slower on an H200),
        // so wait on the one tile that blocks us.
        narrow = true;
        if (fallback_due(&spins, j)) {
            let agg_j = fallback_aggregate(lane, size, j - params.tile_base, n, ident);
            if (fallback_fold(&j, &prefix, &spins, agg_j, lane == 0u)) {
                base = agg_j.v;
                break;
            }
        }
    }
    if (LOOKBACK_ORDERED) {
        prefix = fold_forward(lane, size, j, base, t, n, ident);
    }
    if (lane == 0u && !aggregate.closed && !WITHHOLD_INCLUSIVE) { // (the experiment: tests only)
        publish(t, INCLUSIVE, combine(prefix, aggregate.v));
    }
    return prefix;
}

// A single pass's middle (every invocation calls it, once its tile is loaded): the
// first subgroup gets the tile's aggregate (for the scan's row tiles: it scans the
// segment table), publishes it (inclusive for tile 0 and closed tiles) and looks back
// with no barrier in between; the rest wait at one barrier. Returns the tile's
// exclusive prefix.
fn tile_chain(ids: Ids, t: u32, n: u32, ident: T) -> T {
    workgroupBarrier(); // every subgroup's segment totals are in the table
    if (ids.lid < ids.sg_size) { // the first subgroup (lanes are consecutive invocations)
        let lane = ids.sg_lane;
        let aggregate = tile_aggregate_sg(lane, ids.sg_size, ident);
        var prefix = ident;
        if (t == 0u) {
            if (lane == 0u && !WITHHOLD_FIRST) { // (the experiment: tests only)
                publish(0u, INCLUSIVE, aggregate.v);
            }
        } else {
            if (lane == 0u) {
                publish(t, select(AGGREGATE, INCLUSIVE, aggregate.closed), aggregate.v);
            }
            prefix = look_back_subgroup(lane, ids.sg_size, t, aggregate, n, ident);
        }
        if (lane == 0u) {
            lookback_prefix = prefix;
        }
    }
    return workgroupUniformLoad(&lookback_prefix);
}
