#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 18 (2026-12-06, eighth session), at most 120 s: the scatter loads the next tile of
# its group while it writes this one out (sort.wgsl); group tiles 1-8 with it (run17
# without: 1 tile 11.27 ms, 2 10.89, 4 12.73 at 2^28 u32), pairs and u64, verify; the
# driver's registers for the scatter.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run18.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -1 > $L
S() { # label, env, args: the GPU line
  lab=$1 e=$2; shift 2
  t=$(env $e timeout 20 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
N="sort --n 268435456 --repeat 10"
for s in 256,8,1,8 256,8,2,8 256,8,4,8 256,8,8,8 256,8,2,16 256,8,4,16; do S gt WGSCAN_TUNE_SORT=$s $N; done
for s in 256,8,1,8 256,8,2,8 256,8,4,8; do S pairs WGSCAN_TUNE_SORT=$s $N --payload index; done
for s in 256,8,1,8 256,8,2,8; do S u64 WGSCAN_TUNE_SORT=$s $N --type u64; done
S verify WGSCAN_TUNE_SORT=256,8,2,8 sort --n 16777221 --repeat 1 --verify --payload index
S verify WGSCAN_TUNE_SORT=256,8,4,8 sort --n 16777221 --repeat 1 --verify --type u64
BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val timeout 30 \
  bash bench/lab/dump-spirv.sh /tmp/spirv sort --n 1048576 --repeat 1 > $OUT/spirv.log 2>&1
grep -A7 -E "sort_scatter.spv:" $OUT/spirv.log | grep -E "spv:|Register|Shared" >> $L
cat $L
