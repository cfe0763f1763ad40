// add_prefix.wgsl: last pass of the multi-level scan. Combines each tile's exclusive
// prefix (aux[], the scanned tile totals of the level above) into every element of the
// tile, in place.

@group(0) @binding(3) var<storage, read> aux: array<T>;

@compute @workgroup_size(WG)
fn add_prefix(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = tile_index(wid, nwg);
    let n = params.n;
    let base = t * TILE;
    if (base >= n) {
        return;
    }
    tile_add_prefix(ids, base, n, aux[params.tile_base + t]);
}
