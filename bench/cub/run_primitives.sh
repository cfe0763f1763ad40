#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs CUB's reduce, select, histogram, radix sort, segmented reduce and
# by-key calls on an NVIDIA machine with the CUDA toolkit, for the rows next to
# `wgscan bench --primitives`:
#   bench/cub/run_primitives.sh [kmin kmax] > cub_primitives.csv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${CUB_BUILD_DIR:-/tmp/wgscan-cub}
mkdir -p "$out"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
nvcc -O3 -std=c++17 -arch=sm_${arch} -o "$out/cub_primitives_bench" "$here/cub_primitives_bench.cu"
"$out/cub_primitives_bench" "${1:-20}" "${2:-28}"
