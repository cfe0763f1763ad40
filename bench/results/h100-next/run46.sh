#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 46 (issues 32 and 36, twelfth session): run45's checks of the final tree (the
# one-sweep sort with its tuning row's look-back, DEFAULT's one-sweep up to 2^20, the
# segmented sort's guarded gather) and run39's figures beside CUB in one call: the
# `wgscan bench` rows the issues are judged by, CUB's DeviceRadixSort and
# DeviceSegmentedSort on the same sizes, then the whole suite. About 420 s.
# SUITE_UNTIL: seconds from the start by which the suite must end (default 590).
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run46
B() { # min max primitives: the CSV rows
  timeout 120 build/wgscan bench --series none --primitives $3 --min $1 --max $2 --runs 20 \
    --csv /dev/stdout --json /tmp/b.json --svg /tmp/b.svg 2>&1 | grep -E "^u32,|rror|warning" >> $L
  echo "($(( $(date +%s) - start )) s)" >> $L
}
S warm - segmented-sort --n 1048576 --segments 4096 --repeat 2
S keys - sort --n 268435456 --repeat 10
S keys - sort --n 268435456 --repeat 10 --algorithm onesweep
for e in 20 24; do
  S keys - sort --n $((1 << e)) --repeat 50
  S keys - sort --n $((1 << e)) --repeat 50 --algorithm onesweep
done
S verify - sort --n 1048573 --repeat 1 --payload index --type f32 --verify
S segsort-verify - segmented-sort --n 16777219 --segments 16777219 --repeat 1 --verify --payload index --type u64
B 2^28 2^28 sort-keys,sort-pairs,sort-f32,sort-u64
B 2^20 2^24 sort-keys
B 2^26 2^26 segmented-sort-16,segmented-sort-256,segmented-sort-4096,segmented-sort-65536
echo "== CUB" >> $L
timeout 200 bash bench/cub/run_primitives.sh 20 28 2>&1 | grep -iE "sort|rror|^n|copy" >> $L
echo "cub rc=$? ($(( $(date +%s) - start )) s)" >> $L
suite ${SUITE_UNTIL:-590}
cat $L
