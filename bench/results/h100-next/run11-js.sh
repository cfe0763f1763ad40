#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 11 (issue 34): why the package's memory-bound kernels ran at half the native
# speed under Dawn for Node (run 9): the native copy and reduce at 2^28, a plain copy
# written in js-copy.mjs under Dawn for Node (not the package's), the package's reduce
# and single-pass scan at 2^28, and the encode cost (bb184e6's bind group cache: calls
# and host time of a repeated encode, encode_us of the package's bench at 2^20). Carry: .gl .jsrt build/wgscan
# build/web/wgscan.wasm node_modules/bun-webgpu-linux-x64 (scripts/prepare-js-carry.sh).
set -u
out=${OUT:-out}
mkdir -p "$out" /tmp/jsrt
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export WGSCAN_WEBGPU_LIB="$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so"
xz -dc .jsrt/node.xz > /tmp/jsrt/node && chmod +x /tmp/jsrt/node
xz -dc .jsrt/webgpu.tar.xz | tar -C node_modules -xf -
node=/tmp/jsrt/node
L=$out/run11.log
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $L
timeout 60 build/wgscan bench --series none --primitives reduce-tree --min 2^28 --max 2^28 --runs 30 \
  --csv /dev/stdout --json /tmp/n.json --svg /tmp/n.svg 2>&1 | grep -E "reduce|rror" >> $L
timeout 120 "$node" bench/results/h100-next/js-copy.mjs >> $L 2>&1
timeout 120 "$node" web/package/bench.mjs --wasm build/web/wgscan.wasm --primitives reduce,scan-single-pass \
  --min 2^28 --max 2^28 --runs 30 --csv "$out/js.csv" >> $L 2>&1
timeout 60 build/wgscan bench --series none --primitives reduce-tree --min 2^28 --max 2^28 --runs 30 \
  --csv /dev/stdout --json /tmp/n.json --svg /tmp/n.svg 2>&1 | grep -E "reduce|rror" >> $L
timeout 120 "$node" scripts/js-encode-cost.mjs --count >> $L 2>&1
timeout 120 "$node" web/package/bench.mjs --wasm build/web/wgscan.wasm --primitives scan,reduce,sort-keys,sort-pairs,sort-splat \
  --min 2^20 --max 2^20 --runs 30 --csv "$out/js20.csv" >> $L 2>&1
grep -v XDG $L
