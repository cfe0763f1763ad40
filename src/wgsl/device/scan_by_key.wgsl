// SPDX-License-Identifier: MIT
// scan_by_key.wgsl: a scan that starts again at every segment start, the segments being
// runs of equal keys or given as head flags. One chained pass (the single pass of
// scan_single_pass.wgsl: tiles claimed in order, decoupled look-back with decoupled
// fallback, so no tile waits on another forever): the values and keys are read once
// and the values written once.
//
// Why the chain can carry it: pairs (head, value) under l . r = r where r holds a head,
// else (l.head, l.value + r.value) are associative (element/segment_entry.wgsl). A
// tile's aggregate is its value since its last head, and a tile that holds a head needs
// nothing from before it to hand on to its successors: it is published inclusive at
// once (a closed TileAgg) and every look-back stops at it. Its own elements before its
// first head still take the prefix from the look-back.
//
// A tile is ROWS rows of WG 16-byte words, in registers (as the scan's row tiles): in
// row r invocation lid holds word r * WG + lid of the tile, every load and store a
// coalesced 16-byte access. Each word's entry (its heads; its value since its last
// head) comes from its 4 values and heads; one segmented scan of the tile's entries in
// word order (workgroup/segmented_scan_subgroup.wgsl, or _workgroup.wgsl without
// subgroups) gives each word what the words before it in the tile hand on, and the
// tile's total; the look-back gives the tile's prefix; each word is then scanned from
// there. The combination order inside a tile depends only on n, the tile and the
// subgroup size; across tiles on what the look-back found ready.
//
// Where segments start comes from a head source, a helper file included before this one:
// element/heads_keys.wgsl (runs of equal keys, or byte flags: the scan by key) or
// workgroup/heads_offsets.wgsl (offsets: the segmented scan). It provides
//   HEADS_GAPS                        a constant: whether elements may lie outside every
//                                     segment (gaps: their values count as the identity)
//   heads_prepare(lid, t, n)          every invocation calls it once the tile's values are
//                                     loaded (it may hold barriers)
//   tile_marks(q, n, whole) -> u32    word q's marks in the owner's tile: bit j where
//                                     element 4q + j is a head, bit 4 + j where it is a gap
//                                     (a gap is a head too); none past n
//   input_marks(q, n, whole) -> u32   the same from the input alone, for fallbacks
//   run_carry() -> bool, run_carry_value() -> T   a carry-in that joins the first run
// With a carry-in, the first run is continued rather than started: element 0's value is
// carry . values[0] and element 0 is no head in the tile's entries, so tile 0's
// aggregate (and what a fallback rebuilds of it) carries the carry on to every element
// of the first run; an exclusive scan's element 0 is the carry itself.
//
// A user's operator runs here as it is (its T may be a struct: words of four elements are
// T4, arrays then, and selects over T are select_t); the chain folds its look-back in
// tile order, and every combination above keeps the input's order.
//
// Bindings: 0 vals4, 4 vals (the values as words of four, and as scalars over the whole
// range), 1 out4 (the output's first params.words words), 5 out_tail (the rest), 2
// Params (the scan's record: n, tile_base = 0, words, the carry's flags and bits,
// segments), 3 tile states; the head source's own.

@group(0) @binding(0) var<storage, read> vals4: array<T4>;
@group(0) @binding(4) var<storage, read> vals: array<T>;
@group(0) @binding(1) var<storage, read_write> out4: array<T4>;
@group(0) @binding(5) var<storage, read_write> out_tail: array<T>;

// Word q of the values; past n the identity. Whole tiles lie in the word view and take
// plain loads; elsewhere the loads are clamped into the views and chosen with select,
// without a branch, since subgroup operations follow (docs/design.md, section 3).
fn load_vals(q: u32, n: u32, ident: T, whole: bool) -> T4 {
    if (whole) {
        return vals4[q];
    }
    let full = vals4[min(q, max(params.words, 1u) - 1u)];
    var v: T4;
    for (var j = 0u; j < 4u; j++) {
        let i = 4u * q + j;
        v[j] = select_t(select_t(vals[min(i, n - 1u)], full[j], q < params.words), ident, i >= n);
    }
    return v;
}

// Word q's values as the scan takes them: a gap's elements count as the identity, and
// with a carry-in word 0 begins with carry . values[0].
fn scan_vals(v: T4, q: u32, marks: u32, ident: T) -> T4 {
    var x = v;
    if (HEADS_GAPS) {
        for (var j = 0u; j < 4u; j++) {
            x[j] = select_t(x[j], ident, ((marks >> (4u + j)) & 1u) != 0u);
        }
    }
    // (A select, not a branch: subgroup operations follow; docs/design.md, section 3.)
    x[0] = select_t(x[0], combine(run_carry_value(), x[0]), (q == 0u) & run_carry());
    return x;
}

