// SPDX-License-Identifier: MIT
// segmented_scan_workgroup.wgsl: an inclusive segmented scan of one SegEntry per
// invocation across the workgroup, in workgroup memory (Hillis and Steele: log2(WG)
// steps, two barriers each; nothing beyond WebGPU's core). The portable twin of
// segmented_scan_subgroup.wgsl; both follow element/segment_entry.wgsl.

var<workgroup> ss_v: array<T, WG>;
var<workgroup> ss_i: array<u32, WG>;
var<workgroup> ss_c: array<u32, WG>;
var<workgroup> ss_f: array<u32, WG>;

fn ss_store(k: u32, x: SegEntry) {
    ss_v[k] = x.a.v;
    ss_i[k] = x.a.i;
    ss_c[k] = x.c;
    ss_f[k] = x.f;
}

fn ss_load(k: u32) -> SegEntry {
    return SegEntry(Acc(ss_v[k], ss_i[k]), ss_c[k], ss_f[k]);
}

// Every invocation must call it (barriers). The entries of invocations lid and lid - 1
// after the scan (for lid 0 the latter is seg_none()).
fn segmented_scan(ids: Ids, e: SegEntry) -> SegScan {
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
    return SegScan(ss_load(lid), before);
}
