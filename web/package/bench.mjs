#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// bench.mjs: times wgscan's primitives through this package's own API on a GPUDevice:
// the GPU time of each encode (timestamp queries over its passes, median of the timed
// runs after warm-up), a copy kernel over the same n u32 in the same run, the host time
// of one encode call (plan reused, nothing read back, after 50 untimed calls: a frame
// loop's steady state), and the plan's creation cold (its
// pipelines compiled) and warm (compiled already). `benchmark(device, options)` runs in
// a page or under Node; run as a program it opens Dawn for Node (npm `webgpu`):
//   npx wgscan-bench [--primitives scan,sort-keys,...|all] [--min 2^20] [--max 2^24]
//                    [--runs 30] [--json FILE] [--csv FILE] [--wasm FILE (default: the package's)]
import { Wgscan } from './wgscan.js';

// name -> the plan's options and the encode's buffers. `bytes` is what one run reads
// and writes, for the rate in GB/s.
const PRIMITIVES = {
  scan: { create: (wg, n) => wg.createScanPlan({ capacity: n }), args: (b) => ({ input: b.input, output: b.output }), bytes: 8 },
  'scan-single-pass': {
    create: (wg, n) => wg.createScanPlan({ capacity: n, algorithm: 'single-pass' }), args: (b) => ({ input: b.input, output: b.output }), bytes: 8,
  },
  reduce: { create: (wg, n) => wg.createReducePlan({ capacity: n }), args: (b) => ({ input: b.input, output: b.small }), bytes: 4 },
  // The native bench's count-tree row counts the nonzero words.
  count: {
    create: (wg, n) => wg.createCountPlan({ predicate: { kind: 'nonzero' }, capacity: n }),
    args: (b) => ({ input: b.input, output: b.small }), bytes: 4,
  },
  'select-if': {
    create: (wg, n) => wg.createSelectPlan({ mode: 'if', predicate: { kind: 'greater', a: 2 ** 31 }, capacity: n }),
    args: (b) => ({ input: b.input, output: b.output, count: b.small }), bytes: 6,
  },
  'histogram-256': {
    create: (wg, n) => wg.createHistogramPlan({ bins: 256, lower: 0, upper: 2 ** 32, capacity: n }),
    args: (b) => ({ input: b.input, output: b.small }), bytes: 4,
  },
  'sort-keys': {
    create: (wg, n) => wg.createSortPlan({ capacity: n }), args: (b) => ({ keysIn: b.input, keysOut: b.output }), bytes: 8,
  },
  'sort-pairs': {
    create: (wg, n) => wg.createSortPlan({ payload: 'buffer', capacity: n }),
    args: (b) => ({ keysIn: b.input, keysOut: b.output, valuesIn: b.values, valuesOut: b.valuesOut }), bytes: 16,
  },
  // A splat viewer's sort: positive f32 view depths far to near, u32 indices along, the
  // count read from the GPU (as web/splat.html does each frame).
  'sort-splat': {
    create: (wg, n) => wg.createSortPlan({ type: 'f32', order: 'descending', payload: 'buffer', capacity: n }),
    args: (b) => ({ keysIn: b.depths, keysOut: b.output, valuesIn: b.values, valuesOut: b.valuesOut, nBuffer: b.count }), bytes: 16,
  },
  'segmented-reduce-256': {
    create: (wg, n) => wg.createSegmentedReducePlan({ capacity: n, segmentCapacity: Math.ceil(n / 256) }),
    args: (b, n) => ({ input: b.input, offsets: b.offsets, nSegments: Math.ceil(n / 256), output: b.output }), bytes: 4,
  },
  'segmented-scan-256': {
    create: (wg, n) => wg.createSegmentedScanPlan({ capacity: n, segmentCapacity: Math.ceil(n / 256) }),
    args: (b, n) => ({ input: b.input, output: b.output, offsets: b.offsets, nSegments: Math.ceil(n / 256) }), bytes: 8,
  },
  'segmented-sort-256': {
    create: (wg, n) => wg.createSegmentedSortPlan({ capacity: n, segmentCapacity: Math.ceil(n / 256) }),
    args: (b, n) => ({ keysIn: b.input, keysOut: b.output, offsets: b.offsets, nSegments: Math.ceil(n / 256) }), bytes: 8,
  },
  // One row, k = 1024 (n at least that) in input order, as the native bench's row: the
  // keys read, k written.
  'topk-1024': {
    create: (wg, n) => wg.createTopkPlan({ capacity: n, kCapacity: Math.min(n, 1024), output: 'input-order' }),
    args: (b, n) => ({ keysIn: b.input, keysOut: b.output, n, rows: 1, k: Math.min(n, 1024) }), bytes: 4,
  },
  'scan-by-key-256': {
    create: (wg, n) => wg.createScanByKeyPlan({ capacity: n }),
    args: (b) => ({ keys: b.keys, input: b.input, output: b.output }), bytes: 12,
  },
  'reduce-by-key-256': {
    create: (wg, n) => wg.createReduceByKeyPlan({ capacity: n }),
    args: (b) => ({ keys: b.keys, input: b.input, uniqueKeys: b.valuesOut, aggregates: b.output, numRuns: b.small }), bytes: 8,
  },
};

