// SPDX-License-Identifier: MIT
// segmented_sort.wgsl: a stable sort within each segment (src/segmented_sort.c records
// the passes). Keys are compared as element/sort_key.wgsl orders them, inverted for a
// descending sort, so that every pass sorts ascending; equal keys keep their order.
//
//   ss_clear    one invocation: the status word and the three lists' counts zeroed
//   ss_check    per segment: its offsets checked (begin <= end <= the next begin, both
//               <= n; a code into the status by atomicMax); a valid segment longer
//               than SS_TINY_MAX appended to the medium list up to medium_max keys,
//               else to the small list up to small_max, else (SS_FLAG_BLOCK) to the
//               block list up to BLOCK_MAX (small_list); for the large path its
//               length if it is longer than those, else 0 (large_len, which the
//               plan's scan turns into the large segments' places)
//   ss_tiny     SS_TINY_LANES invocations a segment of at most SS_TINY_MAX keys: each
//               key's rank counted over the segment's keys, then its move there
//   ss_small    (n: the listed segments, a count from the GPU) a workgroup a segment
//               of one list (compiled twice: the medium tile and the full one), at
//               most TILE keys, sorted in workgroup memory by an LSD radix sort of
//               8-bit digits ranked as the radix sort ranks a tile
//               (workgroup/sort_tile.wgsl), a pass only for the digits where the
//               segment's keys differ; then keys out from workgroup memory and
//               values moved from the input to their ranks
//   ss_block    (n: the listed block segments, a count from the GPU; a dispatch a
//               digit, shift) a workgroup a segment of at most BLOCK_MAX keys: its
//               digit counts, their scan, then its tiles in order ranked and written
//               in runs of a digit (sort_tile.wgsl) from keys_in to keys_out, which
//               the plan turns between the input, two scratch arrays and the output
//   ss_gather   per compacted key (n: their count, from the GPU): its segment found by
//               a binary search of the places (the workgroup's first and last key's
//               first, by two invocations, bound the others'), then the key copied
//               there with its segment and position. A workgroup a large segment
//               left one workgroup copying all of one segment of 2^26 keys: 138 ms
//               on an H100, where the whole sort of those keys takes 3
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
// Plan constants: KEY_KIND (sort_key.wgsl), VALUE_WORDS and SORT_SKIP (sort_tile.wgsl's;
// VALUE_WORDS 0 but in ss_block: ss_small moves its values itself), BLOCK_MAX (the
// longest segment ss_block takes), SS_PLACES (1: the plan moves values or indices, so
// ss_small follows each key's place in its segment; 0: keys alone, which saves the
// tile's words of workgroup memory: 4096 keys in 19 KiB instead of 35, two workgroups a
// core instead of one on a GPU of 48 KiB).
// Bindings: 0 keys_in, 1 keys_out, 3 status, 4 begins (CSR: the n_segments + 1
// offsets), 5 ends (BEGIN_END), 6 values_in, 7 values_out, 8 large_len, 9 large_end
// (large_len's inclusive scan), 10 cseg, 11 cpos, 12 ckeys, 13 sorted_idx, 14 seg2,
// 15 pos2 (the large path's compacted arrays), 16 small_list (the counts of the medium,
// small and block lists and a spare word, then segment_bound words of each list's
// segment numbers, in no particular order).

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

// ss_small: where each key of the current order was in the segment (wplace), the
// segment's range, the ordered keys' OR and AND (low, high words) and the bits where
// its keys differ; the keys themselves sit in sort_tile.wgsl's room.
const PLACES: u32 = 1u + (TILE - 1u) * SS_PLACES; // TILE, or one word for keys alone
var<workgroup> wplace: array<u32, PLACES>;
var<workgroup> wrange: vec2<u32>;
var<workgroup> wbits: array<atomic<u32>, 4>;
var<workgroup> wdiff: vec2<u32>;

// The place in the segment of the key each invocation holds (sort_tile.wgsl's key_lo#).
// @each item
var<private> key_place#: u32;
// @end

fn seg_range(s: u32) -> vec2<u32> {
    if ((params.flags & SS_FLAG_CSR) != 0u) {
        return vec2<u32>(begins[s], begins[s + 1u]);
    }
    return vec2<u32>(begins[s], ends[s]);
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
    move_value(i, o);
}

