// SPDX-License-Identifier: MIT
// tile.wgsl: one tile of TILE = WG * ITEMS elements, scanned through workgroup memory
// (the portable path, for devices without subgroups). Global memory is touched
// coalesced (invocation lid handles elements lid, lid + WG, ...); the scan reads each
// invocation's ITEMS consecutive elements from workgroup memory, reduces them serially,
// scans the run totals across the workgroup and rescans each run.
//
// Interface shared with tile_rows.wgsl (which every device with subgroups uses):
//   tile_scan_local(ids, base, n, ident, inclusive)  loads the tile (and here scans the
//                                                    runs, leaving the total in wg_total)
//   tile_finish(ids, base, n, prefix, inclusive)     stores the scan seeded with prefix;
//                                                    the tile's total is in wg_total after
//   tile_store(ids, base, n, prefix, inclusive)      the single pass's end: tile_finish
//                                                    here; row tiles scan their segment
//                                                    table before it, in the look-back
//   tile_reduce(ids, base, n, ident)                 the tile's total into wg_total
//   tile_add_prefix(ids, base, n, p)                 p combined into the tile, in place
// and for the single pass's look-back the aggregate and fallback functions it wants
// (tile_aggregate_wg / fallback_aggregate_wg here, tile_aggregate_sg /
// fallback_aggregate in tile_rows.wgsl).

var<workgroup> tile: array<T, TILE + (TILE >> 5u)>;
var<private> run_prefix: T; // this invocation's exclusive prefix within the tile

fn tile_scan_local(ids: Ids, base: u32, n: u32, ident: T, inclusive: bool) {
    let lid = ids.lid;
    for (var k = 0u; k < ITEMS; k++) {
        let i = k * WG + lid;
        var v = ident;
        if (base + i < n) {
            v = load_in(base + i);
        }
        tile[pad(i)] = v;
    }
    workgroupBarrier();
    var acc = ident;
    for (var j = 0u; j < ITEMS; j++) {
        acc = combine(acc, tile[pad(lid * ITEMS + j)]);
    }
    run_prefix = workgroup_exclusive_scan(ids, acc, ident);
}

fn tile_finish(ids: Ids, base: u32, n: u32, prefix: T, inclusive: bool) {
    let lid = ids.lid;
    var p = combine(prefix, run_prefix);
    for (var j = 0u; j < ITEMS; j++) {
        let idx = pad(lid * ITEMS + j);
        let x = tile[idx];
        if (inclusive) {
            p = combine(p, x);
            tile[idx] = p;
        } else {
            tile[idx] = p;
            p = combine(p, x);
        }
    }
    workgroupBarrier();
    for (var k = 0u; k < ITEMS; k++) {
        let i = k * WG + lid;
        if (base + i < n) {
            dst[base + i] = tile[pad(i)];
        }
    }
}

// The single pass's last step (row tiles split tile_finish around the look-back; this
// tile has nothing to split).
fn tile_store(ids: Ids, base: u32, n: u32, prefix: T, inclusive: bool) {
    tile_finish(ids, base, n, prefix, inclusive);
}

// The single pass's tile aggregate (lookback_workgroup.wgsl): the loaded tile's total,
// which tile_scan_local left in wg_total.
fn tile_aggregate_wg(ids: Ids, ident: T) -> TileAgg {
    return TileAgg(workgroupUniformLoad(&wg_total), false);
}

// The single pass's fallback (lookback_workgroup.wgsl): the aggregate of tile j read
// straight from the input, in exactly the order tile_scan_local's run totals and
// workgroup_exclusive_scan use for the owner's aggregate.
fn fallback_aggregate_wg(ids: Ids, j: u32, n: u32, ident: T) -> TileAgg {
    let base = j * TILE;
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
    return TileAgg(workgroupUniformLoad(&wg_total), false);
}


// The multi-level scan's last pass on one tile: p combined into every element, in place.
fn tile_add_prefix(ids: Ids, base: u32, n: u32, p: T) {
    for (var k = 0u; k < ITEMS; k++) {
        let i = base + k * WG + ids.lid;
        if (i < n) {
            dst[i] = combine(p, dst[i]);
        }
    }
}

// The tile's total, left in wg_total (multi-level first pass: reads, writes nothing).
// Every invocation calls it (barriers). A commutative operator reads coalesced (each
// invocation every WG-th element); any other reads each invocation's ITEMS consecutive
// elements, so that the total keeps the input's order.
fn tile_reduce(ids: Ids, base: u32, n: u32, ident: T) {
    var acc = ident;
    for (var k = 0u; k < ITEMS; k++) {
        let i = select(base + ids.lid * ITEMS + k, base + k * WG + ids.lid, COMMUTATIVE);
        if (i < n) {
            acc = combine(acc, load_in(i));
        }
    }
    workgroup_exclusive_scan(ids, acc, ident);
}
