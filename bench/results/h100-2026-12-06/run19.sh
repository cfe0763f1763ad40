#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 19 (2026-12-06, eighth session), at most 150 s: a key's digit computed where it is
# used instead of held in a register (build/var-R, /tmp/wt-R's tree) against HEAD
# (build/wgscan): the sort at 256 x 8 with 1 and 2 tiles a group (u32, pairs, u64), the
# big tiles, the segmented sort; the driver's registers for R's kernels.
# (run18: prefetching the next tile took the scatter from 64 to 80 registers, no gain.)
# Carry: .gl, build (with build/var-R, build/lab), node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run19.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -1 > $L
S() { # label, env, binary, args: the GPU line
  lab=$1 e=$2 b=$3; shift 3
  t=$(env $e timeout 20 $b "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
N="sort --n 268435456 --repeat 10"
for b in build/wgscan build/var-R/wgscan; do
  for s in 256,8,1,8 256,8,2,8; do
    S $b WGSCAN_TUNE_SORT=$s $b $N
    S $b WGSCAN_TUNE_SORT=$s $b $N --payload index
    S $b WGSCAN_TUNE_SORT=$s $b $N --type u64
  done
done
for s in 256,16,1,8 384,23,1,8 512,16,2,8 256,12,1,8; do S big WGSCAN_TUNE_SORT=$s build/var-R/wgscan $N; done
for b in build/wgscan build/var-R/wgscan; do
  S $b X=0 $b segmented-sort --n 67108864 --segments 4096 --repeat 10
  S $b WGSCAN_TUNE_SEGSORT=256,16,256,8 $b segmented-sort --n 67108864 --segments 65536 --repeat 10
done
S verify WGSCAN_TUNE_SORT=256,8,2,8 build/var-R/wgscan sort --n 16777221 --repeat 1 --verify --payload index --type f32
V() { # label, program, args
  lab=$1 p=$2; shift 2
  BUILD=build PROGRAM=$p SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val timeout 30 \
    bash bench/lab/dump-spirv.sh /tmp/spirv-$lab "$@" > $OUT/spirv-$lab.log 2>&1
  grep -A7 -E "(ss_small|ss_block|sort_scatter).spv:" $OUT/spirv-$lab.log | grep -E "spv:|Register|Shared" >> $L
}
V R-256x8 build/var-R/wgscan sort --n 1048576 --repeat 1
WGSCAN_TUNE_SORT=384,23 V R-384x23 build/var-R/wgscan sort --n 1048576 --repeat 1
WGSCAN_TUNE_SEGSORT=256,16,256,8 V R-ss build/var-R/wgscan segmented-sort --n 4194304 --segments 1048576 --repeat 1
cat $L
