// scan_tiles.wgsl: the tile passes of the multi-level scan (reduce, then scan):
//   reduce_tiles        level 0: each tile's total to aux[] (reads the data once)
//   scan_tiles          levels above: each tile of aux scanned in place, its total
//                       written to the next level's aux[] when asked
//   scan_tiles_seeded   level 0: each tile scanned from its prefix aux[] (the scanned
//                       totals) and stored: the data is read twice and written once
// The tile code comes from workgroup/tile_rows.wgsl or workgroup/tile.wgsl.

@group(0) @binding(3) var<storage, read_write> aux: array<T>;

const FLAG_SEEDED: u32 = 4u;

@compute @workgroup_size(WG)
fn reduce_tiles(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = tile_index(wid, nwg);
    let base = t * TILE;
    if (base >= params.n) {
        return; // a spare workgroup of a two-dimensional grid
    }
    tile_reduce(ids, base, params.n, identity_from_bits(IDENTITY_BITS));
    if (ids.lid == 0u) {
        aux[params.tile_base + t] = wg_total;
    }
}

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
    tile_scan_local(ids, base, n, ident, SCAN_INCLUSIVE);
    tile_finish(ids, base, n, ident, SCAN_INCLUSIVE);
    if (ids.lid == 0u && (params.flags & FLAG_WRITE_TOTALS) != 0u) {
        aux[params.tile_base + t] = wg_total;
    }
}

// Params.flags has FLAG_SEEDED when there are prefixes (more than one tile).
@compute @workgroup_size(WG)
fn scan_tiles_seeded(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                     @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = tile_index(wid, nwg);
    let n = params.n;
    let base = t * TILE;
    if (base >= n) {
        return;
    }
    let ident = identity_from_bits(IDENTITY_BITS);
    let seed = aux[params.tile_base + t];
    tile_scan_local(ids, base, n, ident, SCAN_INCLUSIVE);
    tile_finish(ids, base, n, select(ident, seed, (params.flags & FLAG_SEEDED) != 0u), SCAN_INCLUSIVE);
}
