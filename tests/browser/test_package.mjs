// SPDX-License-Identifier: MIT
// test_package.mjs: the npm package as a web developer gets it. Packs web/package with
// `npm pack` (its prepack puts the built wgscan.wasm in), checks the tarball's files,
// installs it into an empty folder (offline: the package has no dependencies), type-
// checks a strict TypeScript consumer (tests/browser/consumer/main.ts) with tsc
// --noEmit against @webgpu/types, compiles it, and runs it from the installed package
// in headless Chromium and headless Firefox, every primitive verified; and runs the
// README's Node recipe from the installed package on Dawn for Node (npm `webgpu`).
//   node tests/browser/test_package.mjs --wasm build/web/wgscan.wasm [--engines chromium,firefox]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../web/serve.mjs';
import { open, missing, runTestPage } from './browsers.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const wasm = resolve(arg('--wasm', join(repo, 'build', 'web', 'wgscan.wasm')));
const engines = arg('--engines', 'chromium,firefox').split(',');
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
const webgpuTypes = join(repo, 'node_modules', '@webgpu', 'types');

let passed = 0, failed = 0;
const tally = (ok, line) => {
  console.log(`[${ok ? '  OK  ' : ' FAIL '}] ${line}`);
  ok ? passed++ : failed++;
};
const run = (cmd, args, cwd, env = {}) =>
  execFileSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const work = mkdtempSync(join(tmpdir(), 'wgscan-package-'));
const t0 = Date.now();
try {
  // Pack a copy laid out as the repository (the prepack takes the licence from two
  // folders up), so that the source folder stays as it is.
  const src = join(work, 'web', 'package');
  cpSync(join(repo, 'web', 'package'), src, { recursive: true, filter: (p) => !/\.tgz$|wgscan\.wasm$|LICENSE$/.test(p) });
  cpSync(join(repo, 'LICENSE'), join(work, 'LICENSE'));
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], src, { WGSCAN_WASM: wasm }));
  const files = packed[0].files.map((f) => f.path).sort();
  const want = ['LICENSE', 'README.md', 'bench.mjs', 'package.json', 'wgscan.d.ts', 'wgscan.js', 'wgscan.wasm'];
  tally(JSON.stringify(files) === JSON.stringify(want), `npm pack: ${packed[0].filename} holds ${files.join(', ')}`);
  const tarball = join(work, packed[0].filename);

  // An empty project installs it (no network: nothing to fetch).
  const app = join(work, 'app');
  cpSync(join(here, 'consumer'), app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], app);
  // @webgpu/types as a web developer adds it (here from the pinned copy, offline).
  cpSync(webgpuTypes, join(app, 'node_modules', '@webgpu', 'types'), { recursive: true });
  const installed = readdirSync(join(app, 'node_modules', 'wgscan')).sort();
  tally(existsSync(join(app, 'node_modules', 'wgscan', 'wgscan.wasm')), `installed: node_modules/wgscan holds ${installed.join(', ')}`);

  // The types: strict, through the package's exports.
  try {
    run(process.execPath, [tsc, '--noEmit', '-p', app], app);
    tally(true, 'tsc --noEmit: the consumer type-checks against wgscan.d.ts and @webgpu/types');
  } catch (e) {
    tally(false, `tsc --noEmit:\n${e.stdout}${e.stderr}`);
  }
  run(process.execPath, [tsc, '-p', app], app);

  // Under Node, the package's README recipe as written there, from the installed
  // package (its wgscan.wasm read from its folder) on Dawn for Node.
  try {
    const readme = readFileSync(join(app, 'node_modules', 'wgscan', 'README.md'), 'utf8');
    const recipe = readme.split('## Node')[1].match(/```js\n([^]*?)```/)[1];
    writeFileSync(join(app, 'node.mjs'), `${recipe}console.log(JSON.stringify(Array.from(output)));\n`);
    cpSync(join(repo, 'node_modules', 'webgpu'), join(app, 'node_modules', 'webgpu'), { recursive: true });
    for (const dep of ['debug', 'ms']) cpSync(join(repo, 'node_modules', dep), join(app, 'node_modules', dep), { recursive: true });
    const swiftshader = '/usr/lib/chromium/vk_swiftshader_icd.json';
    const env = process.env.VK_DRIVER_FILES || process.env.VK_ICD_FILENAMES || !existsSync(swiftshader) ? {}
      : { VK_ADD_DRIVER_FILES: [process.env.VK_ADD_DRIVER_FILES, swiftshader].filter(Boolean).join(':') };
    const out = run(process.execPath, ['node.mjs'], app, env).trim().split('\n').pop();
    tally(out === '[0,1,3]', `node ${process.versions.node}: the README's recipe from the installed package printed ${out}`);
  } catch (e) {
    tally(false, `node: the README's recipe: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }

  // Run it from the installed package (its own wgscan.wasm) in each browser.
  const server = await serve({ root: app, wasm: null });
  try {
    for (const engine of engines) {
      const why = missing(engine);
      if (why) { tally(false, `${engine}: ${why}`); continue; }
      const t1 = Date.now();
      const session = await open(engine);
      try {
        const r = await runTestPage(session.page, `${server.url}index.html`, 5 * 60 * 1000);
        for (const f of r.failures) console.log(`[ FAIL ] ${engine}: ${f}`);
        tally(r.failed === 0 && r.passed > 0,
          `${engine}: the installed package, ${r.passed} checks passed, ${r.failed} failed (${((Date.now() - t1) / 1000).toFixed(1)} s)`);
      } finally {
        await session.close();
      }
    }
  } finally {
    await server.close();
  }
} catch (e) {
  tally(false, `${e.stack ?? e}${e.stdout ?? ''}${e.stderr ?? ''}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`package: ${passed} passed, ${failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
process.exit(failed ? 1 : 0);
