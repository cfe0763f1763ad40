#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 15 (2026-12-06, seventh session), at most 280 s:
#   1. issue 37 item 10, short: one process benches reduce-tree, then the by-key
#      primitives, then top-k and the segmented sort, at 2^28 (each point's copy_us and
#      pace_changed say whether the copy slowed after the by-key ones, as in eb54dec's
#      sweep), with nvidia-smi sampling; then topk-1024 alone (issue 36: k = 1024 of
#      2^28, target 1.05 ms);
#   2. issue 34: bench/results/h100-next/run11-js.sh (the package under Dawn for Node:
#      its copy against the native one, the encode's cost).
# Carry: .gl .jsrt build/wgscan build/web/wgscan.wasm node_modules/bun-webgpu-linux-x64
# (scripts/prepare-js-carry.sh).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run15.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,memory.used,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 200 > $OUT/smi.csv 2>&1 &
smi=$!
B() { # label, primitives
  echo "== $1 ($(( $(date +%s) - start )) s)" >> $L
  timeout 100 build/wgscan bench --series none --primitives $2 --min 2^28 --max 2^28 --runs 20 \
    --csv /tmp/$1.csv --json /tmp/$1.json --svg /tmp/$1.svg > /dev/null 2>> $L
  cut -d, -f1-14 /tmp/$1.csv >> $L
}
B sequence reduce-tree,scan-by-key-16,reduce-by-key-256,topk-1024,segmented-sort-16
B alone topk-1024,topk-rows-50
kill $smi
echo "== js ($(( $(date +%s) - start )) s)" >> $L
OUT=$OUT timeout $(( 275 - ($(date +%s) - start) )) bash bench/results/h100-next/run11-js.sh > /dev/null 2>&1
echo "js rc=$? ($(( $(date +%s) - start )) s)" >> $L
cat $L; grep -v XDG $OUT/run11.log
