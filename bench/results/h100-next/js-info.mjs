// SPDX-License-Identifier: MIT
// js-info.mjs: what Dawn for Node reports of the adapter and device the package's bench
// creates (subgroup sizes, limits) and what the package makes of them (wg.info), to
// compare with `wgscan info` of the native library on the same machine (issue 34: the
// package's sort of keys ran 11% behind native). Run from the project root:
//   node bench/results/h100-next/js-info.mjs
import { readFileSync } from 'node:fs';
const { create, globals } = await import(`${process.cwd()}/node_modules/webgpu/index.js`);
Object.assign(globalThis, globals);
const { Wgscan } = await import(`${process.cwd()}/web/package/wgscan.js`);
const gpu = create([]);
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
const l = adapter.limits;
const device = await adapter.requestDevice({
  requiredFeatures: ['subgroups', 'timestamp-query', 'shader-f16'].filter((f) => adapter.features.has(f)),
  requiredLimits: { maxBufferSize: l.maxBufferSize, maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize, maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX, maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage },
});
const ai = adapter.info;
console.log('adapter.info', JSON.stringify({ vendor: ai.vendor, architecture: ai.architecture, device: ai.device,
  description: ai.description, subgroupMinSize: ai.subgroupMinSize, subgroupMaxSize: ai.subgroupMaxSize, isFallbackAdapter: ai.isFallbackAdapter }));
const keys = ['maxComputeWorkgroupStorageSize', 'maxComputeInvocationsPerWorkgroup', 'maxStorageBufferBindingSize',
  'maxComputeWorkgroupsPerDimension', 'minStorageBufferOffsetAlignment', 'minUniformBufferOffsetAlignment'];
console.log('device.limits', JSON.stringify(Object.fromEntries(keys.map((k) => [k, device.limits[k]]))));
const wg = await Wgscan.create(device, { wasm: readFileSync('build/web/wgscan.wasm'), adapterInfo: ai });
console.log('wg.info', JSON.stringify(wg.info));
