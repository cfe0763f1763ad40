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
// Heads: element 0 always starts a segment; with keys (BYKEY_FLAGS = 0) element i > 0
// does where key[i] != key[i - 1] (32-bit equality: u32 and i32 alike); with flags,
// where its flag byte is not zero (one byte an element, 4 a u32 word).
//
// Bindings: 0 vals4, 4 vals (the values as 16-byte words, and as scalars over the whole
// range), 8 keys4, 9 keys (the keys likewise; with flags, 9 alone holds the flag
// bytes), 1 out4 (the output's first params.words words), 5 out_tail (the rest), 2
// Params (the scan's record: n, tile_base = 0, words), 3 tile states.

@group(0) @binding(0) var<storage, read> vals4: array<vec4<T>>;
@group(0) @binding(4) var<storage, read> vals: array<T>;
@group(0) @binding(8) var<storage, read> keys4: array<vec4<u32>>;
@group(0) @binding(9) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> out4: array<vec4<T>>;
@group(0) @binding(5) var<storage, read_write> out_tail: array<T>;

// Word q of the values; past n the identity. Whole tiles lie in the word view and take
// plain loads; elsewhere the loads are clamped into the views and chosen with select,
// without a branch, since subgroup operations follow (docs/design.md, section 3).
fn load_vals(q: u32, n: u32, ident: T, whole: bool) -> vec4<T> {
    if (whole) {
        return vals4[q];
    }
    let full = vals4[min(q, max(params.words, 1u) - 1u)];
    var v: vec4<T>;
    for (var j = 0u; j < 4u; j++) {
        let i = 4u * q + j;
        v[j] = select(select(vals[min(i, n - 1u)], full[j], q < params.words), ident, i >= n);
    }
    return v;
}

fn load_keys(q: u32, n: u32, whole: bool) -> vec4<u32> {
    if (whole) {
        return keys4[q];
    }
    let full = keys4[min(q, max(params.words, 1u) - 1u)];
    var k: vec4<u32>;
    for (var j = 0u; j < 4u; j++) {
        k[j] = select(keys[min(4u * q + j, n - 1u)], full[j], q < params.words);
    }
    return k;
}

// Word q's heads, bit j for element 4q + j (none past n).
fn load_heads(q: u32, n: u32, whole: bool) -> u32 {
    var h: u32;
    if (BYKEY_FLAGS != 0u) {
        let f = keys[min(q, (n - 1u) / 4u)];
        h = select(0u, 1u, (f & 0xFFu) != 0u) | select(0u, 2u, (f & 0xFF00u) != 0u) |
            select(0u, 4u, (f & 0xFF0000u) != 0u) | select(0u, 8u, (f & 0xFF000000u) != 0u);
    } else {
        let k = load_keys(q, n, whole);
        let before = keys[min(max(4u * q, 1u) - 1u, n - 1u)];
        h = select(0u, 1u, k.x != before) | select(0u, 2u, k.y != k.x) | select(0u, 4u, k.z != k.y) |
            select(0u, 8u, k.w != k.z);
    }
    h = h | select(0u, 1u, q == 0u);
    let valid = min(max(n, 4u * q) - 4u * q, 4u); // elements of the word below n
    return h & ((1u << valid) - 1u);
}

// A word's entry: whether it holds a head, and its value since its last head (all of
// it where none). The fallbacks build predecessors' entries with this same function.
fn word_entry(v: vec4<T>, h: u32) -> SegEntry {
    var x = v.x;
    x = select(combine(x, v.y), v.y, (h & 2u) != 0u);
    x = select(combine(x, v.z), v.z, (h & 4u) != 0u);
    x = select(combine(x, v.w), v.w, (h & 8u) != 0u);
    return SegEntry(Acc(x, NO_INDEX), select(0u, 1u, h != 0u));
}

// The chain's hook (workgroup/segmented_chain_*.wgsl): word q of tile j from the input.
fn seg_word_at(j: u32, q: u32, n: u32) -> SegEntry {
    let ts = j * TILE;
    let whole = ts + TILE <= 4u * params.words;
    let g = ts / 4u + q;
    return word_entry(load_vals(g, n, identity_from_bits(IDENTITY_BITS), whole), load_heads(g, n, whole));
}

fn store_word(q: u32, n: u32, v: vec4<T>) {
    if (q < params.words) {
        out4[q] = v;
        return;
    }
    for (var j = 0u; j < 4u; j++) {
        let i = 4u * q + j;
        if (i < n) {
            out_tail[i - 4u * params.words] = v[j];
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
    let q0 = t * (TILE / 4u) + ids.lid;
    var w: array<vec4<T>, ROWS>;
    var heads: array<u32, ROWS>;
    for (var r = 0u; r < ROWS; r++) {
        w[r] = load_vals(q0 + r * WG, n, ident, whole);
    }
    for (var r = 0u; r < ROWS; r++) {
        heads[r] = load_heads(q0 + r * WG, n, whole);
    }
    for (var r = 0u; r < ROWS; r++) {
        seg_words[r] = word_entry(w[r], heads[r]);
    }
    seg_total = segmented_scan_tile(ids); // seg_words[r]: what the tile's earlier words hand on
    let prefix = tile_chain(ids, t, n, ident);
    for (var r = 0u; r < ROWS; r++) {
        let e = seg_words[r];
        var run = select(combine(prefix, e.a.v), e.a.v, e.f != 0u);
        let v = w[r];
        var o: vec4<T>;
        for (var j = 0u; j < 4u; j++) {
            let head = ((heads[r] >> j) & 1u) != 0u;
            let before = select(run, ident, head);
            run = select(combine(run, v[j]), v[j], head);
            o[j] = select(before, run, SCAN_INCLUSIVE);
        }
        store_word(q0 + r * WG, n, o);
    }
}
