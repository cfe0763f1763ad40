// SPDX-License-Identifier: MIT
// select.wgsl: stream compaction (select, partition, unique, run-length encoding) in
// three steps that never wait on another workgroup:
//   select_count    the selected elements of each group of G consecutive tiles counted
//                   into group_sums (select_count_flags for byte flags, which also
//                   writes the flags as bits; select_clear first for the other modes)
//   (scan)          group_sums scanned inclusively in place (the scan plan)
//   select_scatter  a workgroup per group: each tile in turn ranks its selected
//                   elements with one workgroup scan, stages them in workgroup memory
//                   in order and writes them out as one contiguous, coalesced run at its
//                   prefix (the group's, plus its earlier tiles' counts); a partition
//                   writes the rejected ones after all selected ones, in order as well
// With byte flags the first step reads a quarter of the data and the scatter a 32nd of
// it as bits, so the whole costs about one read of the data and one write of the
// selected part (the figures and what was tried: docs/design.md).
//
// The other modes' count pass sees a tile as ROWS rows of WG 16-byte words (invocation
// lid holds word k * WG + lid of row k): every load is coalesced; it takes COUNT_TILES
// tiles per workgroup. The scatter ranks contiguous runs (see stage_run) and stages
// them, so that they leave as whole coalesced lines (storing each selected element
// straight at its place was slower).
//
// Bindings: 0 src (array<V>), 4 src4 (the same range as vec4), 5 flags (byte flags, 4 per
// word), 9 flags4 (their whole 16-byte words), 10 sel_bits (the flags as bits), 1 out,
// 3 group_sums, 6 pay_in, 7 pay_out, 8 count_out (u32: elements selected).
// Params (src/params.h): n, pred_a and pred_b (the predicate's operands), group_tiles
// (G: a power of two up to 16), tiles. What the plan fixes (MODE_* in bits 0..3, the
// FLAG_*, the predicate kind in bits 8..11) is the constant SEL_FLAGS: each pipeline
// holds only its own mode, so the other modes' code takes no registers.

@group(0) @binding(0) var<storage, read> src: array<V>;
@group(0) @binding(4) var<storage, read> src4: array<vec4<V>>;
@group(0) @binding(5) var<storage, read> sel_flags: array<u32>;
@group(0) @binding(9) var<storage, read> sel_flags4: array<vec4<u32>>; // whole 16-byte words of them
@group(0) @binding(1) var<storage, read_write> out: array<V>;
@group(0) @binding(3) var<storage, read_write> group_sums: array<atomic<u32>>;
@group(0) @binding(10) var<storage, read_write> sel_bits: array<u32>; // byte flags as bits
@group(0) @binding(6) var<storage, read> pay_in: array<u32>;
@group(0) @binding(7) var<storage, read_write> pay_out: array<u32>;
@group(0) @binding(8) var<storage, read_write> count_out: array<u32>;

const ROWS: u32 = ITEMS / 4u; // rows of WG 16-byte words in a tile

var<workgroup> stage: array<u32, TILE + TILE / 32u>;

// Bit j set when byte j of a word of byte flags is non-zero: the high bit of each byte
// after the add is set exactly for the non-zero bytes, without a branch.
fn byte_mask(w: u32) -> u32 {
    let nz = (((w & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | w) & 0x80808080u;
    return ((nz >> 7u) & 1u) | ((nz >> 14u) & 2u) | ((nz >> 21u) & 4u) | ((nz >> 28u) & 8u);
}

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
            m |= select(0u, 1u << j, predicate(kind, x[j], params.pred_a, params.pred_b));
        }
    } else {
        var prev = src[min(max(4u * q, 1u) - 1u, n - 1u)];
        for (var j = 0u; j < 4u; j++) {
            m |= select(0u, 1u << j, (q == 0u && j == 0u) || !values_equal(x[j], prev));
            prev = x[j];
        }
    }
    let valid = min(n - min(n, 4u * q), 4u);
    return m & ((1u << valid) - 1u);
}

