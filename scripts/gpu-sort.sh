#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The measurement run behind BENCHMARKS.md's sort rows, on the GPU machine: verified
# sorts from the CLI (2^28 u32 keys, 2^24 of the other kinds), `wgscan bench` of the four
# sort rows from 2^20 to 2^28 beside the copy, and CUB's primitives (radix sort among
# them) on the same sizes. Results go to $OUT (or ./out).
#   scripts/gpu-sort.sh [--no-cub]
out=${OUT:-out}
mkdir -p "$out"
export WGSCAN_WEBGPU_LIB=${WGSCAN_WEBGPU_LIB:-$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so}
n=268435456
m=16777216
build/wgscan sort --n $n --repeat 5 --verify
build/wgscan sort --n $m --pairs --repeat 5 --verify
build/wgscan sort --n $m --type u64 --repeat 5 --verify
build/wgscan sort --n $m --type f32 --descending --payload index --repeat 5 --verify
build/wgscan sort --n $m --type i64 --pairs --value-bytes 8 --repeat 5 --verify
build/wgscan sort --n $m --distribution skewed --pairs --repeat 5 --verify
build/wgscan bench --series none --primitives sort-keys,sort-pairs,sort-u64,sort-f32 --min 1048576 --max $n \
  --json "$out/bench_sort.json" --csv "$out/bench_sort.csv" --svg "$out/bench_sort.svg" 2>/dev/null
cat "$out/bench_sort.csv"
[ "${1:-}" = --no-cub ] && exit 0
bench/cub/run_primitives.sh 20 28 > "$out/cub_primitives.csv"
grep -i sort "$out/cub_primitives.csv"