const COPY_WGSL = `
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) w: vec3<u32>) {
  let stride = w.x * 256u;
  for (var i = g.x; i < arrayLength(&src); i += stride) { dst[i] = src[i]; }
}`;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Dawn rounds timestamps down to multiples of this many nanoseconds unless the device
// has its toggle timestamp_quantization disabled (main() does so under Node; a browser
// needs --disable-dawn-features=timestamp_quantization): GPU times are then steps of
// 65.5 us, and below that 0.
export const QUANTUM_NS = 65536n;

const HOST_WARMUP = 50;

// Times each primitive at each size. options: primitives (names of PRIMITIVES), sizes
// (element counts, multiples of 64), runs (timed, after 3 warm-up runs), wasm (as
// Wgscan.create's), adapterInfo, log (a line of progress), warn (a warning; default log).
// Returns one row a point.
export async function benchmark(device, options = {}) {
  if (!device.features.has('timestamp-query')) throw new Error('the device has no timestamp-query: GPU times cannot be measured');
  const names = options.primitives ?? Object.keys(PRIMITIVES);
  for (const p of names) if (!PRIMITIVES[p]) throw new Error(`unknown primitive ${p} (one of ${Object.keys(PRIMITIVES).join(', ')})`);
  const sizes = options.sizes ?? [2 ** 20];
  const runs = options.runs ?? 30;
  const log = options.log ?? (() => {});
  const warn = options.warn ?? log;
  let warned = false;
  const U = GPUBufferUsage;
  const rows = [];
  // Bytes compiled once: each primitive's fresh instance then shares the module, as a
  // page's instances share the one fetched from a URL.
  const wasm = ArrayBuffer.isView(options.wasm) || options.wasm instanceof ArrayBuffer
    ? await WebAssembly.compile(options.wasm) : options.wasm;
  const queries = device.createQuerySet({ type: 'timestamp', count: 2 * (runs + 3) });
  const tw0 = { querySet: queries, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 };
  const resolved = device.createBuffer({ size: 16 * (runs + 3), usage: U.QUERY_RESOLVE | U.COPY_SRC });
  const staging = device.createBuffer({ size: 16 * (runs + 3), usage: U.COPY_DST | U.MAP_READ });
  const copyPipe = device.createComputePipeline({
    layout: 'auto', compute: { module: device.createShaderModule({ code: COPY_WGSL }), entryPoint: 'main' },
  });
  const probe = await Wgscan.create(device, { wasm, adapterInfo: options.adapterInfo });
  const pointWarmMs = probe.info.adapterType === 'cpu' ? 0 : 250;
  probe.destroy();
  const timeRuns = async (record) => {
    // The point's own work first, for a while on a GPU: clocks drop in the host's
    // pauses between points, and compute-bound points came out up to five times slow
    // (the native bench does the same, programs/wgscan/cmd_bench.c).
    for (const t0 = performance.now(); performance.now() - t0 < pointWarmMs;) await batch(record);
    return batch(record);
  };
  // One timed batch: record(enc, i, timestampWrites) for 3 warm-up runs then `runs`, one
  // submit; returns the timed runs' GPU microseconds, the host time of each record call,
  // and whether every timestamp was a multiple of QUANTUM_NS (quantized).
  const batch = async (record) => {
    const enc = device.createCommandEncoder();
    const host = [];
    for (let i = 0; i < runs + 3; i++) {
      const tw = { querySet: queries, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 };
      const t0 = performance.now();
      record(enc, i, tw);
      if (i >= 3) host.push((performance.now() - t0) * 1000);
    }
    enc.resolveQuerySet(queries, 0, 2 * (runs + 3), resolved, 0);
    enc.copyBufferToBuffer(resolved, 0, staging, 0, 16 * (runs + 3));
    device.queue.submit([enc.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(staging.getMappedRange().slice(0));
    staging.unmap();
    const gpu = [];
    for (let i = 3; i < runs + 3; i++) gpu.push(Number(t[2 * i + 1] - t[2 * i]) / 1000);
    const quantized = t.every((x) => x % QUANTUM_NS === 0n);
    if (quantized && !warned) {
      warned = true;
      warn('WARNING: every GPU timestamp of this run is a multiple of 65536 ns: the device quantizes timestamps ' +
        '(Dawn\'s timestamp_quantization), so each GPU time below is a multiple of 65.5 us and says little under ' +
        'a few hundred us. Under Node, bench.mjs disables it; in a browser, start it with ' +
        '--disable-dawn-features=timestamp_quantization.');
    }
    return { gpu, host, quantized };
  };
  for (const n of sizes) {
    if (n % 64) throw new Error(`size ${n} is no multiple of 64`);
    const buf = (bytes, usage = U.STORAGE | U.COPY_DST | U.COPY_SRC) => device.createBuffer({ size: Math.max(256, bytes), usage });
    const CHUNK = 1 << 20;
    // Word i of a buffer: a 32-bit mix of i and the buffer's salt (murmur3's finalizer),
    // uniform and unrepeated at every size, as the native bench's words are: a pattern
    // that repeats, or a generator's weak low bits, changes what a sort's ranking or a
    // top-k's candidates cost.
    const mixed = (salt) => (at, k) => {
      const w = new Uint32Array(k);
      for (let i = 0; i < k; i++) {
        let h = Math.imul(at + i, 0x9e3779b9) ^ salt;
        h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
        h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
        w[i] = h ^ (h >>> 16);
      }
      return w;
    };
    // Written data, 2^20 words at a time: fill(i0, count) gives words i0.. of a buffer.
    const written = (fill) => {
      const b = buf(4 * n);
      for (let at = 0; at < n; at += CHUNK) device.queue.writeBuffer(b, 4 * at, fill(at, Math.min(CHUNK, n - at)));
      return b;
    };
    // Two input and two output slots, alternated run by run, so that consecutive runs do
    // not find each other's data in the cache at small n; one past the L2 caches (64 MiB
    // of input), where that cannot happen, so that the process writes as little memory as
    // it can: under Dawn for Node every kernel runs at 0.57 of its speed for the rest of a
    // process once it has written about 4 GiB (README, "How fast on your GPU").
    const slots = Array.from({ length: 4 * n >= 64 * 2 ** 20 ? 1 : 2 }, (_, slot) => ({ input: written(mixed(0x1234567 + slot)), output: buf(4 * n) }));
    // The other buffers a primitive binds, made when one first asks for them.
    const makers = {
      small: () => buf(1024),
      values: () => written(mixed(0x7654321)),
      valuesOut: () => buf(4 * n),
      keys: () => written((at, k) => Uint32Array.from({ length: k }, (_, i) => Math.floor((at + i) / 256))),
      depths: () => written((at, k) => Float32Array.from(mixed(0x5555)(at, k), (w) => 0.05 + 4 * (w / 2 ** 32))),
      offsets: () => {
        const segs = Math.ceil(n / 256), b = buf(4 * (segs + 2));
        device.queue.writeBuffer(b, 0, Uint32Array.from({ length: segs + 1 }, (_, i) => Math.min(n, 256 * i)));
        return b;
      },
      count: () => {
        const b = buf(4);
        device.queue.writeBuffer(b, 0, new Uint32Array([n]));
        return b;
      },
    };
    const shared = {};
    const sharedOr = new Proxy(shared, { get: (t, k) => (t[k] ??= makers[k]?.()) });
    const copyGroups = slots.map((s) => device.createBindGroup({
      layout: copyPipe.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: s.input, size: 4 * n } }, { binding: 1, resource: { buffer: s.output, size: 4 * n } }],
    }));
    const copy = await timeRuns((enc, i, tw) => {
      const pass = enc.beginComputePass({ timestampWrites: tw });
      pass.setPipeline(copyPipe);
      pass.setBindGroup(0, copyGroups[i % slots.length]);
      pass.dispatchWorkgroups(Math.min(65535, Math.ceil(n / 1024)));
      pass.end();
    });
    const copyUs = median(copy.gpu);
    for (const name of names) {
      const p = PRIMITIVES[name];
      // Cold: a fresh instance compiles the plan's pipelines; warm: the same plan again.
      const fresh = await Wgscan.create(device, { wasm, adapterInfo: options.adapterInfo });
      let plan;
      try {
        let t0 = performance.now();
        plan = p.create(fresh, n);
        const coldMs = performance.now() - t0;
        plan.destroy();
        t0 = performance.now();
        plan = p.create(fresh, n);
        const warmMs = performance.now() - t0;
        const args = slots.map((s) => ({ ...p.args(Object.assign(Object.create(sharedOr), s), n), n }));
        // The host time is that of an encode in steady use (a frame loop's): first
        // HOST_WARMUP encodes into an encoder never submitted, so that the engine has
        // compiled the wasm and JavaScript on the path at its upper tier.
        const idle = device.createCommandEncoder();
        for (let i = 0; i < HOST_WARMUP; i++) plan.encode(idle, { ...args[i % args.length], timestampWrites: { ...tw0 } });
        idle.finish();
        const r = await timeRuns((enc, i, tw) => plan.encode(enc, { ...args[i % args.length], timestampWrites: tw }));
        await fresh.errors();
        const gpuUs = median(r.gpu);
        const row = {
          primitive: name, algorithm: plan.algorithmFor ? plan.algorithmFor(n) : '', n, gpu_us: gpuUs, gpu_us_min: Math.min(...r.gpu), copy_us: copyUs, copies: gpuUs / copyUs,
          gelem_s: n / gpuUs / 1000, gb_s: (p.bytes * n) / gpuUs / 1000, encode_us: median(r.host),
          plan_cold_ms: coldMs, plan_warm_ms: warmMs, runs, timestamps: r.quantized || copy.quantized ? 'quantized' : 'full',
        };
        rows.push(row);
        log(`${(row.algorithm && !name.endsWith(row.algorithm) ? `${name} ${row.algorithm}` : name).padEnd(22)} n ${String(n).padStart(10)}  GPU ${gpuUs.toFixed(1).padStart(9)} us  ${row.copies.toFixed(2)} copies` +
          `  encode ${row.encode_us.toFixed(1)} us  plan ${coldMs.toFixed(0)} ms cold, ${warmMs.toFixed(2)} ms warm`);
      } finally {
        fresh.destroy();
      }
    }
    for (const b of [...slots.flatMap((s) => [s.input, s.output]), ...Object.values(shared)]) b.destroy();
  }
  for (const b of [resolved, staging]) b.destroy();
  queries.destroy();
  return rows;
}

