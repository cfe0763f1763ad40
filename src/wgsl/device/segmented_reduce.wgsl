// SPDX-License-Identifier: MIT
// segmented_reduce.wgsl: one reduction per segment, the work split by elements.
//
// Three dispatches:
//   seg_bounds  per tile boundary b, the first segment that begins at or after b * TILE
//               (a search in the begins); zeroes the status word.
//   seg_tiles   per tile of TILE values (persistent workgroups taking tiles in turn):
//               marks in workgroup memory where the tile's segments begin and end
//               (a bit an element), reduces each invocation's contiguous run of
//               ITEMS values into pieces, links the pieces across invocations with a
//               segmented scan, writes every segment that ends in the tile (and the
//               identity for the empty ones that begin there), leaves partials for the
//               segment that goes on past the tile, and checks the segments it owns.
//   seg_spans   per tile whose last segment began there and goes on: combines the
//               partials of the tiles that segment covers, in a fixed order (serially
//               for short spans, in a workgroup tree for long ones).
//
// A tile owns the segments that begin in it (the last tile also those that begin at n),
// so each segment's result is written once. Inside a tile every element has a code, that
// of the last mark at or before it: CODE_HEAD (no mark) for the segment that began
// before the tile (its "head" piece), s + 1 for segment s, CODE_GAP for gaps (after a
// segment's end where no begin follows, and past n). A non-empty segment marks its
// begin and, where a gap follows, its end, so with offsets in order no two marks fall
// on one element (empty segments mark nothing but a gap after them), and a mark is
// exactly a piece's border. The codes are not stored: a mark is one bit, and the run
// that meets it finds its code from the offsets (the last segment that begins at or
// before it, searched from the first segment beginning in the run), so that workgroup
// memory, which sets how many workgroups share a core, holds an eighth of a byte an
// element instead of four (docs/design.md, sections 3 and 8b).
//
// Partials, PARTIAL_STRIDE u32 per tile in aux (PARTIAL_WORDS for values of one word):
// the head piece (the value's ELEMENT_WORDS words, the index), the tail piece likewise,
// the segment of the tail piece or NO_INDEX, the last tile that segment reaches. Then,
// from bounds_base, the tiles + 1 segment bounds.
//
// A user's operator (T a struct of up to 4 words, maybe not commutative) takes the same
// path: every piece is combined in input order (runs, the linking scan, the spans), and
// only a span's workgroup tree changes its shape for it (workgroup/reduce_tree.wgsl).
//
// Bindings: 0 src (array<V>, for the n % 4 tail), 4 src4 (the same range as V4), 1 out
// (the value's words[, index] per segment), 3 aux, 5 begins (the offsets), 6 ends
// (BEGIN_END; with SEG_RUNS one u32, the count), 8 status (one u32; 7 is a user's
// carry record's). SEG_FORM, ARG: constants of the pipeline.
//
// SEG_RUNS (the reduce by key's form, not offered on its own): begins holds the first
// index of each run, strictly increasing from 0 as select's UNIQUE mode writes them,
// the count comes from the GPU (ends[0], bounded by params.segments), and each run ends
// where the next begins, the last at n.

@group(0) @binding(0) var<storage, read> src: array<V>;
@group(0) @binding(4) var<storage, read> src4: array<V4>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> aux: array<u32>;
@group(0) @binding(5) var<storage, read> begins: array<u32>;
@group(0) @binding(6) var<storage, read> ends: array<u32>;
@group(0) @binding(8) var<storage, read_write> status: array<atomic<u32>>;

const PARTIAL_STRIDE: u32 = PARTIAL_WORDS + 2u * (ELEMENT_WORDS - 1u);
const PIECE_WORDS: u32 = ELEMENT_WORDS + 1u; // a piece: its value's words, its index
const PARTIAL_SEG: u32 = 2u * PIECE_WORDS;
const PARTIAL_LAST: u32 = PARTIAL_SEG + 1u;

