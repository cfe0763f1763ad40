// SPDX-License-Identifier: MIT
// js-encode-cost.mjs: the host cost of one plan.encode of the npm package under Node
// (Dawn for Node), plan reused, nothing submitted or read back: wall time (median, p10,
// p90) and the process's CPU time a call over PER x BATCHES calls (the first two batches
// not counted in the CPU figure), and with --count the WebGPU calls one encode makes.
// On a shared machine the wall times move with the load; the call counts do not.
//   VK_ADD_DRIVER_FILES=/usr/lib/chromium/vk_swiftshader_icd.json \
//     node scripts/js-encode-cost.mjs [--count]      (WT=a tree with build/web/wgscan.wasm)
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
const root = process.env.WT ?? resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { create, globals } = await import(`${root}/node_modules/webgpu/index.js`);
Object.assign(globalThis, globals);
const { Wgscan } = await import(`${root}/web/package/wgscan.js`);
const { readFileSync } = await import('node:fs');
// DAWN_FLAGS: Dawn for Node's flags, comma-separated (e.g. enable-dawn-features=skip_validation).
const gpu = create(process.env.DAWN_FLAGS ? process.env.DAWN_FLAGS.split(',') : []);
const adapter = await gpu.requestAdapter();
const device = await adapter.requestDevice({
  requiredFeatures: ['timestamp-query', 'subgroups'].filter((f) => adapter.features.has(f)),
  requiredLimits: { maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize }, // the segmented sort's tile
});
const wg = await Wgscan.create(device, { wasm: readFileSync(`${root}/build/web/wgscan.wasm`), adapterInfo: adapter.info });
const n = 1 << 20, U = GPUBufferUsage;
const b = () => device.createBuffer({ size: 4 * n, usage: U.STORAGE | U.COPY_DST | U.COPY_SRC });
const [input, output, small, values, vo, depths, offsets] = [b(), b(), b(), b(), b(), b(), b()];
const count = device.createBuffer({ size: 4, usage: U.STORAGE | U.COPY_DST });
device.queue.writeBuffer(count, 0, new Uint32Array([n]));
const qs = device.createQuerySet({ type: 'timestamp', count: 2 });
const tw = { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 };
const cases = {
  scan: [wg.createScanPlan({ capacity: n }), { input, output }],
  reduce: [wg.createReducePlan({ capacity: n }), { input, output: small }],
  'sort-keys': [wg.createSortPlan({ capacity: n }), { keysIn: input, keysOut: output }],
  'sort-splat': [wg.createSortPlan({ type: 'f32', order: 'descending', payload: 'buffer', capacity: n }),
    { keysIn: depths, keysOut: output, valuesIn: values, valuesOut: vo, nBuffer: count }],
  // Counts of candidates and segment lists on the GPU: indirect dispatches.
  'topk-1024': [wg.createTopkPlan({ capacity: n, kCapacity: 1024, output: 'input-order' }), { keysIn: input, keysOut: output, n, rows: 1, k: 1024 }],
  'segmented-sort-256': [wg.createSegmentedSortPlan({ capacity: n, segmentCapacity: n / 256 }),
    { keysIn: input, keysOut: output, offsets, nSegments: n / 256 }],
};
const calls = new Map();
if (process.argv.includes('--count')) {
  for (const [o, names] of [[GPUDevice.prototype, ['createBindGroup', 'createBuffer', 'pushErrorScope', 'popErrorScope']], [GPUQueue.prototype, ['writeBuffer']],
    [GPUComputePipeline.prototype, ['getBindGroupLayout']], [GPUCommandEncoder.prototype, ['beginComputePass']],
    [GPUComputePassEncoder.prototype, ['setPipeline', 'setBindGroup', 'dispatchWorkgroups', 'dispatchWorkgroupsIndirect', 'end']]]) {
    for (const m of names) {
      const f = o[m];
      o[m] = function (...a) { calls.set(m, (calls.get(m) ?? 0) + 1); return f.apply(this, a); };
    }
  }
}
const per = Number(process.env.PER ?? 100), batches = Number(process.env.BATCHES ?? 10);
for (const [name, [plan, args]] of Object.entries(cases)) {
  const times = [];
  let cpu = 0;
  for (let k = 0; k < batches; k++) {
    const c0 = process.cpuUsage();
    const enc = device.createCommandEncoder();
    calls.clear();
    for (let i = 0; i < per; i++) {
      const t0 = performance.now();
      plan.encode(enc, { ...args, n, timestampWrites: tw });
      times.push((performance.now() - t0) * 1000);
    }
    const c1 = process.cpuUsage(c0);
    if (k >= 2) cpu += c1.user + c1.system; // (the first two batches: warm-up)
    enc.finish(); // never submitted: host time only
    await wg.errors();
  }
  times.sort((a, b) => a - b);
  const q = (f) => times[Math.floor(f * (times.length - 1))].toFixed(1);
  const c = [...calls].map(([m, v]) => `${m} ${v / per}`).join(', ');
  console.log(`${name.padEnd(10)} encode median ${q(0.5)} us (p10 ${q(0.1)}, p90 ${q(0.9)}) over ${times.length}, CPU ${(cpu / ((batches - 2) * per)).toFixed(1)} us a call${c ? `; per encode: ${c}` : ''}`);
}
device.destroy();
process.exit(0);
