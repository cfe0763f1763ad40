#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 68 (issues 32, 33, 36; for an H200, as run66 with the suite at the end): every figure the
# open issues are judged by on the machine they name, then the whole suite (about 250 s
# and 150 s on an H200; run48-js.sh for issue 34 in the next call). Pairs sort by
# one-sweep now (seventeenth session): the reduce-then-scan's pairs beside it.
#   32: `wgscan bench` rows of the sorts at 2^28 (keys, pairs, f32, u64) and 2^20..2^24,
#       i32 by `wgscan sort`;
#   33: scripts/gpu-operators.sh (a user's u32 add against the built-in, the affine f32
#       scan against a copy of its bytes);
#   36: top-k of 1024 at 2^28 and 64 rows of 128k f32 k = 50, the segmented sorts at 2^26;
#   CUB's DeviceRadixSort and DeviceSegmentedSort on the same sizes (bench/cub).
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run68
B() { # min max primitives: the CSV rows
  timeout 150 build/wgscan bench --series none --primitives $3 --min $1 --max $2 --runs 20 \
    --csv /dev/stdout --json /tmp/b.json --svg /tmp/b.svg 2>&1 | grep -E "^u32,|^f32,|rror|warning" >> $L
  echo "($(( $(date +%s) - start )) s)" >> $L
}
S warm - segmented-sort --n 1048576 --segments 4096 --repeat 2
B 2^28 2^28 sort-keys,sort-pairs,sort-f32,sort-u64
B 2^20 2^24 sort-keys
S i32 - sort --n 268435456 --repeat 10 --type i32
S u32 - sort --n 268435456 --repeat 10
S pairs-rs - sort --n 268435456 --repeat 10 --pairs --algorithm reduce-scan
S u64-pairs - sort --n 268435456 --repeat 10 --pairs --type u64
B 2^28 2^28 topk-1024
B 2^23 2^23 topk-rows-50
B 2^26 2^26 segmented-sort-16,segmented-sort-256,segmented-sort-4096,segmented-sort-65536
OUT=$out/ops timeout 150 bash scripts/gpu-operators.sh > $out/operators.log 2>&1
echo "operators rc=$? ($(( $(date +%s) - start )) s)" >> $L
grep -E "GPU|bits|rror|differ|passed|verify" $out/operators.log | head -40 >> $L
echo "== CUB" >> $L
timeout 200 bash bench/cub/run_primitives.sh 20 28 2>&1 | grep -iE "sort|topk|rror|^primitive|copy" >> $L
echo "cub rc=$? ($(( $(date +%s) - start )) s)" >> $L
suite 590
cat $L
