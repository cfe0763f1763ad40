// SPDX-License-Identifier: MIT
// test_browser.mjs: the browser test. Serves web/ on 127.0.0.1, drives a system
// browser headless (tests/browser/browsers.mjs: no download, no network), runs
// web/test.html and asserts every result; with --demo also drives the demo page
// through every primitive and saves its screenshot; with --splat runs the splat-sort
// page's test (web/splat.html?test=1: one frame's sort against the CPU).
//   node tests/browser/test_browser.mjs --engine chromium --wasm build/web/wgscan.wasm
//        [--groups scan,f16,...] [--quick] [--icd swiftshader|lavapipe] [--demo build/web/demo.png] [--splat]
// Exit status 0 when everything passed; an engine that is not installed fails.
import { serve } from '../../web/serve.mjs';
import { open, missing, runTestPage } from './browsers.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const engine = arg('--engine', 'chromium');
const icd = arg('--icd', 'swiftshader');
const wasm = arg('--wasm', 'build/web/wgscan.wasm');
const groups = arg('--groups', '');
const demoShot = arg('--demo', '');
const splat = process.argv.includes('--splat');
// make test-long (WGSCAN_TEST_LONG=1): every size and operator (--quick is then ignored),
// and the sort and segment groups' whole products.
const full = !['', '0'].includes(process.env.WGSCAN_TEST_LONG ?? '');
const quick = process.argv.includes('--quick') && !full;
const label = `${engine}${engine === 'firefox' ? ` (${icd})` : ''}`;

const why = missing(engine, icd);
if (why) {
  console.log(`${label}: ${why}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const t0 = Date.now();
const server = await serve({ wasm });
let passed = 0, failed = 0;
const tally = (ok, line) => {
  console.log(`[${ok ? '  OK  ' : ' FAIL '}] ${line}`);
  ok ? passed++ : failed++;
};
let session;
try {
  session = await open(engine, { icd });
  const { page } = session;
  const query = new URLSearchParams();
  if (groups) query.set('groups', groups);
  if (quick) query.set('quick', '1');
  if (full) query.set('full', '1');
  const r = await runTestPage(page, `${server.url}test.html?${query}`, 15 * 60 * 1000);
  console.log(`${label} adapter: ${JSON.stringify(r.info)}`);
  for (const f of r.failures) console.log(`[ FAIL ] ${f}`);
  console.log(`${label} test.html (${r.groups.join(', ')}): ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped; ms by group ${JSON.stringify(r.ms)}`);
  passed += r.passed;
  failed += r.failed;

  if (splat) {
    const t1 = Date.now();
    // Headless Chromium destroys the device of a page that presents to a WebGPU canvas
    // on SwiftShader ('Device was destroyed' at the first frame): there the page draws
    // into a texture of its own instead. Firefox draws to the canvas.
    const where = engine === 'chromium' ? '&offscreen=1' : '';
    const s = await runTestPage(page, `${server.url}splat.html?test=1${where}`, 10 * 60 * 1000);
    for (const f of s.failures) console.log(`[ FAIL ] splat: ${f}`);
    console.log(`${label} splat.html: ${s.passed} passed, ${s.failed} failed (${((Date.now() - t1) / 1000).toFixed(1)} s)`);
    passed += s.passed;
    failed += s.failed;
  }

  if (demoShot) {
    // The demo page as a person uses it: each primitive's Run, each verified.
    await page.goto(server.url);
    await page.waitFor(() => document.getElementById('status')?.textContent === 'ready', 60000);
    const cards = await page.evaluate(() => [...document.querySelectorAll('[data-primitive]')].map((c) => c.dataset.primitive));
    for (const p of cards) {
      await page.evaluate(new Function(`document.querySelector('[data-primitive="${p}"] button.run').click()`));
      await page.waitFor(new Function(`return /^(verified|WRONG|error)/.test(document.querySelector('[data-primitive="${p}"] .status').textContent)`), 120000);
      const s = await page.evaluate(new Function(`return document.querySelector('[data-primitive="${p}"] .status').textContent`));
      tally(s.startsWith('verified'), `demo ${p}: ${s}`);
    }
    // A bad input leaves an error and no stale result.
    await page.evaluate(() => { document.querySelector('[data-primitive="histogram"] input[name="bins"]').value = '0'; document.querySelector('[data-primitive="histogram"] button.run').click(); });
    await page.waitFor(() => /^(verified|WRONG|error)/.test(document.querySelector('[data-primitive="histogram"] .status').textContent), 60000);
    const stale = await page.evaluate(() => [document.querySelector('[data-primitive="histogram"] .status').textContent, document.querySelector('[data-primitive="histogram"] .result').textContent]);
    tally(stale[0].startsWith('error') && stale[1] === '', `demo error clears the result: ${stale[0]}`);
    await page.evaluate(() => { document.querySelector('[data-primitive="histogram"] input[name="bins"]').value = '64'; document.querySelector('[data-primitive="histogram"] button.run').click(); });
    await page.waitFor(() => /^(verified|WRONG|error)/.test(document.querySelector('[data-primitive="histogram"] .status').textContent), 60000);
    if (page.raw.setViewportSize) await page.raw.setViewportSize({ width: 1100, height: 1000 });
    await page.raw.screenshot({ path: demoShot, fullPage: true });
    console.log(`screenshot: ${demoShot}`);
  }
} catch (e) {
  tally(false, `${label}: ${e.stack ?? e}${e.cause ? `\ncaused by: ${e.cause.stack ?? e.cause}` : ''}`);
} finally {
  await session?.close();
  await server.close();
}
console.log(`${label}: ${passed} passed, ${failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
process.exit(failed ? 1 : 0);
