// SPDX-License-Identifier: MIT
// segment_entry.wgsl: what a segmented scan carries (workgroup/segmented_scan_*.wgsl):
// an Acc (element/acc.wgsl) and f = 1 when a piece begins within the range the entry
// covers (the value then holds only what follows that border). Which piece a value
// belongs to is not carried: the caller finds it from where the borders are.

// A tile of the segmented reduce is ROWS rows of WG 16-byte words.
const ROWS: u32 = ITEMS / 4u;

struct SegEntry {
    a: Acc,
    f: u32,
}

// segmented_scan_lanes' answer: what the invocations before this one hand on, and what
// the whole workgroup hands on.
struct SegLanes {
    before: SegEntry,
    total: SegEntry,
}

// The entries of this invocation's words (row r: word r * WG + lid) that a tile's
// segmented scan (segmented_scan_tile) works on, in place: at module scope, not passed
// to functions, which an H200 ran at half speed (docs/design.md, section 4).
var<private> seg_words: array<SegEntry, ROWS>;

fn seg_none() -> SegEntry {
    return SegEntry(Acc(identity_from_bits(IDENTITY_BITS), NO_INDEX), 0u);
}

// l followed by r: r alone where a border lies in r, else both combined.
fn seg_combine(l: SegEntry, r: SegEntry) -> SegEntry {
    let m = acc_combine(l.a, r.a);
    let take_r = r.f != 0u;
    return SegEntry(Acc(select_t(m.v, r.a.v, take_r), select(m.i, r.a.i, take_r)), select(l.f, r.f, take_r));
}