// Tiles are counted in groups of params.group_tiles (G, a power of two up to 16) consecutive tiles:
// group_sums holds one count per group, and one scatter workgroup takes a whole group,
// adding up its tiles' counts as it ranks them. Fewer sums to scan, fewer to read back.
var<workgroup> group_counts: array<atomic<u32>, 16>;

// Tile groups in all.
fn group_total() -> u32 {
    return (params.tiles + params.group_tiles - 1u) / params.group_tiles;
}

// Hands the workgroup's gathered counts on: slot s (s < slots) to group u0 + s, added when
// other workgroups add to the same group, else stored. Every invocation calls it (barrier).
fn publish_group_counts(lid: u32, u0: u32, slots: u32, add: bool) {
    workgroupBarrier();
    if (lid < slots && u0 + lid < group_total()) {
        let c = atomicLoad(&group_counts[lid]);
        if (add) {
            atomicAdd(&group_sums[u0 + lid], c);
        } else {
            atomicStore(&group_sums[u0 + lid], c);
        }
    }
}

// The count of the modes that read the values (IF, unique, run lengths): a workgroup
// counts COUNT_TILES tiles, so that each invocation has COUNT_TILES * ROWS loads in
// flight (one tile alone left the reads latency-bound), and adds them to their groups'
// sums: stored when a group fits in a workgroup, else added to zeros from select_clear
// (a workgroup per group left too few of them at 2^22 to 2^25, where groups are large).

@compute @workgroup_size(WG)
fn select_clear(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = tile_index(wid, nwg) * WG + ids.lid;
    if (i < group_total()) {
        atomicStore(&group_sums[i], 0u);
    }
}

@compute @workgroup_size(WG)
fn select_count(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = params.group_tiles;
    let t0 = tile_index(wid, nwg) * COUNT_TILES;
    if (t0 >= params.tiles) {
        return; // past the last tile of a folded grid (workgroup-uniform)
    }
    let n = params.n;
    var c: array<u32, COUNT_TILES>;
    for (var k = 0u; k < COUNT_TILES; k++) { // c starts at zero, as every WGSL var
        let whole = tile_is_whole((t0 + k) * TILE, n);
        for (var s = 0u; s < ROWS; s++) {
            let q = (t0 + k) * (TILE / 4u) + s * WG + ids.lid;
            c[k] += countOneBits(word_mask(q, n, load_word(q, n, whole)));
        }
    }
    // Groups and workgroups nest (both powers of two): tile k is in slot k / g.
    for (var k = 0u; k < COUNT_TILES; k++) {
        atomicAdd(&group_counts[k / g], c[k]);
    }
    // Groups larger than the workgroup's tiles gather from several workgroups.
    publish_group_counts(ids.lid, t0 / g, max(COUNT_TILES / g, 1u), g > COUNT_TILES);
}

// 16 byte flags (one 16-byte word) as 16 bits.
fn flag_bits16(w: vec4<u32>) -> u32 {
    return byte_mask(w.x) | (byte_mask(w.y) << 4u) | (byte_mask(w.z) << 8u) | (byte_mask(w.w) << 12u);
}

// The count for byte flags (FLAGGED): only the flags are read, 32 per invocation and
// load pair (two 16-byte words), FLAG_TILES tiles a workgroup, ITEMS loads in flight an
// invocation; the counts gather in workgroup atomics (the invocations that share a group
// need not share a subgroup). It also writes the flags as bits (sel_bits, one u32 per 32
// elements), which the scatter reads instead of the bytes: an eighth of their size.
const FLAG_PAIRS: u32 = ITEMS / 2u; // load pairs an invocation
const TILE_PAIRS: u32 = TILE / 32u; // 32-flag pieces a tile

