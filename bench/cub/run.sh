#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs the CUB comparison on an NVIDIA machine with the CUDA toolkit:
#   bench/cub/run.sh [kmin kmax] > cub.csv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${CUB_BUILD_DIR:-/tmp/wgscan-cub}
mkdir -p "$out"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
nvcc -O3 -std=c++17 -arch=sm_${arch} -o "$out/cub_scan_bench" "$here/cub_scan_bench.cu"
"$out/cub_scan_bench" "${1:-10}" "${2:-30}"
