// SPDX-License-Identifier: MIT
// tile_rows.wgsl: one tile of TILE = WG * ITEMS elements scanned in registers, for
// devices with subgroups. The tile is ROWS = ITEMS / 4 rows of WG words of 4 elements
// (T4): in row k invocation lid holds word k * WG + lid, so every load and store is a
// coalesced 16-byte access, the same as the copy kernel's (a user's element of several
// 32-bit words: that many adjacent 16-byte accesses), which is what lets a pass over
// rows run at copy speed (docs/design.md). Subgroup operations go through the
// prelude's shuffle_up_t and shuffle_t, which move any T; every step combines in input
// order (tile_reduce only where COMMUTATIVE allows another), so an operator need not
// commute.
//
// A lane scans its word (4 elements, in order), each subgroup scans its lanes' word
// totals in the row, and a table of ROWS x subgroups segment totals in workgroup memory,
// scanned by the first subgroup, links the segments: two barriers per tile, and one
// subgroup scan per 4 elements. The persistent single pass (scan_persistent.wgsl) keeps
// two tiles: the one being stored in `words`, the next one, loaded and row-scanned into
// the second segment table, in `ahead`.
//
// Interface: that of tile.wgsl, plus rows_scan_ahead (the row scans of `ahead` into a
// table), scan_segments (a table's scan, by one subgroup) and rows_store / tile_store
// (the stores once a table is scanned). The data bindings
// (16-byte view of the aligned part, a scalar view of the rest: params.words words in the
// first) come from the prelude.

const ROWS: u32 = ITEMS / 4u;

var<private> words: array<T4, ROWS>; // this lane's words, each scanned inclusively
var<private> lane_prefix: array<T, ROWS>; // exclusive prefix of the lane within its segment
// The tile being loaded and scanned while `words` waits to be stored (the persistent
// single pass): module-scope arrays like `words`, not arrays passed to functions, which
// an H200 ran at half speed (1970 against 870 µs a 2^28 scan).
var<private> ahead: array<T4, ROWS>;
var<private> ahead_prefix: array<T, ROWS>;
// Segment totals, then prefixes: two tables, at 0 and TABLE, so the persistent single
// pass (scan_persistent.wgsl) can scan its next tile's rows while it stores the current.
const TABLE: u32 = ROWS * MAX_SUBGROUPS;
var<workgroup> segments: array<T, 2u * TABLE>;

// Whether the tile at element `base` lies wholly in the word view (uniform across the
// workgroup, so branching on it keeps every lane together). With a count from the GPU
// (src/counts.c) the view is the bound's and n may end inside it: such a whole tile
// also reads and scans the words past n, which no element before n depends on, and
// stores (whole_before) only what lies before n.
fn tile_is_whole(base: u32) -> bool {
    return base + TILE <= 4u * params.words;
}

// Whether every element of that tile is stored with plain 16-byte stores: a whole tile
// that n does not cut. One test a tile, none a word.
fn whole_before(base: u32, n: u32) -> bool {
    return tile_is_whole(base) && base + TILE <= n;
}

// Word q of the chunk: a plain 16-byte load in whole tiles, else load4.
fn load_word(q: u32, n: u32, ident: T, whole: bool) -> T4 {
    if (whole) {
        return load4_full(q);
    }
    return load4(q, n, ident);
}

// Word q of the chunk; elements at or past n read as ident. Without a branch: the
// subgroup operations that follow need every lane to have come the same way (Vulkan
// does not promise reconvergence after divergent code, and an H200 returned wrong
// scans of tail tiles when a branch stood here). Indices are clamped into the views.
fn load4(q: u32, n: u32, ident: T) -> T4 {
    let in_view = params.words; // words in the 16-byte view
    let full = load4_full(min(q, max(in_view, 1u) - 1u));
    let tail_first = 4u * in_view;
    let tail_len = max(n, tail_first) - tail_first;
    var v: T4;
    for (var j = 0u; j < 4u; j++) {
        let i = 4u * q + j;
        let t = load_tail(min(max(i, tail_first) - tail_first, max(tail_len, 1u) - 1u));
        v[j] = select_t(select_t(t, full[j], q < in_view), ident, i >= n);
    }
    return v;
}

// Word q of a tile that whole_before does not clear: by elements where n cuts it.
fn store4(q: u32, n: u32, v: T4) {
    if (q < params.words && 4u * q + 4u <= n) {
        store4_full(q, v);
        return;
    }
    for (var j = 0u; j < 4u; j++) {
        let i = 4u * q + j;
        if (i < n) {
            if (q < params.words) { // n inside the view (a count from the GPU)
                store1_word(q, j, v[j]);
            } else {
                store_tail(i - 4u * params.words, v[j]);
            }
        }
    }
}

// This invocation's word of every row of the tile at element `base`. All loads are
// issued before any is used, so ROWS of them are in flight at once (as in the copy).
fn load_rows(ids: Ids, base: u32, n: u32, ident: T) -> array<T4, ROWS> {
    let q0 = base / 4u + ids.lid;
    let whole = tile_is_whole(base);
    var w: array<T4, ROWS>;
    for (var k = 0u; k < ROWS; k++) {
        w[k] = load_word(q0 + k * WG, n, ident, whole);
    }
    return w;
}