// Element i's value (its index for payload INDEX) to element o of the output.
fn move_value(i: u32, o: u32) {
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
    // Past the tile: a workgroup's radix sort through global memory up to BLOCK_MAX
    // keys where the plan has it, else the large path.
    let block = (params.flags & SS_FLAG_BLOCK) != 0u && len > params.small_max && len <= BLOCK_MAX;
    if (code == 0u && !large && !block && len > params.small_max) {
        code = SS_STATUS_TOO_LARGE;
    }
    if (code != 0u) {
        atomicMax(&status[0], code);
    }
    if (len > SS_TINY_MAX && len <= params.medium_max) {
        atomicStore(&small_list[4u + atomicAdd(&small_list[0], 1u)], s);
    } else if (len > SS_TINY_MAX && len <= params.small_max) {
        atomicStore(&small_list[4u + params.segment_bound + atomicAdd(&small_list[1], 1u)], s);
    } else if (block) {
        atomicStore(&small_list[4u + 2u * params.segment_bound + atomicAdd(&small_list[2], 1u)], s);
    }
    if (large) {
        large_len[s] = select(0u, len, len > params.small_max && !block);
    }
}

fn key_at(g: u32) -> vec2<u32> {
    if (KEY_WORDS == 2u) {
        return sort_form(keys_in[2u * g], keys_in[2u * g + 1u]);
    }
    return sort_form(keys_in[g], 0u);
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
    // Each lane holds the keys lane, lane + LANES, ... of the segment (four at most)
    // and counts their ranks in one walk over the segment's keys: a key's rank is the
    // keys below it and the equal ones before it (stable). One walk serves every held
    // key, so a lane reads the segment once, not once a key; the lanes of a segment
    // read the same key at once, which the caches serve.
    let lane = lid % SS_TINY_LANES;
    if (lane >= len) {
        return;
    }
    // Which keys a lane holds is uniform in a segment up to one key, so the walk is one
    // loop whose branches on `held` cost a segment of uniform length nothing; a loop a
    // shape ran the shapes of a warp's segments one after another where their lengths
    // differ (H100, 2^26 keys in segments of random lengths 0..32: 1.80 ms against 1.60
    // for a walk a key). Explicit names, not arrays, keep the keys in registers.
    let held = (len - lane + SS_TINY_LANES - 1u) / SS_TINY_LANES;
    let i1 = lane + SS_TINY_LANES;
    let i2 = lane + 2u * SS_TINY_LANES;
    let i3 = lane + 3u * SS_TINY_LANES;
    let x0 = key_at(r.x + lane);
    var x1 = vec2<u32>(0u);
    var x2 = vec2<u32>(0u);
    var x3 = vec2<u32>(0u);
    if (held > 1u) {
        x1 = key_at(r.x + i1);
    }
    if (held > 2u) {
        x2 = key_at(r.x + i2);
    }
    if (held > 3u) {
        x3 = key_at(r.x + i3);
    }
    var r0 = 0u;
    var r1 = 0u;
    var r2 = 0u;
    var r3 = 0u;
    for (var j = 0u; j < len; j++) {
        let y = key_at(r.x + j);
        r0 += tiny_before(y, j, x0, lane);
        if (held > 1u) {
            r1 += tiny_before(y, j, x1, i1);
            if (held > 2u) { // r3 is counted for three held keys too, and not used
                r2 += tiny_before(y, j, x2, i2);
                r3 += tiny_before(y, j, x3, i3);
            }
        }
    }
    move_element(r.x + lane, r.x + r0);
    if (held > 1u) {
        move_element(r.x + i1, r.x + r1);
    }
    if (held > 2u) {
        move_element(r.x + i2, r.x + r2);
    }
    if (held > 3u) {
        move_element(r.x + i3, r.x + r3);
    }
}

// 1 where key y at j of a segment comes before key x at i in the stable order.
fn tiny_before(y: vec2<u32>, j: u32, x: vec2<u32>, i: u32) -> u32 {
    return select(0u, 1u, key_less(y, x) || (j < i && all(y == x)));
}