@compute @workgroup_size(WG)
fn select_count_flags(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                      @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = params.group_tiles;
    let t0 = tile_index(wid, nwg) * FLAG_TILES;
    if (t0 >= params.tiles) {
        return; // past the last tile of a folded grid (workgroup-uniform)
    }
    let n = params.n;
    let p0 = t0 * TILE_PAIRS + ids.lid; // the first piece
    var m: array<u32, FLAG_PAIRS>;
    if ((t0 + FLAG_TILES) * TILE <= n / 16u * 16u) { // all in the 16-byte view (uniform)
        var w: array<vec4<u32>, ITEMS>;
        for (var j = 0u; j < FLAG_PAIRS; j++) {
            w[2u * j] = sel_flags4[2u * (p0 + j * WG)];
            w[2u * j + 1u] = sel_flags4[2u * (p0 + j * WG) + 1u];
        }
        for (var j = 0u; j < FLAG_PAIRS; j++) {
            m[j] = flag_bits16(w[2u * j]) | (flag_bits16(w[2u * j + 1u]) << 16u);
        }
    } else { // the last workgroup: 4-byte words, bytes past n ignored
        let words = (n + 3u) / 4u;
        for (var j = 0u; j < FLAG_PAIRS; j++) {
            for (var k = 0u; k < 8u; k++) {
                let q = 8u * (p0 + j * WG) + k;
                let valid = min(n - min(n, 4u * q), 4u);
                let x = select(0u, sel_flags[min(q, words - 1u)], q < words);
                m[j] |= (byte_mask(x) & ((1u << valid) - 1u)) << (4u * k);
            }
        }
    }
    for (var j = 0u; j < FLAG_PAIRS; j++) {
        let p = p0 + j * WG;
        if (32u * p < n) {
            sel_bits[p] = m[j];
        }
        atomicAdd(&group_counts[(j * WG + ids.lid) / TILE_PAIRS / g], countOneBits(m[j]));
    }
    publish_group_counts(ids.lid, t0 / g, FLAG_TILES / g, false); // whole groups (g <= 16)
}

// The scatter works on contiguous runs: invocation i owns elements i * ITEMS ..
// i * ITEMS + ITEMS - 1 of its tile, so one workgroup scan of the per-invocation counts
// ranks every element. Global memory is still read and written in coalesced 16-byte
// steps: words pass through `stage` (padded: conflict-free both ways).
fn spad(i: u32) -> u32 {
    return i + (i >> 5u);
}

var<private> prev_word: u32; // the word before this invocation's run (unique)
var<private> run_flags: array<u32, ITEMS / 4u>; // this invocation's byte flags (flagged)

// This invocation's byte flags (FLAGGED; none otherwise), loaded before the elements so
// that both loads are in flight together.
fn load_run_flags(t: u32, n: u32, lid: u32) -> array<u32, ITEMS / 4u> {
    var f: array<u32, ITEMS / 4u>;
    let first = t * TILE + lid * ITEMS;
    if ((SEL_FLAGS & 15u) == MODE_FLAGGED) {
        for (var w = 0u; w < ITEMS / 4u; w++) {
            if (first + 4u * w < n) {
                f[w] = sel_flags[first / 4u + w];
            }
        }
    }
    return f;
}

// The run's flags as bits (FLAGGED, three passes: written by select_count_flags) in
// run_flags[0]'s low ITEMS bits after a shift by the run's place in its 32-bit word.
fn load_run_bits(t: u32, n: u32, lid: u32) -> array<u32, ITEMS / 4u> {
    var f: array<u32, ITEMS / 4u>;
    let first = t * TILE + lid * ITEMS;
    if ((SEL_FLAGS & 15u) == MODE_FLAGGED && first < n) {
        f[0] = sel_bits[first / 32u];
    }
    return f;
}

// What the mask needs besides the elements: the run's flags (as loaded, bytes or bits),
// or for the first run of a tile the element before it (unique), loaded here.
fn prefetch_run(t: u32, n: u32, lid: u32, flags: array<u32, ITEMS / 4u>) {
    run_flags = flags;
    if ((SEL_FLAGS & 15u) == MODE_HEADS && lid == 0u && t > 0u) {
        prev_word = bitcast<u32>(src[t * TILE - 1u]);
    }
}

