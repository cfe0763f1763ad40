#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 22 (2026-12-06, eighth session), at most 230 s: f32 pairs with the digit held
# (build/var-H, 74fd9e2) and computed again (build/wgscan, 3e043af: 23.27 ms in run21,
# u32 pairs 18.16); the segmented sort of segments of 16 twice (2.76 ms in run21, first
# after the sorts, against 1.24 in run13); then issue 34's run11-js (the package under
# Dawn for Node against native).
# Carry: .gl .jsrt build/wgscan build/var-H/wgscan build/web/wgscan.wasm node_modules/bun-webgpu-linux-x64
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run22.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -1 > $L
S() { # label, binary, args: the GPU line
  lab=$1 b=$2; shift 2
  t=$(timeout 20 $b "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab $b $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
N="sort --n 268435456 --repeat 10"
for b in build/var-H/wgscan build/wgscan build/var-H/wgscan build/wgscan; do S f32-pairs $b $N --payload index --type f32; done
for i in 1 2; do S segsort build/wgscan segmented-sort --n 67108864 --segments 16 --repeat 10; done
echo "== js ($(( $(date +%s) - start )) s)" >> $L
OUT=$OUT timeout $(( 225 - ($(date +%s) - start) )) bash bench/results/h100-next/run11-js.sh > /dev/null 2>&1
echo "js rc=$? ($(( $(date +%s) - start )) s)" >> $L
cat $L; grep -v XDG $OUT/run11.log
