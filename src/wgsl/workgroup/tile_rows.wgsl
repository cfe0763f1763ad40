// tile_rows.wgsl: one tile of TILE = WG * ITEMS elements scanned in registers, for
// devices with subgroups. The tile is ROWS = ITEMS / 4 rows of WG 16-byte words: in row
// k invocation lid holds word k * WG + lid, so every load and store is a coalesced
// 16-byte access, the same as the copy kernel's (measured on an H200: a pass scanning
// such rows ran at copy speed, one whose lanes held 4 consecutive words at 0.7 of it).
//
// A lane scans its word (4 elements, in order), each subgroup scans its lanes' word
// totals in the row, and a table of ROWS x subgroups segment totals in workgroup memory,
// scanned by the first subgroup, links the segments: two barriers per tile, and one
// subgroup scan per 4 elements.
//
// The tile's total for the single pass (tile_total) comes before the scan, out of fixed
// steps that fallback_reduce in lookback_subgroup.wgsl repeats from the input with one
// subgroup, so a helper publishes the very bits the owner would.
//
// Same interface as tile.wgsl. The data bindings (16-byte view of the aligned part, a
// scalar view of the rest: params.c words in the first) come from the prelude.

const ROWS: u32 = ITEMS / 4u;

var<private> words: array<vec4<T>, ROWS>; // this lane's words, each scanned inclusively
var<private> lane_prefix: array<T, ROWS>; // exclusive prefix of the lane within its segment
var<workgroup> segments: array<T, ROWS * MAX_SUBGROUPS>; // segment totals, then prefixes

// Whether the tile at element `base` lies wholly in the word view (uniform across the
// workgroup, so branching on it keeps every lane together).
fn tile_is_whole(base: u32) -> bool {
    return base + TILE <= 4u * params.c;
}

// Word q of the chunk: a plain 16-byte load in whole tiles, else load4.
fn load_word(q: u32, n: u32, ident: T, whole: bool) -> vec4<T> {
    if (whole) {
        return load4_full(q);
    }
    return load4(q, n, ident);
}

// Word q of the chunk; elements at or past n read as ident. Without a branch: the
// subgroup operations that follow need every lane to have come the same way (Vulkan
// does not promise reconvergence after divergent code, and an H200 returned wrong
// scans of tail tiles when a branch stood here). Indices are clamped into the views.
fn load4(q: u32, n: u32, ident: T) -> vec4<T> {
    let in_view = params.c; // words in the 16-byte view
    let full = load4_full(min(q, max(in_view, 1u) - 1u));
    let tail_first = 4u * in_view;
    let tail_len = max(n, tail_first) - tail_first;
    var v: vec4<T>;
    for (var j = 0u; j < 4u; j++) {
        let i = 4u * q + j;
        let t = load_tail(min(max(i, tail_first) - tail_first, max(tail_len, 1u) - 1u));
        v[j] = select(select(t, full[j], q < in_view), ident, i >= n);
    }
    return v;
}

fn store4(q: u32, n: u32, v: vec4<T>) {
    if (q < params.c) {
        store4_full(q, v);
        return;
    }
    for (var j = 0u; j < 4u; j++) {
        let i = 4u * q + j;
        if (i < n) {
            store_tail(i - 4u * params.c, v[j]);
        }
    }
}

// This invocation's word of every row of the tile at element `base`. All loads are
// issued before any is used, so ROWS of them are in flight at once (as in the copy).
fn load_rows(ids: Ids, base: u32, n: u32, ident: T) -> array<vec4<T>, ROWS> {
    let q0 = base / 4u + ids.lid;
    let whole = tile_is_whole(base);
    var w: array<vec4<T>, ROWS>;
    for (var k = 0u; k < ROWS; k++) {
        w[k] = load_word(q0 + k * WG, n, ident, whole);
    }
    return w;
}

// Inclusive scan of one word, in element order.
fn scan_word(v: vec4<T>) -> vec4<T> {
    var w = v;
    w.y = combine(w.x, w.y);
    w.z = combine(w.y, w.z);
    w.w = combine(w.z, w.w);
    return w;
}

// Loads the tile; the scan itself waits for tile_finish, so that the single pass can
// publish the tile's total (tile_total) before doing it: the row scans then overlap
// the look-back instead of delaying every successor.
fn tile_scan_local(ids: Ids, base: u32, n: u32, ident: T, inclusive: bool) {
    words = load_rows(ids, base, n, ident);
}

