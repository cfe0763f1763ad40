// SPDX-License-Identifier: MIT
// demo.js: the demo page. One card per primitive: its options (only what this device
// runs), a Run that verifies the GPU's result against the JavaScript reference, and the
// few lines of code that do the same. An error clears the card's result. The scan card
// also sweeps n and charts throughput (median of several runs a size).
import { Wgscan } from './package/wgscan.js';
import { openDevice } from './device.js';
import {
  randomInput, verifyScan, referenceReduce, referenceCount, referenceSelect, referenceHistogram, referenceAllocate,
  referenceSort, bitsOf32or64,
} from './reference.js';

const $ = (id) => document.getElementById(id);
let wg;

const INTS = ['add', 'min', 'max', 'and', 'or', 'xor'];
const FLOATS = ['add', 'min', 'max'];
const PREDICATES = ['nonzero', 'equal', 'not-equal', 'less', 'greater', 'in-range'];
const ARRAYS = { u32: Uint32Array, i32: Int32Array, f32: Float32Array };

// Values in a small range, so that predicates, runs and bins have work.
function values(type, n, seed = 7) {
  let s = seed;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  const a = new ARRAYS[type](n);
  let v = 0;
  for (let i = 0; i < n; i++) {
    if (next() % 4 === 0 || i === 0) v = (next() % 16) - (type === 'u32' ? 0 : 8);
    a[i] = type === 'f32' ? v / 2 : v;
  }
  return a;
}
// Sort keys spread over a range (so that some repeat and the values show the sort is
// stable): integers, f32 numbers of both signs, 64-bit keys over all their bits.
const SORT_ARRAYS = { u32: Uint32Array, i32: Int32Array, f32: Float32Array, u64: BigUint64Array, i64: BigInt64Array };
function sortKeys(type, n, seed = 11) {
  let s = seed;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  const a = new SORT_ARRAYS[type](n);
  const range = Math.max(1, n >> 2);
  for (let i = 0; i < n; i++) {
    if (type === 'u64' || type === 'i64') a[i] = BigInt[type === 'u64' ? 'asUintN' : 'asIntN'](64, (BigInt(next()) << 32n) | BigInt(next()));
    else if (type === 'f32') a[i] = ((next() % (2 * range)) - range) / 8;
    else a[i] = (next() % (2 * range)) - (type === 'i32' ? range : 0);
  }
  return a;
}
const sameBits = (a, b) => same(bitsOf32or64(a), bitsOf32or64(b));
const first = (a, k = 8) => `${Array.from(a.slice(0, k)).join(', ')}${a.length > k ? ', …' : ''}`;
const same = (a, b) => a.length === b.length && Array.from(a).every((v, i) => v === b[i] || (Number.isNaN(v) && Number.isNaN(b[i])));
const ms = (r) => (r.gpuMs == null ? `${r.totalMs.toFixed(2)} ms (upload, run, download; no timestamp-query)` : `${r.gpuMs.toFixed(3)} ms on the GPU`);

