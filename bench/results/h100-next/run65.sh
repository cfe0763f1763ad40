#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 65 (issue 32), short: the one-sweep histogram on about 4096 workgroups
# (cmp/wgscan-h4096) against about 1024 (cmp/wgscan-head, 2c2c22f): 1024 to 2047
# workgroups of 30-36 registers are 1-2 waves of a GPU's resident workgroups, so the last
# wave may run part-empty; and one-sweep's 256 x 12 against its tuned 256 x 16 where it
# is DEFAULT (2^20, 2^21); and the segmented sort's tiny segments walked in workgroup
# memory (cmp/wgscan-t1, /work/notes/patches/t1-*.patch: each lane read every key of its
# segment through the caches) against head; and pairs whose one-word values are loaded
# into registers when the keys are placed (cmp/wgscan-v1, v1-*.patch: they were read
# only after the keys were written). Build them with /work/notes/build-candidates.sh.
# And one-sweep's no-lookback experiment guessing places from uniform shares without the
# per-tile scan of the histogram (cmp/wgscan-x1), to see what that scan cost run64's
# 9.77 ms, and without the tile's claim or its zeroing of the next pass's states (the
# pass without look-back is 2.25 ms against the reduce-then-scan scatter's 1.73). None is on main: a candidate that wins needs the whole suite on its build.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run65
H() { P cmp/wgscan-head "$@"; }
F() { P cmp/wgscan-h4096 "$@"; }
K="sort --n 268435456 --repeat 10 --algorithm onesweep"
H warm - sort --n 16777216 --repeat 3
F warm - sort --n 16777216 --repeat 3
for t in 256,12,1 256,16,1; do
  H head-hist "WGSCAN_TUNE_SORT=$t WGSCAN_SORT_PHASES=count" $K
  F h4096-hist "WGSCAN_TUNE_SORT=$t WGSCAN_SORT_PHASES=count" $K
  H head "WGSCAN_TUNE_SORT=$t" $K
  F h4096 "WGSCAN_TUNE_SORT=$t" $K
done
X() { P cmp/wgscan-x1 "$@"; }
for t in 256,12,1 256,16,1; do
  H head-no-lookback "WGSCAN_TUNE_SORT=$t WGSCAN_SORT_PHASES=count,scatter,no-lookback" $K
  X x1-no-lookback "WGSCAN_TUNE_SORT=$t WGSCAN_SORT_PHASES=count,scatter,no-lookback" $K
  X x1-no-lookback-claim "WGSCAN_TUNE_SORT=$t WGSCAN_SORT_PHASES=count,scatter,no-lookback,no-claim" $K
  X x1-no-lookback-zero "WGSCAN_TUNE_SORT=$t WGSCAN_SORT_PHASES=count,scatter,no-lookback,no-zero" $K
  X x1-no-lookback-claim-zero "WGSCAN_TUNE_SORT=$t WGSCAN_SORT_PHASES=count,scatter,no-lookback,no-claim,no-zero" $K
done
for n in 1048576 2097152; do
  H head - sort --n $n --repeat 50
  H head-12 WGSCAN_TUNE_SORT=256,12,1 sort --n $n --repeat 50 --algorithm onesweep
done
T() { P cmp/wgscan-t1 "$@"; }
H warm - segmented-sort --n 67108864 --segments 4096 --repeat 2
T warm - segmented-sort --n 67108864 --segments 4096 --repeat 2
for l in 16 32 random:32 8; do
  H head - segmented-sort --n 67108864 --segments $l --repeat 20
  T t1 - segmented-sort --n 67108864 --segments $l --repeat 20
done
H head - segmented-sort --n 67108864 --segments 16 --repeat 20 --pairs
T t1 - segmented-sort --n 67108864 --segments 16 --repeat 20 --pairs
V() { P cmp/wgscan-v1 "$@"; }
V warm - sort --n 16777216 --repeat 3 --pairs
for a in "--pairs" "--pairs --type f32" "--pairs --type u64" "--payload index" "--pairs --algorithm onesweep"; do
  H head - sort --n 268435456 --repeat 10 $a
  V v1 - sort --n 268435456 --repeat 10 $a
done
H head - sort --n 16777216 --repeat 30 --pairs
V v1 - sort --n 16777216 --repeat 30 --pairs
cat $L
