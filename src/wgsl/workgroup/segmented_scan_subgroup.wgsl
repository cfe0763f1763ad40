// SPDX-License-Identifier: MIT
// segmented_scan_subgroup.wgsl: the segmented scan of a tile's words of
// segmented_scan_workgroup.wgsl on subgroup shuffles: each subgroup scans its lanes'
// words of each row in log2(size) steps, one barrier publishes the (row, subgroup)
// totals, and each invocation combines those before its own (ROWS x WG / size of them).
// Assumes, as subgroup_scan.wgsl does, full subgroups of consecutive
// local_invocation_index. The caller reaches it through a barrier, so the subgroup is
// whole, and the steps select instead of branching.

var<workgroup> ssg_v: array<T, ROWS * MAX_SUBGROUPS>;
var<workgroup> ssg_i: array<u32, ROWS * MAX_SUBGROUPS>;
var<workgroup> ssg_c: array<u32, ROWS * MAX_SUBGROUPS>;
var<workgroup> ssg_f: array<u32, ROWS * MAX_SUBGROUPS>;

fn seg_shuffle_up(x: SegEntry, d: u32) -> SegEntry {
    return SegEntry(Acc(subgroupShuffleUp(x.a.v, d), subgroupShuffleUp(x.a.i, d)), subgroupShuffleUp(x.c, d),
                    subgroupShuffleUp(x.f, d));
}

fn seg_pick(no: SegEntry, yes: SegEntry, take: bool) -> SegEntry {
    return SegEntry(Acc(select(no.a.v, yes.a.v, take), select(no.a.i, yes.a.i, take)), select(no.c, yes.c, take),
                    select(no.f, yes.f, take));
}

// Every invocation must call it (a barrier). Replaces each of this invocation's entries
// (row r: word r * WG + lid) by what the words before it hand on, in word order, and
// returns the whole tile's.
fn segmented_scan_tile(ids: Ids, e: ptr<function, array<SegEntry, ROWS>>) -> SegEntry {
    let size = ids.sg_size;
    let lane = ids.sg_lane;
    let sg = ids.lid / size;
    let groups = WG / size;
    var incl: array<SegEntry, ROWS>;
    for (var r = 0u; r < ROWS; r++) {
        var x = (*e)[r];
        for (var d = 1u; d < size; d = d << 1u) {
            x = seg_pick(x, seg_combine(seg_shuffle_up(x, d), x), lane >= d);
        }
        incl[r] = x;
        if (lane == size - 1u) {
            let k = r * groups + sg;
            ssg_v[k] = x.a.v;
            ssg_i[k] = x.a.i;
            ssg_c[k] = x.c;
            ssg_f[k] = x.f;
        }
    }
    workgroupBarrier();
    // The subgroups' totals in word order (row by row); each invocation keeps what comes
    // before its own subgroup in each row.
    var carry = seg_none();
    var mine: array<SegEntry, ROWS>;
    for (var r = 0u; r < ROWS; r++) {
        for (var g = 0u; g < groups; g++) {
            mine[r] = seg_pick(mine[r], carry, g == sg);
            let k = r * groups + g;
            carry = seg_combine(carry, SegEntry(Acc(ssg_v[k], ssg_i[k]), ssg_c[k], ssg_f[k]));
        }
    }
    for (var r = 0u; r < ROWS; r++) {
        let up = seg_shuffle_up(incl[r], 1u);
        (*e)[r] = seg_combine(mine[r], seg_pick(up, seg_none(), lane == 0u));
    }
    return carry;
}
