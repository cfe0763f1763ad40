#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 14 (2026-12-06, seventh session), at most 200 s: the sort after two changes, then
# the whole suite.
#   - slot_digit without its clamp where the workgroup divides 256 (6f147b4 took the
#     256 x 8 scatter from 64 to 75 registers: 12.81 -> 13.62 ms, run13);
#   - the count kernel takes COUNT_GROUPS groups a workgroup (WGSCAN_TUNE_SORT's fourth
#     value), so that each digit's counts leave in whole sectors (count 0.80 ms a pass
#     at 256 x 8 against 0.39 at 384 x 23 in run13);
#   - the segmented sort of keys alone without its places (segments of 4096: 4.05 ms in
#     run13, one workgroup a core).
# Carry: .gl, build (with build/lab: spirv-as, spirv-val), node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run14.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
left() { echo $(( 200 - ($(date +%s) - start) )); }
build/wgscan info | head -2 > $L
S() { # label, env, args: the GPU line
  l=$1 e=$2; shift 2
  [ $(left) -gt 125 ] || { echo "$l: skipped (time)" >> $L; return; }
  t=$(env $e timeout 40 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$l [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
N="--n 268435456 --repeat 10"
S default X=0 sort $N
for cg in 1 4 8 16; do S cg "WGSCAN_TUNE_SORT=256,8,1,$cg" sort $N; done
S count-only "WGSCAN_TUNE_SORT=256,8,1,8 WGSCAN_SORT_PHASES=count" sort $N
for s in 384,23,1,8; do S shape "WGSCAN_TUNE_SORT=$s" sort $N; done
S pairs X=0 sort $N --payload index
S u64 X=0 sort $N --type u64
S f32 X=0 sort $N --type f32
for l in 4096 65536; do S segsort X=0 segmented-sort --n 67108864 --segments $l --repeat 10; done
S segsort WGSCAN_TUNE_SEGSORT=256,16,256,8,1048576 segmented-sort --n 67108864 --segments 65536 --repeat 10
S verify X=0 segmented-sort --n 16777216 --segments 4096 --repeat 1 --verify
S verify X=0 sort --n 16777216 --repeat 1 --verify
S verify X=0 sort --n 16777221 --repeat 1 --type u64 --payload index --verify
S verify WGSCAN_TUNE_SORT=384,23,1,8 sort --n 16777221 --repeat 1 --verify
if [ $(left) -gt 130 ]; then
  BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val timeout 30 \
    bash bench/lab/dump-spirv.sh /tmp/spirv sort --n 1048576 --repeat 1 > $OUT/spirv.log 2>&1
  grep -A6 -E "sort_(count|scatter).spv:" $OUT/spirv.log | grep -E "spv:|Register|Shared" >> $L
fi
CTEST_ARGS=-j12 timeout $(( $(left) - 5 )) bash scripts/gpu-test.sh build > $OUT/suite.log 2>&1
echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -E "tests passed|Failed|SEGFAULT|CRASH|Exception|\*\*\*" $OUT/suite.log >> $L
cat $L