const CODE_HEAD: u32 = 0u;
const CODE_GAP: u32 = 0xFFFFFFFFu;

// The number of segments, set at the start of each entry point (segment_count).
var<private> seg_count: u32;

fn segment_count() -> u32 {
    if (SEG_FORM == SEG_RUNS) {
        return min(ends[0], params.segments);
    }
    return params.segments;
}

fn seg_begin(s: u32) -> u32 {
    return begins[s];
}

fn seg_end(s: u32) -> u32 {
    if (SEG_FORM == SEG_OFFSETS) {
        return begins[s + 1u];
    }
    if (SEG_FORM == SEG_RUNS) {
        if (s + 1u >= seg_count) {
            return params.n;
        }
        return begins[s + 1u];
    }
    return ends[s];
}

fn write_result(s: u32, r: Acc) {
    if (s >= seg_count) { // only with offsets out of order (reported in the status)
        return;
    }
    let vw = to_words(r.v);
    if (ARG != 0u) {
        out[2u * s] = vw.x;
        out[2u * s + 1u] = r.i;
    } else {
        for (var k = 0u; k < ELEMENT_WORDS; k++) {
            out[ELEMENT_WORDS * s + k] = vw[k];
        }
    }
}

// A piece in aux from word q: the value's words, then the index.
fn store_piece(q: u32, r: Acc) {
    let vw = to_words(r.v);
    for (var k = 0u; k < ELEMENT_WORDS; k++) {
        aux[q + k] = vw[k];
    }
    aux[q + ELEMENT_WORDS] = r.i;
}

fn load_piece(q: u32) -> Acc {
    var vw = vec4<u32>(0u);
    for (var k = 0u; k < ELEMENT_WORDS; k++) {
        vw[k] = aux[q + k];
    }
    return Acc(from_words(vw), aux[q + ELEMENT_WORDS]);
}

fn identity_acc() -> Acc {
    return seg_none().a;
}

// A segment and its begin (NO_INDEX past the last segment).
struct Begin {
    s: u32,
    b: u32,
}

// Whether begin b lies past x: at or after it, or (strict) after it.
fn past(b: u32, x: u32, strict: bool) -> bool {
    return select(b >= x, b > x, strict);
}

// The first segment of lo .. hi - 1 whose begin lies past x (hi when none), with hb the
// begin of hi where it is known (NO_INDEX otherwise): halving. The begin returned is
// always one a probe read (or hb), so the caller needs no load for it.
fn halve(lo_in: u32, hi_in: u32, hb_in: u32, x: u32, strict: bool) -> Begin {
    var lo = lo_in;
    var hi = hi_in;
    var hb = hb_in;
    while (lo < hi) {
        let mid = lo + (hi - lo) / 2u;
        let bm = seg_begin(mid);
        if (past(bm, x, strict)) {
            hi = mid;
            hb = bm;
        } else {
            lo = mid + 1u;
        }
    }
    return Begin(hi, hb);
}

// The same from lo upwards: steps doubling bracket the answer, then halving finds it
// (one probe where it is lo).
fn first_past(lo_in: u32, hi_in: u32, x: u32, strict: bool) -> Begin {
    var lo = lo_in;
    var hi = hi_in;
    var hb = NO_INDEX;
    var step = 1u;
    loop {
        if (lo >= hi) {
            break;
        }
        let p = min(lo - 1u + step, hi - 1u);
        let bp = seg_begin(p);
        if (past(bp, x, strict)) {
            hi = p;
            hb = bp;
            break;
        }
        lo = p + 1u;
        step = step * 2u;
    }
    return halve(lo, hi, hb, x, strict);
}

