#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 31 (issue 34): each primitive through the package under Node (Dawn for Node) and
# natively (wgscan bench) at 2^24, one process each and side by side, twice (the second
# round in reverse order), with both benches warming each point for 0.25 s and the
# package's data unrepeated (run29 found native points of one process moving 1.5-5x
# after a segmented sort, and the package's words repeating every 2^20). Then the host
# cost of one encode. Carry: .gl .jsrt build/wgscan build/web/wgscan.wasm
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
L=$out/run31.log
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader > $L
start=$(date +%s)
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
for p in $(echo $P | tr ' ' '\n' | tac); do pair $p; done
timeout 120 "$node" scripts/js-encode-cost.mjs --count >> $L 2>&1
grep -v XDG $L
