#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 30 (issue 32): why computing a tile's digits again beside 32-bit values wins for
# u32 keys and loses for i32 and f32 (run28, H200, 2^28 pairs with indices: u32 16.34 ms
# computed, 20.65 held; i32 21.44 computed, 20.70 held; f32 22.00, 21.11): what the
# driver made of the scatter in each case (bench/lab/dump-spirv.sh, wgscan-vkstats:
# registers, spills, workgroup memory). Run after run29-js.sh's unpacking of .gl.
# Carry as run29-js.sh's, with build/lab and build/wgscan-vkstats.
set -u
out=${OUT:-out}
L=$out/run30.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for t in u32 i32 f32; do
  for m in held computed; do
    d=$out/spirv-$t-$m
    WGSCAN_SORT_DIGITS=$m BUILD=build PROGRAM=build/wgscan SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val \
      timeout 60 bash bench/lab/dump-spirv.sh $d sort --n 1048576 --repeat 1 --payload index --type $t > $d.log 2>&1
    echo "== $t $m rc=$?" >> $L
    grep -iE "sort_(count|scatter)|register|spill|local|shared" $d.log | head -16 >> $L
  done
done
(cd $out && tar czf spirv.tgz spirv-* && rm -rf spirv-*/)
cat $L
