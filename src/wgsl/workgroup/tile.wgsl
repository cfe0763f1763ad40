// tile.wgsl: one tile of TILE = WG * ITEMS elements staged in workgroup memory.
// Global memory is touched coalesced (invocation lid handles elements lid, lid + WG,
// ...); the scan reads each invocation's ITEMS consecutive elements from workgroup
// memory, so each invocation can run serially over its own run.

var<workgroup> tile: array<T, TILE + (TILE >> 5u)>;

// Loads elements [base, base + TILE) (identity past n) and waits for the workgroup.
fn tile_load(base: u32, n: u32, lid: u32, ident: T) {
    for (var k = 0u; k < ITEMS; k++) {
        let i = k * WG + lid;
        var v = ident;
        if (base + i < n) {
            v = load_in(base + i);
        }
        tile[pad(i)] = v;
    }
    workgroupBarrier();
}

// The combination of this invocation's ITEMS consecutive elements, in order.
fn tile_thread_reduce(lid: u32, ident: T) -> T {
    var acc = ident;
    for (var j = 0u; j < ITEMS; j++) {
        acc = combine(acc, tile[pad(lid * ITEMS + j)]);
    }
    return acc;
}

// Rewrites this invocation's run as its scan seeded with `prefix`, then waits.
fn tile_rescan(lid: u32, seed: T, inclusive: bool) {
    var prefix = seed;
    for (var j = 0u; j < ITEMS; j++) {
        let idx = pad(lid * ITEMS + j);
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
}

// Stores elements [base, min(base + TILE, n)).
fn tile_store(base: u32, n: u32, lid: u32) {
    for (var k = 0u; k < ITEMS; k++) {
        let i = k * WG + lid;
        if (base + i < n) {
            dst[base + i] = tile[pad(i)];
        }
    }
}
