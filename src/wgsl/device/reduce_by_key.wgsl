// SPDX-License-Identifier: MIT
// reduce_by_key.wgsl: the last pass of the reduce by key (src/reduce_by_key.c). Run r's
// reduction is the inclusive scan by key at the run's last element, the element before
// the next run's first (select's UNIQUE indices), or n - 1 for the last run.
//
// Bindings: 0 scanned (the inclusive scan by key), 4 starts (each run's first index), 5
// runs (their count, one u32), 1 aggregates, 2 Params (n).

@group(0) @binding(0) var<storage, read> scanned: array<V>;
@group(0) @binding(4) var<storage, read> starts: array<u32>;
@group(0) @binding(5) var<storage, read> runs: array<u32>;
@group(0) @binding(1) var<storage, read_write> aggregates: array<V>;

@compute @workgroup_size(WG)
fn gather_ends(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let r = tile_index(wid, nwg) * WG + ids.lid;
    let count = runs[0];
    if (r >= count) {
        return;
    }
    var end = params.n;
    if (r + 1u < count) {
        end = starts[r + 1u];
    }
    aggregates[r] = scanned[end - 1u];
}
