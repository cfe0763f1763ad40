// SPDX-License-Identifier: MIT
// js-probe2.mjs (issues 34, 37): under Dawn for Node a copy of 2^28 u32 took 724 us
// until the process had allocated 1 GiB beside the copy's 2 GiB, then 1278-1283 for the
// rest of the process, the extra freed or not (js-probe.mjs, run24). One process a
// mode, as the state sticks:
//   alloc-free  1 GiB allocated and freed unwritten, before any copy
//   first       1 GiB allocated and written before the copy's buffers
//   pieces      1 GiB as 16 buffers of 64 MiB, written, beside the copy's
//   sizes       the copy over 2^24, 2^26 and 2^28 words, before and after 1 GiB more
//   first3      3 GiB allocated and written before the copy's buffers
//   first3-free the same, freed before the copy's buffers are made
//   after6      6 GiB allocated and written after the copy's buffers
//   unwritten3  3 GiB allocated first and never written (5 GiB allocated, 1 written)
//   rewrite3    the copy's source written three times over (2 GiB allocated, 3 written)
// (run25: alloc-free, first, pieces, sizes all 716 us; run26: first3 1265, first3-free
// 1375, after6 1267.)
//   node js-probe2.mjs MODE
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const { create, globals } = await import(`${root}/node_modules/webgpu/index.js`);
Object.assign(globalThis, globals);
const gpu = create(['disable-dawn-features=timestamp_quantization']);
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
const l = adapter.limits, U = GPUBufferUsage, N = 2 ** 28, runs = 15, mode = process.argv[2];
const device = await adapter.requestDevice({ requiredFeatures: ['timestamp-query'],
  requiredLimits: { maxBufferSize: l.maxBufferSize, maxStorageBufferBindingSize: l.maxStorageBufferBindingSize } });
const usage = U.STORAGE | U.COPY_SRC | U.COPY_DST;
const words = new Uint32Array(1 << 20).map((_, i) => (i * 2654435761) >>> 0);
const make = (bytes, write) => {
  const b = device.createBuffer({ size: bytes, usage });
  for (let at = 0; write && at < bytes / 4; at += words.length) device.queue.writeBuffer(b, 4 * at, words);
  return b;
};
const code = `@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> b: array<vec4<u32>>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) w: vec3<u32>) {
  let stride = w.x * 256u;
  for (var i = g.x; i < arrayLength(&a); i += stride) { b[i] = a[i]; }
}`;
const pipe = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } });
const qs = device.createQuerySet({ type: 'timestamp', count: 2 * runs });
const qb = device.createBuffer({ size: 16 * runs, usage: U.QUERY_RESOLVE | U.COPY_SRC });
const rb = device.createBuffer({ size: 16 * runs, usage: U.MAP_READ | U.COPY_DST });
async function copy(a, b, n, label) {
  const bg = device.createBindGroup({ layout: pipe.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: a, size: 4 * n } }, { binding: 1, resource: { buffer: b, size: 4 * n } }] });
  const e = device.createCommandEncoder();
  for (let i = 0; i < runs; i++) {
    const c = e.beginComputePass({ timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 } });
    c.setPipeline(pipe); c.setBindGroup(0, bg); c.dispatchWorkgroups(Math.min(65535, Math.ceil(n / 1024))); c.end();
  }
  e.resolveQuerySet(qs, 0, 2 * runs, qb, 0); e.copyBufferToBuffer(qb, 0, rb, 0, 16 * runs);
  device.queue.submit([e.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const v = new BigUint64Array(rb.getMappedRange().slice(0));
  rb.unmap();
  const t = [];
  for (let i = 3; i < runs; i++) t.push(Number(v[2 * i + 1] - v[2 * i]) / 1000);
  t.sort((x, y) => x - y);
  const med = t[t.length >> 1];
  console.log(`${mode}: ${label}, 2^${Math.log2(n)} words: median ${med.toFixed(1)} us (${((8 * n) / med / 1e3).toFixed(0)} GB/s)`);
}
if (mode === 'alloc-free') make(2 ** 30, false).destroy();
const early = mode === 'first' ? [make(2 ** 30, true)] : mode === 'unwritten3' ? [0, 1, 2].map(() => make(2 ** 30, false)) : mode.startsWith('first3') ? [0, 1, 2].map(() => make(2 ** 30, true)) : null;
if (mode === 'first3-free') {
  await device.queue.onSubmittedWorkDone();
  for (const x of early) x.destroy();
}
const a = make(4 * N, true), b = make(4 * N, false);
if (mode === 'rewrite3') {
  for (let k = 0; k < 2; k++) for (let at = 0; at < N; at += words.length) device.queue.writeBuffer(a, 4 * at, words);
}
if (mode === 'sizes') for (const n of [2 ** 24, 2 ** 26, 2 ** 28]) await copy(a, b, n, 'alone');
const more = mode === 'pieces' ? Array.from({ length: 16 }, () => make(2 ** 26, true))
  : mode === 'sizes' ? [make(2 ** 30, true)] : mode === 'after6' ? Array.from({ length: 6 }, () => make(2 ** 30, true)) : [];
for (const n of mode === 'sizes' ? [2 ** 24, 2 ** 26, 2 ** 28] : [N]) await copy(a, b, n, `${early || more.length ? 'with' : 'without'} the extra`);
device.destroy();
