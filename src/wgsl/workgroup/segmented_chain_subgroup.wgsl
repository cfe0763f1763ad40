// SPDX-License-Identifier: MIT
// segmented_chain_subgroup.wgsl: what the chain's look-back (lookback_subgroup.wgsl)
// asks of a chained segmented scan's tile (device/scan_by_key.wgsl), on subgroups. The
// chain carries a tile's segmented total: its value since the tile's last segment start
// (all of it where none), closed where the tile holds a start.
//
// The kernel provides seg_word_at(j, q, n) -> SegEntry: the entry of word q of tile j
// read from the input, as it builds its own tile's entries; and sets seg_total to its
// tile's total (segmented_scan_tile's result) before tile_chain.

var<private> seg_total: SegEntry;

fn tile_aggregate_sg(lane: u32, size: u32, ident: T) -> TileAgg {
    return TileAgg(seg_total.a.v, seg_total.f != 0u);
}

// Tile j's total by the first subgroup, in the owner's very steps
// (segmented_scan_subgroup.wgsl): each (row, subgroup) total from the same scan of the
// same words in the same lanes, then the table of those totals scanned size entries at
// a time, chunk by chunk. So a helper publishes the owner's bits, for floats too.
fn fallback_aggregate(lane: u32, size: u32, j: u32, n: u32, ident: T) -> TileAgg {
    let groups = WG / size;
    let count = ROWS * groups;
    var carry = seg_none();
    var x = seg_none(); // this lane's entry of the table's current chunk
    for (var k = 0u; k < count; k++) {
        let q = (k / groups) * WG + (k % groups) * size + lane;
        let total = seg_last(seg_subgroup_scan(lane, size, seg_word_at(j, q, n)), size);
        x = seg_pick(x, total, lane == k % size);
        if (k % size == size - 1u || k + 1u == count) {
            carry = seg_combine(carry, seg_last(seg_subgroup_scan(lane, size, x), size));
            x = seg_none();
        }
    }
    return TileAgg(carry.a.v, carry.f != 0u);
}
