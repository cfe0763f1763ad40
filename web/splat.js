// SPDX-License-Identifier: MIT
// splat.js: what a Gaussian-splat viewer does every frame, with wgscan's sort. N points
// in a cloud, a camera circling through it. Each frame, on the GPU only:
//   1. a compute pass writes, for each point in front of the camera, its view depth (the
//      key) and its index (the value), counting them with an atomic;
//   2. wgscan sorts those (depth, index) pairs far to near, reading the count from the
//      GPU (nBuffer): nothing comes back to the page;
//   3. the count becomes the instance count of an indirect draw, and the points are drawn
//      back to front as soft discs with blending.
// The overlay shows the sort's GPU time (timestamp queries) and the frame rate.
// splat.html?n=4000000 sets the number of points. splat.html?test=1 draws a few frames,
// then checks one frame's sort against a stable CPU sort of the same keys and the depths
// against the CPU's; the outcome is left in window.__wgscanTest for the test driver.
import { Wgscan } from './package/wgscan.js';
import { openDevice } from './device.js';

const params = new URLSearchParams(location.search);
const testing = params.get('test') === '1';
const N = Math.max(1, Math.min(1 << 24, Number(params.get('n') ?? (testing ? 65536 : 1 << 20)) | 0));
const NEAR = 0.05;
const overlay = document.getElementById('overlay');
const canvas = document.getElementById('view');

const DEPTH_WGSL = /* wgsl */ `
struct Camera { view: mat4x4<f32>, proj: mat4x4<f32>, n: u32, near: f32, size: f32, pad: f32 }
@group(0) @binding(0) var<uniform> cam: Camera;
@group(0) @binding(1) var<storage, read> points: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> keys: array<f32>;
@group(0) @binding(3) var<storage, read_write> ids: array<u32>;
@group(0) @binding(4) var<storage, read_write> count: atomic<u32>;

@compute @workgroup_size(256)
fn depth(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) w: vec3<u32>) {
  let i = g.x + g.y * w.x * 256u;
  if (i >= cam.n) { return; }
  let d = -(cam.view * vec4<f32>(points[i].xyz, 1.0)).z;
  if (d <= cam.near) { return; }
  let slot = atomicAdd(&count, 1u);
  keys[slot] = d;
  ids[slot] = i;
}`;

const DRAW_WGSL = /* wgsl */ `
struct Camera { view: mat4x4<f32>, proj: mat4x4<f32>, n: u32, near: f32, size: f32, pad: f32 }
@group(0) @binding(0) var<uniform> cam: Camera;
@group(0) @binding(1) var<storage, read> points: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> order: array<u32>;

struct Out { @builtin(position) pos: vec4<f32>, @location(0) uv: vec2<f32>, @location(1) color: vec4<f32> }

@vertex
fn vs(@builtin(vertex_index) v: u32, @builtin(instance_index) k: u32) -> Out {
  let p = points[order[k]];
  let corner = vec2<f32>(f32(v & 1u), f32(v >> 1u)) * 2.0 - 1.0;
  let eye = cam.view * vec4<f32>(p.xyz, 1.0) + vec4<f32>(corner * cam.size, 0.0, 0.0);
  var o: Out;
  o.pos = cam.proj * eye;
  o.uv = corner;
  o.color = unpack4x8unorm(bitcast<u32>(p.w));
  return o;
}

@fragment
fn fs(i: Out) -> @location(0) vec4<f32> {
  let r2 = dot(i.uv, i.uv);
  if (r2 > 1.0) { discard; }
  let a = i.color.a * exp(-4.0 * r2);
  return vec4<f32>(i.color.rgb * a, a);
}`;

// Column-major 4x4 matrices, as WGSL reads them.
function lookAt(eye, at, up) {
  const sub = (a, b) => a.map((v, i) => v - b[i]);
  const norm = (a) => { const l = Math.hypot(...a); return a.map((v) => v / l); };
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const z = norm(sub(eye, at)), x = norm(cross(up, z)), y = cross(z, x);
  return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
}
function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2);
  return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, far / (near - far), -1, 0, 0, (near * far) / (near - far), 0];
}

