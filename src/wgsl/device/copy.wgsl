// copy.wgsl: a plain copy at memory speed, 16 bytes per invocation per step over a
// grid-stride loop. It is the ceiling benchmarks measure the primitives against: a
// primitive that reads and writes n bytes cannot beat a copy of n bytes.
//
// Bindings: 0 source, 1 destination (as vec4<u32>), 2 Params (n = vec4 count).

@group(0) @binding(0) var<storage, read> copy_src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> copy_dst: array<vec4<u32>>;

@compute @workgroup_size(WG)
fn copy(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = params.n;
    let stride = nwg.x * nwg.y * WG;
    for (var i = tile_index(wid, nwg) * WG + ids.lid; i < n; i += stride) {
        copy_dst[i] = copy_src[i];
    }
}
