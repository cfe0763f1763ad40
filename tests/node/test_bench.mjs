// SPDX-License-Identifier: MIT
// test_bench.mjs: the package's benchmark (web/package/bench.mjs) as a user runs it,
// on Dawn for Node: a few primitives at one small size, its JSON and CSV read back. It
// checks that the tool runs and reports whole rows, not the figures (a CPU driver's
// times mean nothing for a GPU).
//   node tests/node/test_bench.mjs --wasm build/web/wgscan.wasm
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const i = process.argv.indexOf('--wasm');
const wasm = resolve(i > 0 ? process.argv[i + 1] : join(repo, 'build', 'web', 'wgscan.wasm'));
const swiftshader = '/usr/lib/chromium/vk_swiftshader_icd.json';
const env = { ...process.env };
if (!env.VK_DRIVER_FILES && !env.VK_ICD_FILENAMES && existsSync(swiftshader)) {
  env.VK_ADD_DRIVER_FILES = [env.VK_ADD_DRIVER_FILES, swiftshader].filter(Boolean).join(':');
}
const bench = join(repo, 'web', 'package', 'bench.mjs');
const work = mkdtempSync(join(tmpdir(), 'wgscan-bench-'));
let failed = 0;
const check = (ok, line) => {
  console.log(`[${ok ? '  OK  ' : ' FAIL '}] ${line}`);
  if (!ok) failed++;
};
const run = (args) => {
  try {
    return { code: 0, out: execFileSync(process.execPath, [bench, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (e) {
    return { code: e.status, out: `${e.stdout}${e.stderr}` };
  }
};
try {
  const primitives = ['scan', 'reduce', 'histogram-256', 'segmented-reduce-256'];
  const json = join(work, 'b.json'), csv = join(work, 'b.csv');
  const r = run(['--wasm', wasm, '--primitives', primitives.join(','), '--min', '2^12', '--max', '8K', '--runs', '5', '--json', json, '--csv', csv]);
  check(r.code === 0, `bench ran (exit ${r.code})${r.code ? `\n${r.out}` : ''}`);
  if (r.code === 0) {
    const doc = JSON.parse(readFileSync(json, 'utf8'));
    const rows = doc.rows;
    const want = [4096, 8192].flatMap((n) => primitives.map((p) => `${p}@${n}`));
    check(JSON.stringify(rows.map((x) => `${x.primitive}@${x.n}`)) === JSON.stringify(want), `rows: ${rows.map((x) => `${x.primitive}@${x.n}`).join(' ')}`);
    const whole = rows.every((x) => ['gpu_us', 'copy_us', 'copies', 'encode_us', 'plan_cold_ms', 'plan_warm_ms'].every((k) => Number.isFinite(x[k]) && x[k] > 0));
    check(whole, 'every row has positive GPU, copy, encode and plan-creation times');
    check(typeof doc.adapter?.description === 'string' && doc.node === process.versions.node, `the adapter and node named: ${doc.adapter?.description}`);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    check(lines.length === rows.length + 1 && lines[0].startsWith('primitive,n,gpu_us'), `CSV: a header and ${lines.length - 1} rows`);
  }
  const bad = run(['--wasm', wasm, '--primitives', 'scann']);
  check(bad.code === 2 && /unknown primitive scann/.test(bad.out), `an unknown primitive: exit ${bad.code}`);
  const badN = run(['--wasm', wasm, '--min', '100']);
  check(badN.code === 2, `a size that is no power-of-two multiple of 64 refused: exit ${badN.code}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`bench: ${failed ? 'FAILED' : 'passed'}`);
process.exit(failed ? 1 : 0);
