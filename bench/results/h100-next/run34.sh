#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 34 (issues 36, 32): top-k's filter taking the histogram's 8 tiles a workgroup
# (run33: 0.565 ms of k = 1024 of 2^28 on an H100 at a tile a workgroup, the histogram
# 0.360), phase by phase; the one-sweep sort with the tile's sort forms (15.06 ms at
# 256 x 16 before, run17); then the whole suite. Carry: .gl, build,
# node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
out=${OUT:-out}
L=$out/run34.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -1 > $L
S() { # label, env, args: the GPU line
  local lab=$1 e=$2 t; shift 2
  t=$(env $e timeout 30 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
N=268435456
K="topk --n $N --k 1024 --repeat 20"
for ph in histogram histogram,filter histogram,filter,candidates,scan,write; do
  S topk "WGSCAN_TOPK_PATH=multi WGSCAN_TOPK_PHASES=$ph" $K
done
S topk X=0 $K
S topk-h16 WGSCAN_TUNE_TOPK=256,16,16,16 $K
S topk-h4 WGSCAN_TUNE_TOPK=256,16,4,16 $K
S topk-f32-index X=0 $K --type f32 --payload index
S topk-bigk X=0 topk --n $N --k 100000000 --repeat 5
timeout 40 build/wgscan bench --series none --primitives topk-1024 --min 2^28 --max 2^28 --runs 20 \
  --csv /dev/stdout --json /tmp/b.json --svg /tmp/b.svg 2>&1 | grep -E "^u32,|rror" >> $L
S onesweep X=0 sort --n $N --repeat 10 --algorithm onesweep
S onesweep-256x8 WGSCAN_TUNE_SORT=256,8 sort --n $N --repeat 10 --algorithm onesweep
S sort X=0 sort --n $N --repeat 10
CTEST_ARGS=-j12 timeout 300 bash scripts/gpu-test.sh build > $out/suite.log 2>&1
echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -E "tests passed|Failed|SEGFAULT|CRASH|Exception|\*\*\*" $out/suite.log >> $L
cat $L
