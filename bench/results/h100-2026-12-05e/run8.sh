#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 8 (2026-12-05, fifth session): after 8f74827 (sort: a tile a workgroup, 256 x 8 for
# pairs; top-k: the pick a workgroup scan, the histogram per 8 tiles, the write's skip),
# 833f7e1 (a commutative user scalar operator on the built-in kernels) and the segmented
# sort's tiny segments on 8 invocations each: the whole suite first (kernel changes), then
# the sort, top-k (with shapes by WGSCAN_TUNE_TOPK), the segmented sort, the operators,
# each beside the copy kernel where `wgscan bench` runs it. At most 330 s.
# Carry: .gl, build (without build/lab), node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run8.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
left() { echo $(( 330 - ($(date +%s) - start) )); }
build/wgscan info | head -2 > $L
CTEST_ARGS=-j12 timeout 200 bash scripts/gpu-test.sh build > $OUT/suite.log 2>&1
echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -E "tests passed|Failed|SEGFAULT|CRASH|Exception|\*\*\*" $OUT/suite.log >> $L
C() { # label, env, command...: the GPU time line(s)
  l=$1 e=$2; shift 2
  [ $(left) -gt 15 ] || { echo "$l: skipped (time)" >> $L; return; }
  t=$(env $e timeout 30 build/wgscan "$@" 2>&1 | grep -E "GPU time|rror|verify|copies" | head -4 | tr -s ' ' | tr '\n' ' ')
  echo "$l [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
N=268435456
C sort X=0 sort --n $N --repeat 10
C sort X=0 sort --n $N --repeat 10 --payload index
C sort X=0 sort --n $N --repeat 10 --type u64
C sort WGSCAN_TUNE_SORT=256,16,1 sort --n $N --repeat 10 --type u64
C sort X=0 sort --n $N --repeat 10 --type f32
C sort X=0 sort --n $N --repeat 10 --algorithm onesweep
C sort WGSCAN_TUNE_SORT=256,8 sort --n $N --repeat 10 --algorithm onesweep
C topk X=0 topk --n $N --k 1024 --repeat 20
for s in 256,8,1 256,16,8 256,32,4 512,16,8 256,64,2; do C topk WGSCAN_TUNE_TOPK=$s topk --n $N --k 1024 --repeat 20; done
C topk X=0 topk --n 131072 --rows 64 --k 50 --type f32 --repeat 50 --verify
for s in 256,4,1 256,16,1; do C topk WGSCAN_TUNE_TOPK=$s topk --n 131072 --rows 64 --k 50 --type f32 --repeat 50; done
C segsort X=0 segmented-sort --n 67108864 --segments 16 --repeat 10
C segsort X=0 segmented-sort --n 16777216 --segments 16 --repeat 3 --verify
C segsort X=0 segmented-sort --n 67108864 --segments 32 --repeat 10
for s in 256,4 128,8 128,4; do C affine WGSCAN_TUNE_ML=$s scan --operator examples/operators/affine.wgsl --n $N --inclusive --repeat 20; done
[ $(left) -gt 60 ] && timeout $(( $(left) - 50 )) build/wgscan bench --series none --primitives sort-keys,topk-1024,segmented-sort-16 \
  --min 2^26 --max 2^26 --runs 10 --csv $OUT/bench.csv --json $OUT/bench.json --svg $OUT/bench.svg > $OUT/bench.log 2>&1
echo "bench rc=$? t=$(( $(date +%s) - start )) s" >> $L
cut -d, -f1-10 $OUT/bench.csv >> $L 2>/dev/null
[ $(left) -gt 30 ] && OUT=$OUT/ops timeout $(( $(left) - 5 )) bash scripts/gpu-operators.sh > $OUT/operators.log 2>&1
echo "operators rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -E "GPU|copies|passed|verify" $OUT/operators.log | head -30 >> $L
cat $L
