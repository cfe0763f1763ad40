// SPDX-License-Identifier: MIT
// js-copy.mjs (issue 34): is Dawn for Node itself at half the native copy's speed, or
// the package? A plain copy of 2^28 u32 (1 GiB in, 1 GiB out) written here, not the
// package's, timed by timestamps (median of 20 after 5), in three buffer usages and two
// element widths; compare with copy_us of `wgscan bench` at 2^28 in the same call.
//   node js-copy.mjs   (needs npm webgpu in node_modules beside the repo root)
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
const root = process.env.WT ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const { create, globals } = await import(`${root}/node_modules/webgpu/index.js`);
Object.assign(globalThis, globals);
const gpu = create(['disable-dawn-features=timestamp_quantization']);
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
const l = adapter.limits;
const device = await adapter.requestDevice({ requiredFeatures: ['timestamp-query'],
  requiredLimits: { maxBufferSize: l.maxBufferSize, maxStorageBufferBindingSize: l.maxStorageBufferBindingSize } });
console.log(`adapter: ${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}`);
const n = Number(process.argv[2] ?? 2 ** 28), U = GPUBufferUsage;
const src = (vec) => `@group(0) @binding(0) var<storage, read> a: array<${vec}>;
@group(0) @binding(1) var<storage, read_write> b: array<${vec}>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) w: vec3<u32>) {
  let stride = w.x * 256u;
  for (var i = g.x; i < arrayLength(&a); i += stride) { b[i] = a[i]; }
}`;
const qs = device.createQuerySet({ type: 'timestamp', count: 2 });
const qb = device.createBuffer({ size: 16, usage: U.QUERY_RESOLVE | U.COPY_SRC });
const rb = device.createBuffer({ size: 16, usage: U.MAP_READ | U.COPY_DST });
for (const [name, usage] of [['storage', U.STORAGE], ['storage|copy', U.STORAGE | U.COPY_SRC | U.COPY_DST]]) {
  const a = device.createBuffer({ size: 4 * n, usage }), b = device.createBuffer({ size: 4 * n, usage });
  for (const [vec, words] of [['vec4<u32>', 4], ['u32', 1]]) {
    const module = device.createShaderModule({ code: src(vec) });
    const p = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const bg = device.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: a } }, { binding: 1, resource: { buffer: b } }] });
    for (const groups of [1024, 4096, Math.min(65535, n / words / 256)]) {
      const t = [];
      for (let r = 0; r < 25; r++) {
        const e = device.createCommandEncoder();
        const pass = e.beginComputePass({ timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } });
        pass.setPipeline(p); pass.setBindGroup(0, bg); pass.dispatchWorkgroups(groups); pass.end();
        e.resolveQuerySet(qs, 0, 2, qb, 0); e.copyBufferToBuffer(qb, 0, rb, 0, 16);
        device.queue.submit([e.finish()]);
        await rb.mapAsync(GPUMapMode.READ);
        const v = new BigUint64Array(rb.getMappedRange().slice(0));
        rb.unmap();
        if (r >= 5) t.push(Number(v[1] - v[0]) / 1000);
      }
      t.sort((x, y) => x - y);
      console.log(`copy ${name} ${vec} groups ${groups}: median ${t[t.length >> 1].toFixed(1)} us, min ${t[0].toFixed(1)} us`);
    }
  }
  a.destroy(); b.destroy();
}
device.destroy();
