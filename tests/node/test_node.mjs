// SPDX-License-Identifier: MIT
// test_node.mjs: the npm package under Node with the npm `webgpu` package (Dawn for
// Node). A folder laid out as the browser suite's (web/test.js, reference.js, device.js
// and package/ holding wgscan.js with the built wgscan.wasm beside it) runs the browser
// suite's groups: the package finds its wasm in its own folder, read from the file
// system, as an installed package does under Node. The Vulkan driver is the machine's;
// where the system has none registered, SwiftShader from Debian's chromium is added.
//   node tests/node/test_node.mjs --wasm build/web/wgscan.wasm [--groups a,b] [--full]
import { cpSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const wasm = resolve(arg('--wasm', join(repo, 'build', 'web', 'wgscan.wasm')));
// make test-long (WGSCAN_TEST_LONG=1): every group at every size, whatever the arguments.
const long = !['', '0'].includes(process.env.WGSCAN_TEST_LONG ?? '');
const full = process.argv.includes('--full') || long;
const groups = long ? null : arg('--groups', null);
const swiftshader = '/usr/lib/chromium/vk_swiftshader_icd.json';

if (!existsSync(wasm)) {
  console.error(`test_node: no ${wasm} (build with WGSCAN_WASM=ON)`);
  process.exit(1);
}
// The Vulkan loader reads these when Dawn creates its instance, which is below.
if (!process.env.VK_DRIVER_FILES && !process.env.VK_ICD_FILENAMES && existsSync(swiftshader)) {
  process.env.VK_ADD_DRIVER_FILES = [process.env.VK_ADD_DRIVER_FILES, swiftshader].filter(Boolean).join(':');
}
const { create, globals } = await import('webgpu');
Object.assign(globalThis, globals);
Object.defineProperty(globalThis, 'navigator', { value: { gpu: create([]) }, configurable: true });

const work = mkdtempSync(join(tmpdir(), 'wgscan-node-'));
let failed = 1;
try {
  for (const f of ['test.js', 'reference.js', 'device.js']) cpSync(join(repo, 'web', f), join(work, f));
  cpSync(join(repo, 'web', 'package', 'wgscan.js'), join(work, 'package', 'wgscan.js'));
  cpSync(wasm, join(work, 'package', 'wgscan.wasm'));
  const query = new URLSearchParams(full ? {} : { quick: '1' });
  if (groups) query.set('groups', groups);
  globalThis.__wgscanTestSearch = `?${query}`;
  const t0 = Date.now();
  await import(pathToFileURL(join(work, 'test.js')).href);
  const result = globalThis.__wgscanTest;
  while (!result.done) await new Promise((r) => setTimeout(r, 50));
  for (const f of result.failures) console.log(`FAIL ${f}`);
  const ms = Object.entries(result.ms).map(([g, t]) => `${g} ${(t / 1000).toFixed(1)} s`).join(', ');
  console.log(`node ${process.versions.node}, ${result.info?.name ?? 'no adapter'}: ${result.passed} passed, ` +
    `${result.failed} failed, ${result.skipped} skipped in ${((Date.now() - t0) / 1000).toFixed(1)} s (${ms})`);
  failed = result.failed || result.passed === 0 ? 1 : 0;
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed);