// The first segment whose begin is x or more (seg_count when none is). From a
// guess by the mean segment length (exact for segments of one length), steps doubling
// away from it bracket the answer, then halving finds it: a few dependent loads where
// a plain binary search would take log2(segments).
fn first_at_or_after(x: u32) -> u32 {
    let S = seg_count;
    if (S == 0u) {
        return 0u;
    }
    let g = min(u32(f32(x) / f32(max(params.n, 1u)) * f32(S)), S - 1u);
    if (seg_begin(g) < x) {
        return first_past(g + 1u, S, x, false).s;
    }
    var lo = 0u;
    var hi = g;
    var step = 1u;
    loop {
        if (hi == 0u) {
            break;
        }
        let p = select(hi - step, 0u, step > hi);
        if (seg_begin(p) < x) {
            lo = p + 1u;
            break;
        }
        hi = p;
        step = step * 2u;
    }
    return halve(lo, hi, NO_INDEX, x, false).s;
}

@compute @workgroup_size(WG)
fn seg_bounds(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    seg_count = segment_count();
    let b = tile_index(wid, nwg) * WG + ids.lid;
    if (b == 0u) {
        atomicStore(&status[0], 0u);
    }
    if (b > params.tiles) {
        return;
    }
    var r = seg_count;
    if (b < params.tiles) {
        r = first_at_or_after(b * TILE);
    }
    aux[params.bounds_base + b] = r;
}

// Workgroup memory of a tile: a bit per element where a piece begins; per invocation
// the first non-empty segment that begins in its run and that begin (NO_INDEX for
// none: begins grow with the segments, so the two minima belong together), and the
// code of the piece its run hands on (written where the run has a border, read after
// the linking scan).
var<workgroup> heads: array<atomic<u32>, TILE / 32u>;
var<workgroup> first_at: array<atomic<u32>, WG>;
var<workgroup> first_begin: array<atomic<u32>, WG>;
var<workgroup> tail_code: array<u32, WG>;

fn mark(x: u32) {
    atomicOr(&heads[x >> 5u], 1u << (x & 31u));
}

// The first segment after c that begins after x, and its begin (seg_count and NO_INDEX
// for none), with c's begin known to be x or less: one probe where c is the only
// segment beginning at x, more past runs of empty segments.
fn first_after(c: u32, x: u32) -> Begin {
    return first_past(c + 1u, seg_count, x, true);
}

// The begin of the segment after s (n after the last), with e the end of s.
fn next_begin(s: u32, e: u32) -> u32 {
    if (s + 1u >= seg_count) {
        return params.n;
    }
    if (SEG_FORM != SEG_BEGIN_END) {
        return e;
    }
    return seg_begin(s + 1u);
}

// A check of one owned segment of tile t (elements from ts); every segment is checked
// once when the tiles' bounds increase, so all rules hold when no tile complains.
fn check_segment(b: u32, e: u32, next: u32, t: u32, ts: u32) {
    let n = params.n;
    let owned = b >= ts && (b - ts < TILE || t + 1u == params.tiles);
    if (b > n || e > n) {
        atomicMax(&status[0], STATUS_OUT_OF_RANGE);
    } else if (b > e || e > next || !owned) {
        atomicMax(&status[0], STATUS_UNORDERED);
    }
}

// A finished piece of code `code`: a whole segment's result, the head partial, or (at
// the tile's end, for a segment that goes on) the tail partial.
fn finish_piece(t: u32, te: u32, code: u32, r: Acc, at_end: bool) {
    let p = PARTIAL_STRIDE * t;
    var tail_seg = NO_INDEX;
    if (code == CODE_HEAD) {
        store_piece(p, r);
    } else if (code != CODE_GAP) {
        let s = code - 1u;
        if (at_end && s < seg_count && seg_end(s) > te) {
            tail_seg = s;
            store_piece(p + PIECE_WORDS, r);
            aux[p + PARTIAL_LAST] = min((seg_end(s) - 1u) / TILE, params.tiles - 1u);
        } else {
            write_result(s, r);
        }
    }
    if (at_end) {
        aux[p + PARTIAL_SEG] = tail_seg;
    }
}

// Each invocation's run of ITEMS consecutive values (WORDS 16-byte words), and the
// codes of the borders in it.
const WORDS: u32 = ITEMS / 4u;
var<private> w: array<V4, WORDS>;
var<private> run_codes: array<u32, ITEMS>;

