// SPDX-License-Identifier: MIT
// js-probe.mjs (issue 34): the package's bench (web/package/bench.mjs) timed its copy of
// 2^28 u32 at 1285 us under Dawn for Node where js-copy.mjs's same kernel and grid took
// 724 (run22). What differs, one thing at a time: the device's features and limits
// (bench.mjs asks for subgroups, shader-f16 and the adapter's limits), all runs in one
// encoder (a pass each) against a submit each, and more memory allocated beside the
// copy's 2 GiB (written or not; then freed again).
//   node js-probe.mjs   (npm webgpu in node_modules beside the repo root)
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const { create, globals } = await import(`${root}/node_modules/webgpu/index.js`);
Object.assign(globalThis, globals);
const gpu = create(['disable-dawn-features=timestamp_quantization']);
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
const l = adapter.limits, U = GPUBufferUsage;
const n = Number(process.argv[2] ?? 2 ** 28), runs = 20;
const code = `@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> b: array<vec4<u32>>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) w: vec3<u32>) {
  let stride = w.x * 256u;
  for (var i = g.x; i < arrayLength(&a); i += stride) { b[i] = a[i]; }
}`;
const med = (t) => { t.sort((x, y) => x - y); return `median ${t[t.length >> 1].toFixed(1)} us, min ${t[0].toFixed(1)}`; };
async function probe(label, device, extraGiB, write = true) {
  const qs = device.createQuerySet({ type: 'timestamp', count: 2 * (runs + 3) });
  const qb = device.createBuffer({ size: 16 * (runs + 3), usage: U.QUERY_RESOLVE | U.COPY_SRC });
  const rb = device.createBuffer({ size: 16 * (runs + 3), usage: U.MAP_READ | U.COPY_DST });
  const usage = U.STORAGE | U.COPY_SRC | U.COPY_DST;
  const a = device.createBuffer({ size: 4 * n, usage }), b = device.createBuffer({ size: 4 * n, usage });
  const words = new Uint32Array(1 << 20).map((_, i) => (i * 2654435761) >>> 0);
  for (let at = 0; at < n; at += words.length) device.queue.writeBuffer(a, 4 * at, words);
  const extra = [];
  for (let i = 0; i < extraGiB; i++) {
    const e = device.createBuffer({ size: 2 ** 30, usage });
    for (let at = 0; write && at < 2 ** 28; at += words.length) device.queue.writeBuffer(e, 4 * at, words);
    extra.push(e);
  }
  const p = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } });
  const bg = device.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: a, size: 4 * n } }, { binding: 1, resource: { buffer: b, size: 4 * n } }] });
  const groups = Math.min(65535, Math.ceil(n / 1024));
  const read = async (count) => {
    await rb.mapAsync(GPUMapMode.READ);
    const v = new BigUint64Array(rb.getMappedRange().slice(0));
    rb.unmap();
    const t = [];
    for (let i = 0; i < count; i++) t.push(Number(v[2 * i + 1] - v[2 * i]) / 1000);
    return t;
  };
  const pass = (e, i) => {
    const c = e.beginComputePass({ timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 } });
    c.setPipeline(p); c.setBindGroup(0, bg); c.dispatchWorkgroups(groups); c.end();
  };
  const each = [];
  for (let r = 0; r < runs + 3; r++) {
    const e = device.createCommandEncoder();
    pass(e, 0);
    e.resolveQuerySet(qs, 0, 2, qb, 0); e.copyBufferToBuffer(qb, 0, rb, 0, 16);
    device.queue.submit([e.finish()]);
    const [t] = await read(1);
    if (r >= 3) each.push(t);
  }
  const e = device.createCommandEncoder();
  for (let i = 0; i < runs + 3; i++) pass(e, i);
  e.resolveQuerySet(qs, 0, 2 * (runs + 3), qb, 0); e.copyBufferToBuffer(qb, 0, rb, 0, 16 * (runs + 3));
  device.queue.submit([e.finish()]);
  const one = (await read(runs + 3)).slice(3);
  console.log(`${label}, ${extraGiB} GiB more${write ? '' : ' (not written)'}: a submit each ${med(each)}; one encoder ${med(one)}`);
  for (const x of [a, b, ...extra]) x.destroy();
}
const device = await adapter.requestDevice({
  requiredFeatures: ['subgroups', 'timestamp-query', 'shader-f16'].filter((f) => adapter.features.has(f)),
  requiredLimits: { maxBufferSize: l.maxBufferSize, maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize, maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX, maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage },
});
for (const g of (process.argv[3] ?? '0,1,2,4,6').split(',').map(Number)) await probe('bench.mjs features', device, g);
await probe('bench.mjs features', device, 6, false);
await probe('bench.mjs features, after the rest freed', device, 0);
device.destroy();
