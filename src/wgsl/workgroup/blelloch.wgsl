// SPDX-License-Identifier: MIT
// blelloch.wgsl: work-efficient exclusive scan of WG values held in workgroup memory
// (Blelloch 1990): an up-sweep builds a reduction tree in place, the root is replaced by
// the identity, and a down-sweep pushes prefixes back down. 2*(WG-1) combines, log2(WG)
// barriers each way. WG must be a power of two.

var<workgroup> wg_values: array<T, WG + (WG >> 5u)>;
var<workgroup> wg_total: T;

// The tree's levels, log2(WG). The sweeps count levels rather than halve or double a
// distance, so that Tint sees their end (Dawn's robustness gives any other loop a 64-bit
// iteration counter: docs/design.md, 3).
const WG_LEVELS: u32 = countTrailingZeros(WG);

// Every invocation of the workgroup must call this (it has barriers). Returns the
// exclusive prefix of `value` over the workgroup; the total is left in wg_total.
fn workgroup_exclusive_scan(ids: Ids, value: T, ident: T) -> T {
    let lid = ids.lid;
    wg_values[pad(lid)] = value;
    var offset = 1u;
    for (var k = 0u; k < WG_LEVELS; k++) {
        let d = WG >> (k + 1u); // WG / 2, ..., 1
        workgroupBarrier();
        if (lid < d) {
            let ai = offset * (2u * lid + 1u) - 1u;
            let bi = offset * (2u * lid + 2u) - 1u;
            wg_values[pad(bi)] = combine(wg_values[pad(ai)], wg_values[pad(bi)]);
        }
        offset = offset << 1u;
    }
    workgroupBarrier();
    if (lid == 0u) {
        wg_total = wg_values[pad(WG - 1u)];
        wg_values[pad(WG - 1u)] = ident;
    }
    for (var k = 0u; k < WG_LEVELS; k++) {
        let d = 1u << k; // 1, ..., WG / 2
        offset = offset >> 1u;
        workgroupBarrier();
        if (lid < d) {
            let ai = offset * (2u * lid + 1u) - 1u;
            let bi = offset * (2u * lid + 2u) - 1u;
            let left = wg_values[pad(ai)];
            wg_values[pad(ai)] = wg_values[pad(bi)];
            wg_values[pad(bi)] = combine(wg_values[pad(bi)], left);
        }
    }
    workgroupBarrier();
    return wg_values[pad(lid)];
}