fn load_run(t: u32, lid: u32) {
    let n = params.n;
    let n4 = n / 4u;
    for (var k = 0u; k < WORDS; k++) {
        let gq = t * (TILE / 4u) + lid * WORDS + k;
        if (gq < n4) {
            w[k] = src4[gq];
        } else {
            for (var j = 0u; j < 4u; j++) {
                w[k][j] = src[min(4u * gq + j, max(n, 1u) - 1u)];
            }
        }
    }
}

// A segment as the marks need it: its begin, its end, the next one's begin.
struct Seg {
    b: u32,
    e: u32,
    next: u32,
}

fn seg_of(s: u32) -> Seg {
    let e = seg_end(s);
    return Seg(seg_begin(s), e, next_begin(s, e));
}

fn mark_segment(s: u32, g: Seg, t: u32, ts: u32) {
    check_segment(g.b, g.e, g.next, t, ts);
    if (g.b < g.e && g.b >= ts && g.b - ts < TILE) {
        mark(g.b - ts);
        atomicMin(&first_at[(g.b - ts) / ITEMS], s);
        atomicMin(&first_begin[(g.b - ts) / ITEMS], g.b);
    }
    if (g.e < g.next && g.e >= ts && g.e - ts < TILE) {
        mark(g.e - ts);
    }
    if (g.b == g.e) {
        write_result(s, identity_acc());
    }
}

// The code of the piece that run f - 1 hands on (f from a scan entry; 0: no border).
fn code_at(f: u32) -> u32 {
    if (f == 0u) {
        return CODE_HEAD;
    }
    return tail_code[f - 1u];
}

