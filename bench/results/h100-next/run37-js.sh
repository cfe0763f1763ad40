#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 37 (issue 34): the sort with its count in a GPU buffer dispatching its count and
# scatter kernels directly up to 8192 workgroups (sort.c DIRECT_MAX): the host time of
# one encode (the splat sort's 1.2-5 ms with 8 indirect dispatches, run31/run35), the
# splat sort's GPU time at 2^20 and 2^24 through the package, and the package's Node
# test on the GPU. Carry: .gl .jsrt build/wgscan build/web/wgscan.wasm
# node_modules/bun-webgpu-linux-x64.
set -u
out=${OUT:-out}
mkdir -p "$out" /tmp/jsrt
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export WGSCAN_WEBGPU_LIB="$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so"
xz -dc .jsrt/node.xz > /tmp/jsrt/node && chmod +x /tmp/jsrt/node
xz -dc .jsrt/webgpu.tar.xz | tar -C node_modules -xf -
node=/tmp/jsrt/node
L=$out/run37.log
: > $L
timeout 100 "$node" scripts/js-encode-cost.mjs --count >> $L 2>&1
timeout 120 "$node" web/package/bench.mjs --wasm build/web/wgscan.wasm --primitives sort-pairs,sort-splat \
  --min 2^20 --max 2^24 --runs 30 2>&1 | grep -E "GPU|rror" >> $L
timeout 300 "$node" tests/node/test_node.mjs --wasm build/web/wgscan.wasm 2>&1 | tail -3 >> $L
grep -v XDG $L
