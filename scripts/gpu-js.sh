#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The npm package on the GPU machine, in one device call (issue 34): the package's own
# benchmark under Node on Dawn for Node beside the native `wgscan bench` of the same
# primitives and sizes in the same run, the splat viewer's sort path at 1M and 8M, and
# the Node test of the package. Carry: .gl .jsrt build/wgscan build/web/wgscan.wasm
# node_modules/bun-webgpu-linux-x64 (scripts/prepare-js-carry.sh makes .jsrt). Results
# go to $OUT (or out/):
#   scripts/gpu-js.sh
set -u
out=${OUT:-out}
mkdir -p "$out" /tmp/jsrt/node_modules
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export WGSCAN_WEBGPU_LIB="$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so"
xz -dc .jsrt/node.xz > /tmp/jsrt/node && chmod +x /tmp/jsrt/node
xz -dc .jsrt/webgpu.tar.xz | tar -C node_modules -xf -
node=/tmp/jsrt/node
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,memory.used --format=csv | tee "$out/gpu.txt"
# The same primitives under each tool's names (the native scan is the u32:add series).
same=select-if,histogram-256,sort-keys,sort-pairs,segmented-reduce-256,segmented-scan-256,scan-by-key-256,reduce-by-key-256
native="reduce-tree,count-tree,$same"
js="scan,scan-single-pass,reduce,count,$same"
# Native first, then the package, then native again: a drift of the device's pace shows.
build/wgscan bench --series u32:add --primitives "$native" --min 2^20 --max 2^28 --runs 30 \
  --json "$out/native1.json" --csv "$out/native1.csv" --svg /tmp/native1.svg 2>&1 | tail -60 | tee "$out/native1.txt"
"$node" web/package/bench.mjs --wasm build/web/wgscan.wasm --primitives "$js,sort-splat" --min 2^20 --max 2^28 \
  --runs 30 --json "$out/js.json" --csv "$out/js.csv" 2>&1 | tee "$out/js.txt"
"$node" web/package/bench.mjs --wasm build/web/wgscan.wasm --primitives sort-splat --min 2^20 --max 2^23 \
  --runs 100 --csv "$out/splat.csv" 2>&1 | tee "$out/splat.txt"
build/wgscan bench --series u32:add --primitives "$native" --min 2^20 --max 2^28 --runs 30 \
  --csv "$out/native2.csv" --svg /tmp/native2.svg --json /tmp/native2.json 2>&1 | tail -60 > "$out/native2.txt"
timeout 600 "$node" tests/node/test_node.mjs --wasm build/web/wgscan.wasm 2>&1 | tail -5 | tee "$out/node-test.txt"
