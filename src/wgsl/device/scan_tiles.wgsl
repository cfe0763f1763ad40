// scan_tiles.wgsl: first pass of the multi-level scan. Each workgroup scans one tile
// and, when asked, writes the tile's total to aux[] so the totals can be scanned at the
// next level. The tile scan itself comes from workgroup/tile.wgsl or tile_subgroup.wgsl.

@group(0) @binding(3) var<storage, read_write> aux: array<T>;

@compute @workgroup_size(WG)
fn scan_tiles(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let lid = ids.lid;
    let t = tile_index(wid, nwg);
    let n = params.n;
    let base = t * TILE;
    if (base >= n) {
        return; // a spare workgroup of a two-dimensional grid
    }
    let ident = identity_from_bits(IDENTITY_BITS);
    tile_scan_local(ids, base, n, ident, SCAN_INCLUSIVE);
    tile_finish(ids, base, n, ident, SCAN_INCLUSIVE);
    if (lid == 0u && (params.flags & FLAG_WRITE_TOTALS) != 0u) {
        aux[params.tile_base + t] = wg_total;
    }
}
