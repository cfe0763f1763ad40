// scan_tiles.wgsl: first pass of the multi-level scan. Each workgroup scans one tile of
// TILE = WG * ITEMS elements and, when asked, writes the tile's total to aux[] so the
// totals can be scanned at the next level.
//
// Loads and stores are coalesced (invocation lid touches elements lid, lid + WG, ...);
// the scan itself reads each invocation's ITEMS consecutive elements from workgroup
// memory: serial reduce, workgroup Blelloch scan of the per-invocation totals, serial
// rescan seeded with the invocation's prefix.

@group(0) @binding(3) var<storage, read_write> aux: array<T>;

var<workgroup> tile: array<T, TILE + (TILE >> 5u)>;

@compute @workgroup_size(WG)
fn scan_tiles(@builtin(local_invocation_index) lid: u32,
              @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = tile_index(wid, nwg);
    let n = params.n;
    let base = t * TILE;
    if (base >= n) {
        return; // a spare workgroup of a two-dimensional grid
    }
    let ident = identity_from_bits(params.identity_bits);
    let inclusive = (params.flags & FLAG_INCLUSIVE) != 0u;

    for (var k = 0u; k < ITEMS; k++) {
        let i = k * WG + lid;
        var v = ident;
        if (base + i < n) {
            v = load_in(base + i);
        }
        tile[pad(i)] = v;
    }
    workgroupBarrier();

    let first = lid * ITEMS;
    var acc = ident;
    for (var j = 0u; j < ITEMS; j++) {
        acc = combine(acc, tile[pad(first + j)]);
    }
    var prefix = workgroup_exclusive_scan(lid, acc, ident);
    for (var j = 0u; j < ITEMS; j++) {
        let idx = pad(first + j);
        let x = tile[idx];
        if (inclusive) {
            prefix = combine(prefix, x);
            tile[idx] = prefix;
        } else {
            tile[idx] = prefix;
            prefix = combine(prefix, x);
        }
    }
    workgroupBarrier();

    for (var k = 0u; k < ITEMS; k++) {
        let i = k * WG + lid;
        if (base + i < n) {
            dst[base + i] = tile[pad(i)];
        }
    }
    if (lid == 0u && (params.flags & FLAG_WRITE_TOTALS) != 0u) {
        aux[params.tile_base + t] = wg_total;
    }
}
