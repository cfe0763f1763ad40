#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 48 (issue 34, twelfth session; for an H200): the figures the issue is judged by, in
# one call on the machine it names: each primitive through the package (web/package/
# bench.mjs under Dawn for Node) beside the native `wgscan bench` at 2^24, each in a
# process of its own (ROUNDS=2: a second round in reverse order); the host time of one
# encode, plan reused (scripts/js-encode-cost.mjs, the splat sort's counts on the GPU);
# the splat sort and the sort of pairs through the package at 2^20 to 2^24; the
# package's Node test on the GPU where NODE_TEST=1; first lab48.sh. About 220 s. Carry: .gl .jsrt build/wgscan build/wgscan-lab
# build/web/wgscan.wasm node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run48
mkdir -p /tmp/jsrt
xz -dc .jsrt/node.xz > /tmp/jsrt/node && chmod +x /tmp/jsrt/node
xz -dc .jsrt/webgpu.tar.xz | tar -C node_modules -xf -
node=/tmp/jsrt/node
. bench/results/h100-next/lab48.sh
P="scan-single-pass:single-pass reduce:reduce-tree count:count-tree select-if:select-if histogram-256:histogram-256
sort-keys:sort-keys sort-pairs:sort-pairs segmented-reduce-256:segmented-reduce-256 segmented-scan-256:segmented-scan-256
scan-by-key-256:scan-by-key-256 reduce-by-key-256:reduce-by-key-256 topk-1024:topk-1024 segmented-sort-256:segmented-sort-256"
pair() { # package name, native name: one line each
  local js=${1%%:*} nat=${1#*:} a
  if [ "$nat" = single-pass ]; then a="--series u32:add --algorithms single-pass"; else a="--series none --primitives $nat"; fi
  echo "native $nat: $(timeout 60 build/wgscan bench $a --min 2^24 --max 2^24 --runs 30 --csv /dev/stdout \
    --json /tmp/n.json --svg /tmp/n.svg 2>&1 | grep -E '^u32,|rror|warning' | cut -d, -f3,5,9,12,13 | tr '\n' ' ')" >> $L
  echo "package $js: $(timeout 90 "$node" web/package/bench.mjs --wasm build/web/wgscan.wasm --primitives $js \
    --min 2^24 --max 2^24 --runs 30 2>&1 | grep -E "GPU|rror" | tr -s ' ' | tr '\n' ' ') ($(( $(date +%s) - start )) s)" >> $L
}
for p in $P; do pair $p; done
[ "${ROUNDS:-1}" = 2 ] && for p in $(echo $P | tr ' ' '\n' | tac); do pair $p; done
echo "== encode (js-encode-cost.mjs --count) ($(( $(date +%s) - start )) s)" >> $L
timeout 120 "$node" scripts/js-encode-cost.mjs --count >> $L 2>&1
echo "== splat ($(( $(date +%s) - start )) s)" >> $L
timeout 120 "$node" web/package/bench.mjs --wasm build/web/wgscan.wasm --primitives sort-pairs,sort-splat \
  --min 2^20 --max 2^24 --runs 30 2>&1 | grep -E "GPU|rror" >> $L
[ "${NODE_TEST:-0}" = 1 ] && echo "== node test ($(( $(date +%s) - start )) s)" >> $L
[ "${NODE_TEST:-0}" = 1 ] && timeout $(( 560 - ($(date +%s) - start) )) "$node" tests/node/test_node.mjs --wasm build/web/wgscan.wasm 2>&1 | tail -3 >> $L
echo "end ($(( $(date +%s) - start )) s)" >> $L
grep -v XDG $L
