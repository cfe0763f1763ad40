// SPDX-License-Identifier: MIT
// prepack.mjs: run by `npm pack` / `npm publish` in this folder (never by the package's
// users): copies the built wgscan.wasm and the licence in beside wgscan.js.
//   WGSCAN_WASM=path/to/wgscan.wasm npm pack    (default: ../../build/web/wgscan.wasm)
import { copyFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wasm = resolve(process.env.WGSCAN_WASM ?? join(here, '..', '..', 'build', 'web', 'wgscan.wasm'));
if (!existsSync(wasm)) {
  console.error(`prepack: no ${wasm}; build it first (cmake -B build && cmake --build build) or set WGSCAN_WASM`);
  process.exit(1);
}
copyFileSync(wasm, join(here, 'wgscan.wasm'));
// package.json's files list the licence; npm leaves a missing file out without a word.
const licence = join(here, '..', '..', 'LICENSE');
if (!existsSync(licence)) {
  console.error(`prepack: no ${licence}: pack from the repository's web/package`);
  process.exit(1);
}
copyFileSync(licence, join(here, 'LICENSE'));
console.error(`prepack: ${wasm} -> wgscan.wasm`);
