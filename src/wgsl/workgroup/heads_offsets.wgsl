// SPDX-License-Identifier: MIT
// heads_offsets.wgsl: the segmented scan's segment heads from offsets, the head source
// of device/scan_by_key.wgsl for wgs_segmented_scan (the hooks it asks for are listed
// there). Segment s is [seg_begin(s), seg_end(s)): CSR offsets (SEG_CSR = 1, n_segments
// + 1 of them) or begin and end arrays (SEG_CSR = 0). An element in no segment (before
// the first, in a gap, after the last) is marked a gap: a head whose value counts as
// the identity, so that its output is the identity and nothing flows across it.
//
// The owner of a tile marks its heads and gaps in workgroup memory from the segments
// that begin in it (found by one search per tile border) and checks those segments as
// the segmented reduce does; a fallback that rebuilds a predecessor's words finds each
// element's segment by a search of its own instead (the same marks wherever the
// offsets keep the rules).
//
// Bindings: 10 seg_begins (the offsets, or the begins), 11 seg_ends (BEGIN_END), 12
// seg_status (one u32: 0, or the largest code of a broken rule; zeroed by
// seg_status_reset, a dispatch of its own before the scan, and for n = 0 written by
// seg_check_empty alone).

@group(0) @binding(10) var<storage, read> seg_begins: array<u32>;
@group(0) @binding(11) var<storage, read> seg_ends: array<u32>;
@group(0) @binding(12) var<storage, read_write> seg_status: array<atomic<u32>>;

const HEADS_GAPS: bool = true;

var<workgroup> mark_heads: array<atomic<u32>, TILE / 32u>;
var<workgroup> mark_gaps: array<atomic<u32>, TILE / 32u>;
var<workgroup> tile_segments: array<u32, 2>;

fn seg_begin(s: u32) -> u32 {
    return seg_begins[s];
}

fn seg_end(s: u32) -> u32 {
    if (SEG_CSR != 0u) {
        return seg_begins[s + 1u];
    }
    return seg_ends[s];
}

// Where the gap after segment s (of end e) ends: the next segment's begin, n after the
// last.
fn gap_end(s: u32, e: u32) -> u32 {
    if (s + 1u >= params.segments) {
        return params.n;
    }
    if (SEG_CSR != 0u) {
        return e;
    }
    return seg_begin(s + 1u);
}

