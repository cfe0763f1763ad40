// SPDX-License-Identifier: MIT
// segmented_scan_subgroup.wgsl: the segmented scan of a tile's words of
// segmented_scan_workgroup.wgsl on subgroup shuffles: each subgroup scans its lanes'
// words of each row in log2(size) steps, a barrier publishes the (row, subgroup) totals,
// the first subgroup scans that table (size entries a step), and a second barrier hands
// each invocation what comes before its subgroup in each row.
// Assumes, as subgroup_scan.wgsl does, full subgroups of consecutive
// local_invocation_index. The caller reaches it through a barrier, so each subgroup is
// whole, and the steps select instead of branching.

var<workgroup> ssg_v: array<T, ROWS * MAX_SUBGROUPS>;
var<workgroup> ssg_i: array<u32, ROWS * MAX_SUBGROUPS>;
var<workgroup> ssg_f: array<u32, ROWS * MAX_SUBGROUPS>;
var<workgroup> ssg_total: SegEntry;

fn seg_shuffle_up(x: SegEntry, d: u32) -> SegEntry {
    var i = x.a.i;
    if (ARG != 0u) { // (a constant: the index moves only where the operator keeps it)
        i = subgroupShuffleUp(x.a.i, d);
    }
    return SegEntry(Acc(subgroupShuffleUp(x.a.v, d), i), subgroupShuffleUp(x.f, d));
}

fn seg_pick(no: SegEntry, yes: SegEntry, take: bool) -> SegEntry {
    return SegEntry(Acc(select(no.a.v, yes.a.v, take), select(no.a.i, yes.a.i, take)), select(no.f, yes.f, take));
}

// Lane size - 1's entry, on every lane.
fn seg_last(x: SegEntry, size: u32) -> SegEntry {
    return SegEntry(Acc(subgroupShuffle(x.a.v, size - 1u), subgroupShuffle(x.a.i, size - 1u)),
                    subgroupShuffle(x.f, size - 1u));
}

fn ssg_store(k: u32, x: SegEntry) {
    ssg_v[k] = x.a.v;
    ssg_i[k] = x.a.i;
    ssg_f[k] = x.f;
}

fn ssg_load(k: u32) -> SegEntry {
    return SegEntry(Acc(ssg_v[k], ssg_i[k]), ssg_f[k]);
}

// Inclusive scan of one entry per lane across the subgroup, in subgroup_scan.wgsl's
// two forms: to the constant SG_FIXED where the device has one subgroup size (the
// driver unrolls it), else to the subgroup's size.
fn seg_subgroup_scan(lane: u32, size: u32, e: SegEntry) -> SegEntry {
    var x = e;
    if (SG_FIXED != 0u) {
        for (var d = 1u; d < SG_FIXED; d = d << 1u) {
            x = seg_pick(x, seg_combine(seg_shuffle_up(x, d), x), lane >= d);
        }
        return x;
    }
    for (var d = 1u; d < size; d = d << 1u) {
        x = seg_pick(x, seg_combine(seg_shuffle_up(x, d), x), lane >= d);
    }
    return x;
}

// The first subgroup's part of both scans below: the table's first `count` entries
// (totals in order) made exclusive in place, size entries a round, and the whole in
// ssg_total. Counted rounds: Dawn's robustness counts the iterations of a loop whose
// end Tint cannot see (docs/design.md, section 3).
fn scan_table(lane: u32, size: u32, count: u32) {
    var carry = seg_none();
    let rounds = (count + size - 1u) / size;
    for (var c = 0u; c < rounds; c++) {
        let k = c * size + lane;
        var x = seg_none();
        if (k < count) {
            x = ssg_load(k);
        }
        let y = seg_subgroup_scan(lane, size, x);
        let up = seg_shuffle_up(y, 1u);
        if (k < count) {
            ssg_store(k, seg_combine(carry, seg_pick(up, seg_none(), lane == 0u)));
        }
        carry = seg_combine(carry, seg_last(y, size));
    }
    if (lane == 0u) {
        ssg_total = carry;
    }
}

// Every invocation must call it (two barriers). Replaces each of this invocation's
// entries (seg_words: row r holds word r * WG + lid) by what the words before it hand on, in word order,
// and returns the whole tile's.
fn segmented_scan_tile(ids: Ids) -> SegEntry {
    let size = ids.sg_size;
    let lane = ids.sg_lane;
    let sg = ids.lid / size;
    let groups = WG / size;
    var incl: array<SegEntry, ROWS>;
    for (var r = 0u; r < ROWS; r++) {
        incl[r] = seg_subgroup_scan(lane, size, seg_words[r]);
        if (lane == size - 1u) {
            ssg_store(r * groups + sg, incl[r]);
        }
    }
    workgroupBarrier();
    // The (row, subgroup) totals in word order, made exclusive in place.
    if (sg == 0u) {
        scan_table(lane, size, ROWS * groups);
    }
    workgroupBarrier();
    for (var r = 0u; r < ROWS; r++) {
        let up = seg_shuffle_up(incl[r], 1u);
        seg_words[r] = seg_combine(ssg_load(r * groups + sg), seg_pick(up, seg_none(), lane == 0u));
    }
    return ssg_total;
}

// Every invocation must call it (two barriers). One entry per invocation, in invocation
// order: the subgroups scan their lanes, then the first subgroup the subgroups' totals.
fn segmented_scan_lanes(ids: Ids, e: SegEntry) -> SegLanes {
    let size = ids.sg_size;
    let lane = ids.sg_lane;
    let sg = ids.lid / size;
    let groups = WG / size;
    let incl = seg_subgroup_scan(lane, size, e);
    if (lane == size - 1u) {
        ssg_store(sg, incl);
    }
    workgroupBarrier();
    if (sg == 0u) {
        scan_table(lane, size, groups);
    }
    workgroupBarrier();
    let up = seg_shuffle_up(incl, 1u);
    return SegLanes(seg_combine(ssg_load(sg), seg_pick(up, seg_none(), lane == 0u)), ssg_total);
}
