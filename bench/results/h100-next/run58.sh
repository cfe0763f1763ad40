#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 58 (issue 32): run57's change taken apart: build/wgscan (the leader by the f32
# exponent and the written digit as a shift and a mask) against cmp/wgscan-w (the same
# and a whole tile's keys written without a test each) and cmp/wgscan-base (626728d),
# for keys, pairs and u64 at their defaults and keys at 256 x 10 to 16.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run58
B() { P cmp/wgscan-base "$@"; }
W() { P cmp/wgscan-w "$@"; }
K="sort --n 268435456 --repeat 10"
S warm - sort --n 16777216 --repeat 3
W warm - sort --n 16777216 --repeat 3
B warm - sort --n 16777216 --repeat 3
for a in "" "--pairs" "--type u64"; do
  B base - $K $a
  W w - $K $a
  S n - $K $a
done
for t in 256,12,1 256,10,1 256,14,1 384,8,1; do
  W w "WGSCAN_TUNE_SORT=$t" $K
  S n "WGSCAN_TUNE_SORT=$t" $K
done
for t in 256,12,1 256,6,1; do
  W w "WGSCAN_TUNE_SORT=$t" $K --type u64
  S n "WGSCAN_TUNE_SORT=$t" $K --type u64
done
S n "WGSCAN_TUNE_SORT=256,12,1" $K --type f32
S n "WGSCAN_TUNE_SORT=256,12,1" $K --type i32
S n "WGSCAN_TUNE_SORT=256,12,1" sort --n 16777216 --repeat 30
S n "WGSCAN_TUNE_SORT=256,12,1" sort --n 4194304 --repeat 30
S n - sort --n 4194304 --repeat 30
cat $L