// A cloud: a few Gaussian blobs of colour inside the unit ball; xyz and a packed RGBA.
function makePoints(n) {
  let s = 12345;
  const rnd = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const blobs = Array.from({ length: 12 }, () => ({
    c: [rnd() * 1.4 - 0.7, rnd() * 1.4 - 0.7, rnd() * 1.4 - 0.7], r: 0.08 + rnd() * 0.25,
    rgb: [rnd(), rnd(), rnd()].map((v) => Math.round(80 + 175 * v)),
  }));
  const data = new Float32Array(4 * n);
  const bits = new Uint32Array(data.buffer);
  for (let i = 0; i < n; i++) {
    const b = blobs[i % blobs.length];
    for (let k = 0; k < 3; k++) data[4 * i + k] = b.c[k] + b.r * gauss();
    bits[4 * i + 3] = (b.rgb[0] | (b.rgb[1] << 8) | (b.rgb[2] << 16) | (60 << 24)) >>> 0;
  }
  return data;
}

const result = { done: false, passed: 0, failed: 0, skipped: 0, failures: [], info: null, groups: ['splat'], ms: {} };
if (testing) window.__wgscanTest = result;
const record = (name, ok, detail = '') => {
  if (ok) result.passed++;
  else { result.failed++; result.failures.push(`${name}: ${detail}`); }
  overlay.textContent += `\n${ok ? 'ok  ' : 'FAIL'} ${name} ${ok ? '' : detail}`;
};

