// SPDX-License-Identifier: MIT
// segmented_chain_workgroup.wgsl: the portable twin of segmented_chain_subgroup.wgsl,
// for the workgroup look-back (lookback_workgroup.wgsl): a chained segmented scan's
// tile aggregate and its fallback, through segmented_scan_workgroup.wgsl. The kernel
// provides seg_word_at(j, q, n) and sets seg_total, as there.

var<private> seg_total: SegEntry;
var<workgroup> chain_total: SegEntry;

// A total every invocation computed alike, made uniform: the look-back's loop, which
// has barriers, ends where a fallback's tile is closed.
fn uniform_agg(lid: u32, x: SegEntry) -> TileAgg {
    if (lid == 0u) {
        chain_total = x;
    }
    let u = workgroupUniformLoad(&chain_total);
    return TileAgg(u.a.v, u.f != 0u);
}

fn tile_aggregate_wg(ids: Ids, ident: T) -> TileAgg {
    return uniform_agg(ids.lid, seg_total);
}

// Tile j's total by the whole workgroup: its words' entries through the owner's own
// segmented scan, so a helper publishes the owner's bits. The owner's entries, which
// the scan works on in place, are kept aside meanwhile.
fn fallback_aggregate_wg(ids: Ids, j: u32, n: u32, ident: T) -> TileAgg {
    let mine = seg_words;
    for (var r = 0u; r < ROWS; r++) {
        seg_words[r] = seg_word_at(j, r * WG + ids.lid, n);
    }
    let total = segmented_scan_tile(ids);
    seg_words = mine;
    return uniform_agg(ids.lid, total);
}
