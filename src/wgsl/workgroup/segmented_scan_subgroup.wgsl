// SPDX-License-Identifier: MIT
// segmented_scan_subgroup.wgsl: the inclusive segmented scan of
// segmented_scan_workgroup.wgsl on subgroup shuffles: each subgroup scans its lanes in
// log2(size) steps, one barrier publishes the subgroup totals, and each invocation
// combines the totals of the subgroups before its own (at most WG / 4 of them).
// Assumes, as subgroup_scan.wgsl does, full subgroups of consecutive
// local_invocation_index. The caller reaches it through a barrier, so the subgroup is
// whole, and the steps select instead of branching.

var<workgroup> ssg_v: array<T, MAX_SUBGROUPS>;
var<workgroup> ssg_i: array<u32, MAX_SUBGROUPS>;
var<workgroup> ssg_c: array<u32, MAX_SUBGROUPS>;
var<workgroup> ssg_f: array<u32, MAX_SUBGROUPS>;

fn seg_shuffle_up(x: SegEntry, d: u32) -> SegEntry {
    return SegEntry(Acc(subgroupShuffleUp(x.a.v, d), subgroupShuffleUp(x.a.i, d)), subgroupShuffleUp(x.c, d),
                    subgroupShuffleUp(x.f, d));
}

fn seg_pick(no: SegEntry, yes: SegEntry, take: bool) -> SegEntry {
    return SegEntry(Acc(select(no.a.v, yes.a.v, take), select(no.a.i, yes.a.i, take)), select(no.c, yes.c, take),
                    select(no.f, yes.f, take));
}

// Every invocation must call it (a barrier).
fn segmented_scan(ids: Ids, e: SegEntry) -> SegScan {
    let size = ids.sg_size;
    let lane = ids.sg_lane;
    let sg = ids.lid / size;
    var x = e;
    for (var d = 1u; d < size; d = d << 1u) {
        x = seg_pick(x, seg_combine(seg_shuffle_up(x, d), x), lane >= d);
    }
    if (lane == size - 1u) {
        ssg_v[sg] = x.a.v;
        ssg_i[sg] = x.a.i;
        ssg_c[sg] = x.c;
        ssg_f[sg] = x.f;
    }
    workgroupBarrier();
    // What the subgroups before this one hand on, in their order.
    var carry = seg_none();
    for (var s = 0u; s < sg; s++) {
        carry = seg_combine(carry, SegEntry(Acc(ssg_v[s], ssg_i[s]), ssg_c[s], ssg_f[s]));
    }
    let incl = seg_combine(carry, x);
    let up = seg_shuffle_up(incl, 1u);
    return SegScan(incl, seg_pick(up, carry, lane == 0u));
}
