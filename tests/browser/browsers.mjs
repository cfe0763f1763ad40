// SPDX-License-Identifier: MIT
// browsers.mjs: launches the system's browsers headless with WebGPU, never downloading
// one, never reaching the network.
//   chromium: Debian's chromium through playwright-core (Dawn + Tint; WebGPU on its
//             SwiftShader);
//   firefox:  Debian's firefox-esr through puppeteer-core over WebDriver BiDi (wgpu +
//             Naga), on the Vulkan driver named by icd: 'swiftshader' (chromium's) or
//             'lavapipe' (mesa-vulkan-drivers; it has shader-f16).
// open(engine, options) resolves to { page, close }, where page has goto(url),
// waitFor(fn, timeoutMs) and evaluate(fn).
import { existsSync } from 'node:fs';

export const ICDS = {
  swiftshader: '/usr/lib/chromium/vk_swiftshader_icd.json',
  lavapipe: '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json',
};

const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];
const FIREFOX = ['/usr/bin/firefox-esr', '/usr/lib/firefox-esr/firefox-esr'];

// Why an engine cannot run here ('' when it can).
export function missing(engine, icd = 'swiftshader') {
  const bin = (engine === 'firefox' ? FIREFOX : CHROMIUM).find((p) => existsSync(p));
  if (!bin) return engine === 'firefox' ? 'no firefox-esr (apt-get install firefox-esr)' : 'no chromium (apt-get install chromium)';
  if (engine === 'firefox' && !existsSync(ICDS[icd])) return `no Vulkan driver ${ICDS[icd]} (apt-get install ${icd === 'lavapipe' ? 'mesa-vulkan-drivers' : 'chromium'})`;
  return '';
}

async function openChromium() {
  const { chromium } = await import('playwright-core');
  const executablePath = CHROMIUM.find((p) => existsSync(p));
  const args = ['--enable-unsafe-webgpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic', '--disable-gpu-sandbox'];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const browser = await chromium.launch({ executablePath, args, headless: true });
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.log(`  console: ${m.text()}`); });
  return {
    page: {
      goto: (url) => page.goto(url),
      waitFor: (fn, timeout) => page.waitForFunction(fn, null, { timeout, polling: 500 }),
      evaluate: (fn) => page.evaluate(fn),
      raw: page,
    },
    close: () => browser.close(),
  };
}

async function openFirefox(icd) {
  const puppeteer = (await import('puppeteer-core')).default;
  const executablePath = FIREFOX.find((p) => existsSync(p));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    // A waitFor is one WebDriver BiDi call that lasts as long as the wait: puppeteer's
    // default protocol timeout (180 s) would cut a whole test page's run short.
    protocolTimeout: 20 * 60 * 1000,
    env: { ...process.env, VK_ICD_FILENAMES: ICDS[icd], MOZ_CRASHREPORTER_DISABLE: '1' },
    extraPrefsFirefox: {
      'dom.webgpu.enabled': true,
      'gfx.webgpu.ignore-blocklist': true,
      // No network beyond the local server: no updates, telemetry or captive portal.
      'app.update.enabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'browser.safebrowsing.malware.enabled': false,
      'browser.safebrowsing.phishing.enabled': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
    },
  });
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.log(`  console: ${m.text()}`); });
  return {
    page: {
      goto: (url) => page.goto(url),
      waitFor: (fn, timeout) => page.waitForFunction(fn, { timeout, polling: 500 }),
      evaluate: (fn) => page.evaluate(fn),
      raw: page,
    },
    close: () => browser.close(),
  };
}

export function open(engine, { icd = 'swiftshader' } = {}) {
  return engine === 'firefox' ? openFirefox(icd) : openChromium();
}

// Runs a test page to its end: window.__wgscanTest (test.js's outcome object).
export async function runTestPage(page, url, timeoutMs) {
  await page.goto(url);
  await page.waitFor(() => window.__wgscanTest?.done, timeoutMs);
  return page.evaluate(() => window.__wgscanTest);
}
