#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 60 (issue 32): at f8b62ae (the leader by highest_bit, keys at 256 x 12): where a
# pass's time goes now (the scatter without its ranking), one-sweep at the new tile
# sizes, pairs with their digits held (so ranked by the new form) at 256 x 8 to 12, and
# the f32 and i32 pairs.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run60
K="sort --n 268435456 --repeat 10"
S warm - sort --n 16777216 --repeat 3
S keys - $K
S keys-no-rank WGSCAN_SORT_PHASES=count,scan,scatter,no-rank $K
S keys-count WGSCAN_SORT_PHASES=count $K
S keys-scan WGSCAN_SORT_PHASES=scan $K
for t in 256,12,1 256,8,1 256,16,1; do
  S os "WGSCAN_TUNE_SORT=$t" $K --algorithm onesweep
done
for n in 16777216 1048576; do
  S os-12 "WGSCAN_TUNE_SORT=256,12,1" sort --n $n --repeat 30 --algorithm onesweep
done
S pairs - $K --pairs
for t in 256,8,1 256,12,1 256,10,1; do
  S pairs-held "WGSCAN_SORT_DIGITS=held WGSCAN_TUNE_SORT=$t" $K --pairs
done
S pairs-f32 - $K --pairs --type f32
S pairs-i32 - $K --pairs --type i32
S pairs-idx - $K --payload index
cat $L
