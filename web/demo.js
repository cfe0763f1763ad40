// demo.js: the demo page. Runs a scan of the chosen size, type and operator, verifies
// it against the JavaScript reference and shows timings; the sweep draws throughput
// against n.
import { Wgscan } from './package/wgscan.js';
import { openDevice } from './device.js';
import { randomInput, verifyScan } from './reference.js';

const $ = (id) => document.getElementById(id);
const status = (text, cls = '') => { $('status').textContent = text; $('status').className = cls; };
let wg;
const sweepPoints = [];

function drawChart() {
  const c = $('chart'), g = c.getContext('2d');
  g.clearRect(0, 0, c.width, c.height);
  g.font = '12px sans-serif';
  const L = 60, B = 30, T = 24, R = 20, W = c.width - L - R, H = c.height - T - B;
  const pts = sweepPoints.filter((p) => p.gelem > 0);
  const ymax = Math.max(1e-6, ...pts.map((p) => p.gelem)) * 1.15;
  g.strokeStyle = '#ccc';
  g.fillStyle = '#555';
  for (let i = 0; i <= 4; i++) {
    const y = T + H - (H * i) / 4;
    g.beginPath(); g.moveTo(L, y); g.lineTo(L + W, y); g.stroke();
    g.fillText(((ymax * i) / 4).toPrecision(3), 4, y + 4);
  }
  g.fillText('Gelem/s', 4, 12);
  if (!pts.length) return;
  const kmin = Math.log2(pts[0].n), kmax = Math.max(kmin + 1, Math.log2(pts[pts.length - 1].n));
  const x = (n) => L + ((Math.log2(n) - kmin) / (kmax - kmin)) * W;
  const y = (v) => T + H - (v / ymax) * H;
  for (const p of pts) g.fillText(`2^${Math.log2(p.n)}`, x(p.n) - 12, T + H + 18);
  g.strokeStyle = '#1f77b4';
  g.lineWidth = 2;
  g.beginPath();
  pts.forEach((p, i) => (i ? g.lineTo(x(p.n), y(p.gelem)) : g.moveTo(x(p.n), y(p.gelem))));
  g.stroke();
  g.fillStyle = '#1f77b4';
  for (const p of pts) { g.beginPath(); g.arc(x(p.n), y(p.gelem), 3, 0, 7); g.fill(); }
}

async function runOnce(n, type, op, kind, algorithm) {
  const input = randomInput(type, op, n, 7);
  const r = await wg.scan(input, { op, kind, algorithm });
  const check = verifyScan(input, r.output, type, op, kind === 'inclusive');
  return { ...r, check };
}

async function run() {
  const n = Math.max(0, Math.floor(Number($('n').value)));
  const type = $('type').value, op = $('op').value, kind = $('kind').value, algorithm = $('algorithm').value;
  status(`scanning ${n} ${type} (${op}, ${kind})...`);
  try {
    const r = await runOnce(n, type, op, kind, algorithm);
    const ok = r.check.mismatches === 0;
    status(ok ? `verified: all ${n} elements match the JavaScript reference`
      : `WRONG: ${r.check.mismatches} elements differ, first at ${r.check.firstBad}`, ok ? 'ok' : 'bad');
    const rows = [
      ['algorithm', r.algorithm],
      ['GPU time (timestamp queries)', r.gpuMs == null ? 'no timestamp-query' : `${r.gpuMs.toFixed(3)} ms`],
      ['throughput', r.gpuMs ? `${(n / r.gpuMs / 1e6).toFixed(3)} Gelem/s` : '-'],
      ['upload, run, download', `${r.totalMs.toFixed(2)} ms`],
      ['first outputs', Array.from(r.output.slice(0, 6)).join(', ')],
    ];
    $('result').innerHTML = rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('');
  } catch (e) {
    status(`error: ${e.message}`, 'bad');
  }
}

async function sweep() {
  const type = $('type').value, op = $('op').value, kind = $('kind').value, algorithm = $('algorithm').value;
  sweepPoints.length = 0;
  for (let k = 10; k <= 20; k += 2) {
    status(`sweep: n = 2^${k}...`);
    const r = await runOnce(2 ** k, type, op, kind, algorithm);
    if (r.check.mismatches) { status(`WRONG at n = 2^${k}`, 'bad'); return; }
    sweepPoints.push({ n: 2 ** k, gelem: r.gpuMs ? 2 ** k / r.gpuMs / 1e6 : 0 });
    drawChart();
  }
  status(`sweep done: ${sweepPoints.length} sizes verified`, 'ok');
}

try {
  const { device, adapterInfo } = await openDevice();
  wg = await Wgscan.create(device, { adapterInfo });
  const i = wg.info;
  $('adapter').textContent = [`${i.vendor} | ${i.architecture} | ${i.device} ${i.description}`,
    `adapter type: ${i.adapterType}; subgroups ${i.subgroups} (${i.subgroupMinSize}..${i.subgroupMaxSize}), timestamp-query ${i.timestampQuery}, shader-f16 ${i.shaderF16}`,
    `maxBufferSize ${i.maxBufferSize}, maxStorageBufferBindingSize ${i.maxStorageBufferBindingSize}`].join('\n');
  $('run').onclick = run;
  $('sweep').onclick = sweep;
  drawChart();
  status('ready');
} catch (e) {
  status(`cannot start: ${e.message}`, 'bad');
}