// The heads of word q's entry: with a carry-in element 0 continues the carry's run.
fn entry_heads(q: u32, marks: u32) -> u32 {
    return select(marks & 15u, marks & 14u, (q == 0u) & run_carry());
}

// A word's entry: whether it holds a head, and its value since its last head (all of
// it where none). The fallbacks build predecessors' entries with this same function.
fn word_entry(v: T4, h: u32) -> SegEntry {
    var x = v[0];
    x = select_t(combine(x, v[1]), v[1], (h & 2u) != 0u);
    x = select_t(combine(x, v[2]), v[2], (h & 4u) != 0u);
    x = select_t(combine(x, v[3]), v[3], (h & 8u) != 0u);
    return SegEntry(Acc(x, NO_INDEX), select(0u, 1u, h != 0u));
}

// The chain's hook (workgroup/segmented_chain_*.wgsl): word q of tile j from the input.
fn seg_word_at(j: u32, q: u32, n: u32) -> SegEntry {
    let ts = j * TILE;
    let whole = ts + TILE <= 4u * params.words;
    let g = ts / 4u + q;
    let ident = identity_from_bits(IDENTITY_BITS);
    let m = input_marks(g, n, whole);
    return word_entry(scan_vals(load_vals(g, n, ident, whole), g, m, ident), entry_heads(g, m));
}

// A word of a tile that n cuts or that reaches past the word view. A count from the GPU
// (src/counts.c) may end n inside the view (the bound's): a word n cuts is then stored
// by elements. (Whole tiles read and scan their words past n as tile_rows.wgsl's do: no
// element before n depends on them.)
fn store_word(q: u32, n: u32, v: T4) {
    if (q < params.words && 4u * q + 4u <= n) {
        out4[q] = v;
        return;
    }
    for (var j = 0u; j < 4u; j++) {
        let i = 4u * q + j;
        if (i < n) {
            if (q < params.words) {
                out4[q][j] = v[j];
            } else {
                out_tail[i - 4u * params.words] = v[j];
            }
        }
    }
}

@compute @workgroup_size(WG)
fn scan_by_key(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = params.n;
    if (tile_index(wid, nwg) >= (n + TILE - 1u) / TILE) {
        return; // a spare workgroup of a two-dimensional grid: takes no tile
    }
    let t = claim_tile(ids.lid);
    let ident = identity_from_bits(IDENTITY_BITS);
    let whole = t * TILE + TILE <= 4u * params.words;
    let whole_before = whole && t * TILE + TILE <= n; // stored with plain 16-byte stores
    let q0 = t * (TILE / 4u) + ids.lid;
    var w: array<T4, ROWS>;
    var heads: array<u32, ROWS>; // the marks (tile_marks) of each row's word
    for (var r = 0u; r < ROWS; r++) {
        w[r] = load_vals(q0 + r * WG, n, ident, whole);
    }
    heads_prepare(ids.lid, t, n);
    for (var r = 0u; r < ROWS; r++) {
        heads[r] = tile_marks(q0 + r * WG, n, whole);
    }
    for (var r = 0u; r < ROWS; r++) {
        let q = q0 + r * WG;
        w[r] = scan_vals(w[r], q, heads[r], ident);
        seg_words[r] = word_entry(w[r], entry_heads(q, heads[r]));
    }
    seg_total = segmented_scan_tile(ids); // seg_words[r]: what the tile's earlier words hand on
    let prefix = tile_chain(ids, t, n, ident);
    for (var r = 0u; r < ROWS; r++) {
        let e = seg_words[r];
        var run = select_t(combine(prefix, e.a.v), e.a.v, e.f != 0u);
        let v = w[r];
        var o: T4;
        for (var j = 0u; j < 4u; j++) {
            let head = ((heads[r] >> j) & 1u) != 0u;
            let before = select_t(run, ident, head);
            run = select_t(combine(run, v[j]), v[j], head);
            o[j] = select_t(before, run, SCAN_INCLUSIVE);
        }
        if (!SCAN_INCLUSIVE && q0 + r * WG == 0u && run_carry()) {
            o[0] = run_carry_value();
        }
        if (whole_before) {
            out4[q0 + r * WG] = o;
        } else {
            store_word(q0 + r * WG, n, o);
        }
    }
}