// Persistent workgroups take the tiles in turn (tile t + G after t, G the grid). Per
// tile: the marks of its segments' borders, each invocation's run reduced alone into
// the piece it continues, the pieces wholly inside it (written now) and the piece it
// hands on; one segmented scan over the invocations in order (a fixed order, so float
// sums repeat) links the pieces that cross runs. The scan entries' flag is the index + 1
// of the last run with a border, so what flows in says which piece it belongs to.
// Whatever the next tile needs from memory (its values, bounds, first segment each) is
// requested a turn ahead, so that the loads are in flight while this tile is worked.
@compute @workgroup_size(WG)
fn seg_tiles(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    seg_count = segment_count();
    let g = tile_index(wid, nwg);
    let groups = nwg.x * nwg.y;
    let tiles = params.tiles;
    let lid = ids.lid;
    let n = params.n;
    // Counted loops: Dawn's robustness gives a loop it cannot bound (a stride, a step
    // by a runtime value) an iteration counter of its own (docs/design.md, section 3).
    var turns = 0u;
    if (g < tiles) {
        turns = (tiles - g + groups - 1u) / groups;
    }
    var sa = 0u;
    var sb = 0u;
    var first = Seg(0u, 0u, 0u); // this invocation's first segment of the tile
    var head = Seg(0u, 0u, 0u);  // lane 0: the segment before the tile's first
    if (turns != 0u) {
        load_run(g, lid);
        sa = aux[params.bounds_base + g];
        sb = aux[params.bounds_base + g + 1u];
        if (sa + lid < sb) {
            first = seg_of(sa + lid);
        }
        if (lid == 0u && sa > 0u) {
            head = seg_of(sa - 1u);
        }
    }
    for (var turn = 0u; turn < turns; turn++) {
        let t = g + turn * groups;
        let ts = t * TILE;
        let te = min(ts + TILE, n);
        let more = turn + 1u < turns;
        var next_sa = 0u;
        var next_sb = 0u;
        if (more) {
            next_sa = aux[params.bounds_base + t + groups];
            next_sb = aux[params.bounds_base + t + groups + 1u];
        }
        for (var k = 0u; k < (TILE / 32u + WG - 1u) / WG; k++) {
            let i = lid + k * WG;
            if (i < TILE / 32u) {
                atomicStore(&heads[i], 0u);
            }
        }
        atomicStore(&first_at[lid], NO_INDEX);
        atomicStore(&first_begin[lid], NO_INDEX);
        workgroupBarrier();

        // Marks: a non-empty segment's begin, and its end where a gap follows; the head
        // segment's end likewise; n. With offsets in order no element is marked twice.
        if (lid == 0u) {
            if (sb < sa) {
                atomicMax(&status[0], STATUS_UNORDERED);
            }
            if (sa > 0u && head.e < head.next && head.e >= ts && head.e - ts < TILE) {
                mark(head.e - ts);
            }
            if (n - ts < TILE) {
                mark(n - ts);
            }
        }
        var mine = 0u;
        if (sb > sa + lid) {
            mine = (sb - sa - lid + WG - 1u) / WG;
        }
        if (mine != 0u) {
            mark_segment(sa + lid, first, t, ts);
        }
        for (var k = 1u; k < mine; k++) {
            let s = sa + lid + k * WG;
            mark_segment(s, seg_of(s), t, ts);
        }
        workgroupBarrier();

        // The codes of the run's borders, in order, before its values are walked: the
        // searches stay out of that loop, which the compiler unrolls (with them in it
        // the kernel took 5-8% longer on an H200). A border's code: a gap unless a
        // non-empty segment begins there. The run's first such begin and its segment
        // come from workgroup memory (most runs hold one border at most, and no load);
        // at a later border (c: the last segment found, begun before it) a search for
        // the last segment beginning at or before it: none since c, or one that is
        // empty (then a gap follows it), makes the border a gap.
        var borders = 0u;
        var c = atomicLoad(&first_at[lid]);
        let cb = atomicLoad(&first_begin[lid]);
        var found = false; // c began at an earlier border of the run
        for (var h = 0u; h < (ITEMS + 31u) / 32u; h++) {
            let e0 = lid * ITEMS + h * 32u;
            var m = atomicLoad(&heads[e0 >> 5u]);
            if (ITEMS < 32u) {
                m = (m >> (e0 & 31u)) & select(NO_INDEX, (1u << (ITEMS & 31u)) - 1u, ITEMS < 32u);
            }
            for (var b = 0u; b < 32u; b++) {
                if (m == 0u) {
                    break;
                }
                let x = ts + e0 + firstTrailingBit(m);
                m &= m - 1u;
                var code = CODE_GAP;
                if (!found) {
                    if (cb <= x && x < n && c < seg_count) {
                        code = c + 1u;
                        found = true;
                    }
                } else if (x < n) {
                    let after = first_after(c, x);
                    let s = after.s - 1u;
                    if (s != c) {
                        // Its end: where it is the next begin, the one the search read.
                        var e = after.b;
                        if (SEG_FORM == SEG_BEGIN_END || after.s >= seg_count) {
                            e = seg_end(s);
                        }
                        if (e > x) {
                            code = s + 1u;
                        }
                        c = s;
                    }
                }
                run_codes[borders] = code;
                borders++;
            }
        }

        // The run alone: `pre` the piece it continues (all of it when no border lies in
        // it), `cur` the piece it hands on, and between them the pieces it finishes.
        var cur = identity_acc();
        var pre = identity_acc();
        var ord = 0u; // borders met
        for (var k = 0u; k < WORDS; k++) {
            let q = lid * WORDS + k;
            let bits = (atomicLoad(&heads[q >> 3u]) >> (4u * (q & 7u))) & 15u;
            for (var j = 0u; j < 4u; j++) {
                if ((bits & (1u << j)) != 0u) {
                    if (ord != 0u) {
                        finish_piece(t, te, run_codes[ord - 1u], cur, false);
                    } else {
                        pre = cur;
                    }
                    ord++;
                    cur = identity_acc();
                }
                cur = acc_combine(cur, Acc(lift(w[k][j]), ts + 4u * q + j));
            }
        }
        var last = 0u; // lid + 1 where the run has a border, else 0
        if (borders == 0u) {
            pre = cur;
        } else {
            last = lid + 1u;
            tail_code[lid] = run_codes[borders - 1u];
        }
        // The registers are free: the next tile's loads go out now and arrive while this
        // one is linked and finished.
        if (more) {
            load_run(t + groups, lid);
            if (next_sa + lid < next_sb) {
                first = seg_of(next_sa + lid);
            }
            if (lid == 0u && next_sa > 0u) {
                head = seg_of(next_sa - 1u);
            }
        }
        workgroupBarrier(); // the subgroups whole again before their shuffles (docs/design.md, 3)
        let linked = segmented_scan_lanes(ids, SegEntry(cur, last));
        if (last != 0u) {
            finish_piece(t, te, code_at(linked.before.f), acc_combine(linked.before.a, pre), false);
        }
        if (lid == WG - 1u) {
            finish_piece(t, te, code_at(linked.total.f), linked.total.a, true);
        }
        sa = next_sa;
        sb = next_sb;
        // Every read of the marks done before the next tile clears them.
        workgroupBarrier();
    }
}

