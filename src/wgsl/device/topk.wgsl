// SPDX-License-Identifier: MIT
// topk.wgsl: the k best of each row of a rows x n matrix by radix select (src/topk.c
// records the passes). Keys are compared as element/sort_key.wgsl orders them, mapped
// so that the k wanted are always the k smallest mapped keys (largest: the mapping
// inverted); among equal keys the lower index wins, so the result is the first k of
// the radix sort's stable order.
//
//   topk_init       per row: the digit counts zeroed, prefix 0, want k
//   topk_histogram  per (row, tile), one per 8-bit digit from the top: counts the digit
//                   of the keys whose higher digits equal the row's prefix
//   topk_pick       per row: the digit whose count reaches `want` joins the prefix;
//                   want drops by the keys of smaller digits; the counts are zeroed
//   After four digits the prefix is the row's k-th mapped key T, and want is how many
//   keys equal to T are taken (the first ones by index).
//   topk_count      per (row, tile): keys below T and keys equal to T
//   topk_scan       per row: those counts' exclusive prefixes over the tiles, in place
//   topk_write      per (row, tile): a key below T, or one of the first `want` equal
//                   to it, goes to place less_before + min(equal_before, want), which
//                   keeps the input order
//   topk_rank       (sorted output) per row and WG of its k: each result's rank among
//                   the row's k (mapped key, then place), and its move there
//
// Params (src/params.h): n (row length), rows, k, shift (this digit's lowest bit),
// tiles (tiles a row, or for topk_rank groups a row).
// Plan constants: KEY_KIND (sort_key.wgsl), VALUE_MODE (0 none, 1 values, 2 indices).
// Bindings: 0 keys_in, 1 keys_out, 3 state (ROW_WORDS a row: digit counts, prefix,
// want), 4 tile_counts, 5 values_in, 6 values_out.

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> state: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> tile_counts: array<vec2<u32>>;
@group(0) @binding(5) var<storage, read> values_in: array<u32>;
@group(0) @binding(6) var<storage, read_write> values_out: array<u32>;

const PREFIX: u32 = 256u;
const WANT: u32 = 257u;

var<workgroup> bins: array<atomic<u32>, RADIX>;
var<workgroup> sums: array<vec2<u32>, WG>;
var<workgroup> chunk: array<u32, WG>;

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
    }
}

@compute @workgroup_size(WG)
fn topk_histogram(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = tile_index(wid, nwg);
    let row = g / params.tiles;
    if (row >= params.rows) {
        return;
    }
    let tile = g - row * params.tiles;
    for (var j = 0u; j < (RADIX + WG - 1u) / WG; j++) {
        let b = j * WG + ids.lid;
        if (b < RADIX) {
            atomicStore(&bins[b], 0u);
        }
    }
    workgroupBarrier();
    let shift = params.shift;
    let prefix = atomicLoad(&state[row * ROW_WORDS + PREFIX]);
    // The digits above this one; none for the top digit (a shift by 32 is no WGSL).
    let high = select(0xFFFFFFFFu << (shift + 8u), 0u, shift >= 24u);
    let first = tile * TILE;
    let end = min(params.n, first + TILE);
    let row_base = row * params.n;
    for (var j = 0u; j < ITEMS; j++) {
        let i = first + j * WG + ids.lid;
        if (i < end) {
            let u = mapped(keys_in[row_base + i]);
            if ((u & high) == prefix) {
                atomicAdd(&bins[(u >> shift) & 255u], 1u);
            }
        }
    }
    workgroupBarrier();
    for (var j = 0u; j < (RADIX + WG - 1u) / WG; j++) {
        let b = j * WG + ids.lid;
        if (b < RADIX) {
            let c = atomicLoad(&bins[b]);
            if (c != 0u) {
                atomicAdd(&state[row * ROW_WORDS + b], c);
            }
        }
    }
}

@compute @workgroup_size(WG)
fn topk_pick(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let row = tile_index(wid, nwg) * WG + ids.lid;
    if (row >= params.rows) {
        return;
    }
    let base = row * ROW_WORDS;
    var want = atomicLoad(&state[base + WANT]);
    var digit = 0u;
    var found = false;
    for (var b = 0u; b < RADIX; b++) {
        let c = atomicLoad(&state[base + b]);
        atomicStore(&state[base + b], 0u);
        if (!found) {
            if (want <= c) {
                digit = b;
                found = true;
            } else {
                want -= c;
            }
        }
    }
    atomicStore(&state[base + PREFIX], atomicLoad(&state[base + PREFIX]) | (digit << params.shift));
    atomicStore(&state[base + WANT], want);
}

// The row and tile of a (row, tile) grid; rows past the end: row >= params.rows.
fn row_tile(wid: vec3<u32>, nwg: vec3<u32>) -> vec2<u32> {
    let g = tile_index(wid, nwg);
    let row = g / params.tiles;
    return vec2<u32>(row, g - row * params.tiles);
}

@compute @workgroup_size(WG)
fn topk_count(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let rt = row_tile(wid, nwg);
    if (rt.x >= params.rows) {
        return;
    }
    let kth = atomicLoad(&state[rt.x * ROW_WORDS + PREFIX]);
    let first = rt.y * TILE;
    let end = min(params.n, first + TILE);
    var c = vec2<u32>(0u);
    for (var j = 0u; j < ITEMS; j++) {
        let i = first + j * WG + ids.lid;
        if (i < end) {
            let u = mapped(keys_in[rt.x * params.n + i]);
            c += vec2<u32>(select(0u, 1u, u < kth), select(0u, 1u, u == kth));
        }
    }
    let t = wg_exclusive(ids.lid, c);
    if (ids.lid == 0u) {
        tile_counts[rt.x * params.tiles + rt.y] = t.zw;
    }
}

@compute @workgroup_size(WG)
fn topk_scan(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let row = tile_index(wid, nwg);
    if (row >= params.rows) {
        return;
    }
    let tiles = params.tiles;
    var carry = vec2<u32>(0u);
    for (var c = 0u; c < (tiles + WG - 1u) / WG; c++) {
        let t = c * WG + ids.lid;
        var v = vec2<u32>(0u);
        if (t < tiles) {
            v = tile_counts[row * tiles + t];
        }
        let e = wg_exclusive(ids.lid, v);
        if (t < tiles) {
            tile_counts[row * tiles + t] = carry + e.xy;
        }
        carry += e.zw;
    }
}

fn put(row: u32, place: u32, key: u32, i: u32) {
    let at = row * params.k + place;
    keys_out[at] = key;
    if (VALUE_MODE == 1u) {
        values_out[at] = values_in[row * params.n + i];
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
    // Each invocation takes ITEMS keys in a row, so that the workgroup's prefix of
    // its counts is each key's count of those before it.
    let first = rt.y * TILE + ids.lid * ITEMS;
    let end = min(params.n, rt.y * TILE + TILE);
    var c = vec2<u32>(0u);
    for (var j = 0u; j < ITEMS; j++) {
        let i = first + j;
        if (i < end) {
            let u = mapped(keys_in[rt.x * params.n + i]);
            c += vec2<u32>(select(0u, 1u, u < kth), select(0u, 1u, u == kth));
        }
    }
    let e = wg_exclusive(ids.lid, c);
    var before = tile_counts[rt.x * params.tiles + rt.y] + e.xy;
    for (var j = 0u; j < ITEMS; j++) {
        let i = first + j;
        if (i < end) {
            let key = keys_in[rt.x * params.n + i];
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
