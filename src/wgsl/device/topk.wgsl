// SPDX-License-Identifier: MIT
// topk.wgsl: the k best of each row of a rows x n matrix by radix select (src/topk.c
// records the passes). Keys are compared as element/sort_key.wgsl orders them, mapped
// so that the k wanted are always the k smallest mapped keys (largest: the mapping
// inverted); among equal keys the lower index wins, so the result is the first k of
// the radix sort's stable order.
//
//   topk_init       per row: the digit counts zeroed, prefix 0, want k; the candidates'
//                   counter zeroed
//   topk_histogram  per (row, HIST_TILES tiles): the top digit's counts (the first
//                   read of the keys), added to the row's once per HIST_TILES tiles:
//                   those adds all go to one row's 256 words, and a tile each was what
//                   took the time
//   topk_pick       per row, a workgroup: the digit whose count reaches `want` joins
//                   the prefix (a scan of the counts over the workgroup, not a loop of
//                   256 dependent reads); want drops by the keys of smaller digits; the
//                   counts are zeroed
//   topk_filter     per (row, HIST_TILES tiles) (the second read), tile by tile: the
//                   keys of the picked top digit become candidates (their places
//                   appended to `candidates`), their second digit counted; per tile
//                   the keys below that digit counted
//   topk_cand_histogram  per candidate (n: their count, from the GPU): the third and
//                   fourth digits' counts of those that agree with the prefix
//   After four picks the prefix is the row's k-th mapped key T, and want is how many
//   keys equal to T are taken (the first ones by index).
//   topk_cand_tiles per candidate: its tile's counts of keys below T and equal to it
//   (then the plan's scan plan: the exclusive prefixes of all the counts, in order)
//   topk_write      per (row, WRITE_TILES tiles): a key below T, or one of the first
//                   `want` equal to it, goes to place less_before + min(equal_before,
//                   want), which keeps the input order. Only tiles that hold one read
//                   their keys (their counts say which, an invocation a tile): for k
//                   much below n this is no third read
//   topk_rank       (sorted output) per row and WG of its k: each result's rank among
//                   the row's k (mapped key, then place), and its move there
//
// The passes over keys write their per-key code out per item (`// @each item`, as
// device/sort.wgsl): a tile's keys, or the candidates' places and then the keys at
// them, are all loaded before the first is used, so that the loads overlap; a load
// and an atomic in turn kept one load in flight an invocation.
//
// Params (src/params.h): n (the candidate kernels: the candidates, else unused), row_n
// (keys a row), rows, k, shift (a digit's lowest bit), tiles (tiles a row; topk_rank:
// groups a row).
// Plan constants: KEY_KIND (sort_key.wgsl), VALUE_MODE (0 none, 1 values, 2 indices),
// HIST_TILES, WRITE_TILES (at most 32: a bit of a word each).
// Bindings: 0 keys_in, 1 keys_out, 3 state (ROW_WORDS a row: digit counts, prefix,
// want; after the rows the candidates' counter), 4 tile_counts (a word a tile of each
// row: the keys below T; then as many: those equal to T), 5 values_in, 6 values_out,
// 7 candidates (a key's place row * row_n + index), 8 tile_offsets (tile_counts'
// exclusive scan).

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> state: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> tile_counts: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read> values_in: array<u32>;
@group(0) @binding(6) var<storage, read_write> values_out: array<u32>;
@group(0) @binding(7) var<storage, read_write> candidates: array<u32>;
@group(0) @binding(8) var<storage, read> tile_offsets: array<u32>;

const PREFIX: u32 = 256u;
const WANT: u32 = 257u;

var<workgroup> bins: array<atomic<u32>, RADIX>;
var<workgroup> sums: array<vec2<u32>, WG>;
var<workgroup> chunk: array<u32, WG>;
var<workgroup> wg_count: atomic<u32>;
var<workgroup> wg_less: atomic<u32>;
var<workgroup> wg_base: u32;
var<workgroup> wg_live: u32; // topk_write: a bit a tile that writes

fn mapped(bits: u32) -> u32 {
    let u = ordered_key(bits, 0u).x;
    return select(u, ~u, DESCENDING);
}

