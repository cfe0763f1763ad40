// SPDX-License-Identifier: MIT
// topk_rows.wgsl: the top-k of short rows in one dispatch, one workgroup a row, the
// whole radix select in the kernel (src/topk.c takes it for short rows and small k;
// device/topk.wgsl is the multi-pass path). The result is the multi-pass path's: keys
// mapped as element/sort_key.wgsl orders them (inverted for the largest), the k
// smallest mapped keys, ties to the lower index.
//
// The select runs on the composite key (mapped key, index), unique within a row, an
// 8-bit digit a level: levels 0-3 the key's digits from the top, 4-6 the index's
// (bits 16-23, 8-15, 0-7: rows of fewer than 2^24 keys). Each level counts its digit
// over the elements that agree with the prefix picked so far and picks (a workgroup
// scan of the 256 counts) the digit whose bucket holds the want-th. The elements come
// from the row in global memory until a picked bucket holds CAND or fewer (its count
// is known before anything is moved, so the room never overflows): then one more read
// of the row appends the keys below the prefix to the winners (fewer than k) and the
// bucket's keys to the candidates, both in workgroup memory, and the later levels
// count the candidates. The select ends when the whole picked bucket is taken (want
// equals its count; at level 6 at the latest, where a bucket holds one element): the
// k are the elements whose composite key, cut to the digits picked, is at most the
// prefix. Uniform keys read the row twice; keys crowded into one bucket (floats of
// one exponent) once more a level until the bucket fits; all keys equal every key
// level and the index's top levels in global memory (slow, and correct).
// Then each of the k counts the k below it (SORTED_OUT: by mapped key, then index;
// else by index) in workgroup memory and is written at that rank.
//
// Params: row_n (keys a row), rows, k. Plan constants: KEY_KIND (sort_key.wgsl),
// VALUE_MODE (0 none, 1 values, 2 indices), SORTED_OUT (0 or 1), K_MAX (room for the
// k), CAND (room for the candidates).
// Bindings: 0 keys_in, 1 keys_out, 5 values_in, 6 values_out (those of topk.wgsl).

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(5) var<storage, read> values_in: array<u32>;
@group(0) @binding(6) var<storage, read_write> values_out: array<u32>;

// The pick's lanes, each PICK_RUN consecutive digits.
const PICK_LANES: u32 = min(WG, RADIX);
const PICK_RUN: u32 = RADIX / PICK_LANES;
const LAST_LEVEL: u32 = 6u;

// What a pass does with an element (u the mapped key, i its index).
const COUNT: u32 = 0u;   // in the prefix above the level: count the level's digit
const COLLECT: u32 = 1u; // below the prefix through the level: a winner; in it: a candidate
const FINAL: u32 = 2u;   // at most the prefix through the level: a winner

var<workgroup> bins: array<atomic<u32>, RADIX>;
var<workgroup> lane_sums: array<u32, PICK_LANES>;
var<workgroup> win_key: array<u32, K_MAX>;
var<workgroup> win_index: array<u32, K_MAX>;
var<workgroup> cand_key: array<u32, CAND>;
var<workgroup> cand_index: array<u32, CAND>;
var<workgroup> n_win: atomic<u32>;
var<workgroup> n_cand: atomic<u32>;
// The pick's result: the prefix (key, index), want, the picked bucket's count.
var<workgroup> picked: vec4<u32>;

fn mapped(bits: u32) -> u32 {
    let u = ordered_key(bits, 0u).x;
    return select(u, ~u, DESCENDING);
}

fn digit_of(u: u32, i: u32, level: u32) -> u32 {
    if (level < 4u) {
        return (u >> (24u - 8u * level)) & 255u;
    }
    return (i >> (48u - 8u * level)) & 255u;
}

// (u, i) against the prefix p, both cut after the level's digit: -1 below, 0 equal, 1 above.
fn against(u: u32, i: u32, p: vec2<u32>, level: u32) -> i32 {
    var a = u;
    var b = p.x;
    if (level < 4u) {
        a = u >> (24u - 8u * level);
        b = p.x >> (24u - 8u * level);
    } else if (u == p.x) {
        a = i >> (48u - 8u * level);
        b = p.y >> (48u - 8u * level);
    }
    return select(select(1, -1, a < b), 0, a == b);
}

fn take(mode: u32, level: u32, p: vec2<u32>, u: u32, i: u32) {
    if (mode == COUNT) {
        if (level == 0u || against(u, i, p, level - 1u) == 0) {
            atomicAdd(&bins[digit_of(u, i, level)], 1u);
        }
        return;
    }
    let a = against(u, i, p, level);
    if (a < 0 || (a == 0 && mode == FINAL)) {
        let w = atomicAdd(&n_win, 1u);
        win_key[w] = u;
        win_index[w] = i;
    } else if (a == 0) {
        let c = atomicAdd(&n_cand, 1u);
        cand_key[c] = u;
        cand_index[c] = i;
    }
}