let step = 'start', lostWhy = '';
async function main() {
  const { device, adapterInfo } = await openDevice();
  device.lost.then((l) => { lostWhy = `${l.reason}: ${l.message}`; });
  const wg = await Wgscan.create(device, { adapterInfo });
  result.info = wg.info;
  const U = GPUBufferUsage;
  const format = navigator.gpu.getPreferredCanvasFormat();
  const offscreen = params.get('offscreen') === '1';
  const context = offscreen ? null : canvas.getContext('webgpu');
  context?.configure({ device, format, alphaMode: 'opaque' });
  const target = offscreen ? device.createTexture({ size: [canvas.width, canvas.height], format, usage: GPUTextureUsage.RENDER_ATTACHMENT }) : null;

  overlay.textContent = `${N.toLocaleString()} points: compiling the pipelines...`;
  const sortOptions = { type: 'f32', order: 'descending', payload: 'buffer', capacity: N };
  await wg.prepare([{ primitive: 'sort', ...sortOptions }]);
  const sort = wg.createSortPlan(sortOptions);

  const points = makePoints(N);
  const buf = (size, usage) => device.createBuffer({ size: Math.max(16, size), usage });
  const pointBuf = buf(points.byteLength, U.STORAGE | U.COPY_DST);
  device.queue.writeBuffer(pointBuf, 0, points);
  const camBuf = buf(144, U.UNIFORM | U.COPY_DST);
  const keys = buf(4 * N, U.STORAGE | U.COPY_SRC), ids = buf(4 * N, U.STORAGE | U.COPY_SRC);
  const sortedKeys = buf(4 * N, U.STORAGE | U.COPY_SRC), order = buf(4 * N, U.STORAGE | U.COPY_SRC);
  const count = buf(4, U.STORAGE | U.COPY_SRC | U.COPY_DST);
  const drawArgs = buf(16, U.INDIRECT | U.COPY_DST);
  device.queue.writeBuffer(drawArgs, 0, new Uint32Array([4, 0, 0, 0]));

  const depthPipe = device.createComputePipeline({
    layout: 'auto', compute: { module: device.createShaderModule({ code: DEPTH_WGSL }), entryPoint: 'depth' },
  });
  const depthGroup = device.createBindGroup({
    layout: depthPipe.getBindGroupLayout(0),
    entries: [camBuf, pointBuf, keys, ids, count].map((b, i) => ({ binding: i, resource: { buffer: b } })),
  });
  const drawModule = device.createShaderModule({ code: DRAW_WGSL });
  const drawPipe = device.createRenderPipeline({
    layout: 'auto',
    vertex: { module: drawModule, entryPoint: 'vs' },
    fragment: {
      module: drawModule, entryPoint: 'fs',
      targets: [{ format, blend: { color: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' }, alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' } } }],
    },
    primitive: { topology: 'triangle-strip' },
  });
  const drawGroup = device.createBindGroup({
    layout: drawPipe.getBindGroupLayout(0),
    entries: [camBuf, pointBuf, order].map((b, i) => ({ binding: i, resource: { buffer: b } })),
  });

  // The sort's GPU time: two timestamps a frame, read back when no read is pending.
  const timed = wg.info.timestampQuery;
  const queries = timed ? device.createQuerySet({ type: 'timestamp', count: 2 }) : null;
  const resolved = timed ? buf(16, U.QUERY_RESOLVE | U.COPY_SRC) : null;
  const times = timed ? buf(16, U.COPY_DST | U.MAP_READ) : null;
  let timesBusy = false, sortMs = NaN, frames = 0, t0 = performance.now(), fps = 0;

  const camera = (frame) => {
    const angle = 0.6 + frame * 0.01;
    const eye = [0.8 * Math.cos(angle), 0.25, 0.8 * Math.sin(angle)];
    const view = lookAt(eye, [0, 0, 0], [0, 1, 0]);
    const proj = perspective(1.1, canvas.width / canvas.height, NEAR, 10);
    const data = new ArrayBuffer(144);
    new Float32Array(data, 0, 32).set([...view, ...proj]);
    new Uint32Array(data, 128, 1)[0] = N;
    new Float32Array(data, 132, 3).set([NEAR, 0.006, 0]);
    device.queue.writeBuffer(camBuf, 0, data);
    return view;
  };

  // One frame; `extra(encoder)` records more after the sort (the test's copies).
  const frame = (n, extra) => {
    const view = camera(n);
    const enc = device.createCommandEncoder();
    enc.clearBuffer(count);
    const pass = enc.beginComputePass();
    pass.setPipeline(depthPipe);
    pass.setBindGroup(0, depthGroup);
    const groups = Math.ceil(N / 256);
    pass.dispatchWorkgroups(Math.min(groups, 65535), Math.ceil(groups / 65535));
    pass.end();
    sort.encode(enc, {
      keysIn: keys, keysOut: sortedKeys, valuesIn: ids, valuesOut: order, n: N, nBuffer: count,
      ...(timed ? { timestampWrites: { querySet: queries, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {}),
    });
    enc.copyBufferToBuffer(count, 0, drawArgs, 4, 4);
    const rp = enc.beginRenderPass({
      colorAttachments: [{ view: (target ?? context.getCurrentTexture()).createView(), loadOp: 'clear', storeOp: 'store', clearValue: { r: 0.04, g: 0.04, b: 0.06, a: 1 } }],
    });
    rp.setPipeline(drawPipe);
    rp.setBindGroup(0, drawGroup);
    rp.drawIndirect(drawArgs, 0);
    rp.end();
    const readTimes = timed && !timesBusy;
    if (readTimes) {
      enc.resolveQuerySet(queries, 0, 2, resolved, 0);
      enc.copyBufferToBuffer(resolved, 0, times, 0, 16);
    }
    if (extra) extra(enc);
    device.queue.submit([enc.finish()]);
    if (readTimes) {
      timesBusy = true;
      times.mapAsync(GPUMapMode.READ).then(() => {
        const t = new BigUint64Array(times.getMappedRange());
        sortMs = Number(t[1] - t[0]) / 1e6;
        times.unmap();
        timesBusy = false;
      }, () => { timesBusy = false; });
    }
    frames++;
    const now = performance.now();
    if (now - t0 > 500) { fps = (1000 * frames) / (now - t0); frames = 0; t0 = now; }
    if (!testing) {
      overlay.textContent = `${N.toLocaleString()} points, sorted far to near every frame by wgscan\n` +
        `sort: ${Number.isFinite(sortMs) ? `${sortMs.toFixed(3)} ms GPU` : timed ? '...' : 'no timestamp-query'}   ` +
        `${fps.toFixed(0)} frames/s\n${wg.info.name}`;
    }
    return view;
  };

  if (!testing) {
    let n = 0;
    const loop = () => { frame(n++); requestAnimationFrame(loop); };
    requestAnimationFrame(loop);
    return;
  }

  // The test: frames 0 and 1 drawn, frame 2's buffers copied out and checked.
  overlay.textContent = `${N} points: test`;
  for (let n = 0; n < 2; n++) {
    step = `frame ${n}`;
    frame(n);
    step = `frame ${n} done`;
    await device.queue.onSubmittedWorkDone();
  }
  step = 'frame 2';
  const stage = (src, bytes) => {
    const s = buf(bytes, U.COPY_DST | U.MAP_READ);
    return { s, copy: (enc) => enc.copyBufferToBuffer(src, 0, s, 0, bytes) };
  };
  const st = [stage(count, 4), stage(keys, 4 * N), stage(ids, 4 * N), stage(sortedKeys, 4 * N), stage(order, 4 * N)];
  device.pushErrorScope('validation');
  const view = frame(2, (enc) => st.forEach((x) => x.copy(enc)));
  const gpuError = await device.popErrorScope();
  record('a frame records and draws without a validation error', !gpuError, gpuError?.message ?? '');
  step = 'map';
  await Promise.all(st.map((x) => x.s.mapAsync(GPUMapMode.READ)));
  step = 'check';
  const [c] = new Uint32Array(st[0].s.getMappedRange().slice(0));
  const [k, id, sk, so] = st.slice(1).map((x) => new Uint32Array(x.s.getMappedRange().slice(0)));
  const f32 = (u) => new Float32Array(u.buffer);

  // The CPU's depths, in doubles: the count may differ only by points at the near plane.
  let cpuCount = 0, borderline = 0;
  const depthOf = (i) => -(view[2] * points[4 * i] + view[6] * points[4 * i + 1] + view[10] * points[4 * i + 2] + view[14]);
  for (let i = 0; i < N; i++) {
    const d = depthOf(i);
    if (d > NEAR) cpuCount++;
    if (Math.abs(d - NEAR) < 1e-5) borderline++;
  }
  record('the visible count is the CPU\'s', c > 0 && c < N && Math.abs(c - cpuCount) <= borderline, `GPU ${c}, CPU ${cpuCount} (${borderline} at the near plane)`);
  let worst = 0;
  const kf = f32(k);
  for (let j = 0; j < c; j++) worst = Math.max(worst, Math.abs(kf[j] - depthOf(id[j])) / Math.max(1, Math.abs(kf[j])));
  record('each key is its point\'s view depth', worst < 1e-5, `largest relative difference ${worst}`);
  // The sort: a stable CPU sort of the frame's own (key, index) pairs, far to near.
  const perm = Array.from({ length: c }, (_, j) => j);
  perm.sort((a, b) => kf[b] - kf[a] || a - b);
  let bad = -1;
  for (let j = 0; j < c && bad < 0; j++) if (sk[j] !== k[perm[j]] || so[j] !== id[perm[j]]) bad = j;
  record(`the ${c} pairs sorted far to near, stable`, bad < 0, bad < 0 ? '' : `first difference at ${bad}: key ${f32(sk)[bad]} index ${so[bad]}, want ${kf[perm[bad]]} index ${id[perm[bad]]}`);
  st.forEach((x) => x.s.unmap());
  await wg.errors().then(() => record('wgscan reported no GPU error', true), (e) => record('wgscan reported no GPU error', false, e.message));
  sort.destroy();
  wg.destroy();
}

main().catch((e) => {
  result.failed++;
  result.failures.push(`setup (${step}${lostWhy ? `; device lost: ${lostWhy}` : ''}): ${e.stack ?? e}`);
  overlay.textContent = `error: ${e.message}`;
}).finally(() => { result.done = true; });
