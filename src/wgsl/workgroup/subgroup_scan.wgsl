// SPDX-License-Identifier: MIT
// subgroup_scan.wgsl: exclusive scan of one value per invocation across the workgroup,
// built on subgroup shuffles (used when the device offers subgroups; shuffle_up_t and
// shuffle_t, the prelude's, move any T: a user's struct as its words). Each subgroup
// scans its lanes in log2(subgroup size) shuffle steps without barriers; invocation 0
// scans the few subgroup totals; two barriers in all, against 2*log2(WG) for Blelloch.
//
// Assumes what every WebGPU implementation we know does: the workgroup is split into
// full subgroups of consecutive local_invocation_index (lane = lid % size). Works for
// any subgroup size from 4 to 128.

// Subgroups of a workgroup, at most (SG_MIN: the device's smallest subgroup size).
const MAX_SUBGROUPS: u32 = (WG + SG_MIN - 1u) / SG_MIN;

var<workgroup> sg_totals: array<T, MAX_SUBGROUPS>;
var<workgroup> wg_total: T;

// log2(size) shuffle steps, for every operator (WGSL's subgroupInclusiveAdd would do
// sums only, and measured no faster on an H200).
fn subgroup_inclusive_scan(lane: u32, size: u32, value: T) -> T {
    var x = value;
    if (SG_FIXED != 0u) { // the same steps, unrolled (the device has one subgroup size)
        for (var d = 1u; d < SG_FIXED; d = d << 1u) {
            let y = shuffle_up_t(x, d);
            if (lane >= d) {
                x = combine(y, x);
            }
        }
        return x;
    }
    for (var d = 1u; d < size; d = d << 1u) {
        let y = shuffle_up_t(x, d);
        if (lane >= d) {
            x = combine(y, x);
        }
    }
    return x;
}

// All lanes' values combined, in lane order, on every lane: the inclusive scan taken at
// the last lane, so that it has the same bits as that scan's last value.
fn subgroup_reduce(lane: u32, size: u32, value: T) -> T {
    return shuffle_t(subgroup_inclusive_scan(lane, size, value), size - 1u);
}

// With sg_totals[s] holding subgroup s's total (written before the call), turns them
// into exclusive prefixes and leaves the workgroup total in wg_total. Every invocation
// calls it (barriers on both sides); invocation 0 does the serial pass.
fn scan_subgroup_totals(ids: Ids, ident: T) {
    workgroupBarrier();
    if (ids.lid == 0u) {
        var acc = ident;
        for (var s = 0u; s < WG / ids.sg_size; s++) {
            let t = sg_totals[s];
            sg_totals[s] = acc;
            acc = combine(acc, t);
        }
        wg_total = acc;
    }
    workgroupBarrier();
}

// Every invocation must call this (it has barriers). Returns the exclusive prefix of
// `value`; the workgroup total is left in wg_total.
fn workgroup_exclusive_scan(ids: Ids, value: T, ident: T) -> T {
    let size = ids.sg_size;
    let lane = ids.sg_lane;
    let sg = ids.lid / size;
    let inclusive = subgroup_inclusive_scan(lane, size, value);
    if (lane == size - 1u) {
        sg_totals[sg] = inclusive;
    }
    scan_subgroup_totals(ids, ident);
    var exclusive = shuffle_up_t(inclusive, 1u);
    if (lane == 0u) {
        exclusive = ident;
    }
    return combine(sg_totals[sg], exclusive);
}
