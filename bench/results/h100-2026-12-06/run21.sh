#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 21 (2026-12-06, eighth session), at most 270 s: the tree to land (digits computed
# again beside values, two tiles a group for keys alone, the segmented sort's block tile
# 256 x 8) at its defaults, then the whole suite (-j12; cli and mpi take ~110 s).
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run21.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -1 > $L
S() { # label, env, args: the GPU line
  lab=$1 e=$2; shift 2
  t=$(env $e timeout 20 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
N="sort --n 268435456 --repeat 10"
S keys X=0 $N
S pairs X=0 $N --payload index
S f32-pairs X=0 $N --payload index --type f32
for l in 16 256 4096 65536; do S segsort X=0 segmented-sort --n 67108864 --segments $l --repeat 10; done
S segsort-pairs X=0 segmented-sort --n 67108864 --segments 65536 --repeat 10 --payload index
CTEST_ARGS=-j12 timeout $(( 265 - ($(date +%s) - start) )) bash scripts/gpu-test.sh build > $OUT/suite.log 2>&1
echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -E "tests passed|Failed|SEGFAULT|CRASH|Exception|\*\*\*" $OUT/suite.log >> $L
cat $L
