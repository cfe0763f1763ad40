#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 29 (issue 34): every primitive the package's bench knows, through the package
# under Node (Dawn for Node) and natively (wgscan bench) in one device run, at 2^24
# (64 MiB a buffer: the run writes far less than the 4 GiB after which Dawn for Node
# runs every kernel at 0.57 speed, web/package/README.md), native before and after the
# package as a check of the device's pace; then the host cost of one encode
# (scripts/js-encode-cost.mjs) and the package's 2^20 figures with the splat sort.
# Carry: .gl .jsrt build/wgscan build/web/wgscan.wasm node_modules/bun-webgpu-linux-x64.
set -u
out=${OUT:-out}
mkdir -p "$out" /tmp/jsrt
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export WGSCAN_WEBGPU_LIB="$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so"
xz -dc .jsrt/node.xz > /tmp/jsrt/node && chmod +x /tmp/jsrt/node
xz -dc .jsrt/webgpu.tar.xz | tar -C node_modules -xf -
node=/tmp/jsrt/node
L=$out/run29.log
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $L
NATIVE=reduce-tree,count-tree,select-if,histogram-256,sort-keys,sort-pairs,segmented-reduce-256,segmented-scan-256,segmented-sort-256,topk-1024,scan-by-key-256,reduce-by-key-256
native() {
  timeout 120 build/wgscan bench --series u32:add --primitives $NATIVE --min 2^24 --max 2^24 --runs 30 \
    --csv "$out/native-$1.csv" --json /tmp/n.json --svg /tmp/n.svg > /dev/null 2>> $L
  echo "native $1 rc=$?" >> $L
}
native before
timeout 300 "$node" web/package/bench.mjs --wasm build/web/wgscan.wasm --primitives all \
  --min 2^24 --max 2^24 --runs 30 --csv "$out/js24.csv" >> $L 2>&1
echo "package rc=$?" >> $L
native after
timeout 120 "$node" scripts/js-encode-cost.mjs --count >> $L 2>&1
timeout 120 "$node" web/package/bench.mjs --wasm build/web/wgscan.wasm --primitives scan,reduce,sort-keys,sort-pairs,sort-splat \
  --min 2^20 --max 2^20 --runs 30 --csv "$out/js20.csv" >> $L 2>&1
grep -v XDG $L
