#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sort's variants on the GPU machine: `wgscan bench` of a sort row at the sizes in
# SIZES for each tile shape in SHAPES (wg,items), each look-back spin limit in SPINS and
# each phase set in PHASES (the output of a partial run is wrong: only its time is
# meant). Prints one line per variant: gpu_us and copy_us.
#   bench/lab/sort_variants.sh [build]        PRIM=sort-keys SHAPES='256,16 256,8' ...
b=${1:-build}
export WGSCAN_WEBGPU_LIB=${WGSCAN_WEBGPU_LIB:-$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so}
for prim in ${PRIM:-sort-keys}; do
  for shape in ${SHAPES:-default}; do
    for spins in ${SPINS:-default}; do
      for ph in ${PHASES:-all}; do
        for n in ${SIZES:-16777216 268435456}; do
          env_shape=; [ "$shape" = default ] || env_shape="WGSCAN_TUNE_SORT=$shape"
          env_spins=; [ "$spins" = default ] || env_spins="WGSCAN_LOOKBACK_SPINS=$spins"
          env_ph=; [ "$ph" = all ] || env_ph="WGSCAN_SORT_PHASES=$ph"
          t=$(env $env_shape $env_spins $env_ph "$b/wgscan" bench --series none --primitives "$prim" \
              --min $n --max $n --runs ${RUNS:-20} --json /dev/null --csv /dev/stdout --svg /dev/null 2>&1 |
              grep "^[a-z0-9]*,[a-z]*,sort" | cut -d, -f5,9)
          echo "$prim shape $shape spins $spins phases $ph n $n: gpu_us,copy_us $t"
        done
      done
    done
  done
done