// The number of segments that begin below x (the first whose begin is x or more).
// Segments of one length put the answer at x / n of the way: steps doubling away from
// that guess bracket it, halving closes in, each loop bounded so that offsets out of
// order cannot hold a workgroup.
fn segments_below(x: u32) -> u32 {
    let S = params.segments;
    if (x == 0u || S == 0u) {
        return 0u;
    }
    var lo = 0u; // seg_begin(lo - 1) < x where lo > 0
    var hi = S;  // seg_begin(hi) >= x where hi < S
    let g = min(u32(f32(x) / f32(max(params.n, 1u)) * f32(S)), S - 1u);
    var step = 1u;
    if (seg_begin(g) < x) {
        lo = g + 1u;
        for (var k = 0u; k < 32u && lo + step - 1u < hi; k++) {
            let p = lo + step - 1u;
            if (seg_begin(p) >= x) {
                hi = p;
                break;
            }
            lo = p + 1u;
            step = step * 2u;
        }
    } else {
        hi = g;
        for (var k = 0u; k < 32u && hi > 0u; k++) {
            let p = hi - min(step, hi);
            if (seg_begin(p) < x) {
                lo = p + 1u;
                break;
            }
            hi = p;
            step = step * 2u;
        }
    }
    for (var k = 0u; k < 32u && lo < hi; k++) {
        let mid = lo + (hi - lo) / 2u;
        if (seg_begin(mid) < x) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// Marks [first, end_at) of the tile that starts at ts as gap, a word of bits at a time.
fn mark_gap(first: u32, end_at: u32, ts: u32) {
    var x = max(first, ts) - ts;
    let end = max(min(end_at, ts + TILE), ts) - ts;
    for (var k = 0u; k < TILE / 32u + 1u && x < end; k++) {
        let bit = x & 31u;
        let take = min(32u - bit, end - x);
        atomicOr(&mark_gaps[x >> 5u], select(((1u << take) - 1u) << bit, 0xFFFFFFFFu, take == 32u));
        x += take;
    }
}

// The rules of one segment that begins in tile t (elements from ts): begin <= end <=
// the next begin, both <= n, and that it begins in the tile (the last tile owns those at
// or past its end). Every segment is checked once when the tiles' bounds increase, so
// all rules hold when no tile complains (docs/design.md, section 8b).
fn check_segment(b: u32, e: u32, next: u32, ts: u32, last: bool) {
    let owned = b >= ts && (b - ts < TILE || last);
    if (b > params.n || e > params.n) {
        atomicMax(&seg_status[0], STATUS_OUT_OF_RANGE);
    } else if (b > e || e > next || !owned) {
        atomicMax(&seg_status[0], STATUS_UNORDERED);
    }
}

// Every invocation calls it (two barriers): the tile's marks, from the segments that
// begin in it and the gap that reaches into it from before.
fn heads_prepare(lid: u32, t: u32, n: u32) {
    let ts = t * TILE;
    let last = ts + TILE >= n;
    for (var i = lid; i < TILE / 32u; i += WG) {
        atomicStore(&mark_heads[i], 0u);
        atomicStore(&mark_gaps[i], 0u);
    }
    if (lid == 0u) {
        tile_segments[0] = segments_below(ts);
    }
    if (lid == min(1u, WG - 1u)) { // the two searches side by side
        tile_segments[1] = select(segments_below(ts + TILE), params.segments, last);
    }
    workgroupBarrier();
    let sa = tile_segments[0];
    let sb = tile_segments[1];
    if (lid == 0u) {
        if (sb < sa) {
            atomicMax(&seg_status[0], STATUS_UNORDERED);
        }
        if (sa == 0u) { // the elements before the first segment
            var first = n;
            if (params.segments > 0u) {
                first = seg_begin(0u);
            }
            mark_gap(0u, first, ts);
        } else {
            let e = seg_end(sa - 1u);
            mark_gap(e, gap_end(sa - 1u, e), ts);
        }
    }
    for (var s = sa + lid; s < sb; s += WG) {
        let b = seg_begin(s);
        let e = seg_end(s);
        let next = gap_end(s, e);
        check_segment(b, e, next, ts, last);
        if (b < e && b >= ts && b - ts < TILE) {
            atomicOr(&mark_heads[(b - ts) >> 5u], 1u << ((b - ts) & 31u));
        }
        mark_gap(e, next, ts);
    }
    workgroupBarrier();
}

// Bits j (a head: a segment's begin or a gap) and 4 + j (a gap) for element 4q + j;
// none past n. Element 0 is a head in every layout that keeps the rules.
fn word_marks_valid(q: u32, n: u32, m: u32) -> u32 {
    let valid = min(max(n, 4u * q) - 4u * q, 4u);
    let mask = (1u << valid) - 1u;
    return ((m | select(0u, 1u, q == 0u)) & mask) | (m & (mask << 4u));
}

fn tile_marks(q: u32, n: u32, whole: bool) -> u32 {
    let local = q % (TILE / 4u);
    let shift = 4u * (local & 7u);
    let g = (atomicLoad(&mark_gaps[local >> 3u]) >> shift) & 15u;
    let h = ((atomicLoad(&mark_heads[local >> 3u]) >> shift) & 15u) | g;
    return word_marks_valid(q, n, h | (g << 4u));
}

// The first segment whose begin is x or more, by halving with a trip count that
// depends on the number of segments alone, and selects: the lanes of a fallback's
// subgroup search in step, since subgroup operations follow (docs/design.md, section 3).
fn segments_below_even(x: u32) -> u32 {
    let S = params.segments;
    var base = 0u;
    var len = S;
    loop {
        if (len <= 1u) {
            break;
        }
        let half = len / 2u;
        base = select(base, base + half, seg_begin(base + half) < x);
        len -= half;
    }
    return select(0u, base + select(0u, 1u, seg_begin(base) < x), S > 0u);
}

// The same marks from the offsets alone: element x lies in the last segment that begins
// at or before it, if that one reaches past x (an empty segment covers nothing, and
// segments in order leave no other candidate).
fn input_marks(q: u32, n: u32, whole: bool) -> u32 {
    var m = 0u;
    for (var j = 0u; j < 4u; j++) {
        let x = min(4u * q + j, n - 1u); // (past n: masked below)
        let s = segments_below_even(x + 1u);
        let p = max(s, 1u) - 1u;
        let covered = (s > 0u) & (seg_end(p) > x);
        let head = covered & (seg_begin(p) == x);
        m = m | select(0u, 0x11u << j, !covered) | select(0u, 1u << j, head);
    }
    return word_marks_valid(q, n, m);
}

// No carry-in: the segments say where everything starts.
fn run_carry() -> bool {
    return false;
}

fn run_carry_value() -> T {
    return identity_from_bits(IDENTITY_BITS);
}

@compute @workgroup_size(1)
fn seg_status_reset() {
    atomicStore(&seg_status[0], 0u);
}

// The check of n = 0, where the scan has no tile: every offset must be 0.
@compute @workgroup_size(WG)
fn seg_check_empty(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = tile_index(wid, nwg) * WG + ids.lid;
    let S = params.segments;
    var bad = i < select(S, S + 1u, SEG_CSR != 0u) && seg_begins[i] != 0u;
    if (SEG_CSR == 0u && i < S) {
        bad = bad || seg_ends[i] != 0u;
    }
    if (bad) {
        atomicMax(&seg_status[0], STATUS_OUT_OF_RANGE);
    }
}