@compute @workgroup_size(WG)
fn ss_small(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let w = tile_index(wid, nwg);
    if (w >= params.n) {
        return;
    }
    // ss_check listed only valid segments that fit this tile; the test keeps workgroup
    // memory safe whatever the list holds.
    if (ids.lid == 0u) {
        let r = seg_range(atomicLoad(&small_list[params.list_base + w]));
        let ok = r.x <= r.y && r.y - r.x <= TILE;
        wrange = select(vec2<u32>(0u), r, ok);
        atomicStore(&wbits[0], 0u);
        atomicStore(&wbits[1], 0u);
        atomicStore(&wbits[2], 0xFFFFFFFFu);
        atomicStore(&wbits[3], 0xFFFFFFFFu);
    }
    let r = workgroupUniformLoad(&wrange);
    let len = r.y - r.x;
    if (len == 0u) {
        return;
    }
    // The keys into registers in the ranking's strip order (tile_place_of) as their
    // sort forms (as sort_tile.wgsl holds them), and the OR and AND of those: a digit
    // where they agree is one every key shares, and its pass is left out.
    var bits_or = vec2<u32>(0u);
    var bits_and = vec2<u32>(0xFFFFFFFFu);
    // @each item
    key_place# = tile_place_of(ids, #u);
    key_rank# = key_place#;
    if (key_place# < len) {
        key_lo# = keys_in[(r.x + key_place#) * KEY_WORDS];
        if (KEY_WORDS == 2u) {
            key_hi# = keys_in[(r.x + key_place#) * KEY_WORDS + 1u];
        }
        let m# = sort_form(key_lo#, key_hi#);
        key_lo# = m#.x;
        key_hi# = m#.y;
        bits_or |= m#;
        bits_and &= m#;
    }
    // @end
    atomicOr(&wbits[0], bits_or.x);
    atomicOr(&wbits[1], bits_or.y);
    atomicAnd(&wbits[2], bits_and.x);
    atomicAnd(&wbits[3], bits_and.y);
    workgroupBarrier();
    if (ids.lid == 0u) {
        wdiff = vec2<u32>(atomicLoad(&wbits[0]) ^ atomicLoad(&wbits[2]), atomicLoad(&wbits[1]) ^ atomicLoad(&wbits[3]));
    }
    let diff = workgroupUniformLoad(&wdiff);
    // An LSD radix sort of 8-bit digits, each pass a stable ranking of the tile
    // (workgroup/sort_tile.wgsl's, as the radix sort's scatter ranks its tiles): the
    // keys in the new order land in the tile's room and their places in wplace, and the
    // next pass loads them from there.
    var ran = false;
    for (var shift = 0u; shift < KEY_WORDS * 32u; shift += 8u) {
        let differ = select(diff.x >> shift, diff.y >> (shift - 32u), shift >= 32u) & 255u;
        if (differ == 0u) {
            continue;
        }
        if (ran) {
            // @each item
            if (tile_place_of(ids, #u) < len) {
                key_lo# = stage_load(tile_place_of(ids, #u) * KEY_WORDS);
                if (KEY_WORDS == 2u) {
                    key_hi# = stage_load(tile_place_of(ids, #u) * KEY_WORDS + 1u);
                }
                if (SS_PLACES != 0u) {
                    key_place# = wplace[tile_place_of(ids, #u)];
                }
            }
            // @end
            workgroupBarrier();
        }
        ran = true;
        tile_clear(ids);
        workgroupBarrier();
        tile_digits(ids, len, shift, 8u);
        rank_keys(ids, owner_of(ids), len);
        workgroupBarrier();
        tile_offsets(ids, tile_totals(ids));
        workgroupBarrier();
        tile_ranks(ids, len);
        workgroupBarrier();
        tile_place(ids, 0u, len, true);
        if (SS_PLACES != 0u) {
            // @each item
            if (tile_place_of(ids, #u) < len) {
                wplace[key_rank#] = key_place#;
            }
            // @end
        }
        workgroupBarrier();
    }
    // Out in sorted order (coalesced writes): the keys from the room, the values from
    // the input at the key's place; a segment whose keys are all equal is copied.
    for (var k = 0u; k < ITEMS; k++) {
        let i = k * WG + ids.lid;
        if (i < len) {
            let o = r.x + i;
            if (ran) {
                var hi = 0u;
                if (KEY_WORDS == 2u) {
                    hi = stage_load(i * KEY_WORDS + 1u);
                }
                let key = key_of_form(vec2<u32>(stage_load(i * KEY_WORDS), hi));
                keys_out[o * KEY_WORDS] = key.x;
                if (KEY_WORDS == 2u) {
                    keys_out[o * KEY_WORDS + 1u] = key.y;
                }
                if (SS_PLACES != 0u) {
                    move_value(r.x + wplace[i], o);
                }
            } else {
                move_element(o, o);
            }
        }
    }
}

// ss_block's digit counts of its segment.
var<workgroup> wcount: array<atomic<u32>, RADIX>;

@compute @workgroup_size(WG)
fn ss_block(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let w = tile_index(wid, nwg);
    if (w >= params.n) {
        return;
    }
    if (ids.lid == 0u) {
        let r = seg_range(atomicLoad(&small_list[params.list_base + w]));
        let ok = r.x <= r.y && r.y - r.x <= BLOCK_MAX;
        wrange = select(vec2<u32>(0u), r, ok);
    }
    for (var k = 0u; k < RADIX / WG; k++) {
        atomicStore(&wcount[k * WG + ids.lid], 0u);
    }
    let r = workgroupUniformLoad(&wrange);
    let len = r.y - r.x;
    if (len == 0u) {
        return;
    }
    let shift = params.shift;
    // The segment's count of each digit, then where its keys of each of the
    // invocation's digits go: the keys of lower digits first, from the segment's begin.
    for (var i = ids.lid; i < len; i += WG) {
        let g = r.x + i;
        var hi = 0u;
        if (KEY_WORDS == 2u) {
            hi = keys_in[g * KEY_WORDS + 1u];
        }
        atomicAdd(&wcount[digit_at(keys_in[g * KEY_WORDS], hi, shift, 8u)], 1u);
    }
    workgroupBarrier();
    var counts: array<u32, DIGITS_PER_INVOCATION>;
    var sum = 0u;
    for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
        counts[k] = atomicLoad(&wcount[ids.lid * DIGITS_PER_INVOCATION + k]);
        sum += counts[k];
    }
    var base: array<u32, DIGITS_PER_INVOCATION>;
    var at = r.x + workgroup_exclusive_scan(ids, sum, 0u);
    for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
        base[k] = at;
        at += counts[k];
    }
    // Tile after tile in the segment's order, each ranked stably and its keys of a
    // digit written after the earlier tiles' (the radix sort's scatter, one group).
    let index_values = (params.flags & SS_FLAG_INDEX_FIRST) != 0u;
    let tiles = (len + TILE - 1u) / TILE;
    for (var t = 0u; t < tiles; t++) {
        let tile_first = r.x + t * TILE;
        let tile_n = min(TILE, len - t * TILE);
        tile_clear(ids);
        workgroupBarrier();
        tile_rank(ids, tile_first, tile_n, shift, 8u);
        workgroupBarrier();
        tile_offsets(ids, tile_totals(ids));
        workgroupBarrier();
        tile_ranks(ids, tile_n);
        workgroupBarrier();
        for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
            tile_run(ids, k, base[k]);
            base[k] += slot_total[k];
        }
        tile_place(ids, tile_first, tile_n, index_values);
        workgroupBarrier();
        tile_write(ids, tile_first, tile_n, shift, 8u, index_values);
        workgroupBarrier();
    }
}

