#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 38 (issue 34, prepared in the ninth session): why the package's sort of keys ran
# 11% behind native at 2^24 (run29, run31, run35) while every other primitive was within
# 2%: what Dawn for Node reports of the adapter and device (js-info.mjs) against
# `wgscan info`, then the two at 2^20 to 2^24. Carry: .gl .jsrt build/wgscan
# build/web/wgscan.wasm node_modules/bun-webgpu-linux-x64.
set -u
out=${OUT:-out}
mkdir -p "$out" /tmp/jsrt
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export WGSCAN_WEBGPU_LIB="$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so"
xz -dc .jsrt/node.xz > /tmp/jsrt/node && chmod +x /tmp/jsrt/node
xz -dc .jsrt/webgpu.tar.xz | tar -C node_modules -xf -
node=/tmp/jsrt/node
L=$out/run38.log
build/wgscan info > $L 2>&1
timeout 60 "$node" bench/results/h100-next/js-info.mjs >> $L 2>&1
timeout 120 build/wgscan bench --series none --primitives sort-keys --min 2^20 --max 2^24 --runs 30 --csv /dev/stdout \
  --json /tmp/n.json --svg /tmp/n.svg 2>&1 | grep -E "^u32,|rror" | cut -d, -f3-5,9 >> $L
timeout 120 "$node" web/package/bench.mjs --wasm build/web/wgscan.wasm --primitives sort-keys --min 2^20 --max 2^24 \
  --runs 30 2>&1 | grep -E "GPU|rror" >> $L
grep -v XDG $L