// This invocation's words of tile t (what 0: the elements, 1: the payloads), row k in
// entry k, coalesced; entries past n are unused. Held in registers, so that the scatter
// can load the next tile while it ranks and writes this one.
fn load_rows(t: u32, n: u32, lid: u32, what: u32) -> array<vec4<u32>, ROWS> {
    let tile_q = t * (TILE / 4u);
    let whole = tile_is_whole(t * TILE, n);
    var w: array<vec4<u32>, ROWS>;
    for (var k = 0u; k < ROWS; k++) {
        let q = tile_q + k * WG + lid;
        if (what == 0u) {
            w[k] = bitcast<vec4<u32>>(load_word(q, n, whole)); // clamped: safe past n
        } else if ((SEL_FLAGS & FLAG_PAYLOAD_INDEX) != 0u) {
            w[k] = vec4<u32>(4u * q, 4u * q + 1u, 4u * q + 2u, 4u * q + 3u);
        } else {
            for (var j = 0u; j < 4u; j++) {
                if (4u * q + j < n) {
                    w[k][j] = pay_in[4u * q + j];
                }
            }
        }
    }
    return w;
}

// Passes the rows through stage and returns this invocation's run. Every invocation
// calls it (barriers).
fn stage_run(t: u32, n: u32, lid: u32, w: array<vec4<u32>, ROWS>) -> array<u32, ITEMS> {
    let tile_q = t * (TILE / 4u);
    for (var k = 0u; k < ROWS; k++) {
        if (4u * (tile_q + k * WG + lid) < n) {
            let e = 4u * (k * WG + lid);
            stage[spad(e)] = w[k].x;
            stage[spad(e + 1u)] = w[k].y;
            stage[spad(e + 2u)] = w[k].z;
            stage[spad(e + 3u)] = w[k].w;
        }
    }
    workgroupBarrier();
    var run: array<u32, ITEMS>;
    for (var j = 0u; j < ITEMS; j++) {
        run[j] = stage[spad(lid * ITEMS + j)];
    }
    if (lid > 0u) {
        prev_word = stage[spad(lid * ITEMS - 1u)];
    }
    workgroupBarrier();
    return run;
}

fn gather_run(t: u32, n: u32, lid: u32, what: u32) -> array<u32, ITEMS> {
    return stage_run(t, n, lid, load_rows(t, n, lid, what));
}

// Bit j set when element j of this invocation's run is selected. Without branches:
// the workgroup scan that ranks the runs uses subgroup operations, and Vulkan does not
// promise that lanes reconverge after a divergent branch.
fn run_mask(t: u32, n: u32, lid: u32, run: array<u32, ITEMS>, bits: bool) -> u32 {
    let mode = SEL_FLAGS & 15u;
    let first = t * TILE + lid * ITEMS;
    let valid = min(n - min(n, first), ITEMS);
    var m = 0u;
    if (mode == MODE_FLAGGED && bits) { // a run never straddles two words: 32 % ITEMS == 0
        m = run_flags[0] >> (first % 32u);
    } else if (mode == MODE_FLAGGED) {
        for (var w = 0u; w < ITEMS / 4u; w++) { // bits past valid are cleared below
            m |= byte_mask(run_flags[w]) << (4u * w);
        }
    } else if (mode == MODE_IF) {
        let kind = (SEL_FLAGS >> 8u) & 15u;
        for (var j = 0u; j < ITEMS; j++) {
            m |= select(0u, 1u << j, predicate(kind, bitcast<V>(run[j]), params.pred_a, params.pred_b));
        }
    } else {
        var prev = bitcast<V>(prev_word);
        for (var j = 0u; j < ITEMS; j++) {
            let x = bitcast<V>(run[j]);
            m |= select(0u, 1u << j, (first == 0u && j == 0u) || !values_equal(x, prev));
            prev = x;
        }
    }
    return m & ((1u << valid) - 1u); // valid <= ITEMS <= 16 keeps the shift below 32
}

