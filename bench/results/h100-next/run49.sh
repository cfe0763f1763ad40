#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 49 (issues 32 and 36, for the next session, on an H200): the whole suite at the
# sort's choice by n (a plan past the one-sweep bound sorts n up to it by one-sweep),
# the bench's sort sweep 2^20 .. 2^24 under one plan (2^20 was reduce-then-scan's 128
# µs in run46), the top-k rows run46 left out (k = 1024 of 2^28; 64 rows of 128k f32,
# k = 50), the laboratory's atomic staging against plain (lab48.sh) and the library's
# (WGSCAN_SORT_STAGE=room|plain at shapes where both give one workgroup a core: 384 x
# 16, 256 x 23; and the default, where plain costs a workgroup a core), the segmented
# sort by path, then the suite. About 400 s. Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run49
B() { # min max primitives: the CSV rows
  timeout 120 build/wgscan bench --series none --primitives $3 --min $1 --max $2 --runs 20 \
    --csv /dev/stdout --json /tmp/b.json --svg /tmp/b.svg 2>&1 | grep -E "^[a-z0-9]*,|rror|warning" | grep -v "^type," >> $L
  echo "($(( $(date +%s) - start )) s)" >> $L
}
B 2^20 2^24 sort-keys
B 2^28 2^28 topk-1024
B 2^23 2^23 topk-rows-50
B 2^28 2^28 sort-f32,sort-u64
. bench/results/h100-next/lab48.sh
for shape in default 384,16,1 256,23,1; do
  sh=; [ $shape = default ] || sh=WGSCAN_TUNE_SORT=$shape
  for st in room plain; do
    S stage "$sh WGSCAN_SORT_STAGE=$st" sort --n 268435456 --repeat 10
  done
done
S stage-pairs WGSCAN_SORT_STAGE=plain sort --n 268435456 --repeat 10 --payload index
# The segmented sort by path (issue 36): what the large path's empty passes and the
# lists cost each length, against the small path alone (the first segmented sort of a
# run is slow: one warms them).
S warm - segmented-sort --n 1048576 --segments 4096 --repeat 2
for len in 16 256 4096; do
  for path in default small; do
    S segsort-path - segmented-sort --n 67108864 --segments $len --repeat 10 --path $path
  done
done
S segsort-path - segmented-sort --n 67108864 --segments 65536 --repeat 10
suite ${SUITE_UNTIL:-590}
cat $L
