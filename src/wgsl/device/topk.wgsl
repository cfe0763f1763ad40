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
//   topk_filter     per (row, tile) (the second read): the keys of the picked top digit
//                   become candidates (their places appended to `candidates`), their
//                   second digit counted; per tile the keys below that digit counted
//   topk_cand_histogram  per candidate (n: their count, from the GPU): the third and
//                   fourth digits' counts of those that agree with the prefix
//   After four picks the prefix is the row's k-th mapped key T, and want is how many
//   keys equal to T are taken (the first ones by index).
//   topk_cand_tiles per candidate: its tile's counts of keys below T and equal to it
//   (then the plan's scan plan: the exclusive prefixes of all the counts, in order)
//   topk_write      per (row, tile): a key below T, or one of the first `want` equal to
//                   it, goes to place less_before + min(equal_before, want), which
//                   keeps the input order. Only tiles that hold one read their keys
//                   (their counts say which): for k much below n this is no third read
//   topk_rank       (sorted output) per row and WG of its k: each result's rank among
//                   the row's k (mapped key, then place), and its move there
//
// Params (src/params.h): n (the candidate kernels: the candidates, else unused), row_n
// (keys a row), rows, k, shift (a digit's lowest bit), tiles (tiles a row; topk_rank:
// groups a row).
// Plan constants: KEY_KIND (sort_key.wgsl), VALUE_MODE (0 none, 1 values, 2 indices),
// HIST_TILES.
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
var<workgroup> wg_skip: u32;

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
    let first = (g - row * groups) * HIST_TILES * TILE;
    let end = min(params.row_n, first + HIST_TILES * TILE);
    let row_base = row * params.row_n;
    for (var j = 0u; j < HIST_TILES * ITEMS; j++) {
        let i = first + j * WG + ids.lid;
        if (i < end) {
            atomicAdd(&bins[mapped(keys_in[row_base + i]) >> 24u], 1u);
        }
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
    let rt = row_tile(wid, nwg);
    if (rt.x >= params.rows) {
        return;
    }
    clear_bins(ids.lid);
    if (ids.lid == 0u) {
        atomicStore(&wg_count, 0u);
        atomicStore(&wg_less, 0u);
    }
    workgroupBarrier();
    let top = atomicLoad(&state[rt.x * ROW_WORDS + PREFIX]) >> 24u;
    let first = rt.y * TILE;
    let end = min(params.row_n, first + TILE);
    let row_base = rt.x * params.row_n;
    var slot: array<u32, ITEMS>;
    var less = 0u;
    for (var j = 0u; j < ITEMS; j++) {
        let i = first + j * WG + ids.lid;
        slot[j] = NO_SLOT;
        if (i < end) {
            let u = mapped(keys_in[row_base + i]);
            if ((u >> 24u) < top) {
                less++;
            } else if ((u >> 24u) == top) {
                slot[j] = atomicAdd(&wg_count, 1u);
                atomicAdd(&bins[(u >> 16u) & 255u], 1u);
            }
        }
    }
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
        let t = rt.x * params.tiles + rt.y;
        atomicStore(&tile_counts[t], atomicLoad(&wg_less));
        atomicStore(&tile_counts[params.rows * params.tiles + t], 0u);
    }
    workgroupBarrier();
    let base = wg_base;
    for (var j = 0u; j < ITEMS; j++) {
        if (slot[j] != NO_SLOT) {
            candidates[base + slot[j]] = row_base + first + j * WG + ids.lid;
        }
    }
    flush_bins(ids.lid, rt.x);
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
    clear_bins(ids.lid);
    workgroupBarrier();
    let shift = params.shift;
    let high = 0xFFFFFFFFu << (shift + 8u);
    let lead_row = candidates[first] / params.row_n;
    for (var j = 0u; j < ITEMS; j++) {
        let c = first + j * WG + ids.lid;
        if (c < count) {
            let at = candidates[c];
            let row = at / params.row_n;
            let u = mapped(keys_in[at]);
            if ((u & high) == atomicLoad(&state[row * ROW_WORDS + PREFIX])) {
                let d = (u >> shift) & 255u;
                if (row == lead_row) {
                    atomicAdd(&bins[d], 1u);
                } else {
                    atomicAdd(&state[row * ROW_WORDS + d], 1u);
                }
            }
        }
    }
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
    if (ids.lid == 0u) {
        atomicStore(&wg_count, 0u);
        atomicStore(&wg_less, 0u);
    }
    workgroupBarrier();
    let lead = candidates[first];
    let lead_tile = (lead / params.row_n) * params.tiles + (lead % params.row_n) / TILE;
    for (var j = 0u; j < ITEMS; j++) {
        let c = first + j * WG + ids.lid;
        if (c < count) {
            let at = candidates[c];
            let row = at / params.row_n;
            let tile = row * params.tiles + (at - row * params.row_n) / TILE;
            let u = mapped(keys_in[at]);
            let kth = atomicLoad(&state[row * ROW_WORDS + PREFIX]);
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
    }
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

@compute @workgroup_size(WG)
fn topk_write(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let rt = row_tile(wid, nwg);
    if (rt.x >= params.rows) {
        return;
    }
    let kth = atomicLoad(&state[rt.x * ROW_WORDS + PREFIX]);
    let want = atomicLoad(&state[rt.x * ROW_WORDS + WANT]);
    let t = rt.x * params.tiles;
    let eq = params.rows * params.tiles;
    // A tile with no key below T, and none equal to it that is taken, writes nothing.
    if (ids.lid == 0u) {
        let taken_eq = atomicLoad(&tile_counts[eq + t + rt.y]) != 0u &&
                       tile_offsets[eq + t + rt.y] - tile_offsets[eq + t] < want;
        wg_skip = select(0u, 1u, atomicLoad(&tile_counts[t + rt.y]) == 0u && !taken_eq);
    }
    if (workgroupUniformLoad(&wg_skip) != 0u) {
        return;
    }
    // Each invocation takes ITEMS keys in a row, so that the workgroup's prefix of
    // its counts is each key's count of those before it.
    let first = rt.y * TILE + ids.lid * ITEMS;
    let end = min(params.row_n, rt.y * TILE + TILE);
    var c = vec2<u32>(0u);
    for (var j = 0u; j < ITEMS; j++) {
        let i = first + j;
        if (i < end) {
            let u = mapped(keys_in[rt.x * params.row_n + i]);
            c += vec2<u32>(select(0u, 1u, u < kth), select(0u, 1u, u == kth));
        }
    }
    let e = wg_exclusive(ids.lid, c);
    // The scan ran over every row: a row's prefixes start at its first tile's.
    var before = vec2<u32>(tile_offsets[t + rt.y] - tile_offsets[t],
                           tile_offsets[eq + t + rt.y] - tile_offsets[eq + t]) + e.xy;
    for (var j = 0u; j < ITEMS; j++) {
        let i = first + j;
        if (i < end) {
            let key = keys_in[rt.x * params.row_n + i];
            let u = mapped(key);
            if (u < kth || (u == kth && before.y < want)) {
                put(rt.x, before.x + min(before.y, want), key, i);
            }
            before += vec2<u32>(select(0u, 1u, u < kth), select(0u, 1u, u == kth));
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
