#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 33 (issues 32, 36): the sort tile's digit computed in branches of its sort form
# (sort_key.wgsl form_digit; run32's one-expression form took 105 registers and
# 21.69 ms for u32 pairs, the same as held), registers and times of pairs and keys of
# u32, i32, f32; top-k's rewritten kernels phase by phase (keys loaded before use, the
# write WRITE_TILES tiles a workgroup: 16, and 32 to compare) at k = 1024 and a large
# k; then the whole suite. Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
out=${OUT:-out}
L=$out/run33.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -1 > $L
S() { # label, env, args: the GPU line
  local lab=$1 e=$2 t; shift 2
  t=$(env $e timeout 30 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
for t in u32 i32 f32; do
  d=$out/spirv-$t
  BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val \
    timeout 60 bash bench/lab/dump-spirv.sh $d sort --n 1048576 --repeat 1 --payload index --type $t > $d.log 2>&1
  echo "== $t pairs: $(grep -A3 'sort_scatter.spv:' $d.log | grep -i register | tr -s ' ')" >> $L
  rm -rf $d
done
N=268435456
for t in u32 i32 f32; do
  S pairs X=0 sort --n $N --repeat 10 --payload index --type $t
  S keys X=0 sort --n $N --repeat 10 --type $t
done
S pairs-held WGSCAN_SORT_DIGITS=held sort --n $N --repeat 10 --payload index
S pairs-desc X=0 sort --n $N --repeat 10 --payload index --descending --type f32
K="topk --n $N --k 1024 --repeat 20"
for ph in histogram histogram,filter histogram,filter,candidates histogram,filter,candidates,scan \
  histogram,filter,candidates,scan,write; do
  S topk "WGSCAN_TOPK_PATH=multi WGSCAN_TOPK_PHASES=$ph" $K
done
S topk X=0 $K
S topk-w32 WGSCAN_TUNE_TOPK=256,16,8,32 $K
S topk-w4 WGSCAN_TUNE_TOPK=256,16,8,4 $K
S topk-bigk X=0 topk --n $N --k 100000000 --repeat 5
S topk-bigk-w4 WGSCAN_TUNE_TOPK=256,16,8,4 topk --n $N --k 100000000 --repeat 5
S topk-f32-index X=0 $K --type f32 --payload index
S topk-rows X=0 topk --n 131072 --rows 64 --k 50 --type f32 --payload index --repeat 50
S verify X=0 topk --n 16777216 --k 1024 --repeat 1 --verify
S verify X=0 topk --n 16777216 --k 5000000 --repeat 1 --verify --type f32 --payload index
S verify X=0 sort --n 16777216 --repeat 1 --payload index --type f32 --descending --verify
CTEST_ARGS=-j12 timeout 300 bash scripts/gpu-test.sh build > $out/suite.log 2>&1
echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -E "tests passed|Failed|SEGFAULT|CRASH|Exception|\*\*\*" $out/suite.log >> $L
cat $L
