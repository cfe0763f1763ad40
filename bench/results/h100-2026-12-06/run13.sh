#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 13 (2026-12-06, seventh session), at most 280 s: why the library's sort tile at
# CUB's 384 x 23 is slower than at 256 x 8 (14.80 against 13.57 ms at 2^28 in run 12,
# where the laboratory's GLSL pass was 1706 against 2417 µs), and whether 256 x 8 lost
# time since 1fbb9eb (12.77 ms on an H100, fifth session):
#   1. wgscan sort 2^28 u32 keys from builds of 1fbb9eb, 057c82f (6f147b4's parent),
#      6f147b4 (the tile of any shape) and this tree (build/base-*/wgscan);
#   2. tiles a workgroup at the big shapes; the phases at 256 x 8 and 384 x 23 (WGSCAN_SORT_PHASES: count;
#      count,scan; all; all without the ranking; all without the writes);
#   3. what NVIDIA's driver made of each shape's count and scatter (dump-spirv.sh,
#      wgscan-vkstats: registers, shared memory, local memory);
#   4. run 10's leftovers: the segmented sort's shapes, top-k's row shapes and k = 1024.
# Carry: .gl, build (with build/lab: spirv-as, spirv-val), node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run13.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
left() { echo $(( 280 - ($(date +%s) - start) )); }
build/wgscan info | head -2 > $L
S() { # label, env, binary, args: the GPU line
  l=$1 e=$2 b=$3; shift 3
  [ $(left) -gt 12 ] || { echo "$l: skipped (time)" >> $L; return; }
  t=$(env $e timeout 30 $b "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$l [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
for b in build/base-1fbb9eb/wgscan build/base-057c82f/wgscan build/base-6f147b4/wgscan build/wgscan; do
  S "$b" X=0 $b sort --n 268435456 --repeat 10
done
# Tiles a workgroup: the lab's 384 x 23 took 1706 µs a pass at 16 tiles a group, 2057 at one.
for s in 384,23,4 384,23,16 512,16,16 384,12,16 256,16,16; do
  S shape "WGSCAN_TUNE_SORT=$s" build/wgscan sort --n 268435456 --repeat 10
done
for s in 256,8 384,23; do
  for ph in count count,scan count,scan,scatter count,scan,scatter,no-rank count,scan,scatter,no-write; do
    S phases "WGSCAN_TUNE_SORT=$s WGSCAN_SORT_PHASES=$ph" build/wgscan sort --n 268435456 --repeat 10
  done
done
for s in 256,8 384,23 512,16; do
  [ $(left) -gt 40 ] || break
  BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val WGSCAN_TUNE_SORT=$s timeout 40 \
    bash bench/lab/dump-spirv.sh /tmp/spirv-$s sort --n 1048576 --repeat 1 > /tmp/spirv-$s.log 2>&1
  echo "dump-spirv $s rc=$?" >> $L
  cp /tmp/spirv-$s.log $OUT/spirv-${s/,/x}.log 2>/dev/null
  grep -A12 -E "sort_(count|scatter)" /tmp/spirv-$s.log | grep -iE "sort_|regist|shared|local|stack|spill" | head -24 >> $L
done
for t in 256,16,128,16,1048576 256,8,256,16,1048576 256,16,256,8,1048576; do
  for l in 4096 65536; do S segsort WGSCAN_TUNE_SEGSORT=$t build/wgscan segmented-sort --n 67108864 --segments $l --repeat 10; done
done
R="--n 131072 --rows 64 --k 50 --type f32 --payload index"
for s in 1024,4 512,8 256,16 128,32; do S topk "WGSCAN_TOPK_PATH=rows WGSCAN_TUNE_TOPK_ROWS=$s" build/wgscan topk $R --repeat 50; done
for p in multi rows; do S topk WGSCAN_TOPK_PATH=$p build/wgscan topk --n 262144 --rows 64 --k 1024 --type f32 --repeat 20; done
for r in 1 8 32; do
  for p in multi rows; do S topk WGSCAN_TOPK_PATH=$p build/wgscan topk --n 262144 --rows $r --k 1024 --repeat 20; done
done
for r in 1 8; do
  for p in multi rows; do S topk WGSCAN_TOPK_PATH=$p build/wgscan topk --n 131072 --rows $r --k 50 --type f32 --payload index --repeat 20; done
done
# Issue 33: what the driver made of the affine f32 single pass (5.19 ms at 2^28 in run 12,
# 3.6 copies of its 2 GiB; the multi-level 3.80).
if [ $(left) -gt 25 ]; then
  BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val timeout 25 bash bench/lab/dump-spirv.sh /tmp/spirv-affine \
    scan --operator examples/operators/affine.wgsl --n 1048576 --inclusive --algorithm single-pass > $OUT/spirv-affine.log 2>&1
  echo "dump-spirv affine rc=$?" >> $L
fi
cat $L