// Each card: its fields ([name, kind, default, choices]), its code sample (a function
// of the values), and run(values) -> { ok, status, rows }.
const CARDS = [
  {
    id: 'scan', title: 'Prefix scan',
    fields: () => [['n', 'number', 1 << 20], ['type', 'select', 'u32', wg.types], ['op', 'select', 'add', INTS],
      ['kind', 'select', 'exclusive', ['exclusive', 'inclusive']], ['algorithm', 'select', 'auto', ['auto', 'single-pass', 'multilevel']]],
    code: (v) => `const { output } = await wg.scan(input, {  // ${v.type === 'f16' ? 'Uint16Array of f16 bits' : `a ${ARRAYS[v.type]?.name}`}
  op: '${v.op}', kind: '${v.kind}', algorithm: '${v.algorithm}' });
// or into your encoder, on your buffers:
const plan = wg.createScanPlan({ type: '${v.type}', op: '${v.op}', capacity: n });
plan.encode(encoder, { input, output, n });`,
    async run(v) {
      const input = randomInput(v.type, v.op, v.n, 7);
      const r = await wg.scan(input, v);
      const c = verifyScan(input, r.output, v.type, v.op, v.kind === 'inclusive');
      return {
        ok: c.mismatches === 0,
        status: c.mismatches ? `${c.mismatches} elements differ, first at ${c.firstBad}` : `all ${v.n} elements match`,
        rows: [['algorithm', r.algorithm], ['time', ms(r)], ['throughput', r.gpuMs ? `${(v.n / r.gpuMs / 1e6).toFixed(3)} Gelem/s` : '-'], ['first outputs', first(r.output, 6)]],
      };
    },
  },
  {
    id: 'reduce', title: 'Reduce',
    fields: () => [['n', 'number', 1 << 20], ['type', 'select', 'f32', ['u32', 'i32', 'f32']],
      ['op', 'select', 'add', INTS.concat(['argmin', 'argmax'])], ['algorithm', 'select', 'auto', ['auto', 'tree', 'atomic']]],
    code: (v) => `const { value${v.op.startsWith('arg') ? ', index' : ''} } = await wg.reduce(input, { op: '${v.op}', algorithm: '${v.algorithm}' });
// plan: wg.createReducePlan({ type: '${v.type}', op: '${v.op}', capacity: n })
//   .encode(encoder, { input, output, n });   // output: value (and index)`,
    async run(v) {
      const input = v.type === 'f32' ? randomInput('f32', v.op, v.n, 3) : values(v.type, v.n);
      const r = await wg.reduce(input, v);
      const w = referenceReduce(input, v.type, v.op);
      const ok = (w.tolerance ? Math.abs(r.value - w.value) <= w.tolerance : r.value === w.value) && r.index === w.index;
      return {
        ok, status: ok ? 'matches the reference' : `got ${r.value} (${r.index}), want ${w.value} (${w.index})`,
        rows: [['value', r.value], ...(r.index === undefined ? [] : [['index', r.index]]), ['reference', w.tolerance ? `${w.value} ± ${w.tolerance.toExponential(2)}` : w.value], ['time', ms(r)]],
      };
    },
  },
  {
    id: 'count', title: 'Count',
    fields: () => [['n', 'number', 1 << 20], ['type', 'select', 'i32', ['u32', 'i32', 'f32']], ['predicate', 'select', 'greater', PREDICATES],
      ['a', 'number', 2], ['b', 'number', 5]],
    code: (v) => `const { count } = await wg.count(input, { predicate: { kind: '${v.predicate}', a: ${v.a}, b: ${v.b} } });`,
    async run(v) {
      const input = values(v.type, v.n);
      const predicate = { kind: v.predicate, a: v.a, b: v.b };
      const r = await wg.count(input, { predicate });
      const w = referenceCount(input, v.type, predicate);
      return { ok: r.count === w, status: r.count === w ? 'matches the reference' : `got ${r.count}, want ${w}`, rows: [['count', r.count], ['time', ms(r)]] };
    },
  },
  {
    id: 'select', title: 'Select, partition, unique, run-length',
    fields: () => [['n', 'number', 1 << 18], ['type', 'select', 'i32', ['u32', 'i32', 'f32']],
      ['mode', 'select', 'if', ['flagged', 'if', 'unique', 'run-length']], ['predicate', 'select', 'less', PREDICATES],
      ['a', 'number', 0], ['b', 'number', 4], ['partition', 'checkbox', false], ['payload', 'select', 'none', ['none', 'index']]],
    code: (v) => (v.mode === 'run-length' ? 'const { values, lengths, count } = await wg.runLengthEncode(input);'
      : v.mode === 'unique' ? 'const { output, count } = await wg.unique(input);'
        : `const { output, count${v.payload === 'index' ? ', payload' : ''} } = await wg.${v.partition ? 'partition' : 'select'}(input, {
  ${v.mode === 'flagged' ? 'flags,  // a Uint8Array' : `predicate: { kind: '${v.predicate}', a: ${v.a}, b: ${v.b} },`}${v.payload === 'index' ? " payload: 'index'," : ''} });`),
    async run(v) {
      const input = values(v.type, v.n);
      const flags = Uint8Array.from(input, (x, i) => (i % 3 === 0 ? 1 : 0));
      const opts = { mode: v.mode, predicate: { kind: v.predicate, a: v.a, b: v.b }, flags: v.mode === 'flagged' ? flags : undefined,
        partition: v.partition && (v.mode === 'flagged' || v.mode === 'if'), payload: v.payload === 'index' && v.mode !== 'run-length' ? 'index' : undefined };
      const r = await wg.select(input, opts);
      const w = referenceSelect(input, v.type, { ...opts, flags });
      const ok = r.count === w.count && same(r.output, w.output) && (!w.payload || same(r.payload, w.payload));
      return {
        ok, status: ok ? `${r.count} selected, all match the reference` : `got ${r.count}, want ${w.count} (or elements differ)`,
        rows: [['count', r.count], ['output', first(r.output)], ...(r.payload ? [[v.mode === 'run-length' ? 'lengths' : 'payload', first(r.payload)]] : []), ['time', ms(r)]],
      };
    },
  },
  {
    id: 'histogram', title: 'Histogram',
    fields: () => [['n', 'number', 1 << 20], ['type', 'select', 'f32', ['u32', 'i32', 'f32']], ['bins', 'number', 16],
      ['lower', 'number', -4], ['upper', 'number', 4]],
    code: (v) => `const { counts } = await wg.histogram(input, { bins: ${v.bins}, lower: ${v.lower}, upper: ${v.upper} });`,
    async run(v) {
      const input = values(v.type, v.n);
      const r = await wg.histogram(input, v);
      const w = referenceHistogram(input, v.type, v.bins, v.lower, v.upper);
      const ok = w && same(r.counts, w);
      return { ok, status: ok ? 'every bin matches the reference' : 'bins differ', rows: [['counts', first(r.counts, 16)], ['time', ms(r)]] };
    },
  },
  {
    id: 'sort', title: 'Radix sort (stable)',
    fields: () => [['n', 'number', 1 << 18], ['type', 'select', 'u32', ['u32', 'i32', 'f32', 'u64', 'i64']],
      ['order', 'select', 'ascending', ['ascending', 'descending']], ['with', 'select', 'values', ['keys only', 'values', 'indices']],
      ['beginBit', 'number', 0], ['endBit', 'number', 0], ['algorithm', 'select', 'auto', ['auto', 'onesweep', 'reduce-scan']]],
    code: (v) => {
      const bits = v.beginBit || v.endBit ? ` beginBit: ${v.beginBit}, endBit: ${v.endBit},` : '';
      const values = v.with === 'values' ? ' values,' : v.with === 'indices' ? " values: 'index'," : '';
      const wide = v.type === 'u64' || v.type === 'i64';
      return `const { keys${values ? ', values' : ''} } = await wg.sort(keys, {  // a ${SORT_ARRAYS[v.type].name}
  order: '${v.order}',${bits}${values} algorithm: '${v.algorithm}' });
// or into your encoder, on your buffers:
const plan = wg.createSortPlan({ type: '${v.type}', order: '${v.order}',${bits}${v.with === 'keys only' ? '' : ` payload: '${v.with === 'values' ? 'buffer' : 'index'}',`} capacity: n });
plan.encode(encoder, { keysIn, keysOut${v.with === 'values' ? ', valuesIn, valuesOut' : v.with === 'indices' ? ', valuesOut' : ''}, n });${wide ? '  // 8-byte keys' : ''}`;
    },
    async run(v) {
      const keys = sortKeys(v.type, v.n);
      const values = v.with === 'values' ? Uint32Array.from({ length: v.n }, (_, i) => i) : v.with === 'indices' ? 'index' : undefined;
      const opts = { order: v.order, beginBit: v.beginBit, endBit: v.endBit, algorithm: v.algorithm, values };
      const r = await wg.sort(keys, opts);
      const w = referenceSort(keys, v.type, opts);
      const ok = sameBits(r.keys, w.keys) && (!w.values || sameBits(r.values, w.values));
      return {
        ok, status: ok ? `all ${v.n} keys${w.values ? ' and values' : ''} in the reference's order` : 'keys or values differ from the reference',
        rows: [['time', ms(r)], ['throughput', r.gpuMs ? `${(v.n / r.gpuMs / 1e3).toFixed(1)} Mkeys/s` : '-'], ['first keys', first(r.keys, 6)],
          ...(r.values ? [[v.with === 'indices' ? 'their indices' : 'their values', first(r.values, 6)]] : [])],
      };
    },
  },
  {
    id: 'allocate', title: 'Allocate (a GPU bump allocator)',
    fields: () => [['n', 'number', 100000], ['arenaSize', 'number', 2000000], ['top', 'number', 0], ['algorithm', 'select', 'scan', ['scan', 'atomic']]],
    code: (v) => `const { offsets, top } = await wg.allocate(sizes, { arenaSize: ${v.arenaSize}, top: ${v.top}, algorithm: '${v.algorithm}' });
// offsets[i]: request i's block, or ALLOC_FAILED when it did not fit`,
    async run(v) {
      const sizes = Uint32Array.from({ length: v.n }, (_, i) => 1 + ((i * 2654435761) >>> 0) % 40);
      const r = await wg.allocate(sizes, v);
      const served = r.offsets.filter((o) => o !== 0xFFFFFFFF).length;
      let ok;
      if (v.algorithm === 'scan') {
        const w = referenceAllocate(sizes, v.arenaSize, v.top);
        ok = same(r.offsets, w.offsets) && r.top === w.top;
      } else {
        let sum = 0;
        sizes.forEach((s, i) => { if (r.offsets[i] !== 0xFFFFFFFF) sum += s; });
        ok = v.top + sum === r.top && r.top <= v.arenaSize;
      }
      return { ok, status: ok ? `${served} of ${v.n} served, as the reference` : 'offsets differ', rows: [['new top', r.top], ['first offsets', first(r.offsets)], ['time', ms(r)]] };
    },
  },
];

