// SPDX-License-Identifier: MIT
// test.js: the browser test suite, run by tests/browser/test_browser.mjs in headless
// Chromium and Firefox. Every primitive against the JavaScript reference (scans of
// every type, operator, kind and algorithm at tile boundaries; f16 edge bit patterns;
// reduce, count, select and its relatives, histogram, segmented reduce, the segmented
// scan, scan and reduce by key (the carry-in too), allocator, sort, top-k and the
// segmented sort through host helpers and through plans on the page's own buffers), and
// bad inputs with their exact codes.
// test.html?groups=f16,errors runs only those groups (names: GROUPS below); &quick=1
// fewer operators and sizes (each plan compiles its pipelines: the slow part on CPU drivers).
// The sort group takes its quick selection, the segment groups (segmented, bykey,
// segscan) their quick operators at every layout and size, and segsort the radix sorts
// of u32 keys alone, unless &full=1: the whole
// products are tests/test_sort.c's and the segment tests', natively, on the same drivers;
// the scan group keeps every operator, so each operator's combine compiles through the
// page's WebGPU.
// The outcome is left in globalThis.__wgscanTest for the driver. The same file runs under
// Node (tests/node/test_node.mjs): there the log goes to the console and the query string
// comes from globalThis.__wgscanTestSearch.
import { Wgscan, WgscanError, ErrorCode, NO_INDEX, ALLOC_FAILED } from './package/wgscan.js';
import { openDevice } from './device.js';
import {
  randomInput, verifyScan, f32ToF16, f16ToF32, referenceReduce, referenceCount, referenceSelect,
  referenceHistogram, referenceAllocate, checkAtomicAllocation, referenceSort, bitsOf32or64,
  referenceSegmentedReduce, referenceTopk, referenceSegmentedSort,
} from './reference.js';

const log = globalThis.document?.getElementById('log');
const result = { done: false, passed: 0, failed: 0, skipped: 0, failures: [], info: null, groups: [], ms: {} };
globalThis.__wgscanTest = result;
const say = log ? (line) => { log.textContent += `\n${line}`; } : (line) => console.log(line);
const search = new URLSearchParams(globalThis.__wgscanTestSearch ?? globalThis.location?.search ?? '');

function record(name, ok, detail = '') {
  if (ok) result.passed++;
  else { result.failed++; result.failures.push(`${name}: ${detail}`); }
  say(`${ok ? 'ok  ' : 'FAIL'} ${name} ${ok ? '' : detail}`);
}

function skip(why) {
  result.skipped++;
  say(`skip ${why}`);
}

async function check(name, fn) {
  try {
    const bad = await fn();
    record(name, !bad, bad || '');
  } catch (e) {
    record(name, false, `${e.name}: ${e.message}`);
  }
}

async function expectCode(name, code, fn) {
  try {
    await fn();
    record(name, false, `no error, expected code ${code}`);
  } catch (e) {
    record(name, e instanceof WgscanError && e.code === code,
      `${e.name} (${e.code}): ${e.message}; expected ${code}`);
  }
}

// Compares arrays (-0 equals 0; NaN equals NaN); returns '' or the first difference.
function sameArray(got, want, what = '') {
  if (got.length !== want.length) return `${what}length ${got.length}, want ${want.length}`;
  for (let i = 0; i < want.length; i++) {
    const g = got[i], w = want[i];
    if (!(g === w || (Number.isNaN(g) && Number.isNaN(w)))) return `${what}[${i}] = ${g}, want ${w}`;
  }
  return '';
}

let seed = 1;
const quick = search.get('quick') === '1';
const quickProduct = quick || search.get('full') !== '1';
let theAdapterInfo;
const rng = () => { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0; return seed; };
const TypedArrayOf = { u32: Uint32Array, i32: Int32Array, f32: Float32Array };
// Values from a small set, so that predicates, runs and bins all have work.
function smallValues(type, n, spread = 8) {
  const a = new TypedArrayOf[type](n);
  let v = 0;
  for (let i = 0; i < n; i++) {
    if (rng() % 4 === 0 || i === 0) v = (rng() % (2 * spread)) - (type === 'u32' ? 0 : spread);
    a[i] = type === 'f32' ? v / 2 : v;
  }
  return a;
}

// Sort keys: 'uniform' random bits, 'few' distinct values (the values then show whether
// equal keys kept their input order), 'edges' (f32: zeros, infinities, NaNs of either
// sign and payload, subnormals, the largest finite values, among random ones).
const SortArrayOf = { u32: Uint32Array, i32: Int32Array, f32: Float32Array, u64: BigUint64Array, i64: BigInt64Array };
const F32_EDGES = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x00000001, 0x80000001,
  0x007FFFFF, 0x807FFFFF, 0x3F800000, 0xBF800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800001, 0xFFFFFFFF];
function sortKeys(type, n, dist) {
  const keys = new SortArrayOf[type](n);
  const bits = bitsOf32or64(keys);
  const wide = bits instanceof BigUint64Array;
  const word = () => (wide ? (BigInt(rng()) << 32n) | BigInt(rng()) : rng());
  const few = Array.from({ length: 5 }, word);
  for (let i = 0; i < n; i++) {
    if (dist === 'few') bits[i] = few[rng() % 5];
    else if (dist === 'edges' && rng() % 3) bits[i] = F32_EDGES[rng() % F32_EDGES.length];
    else bits[i] = word();
  }
  return keys;
}
// Values that name their input position (distinct, odd multiplier), 4 or 8 bytes.
function sortValues(n, Ctor = Uint32Array) {
  const v = new Ctor(n);
  const bits = bitsOf32or64(v);
  for (let i = 0; i < n; i++) {
    const w = Math.imul(i, 0x9E3779B1) >>> 0;
    bits[i] = bits instanceof BigUint64Array ? (BigInt(w) << 32n) | BigInt(i) : w;
  }
  return v;
}
// Compares a sort's result with the reference, bit for bit.
function sameSort(got, want) {
  return sameArray(bitsOf32or64(got.keys), bitsOf32or64(want.keys), 'keys')
    || (want.values ? sameArray(bitsOf32or64(got.values), bitsOf32or64(want.values), 'values (stable?)')
      : got.values === undefined ? '' : 'values where none were asked for');
}

