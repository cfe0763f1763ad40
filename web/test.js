// test.js: the browser test suite, run by tests/browser/test_browser.mjs in headless
// Chromium. Scans of every type, operator, kind and algorithm at tile boundaries,
// checked against the JavaScript reference, and bad inputs with their exact codes.
// The outcome is left in window.__wgscanTest for the driver.
import { Wgscan, WgscanError } from './wgscan.js';
import { openDevice } from './device.js';
import { randomInput, verifyScan } from './reference.js';

const log = document.getElementById('log');
const result = { done: false, passed: 0, failed: 0, skipped: 0, failures: [], info: null };
window.__wgscanTest = result;
const say = (line) => { log.textContent += `\n${line}`; };

function record(name, ok, detail = '') {
  if (ok) result.passed++;
  else { result.failed++; result.failures.push(`${name}: ${detail}`); }
  say(`${ok ? 'ok  ' : 'FAIL'} ${name} ${ok ? '' : detail}`);
}

async function expectCode(name, code, fn) {
  try {
    await fn();
    record(name, false, `no error, expected code ${code}`);
  } catch (e) {
    record(name, e instanceof WgscanError && e.code === code, `${e.message}`);
  }
}

async function main() {
  const device = await openDevice();
  const wg = await Wgscan.create(device);
  result.info = wg.info;
  say(`adapter: ${wg.info.vendor} ${wg.info.architecture} ${wg.info.device} (subgroups ${wg.info.subgroups}, timestamps ${wg.info.timestampQuery}, f16 ${wg.info.shaderF16})`);
  const types = ['u32', 'i32', 'f32'].concat(wg.info.shaderF16 ? ['f16'] : []);
  if (!wg.info.shaderF16) { result.skipped++; say('skip f16: no shader-f16'); }
  const opsFor = (t) => (t === 'f32' || t === 'f16' ? ['add', 'min', 'max'] : ['add', 'min', 'max', 'and', 'or', 'xor']);
  let seed = 1;
  for (const algorithm of ['single-pass', 'multilevel']) {
    const probe = wg.createScanPlan({ algorithm, capacity: 1 });
    const t = probe.tileSize(algorithm);
    probe.destroy();
    const sizes = [0, 1, 2, 3, t - 1, t, t + 1, 2 * t + 1, 5 * t + 3];
    for (const type of types) {
      for (const op of opsFor(type)) {
        for (const kind of ['exclusive', 'inclusive']) {
          for (const n of sizes) {
            const input = randomInput(type, op, n, seed++);
            const name = `${algorithm} ${type} ${op} ${kind} n=${n}`;
            try {
              const { output } = await wg.scan(input, { op, kind, algorithm });
              const c = verifyScan(input, output, type, op, kind === 'inclusive');
              record(name, c.mismatches === 0 && output.length === n,
                `${c.mismatches} wrong, first at ${c.firstBad}: got ${c.got} want ${c.want}`);
            } catch (e) {
              record(name, false, e.message);
            }
          }
        }
      }
    }
  }
  // A larger scan through the default plan choice.
  {
    const input = randomInput('u32', 'add', 1 << 20, 99);
    const { output, algorithm } = await wg.scan(input);
    const c = verifyScan(input, output, 'u32', 'add', false);
    record(`auto (${algorithm}) u32 add exclusive n=2^20`, c.mismatches === 0, `${c.mismatches} wrong`);
  }
  // Bad input: the native library's numbered codes.
  await expectCode('xor on f32 is refused', 3, () => wg.createScanPlan({ type: 'f32', op: 'xor' }));
  await expectCode('unknown type is refused', 1, () => wg.createScanPlan({ type: 'u64' }));
  await expectCode('deterministic single pass is refused', 1, () => wg.createScanPlan({ algorithm: 'single-pass', deterministic: true }));
  {
    const plan = wg.createScanPlan({ capacity: 100 });
    const buf = device.createBuffer({ size: 1024, usage: GPUBufferUsage.STORAGE });
    const other = device.createBuffer({ size: 1024, usage: GPUBufferUsage.STORAGE });
    const small = device.createBuffer({ size: 64, usage: GPUBufferUsage.STORAGE });
    const enc = device.createCommandEncoder();
    await expectCode('n above capacity', 5, () => plan.encode(enc, { input: buf, output: other, n: 101 }));
    await expectCode('buffer too small', 6, () => plan.encode(enc, { input: buf, output: small, n: 100 }));
    await expectCode('misaligned offset', 7, () => plan.encode(enc, { input: buf, output: other, outputOffset: 4, n: 10 }));
    await expectCode('same buffer, other offset', 9, () => plan.encode(enc, { input: buf, output: buf, outputOffset: 256, n: 10 }));
    plan.destroy();
    for (const b of [buf, other, small]) b.destroy();
  }
  result.done = true;
  say(`${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`);
}

main().catch((e) => {
  result.failed++;
  result.failures.push(`setup: ${e.stack ?? e}`);
  result.done = true;
  say(`FAIL setup: ${e.stack ?? e}`);
});