function read(card) {
  const v = {};
  for (const el of card.querySelectorAll('[name]')) {
    v[el.name] = el.type === 'checkbox' ? el.checked : el.type === 'number' ? Number(el.value) : el.value;
  }
  return v;
}

// Operators follow the type: and/or/xor only for integers.
function syncOps(card) {
  const type = card.querySelector('[name=type]'), op = card.querySelector('[name=op]');
  if (!type || !op) return;
  const float = type.value === 'f32' || type.value === 'f16';
  for (const o of op.options) o.disabled = float && ['and', 'or', 'xor'].includes(o.value);
  if (op.selectedOptions[0]?.disabled) op.value = 'add';
}

function build(spec) {
  const card = document.createElement('section');
  card.className = 'card';
  card.dataset.primitive = spec.id;
  const inputs = spec.fields().map(([name, kind, dflt, choices]) => {
    if (kind === 'select') return `<label>${name} <select name="${name}">${choices.map((c) => `<option${c === dflt ? ' selected' : ''}>${c}</option>`).join('')}</select></label>`;
    if (kind === 'checkbox') return `<label><input type="checkbox" name="${name}"${dflt ? ' checked' : ''}> ${name}</label>`;
    return `<label>${name} <input type="number" name="${name}" value="${dflt}"></label>`;
  }).join('');
  card.innerHTML = `<h2>${spec.title}</h2><div>${inputs}<p><button class="run">Run</button>${spec.id === 'scan' ? '<button class="sweep">Throughput sweep</button>' : ''}</p>
    <div class="status"></div><table class="result"></table>${spec.id === 'scan' ? '<canvas id="chart" width="480" height="220"></canvas>' : ''}</div><pre class="code"></pre>`;
  const status = (text, cls = '') => { const s = card.querySelector('.status'); s.textContent = text; s.className = `status ${cls}`; };
  const code = () => { card.querySelector('.code').textContent = spec.code(read(card)); };
  card.addEventListener('change', () => { syncOps(card); code(); });
  card.querySelector('.run').onclick = async () => {
    const v = read(card);
    card.querySelector('.result').textContent = ''; // never a stale result beside a new status
    status('running...');
    try {
      const r = await spec.run(v);
      status(`${r.ok ? 'verified' : 'WRONG'}: ${r.status}`, r.ok ? 'ok' : 'bad');
      card.querySelector('.result').innerHTML = r.rows.map(([k, x]) => `<tr><th>${k}</th><td>${x}</td></tr>`).join('');
    } catch (e) {
      card.querySelector('.result').textContent = '';
      status(`error: ${e.name === 'Error' ? '' : `${e.name}: `}${e.message}`, 'bad');
    }
  };
  if (spec.id === 'scan') card.querySelector('.sweep').onclick = () => sweep(card, status);
  syncOps(card);
  code();
  return card;
}

