#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The segmented reduce on the GPU machine (issue 18: u32 add at 2^28 within 0.6 copies
# for segments of 16, 256 and 4096), beside the copy and the plain reduce of the same
# run, then a sweep of its tile shape (WGSCAN_TUNE_SEGMENTED=wg,items; "-" is the tuning
# table's) at the largest size:
#   bench/lab/segmented.sh [build]     OUT=dir SHAPES="..." SWEEP_N=2^28 RUNS=30 CUB=1
# OUT (default segmented-lab) receives one CSV per run; each line printed is
#   <shape> <primitive> n=<n> <median µs> = <time / copy> copies
# CUB=1 also runs bench/cub/run_primitives.sh 20 28 into OUT/cub_primitives.csv.
set -u
b=${1:-build}
out=${OUT:-segmented-lab}
runs=${RUNS:-30}
mkdir -p "$out"
export WGSCAN_WEBGPU_LIB=${WGSCAN_WEBGPU_LIB:-$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so}
prims=segmented-reduce-16,segmented-reduce-256,segmented-reduce-4096,reduce-tree

# bench CSV columns: type,op,algorithm,n,median_us,min_us,gelem_per_s,gb_per_s,copy_us,time_over_copy,max_us
show() {
  awk -F, -v shape="$1" 'NR > 1 { printf "%-8s %-22s n=%-10s %10.1f us = %.3f copies\n", shape, $3, $4, $5, $10 }' "$2"
}

run() { # run SHAPE MIN MAX NAME
  local s=$1; [ "$s" = - ] && s=
  WGSCAN_TUNE_SEGMENTED=$s "$b/wgscan" bench --series none --primitives $prims --min "$2" --max "$3" \
    --runs "$runs" --json "$out/$4.json" --csv "$out/$4.csv" --svg "$out/$4.svg" >"$out/$4.log" 2>&1 ||
    { echo "$1: failed (see $out/$4.log)"; tail -3 "$out/$4.log"; return; }
  show "$1" "$out/$4.csv"
}

# 1. The tuning table's shape at 2^20, 2^24, 2^28.
for k in 20 24 28; do run - "2^$k" "2^$k" "default-2^$k"; done

# 2. Tile shapes at SWEEP_N: wg a power of two from 32, items a power of two from 4 to 64
# (items / 4 rows of wg 16-byte words); shapes whose workgroup memory (about 4.1 bytes per
# element of the tile and the scan's tables) the device lacks are refused and reported.
n=${SWEEP_N:-2^28}
for shape in ${SHAPES:-256,8 256,4 256,16 128,8 512,4 512,8 1024,4 1024,8 128,16}; do
  run "$shape" "$n" "$n" "shape-${shape/,/x}"
done

if [ "${CUB:-0}" = 1 ]; then
  "$(dirname "$0")/../cub/run_primitives.sh" 20 28 >"$out/cub_primitives.csv" && grep "^segmented" "$out/cub_primitives.csv"
fi