// Inclusive scan of one word, in element order.
fn scan_word(v: T4) -> T4 {
    var w = v;
    w[1] = combine(w[0], w[1]);
    w[2] = combine(w[1], w[2]);
    w[3] = combine(w[2], w[3]);
    return w;
}

// Scans each row of the tile in `ahead`: a lane scans its word (in place), each subgroup
// scans its lanes' word totals (each lane's exclusive prefix into ahead_prefix); the last lane of
// each (row, subgroup) segment writes the segment's total into the table at tb. The
// table is scanned later, after a barrier, by scan_segments.
fn rows_scan_ahead(ids: Ids, tb: u32, ident: T) {
    let size = ids.sg_size;
    let lane = ids.sg_lane;
    let nsg = WG / size;
    let sg = ids.lid / size;
    for (var k = 0u; k < ROWS; k++) {
        ahead[k] = scan_word(ahead[k]);
        let inc = subgroup_inclusive_scan(lane, size, ahead[k][3]);
        var exc = shuffle_up_t(inc, 1u);
        if (lane == 0u) {
            exc = ident;
        }
        ahead_prefix[k] = exc;
        if (lane == size - 1u) {
            segments[tb + k * nsg + sg] = inc;
        }
    }
}

// Loads the tile and scans its rows into this invocation's words and the first table.
fn tile_scan_local(ids: Ids, base: u32, n: u32, ident: T, inclusive: bool) {
    ahead = load_rows(ids, base, n, ident);
    rows_scan_ahead(ids, 0u, ident);
    words = ahead;
    lane_prefix = ahead_prefix;
}

// Entries of the segment table each lane of the first subgroup folds: lane l takes
// entries l * per .. l * per + per - 1, in order.
fn segments_per_lane(size: u32) -> u32 {
    return (ROWS * (WG / size) + size - 1u) / size;
}

// Run by the first subgroup once the table is complete (after a barrier): turns the
// segment totals into exclusive prefixes, in place, and returns the tile's total on
// every lane. fallback_aggregate (below) repeats these very steps from the input, so a
// helper publishes the bits the owner would.
fn scan_segments(lane: u32, size: u32, ident: T, tb: u32) -> T {
    let count = ROWS * (WG / size);
    let per = segments_per_lane(size);
    var acc = ident;
    for (var i = 0u; i < per; i++) {
        let j = lane * per + i;
        if (j < count) {
            acc = combine(acc, segments[tb + j]);
        }
    }
    let inc = subgroup_inclusive_scan(lane, size, acc);
    var run = shuffle_up_t(inc, 1u);
    if (lane == 0u) {
        run = ident;
    }
    for (var i = 0u; i < per; i++) {
        let j = lane * per + i;
        if (j < count) {
            let x = segments[tb + j];
            segments[tb + j] = run;
            run = combine(run, x);
        }
    }
    return shuffle_t(inc, size - 1u);
}

// The single pass's fallback (lookback_subgroup.wgsl): the aggregate of tile j read
// straight from the input by one subgroup, in
// exactly the steps of the owner (tile_scan_local, then scan_segments in tile_rows.wgsl):
// each (row, subgroup) segment's total from the same subgroup scan of the same words
// in the same lanes, folded by lane l of the table's scan over the same entries in the
// same order, then the same scan over the lanes. So a helper publishes the very bits
// the owner would, for floats too.
fn fallback_aggregate(lane: u32, size: u32, j: u32, n: u32, ident: T) -> TileAgg {
    if (COMBINE_EXACT) {
        // Integers: any order gives the owner's bits, so a plain strided fold (fewer
        // registers and instructions in the look-back's loop).
        let base4 = j * (TILE / 4u);
        let whole = tile_is_whole(j * TILE);
        var acc = ident;
        // Counted, not strided (docs/design.md, 3); rounded up, so a subgroup
        // wider than a quarter tile still covers it.
        let rounds = (TILE / 4u + size - 1u) / size;
        for (var k = 0u; k < rounds; k++) {
            let q = k * size + lane;
            if (q < TILE / 4u) {
                let w = load_word(base4 + q, n, ident, whole);
                acc = combine(acc, combine(combine(w[0], w[1]), combine(w[2], w[3])));
            }
        }
        return TileAgg(subgroup_reduce(lane, size, acc), false);
    }
    let base = j * TILE;
    let whole = tile_is_whole(base);
    let nsg = WG / size;
    let per = segments_per_lane(size);
    var acc = ident; // this lane's fold of table entries lane * per .. + per - 1
    for (var k = 0u; k < ROWS; k++) {
        for (var s = 0u; s < nsg; s++) {
            let w = load_word(base / 4u + k * WG + s * size + lane, n, ident, whole);
            let inc = subgroup_inclusive_scan(lane, size, scan_word(w)[3]);
            let segment = shuffle_t(inc, size - 1u);
            let e = k * nsg + s;
            if (e / per == lane) {
                acc = combine(acc, segment);
            }
        }
    }
    let inc = subgroup_inclusive_scan(lane, size, acc);
    return TileAgg(shuffle_t(inc, size - 1u), false);
}