// Puts the run's words at their places in stage: selected ones at their rank (from
// `base`), rejected ones after all selected ones when partitioning.
fn place_run(t: u32, n: u32, lid: u32, run: array<u32, ITEMS>, m: u32, base: u32, tile_sel: u32) {
    let is_partition = (SEL_FLAGS & FLAG_PARTITION) != 0u;
    let first = lid * ITEMS;
    let valid = min(n - min(n, t * TILE + first), ITEMS);
    var sel = base;
    for (var j = 0u; j < ITEMS; j++) {
        if (j < valid) {
            if ((m & (1u << j)) != 0u) {
                stage[spad(sel)] = run[j];
                sel += 1u;
            } else if (is_partition) {
                stage[spad(tile_sel + first + j - sel)] = run[j];
            }
        }
    }
}

// Writes a ranked tile: its elements (and payloads) staged in order, then `words` of
// them stored: the tile_sel selected ones from `prefix` on, the rejected ones of a
// partition from rejected_base on. Every invocation calls it (barriers).
fn write_tile(t: u32, n: u32, lid: u32, run: array<u32, ITEMS>, m: u32, base: u32, tile_sel: u32,
              words: u32, prefix: u32, rejected_base: u32) {
    place_run(t, n, lid, run, m, base, tile_sel);
    workgroupBarrier();
    for (var i = lid; i < words; i += WG) {
        let at = select(rejected_base + i - tile_sel, prefix + i, i < tile_sel);
        out[at] = bitcast<V>(stage[spad(i)]);
    }
    if ((SEL_FLAGS & (FLAG_PAYLOAD | FLAG_PAYLOAD_INDEX)) != 0u) {
        workgroupBarrier();
        place_run(t, n, lid, gather_run(t, n, lid, 1u), m, base, tile_sel);
        workgroupBarrier();
        for (var i = lid; i < words; i += WG) {
            let at = select(rejected_base + i - tile_sel, prefix + i, i < tile_sel);
            pay_out[at] = stage[spad(i)];
        }
    }
}

// A workgroup scatters one group (params.group_tiles consecutive tiles) in turn, starting at the
// group's prefix and adding each tile's count from its ranking scan; it loads the next
// tile's flags and elements before it ranks and writes the current one, so that its
// reads stay in flight through the ranking's barriers and the stores.
@compute @workgroup_size(WG)
fn select_scatter(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                  @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = params.group_tiles;
    let groups = group_total();
    let u = tile_index(wid, nwg);
    if (u >= groups) {
        return; // past the last group of a folded grid (workgroup-uniform)
    }
    let n = params.n;
    let lid = ids.lid;
    let total = atomicLoad(&group_sums[groups - 1u]);
    var prefix = select(0u, atomicLoad(&group_sums[max(u, 1u) - 1u]), u > 0u);
    let is_partition = (SEL_FLAGS & FLAG_PARTITION) != 0u;
    let t0 = u * g;
    var flags = load_run_bits(t0, n, lid);
    var rows = load_rows(t0, n, lid, 0u);
    for (var k = 0u; k < g; k++) {
        let t = t0 + k;
        if (t >= params.tiles) {
            break; // workgroup-uniform
        }
        if (k > 0u) {
            workgroupBarrier(); // the last tile's stores have read stage and wg_total
        }
        let tile_start = t * TILE;
        prefetch_run(t, n, lid, flags);
        let run = stage_run(t, n, lid, rows);
        if (k + 1u < g && t + 1u < params.tiles) { // workgroup-uniform
            flags = load_run_bits(t + 1u, n, lid);
            rows = load_rows(t + 1u, n, lid, 0u);
        }
        let m = run_mask(t, n, lid, run, true);
        let base = workgroup_exclusive_scan(ids, countOneBits(m), 0u);
        let tile_sel = wg_total; // written before the scan's last barrier; read before any rewrite
        let rejected_base = total + tile_start - prefix;
        let words = select(tile_sel, min(TILE, n - tile_start), is_partition);
        write_tile(t, n, lid, run, m, base, tile_sel, words, prefix, rejected_base);
        prefix += tile_sel;
    }
    if (u == groups - 1u && lid == 0u) {
        count_out[0] = total;
    }
}

