// tile_subgroup.wgsl: one tile of TILE = WG * ITEMS elements scanned in registers with
// subgroup operations (devices with subgroups). Subgroup s owns a contiguous segment of
// size * ITEMS elements as ITEMS rows of `size` lanes: row k is loaded coalesced
// (lane l reads element k * size + l), scanned with subgroup shuffles and chained to the
// rows before it by a carry. No tile passes through workgroup memory; one small array of
// segment totals does, with two barriers. Same interface as tile.wgsl.

var<private> vals: array<T, ITEMS>; // this lane's scanned elements, one per row

// The segment's rows in order: the carry chain both the owner and a look-back fallback
// (fallback_reduce in lookback_subgroup.wgsl) follow, so both get the same bits.
fn tile_scan_local(ids: Ids, base: u32, n: u32, ident: T, inclusive: bool) {
    let size = ids.sg_size;
    let lane = ids.sg_lane;
    let sg = ids.lid / size;
    let seg = base + sg * size * ITEMS;
    // All loads first, so ITEMS of them are in flight at once (as in the copy kernel).
    for (var k = 0u; k < ITEMS; k++) {
        let i = seg + k * size + lane;
        var v = ident;
        if (i < n) {
            v = load_in(i);
        }
        vals[k] = v;
    }
    var carry = ident;
    for (var k = 0u; k < ITEMS; k++) {
        let inc = subgroup_inclusive_scan(lane, size, vals[k]);
        if (inclusive) {
            vals[k] = combine(carry, inc);
        } else {
            var exc = subgroupShuffleUp(inc, 1u);
            if (lane == 0u) {
                exc = ident;
            }
            vals[k] = combine(carry, exc);
        }
        carry = combine(carry, subgroupShuffle(inc, size - 1u));
    }
    if (lane == 0u) {
        sg_totals[sg] = carry;
    }
    scan_subgroup_totals(ids, ident);
}

fn tile_finish(ids: Ids, base: u32, n: u32, prefix: T, inclusive: bool) {
    let size = ids.sg_size;
    let sg = ids.lid / size;
    let seg = base + sg * size * ITEMS;
    let p = combine(prefix, sg_totals[sg]);
    for (var k = 0u; k < ITEMS; k++) {
        let i = seg + k * size + ids.sg_lane;
        if (i < n) {
            dst[i] = combine(p, vals[k]);
        }
    }
}
