#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 42 (issues 32, 36): the segmented sort's large path gathering a tile of keys a
# workgroup (run41: one segment of 2^26 keys took 138 ms, a workgroup copying it), at
# the segment lengths of run41; pairs at 384 x 12 (run40's best for u32 keys with
# indices) beside the default for every key and value width it would govern; where
# the one-sweep pass loses its time (phases, spins, look-back width, shapes); then the
# whole suite. Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run42
for l in 16 256 4096 65536 1048576 67108864; do
  S segsort - segmented-sort --n 67108864 --segments $l --repeat 10
done
S segsort-verify - segmented-sort --n 16777216 --segments 16777216 --repeat 1 --verify --payload index
S segsort-verify - segmented-sort --n 16777219 --segments 1000000 --repeat 1 --verify --pairs --type u64
K="sort --n 268435456 --repeat 10"
for sh in - WGSCAN_TUNE_SORT=384,12,1; do
  S pairs-index $sh $K --payload index
  S pairs-u32 $sh $K --pairs
  S pairs-u32v8 $sh $K --pairs --value-bytes 8
  S pairs-f32 $sh $K --pairs --type f32
  S pairs-i32 $sh $K --pairs --type i32
  S pairs-u64 $sh sort --n 134217728 --repeat 10 --pairs --type u64
  S pairs-u64v8 $sh sort --n 134217728 --repeat 10 --pairs --type u64 --value-bytes 8
done
S verify WGSCAN_TUNE_SORT=384,12,1 sort --n 16777219 --repeat 1 --pairs --type u64 --value-bytes 8 --verify
S verify WGSCAN_TUNE_SORT=384,12,1 sort --n 16777219 --repeat 1 --pairs --type f32 --verify
O="$K --algorithm onesweep"
S os - $O
S os WGSCAN_SORT_PHASES=count,scan,scatter,no-lookback $O
S os WGSCAN_SORT_PHASES=count,scan,scatter,no-write $O
S os WGSCAN_SORT_PHASES=count,scan,scatter,no-lookback,no-write $O
S os WGSCAN_LOOKBACK_SPINS=16 $O
S os WGSCAN_LOOKBACK_SPINS=8192 $O
S os WGSCAN_LOOKBACK=1 $O
S os WGSCAN_LOOKBACK=4 $O
S os WGSCAN_TUNE_SORT=256,8 $O
S os "WGSCAN_TUNE_SORT=256,8 WGSCAN_SORT_PHASES=count,scan,scatter,no-lookback" $O
S os WGSCAN_TUNE_SORT=256,12 $O
S rts WGSCAN_SORT_PHASES=scatter $K
S rts WGSCAN_SORT_PHASES=scatter,no-write $K
suite
cat $L
