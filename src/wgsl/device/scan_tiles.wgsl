// SPDX-License-Identifier: MIT
// scan_tiles.wgsl: the passes of the multi-level scan (reduce, then scan):
//   reduce_tiles   level 0: each tile's total to aux[] (reads the data once); also,
//                  level after level, the reduce of a user's operator (scan.c)
//   scan_tiles     the levels above: each tile of aux scanned in place, its total to the
//                  next level's aux[]; then level 0: each tile scanned from its prefix
//                  (the scanned totals) and stored: the data is read twice, written once
//   add_prefix     back down the levels above: prefixes added
// The tile code comes from workgroup/tile_rows.wgsl or workgroup/tile.wgsl.

@group(0) @binding(3) var<storage, read_write> aux: array<T>;

@compute @workgroup_size(WG)
fn reduce_tiles(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = tile_index(wid, nwg);
    let base = t * TILE;
    if (base >= params.n) {
        // A spare workgroup of a two-dimensional grid; or a reduction of nothing
        // (FLAG_EMPTY_IDENTITY), whose result is the identity.
        if (t == 0u && ids.lid == 0u && (params.flags & FLAG_EMPTY_IDENTITY) != 0u) {
            aux[params.tile_base] = identity_from_bits(IDENTITY_BITS);
        }
        return;
    }
    tile_reduce(ids, base, params.n, identity_from_bits(IDENTITY_BITS));
    if (ids.lid == 0u) {
        aux[params.tile_base + t] = wg_total;
    }
}

// Level 0 (FLAG_SEEDED: each tile starts from its prefix in aux[]; absent when one tile
// holds everything; FLAG_CARRY: that prefix combined with the carry-in, binding 6) and
// the levels above (FLAG_WRITE_TOTALS: each tile's total to the
// next level's aux[]).
@compute @workgroup_size(WG)
fn scan_tiles(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = tile_index(wid, nwg);
    let n = params.n;
    let base = t * TILE;
    if (base >= n) {
        return;
    }
    let ident = identity_from_bits(IDENTITY_BITS);
    var prefix = ident;
    if ((params.flags & FLAG_SEEDED) != 0u) {
        prefix = aux[params.tile_base + t];
    }
    prefix = with_carry(prefix);
    tile_scan_local(ids, base, n, ident, SCAN_INCLUSIVE);
    tile_finish(ids, base, n, prefix, SCAN_INCLUSIVE);
    if (ids.lid == 0u && (params.flags & FLAG_WRITE_TOTALS) != 0u) {
        aux[params.tile_base + t] = wg_total;
    }
}

// Back down the levels: the scanned totals of the level above, aux[], combined into
// every element of this level's tiles, in place.
@compute @workgroup_size(WG)
fn add_prefix(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = tile_index(wid, nwg);
    if (t * TILE >= params.n) {
        return;
    }
    tile_add_prefix(ids, t * TILE, params.n, aux[params.tile_base + t]);
}