// A span of at most SPAN_SERIAL tiles after its own is folded by one invocation; longer
// ones (few: spans do not overlap) by the whole workgroup in a tree, one after another.
const SPAN_SERIAL: u32 = 16u;

var<workgroup> long_spans: array<u32, WG>;
var<workgroup> long_count: atomic<u32>;
var<workgroup> long_total: u32;

// Entry k of tile t's span: 0 its tail piece, k its k-th successor's head piece.
fn span_entry(t: u32, k: u32) -> Acc {
    var q = PARTIAL_STRIDE * (t + k);
    if (k == 0u) {
        q = PARTIAL_STRIDE * t + PIECE_WORDS;
    }
    return load_piece(q);
}

// One invocation per tile: a tile whose tail segment began in it and goes on combines
// that segment's pieces.
@compute @workgroup_size(WG)
fn seg_spans(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    seg_count = segment_count();
    let base = tile_index(wid, nwg) * WG;
    if (base >= params.tiles) { // a folded grid's spare workgroups
        return;
    }
    if (ids.lid == 0u) {
        atomicStore(&long_count, 0u);
    }
    workgroupBarrier();
    let t = base + ids.lid;
    if (t < params.tiles) {
        let s = aux[PARTIAL_STRIDE * t + PARTIAL_SEG];
        if (s != NO_INDEX) {
            let count = aux[PARTIAL_STRIDE * t + PARTIAL_LAST] - t;
            if (count <= SPAN_SERIAL) {
                var r = span_entry(t, 0u);
                for (var k = 1u; k <= count; k++) {
                    r = acc_combine(r, span_entry(t, k));
                }
                write_result(s, r);
            } else {
                long_spans[atomicAdd(&long_count, 1u)] = t;
            }
        }
    }
    workgroupBarrier();
    if (ids.lid == 0u) {
        long_total = atomicLoad(&long_count);
    }
    let longs = workgroupUniformLoad(&long_total);
    for (var j = 0u; j < longs; j++) {
        let lt = workgroupUniformLoad(&long_spans[j]);
        let count = aux[PARTIAL_STRIDE * lt + PARTIAL_LAST] - lt;
        var r = identity_acc();
        if (COMMUTATIVE) {
            for (var k = ids.lid; k <= count; k += WG) {
                r = acc_combine(r, span_entry(lt, k));
            }
        } else { // each invocation a run of consecutive entries, the tree in order
            let per = count / WG + 1u;
            let k0 = min(ids.lid * per, count + 1u);
            let k1 = min(k0 + per, count + 1u);
            for (var k = k0; k < k1; k++) {
                r = acc_combine(r, span_entry(lt, k));
            }
        }
        r = workgroup_reduce(ids.lid, r);
        if (ids.lid == 0u) {
            write_result(aux[PARTIAL_STRIDE * lt + PARTIAL_SEG], r);
        }
    }
}