export function toCsv(rows) {
  const cols = ['primitive', 'n', 'gpu_us', 'gpu_us_min', 'copy_us', 'copies', 'gelem_s', 'gb_s', 'encode_us', 'plan_cold_ms', 'plan_warm_ms', 'runs',
    'algorithm', 'timestamps'];
  return `${cols.join(',')}\n${rows.map((r) => cols.map((c) => (typeof r[c] === 'number' && !Number.isInteger(r[c]) ? r[c].toFixed(4) : r[c])).join(',')).join('\n')}\n`;
}

// Sizes as the native tool writes them: 1048576, 2^20, 1M, 16K.
function parseCount(text) {
  const m = /^(\d+)(?:\^(\d+))?([KMG]?)$/.exec(String(text));
  if (!m) throw new Error(`not a count: ${text}`);
  const v = (m[2] ? Number(m[1]) ** Number(m[2]) : Number(m[1])) * { '': 1, K: 1024, M: 2 ** 20, G: 2 ** 30 }[m[3]];
  if (!Number.isSafeInteger(v) || v < 64) throw new Error(`count out of range: ${text}`);
  return v;
}

let gpu = null;
async function main(argv) {
  const opt = (name, dflt) => {
    const i = argv.indexOf(name);
    if (i >= 0 && i + 1 >= argv.length) throw new Error(`${name} needs a value`);
    return i >= 0 ? argv[i + 1] : dflt;
  };
  if (argv.includes('--help')) {
    console.log('usage: wgscan-bench [--primitives LIST|all] [--min N] [--max N] [--runs K] [--json FILE] [--csv FILE] [--wasm FILE]\n' +
      `primitives: ${Object.keys(PRIMITIVES).join(', ')}\nsizes: powers of two from --min to --max (default 2^20); runs 5..1000 (default 30)\n` +
      'Opens the first adapter of Dawn for Node (npm webgpu); a CPU driver: VK_ADD_DRIVER_FILES=/usr/lib/chromium/vk_swiftshader_icd.json');
    return 0;
  }
  const list = opt('--primitives', 'all');
  const primitives = list === 'all' ? Object.keys(PRIMITIVES) : list.split(',');
  const min = parseCount(opt('--min', '2^20')), max = parseCount(opt('--max', opt('--min', '2^20')));
  const runs = Number(opt('--runs', '30'));
  if (!Number.isInteger(runs) || runs < 5 || runs > 1000) throw new Error('--runs takes 5..1000');
  if (max < min) throw new Error('--max is below --min');
  const sizes = [];
  for (let n = min; n <= max; n *= 2) sizes.push(n);
  const { create, globals } = await import('webgpu');
  Object.assign(globalThis, globals);
  // Full-resolution timestamps, as the native library asks for (src/gpu/native/adapter.c).
  // (Held in a module variable: Dawn for Node lives while its GPU object is referenced.)
  gpu = create(['disable-dawn-features=timestamp_quantization']);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('no WebGPU adapter');
  const l = adapter.limits;
  const device = await adapter.requestDevice({
    requiredFeatures: ['subgroups', 'timestamp-query', 'shader-f16'].filter((f) => adapter.features.has(f)),
    requiredLimits: { maxBufferSize: l.maxBufferSize, maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
      maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize, maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX, maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage },
  });
  const info = adapter.info;
  console.error(`wgscan-bench: ${info.description || info.vendor || 'adapter'} (${info.architecture || '?'}), node ${process.versions.node}`);
  const { writeFileSync, readFileSync } = await import('node:fs');
  const wasmFile = opt('--wasm', null);
  const wasm = wasmFile ? readFileSync(wasmFile) : undefined;
  const rows = await benchmark(device, { primitives, sizes, runs, wasm, adapterInfo: info, log: (line) => console.log(line),
    warn: (line) => console.error(`wgscan-bench: ${line}`) });
  const quantized = rows.filter((r) => r.timestamps === 'quantized').length;
  console.error(`wgscan-bench: timestamps: ${quantized ? `QUANTIZED in ${quantized} of ${rows.length} rows` : `full resolution in all ${rows.length} rows`}`);
  const json = opt('--json', null), csv = opt('--csv', null);
  const meta = { tool: 'wgscan-bench', adapter: { vendor: info.vendor, architecture: info.architecture, description: info.description },
    node: process.versions.node, date: new Date().toISOString() };
  if (json) writeFileSync(json, `${JSON.stringify({ ...meta, rows }, null, 1)}\n`);
  if (csv) writeFileSync(csv, toCsv(rows));
  device.destroy();
  return 0;
}

if (globalThis.process?.argv?.[1]) {
  const { realpathSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  if (realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
    main(process.argv.slice(2)).then((code) => process.exit(code), (e) => {
      console.error(`wgscan-bench: ${e.message}`);
      process.exit(2);
    });
  }
}