// The single pass's tile aggregate (lookback_subgroup.wgsl): the table's scan.
fn tile_aggregate_sg(lane: u32, size: u32, ident: T) -> TileAgg {
    return TileAgg(scan_segments(lane, size, ident, 0u), false);
}

// Stores the scanned tile in `words` seeded with prefix, once the table at tb holds the
// segments' prefixes.
fn rows_store(ids: Ids, base: u32, n: u32, prefix: T, tb: u32, inclusive: bool) {
    let nsg = WG / ids.sg_size;
    let sg = ids.lid / ids.sg_size;
    let q0 = base / 4u + ids.lid;
    let whole = whole_before(base, n);
    for (var k = 0u; k < ROWS; k++) {
        let p = combine(combine(prefix, segments[tb + k * nsg + sg]), lane_prefix[k]);
        let w = words[k];
        var out: T4;
        if (inclusive) {
            out = T4(combine(p, w[0]), combine(p, w[1]), combine(p, w[2]), combine(p, w[3]));
        } else {
            out = T4(p, combine(p, w[0]), combine(p, w[1]), combine(p, w[2]));
        }
        if (whole) {
            store4_full(q0 + k * WG, out);
        } else {
            store4(q0 + k * WG, n, out);
        }
    }
}

fn tile_store(ids: Ids, base: u32, n: u32, prefix: T, inclusive: bool) {
    rows_store(ids, base, n, prefix, 0u, inclusive);
}

// Scans the segment table and stores the tile seeded with prefix; leaves the tile's
// total in wg_total. Every invocation calls it (barriers).
fn tile_finish(ids: Ids, base: u32, n: u32, prefix: T, inclusive: bool) {
    workgroupBarrier();
    if (ids.lid < ids.sg_size) { // the first subgroup (lanes are consecutive invocations)
        let total = scan_segments(ids.sg_lane, ids.sg_size, identity_from_bits(IDENTITY_BITS), 0u);
        if (ids.lid == 0u) {
            wg_total = total;
        }
    }
    workgroupBarrier();
    tile_store(ids, base, n, prefix, inclusive);
}

// The multi-level scan's last pass on one tile: p combined into every element, in place.
fn tile_add_prefix(ids: Ids, base: u32, n: u32, p: T) {
    let q0 = base / 4u + ids.lid;
    let w = load_rows(ids, base, n, p);
    let whole = whole_before(base, n);
    for (var k = 0u; k < ROWS; k++) {
        let x = w[k];
        let out = T4(combine(p, x[0]), combine(p, x[1]), combine(p, x[2]), combine(p, x[3]));
        if (whole) {
            store4_full(q0 + k * WG, out);
        } else {
            store4(q0 + k * WG, n, out);
        }
    }
}

// The tile's total, left in wg_total (multi-level first pass: reads, writes nothing):
// each lane folds its words' totals, each subgroup reduces its lanes, invocation 0
// folds the subgroups' totals; an operator that does not commute folds in the input's
// order instead. Every invocation calls it (barriers). Elements at or
// past n count as ident even in a whole tile (a count from the GPU), since a user's
// reduce (scan.c) takes the last tile's total as its result.
fn tile_reduce(ids: Ids, base: u32, n: u32, ident: T) {
    let q0 = base / 4u + ids.lid;
    let whole = whole_before(base, n);
    if (!COMMUTATIVE) {
        // A lane's words lie a row apart, so its fold would pass over its neighbours':
        // the rows are scanned as a scan's tile is, and the segment table folded in
        // order by the first subgroup (the tile's total has the bits of the scan's).
        for (var k = 0u; k < ROWS; k++) {
            ahead[k] = load_word(q0 + k * WG, n, ident, whole);
        }
        rows_scan_ahead(ids, 0u, ident);
        workgroupBarrier();
        if (ids.lid < ids.sg_size) { // the first subgroup
            let total = scan_segments(ids.sg_lane, ids.sg_size, ident, 0u);
            if (ids.lid == 0u) {
                wg_total = total;
            }
        }
        workgroupBarrier();
        return;
    }
    var w: array<T4, ROWS>;
    for (var k = 0u; k < ROWS; k++) {
        w[k] = load_word(q0 + k * WG, n, ident, whole);
    }
    var acc = ident;
    for (var k = 0u; k < ROWS; k++) {
        acc = combine(acc, scan_word(w[k])[3]);
    }
    let s = subgroup_reduce(ids.sg_lane, ids.sg_size, acc);
    if (ids.sg_lane == 0u) {
        sg_totals[ids.lid / ids.sg_size] = s;
    }
    workgroupBarrier();
    if (ids.lid == 0u) {
        var total = ident;
        let subgroups = WG / ids.sg_size; // a let: a bound Tint can see
        for (var g = 0u; g < subgroups; g++) {
            total = combine(total, sg_totals[g]);
        }
        wg_total = total;
    }
    workgroupBarrier();
}
