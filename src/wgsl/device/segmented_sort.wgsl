// SPDX-License-Identifier: MIT
// segmented_sort.wgsl: a stable sort within each segment (src/segmented_sort.c records
// the passes). Keys are compared as element/sort_key.wgsl orders them, inverted for a
// descending sort, so that every pass sorts ascending; equal keys keep their order.
//
//   ss_clear    one invocation: the status word and the two lists' counts zeroed
//   ss_check    per segment: its offsets checked (begin <= end <= the next begin, both
//               <= n; a code into the status by atomicMax); a valid segment longer
//               than SS_TINY_MAX appended to the medium list up to medium_max keys,
//               else to the small list up to small_max, else (the large path's) to the
//               large list (small_list); for the
//               large path its length if it is past small_max, else 0 (large_len,
//               which the plan's scan turns into the large segments' places)
//   ss_tiny     SS_TINY_LANES invocations a segment of at most SS_TINY_MAX keys: each
//               key's rank counted over the segment's keys, then its move there
//   ss_small    (n: the listed segments, a count from the GPU) a workgroup a segment
//               of one list (compiled twice: the medium tile and the full one), at
//               most TILE keys: the mapped
//               keys and their places in workgroup memory, sorted there by merging
//               runs of 1, 2, 4, ... (each key finds its place in the partner run by a
//               binary search: below the left run's equals, after the right one's),
//               then keys and values moved from the input to their ranks
//   ss_gather   (n: the listed large segments, a count from the GPU) a workgroup a
//               large segment: its keys copied to the compacted array at the
//               segment's place, with their segment and position
//   (then the plan's sort plans: the compacted keys stably by key, carrying their
//   compacted index; then stably by segment, carrying their position)
//   ss_relabel  per compacted key (n: their count, from the GPU): the segment and the
//               position of the key the first sort put there
//   ss_scatter  per compacted key: the i-th of the sorted order goes to the i-th
//               compacted position (segments and positions in input order), its key and
//               value read from the input
//
// Params (src/params.h): n, segments, flags (SS_FLAG_*), small_max, segment_bound
// (segments as the host gave it; n and segments may be counts from the GPU, at most
// their bounds).
// Plan constants: KEY_KIND (sort_key.wgsl).
// Bindings: 0 keys_in, 1 keys_out, 3 status, 4 begins (CSR: the n_segments + 1
// offsets), 5 ends (BEGIN_END), 6 values_in, 7 values_out, 8 large_len, 9 large_end
// (large_len's inclusive scan), 10 cseg, 11 cpos, 12 ckeys, 13 sorted_idx, 14 seg2,
// 15 pos2 (the large path's compacted arrays), 16 small_list (the counts of the medium,
// small and large lists, then segment_bound words of each list's segment numbers, in
// no particular order).

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read> begins: array<u32>;
@group(0) @binding(5) var<storage, read> ends: array<u32>;
@group(0) @binding(6) var<storage, read> values_in: array<u32>;
@group(0) @binding(7) var<storage, read_write> values_out: array<u32>;
@group(0) @binding(8) var<storage, read_write> large_len: array<u32>;
@group(0) @binding(9) var<storage, read> large_end: array<u32>;
@group(0) @binding(10) var<storage, read_write> cseg: array<u32>;
@group(0) @binding(11) var<storage, read_write> cpos: array<u32>;
@group(0) @binding(12) var<storage, read_write> ckeys: array<u32>;
@group(0) @binding(13) var<storage, read> sorted_idx: array<u32>;
@group(0) @binding(14) var<storage, read_write> seg2: array<u32>;
@group(0) @binding(15) var<storage, read_write> pos2: array<u32>;
@group(0) @binding(16) var<storage, read_write> small_list: array<atomic<u32>>;

// The mapped keys (low words, then for 64-bit keys the high words) and each one's
// place in the segment.
var<workgroup> wkeys: array<u32, TILE * KEY_WORDS>;
var<workgroup> wplace: array<u32, TILE>;
var<workgroup> wrange: vec2<u32>;

fn seg_range(s: u32) -> vec2<u32> {
    if ((params.flags & SS_FLAG_CSR) != 0u) {
        return vec2<u32>(begins[s], begins[s + 1u]);
    }
    return vec2<u32>(begins[s], ends[s]);
}