// The sweep: n = 2^10 .. 2^20, the median of 5 runs a size (GPU time where the device
// has timestamp-query, else the whole round trip), every run verified.
async function sweep(card, status) {
  const v = read(card);
  const points = [];
  card.querySelector('.result').textContent = '';
  try {
    for (let k = 10; k <= 20; k += 2) {
      const n = 2 ** k, input = randomInput(v.type, v.op, n, k), times = [];
      for (let rep = 0; rep < 5; rep++) {
        status(`sweep: n = 2^${k}, run ${rep + 1} of 5...`);
        const r = await wg.scan(input, v);
        if (verifyScan(input, r.output, v.type, v.op, v.kind === 'inclusive').mismatches) { status(`WRONG at n = 2^${k}`, 'bad'); return; }
        times.push(r.gpuMs ?? r.totalMs);
      }
      times.sort((a, b) => a - b);
      points.push({ n, gelem: n / times[2] / 1e6 });
      drawChart(points, wg.info.timestampQuery ? 'GPU time' : 'round trip');
    }
    status(`sweep done: ${points.length} sizes verified, median of 5 runs each`, 'ok');
  } catch (e) {
    status(`error: ${e.message}`, 'bad');
  }
}

function drawChart(points, what) {
  const c = $('chart'), g = c.getContext('2d');
  g.clearRect(0, 0, c.width, c.height);
  g.font = '11px sans-serif';
  const L = 50, B = 26, T = 20, R = 12, W = c.width - L - R, H = c.height - T - B;
  const ymax = Math.max(1e-6, ...points.map((p) => p.gelem)) * 1.15;
  g.strokeStyle = '#ccc';
  g.fillStyle = '#555';
  for (let i = 0; i <= 4; i++) {
    const y = T + H - (H * i) / 4;
    g.beginPath(); g.moveTo(L, y); g.lineTo(L + W, y); g.stroke();
    g.fillText(((ymax * i) / 4).toPrecision(3), 4, y + 4);
  }
  g.fillText(`Gelem/s (${what}, median of 5)`, 4, 12);
  const kmin = 10, kmax = 20;
  const x = (n) => L + ((Math.log2(n) - kmin) / (kmax - kmin)) * W;
  const y = (val) => T + H - (val / ymax) * H;
  for (let k = kmin; k <= kmax; k += 2) g.fillText(`2^${k}`, x(2 ** k) - 10, T + H + 16);
  g.strokeStyle = '#1f77b4';
  g.lineWidth = 2;
  g.beginPath();
  points.forEach((p, i) => (i ? g.lineTo(x(p.n), y(p.gelem)) : g.moveTo(x(p.n), y(p.gelem))));
  g.stroke();
  g.fillStyle = '#1f77b4';
  for (const p of points) { g.beginPath(); g.arc(x(p.n), y(p.gelem), 3, 0, 7); g.fill(); }
}

try {
  const { device, adapterInfo } = await openDevice();
  wg = await Wgscan.create(device, { adapterInfo });
  const i = wg.info;
  $('device').textContent = `${i.name} (${i.adapterType === 'cpu' ? 'a CPU driver' : 'a GPU'})`;
  $('adapter').textContent = [`features: subgroups ${i.subgroups}${i.subgroups ? ` (${i.subgroupMinSize}..${i.subgroupMaxSize})` : ''}, timestamp-query ${i.timestampQuery}, shader-f16 ${i.shaderF16}${i.shaderF16 ? '' : ' (no f16 offered)'}`,
    `maxBufferSize ${i.maxBufferSize}, maxStorageBufferBindingSize ${i.maxStorageBufferBindingSize}`].join('\n');
  for (const spec of CARDS) $('cards').append(build(spec));
  $('status').textContent = 'ready';
} catch (e) {
  $('status').textContent = `cannot start: ${e.message}`;
  $('status').className = 'status bad';
}
