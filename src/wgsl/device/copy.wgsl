// SPDX-License-Identifier: MIT
// copy.wgsl: a plain copy at memory speed: each invocation moves ITEMS 16-byte words,
// the workgroup a contiguous block, so every load is independent and in flight at once.
// It is the ceiling benchmarks measure the primitives against: a primitive that reads
// and writes n bytes cannot beat a copy of n bytes.
//
// Bindings: 0 source, 1 destination (as vec4<u32>), 2 Params (n = vec4 count).

@group(0) @binding(0) var<storage, read> copy_src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> copy_dst: array<vec4<u32>>;

@compute @workgroup_size(WG)
fn copy(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = params.n;
    let base = tile_index(wid, nwg) * TILE + ids.lid;
    var v: array<vec4<u32>, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        let i = base + k * WG;
        if (i < n) {
            v[k] = copy_src[i];
        }
    }
    for (var k = 0u; k < ITEMS; k++) {
        let i = base + k * WG;
        if (i < n) {
            copy_dst[i] = v[k];
        }
    }
}

// The same copy with one 4-byte word per load, for experiments: the difference to
// copy() is what wide loads buy.
@group(0) @binding(0) var<storage, read> copy_src1: array<u32>;
@group(0) @binding(1) var<storage, read_write> copy_dst1: array<u32>;

@compute @workgroup_size(WG)
fn copy_scalar(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = params.n * 4u;
    let base = tile_index(wid, nwg) * TILE * 4u + ids.lid;
    var v: array<u32, ITEMS * 4u>;
    for (var k = 0u; k < ITEMS * 4u; k++) {
        let i = base + k * WG;
        if (i < n) {
            v[k] = copy_src1[i];
        }
    }
    for (var k = 0u; k < ITEMS * 4u; k++) {
        let i = base + k * WG;
        if (i < n) {
            copy_dst1[i] = v[k];
        }
    }
}
