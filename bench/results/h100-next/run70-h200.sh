#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 70 (issue 32; only on an H200, else it stops at once): the sorts' targets beside
# CUB's DeviceRadixSort, about 100 s: `wgscan bench` rows at 2^28 (keys, pairs, f32,
# u64) and 2^20 .. 2^24 (keys), i32 and indices by `wgscan sort`, then CUB's sorts.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200: nothing run"; exit 0; }
. bench/results/h100-next/lib.sh run70
B() { # min max primitives: the CSV rows
  timeout 100 build/wgscan bench --series none --primitives $3 --min $1 --max $2 --runs 20 \
    --csv /dev/stdout --json /tmp/b.json --svg /tmp/b.svg 2>&1 | grep -E "^u32,|^f32,|^u64,|rror|warning" >> $L
  echo "($(( $(date +%s) - start )) s)" >> $L
}
S warm - sort --n 16777216 --repeat 3 --pairs
B 2^28 2^28 sort-keys,sort-pairs,sort-f32,sort-u64
B 2^20 2^24 sort-keys
S i32 - sort --n 268435456 --repeat 10 --type i32
S index - sort --n 268435456 --repeat 10 --payload index
echo "== CUB" >> $L
timeout 120 bash bench/cub/run_primitives.sh 20 28 2>&1 | grep -E "^sort-(keys|pairs|u64|f32),(1048576|16777216|268435456)," >> $L
echo "cub rc=$? ($(( $(date +%s) - start )) s)" >> $L
cat $L