// (low, high) as an ascending order: the sort's mapping, inverted when descending.
fn mapped(lo: u32, hi: u32) -> vec2<u32> {
    let k = ordered_key(lo, hi);
    return select(k, ~k, DESCENDING);
}

fn wkey(i: u32) -> vec2<u32> {
    if (KEY_WORDS == 2u) {
        return vec2<u32>(wkeys[i], wkeys[TILE + i]);
    }
    return vec2<u32>(wkeys[i], 0u);
}

fn key_less(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

// Element i's key and value words from the inputs to element o of the outputs.
fn move_element(i: u32, o: u32) {
    if (KEY_WORDS == 2u) {
        keys_out[2u * o] = keys_in[2u * i];
        keys_out[2u * o + 1u] = keys_in[2u * i + 1u];
    } else {
        keys_out[o] = keys_in[i];
    }
    if ((params.flags & SS_FLAG_VALUES8) != 0u) {
        values_out[2u * o] = values_in[2u * i];
        values_out[2u * o + 1u] = values_in[2u * i + 1u];
    } else if ((params.flags & SS_FLAG_VALUES) != 0u) {
        values_out[o] = values_in[i];
    } else if ((params.flags & SS_FLAG_INDEX) != 0u) {
        values_out[o] = i;
    }
}

@compute @workgroup_size(1)
fn ss_clear() {
    atomicStore(&status[0], 0u);
    atomicStore(&small_list[0], 0u);
    atomicStore(&small_list[1], 0u);
    atomicStore(&small_list[2], 0u);
}

@compute @workgroup_size(WG)
fn ss_check(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let s = tile_index(wid, nwg) * WG + lid;
    let large = (params.flags & SS_FLAG_LARGE) != 0u;
    if (s >= params.segments) {
        // Past a count from the GPU: no length, so that the scan of the bound's lengths
        // ends at the large keys' count.
        if (large && s < params.segment_bound) {
            large_len[s] = 0u;
        }
        return;
    }
    let r = seg_range(s);
    var code = 0u;
    if (r.x > params.n || r.y > params.n) {
        code = SS_STATUS_OUT_OF_RANGE;
    } else if (r.x > r.y) {
        code = SS_STATUS_UNORDERED;
    } else if (s + 1u < params.segments && r.y > begins[s + 1u]) {
        code = SS_STATUS_UNORDERED;
    }
    let len = select(0u, r.y - r.x, code == 0u);
    if (code == 0u && !large && len > params.small_max) {
        code = SS_STATUS_TOO_LARGE;
    }
    if (code != 0u) {
        atomicMax(&status[0], code);
    }
    if (len > SS_TINY_MAX && len <= params.medium_max) {
        atomicStore(&small_list[3u + atomicAdd(&small_list[0], 1u)], s);
    } else if (len > SS_TINY_MAX && len <= params.small_max) {
        atomicStore(&small_list[3u + params.segment_bound + atomicAdd(&small_list[1], 1u)], s);
    } else if (large && len > params.small_max) {
        atomicStore(&small_list[3u + 2u * params.segment_bound + atomicAdd(&small_list[2], 1u)], s);
    }
    if (large) {
        large_len[s] = select(0u, len, len > params.small_max);
    }
}

fn key_at(g: u32) -> vec2<u32> {
    if (KEY_WORDS == 2u) {
        return mapped(keys_in[2u * g], keys_in[2u * g + 1u]);
    }
    return mapped(keys_in[g], 0u);
}

@compute @workgroup_size(WG)
fn ss_tiny(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    let s = tile_index(wid, nwg) * (WG / SS_TINY_LANES) + lid / SS_TINY_LANES;
    if (s >= params.segments) {
        return;
    }
    let r = seg_range(s);
    if (r.x > r.y || r.y > params.n || r.y - r.x > min(SS_TINY_MAX, params.small_max)) {
        return;
    }
    let len = r.y - r.x;
    // A key's rank: the keys below it, and the equal ones before it (stable). The
    // lanes of a segment read the same keys at once, which the caches serve.
    for (var i = lid % SS_TINY_LANES; i < len; i += SS_TINY_LANES) {
        let x = key_at(r.x + i);
        var rank = 0u;
        for (var j = 0u; j < len; j++) {
            let y = key_at(r.x + j);
            if (key_less(y, x) || (j < i && all(y == x))) {
                rank++;
            }
        }
        move_element(r.x + i, r.x + rank);
    }
}

@compute @workgroup_size(WG)
fn ss_small(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let w = tile_index(wid, nwg);
    if (w >= params.n) {
        return;
    }
    // ss_check listed only valid segments that fit this tile; the test keeps workgroup
    // memory safe whatever the list holds.
    if (lid == 0u) {
        let r = seg_range(atomicLoad(&small_list[params.list_base + w]));
        let ok = r.x <= r.y && r.y - r.x <= TILE;
        wrange = select(vec2<u32>(0u), r, ok);
    }
    let r = workgroupUniformLoad(&wrange);
    let len = r.y - r.x;
    if (len == 0u) {
        return;
    }
    for (var k = 0u; k < ITEMS; k++) {
        let i = k * WG + lid;
        if (i < len) {
            let g = r.x + i;
            var m: vec2<u32>;
            if (KEY_WORDS == 2u) {
                m = mapped(keys_in[2u * g], keys_in[2u * g + 1u]);
                wkeys[TILE + i] = m.y;
            } else {
                m = mapped(keys_in[g], 0u);
            }
            wkeys[i] = m.x;
            wplace[i] = i;
        }
    }
    workgroupBarrier();
    // Runs of w sorted keys merge in pairs: a key of a left run goes after the keys of
    // its right partner that are below it, one of a right run after those of its left
    // partner that are below or equal to it, which keeps equal keys in input order.
    for (var w = 1u; w < len; w <<= 1u) {
        var key: array<vec2<u32>, ITEMS>;
        var place: array<u32, ITEMS>;
        var dst: array<u32, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) {
            let i = k * WG + lid;
            if (i < len) {
                let x = wkey(i);
                let j = i & (w - 1u);
                let start = i - j;
                let left = (start & w) == 0u;
                let other = select(start - w, start + w, left);
                var a = other;
                var b = select(other, min(other + w, len), other < len);
                while (a < b) {
                    let mid = (a + b) >> 1u;
                    let y = wkey(mid);
                    let before = select(!key_less(x, y), key_less(y, x), left);
                    if (before) {
                        a = mid + 1u;
                    } else {
                        b = mid;
                    }
                }
                key[k] = x;
                place[k] = wplace[i];
                dst[k] = min(start, other) + j + (a - other);
            }
        }
        workgroupBarrier();
        for (var k = 0u; k < ITEMS; k++) {
            let i = k * WG + lid;
            if (i < len) {
                wkeys[dst[k]] = key[k].x;
                if (KEY_WORDS == 2u) {
                    wkeys[TILE + dst[k]] = key[k].y;
                }
                wplace[dst[k]] = place[k];
            }
        }
        workgroupBarrier();
    }
    for (var k = 0u; k < ITEMS; k++) {
        let i = k * WG + lid;
        if (i < len) {
            move_element(r.x + wplace[i], r.x + i);
        }
    }
}

