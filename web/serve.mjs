// SPDX-License-Identifier: MIT
// serve.mjs: serves the browser demo on 127.0.0.1 (never another interface):
//   node web/serve.mjs [--port 8080] [--wasm build/web/wgscan.wasm]
// web/ is served as is; wgscan.wasm (beside the module, /package/wgscan.wasm, or at the
// root) comes from the build folder.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json',
};

// Starts the server; resolves to { url, close }. port 0 picks a free port. root: the
// folder served (default web/); wasm: null serves root's own wgscan.wasm files.
export function serve({ port = 0, wasm = join(here, '..', 'build', 'web', 'wgscan.wasm'), root = here } = {}) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    const file = wasm && path.endsWith('/wgscan.wasm') ? wasm : join(root, path === '/' ? 'index.html' : path);
    if (!file.startsWith(root) && file !== wasm) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  const { url } = await serve({ port: Number(arg('--port', 8080)), wasm: arg('--wasm', undefined) });
  console.log(`wgscan demo: ${url} (Ctrl-C stops)`);
}
