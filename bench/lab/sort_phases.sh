#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Where the sort's time goes, on the GPU machine: `wgscan bench` of sort-keys at 2^24 and
# 2^28 for each tile shape in SHAPES (wg,items,group tiles) and each phase set (count;
# count,scan; all). The output of a partial run is wrong: only its time is meant.
#   bench/lab/sort_phases.sh [build]
b=${1:-build}
export WGSCAN_WEBGPU_LIB=${WGSCAN_WEBGPU_LIB:-$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so}
for shape in ${SHAPES:-256,16,16 256,16,1 256,16,4 256,8,16 128,16,16 256,4,16}; do
  for ph in count count,scan count,scan,scatter; do
    for n in 16777216 268435456; do
      t=$(WGSCAN_TUNE_SORT=$shape WGSCAN_SORT_PHASES=$ph "$b/wgscan" bench --series none --primitives ${PRIM:-sort-keys} \
          --min $n --max $n --runs 20 --json /dev/null --csv /dev/stdout --svg /dev/null 2>&1 | grep "^[a-z0-9]*,add,sort" | cut -d, -f5,9)
      echo "shape $shape phases $ph n $n: gpu_us,copy_us $t"
    done
  done
done
