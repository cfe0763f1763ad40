// SPDX-License-Identifier: MIT
// segmented_scan_workgroup.wgsl: the segmented scan of a tile's words (ROWS rows of WG,
// one entry a word) in workgroup memory: per row Hillis and Steele (log2(WG) steps, two
// barriers each), then the rows chained in order; nothing beyond WebGPU's core. The
// portable twin of segmented_scan_subgroup.wgsl; both follow element/segment_entry.wgsl.

var<workgroup> ss_v: array<T, WG>;
var<workgroup> ss_i: array<u32, WG>;
var<workgroup> ss_f: array<u32, WG>;

fn ss_store(k: u32, x: SegEntry) {
    ss_v[k] = x.a.v;
    ss_i[k] = x.a.i;
    ss_f[k] = x.f;
}

fn ss_load(k: u32) -> SegEntry {
    return SegEntry(Acc(ss_v[k], ss_i[k]), ss_f[k]);
}

// Every invocation must call it (barriers). Replaces each of this invocation's entries
// (seg_words: row r holds word r * WG + lid) by what the words before it hand on, in word
// order, and returns the whole tile's: each row scanned over the invocations, then the
// rows chained in order.
fn segmented_scan_tile(ids: Ids) -> SegEntry {
    var before: array<SegEntry, ROWS>;
    var row_total: array<SegEntry, ROWS>;
    for (var r = 0u; r < ROWS; r++) {
        let l = segmented_scan_lanes(ids, seg_words[r]);
        before[r] = l.before;
        row_total[r] = l.total;
    }
    var carry = seg_none();
    for (var r = 0u; r < ROWS; r++) {
        seg_words[r] = seg_combine(carry, before[r]);
        carry = seg_combine(carry, row_total[r]);
    }
    return carry;
}

// Every invocation must call it (barriers). One entry per invocation, in invocation
// order: Hillis and Steele over the workgroup.
fn segmented_scan_lanes(ids: Ids, e: SegEntry) -> SegLanes {
    let lid = ids.lid;
    ss_store(lid, e);
    for (var d = 1u; d < WG; d = d << 1u) {
        workgroupBarrier();
        var x = ss_load(lid);
        if (lid >= d) {
            x = seg_combine(ss_load(lid - d), x);
        }
        workgroupBarrier();
        ss_store(lid, x);
    }
    workgroupBarrier();
    var before = seg_none();
    if (lid > 0u) {
        before = ss_load(lid - 1u);
    }
    let total = ss_load(WG - 1u);
    workgroupBarrier(); // the next call reuses the arrays
    return SegLanes(before, total);
}
