#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 35 (issue 34): why one encode of a primitive with GPU-side counts (the splat sort,
# 8 indirect dispatches) took 1.5-5 ms of host time under Dawn for Node on the H100
# (run29, run31; 0.1 ms on SwiftShader): the encode cost with Dawn's validation on and
# off (skip_validation: Dawn validates each indirect dispatch's arguments), and the
# package's sort-keys and topk-1024 beside native again (topk now in input order as
# the native row). Carry: .gl .jsrt build/wgscan build/web/wgscan.wasm
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
L=$out/run35.log
: > $L
timeout 100 "$node" scripts/js-encode-cost.mjs --count >> $L 2>&1
echo "== skip_validation" >> $L
DAWN_FLAGS=enable-dawn-features=skip_validation timeout 100 "$node" scripts/js-encode-cost.mjs >> $L 2>&1
for p in sort-keys:sort-keys topk-1024:topk-1024; do
  js=${p%%:*} nat=${p#*:}
  echo "native $nat: $(timeout 60 build/wgscan bench --series none --primitives $nat --min 2^24 --max 2^24 --runs 30 --csv /dev/stdout \
    --json /tmp/n.json --svg /tmp/n.svg 2>&1 | grep -E '^u32,|rror' | cut -d, -f3,5,9 | tr '\n' ' ')" >> $L
  echo "package $js: $(timeout 90 "$node" web/package/bench.mjs --wasm build/web/wgscan.wasm --primitives $js \
    --min 2^24 --max 2^24 --runs 30 2>&1 | grep -E "GPU|rror" | tr -s ' ' | tr '\n' ' ')" >> $L
done
grep -v XDG $L
