// SPDX-License-Identifier: MIT
// device.js: the pages' GPUDevice: the adapter's subgroups, timestamp-query and
// shader-f16 when offered, and its largest buffer, binding and workgroup limits (what
// the native library asks for too). Returns { device, adapterInfo }: the adapter's
// info, for browsers whose GPUDevice has no adapterInfo.
export async function openDevice() {
  if (!navigator.gpu) throw new Error('this browser has no WebGPU (Chromium: --enable-unsafe-webgpu; Firefox: dom.webgpu.enabled)');
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('no WebGPU adapter');
  const requiredFeatures = ['subgroups', 'timestamp-query', 'shader-f16'].filter((f) => adapter.features.has(f));
  const l = adapter.limits;
  const requiredLimits = {};
  for (const k of ['maxBufferSize', 'maxStorageBufferBindingSize', 'maxComputeWorkgroupStorageSize',
    'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX', 'maxStorageBuffersPerShaderStage']) {
    requiredLimits[k] = l[k];
  }
  const device = await adapter.requestDevice({ requiredFeatures, requiredLimits });
  return { device, adapterInfo: adapter.info };
}
