// SPDX-License-Identifier: MIT
// reduce_tree.wgsl: one Acc (element/acc.wgsl) per invocation reduced in a fixed tree
// in workgroup memory, so a float sum has the same bits on every run.

var<workgroup> red_v: array<T, WG>;
var<workgroup> red_i: array<u32, WG>;

// Every invocation must call it (barriers). A commutative operator folds the upper half
// onto the lower; any other combines neighbours (lid, a multiple of 2s, with lid + s), so
// each partial holds consecutive invocations' values in their order.
fn workgroup_reduce(lid: u32, x: Acc) -> Acc {
    red_v[lid] = x.v;
    red_i[lid] = x.i;
    if (COMMUTATIVE) {
        for (var s = WG >> 1u; s > 0u; s = s >> 1u) {
            workgroupBarrier();
            if (lid < s) {
                let r = acc_combine(Acc(red_v[lid], red_i[lid]), Acc(red_v[lid + s], red_i[lid + s]));
                red_v[lid] = r.v;
                red_i[lid] = r.i;
            }
        }
    } else {
        for (var s = 1u; s < WG; s = s << 1u) {
            workgroupBarrier();
            if ((lid & (2u * s - 1u)) == 0u) {
                let r = acc_combine(Acc(red_v[lid], red_i[lid]), Acc(red_v[lid + s], red_i[lid + s]));
                red_v[lid] = r.v;
                red_i[lid] = r.i;
            }
        }
    }
    workgroupBarrier();
    return Acc(red_v[0], red_i[0]);
}
