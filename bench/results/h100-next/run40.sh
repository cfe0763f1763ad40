#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 40 (issue 32): the sort tile's ballot ranking a round at a time
# (WGSCAN_SORT_RANK=rounds) against the three sweeps (sweeps, the default), over tile
# shapes (WGSCAN_TUNE_SORT=wg,items,group tiles): the laboratory's GLSL pass ranks a
# round at a time and ran 384 x 23 at 1706 us a pass where the library's sweeps took 168
# registers and 3.28 ms. Registers of the scatter and the one-sweep pass by
# wgscan-vkstats, then 2^28 times of keys, pairs and one-sweep. Carry: .gl, build,
# node_modules/bun-webgpu-linux-x64. Then the whole suite with rounds, in the time left.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
out=${OUT:-out}
L=$out/run40.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log -1 --format=%h 2>/dev/null; } > $L
S() { # label, env, args: the GPU line
  local lab=$1 e=$2 t; shift 2
  t=$(env $e timeout 40 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
R() { # label, env, args: the driver's registers of the sort's passes
  local lab=$1 e=$2 d=$out/spirv; shift 2
  env $e BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val \
    timeout 60 bash bench/lab/dump-spirv.sh $d "$@" > $d.log 2>&1
  echo "== regs $lab [$e]: $(grep -A4 -E 'sort_(scatter|onesweep).spv:' $d.log | grep -iE 'register|shared' | tr -s ' ' | tr '\n' ' ')" >> $L
  rm -rf $d $d.log
}
N=268435456
K="sort --n $N --repeat 10"
for sh in "" 256,8,1 256,16,1 384,12,1 384,23,1 384,23,4 512,16,1; do
  for m in sweeps rounds; do
    S keys "WGSCAN_SORT_RANK=$m${sh:+ WGSCAN_TUNE_SORT=$sh}" $K
  done
done
for sh in 256,16,1 384,23,1 512,16,1; do
  S keys-computed "WGSCAN_SORT_RANK=rounds WGSCAN_SORT_DIGITS=computed WGSCAN_TUNE_SORT=$sh" $K
done
for sh in "" 256,16,1 384,12,1 384,23,1; do
  for m in sweeps rounds; do
    S pairs "WGSCAN_SORT_RANK=$m${sh:+ WGSCAN_TUNE_SORT=$sh}" $K --payload index
  done
done
for sh in "" 256,23 256,32; do
  for m in sweeps rounds; do
    S onesweep "WGSCAN_SORT_RANK=$m${sh:+ WGSCAN_TUNE_SORT=$sh}" $K --algorithm onesweep
  done
done
S f32 WGSCAN_SORT_RANK=rounds $K --type f32
S f32 "WGSCAN_SORT_RANK=rounds WGSCAN_TUNE_SORT=384,23,1" $K --type f32
S verify "WGSCAN_SORT_RANK=rounds WGSCAN_TUNE_SORT=384,23,1" sort --n 16777216 --repeat 1 --payload index --type f32 --verify
S verify "WGSCAN_SORT_RANK=rounds WGSCAN_TUNE_SORT=256,23" sort --n 16777219 --repeat 1 --algorithm onesweep --verify
# The segmented sort's large path with nothing to sort (every benchmark's segments fit
# the block path): its scans over the bound's counts, against a plan without it (block
# bound = n).
for l in 16 256 4096 65536; do
  S segsort X=0 segmented-sort --n 67108864 --segments $l --repeat 10
  S segsort-nolarge WGSCAN_TUNE_SEGSORT=256,16,256,8,67108864 segmented-sort --n 67108864 --segments $l --repeat 10
  S segsort-rounds WGSCAN_SORT_RANK=rounds segmented-sort --n 67108864 --segments $l --repeat 10
done
D="sort --n 1048576 --repeat 1"
for m in sweeps rounds; do
  R k-default WGSCAN_SORT_RANK=$m $D
  R k-384x23 "WGSCAN_SORT_RANK=$m WGSCAN_TUNE_SORT=384,23,1" $D
  R k-256x16 "WGSCAN_SORT_RANK=$m WGSCAN_TUNE_SORT=256,16,1" $D
  R p-default WGSCAN_SORT_RANK=$m $D --payload index
  R os-default WGSCAN_SORT_RANK=$m $D --algorithm onesweep
done
R k-384x23-computed "WGSCAN_SORT_RANK=rounds WGSCAN_SORT_DIGITS=computed WGSCAN_TUNE_SORT=384,23,1" $D
echo "done t=$(( $(date +%s) - start )) s" >> $L
# The whole suite with the ranking a round at a time (the tests read WGSCAN_SORT_RANK),
# in what time the call has left.
left=$(( 585 - ($(date +%s) - start) ))
WGSCAN_SORT_RANK=rounds CTEST_ARGS=-j12 timeout $left bash scripts/gpu-test.sh build > $out/suite.log 2>&1
echo "suite (rounds) rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -E "tests passed|Failed|SEGFAULT|CRASH|Exception|\*\*\*" $out/suite.log >> $L
cat $L
