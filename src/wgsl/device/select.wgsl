// select.wgsl: stream compaction (select, partition, unique, run-length encoding) in
// three steps that never wait on another workgroup:
//   select_count    each tile counts its selected elements into tile_sums
//   (scan)          tile_sums scanned inclusively in place (the scan plan)
//   select_scatter  each tile ranks its selected elements with workgroup scans and
//                   stores each at its place from the tile's prefix; a partition writes
//                   the rejected ones after all selected ones, in order as well
// With byte flags the first step reads a quarter of the data, so the whole costs about
// one read and one write of the selected data, like a copy.
//
// Both passes see a tile as ROWS rows of WG 16-byte words (invocation lid holds word
// k * WG + lid of row k) and the flag word of the same 4 elements: every load is
// coalesced, as in the scan's row tiles. The count pass takes COUNT_TILES tiles per
// workgroup.
//
// Bindings: 0 src (array<V>), 4 src4 (the same range as vec4), 5 flags (byte flags, 4 per
// word), 1 out, 3 tile_sums, 6 pay_in, 7 pay_out, 8 count_out (u32: elements selected).
// Params: n, a, b = predicate operands, d = tiles in all. What the plan fixes (mode in
// bits 0..3, FLAG_* below, predicate kind in bits 8..11) is the constant SEL_FLAGS (ARG):
// each pipeline holds only its own mode, which the compiler then keeps out of the
// registers of the others (the histogram's bin rule taught us: 4.7x).

@group(0) @binding(0) var<storage, read> src: array<V>;
@group(0) @binding(4) var<storage, read> src4: array<vec4<V>>;
@group(0) @binding(5) var<storage, read> sel_flags: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<V>;
@group(0) @binding(3) var<storage, read_write> tile_sums: array<u32>;
@group(0) @binding(6) var<storage, read> pay_in: array<u32>;
@group(0) @binding(7) var<storage, read_write> pay_out: array<u32>;
@group(0) @binding(8) var<storage, read_write> count_out: array<u32>;

const SEL_FLAGS: u32 = ARG;
const MODE_FLAGGED: u32 = 1u;
const MODE_IF: u32 = 2u;
const MODE_HEADS: u32 = 3u; // x[i] != x[i - 1], and x[0]
const FLAG_PARTITION: u32 = 16u;
const FLAG_PAYLOAD: u32 = 32u;
const FLAG_PAYLOAD_INDEX: u32 = 64u;
const ROWS: u32 = ITEMS / 4u; // rows of WG 16-byte words in a tile