@compute @workgroup_size(WG)
fn ss_gather(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let w = tile_index(wid, nwg);
    if (w >= params.n) {
        return;
    }
    let s = atomicLoad(&small_list[params.list_base + w]);
    let len = large_len[s];
    if (len == 0u) {
        return;
    }
    let b = begins[s];
    let place = large_end[s] - len;
    // (cpos is bound to n words: the compacted arrays end there.)
    for (var j = lid; j < len; j += WG) {
        let c = place + j;
        if (c >= arrayLength(&cpos)) {
            break;
        }
        let g = b + j;
        if (KEY_WORDS == 2u) {
            ckeys[2u * c] = keys_in[2u * g];
            ckeys[2u * c + 1u] = keys_in[2u * g + 1u];
        } else {
            ckeys[c] = keys_in[g];
        }
        cseg[c] = s;
        cpos[c] = g;
    }
}

@compute @workgroup_size(WG)
fn ss_relabel(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let i = tile_index(wid, nwg) * WG + lid;
    if (i >= params.n) {
        return;
    }
    let c = sorted_idx[i];
    seg2[i] = cseg[c];
    pos2[i] = cpos[c];
}

@compute @workgroup_size(WG)
fn ss_scatter(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let i = tile_index(wid, nwg) * WG + lid;
    if (i >= params.n) {
        return;
    }
    move_element(pos2[i], cpos[i]);
}