// Every key of the row, ITEMS loads an invocation issued before any is used.
fn row_pass(mode: u32, level: u32, p: vec2<u32>, lid: u32, base: u32, n: u32) {
    for (var first = 0u; first < n; first += WG * ITEMS) {
        // @each item
        let i# = first + # * WG + lid;
        let bits# = keys_in[base + min(i#, n - 1u)];
        // @end
        // @each item
        if (i# < n) {
            take(mode, level, p, mapped(bits#), i#);
        }
        // @end
    }
}

fn cand_pass(mode: u32, level: u32, p: vec2<u32>, lid: u32) {
    let count = atomicLoad(&n_cand);
    for (var c = lid; c < count; c += WG) {
        take(mode, level, p, cand_key[c], cand_index[c]);
    }
}

// The digit whose bucket holds the want-th of the counted elements (1 <= want <= their
// number) joins the prefix; want drops by the counts of the smaller digits. Called by
// every invocation (it holds barriers); the result is uniform.
fn pick(lid: u32, level: u32, p: vec2<u32>, want: u32) -> vec4<u32> {
    let lo = lid * PICK_RUN;
    var sum = 0u;
    if (lid < PICK_LANES) {
        for (var j = 0u; j < PICK_RUN; j++) {
            sum += atomicLoad(&bins[lo + j]);
        }
        lane_sums[lid] = sum;
    }
    workgroupBarrier();
    for (var d = 1u; d < PICK_LANES; d <<= 1u) {
        var x = 0u;
        if (lid < PICK_LANES && lid >= d) {
            x = lane_sums[lid - d];
        }
        workgroupBarrier();
        if (lid < PICK_LANES) {
            lane_sums[lid] += x;
        }
        workgroupBarrier();
    }
    if (lid < PICK_LANES) {
        let before = lane_sums[lid] - sum;
        if (before < want && want - before <= sum) {
            var w = want - before;
            var digit = lo;
            var count = 0u;
            for (var j = 0u; j < PICK_RUN; j++) {
                let c = atomicLoad(&bins[lo + j]);
                if (w <= c) {
                    digit = lo + j;
                    count = c;
                    break;
                }
                w -= c;
            }
            var q = p;
            if (level < 4u) {
                q.x |= digit << (24u - 8u * level);
            } else {
                q.y |= digit << (48u - 8u * level);
            }
            picked = vec4<u32>(q, w, count);
        }
    }
    return workgroupUniformLoad(&picked);
}

@compute @workgroup_size(WG)
fn topk_rows(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let row = tile_index(wid, nwg);
    if (row >= params.rows) {
        return;
    }
    let lid = ids.lid;
    let n = params.row_n;
    let k = params.k;
    let base = row * n;
    if (lid == 0u) {
        atomicStore(&n_win, 0u);
        atomicStore(&n_cand, 0u);
    }
    var p = vec2<u32>(0u);
    var want = k;
    var local = false; // the candidates hold the picked bucket
    var level = 0u;
    loop {
        for (var b = lid; b < RADIX; b += WG) {
            atomicStore(&bins[b], 0u);
        }
        workgroupBarrier();
        if (local) {
            cand_pass(COUNT, level, p, lid);
        } else {
            row_pass(COUNT, level, p, lid, base, n);
        }
        workgroupBarrier();
        let r = pick(lid, level, p, want);
        p = r.xy;
        want = r.z;
        if (want == r.w || level == LAST_LEVEL) {
            break;
        }
        if (!local && r.w <= CAND) {
            row_pass(COLLECT, level, p, lid, base, n);
            local = true;
        }
        level++;
    }
    if (local) {
        cand_pass(FINAL, level, p, lid);
    } else {
        row_pass(FINAL, level, p, lid, base, n);
    }
    workgroupBarrier();
    for (var r = lid; r < k; r += WG) {
        let u = win_key[r];
        let i = win_index[r];
        var rank = 0u;
        for (var j = 0u; j < k; j++) {
            let v = win_key[j];
            let x = win_index[j];
            let before = select(x < i, v < u || (v == u && x < i), SORTED_OUT != 0u);
            rank += select(0u, 1u, before);
        }
        let at = row * k + rank;
        keys_out[at] = keys_in[base + i];
        if (VALUE_MODE == 1u) {
            values_out[at] = values_in[base + i];
        } else if (VALUE_MODE == 2u) {
            values_out[at] = i;
        }
    }
}