// The exclusive prefix of v over the workgroup (invocation order); .zw the total.
fn wg_exclusive(lid: u32, v: vec2<u32>) -> vec4<u32> {
    sums[lid] = v;
    workgroupBarrier();
    for (var d = 1u; d < WG; d <<= 1u) {
        var x = vec2<u32>(0u);
        if (lid >= d) {
            x = sums[lid - d];
        }
        workgroupBarrier();
        sums[lid] += x;
        workgroupBarrier();
    }
    let r = vec4<u32>(sums[lid] - v, sums[WG - 1u]);
    workgroupBarrier();
    return r;
}

@compute @workgroup_size(WG)
fn topk_init(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let row = tile_index(wid, nwg);
    if (row >= params.rows) {
        return;
    }
    for (var j = 0u; j < (RADIX + WG - 1u) / WG; j++) {
        let b = j * WG + ids.lid;
        if (b < RADIX) {
            atomicStore(&state[row * ROW_WORDS + b], 0u);
        }
    }
    if (ids.lid == 0u) {
        atomicStore(&state[row * ROW_WORDS + PREFIX], 0u);
        atomicStore(&state[row * ROW_WORDS + WANT], params.k);
        if (row == 0u) {
            atomicStore(&state[params.rows * ROW_WORDS], 0u);
        }
    }
}