// The loaded tile's total, in fixed steps that fallback_reduce in lookback_subgroup.wgsl
// repeats from the input: each lane folds its words' totals in row order, each subgroup
// reduces its lanes, invocation 0 folds the subgroups' totals in order. Every
// invocation calls it (barriers); the total is also left in wg_total.
fn tile_total(ids: Ids, ident: T) -> T {
    var acc = ident;
    for (var k = 0u; k < ROWS; k++) {
        acc = combine(acc, scan_word(words[k]).w);
    }
    let s = subgroup_reduce(ids.sg_lane, ids.sg_size, acc);
    if (ids.sg_lane == 0u) {
        sg_totals[ids.lid / ids.sg_size] = s;
    }
    workgroupBarrier();
    if (ids.lid == 0u) {
        var total = ident;
        for (var g = 0u; g < WG / ids.sg_size; g++) {
            total = combine(total, sg_totals[g]);
        }
        wg_total = total;
    }
    return workgroupUniformLoad(&wg_total);
}

// Scans the loaded tile and stores it seeded with prefix; leaves the tile's total in
// wg_total. Every invocation calls it (barriers).
fn tile_finish(ids: Ids, base: u32, n: u32, prefix: T, inclusive: bool) {
    let size = ids.sg_size;
    let lane = ids.sg_lane;
    let nsg = WG / size;
    let sg = ids.lid / size;
    let ident = identity_from_bits(IDENTITY_BITS);
    for (var k = 0u; k < ROWS; k++) {
        words[k] = scan_word(words[k]);
        let inc = subgroup_inclusive_scan(lane, size, words[k].w);
        var exc = subgroupShuffleUp(inc, 1u);
        if (lane == 0u) {
            exc = ident;
        }
        lane_prefix[k] = exc;
        if (lane == size - 1u) {
            segments[k * nsg + sg] = inc;
        }
    }
    workgroupBarrier();
    // The first subgroup scans the table: lane l folds entries l * per .. l * per + per - 1
    // in order, the lanes' folds are scanned, then each lane rewrites its entries.
    if (sg == 0u) {
        let count = ROWS * nsg;
        let per = (count + size - 1u) / size;
        var acc = ident;
        for (var i = 0u; i < per; i++) {
            let j = lane * per + i;
            if (j < count) {
                acc = combine(acc, segments[j]);
            }
        }
        let inc = subgroup_inclusive_scan(lane, size, acc);
        var run = subgroupShuffleUp(inc, 1u);
        if (lane == 0u) {
            run = ident;
        }
        for (var i = 0u; i < per; i++) {
            let j = lane * per + i;
            if (j < count) {
                let x = segments[j];
                segments[j] = run;
                run = combine(run, x);
            }
        }
        if (lane == size - 1u) {
            wg_total = inc;
        }
    }
    workgroupBarrier();
    let q0 = base / 4u + ids.lid;
    for (var k = 0u; k < ROWS; k++) {
        let p = combine(combine(prefix, segments[k * nsg + sg]), lane_prefix[k]);
        let w = words[k];
        var out: vec4<T>;
        if (inclusive) {
            out = vec4<T>(combine(p, w.x), combine(p, w.y), combine(p, w.z), combine(p, w.w));
        } else {
            out = vec4<T>(p, combine(p, w.x), combine(p, w.y), combine(p, w.z));
        }
        store4(q0 + k * WG, n, out);
    }
}

// The multi-level scan's last pass on one tile: p combined into every element, in place.
fn tile_add_prefix(ids: Ids, base: u32, n: u32, p: T) {
    let q0 = base / 4u + ids.lid;
    let w = load_rows(ids, base, n, p);
    for (var k = 0u; k < ROWS; k++) {
        let x = w[k];
        store4(q0 + k * WG, n, vec4<T>(combine(p, x.x), combine(p, x.y), combine(p, x.z), combine(p, x.w)));
    }
}

// The tile's total, left in wg_total (multi-level first pass: reads, writes nothing).
// Every invocation calls it (barriers).
fn tile_reduce(ids: Ids, base: u32, n: u32, ident: T) {
    words = load_rows(ids, base, n, ident);
    tile_total(ids, ident);
}