// Bit j set when byte j of a word of byte flags is non-zero: the high bit of each byte
// after the add is set exactly for the non-zero bytes, without a branch.
fn byte_mask(w: u32) -> u32 {
    let nz = (((w & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | w) & 0x80808080u;
    return ((nz >> 7u) & 1u) | ((nz >> 14u) & 2u) | ((nz >> 21u) & 4u) | ((nz >> 28u) & 8u);
}

// A workgroup counts COUNT_TILES tiles, so that each invocation has several loads in
// flight (one tile alone left the flag reads latency-bound); the totals of two tiles
// share one workgroup scan as 16-bit halves (a tile holds at most 16384 < 2^16 elements).
const COUNT_TILES: u32 = 4u;

@compute @workgroup_size(WG)
fn select_count(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    let t0 = tile_index(wid, nwg) * COUNT_TILES;
    if (t0 >= params.d) {
        return; // past the last tile of a folded grid (workgroup-uniform)
    }
    let n = params.n;
    var c: array<u32, COUNT_TILES>;
    if ((SEL_FLAGS & 15u) == MODE_FLAGGED) {
        // Byte flags: every word loaded first (clamped, so no branch stands between the
        // loads and the compiler keeps them all in flight), then counted.
        let words = (n + 3u) / 4u;
        var w: array<u32, COUNT_TILES * ROWS>;
        for (var i = 0u; i < COUNT_TILES * ROWS; i++) {
            let q = (t0 + i / ROWS) * (TILE / 4u) + (i % ROWS) * WG + ids.lid;
            w[i] = select(0u, sel_flags[min(q, words - 1u)], q < words);
        }
        for (var i = 0u; i < COUNT_TILES * ROWS; i++) {
            let q = (t0 + i / ROWS) * (TILE / 4u) + (i % ROWS) * WG + ids.lid;
            let valid = min(n - min(n, 4u * q), 4u); // flags past n may hold anything
            c[i / ROWS] += countOneBits(byte_mask(w[i]) & ((1u << valid) - 1u));
        }
    } else {
        for (var k = 0u; k < COUNT_TILES; k++) { // c starts at zero, as every WGSL var
            let whole = tile_is_whole((t0 + k) * TILE, n);
            for (var s = 0u; s < ROWS; s++) {
                let q = (t0 + k) * (TILE / 4u) + s * WG + ids.lid;
                c[k] += countOneBits(word_mask(q, n, load_word(q, n, whole)));
            }
        }
    }
    var totals: array<u32, COUNT_TILES>;
    for (var k = 0u; k < COUNT_TILES; k += 2u) {
        workgroup_exclusive_scan(ids, c[k] | (c[k + 1u] << 16u), 0u);
        totals[k] = wg_total & 0xFFFFu;
        totals[k + 1u] = wg_total >> 16u;
        workgroupBarrier(); // wg_total is rewritten by the next scan
    }
    if (ids.lid < COUNT_TILES && t0 + ids.lid < params.d) {
        tile_sums[t0 + ids.lid] = totals[ids.lid];
    }
}

// The scatter, in rows like the scan's tiles: row k of a tile is WG 16-byte words of
// elements, invocation lid holds word k * WG + lid and the flag word of the same 4
// elements, so every load is coalesced and nothing passes through workgroup memory.
// The ranks come from workgroup scans of the per-word counts, two rows per scan as
// 16-bit halves (a row holds at most 4 * WG < 2^16 elements). Each selected element is
// then stored straight at its place: the selected elements of a row segment are one
// contiguous run of the output, which the L2 assembles into whole lines.

// Whether the tile starting at element `start` holds only whole words before n
// (uniform across the workgroup: a branch on it keeps the lanes together).
fn tile_is_whole(start: u32, n: u32) -> bool {
    return start + TILE <= n / 4u * 4u;
}

// Word q, without a divergent branch in a partial tile (subgroup operations follow, and
// Vulkan does not promise that lanes reconverge after one): indices clamped, elements
// past n unused.
fn load_word(q: u32, n: u32, whole: bool) -> vec4<V> {
    if (whole) {
        return src4[q];
    }
    let words = n / 4u;
    let full = src4[min(q, max(words, 1u) - 1u)];
    var x: vec4<V>;
    for (var j = 0u; j < 4u; j++) {
        let i = 4u * q + j;
        let t = src[min(i, n - 1u)];
        x[j] = select(t, full[j], q < words);
    }
    return x;
}

// Bit j set when element 4q + j (< n) is selected; x is word q.
fn word_mask(q: u32, n: u32, x: vec4<V>) -> u32 {
    var m = 0u;
    let mode = SEL_FLAGS & 15u;
    if (mode == MODE_FLAGGED) {
        m = byte_mask(sel_flags[min(q, (n + 3u) / 4u - 1u)]);
    } else if (mode == MODE_IF) {
        let kind = (SEL_FLAGS >> 8u) & 15u;
        for (var j = 0u; j < 4u; j++) {
            m |= select(0u, 1u << j, predicate(kind, x[j]));
        }
    } else {
        var prev = src[min(max(4u * q, 1u) - 1u, n - 1u)];
        for (var j = 0u; j < 4u; j++) {
            m |= select(0u, 1u << j, (q == 0u && j == 0u) || x[j] != prev);
            prev = x[j];
        }
    }
    let valid = min(n - min(n, 4u * q), 4u);
    return m & ((1u << valid) - 1u);
}

// The payload word of word q (FLAG_PAYLOAD: pay_in; FLAG_PAYLOAD_INDEX: the indices).
fn payload_word(q: u32, n: u32) -> vec4<u32> {
    if ((SEL_FLAGS & FLAG_PAYLOAD_INDEX) != 0u) {
        return vec4<u32>(4u * q, 4u * q + 1u, 4u * q + 2u, 4u * q + 3u);
    }
    var w: vec4<u32>;
    for (var j = 0u; j < 4u; j++) {
        w[j] = pay_in[min(4u * q + j, n - 1u)];
    }
    return w;
}

@compute @workgroup_size(WG)
fn select_scatter(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                  @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = tile_index(wid, nwg);
    if (t >= params.d) {
        return;
    }
    let n = params.n;
    let lid = ids.lid;
    var prefix = 0u;
    if (t > 0u) {
        prefix = tile_sums[t - 1u];
    }
    let total = tile_sums[params.d - 1u];
    let tile_start = t * TILE;
    let is_partition = (SEL_FLAGS & FLAG_PARTITION) != 0u;
    let has_payload = (SEL_FLAGS & (FLAG_PAYLOAD | FLAG_PAYLOAD_INDEX)) != 0u;
    let whole = tile_is_whole(tile_start, n);
    let q0 = tile_start / 4u + lid;

    var x: array<vec4<V>, ROWS>;
    var m: array<u32, ROWS>;
    for (var k = 0u; k < ROWS; k++) {
        x[k] = load_word(q0 + k * WG, n, whole);
    }
    for (var k = 0u; k < ROWS; k++) {
        m[k] = word_mask(q0 + k * WG, n, x[k]);
    }
    // Selected elements before this word within the tile, and the rows' totals.
    var before: array<u32, ROWS>;
    var row_base = 0u;
    for (var k = 0u; k < ROWS; k += 2u) {
        let ex = workgroup_exclusive_scan(ids, countOneBits(m[k]) | (countOneBits(m[k + 1u]) << 16u), 0u);
        let tot = wg_total;
        before[k] = row_base + (ex & 0xFFFFu);
        before[k + 1u] = row_base + (tot & 0xFFFFu) + (ex >> 16u);
        row_base += (tot & 0xFFFFu) + (tot >> 16u);
        workgroupBarrier(); // wg_total is rewritten by the next scan
    }
    let rejected_base = total + tile_start - prefix;
    for (var k = 0u; k < ROWS; k++) {
        let q = q0 + k * WG;
        var p: vec4<u32>;
        if (has_payload) {
            p = payload_word(q, n);
        }
        var sel = before[k];
        for (var j = 0u; j < 4u; j++) {
            let e = 4u * q + j; // element index
            if (e < n) {
                var at = 0xFFFFFFFFu;
                if ((m[k] & (1u << j)) != 0u) {
                    at = prefix + sel;
                    sel += 1u;
                } else if (is_partition) {
                    at = rejected_base + (e - tile_start) - sel;
                }
                if (at != 0xFFFFFFFFu) {
                    out[at] = x[k][j];
                    if (has_payload) {
                        pay_out[at] = p[j];
                    }
                }
            }
        }
    }
    if (t == params.d - 1u && lid == 0u) {
        count_out[0] = total;
    }
}

// Run lengths from run starts: pay_in holds the start index of each run (count_out[0]
// of them), pay_out receives start[j + 1] - start[j] (n - start[j] for the last).
@compute @workgroup_size(WG)
fn run_lengths(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let j = tile_index(wid, nwg) * WG + ids.lid;
    let runs = count_out[0];
    if (j < runs) {
        var next = params.n;
        if (j + 1u < runs) {
            next = pay_in[j + 1u];
        }
        pay_out[j] = next - pay_in[j];
    }
}

// n = 0: no tile runs, but the count must still say 0.
@compute @workgroup_size(1)
fn select_empty() {
    count_out[0] = 0u;
}