@compute @workgroup_size(WG)
fn topk_histogram(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let groups = (params.tiles + HIST_TILES - 1u) / HIST_TILES;
    let g = tile_index(wid, nwg);
    let row = g / groups;
    if (row >= params.rows) {
        return;
    }
    clear_bins(ids.lid);
    workgroupBarrier();
    let row_n = params.row_n;
    let row_base = row * row_n;
    let first = (g - row * groups) * HIST_TILES * TILE;
    // Tile by tile, as the sort's count pass: a counted loop (docs/design.md, 3).
    for (var t = 0u; t < HIST_TILES; t++) {
        let tile_first = first + t * TILE;
        if (tile_first >= row_n) { // uniform: the row's last group may end early
            break;
        }
        let tile_n = min(TILE, row_n - tile_first);
        // @each item
        var hist_key# = 0u;
        if (#u * WG + ids.lid < tile_n) {
            hist_key# = keys_in[row_base + tile_first + #u * WG + ids.lid];
        }
        // @end
        // @each item
        if (#u * WG + ids.lid < tile_n) {
            atomicAdd(&bins[mapped(hist_key#) >> 24u], 1u);
        }
        // @end
    }
    workgroupBarrier();
    flush_bins(ids.lid, row);
}

// Each invocation takes PICK_RUN consecutive digits.
const PICK_RUN: u32 = (RADIX + WG - 1u) / WG;

@compute @workgroup_size(WG)
fn topk_pick(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let row = tile_index(wid, nwg);
    if (row >= params.rows) {
        return;
    }
    let base = row * ROW_WORDS;
    let want = atomicLoad(&state[base + WANT]);
    let lo = ids.lid * PICK_RUN;
    var c: array<u32, PICK_RUN>;
    var sum = 0u;
    for (var j = 0u; j < PICK_RUN; j++) {
        c[j] = 0u;
        if (lo + j < RADIX) {
            c[j] = atomicLoad(&state[base + lo + j]);
            atomicStore(&state[base + lo + j], 0u);
        }
        sum += c[j];
    }
    let before = wg_exclusive(ids.lid, vec2<u32>(sum, 0u)).x;
    // The one invocation whose digits hold the want-th key (want >= 1 and the row's
    // keys that agree with the prefix number at least want).
    if (before < want && want - before <= sum) {
        var w = want - before;
        var digit = lo;
        for (var j = 0u; j < PICK_RUN; j++) {
            if (w <= c[j]) {
                digit = lo + j;
                break;
            }
            w -= c[j];
        }
        atomicStore(&state[base + PREFIX], atomicLoad(&state[base + PREFIX]) | (digit << params.shift));
        atomicStore(&state[base + WANT], w);
    }
}

// The row and tile of a (row, tile) grid; rows past the end: row >= params.rows.
fn row_tile(wid: vec3<u32>, nwg: vec3<u32>) -> vec2<u32> {
    let g = tile_index(wid, nwg);
    let row = g / params.tiles;
    return vec2<u32>(row, g - row * params.tiles);
}

fn clear_bins(lid: u32) {
    for (var j = 0u; j < (RADIX + WG - 1u) / WG; j++) {
        let b = j * WG + lid;
        if (b < RADIX) {
            atomicStore(&bins[b], 0u);
        }
    }
}

// The workgroup's non-zero digit counts into the row's.
fn flush_bins(lid: u32, row: u32) {
    for (var j = 0u; j < (RADIX + WG - 1u) / WG; j++) {
        let b = j * WG + lid;
        if (b < RADIX) {
            let c = atomicLoad(&bins[b]);
            if (c != 0u) {
                atomicAdd(&state[row * ROW_WORDS + b], c);
            }
        }
    }
}

const NO_SLOT: u32 = 0xFFFFFFFFu;

@compute @workgroup_size(WG)
fn topk_filter(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let groups = (params.tiles + HIST_TILES - 1u) / HIST_TILES;
    let g = tile_index(wid, nwg);
    let row = g / groups;
    if (row >= params.rows) {
        return;
    }
    let top = atomicLoad(&state[row * ROW_WORDS + PREFIX]) >> 24u;
    let row_base = row * params.row_n;
    let first_tile = (g - row * groups) * HIST_TILES;
    clear_bins(ids.lid);
    // Tile by tile as the histogram (a workgroup a tile spent a third of the pass in
    // starting and clearing workgroups; H100, 2^28), the second digit's counts kept
    // over the group, each tile's candidates placed before the next.
    for (var t = 0u; t < HIST_TILES; t++) {
        let tile = first_tile + t;
        let first = tile * TILE;
        if (first >= params.row_n) { // uniform: the row's last group may end early
            break;
        }
        let tile_n = min(TILE, params.row_n - first);
        // The keys' loads go out before the barrier.
        // @each item
        var filter_key# = 0u;
        if (#u * WG + ids.lid < tile_n) {
            filter_key# = keys_in[row_base + first + #u * WG + ids.lid];
        }
        // @end
        if (ids.lid == 0u) { // the last tile's counts: read by this invocation already
            atomicStore(&wg_count, 0u);
            atomicStore(&wg_less, 0u);
        }
        workgroupBarrier();
        var less = 0u;
        // @each item
        var slot# = NO_SLOT;
        if (#u * WG + ids.lid < tile_n) {
            let u = mapped(filter_key#);
            if ((u >> 24u) < top) {
                less++;
            } else if ((u >> 24u) == top) {
                slot# = atomicAdd(&wg_count, 1u);
                atomicAdd(&bins[(u >> 16u) & 255u], 1u);
            }
        }
        // @end
        if (less != 0u) {
            atomicAdd(&wg_less, less);
        }
        workgroupBarrier();
        if (ids.lid == 0u) {
            let c = atomicLoad(&wg_count);
            var base = 0u;
            if (c != 0u) {
                base = atomicAdd(&state[params.rows * ROW_WORDS], c);
            }
            wg_base = base;
            let at = row * params.tiles + tile;
            atomicStore(&tile_counts[at], atomicLoad(&wg_less));
            atomicStore(&tile_counts[params.rows * params.tiles + at], 0u);
        }
        workgroupBarrier();
        let base = wg_base;
        // @each item
        if (slot# != NO_SLOT) {
            candidates[base + slot#] = row_base + first + #u * WG + ids.lid;
        }
        // @end
    }
    workgroupBarrier();
    flush_bins(ids.lid, row);
}

// A workgroup's candidates (TILE places from `first`, cand_n of them) and their keys, one
// variable an item (the composer's: registers), the places all loaded before the keys
// so that the loads overlap.
// @each item
var<private> cand_at#: u32;
var<private> cand_key#: u32;
// @end

fn load_candidates(lid: u32, first: u32, cand_n: u32) {
    // @each item
    cand_at# = 0u;
    if (#u * WG + lid < cand_n) {
        cand_at# = candidates[first + #u * WG + lid];
    }
    // @end
    // @each item
    cand_key# = 0u;
    if (#u * WG + lid < cand_n) {
        cand_key# = keys_in[cand_at#];
    }
    // @end
}

// The workgroup's candidates: their rows and places. Counts go to workgroup atomics
// for the row (or tile) of the workgroup's first candidate, where a filter workgroup's
// candidates lie together, and straight to the row's (tile's) counts otherwise.
@compute @workgroup_size(WG)
fn topk_cand_histogram(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let first = tile_index(wid, nwg) * TILE;
    let count = params.n;
    if (first >= count) {
        return;
    }
    let cand_n = min(TILE, count - first);
    load_candidates(ids.lid, first, cand_n);
    clear_bins(ids.lid);
    workgroupBarrier();
    let shift = params.shift;
    let high = 0xFFFFFFFFu << (shift + 8u);
    let lead_row = candidates[first] / params.row_n;
    let lead_prefix = atomicLoad(&state[lead_row * ROW_WORDS + PREFIX]);
    // @each item
    if (#u * WG + ids.lid < cand_n) {
        let row = cand_at# / params.row_n;
        var prefix = lead_prefix;
        if (row != lead_row) {
            prefix = atomicLoad(&state[row * ROW_WORDS + PREFIX]);
        }
        let u = mapped(cand_key#);
        if ((u & high) == prefix) {
            let d = (u >> shift) & 255u;
            if (row == lead_row) {
                atomicAdd(&bins[d], 1u);
            } else {
                atomicAdd(&state[row * ROW_WORDS + d], 1u);
            }
        }
    }
    // @end
    workgroupBarrier();
    flush_bins(ids.lid, lead_row);
}

@compute @workgroup_size(WG)
fn topk_cand_tiles(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let first = tile_index(wid, nwg) * TILE;
    let count = params.n;
    if (first >= count) {
        return;
    }
    let cand_n = min(TILE, count - first);
    load_candidates(ids.lid, first, cand_n);
    if (ids.lid == 0u) {
        atomicStore(&wg_count, 0u);
        atomicStore(&wg_less, 0u);
    }
    workgroupBarrier();
    let lead = candidates[first];
    let lead_row = lead / params.row_n;
    let lead_tile = lead_row * params.tiles + (lead % params.row_n) / TILE;
    let lead_kth = atomicLoad(&state[lead_row * ROW_WORDS + PREFIX]);
    // @each item
    if (#u * WG + ids.lid < cand_n) {
        let row = cand_at# / params.row_n;
        let tile = row * params.tiles + (cand_at# - row * params.row_n) / TILE;
        var kth = lead_kth;
        if (row != lead_row) {
            kth = atomicLoad(&state[row * ROW_WORDS + PREFIX]);
        }
        let u = mapped(cand_key#);
        if (u <= kth) {
            let w = select(1u, 0u, u < kth);
            if (tile == lead_tile && w == 0u) {
                atomicAdd(&wg_less, 1u);
            } else if (tile == lead_tile) {
                atomicAdd(&wg_count, 1u);
            } else {
                atomicAdd(&tile_counts[w * params.rows * params.tiles + tile], 1u);
            }
        }
    }
    // @end
    workgroupBarrier();
    if (ids.lid == 0u) {
        let l = atomicLoad(&wg_less);
        let e = atomicLoad(&wg_count);
        if (l != 0u) {
            atomicAdd(&tile_counts[lead_tile], l);
        }
        if (e != 0u) {
            atomicAdd(&tile_counts[params.rows * params.tiles + lead_tile], e);
        }
    }
}

fn put(row: u32, place: u32, key: u32, i: u32) {
    let at = row * params.k + place;
    keys_out[at] = key;
    if (VALUE_MODE == 1u) {
        values_out[at] = values_in[row * params.row_n + i];
    } else if (VALUE_MODE == 2u) {
        values_out[at] = i;
    }
}

// A tile's keys below T, and the first `want` equal to it, to their places (`before`:
// the row's keys below T and equal to it before the tile). Each invocation takes ITEMS
// keys in a row, so that the workgroup's prefix of its counts is each key's count of
// those before it.
fn write_tile(lid: u32, row: u32, tile: u32, kth: u32, want: u32, before_tile: vec2<u32>) {
    let first = tile * TILE + lid * ITEMS;
    let end = min(params.row_n, tile * TILE + TILE);
    let row_base = row * params.row_n;
    // @each item
    var write_key# = 0u;
    if (first + #u < end) {
        write_key# = keys_in[row_base + first + #u];
    }
    // @end
    var c = vec2<u32>(0u);
    // @each item
    if (first + #u < end) {
        let u = mapped(write_key#);
        c += vec2<u32>(select(0u, 1u, u < kth), select(0u, 1u, u == kth));
    }
    // @end
    var before = before_tile + wg_exclusive(lid, c).xy;
    // @each item
    if (first + #u < end) {
        let u = mapped(write_key#);
        if (u < kth || (u == kth && before.y < want)) {
            put(row, before.x + min(before.y, want), write_key#, first + #u);
        }
        before += vec2<u32>(select(0u, 1u, u < kth), select(0u, 1u, u == kth));
    }
    // @end
}

// Per (row, WRITE_TILES tiles): for k much below n nearly every tile writes nothing,
// and a workgroup a tile spent its time starting and leaving; the group's tiles are
// tested at once, an invocation each, and those that write are taken in turn.
@compute @workgroup_size(WG)
fn topk_write(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let groups = (params.tiles + WRITE_TILES - 1u) / WRITE_TILES;
    let g = tile_index(wid, nwg);
    let row = g / groups;
    if (row >= params.rows) {
        return;
    }
    let first_tile = (g - row * groups) * WRITE_TILES;
    let kth = atomicLoad(&state[row * ROW_WORDS + PREFIX]);
    let want = atomicLoad(&state[row * ROW_WORDS + WANT]);
    let t = row * params.tiles;
    let eq = params.rows * params.tiles;
    // A tile with no key below T, and none equal to it that is taken, writes nothing.
    // Its words read at once: none waits on another (WRITE_TILES <= 32 <= WG).
    if (ids.lid < WRITE_TILES) {
        let tile = first_tile + ids.lid;
        var live = 0u;
        if (tile < params.tiles) {
            let less = atomicLoad(&tile_counts[t + tile]);
            let equal = atomicLoad(&tile_counts[eq + t + tile]);
            let equal_before = tile_offsets[eq + t + tile] - tile_offsets[eq + t];
            live = select(0u, 1u, less != 0u || (equal != 0u && equal_before < want));
        }
        chunk[ids.lid] = live << ids.lid;
    }
    workgroupBarrier();
    if (ids.lid == 0u) {
        var mask = 0u;
        for (var j = 0u; j < WRITE_TILES; j++) {
            mask |= chunk[j];
        }
        wg_live = mask;
    }
    let live = workgroupUniformLoad(&wg_live);
    for (var j = 0u; j < WRITE_TILES; j++) {
        if ((live & (1u << j)) != 0u) {
            // The scan ran over every row: a row's prefixes start at its first tile's.
            let tile = first_tile + j;
            let before = vec2<u32>(tile_offsets[t + tile] - tile_offsets[t],
                                   tile_offsets[eq + t + tile] - tile_offsets[eq + t]);
            write_tile(ids.lid, row, tile, kth, want, before);
        }
    }
}

@compute @workgroup_size(WG)
fn topk_rank(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let rt = row_tile(wid, nwg);
    if (rt.x >= params.rows) {
        return;
    }
    let k = params.k;
    let base = rt.x * k;
    let i = rt.y * WG + ids.lid;
    var mine = 0u;
    if (i < k) {
        mine = mapped(keys_in[base + i]);
    }
    var rank = 0u;
    for (var c = 0u; c < (k + WG - 1u) / WG; c++) {
        let j = c * WG + ids.lid;
        chunk[ids.lid] = 0xFFFFFFFFu;
        if (j < k) {
            chunk[ids.lid] = mapped(keys_in[base + j]);
        }
        workgroupBarrier();
        let count = min(WG, k - c * WG);
        for (var t = 0u; t < count; t++) {
            let o = chunk[t];
            if (o < mine || (o == mine && c * WG + t < i)) {
                rank++;
            }
        }
        workgroupBarrier();
    }
    if (i < k) {
        keys_out[base + rank] = keys_in[base + i];
        if (VALUE_MODE != 0u) {
            values_out[base + rank] = values_in[base + i];
        }
    }
}
