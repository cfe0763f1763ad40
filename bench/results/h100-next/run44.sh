#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 44 (issues 36, 32): the segmented sort's tiny segments ranked from the caches or
# from workgroup memory (WGSCAN_SEGSORT_TINY, each twice, interleaved: run43's pairs of
# runs disagreed by more than their difference); the sort of 2^18-2^24 keys by
# one-sweep (now DEFAULT's up to 2^21, four states a read) and reduce-then-scan; then
# the whole suite. Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run44
S warm - sort --n 268435456 --repeat 10
for l in 1 5 16 32; do
  for k in 1 2; do
    S tiny WGSCAN_SEGSORT_TINY=cached segmented-sort --n 67108864 --segments $l --repeat 20
    S tiny WGSCAN_SEGSORT_TINY=staged segmented-sort --n 67108864 --segments $l --repeat 20
  done
done
S tiny-verify WGSCAN_SEGSORT_TINY=staged segmented-sort --n 16777219 --segments 24 --repeat 1 --verify --pairs --type i64 --value-bytes 8
S tiny-verify WGSCAN_SEGSORT_TINY=staged segmented-sort --n 16777216 --segments 7 --repeat 1 --verify --payload index --type f32 --descending
for e in 18 20 21 22 23 24; do
  n=$((1 << e))
  S sort - sort --n $n --repeat 50
  S sort - sort --n $n --repeat 50 --algorithm reduce-scan
  S sort - sort --n $n --repeat 50 --algorithm onesweep
  S sort WGSCAN_LOOKBACK=8 sort --n $n --repeat 50 --algorithm onesweep
  S sort WGSCAN_LOOKBACK=2 sort --n $n --repeat 50 --algorithm onesweep
  S pairs - sort --n $n --repeat 50 --payload index
  S pairs - sort --n $n --repeat 50 --payload index --algorithm reduce-scan
done
S verify - sort --n 2097152 --repeat 1 --pairs --type u64 --value-bytes 8 --verify
S sort - sort --n 268435456 --repeat 10 --algorithm onesweep
suite
cat $L
