// test_browser.mjs: the browser test. Serves web/ on 127.0.0.1, drives Debian's
// Chromium headless with playwright-core (WebGPU on SwiftShader, no network), runs
// web/test.html (every type, operator, kind and algorithm at tile boundaries, bad inputs)
// and asserts every result, then runs the demo page and saves its screenshot.
//   node tests/browser/test_browser.mjs --wasm build/web/wgscan.wasm --screenshot build/web/demo.png
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { serve } from '../../web/serve.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const wasm = arg('--wasm', 'build/web/wgscan.wasm');
const shot = arg('--screenshot', 'build/web/demo.png');
const executablePath = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));
if (!executablePath) {
  console.log('no Chromium at /usr/lib/chromium/chromium (apt-get install chromium)');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const server = await serve({ wasm });
const args = ['--enable-unsafe-webgpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic', '--disable-gpu-sandbox'];
if (process.getuid?.() === 0) args.push('--no-sandbox');
const browser = await chromium.launch({ executablePath, args, headless: true });
let passed = 0, failed = 0;
try {
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.log(`  console: ${m.text()}`); });
  await page.goto(`${server.url}test.html`);
  await page.waitForFunction(() => window.__wgscanTest?.done, null, { timeout: 20 * 60 * 1000, polling: 500 });
  const r = await page.evaluate(() => window.__wgscanTest);
  console.log(`adapter: ${JSON.stringify(r.info)}`);
  for (const f of r.failures) console.log(`[ FAIL ] ${f}`);
  console.log(`test.html: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
  passed += r.passed;
  failed += r.failed;

  // The demo page, as a person would use it: 2^20 u32 sum, then the sweep.
  await page.setViewportSize({ width: 1040, height: 1000 });
  await page.goto(server.url);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'ready', null, { timeout: 60000 });
  await page.click('#run');
  await page.waitForFunction(() => /^(verified|WRONG|error)/.test(document.getElementById('status').textContent), null, { timeout: 300000 });
  const runStatus = await page.textContent('#status');
  const okRun = runStatus.startsWith('verified');
  console.log(`[${okRun ? '  OK  ' : ' FAIL '}] demo run: ${runStatus}`);
  okRun ? passed++ : failed++;
  await page.click('#sweep');
  await page.waitForFunction(() => /^(sweep done|WRONG|error)/.test(document.getElementById('status').textContent), null, { timeout: 600000 });
  const sweepStatus = await page.textContent('#status');
  const okSweep = sweepStatus.startsWith('sweep done');
  console.log(`[${okSweep ? '  OK  ' : ' FAIL '}] demo sweep: ${sweepStatus}`);
  okSweep ? passed++ : failed++;
  await page.click('#run'); // leave the verified 2^20 result on screen beside the chart
  await page.waitForFunction(() => /^(verified|WRONG|error)/.test(document.getElementById('status').textContent), null, { timeout: 300000 });
  console.log(`demo result table: ${(await page.textContent('#result')).replace(/\s+/g, ' ')}`);
  await page.screenshot({ path: shot, fullPage: true });
  console.log(`screenshot: ${shot}`);
} catch (e) {
  console.log(`[ FAIL ] ${e.stack ?? e}`);
  failed++;
} finally {
  await browser.close();
  await server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