// The single pass (no partition): one kernel instead of count, scan and scatter. Each
// workgroup claims the next tile (workgroup/tile_state.wgsl), ranks its selected
// elements as select_scatter does, publishes the tile's count, gets the count of all
// tiles before it by decoupled look-back with fallback (workgroup/lookback_subgroup.wgsl
// or lookback_workgroup.wgsl), and writes its run. The data is read once, no tile sums
// are written or read back, and there are no pass boundaries. A partition needs the
// total before it can place the rejected elements, so it keeps the three steps.
// Binding 3 is the tile states here (the three passes' group_sums elsewhere).
@compute @workgroup_size(WG)
fn select_single_pass(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                      @builtin(num_workgroups) nwg: vec3<u32>) {
    if (tile_index(wid, nwg) >= params.tiles) {
        return; // a spare workgroup of a folded grid (workgroup-uniform)
    }
    let n = params.n;
    let lid = ids.lid;
    let t = claim_tile(lid);
    prefetch_run(t, n, lid, load_run_flags(t, n, lid));
    let run = gather_run(t, n, lid, 0u);
    let m = run_mask(t, n, lid, run, false);
    let base = workgroup_exclusive_scan(ids, countOneBits(m), 0u);
    let tile_sel = wg_total; // written before the scan's last barrier; read before any rewrite
    let prefix = tile_chain(ids, t, n, 0u);
    write_tile(t, n, lid, run, m, base, tile_sel, tile_sel, prefix, 0u); // selected only
    if (t == params.tiles - 1u && lid == 0u) {
        count_out[0] = prefix + tile_sel;
    }
}

// What the look-back asks of the tiles it chains (see its header): the tile's count,
// left in wg_total by the ranking scan, and a predecessor's count read from the input.
fn tile_aggregate_sg(lane: u32, size: u32, ident: u32) -> TileAgg {
    return TileAgg(wg_total, false);
}

fn tile_aggregate_wg(ids: Ids, ident: u32) -> TileAgg {
    return TileAgg(workgroupUniformLoad(&wg_total), false);
}

// Selected elements of word k of tile j (k past the tile's end counts none).
fn count_word(j: u32, k: u32, n: u32, whole: bool) -> u32 {
    let q = j * (TILE / 4u) + k;
    return countOneBits(word_mask(q, n, load_word(q, n, whole)));
}

// Tile j counted by the first subgroup: every lane counts the whole tile (the same
// addresses in every lane, so one load serves the subgroup), which needs no subgroup
// operation, so this module also compiles where the device has none. A rare path.
// Counts are integers: any order gives the owner's count.
fn fallback_aggregate(lane: u32, size: u32, j: u32, n: u32, ident: u32) -> TileAgg {
    let whole = tile_is_whole(j * TILE, n);
    var c = 0u;
    for (var k = 0u; k < TILE / 4u; k++) {
        c += count_word(j, k, n, whole);
    }
    return TileAgg(c, false);
}

fn fallback_aggregate_wg(ids: Ids, j: u32, n: u32, ident: u32) -> TileAgg {
    let whole = tile_is_whole(j * TILE, n);
    var c = 0u;
    for (var k = ids.lid; k < TILE / 4u; k += WG) {
        c += count_word(j, k, n, whole);
    }
    workgroup_exclusive_scan(ids, c, 0u);
    return TileAgg(workgroupUniformLoad(&wg_total), false);
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
