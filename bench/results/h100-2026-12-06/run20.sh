#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 20 (2026-12-06, eighth session), at most 150 s: the digit held or computed again
# (run19's build/wgscan was still the prefetch build, so HEAD is measured again here):
# build/var-H (HEAD 74fd9e2), build/var-R (always computed again), build/wgscan (held
# except with values beside 32-bit keys: DIGIT_HELD). u32 keys, pairs, u64 keys and
# pairs at 1 and 2 tiles a group; the segmented sort at 4096 three times over (2.79,
# 5.43, 8.27 ms in three processes of the same build before) and its registers.
# Carry: .gl, build (with build/var-*, build/lab), node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run20.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -1 > $L
S() { # label, env, binary, args: the GPU line
  lab=$1 e=$2 b=$3; shift 3
  t=$(env $e timeout 20 $b "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
N="sort --n 268435456 --repeat 10"
for b in build/var-H/wgscan build/wgscan build/var-R/wgscan; do
  for s in 256,8,1,8 256,8,2,8; do
    S $b WGSCAN_TUNE_SORT=$s $b $N
    S $b WGSCAN_TUNE_SORT=$s $b $N --payload index
  done
done
for b in build/var-H/wgscan build/wgscan; do
  S $b WGSCAN_TUNE_SORT=256,16,1,8 $b $N --payload index
  S $b X=0 $b $N --type u64 --payload index
done
for b in build/var-H/wgscan build/wgscan build/var-H/wgscan build/wgscan; do
  S $b X=0 $b segmented-sort --n 67108864 --segments 4096 --repeat 10
  S $b X=0 $b segmented-sort --n 67108864 --segments 4096 --repeat 10 --payload index
done
S verify X=0 build/wgscan sort --n 16777221 --repeat 1 --verify --payload index --type f32
S verify X=0 build/wgscan segmented-sort --n 16777216 --segments 4096 --repeat 1 --verify --payload index
BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val timeout 30 \
  bash bench/lab/dump-spirv.sh /tmp/spirv sort --n 1048576 --repeat 1 --payload index > $OUT/spirv.log 2>&1
grep -A7 -E "sort_scatter.spv:" $OUT/spirv.log | grep -E "spv:|Register|Shared" >> $L
cat $L