// A storage buffer (copies both ways) holding `a`, of `size` bytes (at least 16).
function uploadTo(dev, a, size = a.byteLength) {
  const U = GPUBufferUsage;
  const b = dev.createBuffer({ size: Math.max(16, size), usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
  dev.queue.writeBuffer(b, 0, a);
  return b;
}
// The buffers' contents, as ArrayBuffers.
async function downloadFrom(dev, bufs) {
  const U = GPUBufferUsage;
  const enc = dev.createCommandEncoder();
  const staging = bufs.map((b) => {
    const s = dev.createBuffer({ size: b.size, usage: U.MAP_READ | U.COPY_DST });
    enc.copyBufferToBuffer(b, 0, s, 0, b.size);
    return s;
  });
  dev.queue.submit([enc.finish()]);
  return Promise.all(staging.map(async (s) => {
    await s.mapAsync(GPUMapMode.READ);
    const copy = s.getMappedRange().slice(0);
    s.destroy();
    return copy;
  }));
}

// ---- groups ---------------------------------------------------------------------------
async function scanMatrix(wg, types) {
  // Quick: every operator's name once over the integer types (the glue maps names).
  const opsFor = (t) => (t === 'f32' || t === 'f16' ? (quick ? ['add', 'min'] : ['add', 'min', 'max'])
    : !quick ? ['add', 'min', 'max', 'and', 'or', 'xor'] : t === 'u32' ? ['add', 'max', 'xor'] : ['min', 'and', 'or']);
  for (const algorithm of ['single-pass', 'multilevel']) {
    const probe = wg.createScanPlan({ algorithm, capacity: 1 });
    const t = probe.tileSize(algorithm);
    probe.destroy();
    const sizes = quick ? [0, 1, t - 1, t + 1, 5 * t + 3] : [0, 1, 3, t - 1, t, t + 1, 5 * t + 3];
    for (const type of types) {
      for (const op of opsFor(type)) {
        for (const kind of ['exclusive', 'inclusive']) {
          for (const n of sizes) {
            const input = randomInput(type, op, n, seed++);
            await check(`scan ${algorithm} ${type} ${op} ${kind} n=${n}`, async () => {
              const { output } = await wg.scan(input, { op, kind, algorithm });
              const c = verifyScan(input, output, type, op, kind === 'inclusive');
              if (output.length !== n) return `length ${output.length}`;
              return c.mismatches ? `${c.mismatches} wrong, first at ${c.firstBad}: got ${c.got} want ${c.want}` : '';
            });
          }
        }
      }
    }
  }
}

const GROUPS = {
  async scan(wg) {
    await scanMatrix(wg, ['u32', 'i32', 'f32']);
    const input = randomInput('u32', 'add', 1 << 20, 99);
    await check('scan auto u32 add exclusive n=2^20', async () => {
      const { output, algorithm } = await wg.scan(input);
      const c = verifyScan(input, output, 'u32', 'add', false);
      say(`  (auto chose ${algorithm})`);
      return c.mismatches ? `${c.mismatches} wrong` : '';
    });
  },

  // f16: the matrix, then the edge bit patterns through min and max (exact, bit for bit:
  // they move values between tiles as 32-bit patterns, the helpers under test).
  async f16(wg) {
    if (!wg.info.shaderF16) {
      skip('f16: the device has no shader-f16');
      await expectCode('f16 plan without shader-f16', ErrorCode.FEATURE_MISSING, () => wg.createScanPlan({ type: 'f16' }));
      return;
    }
    await scanMatrix(wg, ['f16']);
    if (typeof globalThis.Float16Array === 'function') {
      await check('f16: a Float16Array in, a Float16Array of the same bits out', async () => {
        const bits = Uint16Array.from({ length: 1000 }, () => f32ToF16(((rng() % 201) - 100) / 8));
        const want = (await wg.scan(bits, { kind: 'inclusive' })).output;
        const got = (await wg.scan(new globalThis.Float16Array(bits.buffer), { kind: 'inclusive' })).output;
        if (!(got instanceof globalThis.Float16Array)) return `output is a ${got?.constructor?.name}`;
        return sameArray(new Uint16Array(got.buffer, got.byteOffset, got.length), want);
      });
    } else {
      skip('f16: this engine has no Float16Array');
    }
    const edges = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00,
      0x3C00, 0xBC00, 0x3555, 0x7E00, 0x7C01, 0xFE00, 0x7FFF];
    const isNaN16 = (h) => (h & 0x7C00) === 0x7C00 && (h & 0x3FF) !== 0;
    const key = (h, forMax) => {
      const b = (h << 16) >>> 0;
      if ((b & 0x7FFFFFFF) > 0x7C000000) return forMax ? 0xFFFFFFFF : 0;
      return (b & 0x80000000 ? ~b : b | 0x80000000) >>> 0;
    };
    for (const algorithm of ['single-pass', 'multilevel']) {
      const probe = wg.createScanPlan({ type: 'f16', algorithm, capacity: 1 });
      const t = probe.tileSize(algorithm);
      probe.destroy();
      for (const op of ['min', 'max']) {
        for (const kind of ['exclusive', 'inclusive']) {
          for (const withNaN of [false, true]) {
            // Normal values, the edge patterns at tile ends and in between; NaN wins
            // min and max, so the runs without it check every other pattern.
            const n = 3 * t + 7;
            const input = Uint16Array.from({ length: n }, () => f32ToF16(((rng() % 2001) - 1000) / 64));
            const specials = edges.filter((h) => withNaN || !isNaN16(h));
            specials.forEach((h, j) => { input[(j * 997 + (j & 1 ? t - 1 : t)) % n] = h; });
            await check(`f16 edges ${algorithm} ${op} ${kind}${withNaN ? ' with NaN' : ''}`, async () => {
              const { output } = await wg.scan(input, { op, kind, algorithm });
              const forMax = op === 'max';
              let acc = forMax ? 0xFC00 : 0x7C00;
              for (let i = 0; i < n; i++) {
                const x = input[i];
                const next = (forMax ? key(x, true) > key(acc, true) : key(x, false) < key(acc, false)) ? x : acc;
                const want = kind === 'inclusive' ? next : acc;
                const got = output[i];
                if (!(got === want || (isNaN16(got) && isNaN16(want)))) {
                  return `[${i}] = 0x${got.toString(16)} (${f16ToF32(got)}), want 0x${want.toString(16)} (${f16ToF32(want)})`;
                }
                acc = next;
              }
              return '';
            });
          }
        }
      }
    }
    // Sums of subnormals and of values at the edge of the range (exact in f16).
    await check('f16 add of subnormals, exact', async () => {
      const input = Uint16Array.from({ length: 3000 }, (_, i) => (i % 3 ? 0x0001 : 0x8001));
      const { output } = await wg.scan(input, { op: 'add', kind: 'inclusive' });
      let exact = 0;
      for (let i = 0; i < input.length; i++) {
        exact += i % 3 ? 1 : -1;
        if (f16ToF32(output[i]) !== exact * 2 ** -24) return `[${i}] = ${f16ToF32(output[i])}, want ${exact * 2 ** -24}`;
      }
      return '';
    });
  },

  async reduce(wg) {
    for (const type of ['u32', 'i32', 'f32']) {
      const ops = quick ? ['add', 'min', 'argmax'].concat(type === 'f32' ? [] : ['xor'])
        : ['add', 'min', 'max', 'argmin', 'argmax'].concat(type === 'f32' ? [] : ['and', 'or', 'xor']);
      for (const op of ops) {
        for (const n of quick ? [0, 70001] : [0, 1, 1000, 70001]) {
          const input = type === 'f32' ? randomInput('f32', op, n, seed++) : randomInput(type, op === 'add' ? 'xor' : op, n, seed++);
          await check(`reduce ${type} ${op} n=${n}`, async () => {
            const r = await wg.reduce(input, { op });
            const w = referenceReduce(input, type, op);
            if (w.tolerance) return Math.abs(r.value - w.value) <= w.tolerance ? '' : `${r.value}, want ${w.value} ± ${w.tolerance}`;
            if (!(r.value === w.value || (Number.isNaN(r.value) && Number.isNaN(w.value)))) return `${r.value}, want ${w.value}`;
            return r.index === w.index ? '' : `index ${r.index}, want ${w.index}`;
          });
        }
      }
    }
    await check('reduce f32 argmax: the first NaN wins', async () => {
      const input = new Float32Array([1, 5, NaN, 7, NaN, 2]);
      const r = await wg.reduce(input, { op: 'argmax' });
      return Number.isNaN(r.value) && r.index === 2 ? '' : `${r.value} at ${r.index}`;
    });
    await check('reduce f32 add atomic fixed-point', async () => {
      const input = randomInput('f32', 'add', 50000, seed++);
      const r = await wg.reduce(input, { op: 'add', algorithm: 'atomic', floatSum: 'fixed-point' });
      const w = referenceReduce(input, 'f32', 'add');
      return Math.abs(r.value - w.value) <= w.tolerance + 50000 * 2 ** -25 ? '' : `${r.value}, want ${w.value}`;
    });
    await check('reduce of no elements: argmin index NO_INDEX', async () => {
      const r = await wg.reduce(new Uint32Array(0), { op: 'argmin' });
      return r.index === NO_INDEX ? '' : `index ${r.index}`;
    });
  },

  async count(wg) {
    const preds = [{ kind: 'nonzero' }, { kind: 'equal', a: 2 }, { kind: 'not-equal', a: 2 }, { kind: 'less', a: 1 },
      { kind: 'greater', a: 3 }, { kind: 'in-range', a: -2, b: 4 }];
    for (const type of ['u32', 'i32', 'f32']) {
      for (const predicate of preds) {
        if (type === 'u32' && predicate.a < 0) continue;
        for (const algorithm of quick ? [['tree', 'atomic'][rng() % 2]] : ['tree', 'atomic']) {
          const n = 1 + (rng() % 90000);
          const input = smallValues(type, n);
          await check(`count ${type} ${predicate.kind} ${algorithm} n=${n}`, async () => {
            const r = await wg.count(input, { predicate, algorithm });
            const w = referenceCount(input, type, predicate);
            return r.count === w ? '' : `${r.count}, want ${w}`;
          });
        }
      }
    }
  },

  async select(wg) {
    const cases = [];
    for (const type of ['u32', 'i32', 'f32']) {
      for (const n of quick ? [0, 4097] : [0, 1, 1023, 4097, 20011]) {
        cases.push({ type, n, mode: 'flagged' }, { type, n, mode: 'if', predicate: { kind: 'greater', a: 2 } },
          { type, n, mode: 'unique' }, { type, n, mode: 'run-length' });
      }
      cases.push({ type, n: 5000, mode: 'flagged', partition: true, payload: 'index' },
        { type, n: 5000, mode: 'if', predicate: { kind: 'less', a: 0 }, partition: true },
        { type, n: 30000, mode: 'if', predicate: { kind: 'in-range', a: 1, b: 3 }, payload: 'buffer' },
        { type, n: 30000, mode: 'flagged', algorithm: 'three-pass', payload: 'index' },
        { type, n: 30000, mode: 'unique', algorithm: 'single-pass' });
    }
    for (const c of cases) {
      const input = smallValues(c.type, c.n);
      const flags = Uint8Array.from({ length: c.n }, () => (rng() % 3 === 0 ? 1 + (rng() % 255) : 0));
      const payload = c.payload === 'buffer' ? Uint32Array.from({ length: c.n }, () => rng()) : c.payload;
      const name = `select ${c.type} ${c.mode}${c.partition ? ' partition' : ''}${c.payload ? ` payload ${c.payload}` : ''}${c.algorithm ? ` ${c.algorithm}` : ''} n=${c.n}`;
      await check(name, async () => {
        const opts = { mode: c.mode, predicate: c.predicate, partition: c.partition, payload, algorithm: c.algorithm };
        if (c.mode === 'flagged') opts.flags = flags;
        const r = await wg.select(input, opts);
        const w = referenceSelect(input, c.type, { ...opts, flags });
        if (r.count !== w.count) return `count ${r.count}, want ${w.count}`;
        return sameArray(r.output, w.output, 'output') || (w.payload ? sameArray(r.payload, w.payload, 'payload') : '');
      });
    }
    await check('partition, unique and runLengthEncode helpers', async () => {
      const input = new Int32Array([3, 3, -1, 4, 4, 4, -5, 3]);
      const p = await wg.partition(input, { predicate: { kind: 'less', a: 0 } });
      const u = await wg.unique(input);
      const rle = await wg.runLengthEncode(input);
      return sameArray(p.output, [-1, -5, 3, 3, 4, 4, 4, 3], 'partition') || (p.count === 2 ? '' : `partition count ${p.count}`)
        || sameArray(u.output, [3, -1, 4, -5, 3], 'unique')
        || sameArray(rle.values, [3, -1, 4, -5, 3], 'rle values') || sameArray(rle.lengths, [2, 1, 3, 1, 1], 'rle lengths');
    });
  },

  async histogram(wg) {
    const cases = [
      { type: 'u32', bins: 16, lower: 0, upper: 16 }, { type: 'u32', bins: 256, lower: 0, upper: 4294967296 },
      { type: 'i32', bins: 10, lower: -8, upper: 8 }, { type: 'i32', bins: 5000, lower: -2147483648, upper: 2147483648 },
      { type: 'f32', bins: 64, lower: -4, upper: 4 }, { type: 'f32', bins: 3, lower: -1, upper: 0.5 },
    ];
    for (const c of cases) {
      for (const n of quick ? [65537] : [0, 1, 65537]) {
        const input = c.upper - c.lower > 1e6 ? randomInput(c.type, 'xor', n, seed++) : smallValues(c.type, n);
        await check(`histogram ${c.type} ${c.bins} bins [${c.lower}, ${c.upper}) n=${n}`, async () => {
          const r = await wg.histogram(input, c);
          return sameArray(r.counts, referenceHistogram(input, c.type, c.bins, c.lower, c.upper));
        });
      }
    }
  },

  // The segmented reduce through the host helper: CSR offsets and begin/end arrays, empty
  // segments (many), one segment over everything, n = 0, against the reference; the
  // GPU's codes for offsets out of order and past n.
  async segmented(wg) {
    const layouts = (n) => {
      const fixed = [];
      for (let b = 0; b <= n; b += 16) fixed.push(b);
      if (fixed[fixed.length - 1] !== n) fixed.push(n);
      const random = [0];
      while (random[random.length - 1] < n) random.push(Math.min(n, random[random.length - 1] + (rng() % 3 === 0 ? 0 : rng() % 700)));
      return [['L=16', Uint32Array.from(fixed)], ['random with empty', Uint32Array.from(random)],
        ['one over all', Uint32Array.from([0, n])]];
    };
    const sameResult = (r, w, arg) => {
      for (let s = 0; s < w.length; s++) {
        const g = r.output[s], e = w[s];
        if (e.tolerance ? !(Math.abs(g - e.value) <= e.tolerance) : !(g === e.value || (Number.isNaN(g) && Number.isNaN(e.value)))) {
          return `segment ${s}: ${g}, want ${e.value}${e.tolerance ? ` ± ${e.tolerance}` : ''}`;
        }
        if (arg && r.index[s] !== e.index) return `segment ${s}: index ${r.index[s]}, want ${e.index}`;
      }
      return r.output.length === w.length ? '' : `${r.output.length} results, want ${w.length}`;
    };
    for (const type of ['u32', 'i32', 'f32']) {
      const ops = quickProduct ? ['add', 'argmax'].concat(type === 'f32' ? ['min'] : ['xor'])
        : ['add', 'min', 'max', 'argmin', 'argmax'].concat(type === 'f32' ? [] : ['and', 'or', 'xor']);
      for (const op of ops) {
        const n = 20011;
        const input = type === 'f32' ? randomInput('f32', op, n, seed++) : randomInput(type, op === 'add' ? 'xor' : op, n, seed++);
        const arg = op === 'argmin' || op === 'argmax';
        for (const [what, offsets] of quick ? layouts(n).slice(1, 2) : layouts(n)) {
          await check(`segmented reduce ${type} ${op} n=${n} ${what} (${offsets.length - 1} segments)`, async () => {
            const r = await wg.segmentedReduce(input, { op, offsets });
            return sameResult(r, referenceSegmentedReduce(input, type, op, offsets.subarray(0, -1), offsets.subarray(1)), arg);
          });
        }
      }
    }
    await check('segmented reduce, begin/end with gaps, argmin f32', async () => {
      const input = randomInput('f32', 'min', 5000, seed++);
      const begin = Uint32Array.from([0, 10, 10, 2500, 4999]), end = Uint32Array.from([5, 10, 2000, 4000, 5000]);
      const r = await wg.segmentedReduce(input, { op: 'argmin', begin, end });
      return sameResult(r, referenceSegmentedReduce(input, 'f32', 'argmin', begin, end), true);
    });
    await check('segmented reduce of no values: identities, NO_INDEX', async () => {
      const r = await wg.segmentedReduce(new Int32Array(0), { op: 'argmax', offsets: new Uint32Array([0, 0, 0, 0]) });
      return sameArray(r.output, [-2147483648, -2147483648, -2147483648], 'values') || sameArray(r.index, [NO_INDEX, NO_INDEX, NO_INDEX], 'indices');
    });
    await expectCode('segmented reduce, offsets out of order', ErrorCode.SEGMENTS_UNORDERED,
      () => wg.segmentedReduce(new Uint32Array(100), { offsets: new Uint32Array([0, 50, 40, 100]) }));
    await expectCode('segmented reduce, an offset past n', ErrorCode.SEGMENT_OUT_OF_RANGE,
      () => wg.segmentedReduce(new Uint32Array(100), { offsets: new Uint32Array([0, 50, 101]) }));
  },

  // Scan by key and reduce by key through the host helpers: runs of equal u32 and i32
  // keys and head flags (element 0 starting a segment whatever its flag), runs of one,
  // of random length and one over everything, n = 0, 1; the scan against the plain
  // scan's reference run per segment, reduce by key against referenceReduce per run.
  async bykey(wg) {
    const startsOf = (n, kind) => {
      const starts = n ? [0] : [];
      if (kind === 'one run') return starts;
      for (let at = 1; at < n; at += kind === 'runs of 1' ? 1 : 1 + rng() % 700) starts.push(at);
      return starts;
    };
    const keysFor = (n, starts, signed) => {
      const keys = signed ? new Int32Array(n) : new Uint32Array(n);
      let v = signed ? -3 : 4000000000, s = 0;
      for (let i = 0; i < n; i++) {
        if (s < starts.length && starts[s] === i) { v += 1 + rng() % 3; s++; }
        keys[i] = v;
      }
      return keys;
    };
    const flagsFor = (n, starts) => {
      const flags = new Uint8Array(n);
      for (const i of starts) flags[i] = 1 + rng() % 255;
      if (n) flags[0] = 0; // element 0 starts a segment all the same
      return flags;
    };
    const segmentsOk = (input, output, starts, type, op, inclusive) => {
      for (let k = 0; k < starts.length; k++) {
        const b = starts[k], e = k + 1 < starts.length ? starts[k + 1] : input.length;
        const r = verifyScan(input.subarray(b, e), output.subarray(b, e), type, op, inclusive);
        if (r.mismatches) return `segment ${k} [${b}, ${e}): ${r.mismatches} wrong, first at ${b + r.firstBad}: ${r.got}, want ${r.want}`;
      }
      return output.length === input.length ? '' : `${output.length} outputs, want ${input.length}`;
    };
    const layouts = quick ? ['random runs'] : ['random runs', 'runs of 1', 'one run'];
    for (const type of ['u32', 'i32', 'f32']) {
      const ops = quickProduct ? ['add', type === 'f32' ? 'max' : 'xor'] : ['add', 'min', 'max'].concat(type === 'f32' ? [] : ['and', 'or', 'xor']);
      for (const op of ops) {
        // Every layout and the smallest sizes with add; the other operators on random runs.
        for (const n of quick || op !== 'add' ? [10007] : [0, 1, 10007]) {
          const input = randomInput(type, op, n, seed++);
          for (const layout of n <= 1 ? ['one run'] : op === 'add' ? layouts : ['random runs']) {
            const starts = startsOf(n, layout);
            const kind = rng() % 2 ? 'inclusive' : 'exclusive';
            const signed = rng() % 2 === 1;
            await check(`scan by key ${type} ${op} ${kind} n=${n} ${layout}, ${signed ? 'i32' : 'u32'} keys`, async () => {
              const r = await wg.scanByKey(input, { op, kind, keys: keysFor(n, starts, signed) });
              return segmentsOk(input, r.output, starts, type, op, kind === 'inclusive');
            });
            await check(`scan by key ${type} ${op} ${kind} n=${n} ${layout}, flags`, async () => {
              const r = await wg.scanByKey(input, { op, kind, flags: flagsFor(n, starts) });
              return segmentsOk(input, r.output, starts, type, op, kind === 'inclusive');
            });
            await check(`reduce by key ${type} ${op} n=${n} ${layout}`, async () => {
              const keys = keysFor(n, starts, signed);
              const r = await wg.reduceByKey(keys, input, { op });
              if (r.numRuns !== starts.length) return `${r.numRuns} runs, want ${starts.length}`;
              for (let k = 0; k < starts.length; k++) {
                const b = starts[k], e = k + 1 < starts.length ? starts[k + 1] : n;
                const w = referenceReduce(input.subarray(b, e), type, op), g = r.aggregates[k];
                if (r.uniqueKeys[k] !== keys[b]) return `run ${k}: key ${r.uniqueKeys[k]}, want ${keys[b]}`;
                if (w.tolerance ? !(Math.abs(g - w.value) <= w.tolerance) : !(g === w.value || (Number.isNaN(g) && Number.isNaN(w.value)))) {
                  return `run ${k} [${b}, ${e}): ${g}, want ${w.value}${w.tolerance ? ` ± ${w.tolerance}` : ''}`;
                }
              }
              return '';
            });
          }
        }
      }
    }
    await check('reduce by key, argmin of i32 and argmax of f32: values and indices', async () => {
      for (const [type, op] of [['i32', 'argmin'], ['f32', 'argmax']]) {
        const n = 10007, input = randomInput(type, op, n, seed++);
        const starts = startsOf(n, 'random runs'), keys = keysFor(n, starts, false);
        const r = await wg.reduceByKey(keys, input, { op });
        if (r.numRuns !== starts.length) return `${type} ${op}: ${r.numRuns} runs, want ${starts.length}`;
        for (let k = 0; k < starts.length; k++) {
          const b = starts[k], e = k + 1 < starts.length ? starts[k + 1] : n;
          const w = referenceReduce(input.subarray(b, e), type, op), g = r.aggregates[k];
          if (!(g === w.value || (Number.isNaN(g) && Number.isNaN(w.value)))) return `${type} ${op} run ${k}: ${g}, want ${w.value}`;
          if (r.index[k] !== b + w.index) return `${type} ${op} run ${k}: index ${r.index[k]}, want ${b + w.index}`;
        }
      }
      return '';
    });
    await expectCode('reduce by key of f16 values', ErrorCode.INVALID_ARGUMENT,
      () => wg.reduceByKey(new Uint32Array(8), new Uint16Array(8), { type: 'f16' }));
    await expectCode('scan by key, xor of f32', ErrorCode.UNSUPPORTED_OPERATOR,
      () => wg.scanByKey(new Float32Array(8), { op: 'xor', keys: new Uint32Array(8) }));
    await expectCode('scan by key without keys or flags', ErrorCode.INVALID_ARGUMENT,
      () => wg.scanByKey(new Uint32Array(8), {}));
    await expectCode('reduce by key, keys and values of other lengths', ErrorCode.INVALID_ARGUMENT,
      () => wg.reduceByKey(new Uint32Array(8), new Uint32Array(7)));
  },

  // The segmented scan through the host helper and a plan: CSR offsets of L=16, random
  // lengths with empty segments, one over everything, elements before the first and
  // after the last offset, begin/end with gaps, n = 0 and 1; types x operators x kinds
  // (fewer with quick), against the scan's reference per segment and the identity in no
  // segment; the GPU's codes for bad offsets. The scan by key's carry-in from a value
  // (the host helper) and from a buffer (a plan on the page's buffers).
  async segscan(wg) {
    const identityOf = (type, op) => referenceReduce(new TypedArrayOf[type](0), type, op).value;
    const segmentsOk = (input, output, begin, end, type, op, inclusive) => {
      const inSeg = new Uint8Array(input.length);
      for (let s = 0; s < begin.length; s++) {
        const b = begin[s], e = end[s];
        const r = verifyScan(input.subarray(b, e), output.subarray(b, e), type, op, inclusive);
        if (r.mismatches) return `segment ${s} [${b}, ${e}): ${r.mismatches} wrong, first at ${b + r.firstBad}: ${r.got}, want ${r.want}`;
        inSeg.fill(1, b, e);
      }
      const id = identityOf(type, op);
      for (let i = 0; i < input.length; i++) {
        if (!inSeg[i] && output[i] !== id) return `element ${i} (in no segment): ${output[i]}, want the identity ${id}`;
      }
      return output.length === input.length ? '' : `${output.length} outputs, want ${input.length}`;
    };
    const layouts = (n) => {
      const fixed = [];
      for (let b = 0; b <= n; b += 16) fixed.push(b);
      if (fixed[fixed.length - 1] !== n) fixed.push(n);
      const random = [0];
      while (random[random.length - 1] < n) random.push(Math.min(n, random[random.length - 1] + (rng() % 3 === 0 ? 0 : rng() % 700)));
      const inner = [Math.min(n, 37)];
      while (inner[inner.length - 1] < n - 50) inner.push(Math.min(n - 50, inner[inner.length - 1] + rng() % 300));
      return [['L=16', Uint32Array.from(fixed)], ['random with empty', Uint32Array.from(random)],
        ['one over all', Uint32Array.from([0, n])], ['before the first and after the last', Uint32Array.from(inner)]];
    };
    for (const type of ['u32', 'i32', 'f32']) {
      const ops = quickProduct ? ['add', type === 'f32' ? 'max' : 'xor'] : ['add', 'min', 'max'].concat(type === 'f32' ? [] : ['and', 'or', 'xor']);
      for (const op of ops) {
        for (const kind of ['exclusive', 'inclusive']) {
          const n = 10007;
          const input = randomInput(type, op, n, seed++);
          for (const [what, offsets] of quick ? layouts(n).slice(1, 2) : layouts(n)) {
            await check(`segmented scan ${type} ${op} ${kind} n=${n} ${what} (${offsets.length - 1} segments)`, async () => {
              const r = await wg.segmentedScan(input, { op, kind, offsets });
              return segmentsOk(input, r.output, offsets.subarray(0, -1), offsets.subarray(1), type, op, kind === 'inclusive');
            });
          }
        }
      }
    }
    await check('segmented scan, begin/end with gaps, f32 add inclusive', async () => {
      const input = randomInput('f32', 'add', 5000, seed++);
      const begin = Uint32Array.from([3, 10, 10, 2500, 4999]), end = Uint32Array.from([5, 10, 2000, 4000, 5000]);
      const r = await wg.segmentedScan(input, { kind: 'inclusive', begin, end });
      return segmentsOk(input, r.output, begin, end, 'f32', 'add', true);
    });
    await check('segmented scan of n = 0 and 1', async () => {
      const r0 = await wg.segmentedScan(new Uint32Array(0), { offsets: new Uint32Array([0, 0, 0]) });
      const r1 = await wg.segmentedScan(new Int32Array([-7]), { op: 'min', kind: 'inclusive', offsets: new Uint32Array([0, 1]) });
      return sameArray(r0.output, [], 'n = 0') || sameArray(r1.output, [-7], 'n = 1');
    });
    await expectCode('segmented scan, offsets out of order', ErrorCode.SEGMENTS_UNORDERED,
      () => wg.segmentedScan(new Uint32Array(100), { offsets: new Uint32Array([0, 50, 40, 100]) }));
    await expectCode('segmented scan, an offset past n', ErrorCode.SEGMENT_OUT_OF_RANGE,
      () => wg.segmentedScan(new Uint32Array(100), { begin: new Uint32Array([0, 50]), end: new Uint32Array([50, 101]) }));
    await expectCode('segmented scan, xor of f32', ErrorCode.UNSUPPORTED_OPERATOR,
      () => wg.segmentedScan(new Float32Array(8), { op: 'xor', offsets: new Uint32Array([0, 8]) }));

    // The carry-in joins the first run: checked as the scan of [carry, values] whose
    // second element continues the carry's run, from its second output on.
    for (const [type, op, carry] of [['u32', 'add', 4000000000], ['i32', 'max', 12345], ['f32', 'add', 0.625]]) {
      for (const kind of ['exclusive', 'inclusive']) {
        await check(`scan by key ${type} ${op} ${kind}, a carry-in from a value`, async () => {
          const n = 5003, first = 2100;
          const input = randomInput(type, op, n, seed++);
          const flags = new Uint8Array(n);
          flags[first] = 1;
          flags[4000] = 1;
          const r = await wg.scanByKey(input, { op, kind, flags, initValue: carry });
          const withCarry = new TypedArrayOf[type](first + 1), out = new TypedArrayOf[type](first + 1);
          withCarry[0] = carry;
          withCarry.set(input.subarray(0, first), 1);
          out[0] = kind === 'inclusive' ? carry : identityOf(type, op);
          out.set(r.output.subarray(0, first), 1);
          const c = verifyScan(withCarry, out, type, op, kind === 'inclusive');
          if (c.mismatches) return `first run: ${c.mismatches} wrong, first at ${c.firstBad - 1}: ${c.got}, want ${c.want}`;
          const b = verifyScan(input.subarray(first, 4000), r.output.subarray(first, 4000), type, op, kind === 'inclusive');
          return b.mismatches ? `second run: ${b.mismatches} wrong` : '';
        });
      }
    }
    await check('scan by key plan, a carry-in from a buffer: two chunks give the whole scan', async () => {
      const dev = wg.device;
      const U = GPUBufferUsage;
      const n = 6000, m = 4096; // chunk 2 at element m: offsets 4m, a multiple of 256
      const input = randomInput('u32', 'add', n, seed++);
      const keys = Uint32Array.from({ length: n }, (_, i) => (i < 300 ? 1 : i < 5000 ? 2 : 3)); // a run across m
      const buf = (size, data) => {
        const b = dev.createBuffer({ size, usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
        if (data) dev.queue.writeBuffer(b, 0, data);
        return b;
      };
      const inBuf = buf(n * 4, input), keyBuf = buf(n * 4, keys), out1 = buf(n * 4), out2 = buf(n * 4), carry = buf(256);
      const plan = wg.createScanByKeyPlan({ kind: 'inclusive', capacity: n });
      const enc = dev.createCommandEncoder();
      plan.encode(enc, { keys: keyBuf, input: inBuf, output: out1, n: m });
      enc.copyBufferToBuffer(out1, (m - 1) * 4, carry, 0, 4);
      plan.encode(enc, { keys: keyBuf, keysOffset: m * 4, input: inBuf, inputOffset: m * 4, output: out2,
        outputOffset: m * 4, n: n - m, initBuffer: carry });
      const staging = dev.createBuffer({ size: 2 * n * 4, usage: U.MAP_READ | U.COPY_DST });
      enc.copyBufferToBuffer(out1, 0, staging, 0, n * 4);
      enc.copyBufferToBuffer(out2, 0, staging, n * 4, n * 4);
      dev.queue.submit([enc.finish()]);
      await wg.errors();
      await staging.mapAsync(GPUMapMode.READ);
      const all = new Uint32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      plan.destroy();
      for (const b of [inBuf, keyBuf, out1, out2, carry, staging]) b.destroy();
      const got = new Uint32Array(n);
      got.set(all.subarray(0, m));
      got.set(all.subarray(n + m, 2 * n), m);
      const whole = await wg.scanByKey(input, { kind: 'inclusive', keys });
      return sameArray(got, whole.output, 'chunks');
    });
    await expectCode('scan by key, a carry-in that is no u32', ErrorCode.INVALID_ARGUMENT,
      () => wg.scanByKey(new Uint32Array(8), { flags: new Uint8Array(8), initValue: -1 }));
  },

  async alloc(wg) {
    for (const algorithm of ['scan', 'atomic']) {
      for (const [n, arena, top] of [[0, 100, 7], [1, 1000, 0], [4097, 1 << 20, 5], [100003, 3000000, 0]]) {
        const sizes = Uint32Array.from({ length: n }, () => 1 + (rng() % 64));
        await check(`allocate ${algorithm} n=${n} arena ${arena} top ${top}`, async () => {
          const r = await wg.allocate(sizes, { arenaSize: arena, top, algorithm });
          if (algorithm === 'atomic') return checkAtomicAllocation(sizes, arena, top, r.offsets, r.top);
          const w = referenceAllocate(sizes, arena, top);
          return sameArray(r.offsets, w.offsets, 'offsets') || (r.top === w.top ? '' : `top ${r.top}, want ${w.top}`);
        });
      }
    }
    await check('allocate: a full arena fails with ALLOC_FAILED', async () => {
      const r = await wg.allocate(new Uint32Array([6, 6, 1]), { arenaSize: 10 });
      return sameArray(r.offsets, [0, ALLOC_FAILED, ALLOC_FAILED]) || (r.top === 6 ? '' : `top ${r.top}`);
    });
  },

  // The radix sort: every key type x order x keys / pairs / indices at the size
  // boundaries (tiles of 256 or 2048 keys on SwiftShader), then f32 edges, 8-byte values,
  // bit ranges, both algorithms, plans in place on the page's buffers, bad inputs.
  // Each key type, order and value width compiles pipelines of its own (seconds apiece
  // on SwiftShader), so quick mode takes ascending keys and descending pairs and indices
  // of each type, and the cases marked quick, whose pipelines those compiled.
  async sort(wg) {
    const quick = quickProduct;
    const sizes = quick ? [0, 2, 2049, 20011] : [0, 1, 2, 255, 257, 2047, 2048, 2049, 4097, 30011];
    // Quick: one (order, payload) a type, in turn (each is a plan's pipelines to compile).
    const combos = [['ascending', 'keys'], ['descending', 'pairs'], ['descending', 'indices']];
    for (const [ti, type] of ['u32', 'i32', 'f32', 'u64', 'i64'].entries()) {
      for (const order of ['ascending', 'descending']) {
        for (const with_ of ['keys', 'pairs', 'indices']) {
          if (quick && (order !== combos[ti % 3][0] || with_ !== combos[ti % 3][1])) continue;
          for (const n of sizes) {
            const keys = sortKeys(type, n, with_ === 'keys' ? 'uniform' : 'few');
            const values = with_ === 'pairs' ? sortValues(n) : with_ === 'indices' ? 'index' : undefined;
            await check(`sort ${type} ${order} ${with_} n=${n}`, async () => {
              const r = await wg.sort(keys, { order, values });
              return sameSort(r, referenceSort(keys, type, { order, values }));
            });
          }
        }
      }
    }
    const cases = [
      { type: 'f32', n: 5000, dist: 'edges', quick: true },
      { type: 'f32', n: 5000, dist: 'edges', values: 'index' },
      { type: 'f32', n: 5000, dist: 'edges', order: 'descending', values: 'index', quick: true },
      { type: 'f32', n: 3001, dist: 'edges', values: Uint32Array, beginBit: 23, endBit: 32 },
      { type: 'u32', n: 4097, values: Float64Array },
      { type: 'i64', n: 20011, order: 'descending', values: BigUint64Array, quick: true },
      { type: 'u32', n: 4097, values: Uint32Array, beginBit: 4, endBit: 12 },
      { type: 'u32', n: 4097, values: Uint32Array, beginBit: 4, endBit: 12, order: 'descending', quick: true },
      { type: 'u32', n: 4097, values: Int32Array, beginBit: 0, endBit: 1 },
      { type: 'u32', n: 4097, values: Uint32Array, beginBit: 5, endBit: 5 }, // no bits: the order stays
      { type: 'i32', n: 4097, values: 'index', beginBit: 16, endBit: 32, order: 'descending' },
      { type: 'i64', n: 4097, values: 'index', beginBit: 28, endBit: 36, order: 'descending', quick: true },
      { type: 'u64', n: 4097, values: Uint32Array, beginBit: 33, endBit: 63 },
      { type: 'u32', n: 20011, algorithm: 'onesweep', quick: true },
      { type: 'u64', n: 20011, values: Float32Array, algorithm: 'onesweep', order: 'descending' },
      { type: 'i32', n: 20011, values: 'index', algorithm: 'reduce-scan' },
    ];
    for (const c of quick ? cases.filter((x) => x.quick) : cases) {
      const keys = sortKeys(c.type, c.n, c.dist ?? 'few');
      const values = typeof c.values === 'function' ? sortValues(c.n, c.values) : c.values;
      const opts = { order: c.order, beginBit: c.beginBit, endBit: c.endBit, algorithm: c.algorithm, values };
      const name = `sort ${c.type} ${c.order ?? 'ascending'}${c.dist ? ` ${c.dist}` : ''}${values ? ` values ${c.values.name ?? c.values}` : ''}`
        + `${c.endBit !== undefined ? ` bits ${c.beginBit}:${c.endBit}` : ''}${c.algorithm ? ` ${c.algorithm}` : ''} n=${c.n}`;
      await check(name, async () => sameSort(await wg.sort(keys, opts), referenceSort(keys, c.type, opts)));
    }
    await check('sort: f32 keys given as their bits (a Uint32Array, type f32)', async () => {
      const bits = new Uint32Array([0x80000000, 0x00000000, 0xFFC00001, 0x7FC00000, 0xBF800000, 0x7F800000, 0x00000001]);
      const r = await wg.sort(bits, { type: 'f32' });
      return sameArray(r.keys, [0xFFC00001, 0xBF800000, 0x80000000, 0x00000000, 0x00000001, 0x7F800000, 0x7FC00000]);
    });

    // Plans on the page's buffers: in place (keys and values), out of place with the
    // input left as it was, and two sorts of different n in one encoder.
    const dev = wg.device;
    const U = GPUBufferUsage;
    const upload = (a, size) => uploadTo(dev, a, size);
    const download = (bufs) => downloadFrom(dev, bufs);
    await check('sort plans: in place, out of place, two sorts in one encoder', async () => {
      const n1 = 4097, n2 = 3001;
      const k1 = sortKeys('u32', n1, 'few'), v1 = sortValues(n1), k2 = sortKeys('f32', n2, 'edges'), k3 = sortKeys('i64', n2, 'uniform');
      const pairs = wg.createSortPlan({ payload: 'buffer', order: 'descending', capacity: n1 });
      const floats = wg.createSortPlan({ type: 'f32', capacity: n1 });
      const wide = wg.createSortPlan({ type: 'i64', order: 'descending', payload: 'index', capacity: n2 });
      const bk1 = upload(k1), bv1 = upload(v1), bk2 = upload(k2), bk3 = upload(k3);
      const bk3o = upload(new Uint8Array(n2 * 8)), bi3 = upload(new Uint8Array(n2 * 4));
      const enc = dev.createCommandEncoder();
      pairs.encode(enc, { keysIn: bk1, keysOut: bk1, valuesIn: bv1, valuesOut: bv1, n: n1 });
      floats.encode(enc, { keysIn: bk2, keysOut: bk2, n: n2 });
      floats.encode(enc, { keysIn: bk2, keysOut: bk2, n: 7 }); // a sorted prefix stays sorted
      wide.encode(enc, { keysIn: bk3, keysOut: bk3o, valuesOut: bi3, n: n2 });
      dev.queue.submit([enc.finish()]);
      await wg.errors();
      const [gk1, gv1, gk2, gk3, gk3o, gi3] = await download([bk1, bv1, bk2, bk3, bk3o, bi3]);
      for (const p of [pairs, floats, wide]) p.destroy();
      for (const b of [bk1, bv1, bk2, bk3, bk3o, bi3]) b.destroy();
      const w1 = referenceSort(k1, 'u32', { order: 'descending', values: v1 });
      const w2 = referenceSort(k2, 'f32');
      const w3 = referenceSort(k3, 'i64', { order: 'descending', values: 'index' });
      return sameSort({ keys: new Uint32Array(gk1, 0, n1), values: new Uint32Array(gv1, 0, n1) }, w1)
        || sameSort({ keys: new Float32Array(gk2, 0, n2) }, w2)
        || sameArray(new BigInt64Array(gk3, 0, n2), k3, 'the input of an out-of-place sort ')
        || sameSort({ keys: new BigInt64Array(gk3o, 0, n2), values: new Uint32Array(gi3, 0, n2) }, w3);
    });

    // Bad inputs, with the library's codes.
    const E = ErrorCode;
    await expectCode('sort: bit range past a u32 key', E.INVALID_ARGUMENT, () => wg.createSortPlan({ endBit: 33 }));
    await expectCode('sort: bit range past a u64 key', E.INVALID_ARGUMENT, () => wg.createSortPlan({ type: 'u64', endBit: 65 }));
    await expectCode('sort: bit range out of order', E.INVALID_ARGUMENT, () => wg.createSortPlan({ beginBit: 9, endBit: 8 }));
    await expectCode('sort: endBit past 32 bits is not wrapped', E.INVALID_ARGUMENT, () => wg.createSortPlan({ endBit: 2 ** 32 + 8 }));
    await expectCode('sort: value bytes 2', E.INVALID_ARGUMENT, () => wg.createSortPlan({ payload: 'buffer', valueBytes: 2 }));
    await expectCode('sort: value bytes without values', E.INVALID_ARGUMENT, () => wg.createSortPlan({ valueBytes: 4 }));
    await expectCode('sort: f16 keys', E.UNSUPPORTED_TYPE, () => wg.createSortPlan({ type: 'f16' }));
    await expectCode('sort: unknown key type', E.INVALID_ARGUMENT, () => wg.createSortPlan({ type: 'u16' }));
    await expectCode('sort: unknown algorithm', E.INVALID_ARGUMENT, () => wg.createSortPlan({ algorithm: 'bitonic' }));
    await expectCode('sort: onesweep of 2^30 keys', E.TOO_LARGE, () => wg.createSortPlan({ algorithm: 'onesweep', capacity: 2 ** 30 }));
    await expectCode('sort: keys in a plain array', E.INVALID_ARGUMENT, () => wg.sort([3, 1, 2]));
    await expectCode('sort: Uint16Array keys', E.INVALID_ARGUMENT, () => wg.sort(new Uint16Array(4)));
    await expectCode('sort: type u64 on 4-byte keys', E.INVALID_ARGUMENT, () => wg.sort(new Uint32Array(4), { type: 'u64' }));
    await expectCode('sort: 2-byte values', E.INVALID_ARGUMENT, () => wg.sort(new Uint32Array(4), { values: new Uint16Array(4) }));
    await expectCode('sort: fewer values than keys', E.INVALID_ARGUMENT, () => wg.sort(new Uint32Array(4), { values: new Uint32Array(3) }));
    const plan = wg.createSortPlan({ payload: 'buffer', capacity: 100 });
    const k = dev.createBuffer({ size: 1024, usage: U.STORAGE }), k2 = dev.createBuffer({ size: 512, usage: U.STORAGE });
    const v = dev.createBuffer({ size: 512, usage: U.STORAGE }), v2 = dev.createBuffer({ size: 512, usage: U.STORAGE });
    const enc = dev.createCommandEncoder();
    const args = { keysIn: k, keysOut: k2, valuesIn: v, valuesOut: v2, n: 100 };
    await expectCode('sort: n above capacity', E.CAPACITY_EXCEEDED, () => plan.encode(enc, { ...args, n: 101 }));
    await expectCode('sort: pairs without valuesIn', E.INVALID_ARGUMENT, () => plan.encode(enc, { ...args, valuesIn: undefined }));
    await expectCode('sort: values in the keys\' buffer', E.ALIASING, () => plan.encode(enc, { ...args, valuesIn: k }));
    await expectCode('sort: keysOut too small', E.BUFFER_TOO_SMALL, () => plan.encode(enc, { ...args, keysOutOffset: 256 }));
    await expectCode('sort: keysOut misaligned', E.MISALIGNED_OFFSET, () => plan.encode(enc, { ...args, keysOutOffset: 4 }));
    await expectCode('sort: keysOut in keysIn at another offset', E.ALIASING, () => plan.encode(enc, { ...args, keysOut: k, keysOutOffset: 256 }));
    plan.destroy();
    for (const b of [k, k2, v, v2]) b.destroy();
  },

  // Top-k (issue 36) through the host helper and a plan on the page's buffers, against
  // referenceTopk: k = 1, k at a tile's borders (512 keys a tile on CPU drivers, 2048 on
  // GPUs: both), k = n, ties (few distinct keys, all equal: the indices say which were
  // taken), the f32 edges (NaNs, -0, infinities) in the sort's order, both selects and
  // outputs, values and indices, several rows; bad inputs with their codes. Four sets of
  // pipelines (type, select, output and payload choose them).
  async topk(wg) {
    const cases = [
      { type: 'f32', values: 'index', n: 2049, ks: [1, 511, 512, 513, 2047, 2048, 2049], dists: ['edges', 'few'] },
      // (quick: no second multi-pass set for the smallest f32, one row kernel fewer for i32)
      { type: 'f32', select: 'smallest', values: 'index', n: 2049, ks: quick ? [1, 513] : [1, 513, 2049], dists: ['edges'] },
      { type: 'u32', output: 'input-order', values: Uint32Array, rows: 3, n: 700, ks: [1, 50, 513, 700], dists: ['few', 'uniform'] },
      { type: 'i32', select: 'smallest', rows: 5, n: 600, ks: quick ? [1, 600] : [1, 511, 600], dists: ['few'] },
    ];
    for (const c of cases) {
      const rows = c.rows ?? 1;
      for (const dist of c.dists) {
        const keys = sortKeys(c.type, rows * c.n, dist);
        const values = typeof c.values === 'function' ? sortValues(rows * c.n, c.values) : c.values;
        for (const k of c.ks) {
          const opts = { k, rows, select: c.select, output: c.output, values };
          await check(`topk ${c.type} ${c.select ?? 'largest'} ${c.output ?? 'sorted'} ${dist}${values ? ` values ${c.values.name ?? c.values}` : ''} rows=${rows} n=${c.n} k=${k}`,
            async () => sameSort(await wg.topk(keys, opts), referenceTopk(keys, c.type, opts)));
        }
      }
    }
    await check('topk f32: +NaN the largest, -NaN the smallest, +0 above -0 (the sort\'s order)', async () => {
      const bits = new Uint32Array([0x00000000, 0x7FC00000, 0x80000000, 0xFFC00001, 0x3F800000, 0x7F800000, 0xFF800000]);
      const big = await wg.topk(bits, { type: 'f32', k: 5, values: 'index' });
      const small = await wg.topk(bits, { type: 'f32', k: 5, select: 'smallest', values: 'index' });
      return sameArray(big.keys, [0x7FC00000, 0x7F800000, 0x3F800000, 0x00000000, 0x80000000], 'largest ')
        || sameArray(big.values, [1, 5, 4, 0, 2], 'largest\'s indices ')
        || sameArray(small.keys, [0xFFC00001, 0xFF800000, 0x80000000, 0x00000000, 0x3F800000], 'smallest ')
        || sameArray(small.values, [3, 6, 2, 0, 4], 'smallest\'s indices ');
    });
    await check('topk f32: all keys equal, the first k indices', async () => {
      const r = await wg.topk(new Float32Array(1000).fill(2.5), { k: 700, values: 'index' });
      return sameArray(r.values, Array.from({ length: 700 }, (_, i) => i));
    });
    if (!quickProduct) {
      // Past 4096 the plan's own radix sort orders the k (one row).
      const keys = sortKeys('f32', 5000, 'few');
      await check('topk f32 largest sorted k=4097 (by the sort plan) n=5000', async () =>
        sameSort(await wg.topk(keys, { k: 4097, values: 'index' }), referenceTopk(keys, 'f32', { k: 4097, values: 'index' })));
    }
    await check('prepare knows topk (cached pipelines: none compiled)', async () => {
      const compiled = await wg.prepare([{ primitive: 'topk', type: 'f32', payload: 'index', capacity: 4096, kCapacity: 1 }]);
      return compiled === 0 ? '' : `prepare compiled ${compiled}`;
    });

    // A plan on the page's buffers: rows at offsets, the rows of the plan fewer than its
    // capacity, and the keys left as they were.
    const dev = wg.device;
    const U = GPUBufferUsage;
    const plan = wg.createTopkPlan({ type: 'f32', payload: 'index', capacity: 1000, kCapacity: 64, rowCapacity: 4 });
    await check('topk plan: 3 rows of 1000 f32, k = 64, at offsets', async () => {
      const rows = 3, n = 1000, k = 64;
      const keys = sortKeys('f32', rows * n, 'edges');
      const bk = uploadTo(dev, new Uint8Array(256 + rows * n * 4)), bo = uploadTo(dev, new Uint8Array(256 + rows * k * 4));
      const bi = uploadTo(dev, new Uint8Array(rows * k * 4));
      dev.queue.writeBuffer(bk, 256, keys);
      const enc = dev.createCommandEncoder();
      plan.encode(enc, { keysIn: bk, keysInOffset: 256, keysOut: bo, keysOutOffset: 256, valuesOut: bi, n, rows, k });
      dev.queue.submit([enc.finish()]);
      await wg.errors();
      const [gk, go, gi] = await downloadFrom(dev, [bk, bo, bi]);
      for (const b of [bk, bo, bi]) b.destroy();
      return sameSort({ keys: new Float32Array(go, 256, rows * k), values: new Uint32Array(gi, 0, rows * k) },
        referenceTopk(keys, 'f32', { k, rows, values: 'index' }))
        || sameArray(new Uint32Array(gk, 256, rows * n), bitsOf32or64(keys), 'the keys after ');
    });

    const E = ErrorCode;
    await expectCode('topk: no k', E.INVALID_ARGUMENT, () => wg.topk(new Uint32Array(8)));
    await expectCode('topk: k = 0', E.INVALID_ARGUMENT, () => wg.topk(new Uint32Array(8), { k: 0 }));
    await expectCode('topk: k past n', E.INVALID_ARGUMENT, () => wg.topk(new Uint32Array(8), { k: 5, rows: 2 }));
    await expectCode('topk: rows that do not divide the keys', E.INVALID_ARGUMENT, () => wg.topk(new Uint32Array(8), { k: 1, rows: 3 }));
    await expectCode('topk: no keys', E.INVALID_ARGUMENT, () => wg.topk(new Float32Array(0), { k: 1 }));
    await expectCode('topk: 8-byte values', E.INVALID_ARGUMENT, () => wg.topk(new Uint32Array(8), { k: 1, values: new Float64Array(8) }));
    await expectCode('topk: u64 keys', E.UNSUPPORTED_TYPE, () => wg.topk(new BigUint64Array(8), { k: 1 }));
    await expectCode('topk: f16 keys', E.UNSUPPORTED_TYPE, () => wg.createTopkPlan({ type: 'f16' }));
    await expectCode('topk: unknown select', E.INVALID_ARGUMENT, () => wg.createTopkPlan({ select: 'median' }));
    await expectCode('topk: kCapacity past capacity', E.INVALID_ARGUMENT, () => wg.createTopkPlan({ capacity: 10, kCapacity: 11 }));
    await expectCode('topk: sorted, k past 4096, two rows', E.TOO_LARGE,
      () => wg.createTopkPlan({ capacity: 5000, kCapacity: 4097, rowCapacity: 2 }));
    const keysBuf = dev.createBuffer({ size: 16384, usage: U.STORAGE }), out = dev.createBuffer({ size: 1024, usage: U.STORAGE });
    const idx = dev.createBuffer({ size: 1024, usage: U.STORAGE });
    const args = { keysIn: keysBuf, keysOut: out, valuesOut: idx, n: 1000, rows: 2, k: 64 };
    const enc = dev.createCommandEncoder();
    await expectCode('topk plan: k past kCapacity', E.CAPACITY_EXCEEDED, () => plan.encode(enc, { ...args, k: 65 }));
    await expectCode('topk plan: rows past rowCapacity', E.CAPACITY_EXCEEDED, () => plan.encode(enc, { ...args, rows: 5 }));
    await expectCode('topk plan: n past capacity', E.CAPACITY_EXCEEDED, () => plan.encode(enc, { ...args, n: 1001 }));
    await expectCode('topk plan: k past n', E.INVALID_ARGUMENT, () => plan.encode(enc, { ...args, n: 10, k: 11 }));
    await expectCode('topk plan: rows 2^32 are not wrapped', E.CAPACITY_EXCEEDED, () => plan.encode(enc, { ...args, rows: 2 ** 32 + 1 }));
    await expectCode('topk plan: no indices buffer', E.INVALID_ARGUMENT, () => plan.encode(enc, { ...args, valuesOut: undefined }));
    await expectCode('topk plan: keysOut too small', E.BUFFER_TOO_SMALL, () => plan.encode(enc, { ...args, keysOutOffset: 768 }));
    await expectCode('topk plan: keysOut is keysIn', E.ALIASING, () => plan.encode(enc, { ...args, keysOut: keysBuf }));
    await expectCode('topk plan: counts from the GPU', E.INVALID_ARGUMENT, () => plan.encode(enc, { ...args, nBuffer: idx }));
    plan.destroy();
    for (const b of [keysBuf, out, idx]) b.destroy();
  },

  // The segmented sort (issue 36) through the host helper and a plan, against
  // referenceSegmentedSort: many tiny segments, random lengths with empty ones, one
  // segment of all, lengths at the plan's tiles' borders (with keys before the first and
  // after the last segment, which stay as they were), no keys; offsets and begin/end
  // (gaps); the paths forced; bad offsets with the GPU's codes. Three sets of pipelines:
  // u32 with indices (both paths), f32 descending with values (the large path only with
  // &full=1), i64 with 8-byte values (the small path).
  async segsort(wg) {
    const probe = wg.createSegmentedSortPlan({ payload: 'index', capacity: 1 });
    const t = probe.tileSize();
    probe.destroy();
    const csr = (lengths, first = 0) => {
      const o = [first];
      for (const l of lengths) o.push(o[o.length - 1] + l);
      return Uint32Array.from(o);
    };
    // n holds the border lengths after 5 keys, and 7 keys after them: the tile is the
    // device's (256 on SwiftShader, 4096 on an H100), and with n fixed at 3001 the last
    // offsets fell past n there (SEGMENT_OUT_OF_RANGE, issue 34's H100 run).
    const borders = [0, 1, 31, 32, 33, 63, 64, 65, t - 1, t, t + 1, 511, 512, 513];
    const n = Math.max(3001, 5 + borders.reduce((a, b) => a + b, 0) + 7);
    const tiny = [], random = [];
    while (tiny.length < 900) tiny.push(rng() % 6 === 0 ? 0 : rng() % 5);
    for (let at = 0; at < n;) { const l = Math.min(n - at, rng() % 3 === 0 ? 0 : rng() % (2 * t + 100)); random.push(l); at += l; }
    const layouts = [
      ['many tiny', csr(tiny)], ['random with empty', csr(random)], ['one of all', csr([n])],
      [`tile borders (tile ${t}), keys in no segment`, csr(borders, 5)],
    ];
    for (const [what, offsets] of layouts) {
      const begin = offsets.subarray(0, -1), end = offsets.subarray(1);
      for (const [dist, path] of [['few', 'auto'], ['uniform', 'large']]) {
        if (path === 'large' && what === 'many tiny') continue;
        const keys = sortKeys('u32', n, dist);
        await check(`segmented sort u32 indices ${what} (${begin.length} segments) ${dist} path ${path}`, async () =>
          sameSort(await wg.segmentedSort(keys, { offsets, values: 'index', path }),
            referenceSegmentedSort(keys, 'u32', begin, end, { values: 'index' })));
      }
    }
    await check('segmented sort of no keys, three empty segments', async () => {
      const r = await wg.segmentedSort(new Uint32Array(0), { offsets: new Uint32Array([0, 0, 0, 0]), values: 'index' });
      return r.keys.length === 0 && r.values.length === 0 ? '' : `${r.keys.length} keys`;
    });
    // The large path compiles two sort plans of the key type: f32's only in the full run,
    // where one segment is longer than the tile.
    const floatPath = quickProduct ? 'small' : 'auto';
    await check(`segmented sort f32 descending, values, begin/end with gaps, edges, path ${floatPath}`, async () => {
      const m = 2 * t + 100, longest = floatPath === 'small' ? t : t + 47;
      const keys = sortKeys('f32', m, 'edges'), values = sortValues(m, Float32Array);
      const begin = Uint32Array.from([3, 10, 10, 40, 41, 50, 50 + t, m - 1]);
      const end = Uint32Array.from([9, 10, 40, 41, 50, 50 + t, 50 + t + longest, m]);
      const opts = { order: 'descending', values, path: floatPath };
      return sameSort(await wg.segmentedSort(keys, { ...opts, begin, end }), referenceSegmentedSort(keys, 'f32', begin, end, opts));
    });
    await check('segmented sort i64 descending, 8-byte values, path small', async () => {
      const m = 2000, lengths = [];
      for (let at = 0; at < m;) { const l = Math.min(m - at, rng() % (t + 1)); lengths.push(l); at += l; }
      const offsets = csr(lengths), keys = sortKeys('i64', m, 'few'), values = sortValues(m, BigUint64Array);
      const opts = { order: 'descending', values };
      return sameSort(await wg.segmentedSort(keys, { ...opts, offsets, path: 'small' }),
        referenceSegmentedSort(keys, 'i64', offsets.subarray(0, -1), offsets.subarray(1), opts));
    });
    await check('prepare knows segmentedSort (cached pipelines: none compiled)', async () => {
      const compiled = await wg.prepare([{ primitive: 'segmentedSort', payload: 'index', path: 'small', capacity: 1 }]);
      return compiled === 0 ? '' : `prepare compiled ${compiled}`;
    });

    // A plan on the page's buffers: the segment count from the GPU (2 of 4), so the last
    // two segments are not written.
    const dev = wg.device;
    const U = GPUBufferUsage;
    const plan = wg.createSegmentedSortPlan({ payload: 'index', capacity: 1000, segmentCapacity: 4 });
    await check('segmented sort plan: nSegmentsBuffer 2 of 4 segments', async () => {
      const m = 1000, keys = sortKeys('u32', m, 'few'), offsets = Uint32Array.from([0, 100, 700, 800, 1000]);
      const guard = new Uint32Array(m).fill(0xC3C3C3C3);
      const bk = uploadTo(dev, keys), bo = uploadTo(dev, guard), bi = uploadTo(dev, guard), boff = uploadTo(dev, offsets);
      const bs = uploadTo(dev, new Uint32Array([0xFFFF])), bcount = uploadTo(dev, new Uint32Array([2]));
      const enc = dev.createCommandEncoder();
      plan.encode(enc, { keysIn: bk, keysOut: bo, valuesOut: bi, n: m, offsets: boff, nSegments: 4, status: bs,
        nSegmentsBuffer: bcount });
      dev.queue.submit([enc.finish()]);
      await wg.errors();
      const [go, gi, gs] = await downloadFrom(dev, [bo, bi, bs]);
      for (const b of [bk, bo, bi, boff, bs, bcount]) b.destroy();
      const want = referenceSegmentedSort(keys, 'u32', offsets.subarray(0, 2), offsets.subarray(1, 3), { values: 'index' });
      return sameArray(new Uint32Array(gs, 0, 1), [0], 'status ')
        || sameSort({ keys: new Uint32Array(go, 0, 700), values: new Uint32Array(gi, 0, 700) },
          { keys: want.keys.subarray(0, 700), values: want.values.subarray(0, 700) })
        || sameArray(new Uint32Array(go, 2800, 300), guard.subarray(700), 'keys past the counted segments ');
    });

    const E = ErrorCode;
    await expectCode('segmented sort: offsets out of order', E.SEGMENTS_UNORDERED,
      () => wg.segmentedSort(new Uint32Array(100), { offsets: new Uint32Array([0, 50, 40, 100]), values: 'index' }));
    await expectCode('segmented sort: an offset past n', E.SEGMENT_OUT_OF_RANGE,
      () => wg.segmentedSort(new Uint32Array(100), { offsets: new Uint32Array([0, 50, 101]), values: 'index' }));
    await expectCode('segmented sort: a begin past its end', E.SEGMENTS_UNORDERED,
      () => wg.segmentedSort(new Float32Array(100), { begin: new Uint32Array([0, 60]), end: new Uint32Array([50, 55]),
        order: 'descending', values: new Float32Array(100) }));
    await expectCode(`segmented sort: path small, a segment of tile + 1 = ${t + 1}`, E.TOO_LARGE,
      () => wg.segmentedSort(new Uint32Array(t + 1), { offsets: new Uint32Array([0, t + 1]), values: 'index', path: 'small' }));
    await expectCode('segmented sort: offsets not a Uint32Array', E.INVALID_ARGUMENT,
      () => wg.segmentedSort(new Uint32Array(4), { offsets: [0, 4] }));
    await expectCode('segmented sort: f16 keys', E.UNSUPPORTED_TYPE, () => wg.createSegmentedSortPlan({ type: 'f16' }));
    await expectCode('segmented sort: value bytes 2', E.INVALID_ARGUMENT, () => wg.createSegmentedSortPlan({ payload: 'buffer', valueBytes: 2 }));
    await expectCode('segmented sort: unknown path', E.INVALID_ARGUMENT, () => wg.createSegmentedSortPlan({ path: 'medium' }));
    const keysBuf = dev.createBuffer({ size: 4096, usage: U.STORAGE }), out = dev.createBuffer({ size: 4096, usage: U.STORAGE });
    const idx = dev.createBuffer({ size: 4096, usage: U.STORAGE }), offs = dev.createBuffer({ size: 256, usage: U.STORAGE });
    const args = { keysIn: keysBuf, keysOut: out, valuesOut: idx, n: 1000, offsets: offs, nSegments: 4 };
    const enc = dev.createCommandEncoder();
    await expectCode('segmented sort plan: n past capacity', E.CAPACITY_EXCEEDED, () => plan.encode(enc, { ...args, n: 1001 }));
    await expectCode('segmented sort plan: nSegments past segmentCapacity', E.CAPACITY_EXCEEDED, () => plan.encode(enc, { ...args, nSegments: 5 }));
    await expectCode('segmented sort plan: no offsets', E.INVALID_ARGUMENT, () => plan.encode(enc, { ...args, offsets: undefined }));
    await expectCode('segmented sort plan: keysOut is keysIn', E.ALIASING, () => plan.encode(enc, { ...args, keysOut: keysBuf }));
    await expectCode('segmented sort plan: status in the indices\' buffer', E.ALIASING, () => plan.encode(enc, { ...args, status: idx }));
    plan.destroy();
    for (const b of [keysBuf, out, idx, offs]) b.destroy();
  },

  // Plans on the page's buffers, several into one encoder, one submit.
  async plans(wg) {
    const dev = wg.device;
    const U = GPUBufferUsage;
    await check('prepare: the plans it describes then compile nothing, and compute', async () => {
      // An instance of its own: its pipeline cache starts empty. n a power of two: the
      // host helpers' plans then have the prepared capacity.
      const wg3 = await Wgscan.create(dev, { adapterInfo: theAdapterInfo });
      try {
        const n = 4096;
        const compiled = await wg3.prepare([{ primitive: 'scan', type: 'i32', op: 'max', kind: 'inclusive', capacity: n },
          { primitive: 'sort', type: 'u32', capacity: n }]);
        const before = wg3.pipelines;
        if (!(compiled > 0) || before.prepared !== compiled || before.created !== 0) return `prepare: ${compiled}, ${JSON.stringify(before)}`;
        const input = randomInput('i32', 'max', n, 7);
        const scanned = await wg3.scan(input, { op: 'max', kind: 'inclusive' });
        const v = verifyScan(input, scanned.output, 'i32', 'max', true);
        if (v.mismatches) return `scan: ${v.mismatches} wrong, first at ${v.firstBad}`;
        const keys = sortKeys('u32', n, 'random');
        const bad = sameSort(await wg3.sort(keys), referenceSort(keys, 'u32'));
        if (bad) return `sort: ${bad}`;
        const after = wg3.pipelines;
        return after.created === 0 ? '' : `the plans compiled ${after.created} pipelines after prepare()`;
      } finally {
        wg3.destroy();
      }
    });
    await expectCode('prepare: an unknown primitive', ErrorCode.INVALID_ARGUMENT, () => wg.prepare([{ primitive: 'scann' }]));
    await expectCode('prepare: bad options of a plan', ErrorCode.INVALID_ARGUMENT, () => wg.prepare([{ primitive: 'scan', capacity: -1 }]));
    await check('plans: scan, reduce, count, select, histogram, allocate in one encoder', async () => {
      const n = 10000;
      const input = smallValues('u32', n);
      const buf = (size, data) => {
        const b = dev.createBuffer({ size: Math.max(16, size), usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
        if (data) dev.queue.writeBuffer(b, 0, data);
        return b;
      };
      const inBuf = buf(n * 4, input), scanOut = buf(n * 4), red = buf(8), cnt = buf(4), selOut = buf(n * 4),
        selCount = buf(4), hist = buf(64), state = buf(8, new Uint32Array([0, 0])), offs = buf(n * 4);
      const plans = [
        wg.createScanPlan({ capacity: n, kind: 'inclusive' }), wg.createReducePlan({ op: 'max', capacity: n }),
        wg.createCountPlan({ predicate: { kind: 'equal', a: 3 }, capacity: n }),
        wg.createSelectPlan({ mode: 'if', predicate: { kind: 'greater', a: 9 }, capacity: n }),
        wg.createHistogramPlan({ bins: 16, lower: 0, upper: 16, capacity: n }), wg.createAllocPlan({ capacity: n }),
      ];
      const [scan, reduce, count, select, histogram, alloc] = plans;
      const enc = dev.createCommandEncoder();
      scan.encode(enc, { input: inBuf, output: scanOut, n });
      reduce.encode(enc, { input: inBuf, output: red, n });
      count.encode(enc, { input: inBuf, output: cnt, n, predicate: { kind: 'equal', a: 5 } }); // this encode's operand
      select.encode(enc, { input: inBuf, output: selOut, count: selCount, n });
      histogram.encode(enc, { input: inBuf, output: hist, n });
      alloc.encode(enc, { sizes: inBuf, offsets: offs, state, n, arenaSize: 1 << 30 });
      const bufs = [scanOut, red, cnt, selOut, selCount, hist, offs, state];
      const total = bufs.reduce((s, b) => s + b.size, 0);
      const staging = dev.createBuffer({ size: total, usage: U.MAP_READ | U.COPY_DST });
      let at = 0;
      const where = bufs.map((b) => { const o = at; enc.copyBufferToBuffer(b, 0, staging, o, b.size); at += b.size; return o; });
      dev.queue.submit([enc.finish()]);
      await wg.errors();
      await staging.mapAsync(GPUMapMode.READ);
      const all = staging.getMappedRange().slice(0);
      staging.unmap();
      const view = (i, len) => new Uint32Array(all, where[i], len);
      for (const p of plans) p.destroy();
      for (const b of [inBuf, ...bufs, staging]) b.destroy();
      const sums = [];
      input.reduce((s, x, i) => { sums[i] = (s + x) >>> 0; return sums[i]; }, 0);
      const sel = referenceSelect(input, 'u32', { mode: 'if', predicate: { kind: 'greater', a: 9 } });
      const alloc0 = referenceAllocate(input, 1 << 30, 0);
      return sameArray(view(0, n), sums, 'scan') || sameArray(view(1, 1), [referenceReduce(input, 'u32', 'max').value], 'reduce')
        || sameArray(view(2, 1), [referenceCount(input, 'u32', { kind: 'equal', a: 5 })], 'count')
        || sameArray(view(4, 1), [sel.count], 'select count') || sameArray(view(3, sel.count), sel.output, 'select')
        || sameArray(view(5, 16), referenceHistogram(input, 'u32', 16, 0, 16), 'histogram')
        || sameArray(view(6, n), alloc0.offsets, 'offsets') || sameArray(view(7, 1), [alloc0.top], 'top');
    });
    await check('plans: a select\'s count is the nBuffer of a scan and a reduce (no read-back)', async () => {
      const n = 10000;
      const input = smallValues('u32', n);
      const buf = (size, data) => {
        const b = dev.createBuffer({ size: Math.max(16, size), usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
        if (data) dev.queue.writeBuffer(b, 0, data);
        return b;
      };
      const guard = new Uint32Array(n).fill(0xC3C3C3C3);
      const inBuf = buf(n * 4, input), selOut = buf(n * 4), selCount = buf(256), scanOut = buf(n * 4, guard),
        red = buf(8);
      const select = wg.createSelectPlan({ mode: 'if', predicate: { kind: 'greater', a: 9 }, capacity: n });
      const scan = wg.createScanPlan({ capacity: n, kind: 'inclusive' }), reduce = wg.createReducePlan({ capacity: n });
      const enc = dev.createCommandEncoder();
      select.encode(enc, { input: inBuf, output: selOut, count: selCount, countOffset: 0, n });
      scan.encode(enc, { input: selOut, output: scanOut, n, nBuffer: selCount });
      reduce.encode(enc, { input: selOut, output: red, n, nBuffer: selCount, nOffset: 0 });
      const staging = dev.createBuffer({ size: n * 4 + 16, usage: U.MAP_READ | U.COPY_DST });
      enc.copyBufferToBuffer(scanOut, 0, staging, 0, n * 4);
      enc.copyBufferToBuffer(red, 0, staging, n * 4, 4);
      dev.queue.submit([enc.finish()]);
      await wg.errors();
      await staging.mapAsync(GPUMapMode.READ);
      const all = new Uint32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      for (const p of [select, scan, reduce]) p.destroy();
      for (const b of [inBuf, selOut, selCount, scanOut, red, staging]) b.destroy();
      const sel = referenceSelect(input, 'u32', { mode: 'if', predicate: { kind: 'greater', a: 9 } });
      const sums = [];
      sel.output.reduce((t, x, i) => { sums[i] = (t + x) >>> 0; return sums[i]; }, 0);
      const total = sel.count ? sums[sel.count - 1] : 0;
      return sameArray(all.subarray(0, sel.count), sums, 'scan of the selected')
        || sameArray(all.subarray(sel.count, n), guard.subarray(sel.count), 'past the count')
        || sameArray(all.subarray(n, n + 1), [total], 'reduce of the selected');
    });
    // Counts from the GPU fill the library's count ring, and a full ring is released for
    // a fresh one in the middle of the encodes: the encoder still uses it, so it must
    // not be destroyed before the submit (it was, issue 34's splat sort of 100 runs).
    // Each encode has its own bound: a repeated one takes its region again, filling nothing.
    await check('plans: 400 encodes with nBuffer in one encoder outlive the rings they fill', async () => {
      const n = 1000, runs = 400, stride = 256;
      const input = smallValues('u32', n);
      const inBuf = dev.createBuffer({ size: n * 4, usage: U.STORAGE | U.COPY_DST });
      dev.queue.writeBuffer(inBuf, 0, input);
      const counts = dev.createBuffer({ size: 4, usage: U.STORAGE | U.COPY_DST });
      dev.queue.writeBuffer(counts, 0, new Uint32Array([n - 7]));
      const out = dev.createBuffer({ size: runs * stride, usage: U.STORAGE | U.COPY_SRC });
      const staging = dev.createBuffer({ size: runs * stride, usage: U.MAP_READ | U.COPY_DST });
      const plan = wg.createReducePlan({ capacity: n });
      // The library's buffers created after the first encode: a ring replaced.
      let made = 0;
      const create = dev.createBuffer;
      dev.createBuffer = function (desc) { if (desc?.label === 'wgscan') made++; return create.call(this, desc); };
      const enc = dev.createCommandEncoder();
      try {
        for (let i = 0; i < runs; i++) {
          plan.encode(enc, { input: inBuf, output: out, outputOffset: i * stride, n: n - i, nBuffer: counts });
          if (i === 0) made = 0;
        }
      } finally {
        delete dev.createBuffer;
      }
      enc.copyBufferToBuffer(out, 0, staging, 0, runs * stride);
      dev.pushErrorScope('validation');
      dev.queue.submit([enc.finish()]);
      const submitError = await dev.popErrorScope();
      await wg.errors();
      await staging.mapAsync(GPUMapMode.READ);
      const all = new Uint32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      plan.destroy();
      for (const b of [inBuf, counts, out, staging]) b.destroy();
      if (submitError) return `submit: ${submitError.message}`;
      if (!made) return 'no ring was replaced: the test did not reach what it tests';
      for (let i = 0; i < runs; i++) {
        const want = referenceReduce(input.subarray(0, Math.min(n - 7, n - i)), 'u32', 'add').value;
        if (all[(i * stride) / 4] !== want) return `run ${i}: ${all[(i * stride) / 4]}, not ${want}`;
      }
      return '';
    });
    // The library keeps each dispatch's bind group for the next encode of the same
    // arguments (bindings.c), keyed on the buffers' identities: buffers destroyed and new
    // ones made (whose per-call handles are the old ones') are bound afresh each time.
    await check('plans: buffers destroyed and made again between encodes: each encode binds its own', async () => {
      const n = 3000;
      const plan = wg.createScanPlan({ capacity: n, kind: 'inclusive' });
      try {
        for (let round = 0; round < 4; round++) {
          const input = smallValues('u32', n).map((x) => x + round);
          const inBuf = dev.createBuffer({ size: n * 4, usage: U.STORAGE | U.COPY_DST });
          dev.queue.writeBuffer(inBuf, 0, input);
          const out = dev.createBuffer({ size: n * 4, usage: U.STORAGE | U.COPY_SRC });
          const staging = dev.createBuffer({ size: n * 4, usage: U.MAP_READ | U.COPY_DST });
          const enc = dev.createCommandEncoder();
          plan.encode(enc, { input: inBuf, output: out, n });
          enc.copyBufferToBuffer(out, 0, staging, 0, n * 4);
          dev.pushErrorScope('validation');
          dev.queue.submit([enc.finish()]);
          const submitError = await dev.popErrorScope();
          await wg.errors();
          await staging.mapAsync(GPUMapMode.READ);
          const got = new Uint32Array(staging.getMappedRange().slice(0));
          staging.unmap();
          for (const b of [inBuf, out, staging]) b.destroy();
          if (submitError) return `round ${round}: submit: ${submitError.message}`;
          const sums = [];
          input.reduce((t, x, i) => { sums[i] = (t + x) >>> 0; return sums[i]; }, 0);
          const bad = sameArray(got, sums, `round ${round}`);
          if (bad) return bad;
        }
        return '';
      } finally {
        plan.destroy();
      }
    });
    // A repeated encode (same plan, buffers, arguments) creates no bind group and writes
    // nothing: its records and count rules are on the GPU already. Results stay right.
    await check('plans: an encode repeated creates no bind group and writes nothing (scan, reduce, sort with nBuffer, top-k, segmented sort)', async () => {
      const n = 2000, c = 1500;
      const keys = smallValues('u32', n);
      const buf = (size, data) => {
        const b = dev.createBuffer({ size: Math.max(16, size), usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
        if (data) dev.queue.writeBuffer(b, 0, data);
        return b;
      };
      const inBuf = buf(n * 4, keys), out = buf(n * 4), red = buf(16), idx = buf(n * 4), cnt = buf(4, new Uint32Array([c]));
      // An instance of its own: a parameter ring that earlier groups left nearly full
      // would be replaced during the repeats, and a new ring is rightly written again.
      const own = await Wgscan.create(dev, { adapterInfo: theAdapterInfo });
      const scan = own.createScanPlan({ capacity: n }), reduce = own.createReducePlan({ capacity: n });
      const sort = own.createSortPlan({ capacity: n, payload: 'index' });
      // Top-k and a segmented sort whose segments take several paths bind many more
      // groups: at 64 sets of 4 ways the library's cache missed some of them on every
      // encode (5 bind groups an encode of the segmented sort under Node).
      const topk = own.createTopkPlan({ capacity: n, kCapacity: 50, output: 'input-order' });
      const segsort = own.createSegmentedSortPlan({ capacity: n, segmentCapacity: 8 });
      const offsets = buf(9 * 4, new Uint32Array([0, 3, 40, 41, 300, 1100, 1133, 1900, n]));
      const topOut = buf(50 * 4), segOut = buf(n * 4);
      const counted = { createBindGroup: 0, writeBuffer: 0 };
      const cbg = dev.createBindGroup, wb = dev.queue.writeBuffer;
      const runs = [
        () => scan.encode(enc, { input: inBuf, output: out, n }),
        () => reduce.encode(enc, { input: inBuf, output: red, n }),
        () => sort.encode(enc, { keysIn: inBuf, keysOut: idx, valuesOut: out, n, nBuffer: cnt }),
        () => topk.encode(enc, { keysIn: inBuf, keysOut: topOut, n, rows: 1, k: 50 }),
        () => segsort.encode(enc, { keysIn: inBuf, keysOut: segOut, n, offsets, nSegments: 8 }),
      ];
      let enc = dev.createCommandEncoder();
      try {
        // First encodes, twice: bind groups made, records written, and a parameter ring
        // that these filled replaced once (whose records the second round writes again).
        for (let k = 0; k < 2; k++) for (const run of runs) run();
        dev.createBindGroup = function (d) { counted.createBindGroup++; return cbg.call(this, d); };
        dev.queue.writeBuffer = function (...a) { counted.writeBuffer++; return wb.apply(this, a); };
        for (let k = 0; k < 2; k++) {
          if (k === 1) { dev.queue.submit([enc.finish()]); enc = dev.createCommandEncoder(); }
          for (const run of runs) run();
        }
      } finally {
        delete dev.createBindGroup;
        delete dev.queue.writeBuffer;
      }
      const staging = dev.createBuffer({ size: 2 * n * 4 + 16, usage: U.MAP_READ | U.COPY_DST });
      enc.copyBufferToBuffer(idx, 0, staging, 0, n * 4);
      enc.copyBufferToBuffer(out, 0, staging, n * 4, n * 4);
      enc.copyBufferToBuffer(red, 0, staging, 2 * n * 4, 16);
      dev.queue.submit([enc.finish()]);
      await wg.errors();
      await staging.mapAsync(GPUMapMode.READ);
      const all = new Uint32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      own.destroy();
      for (const b of [inBuf, out, red, idx, cnt, staging, offsets, topOut, segOut]) b.destroy();
      if (counted.createBindGroup || counted.writeBuffer)
        return `repeated encodes: ${counted.createBindGroup} createBindGroup, ${counted.writeBuffer} writeBuffer calls`;
      const order = [...keys.subarray(0, c).keys()].sort((a, b) => keys[a] - keys[b] || a - b);
      return sameArray(all.subarray(0, c), order.map((i) => keys[i]), 'sorted keys')
        || sameArray(all.subarray(n, n + c), order, 'sorted indices')
        || sameArray(all.subarray(2 * n, 2 * n + 1), [referenceReduce(keys, 'u32', 'add').value], 'reduce');
    });
    // An encode's WebGPU errors are caught by one set of error scopes around the call
    // (a sort's steps open several in the library): a sort recorded into a finished
    // encoder reports its validation error through errors(), and the next encode is clean.
    await check('plans: a sort into a finished encoder: GPU_VALIDATION from errors(), then a clean encode', async () => {
      const n = 512;
      const keys = dev.createBuffer({ size: n * 4, usage: U.STORAGE | U.COPY_DST });
      const sorted = dev.createBuffer({ size: n * 4, usage: U.STORAGE | U.COPY_SRC });
      const plan = wg.createSortPlan({ capacity: n });
      try {
        await wg.errors();
        const done = dev.createCommandEncoder();
        done.finish();
        plan.encode(done, { keysIn: keys, keysOut: sorted, n });
        let first = 'no error';
        try {
          await wg.errors();
        } catch (e) {
          first = e.code === ErrorCode.GPU_VALIDATION ? '' : `${e.name}: ${e.message}`;
        }
        if (first) return `the finished encoder: ${first}`;
        const enc = dev.createCommandEncoder();
        plan.encode(enc, { keysIn: keys, keysOut: sorted, n });
        dev.queue.submit([enc.finish()]);
        await wg.errors();
        return '';
      } finally {
        plan.destroy();
        keys.destroy();
        sorted.destroy();
      }
    });
    await expectCode('plans: an nBuffer offset that is no multiple of 4', ErrorCode.MISALIGNED_OFFSET, () => {
      const b = dev.createBuffer({ size: 256, usage: U.STORAGE });
      const p = wg.createScanPlan({ capacity: 16 });
      try {
        p.encode(dev.createCommandEncoder(), { input: b, output: dev.createBuffer({ size: 256, usage: U.STORAGE }),
          n: 16, nBuffer: b, nOffset: 2 });
      } finally {
        p.destroy();
      }
    });
    await check('plans: destroy twice, encode after destroy', async () => {
      const p = wg.createReducePlan({ capacity: 4 });
      p.destroy();
      p.destroy();
      try {
        p.encode(dev.createCommandEncoder(), { n: 1 });
        return 'no error';
      } catch (e) {
        return e.code === ErrorCode.INVALID_ARGUMENT && p.destroyed ? '' : `${e.name} ${e.message}`;
      }
    });
  },

  // A user's operator (issue 33) through the package: affine maps (f32 pairs, not
  // commutative) and 2x2 u32 matrices through the scan, the reduce, the segmented reduce
  // and scan and the scan and reduce by key, against JavaScript references that combine
  // in input order, with inputs whose results are exact (bit for bit); a u32 add equal
  // to the built-in's; the refusals that come before any compilation.
  async operator(wg) {
    const affine = {
      source: 'struct Affine { a: f32, b: f32 }\n' +
        'fn then(f: Affine, g: Affine) -> Affine { return Affine(g.a * f.a, g.a * f.b + g.b); }\n',
      element: 'Affine', combine: 'then', identity: new Float32Array([1, 0]),
    };
    const thenRef = (f, g) => [Math.fround(g[0] * f[0]), Math.fround(Math.fround(g[0] * f[1]) + g[1])];
    const mat2 = {
      source: 'struct Mat2 { a: u32, b: u32, c: u32, d: u32 }\n' +
        'fn mul(x: Mat2, y: Mat2) -> Mat2 {\n' +
        '    return Mat2(x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d);\n}\n',
      element: 'Mat2', combine: 'mul', identity: new Uint32Array([1, 0, 0, 1]),
    };
    const mul = (x, y) => [(Math.imul(x[0], y[0]) + Math.imul(x[1], y[2])) >>> 0, (Math.imul(x[0], y[1]) + Math.imul(x[1], y[3])) >>> 0,
      (Math.imul(x[2], y[0]) + Math.imul(x[3], y[2])) >>> 0, (Math.imul(x[2], y[1]) + Math.imul(x[3], y[3])) >>> 0];
    const probe = wg.createScanPlan({ operator: affine, algorithm: 'single-pass', capacity: 1 });
    const t = probe.tileSize('single-pass'), tm = probe.tileSize('multilevel');
    probe.destroy();
    for (const algorithm of ['single-pass', 'multilevel']) {
      const tile = algorithm === 'single-pass' ? t : tm;
      for (const kind of ['exclusive', 'inclusive']) {
        for (const n of [0, 1, tile - 1, tile + 1, 5 * tile + 3]) {
          await check(`operator affine scan ${algorithm} ${kind} n=${n}`, async () => {
            const input = new Float32Array(2 * n);
            for (let i = 0; i < n; i++) {
              const r = rng();
              input[2 * i] = r % 16 === 0 ? 0 : r & 16 ? -1 : 1; // every result an integer below 2^24
              input[2 * i + 1] = (rng() % 17) - 8;
            }
            const want = new Float32Array(2 * n);
            let acc = [1, 0];
            for (let i = 0; i < n; i++) {
              if (kind === 'exclusive') want.set(acc, 2 * i);
              acc = thenRef(acc, [input[2 * i], input[2 * i + 1]]);
              if (kind === 'inclusive') want.set(acc, 2 * i);
            }
            const { output } = await wg.scan(input, { operator: affine, kind, algorithm });
            if (!(output instanceof Float32Array)) return `output is a ${output?.constructor?.name}`;
            return sameArray(output, want);
          });
        }
      }
    }
    for (const n of [0, 1, tm - 1, tm + 1, quick ? 3 * tm + 5 : tm * tm + 5]) { // (the last: two levels when full)
      await check(`operator mat2 reduce n=${n}`, async () => {
        const input = new Uint32Array(4 * n).map((_, i) => 2 * (rng() % 3) + (i % 4 === 0 || i % 4 === 3 ? 1 : 0));
        let want = [1, 0, 0, 1];
        for (let i = 0; i < n; i++) want = mul(want, input.subarray(4 * i, 4 * i + 4));
        const { value } = await wg.reduce(input, { operator: mat2 });
        return sameArray(value, want);
      });
    }
    await check('operator u32 add equals the built-in add', async () => {
      const input = new Uint32Array(5 * t + 7).map(() => rng());
      const plus = { source: 'fn plus(x: u32, y: u32) -> u32 { return x + y; }\n', element: 'u32', combine: 'plus',
        identity: new Uint32Array([0]), commutative: true };
      const mine = await wg.scan(input, { operator: plus, kind: 'inclusive' });
      const theirs = await wg.scan(input, { kind: 'inclusive' });
      const rm = await wg.reduce(input, { operator: plus }), rt = await wg.reduce(input);
      return sameArray(mine.output, theirs.output) || (rm.value[0] === rt.value ? '' : `reduce ${rm.value[0]}, want ${rt.value}`);
    });
    // The segmented and keyed primitives: segments of 0 to 300 elements (empty ones
    // among them) over n = 5000, CSR offsets from 7 (elements before: in no segment).
    const fold = (comb, id, a, w, b, e) => {
      let acc = Array.from(id);
      for (let i = b; i < e; i++) acc = comb(acc, Array.from(a.subarray(w * i, w * i + w)));
      return acc;
    };
    const n = 5000, offs = [7];
    while (offs[offs.length - 1] < n - 7) offs.push(Math.min(n - 7, offs[offs.length - 1] + (rng() % 301)));
    const offsets = new Uint32Array(offs), segs = offsets.length - 1;
    const keys = new Uint32Array(n);
    for (let k = 0; k < segs; k++) keys.fill(k + 1, offsets[k], offsets[k + 1]);
    const runs = []; // [begin, end) of each run of equal keys
    for (let i = 0; i < n;) { let e = i + 1; while (e < n && keys[e] === keys[i]) e++; runs.push([i, e]); i = e; }
    const affineIn = new Float32Array(2 * n), matIn = new Uint32Array(4 * n);
    for (let i = 0; i < n; i++) {
      const r = rng();
      affineIn[2 * i] = r % 16 === 0 ? 0 : r & 16 ? -1 : 1;
      affineIn[2 * i + 1] = (rng() % 17) - 8;
      for (let j = 0; j < 4; j++) matIn[4 * i + j] = 2 * (rng() % 3) + (j === 0 || j === 3 ? 1 : 0);
    }
    await check('operator mat2 segmented reduce', async () => {
      const { output } = await wg.segmentedReduce(matIn, { operator: mat2, offsets });
      const want = [];
      for (let k = 0; k < segs; k++) want.push(...fold(mul, mat2.identity, matIn, 4, offsets[k], offsets[k + 1]));
      return output instanceof Uint32Array ? sameArray(output, want) : `output is a ${output?.constructor?.name}`;
    });
    await check('operator affine segmented scan, inclusive', async () => {
      const { output } = await wg.segmentedScan(affineIn, { operator: affine, offsets, kind: 'inclusive' });
      const want = new Float32Array(2 * n);
      for (let i = 0; i < n; i++) want.set([1, 0], 2 * i);
      for (let k = 0; k < segs; k++) {
        for (let i = offsets[k]; i < offsets[k + 1]; i++) want.set(fold(thenRef, affine.identity, affineIn, 2, offsets[k], i + 1), 2 * i);
      }
      return sameArray(output, want);
    });
    await check('operator mat2 scan by key, exclusive', async () => {
      const { output } = await wg.scanByKey(matIn, { operator: mat2, keys });
      const want = new Uint32Array(4 * n);
      for (const [b, e] of runs) for (let i = b; i < e; i++) want.set(fold(mul, mat2.identity, matIn, 4, b, i), 4 * i);
      return sameArray(output, want);
    });
    await check('operator affine reduce by key', async () => {
      const r = await wg.reduceByKey(keys, affineIn, { operator: affine });
      const want = [];
      for (const [b, e] of runs) want.push(...fold(thenRef, affine.identity, affineIn, 2, b, e));
      return (r.numRuns === runs.length ? '' : `${r.numRuns} runs, want ${runs.length}`) ||
        sameArray(r.uniqueKeys, runs.map(([b]) => keys[b]), 'keys ') || sameArray(r.aggregates, want);
    });
    await expectCode('operator scan by key with an initValue', ErrorCode.INVALID_ARGUMENT, () => wg.scanByKey(matIn,
      { operator: mat2, keys, initValue: 1 }));
    await expectCode('operator with a reserved name', ErrorCode.OPERATOR_RESERVED_NAME, () => wg.createScanPlan({
      operator: { ...affine, source: `${affine.source}fn f(x: u32) -> u32 { return x + params.n; }\n` } }));
    await expectCode('operator identity of the wrong size', ErrorCode.OPERATOR_IDENTITY, () => wg.createReducePlan({
      operator: { ...affine, identity: new Float32Array([1, 0, 0]) } }));
    await expectCode('operator with a type beside it', ErrorCode.INVALID_ARGUMENT, () => wg.createScanPlan({
      operator: affine, type: 'f32' }));
    await expectCode('operator in a factory that takes none', ErrorCode.INVALID_ARGUMENT, () => wg.createHistogramPlan({
      operator: affine }));
    await wg.errors();
    // WGSL that does not compile: the page's WebGPU reports it when errors() resolves,
    // a validation error with the compiler's message; where the message gives a line
    // (Dawn's does; Firefox's names the line in the console only), the operator's own.
    await check('operator that does not compile: a validation error from errors()', async () => {
      const broken = { ...affine, source: 'struct Affine { a: f32, b: f32 }\nfn then(f: Affine, g: Affine) -> Affine {\n    return f +;\n}\n' };
      const plan = wg.createScanPlan({ operator: broken });
      try {
        await wg.errors();
        return 'no error';
      } catch (e) {
        const line = /:(\d+):\d+/.exec(e.message);
        return e instanceof WgscanError && e.code === ErrorCode.GPU_VALIDATION && (!line || line[1] === '3') ? ''
          : `${e.name} (${e.code}): ${e.message.slice(0, 300)}`;
      } finally {
        plan.destroy();
      }
    });
  },

  async errors(wg) {
    const dev = wg.device;
    await check('error names agree with the library', () => {
      // A refused plan names its code through the module's own table.
      try { wg.createScanPlan({ type: 'f32', op: 'xor' }); } catch (e) {
        return e.name === 'WGS_ERROR_UNSUPPORTED_OPERATOR' && e.code === 3 && e instanceof Error ? '' : `${e.name} ${e.code}`;
      }
      return 'no error';
    });
    await expectCode('xor on f32 is refused', ErrorCode.UNSUPPORTED_OPERATOR, () => wg.createScanPlan({ type: 'f32', op: 'xor' }));
    await expectCode('unknown type is refused', ErrorCode.INVALID_ARGUMENT, () => wg.createScanPlan({ type: 'u64' }));
    await expectCode('deterministic single pass is refused', ErrorCode.INVALID_ARGUMENT, () => wg.createScanPlan({ algorithm: 'single-pass', deterministic: true }));
    await expectCode('f16 reduce is refused', ErrorCode.UNSUPPORTED_TYPE,
      () => wg.createReducePlan({ type: 'f16' }));
    await expectCode('argmin atomic is refused', ErrorCode.UNSUPPORTED_OPERATOR, () => wg.createReducePlan({ op: 'argmin', algorithm: 'atomic' }));
    await expectCode('count with an i32 operand out of range', ErrorCode.INVALID_ARGUMENT,
      () => wg.createCountPlan({ type: 'i32', predicate: { kind: 'equal', a: 2 ** 40 } }));
    await expectCode('partition of unique is refused', ErrorCode.INVALID_ARGUMENT, () => wg.createSelectPlan({ mode: 'unique', partition: true }));
    await expectCode('histogram with lower >= upper', ErrorCode.INVALID_ARGUMENT, () => wg.createHistogramPlan({ bins: 4, lower: 5, upper: 5 }));
    await expectCode('histogram without bins', ErrorCode.INVALID_ARGUMENT, () => wg.createHistogramPlan({ lower: 0, upper: 1 }));
    await expectCode('negative capacity', ErrorCode.INVALID_ARGUMENT, () => wg.createAllocPlan({ capacity: -1 }));
    await expectCode('select of nothing to select by', ErrorCode.INVALID_ARGUMENT, () => wg.select(new Uint32Array(4)));
    await expectCode('host helper with a plain array', ErrorCode.INVALID_ARGUMENT, () => wg.reduce([1, 2, 3]));
    const plan = wg.createScanPlan({ capacity: 100 });
    const buf = dev.createBuffer({ size: 1024, usage: GPUBufferUsage.STORAGE });
    const other = dev.createBuffer({ size: 1024, usage: GPUBufferUsage.STORAGE });
    const small = dev.createBuffer({ size: 64, usage: GPUBufferUsage.STORAGE });
    const noStorage = dev.createBuffer({ size: 1024, usage: GPUBufferUsage.COPY_DST });
    const enc = dev.createCommandEncoder();
    await expectCode('n above capacity', ErrorCode.CAPACITY_EXCEEDED, () => plan.encode(enc, { input: buf, output: other, n: 101 }));
    await expectCode('buffer too small', ErrorCode.BUFFER_TOO_SMALL, () => plan.encode(enc, { input: buf, output: small, n: 100 }));
    await expectCode('misaligned offset', ErrorCode.MISALIGNED_OFFSET, () => plan.encode(enc, { input: buf, output: other, outputOffset: 4, n: 10 }));
    await expectCode('buffer without STORAGE', ErrorCode.BUFFER_USAGE, () => plan.encode(enc, { input: noStorage, output: other, n: 10 }));
    await expectCode('same buffer, other offset', ErrorCode.ALIASING, () => plan.encode(enc, { input: buf, output: buf, outputOffset: 256, n: 10 }));
    await expectCode('missing output', ErrorCode.INVALID_ARGUMENT, () => plan.encode(enc, { input: buf, n: 10 }));
    await expectCode('fractional n', ErrorCode.INVALID_ARGUMENT, () => plan.encode(enc, { input: buf, output: other, n: 1.5 }));
    await expectCode('not an encoder', ErrorCode.INVALID_ARGUMENT, () => plan.encode({}, { input: buf, output: other, n: 1 }));
    const sel = wg.createSelectPlan({ capacity: 100 });
    await expectCode('select without flags', ErrorCode.INVALID_ARGUMENT, () => sel.encode(enc, { input: buf, output: other, count: small, n: 10 }));
    const red = wg.createReducePlan({ capacity: 100 });
    await expectCode('reduce into its input', ErrorCode.ALIASING, () => red.encode(enc, { input: buf, output: buf, n: 10 }));
    const al = wg.createAllocPlan({ capacity: 100 });
    await expectCode('allocator arena beyond 32 bits', ErrorCode.INVALID_ARGUMENT, () => al.encode(enc, { sizes: buf, offsets: other, state: small, n: 10, arenaSize: 2 ** 32 }));
    for (const p of [plan, sel, red, al]) p.destroy();
    for (const b of [buf, other, small, noStorage]) b.destroy();
    await check('a wasm that cannot be loaded is named', async () => {
      const url = new URL('./no-such-wgscan.wasm', import.meta.url).href;
      try {
        await Wgscan.create(dev, { wasm: url });
        return 'created';
      } catch (e) {
        return e.message.includes(url) ? '' : `message: ${e.message}`;
      }
    });
    // The instance: destroy releases its plans; calls after it fail with a code.
    const wg2 = await Wgscan.create(dev, { adapterInfo: theAdapterInfo });
    const orphan = wg2.createScanPlan({ capacity: 10 });
    wg2.destroy();
    wg2.destroy();
    await check('destroy() releases the plans', () => (orphan.destroyed ? '' : 'plan still alive'));
    await expectCode('calls after destroy()', ErrorCode.INVALID_ARGUMENT, () => wg2.createScanPlan());
  },
};

async function main() {
  const groups = (search.get('groups') ?? Object.keys(GROUPS).join(',')).split(',');
  const { device, adapterInfo } = await openDevice();
  theAdapterInfo = adapterInfo;
  const wg = await Wgscan.create(device, { adapterInfo });
  result.info = wg.info;
  result.groups = groups;
  say(`adapter: ${wg.info.name} (subgroups ${wg.info.subgroups}, timestamps ${wg.info.timestampQuery}, f16 ${wg.info.shaderF16})`);
  for (const g of groups) {
    if (!GROUPS[g]) { record(`group ${g}`, false, 'no such group'); continue; }
    const t0 = performance.now();
    await GROUPS[g](wg);
    result.ms[g] = Math.round(performance.now() - t0);
  }
  wg.destroy();
  result.done = true;
  say(`${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`);
}

main().catch((e) => {
  result.failed++;
  result.failures.push(`setup: ${e.stack ?? e}`);
  result.done = true;
  say(`FAIL setup: ${e.stack ?? e}`);
});
