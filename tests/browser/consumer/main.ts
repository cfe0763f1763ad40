// SPDX-License-Identifier: MIT
// main.ts: a web developer's program on the installed npm package, type-checked by
// tests/browser/test_package.mjs with tsc (strict) and then run in each browser.
// Every primitive once through its host helper and once as a plan encoded into our own
// command encoder, each checked against a few lines of plain TypeScript.
import {
  Wgscan, WgscanError, ErrorCode, NO_INDEX, ALLOC_FAILED,
  type ScanPlan, type SortPlan, type ReduceResult, type SortResult, type AdapterInfo, type Predicate, type PrepareSpec,
  type OperatorDescription, type TopkPlan, type SegmentedSortPlan, type TopkResult,
} from 'wgscan';

interface Outcome { done: boolean; passed: number; failed: number; failures: string[]; info: AdapterInfo | null }
const outcome: Outcome = { done: false, passed: 0, failed: 0, failures: [], info: null };
(window as unknown as { __wgscanTest: Outcome }).__wgscanTest = outcome;

function expect(name: string, ok: boolean, detail = ''): void {
  if (ok) outcome.passed++;
  else { outcome.failed++; outcome.failures.push(`${name}: ${detail}`); }
}
const same = (a: ArrayLike<number>, b: ArrayLike<number>): boolean =>
  a.length === b.length && Array.from(a).every((v, i) => v === b[i]);

