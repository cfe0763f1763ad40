#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Both sort algorithms on the GPU machine, each tile shape in SHAPES (wg,items; "-" is
# the tuning table's), from `wgscan sort --repeat` (median GPU time of 10 runs), for
# each build folder named (A/B of kernels: a build embeds its WGSL):
#   bench/lab/sort_algorithms.sh [build...]  SIZES=... SHAPES=... KINDS="u32 pairs u64 f32"
#                                            ALGORITHMS="onesweep reduce-scan"
export WGSCAN_WEBGPU_LIB=${WGSCAN_WEBGPU_LIB:-$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so}
for b in "${@:-build}"; do
  for kind in ${KINDS:-u32}; do
    case $kind in
      pairs) args="--pairs" ;; u64) args="--type u64" ;; f32) args="--type f32" ;; *) args="" ;;
    esac
    for n in ${SIZES:-268435456}; do
      for a in ${ALGORITHMS:-onesweep reduce-scan}; do
        for shape in ${SHAPES:--}; do
          s=$shape; [ "$s" = - ] && s=
          t=$(WGSCAN_TUNE_SORT=$s "$b/wgscan" sort --n $n $args --algorithm $a --repeat 10 2>&1 | grep "GPU time")
          echo "$b $kind n $n $a shape $shape: $t"
        done
      done
    done
  done
done
