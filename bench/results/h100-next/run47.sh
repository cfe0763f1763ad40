#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 47 (issue 32, twelfth session): what Dawn's bounds checks and its zeroing of
# workgroup memory cost the sort, by shape (the default 256 x 8, CUB's 384 x 23 at 1
# and 4 tiles a group), with the scatter's phases: each `wgscan sort` of 2^28 u32 keys
# with WGSCAN_DAWN_TOGGLES none, disable_robustness, disable_workgroup_init and both
# (the results of a cut run are wrong; the time is what counts). About 150 s.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run47
N=${N:-268435456}
S warm - sort --n 1048576 --repeat 3
for shape in default 384,23,1 384,23,4 512,16,1; do
  sh=; [ $shape = default ] || sh=WGSCAN_TUNE_SORT=$shape
  for tg in - disable_robustness disable_workgroup_init disable_robustness,disable_workgroup_init; do
    t=; [ $tg = - ] || t=WGSCAN_DAWN_TOGGLES=$tg
    e="$sh $t"; [ -n "${e// /}" ] || e=-
    S keys "$e" sort --n $N --repeat 10
  done
  for ph in count,scan count,scan,scatter,no-rank; do
    e="$sh WGSCAN_SORT_PHASES=$ph"
    S phases "${e# }" sort --n $N --repeat 10
    S phases "${e# } WGSCAN_DAWN_TOGGLES=disable_robustness,disable_workgroup_init" sort --n $N --repeat 10
  done
done
for tg in - disable_robustness,disable_workgroup_init; do
  t=-; [ $tg = - ] || t=WGSCAN_DAWN_TOGGLES=$tg
  S pairs $t sort --n $N --repeat 10 --payload index
  S onesweep $t sort --n $N --repeat 10 --algorithm onesweep
  S k24 $t sort --n 16777216 --repeat 30
  S k20 $t sort --n 1048576 --repeat 50
done
cat $L