async function main(): Promise<void> {
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter');
  const device: GPUDevice = await adapter.requestDevice();
  const wg: Wgscan = await Wgscan.create(device, { adapterInfo: adapter.info });
  outcome.info = wg.info;
  // The first calls' pipelines, compiled before them without blocking.
  const specs: PrepareSpec[] = [{ primitive: 'scan', kind: 'inclusive', capacity: 8192 }];
  const compiled: number = await wg.prepare(specs);
  expect('prepare', compiled > 0 && wg.pipelines.prepared === compiled, `${compiled}`);

  // Host helpers.
  const data = Uint32Array.from({ length: 5000 }, (_, i) => (i * 7919) % 13);
  const scan = await wg.scan(data, { kind: 'inclusive' });
  let run = 0;
  expect('scan', same(scan.output, data.map((v) => (run += v))));
  const red: ReduceResult = await wg.reduce(new Float32Array([3, -1, 8, -1]), { op: 'argmin' });
  expect('reduce argmin', red.value === -1 && red.index === 1, `${red.value} at ${red.index}`);
  const empty = await wg.reduce(new Int32Array(0), { op: 'argmax' });
  expect('reduce of nothing', empty.index === NO_INDEX);
  // A user's operator: affine maps x -> a x + b, composed in order.
  const affine: OperatorDescription = {
    source: 'struct Affine { a: f32, b: f32 }\nfn then(f: Affine, g: Affine) -> Affine { return Affine(g.a * f.a, g.a * f.b + g.b); }\n',
    element: 'Affine', combine: 'then', identity: new Float32Array([1, 0]),
  };
  const maps = new Float32Array([2, 1, 3, 1]);
  const composed = await wg.scan(maps, { operator: affine, kind: 'inclusive' });
  expect('scan with an operator', same(composed.output, [2, 1, 6, 4]), `${composed.output}`);
  const whole = await wg.reduce(maps, { operator: affine });
  expect('reduce with an operator', same(whole.value, [6, 4]), `${whole.value}`);
  const even: Predicate = { kind: 'in-range', a: 2, b: 5 };
  const counted = await wg.count(data, { predicate: even });
  expect('count', counted.count === data.filter((v) => v >= 2 && v < 5).length);
  const sel = await wg.select(data, { predicate: { kind: 'greater', a: 10 }, payload: 'index' });
  const keptIdx = Array.from(data.keys()).filter((i) => data[i] > 10);
  expect('select', sel.count === keptIdx.length && same(sel.payload ?? [], keptIdx));
  const part = await wg.partition(new Int32Array([1, -2, 3, -4]), { flags: new Uint8Array([0, 1, 0, 1]) });
  expect('partition', same(part.output, [-2, -4, 1, 3]) && part.count === 2);
  const uniq = await wg.unique(new Float32Array([1, 1, 2, 2, 2, 1]));
  expect('unique', same(uniq.output, [1, 2, 1]));
  const rle = await wg.runLengthEncode(new Uint32Array([7, 7, 7, 9]));
  expect('run-length', same(rle.values, [7, 9]) && same(rle.lengths, [3, 1]));
  const hist = await wg.histogram(data, { bins: 13, lower: 0, upper: 13 });
  expect('histogram', hist.counts.reduce((s, c) => s + c, 0) === data.length && hist.counts[4] === data.filter((v) => v === 4).length);

  // The sort on a device with the adapter's workgroup memory: without subgroups (this
  // page asks for none) its tiles need more than WebGPU's default 16 KiB. On the
  // default device it sorts or refuses with TOO_LARGE.
  try {
    const r = await wg.sort(new Uint32Array([2, 1]));
    expect('sort at default limits', same(r.keys, [1, 2]));
  } catch (e) {
    expect('sort at default limits', e instanceof WgscanError && e.code === ErrorCode.TOO_LARGE, String(e));
  }
  const sortAdapter = await navigator.gpu.requestAdapter();
  if (!sortAdapter) throw new Error('no second WebGPU adapter');
  const sortDevice = await sortAdapter.requestDevice({
    requiredLimits: { maxComputeWorkgroupStorageSize: sortAdapter.limits.maxComputeWorkgroupStorageSize },
  });
  const ws = await Wgscan.create(sortDevice, { adapterInfo: sortAdapter.info });
  const sorted: SortResult<Float32Array, Uint32Array> = await ws.sort(new Float32Array([2, -0, 0, -1, 2]), { values: 'index' });
  expect('sort f32 with indices', same(sorted.values, [3, 1, 2, 0, 4]) && Object.is(sorted.keys[1], -0), `${sorted.values}`);
  const big = await ws.sort(new BigInt64Array([5n, -7n, 5n]), { order: 'descending', values: new Float64Array([0.5, 1.5, 2.5]) });
  const bigValues: Float64Array = big.values;
  expect('sort i64 descending pairs', big.keys[0] === 5n && big.keys[2] === -7n && same(bigValues, [0.5, 2.5, 1.5]));
  // The top bit of the ordered key alone: the negatives first, each side in input order.
  const bySign = await ws.sort(new Float32Array([2, -0, 0, -1, 2]), { beginBit: 31, endBit: 32, values: 'index' });
  expect('sort bit range', same(bySign.values, [1, 3, 0, 2, 4]), `${bySign.values}`);
  const none = await ws.sort(new Float32Array(0), { values: 'index' });
  expect('sort of nothing', none.keys.length === 0 && none.values.length === 0);
  const alloc = await wg.allocate(new Uint32Array([4, 4, 4]), { arenaSize: 10, top: 1 });
  expect('allocate', same(alloc.offsets, [1, 5, ALLOC_FAILED]) && alloc.top === 9, `${alloc.offsets} ${alloc.top}`);

  // Plans on our own buffers, one encoder.
  const n = 1000;
  const U = GPUBufferUsage;
  const input = device.createBuffer({ size: n * 4, usage: U.STORAGE | U.COPY_DST });
  device.queue.writeBuffer(input, 0, Uint32Array.from({ length: n }, () => 1));
  const output = device.createBuffer({ size: n * 4, usage: U.STORAGE | U.COPY_SRC });
  const read = device.createBuffer({ size: n * 4, usage: U.MAP_READ | U.COPY_DST });
  const plan: ScanPlan = wg.createScanPlan({ type: 'u32', op: 'add', kind: 'exclusive', capacity: n });
  const encoder = device.createCommandEncoder();
  plan.encode(encoder, { input, output, n });
  encoder.copyBufferToBuffer(output, 0, read, 0, n * 4);
  device.queue.submit([encoder.finish()]);
  await wg.errors();
  await read.mapAsync(GPUMapMode.READ);
  const got = new Uint32Array(read.getMappedRange().slice(0));
  read.unmap();
  expect('scan plan', got[0] === 0 && got[n - 1] === n - 1, `${got[0]} ${got[n - 1]}`);
  plan.destroy();
  expect('destroyed', plan.destroyed);

  // A sort plan in place on our own buffer (of the sort's device): f32 keys, their indices.
  const keys = Float32Array.from({ length: n }, (_, i) => ((i * 7919) % 97) - 48);
  const keysBuf = sortDevice.createBuffer({ size: n * 4, usage: U.STORAGE | U.COPY_DST | U.COPY_SRC });
  sortDevice.queue.writeBuffer(keysBuf, 0, keys);
  const indexBuf = sortDevice.createBuffer({ size: n * 4, usage: U.STORAGE | U.COPY_SRC });
  const read2 = sortDevice.createBuffer({ size: n * 8, usage: U.MAP_READ | U.COPY_DST });
  const sortPlan: SortPlan = ws.createSortPlan({ type: 'f32', payload: 'index', capacity: n });
  const sortEncoder = sortDevice.createCommandEncoder();
  sortPlan.encode(sortEncoder, { keysIn: keysBuf, keysOut: keysBuf, valuesOut: indexBuf, n });
  sortEncoder.copyBufferToBuffer(keysBuf, 0, read2, 0, n * 4);
  sortEncoder.copyBufferToBuffer(indexBuf, 0, read2, n * 4, n * 4);
  sortDevice.queue.submit([sortEncoder.finish()]);
  await ws.errors();
  await read2.mapAsync(GPUMapMode.READ);
  const both = read2.getMappedRange().slice(0);
  read2.unmap();
  const order = Array.from(keys.keys()).sort((a, b) => keys[a] - keys[b] || a - b);
  expect('sort plan in place', same(new Float32Array(both, 0, n), order.map((i) => keys[i]))
    && same(new Uint32Array(both, n * 4, n), order));
  sortPlan.destroy();
  for (const b of [keysBuf, indexBuf, read2]) b.destroy();

  // Errors carry the library's numbers.
  try {
    plan.encode(device.createCommandEncoder(), { input, output, n });
    expect('encode after destroy', false, 'no error');
  } catch (e) {
    expect('encode after destroy', e instanceof WgscanError && e.code === ErrorCode.INVALID_ARGUMENT);
  }
  try {
    wg.createHistogramPlan({ bins: 0, lower: 0, upper: 1 });
    expect('bad histogram', false, 'no error');
  } catch (e) {
    expect('bad histogram', e instanceof WgscanError && e.name === 'WGS_ERROR_INVALID_ARGUMENT');
  }
  // The other plans' shapes (type-checked only: the host helpers above ran them).
  const otherPlans = () => [
    wg.createReducePlan({ op: 'max', capacity: n }), wg.createCountPlan({ predicate: { kind: 'less', a: 3 } }),
    wg.createSelectPlan({ mode: 'unique', capacity: n }), wg.createHistogramPlan({ bins: 4, lower: 0, upper: 4 }),
    wg.createAllocPlan({ algorithm: 'atomic' }),
    ws.createSortPlan({ type: 'i64', order: 'descending', beginBit: 8, endBit: 40, payload: 'buffer', valueBytes: 8,
      algorithm: 'onesweep', capacity: n }),
  ];
  void otherPlans;
  // Top-k and the segmented sort (type-checked only; the repository's suites run them).
  const sampling = async (): Promise<Uint32Array> => {
    const logits = new Float32Array(4 * 1000);
    const top: TopkResult<Float32Array, Uint32Array> = await wg.topk(logits, { k: 50, rows: 4, values: 'index' });
    const plan: TopkPlan = wg.createTopkPlan({ type: 'f32', select: 'smallest', output: 'input-order', payload: 'buffer',
      capacity: 1000, kCapacity: 50, rowCapacity: 4 });
    plan.encode(device.createCommandEncoder(), { keysIn: input, keysOut: output, valuesIn: input, valuesOut: read, n: 1000, rows: 4, k: 50 });
    return top.values;
  };
  const perSegment = async (): Promise<BigInt64Array> => {
    const r = await ws.segmentedSort(new BigInt64Array(6), { offsets: new Uint32Array([0, 2, 6]), order: 'descending', values: new Float64Array(6) });
    const byIndex = await ws.segmentedSort(new Float32Array(6), { begin: new Uint32Array([0]), end: new Uint32Array([3]), values: 'index', path: 'small' });
    const plan: SegmentedSortPlan = ws.createSegmentedSortPlan({ type: 'u64', payload: 'index', segments: 'begin-end', segmentCapacity: 8, capacity: n });
    const tile: number = plan.tileSize();
    void tile;
    void byIndex.values.length;
    const more: PrepareSpec[] = [{ primitive: 'topk', kCapacity: 50, rowCapacity: 64 }, { primitive: 'segmentedSort', path: 'large' }];
    void more;
    return r.keys;
  };
  void sampling;
  void perSegment;
  // @ts-expect-error: the top-k takes no counts from the GPU
  const topkCount = () => wg.createTopkPlan().encode(device.createCommandEncoder(), { keysIn: input, keysOut: output, n, rows: 1, k: 1, nBuffer: input });
  // @ts-expect-error: top-k keys are 4 bytes
  const wideTopk = () => wg.topk(new BigUint64Array(4), { k: 1 });
  void topkCount;
  void wideTopk;
  // @ts-expect-error: 'u64' is no element type
  const wrongType = () => wg.createScanPlan({ type: 'u64' });
  // @ts-expect-error: reduce takes no f16 (a Uint16Array)
  const wrongArray = () => wg.reduce(new Uint16Array(4));
  // @ts-expect-error: sort values are 4 or 8 bytes
  const wrongValueBytes = () => ws.createSortPlan({ payload: 'buffer', valueBytes: 2 });
  // @ts-expect-error: no 16-bit sort keys
  const wrongKeys = () => ws.sort(new Uint16Array(4));
  // Keys alone: no values come back (type-checked only: another key kind compiles its own).
  const keysOnly = async (): Promise<undefined> => (await ws.sort(new Float32Array(1))).values;
  void keysOnly;
  void wrongType;
  void wrongArray;
  void wrongValueBytes;
  void wrongKeys;
  for (const b of [input, output, read]) b.destroy();
  wg.destroy();
  ws.destroy();
  sortDevice.destroy();
}

main().catch((e: unknown) => {
  outcome.failed++;
  outcome.failures.push(`setup: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
}).finally(() => { outcome.done = true; });