// The large segment of compacted key c: the first of [lo, hi] whose place ends past c
// (large_end is large_len's inclusive scan, so that a segment of length 0 never is).
fn large_segment(c: u32, lo_in: u32, hi_in: u32) -> u32 {
    var lo = lo_in;
    var hi = hi_in;
    while (lo < hi) {
        let mid = lo + (hi - lo) / 2u;
        if (large_end[mid] > c) {
            hi = mid;
        } else {
            lo = mid + 1u;
        }
    }
    return lo;
}

var<workgroup> gather_span: array<u32, 2>;

@compute @workgroup_size(WG)
fn ss_gather(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let first = tile_index(wid, nwg) * WG;
    if (first >= params.n) {
        return;
    }
    if (lid < 2u) {
        let c = select(first, min(first + WG, params.n) - 1u, lid == 1u);
        gather_span[lid] = large_segment(c, 0u, params.segment_bound - 1u);
    }
    workgroupBarrier();
    let c = first + lid;
    // (cpos is bound to n words: the compacted arrays end there.)
    if (c >= params.n || c >= arrayLength(&cpos)) {
        return;
    }
    let s = large_segment(c, gather_span[0], gather_span[1]);
    // The check leaves only disjoint segments within n, so the places are consistent;
    // were they not, the key stays in range (its own compacted index).
    let off = c - (large_end[s] - large_len[s]);
    var g = begins[s] + off;
    if (off >= large_len[s] || g >= arrayLength(&keys_in) / KEY_WORDS) {
        g = c;
    }
    if (KEY_WORDS == 2u) {
        ckeys[2u * c] = keys_in[2u * g];
        ckeys[2u * c + 1u] = keys_in[2u * g + 1u];
    } else {
        ckeys[c] = keys_in[g];
    }
    cseg[c] = s;
    cpos[c] = g;
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
