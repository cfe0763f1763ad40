#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 77 (issue 33), about 150 s: why the affine f32 scan (8-byte elements, a user's
# operator) is 2.6 copies at 2^28 where the u32 scan is 1.4. The fifth session found the
# single pass's time set by its tile count, not its shape (256 x 16 5.195 ms, 512 x 8
# 5.138, 256 x 8 7.959: about 79 ns a tile, against at most 16.5 for the u32 add's), at
# 106 registers (two workgroups a core): so first what the driver made of each kernel
# now (registers, local memory, SASS by bench/lab/sass.sh; zstd from cmp/bin), then
# the single pass by shape and persistent grid beside the multi-level, the same for a
# user's u32 add (same operator path, one word), and the copy of 2^28 u32 (bench).
# Before the call: mkdir -p cmp/bin && cp /usr/bin/zstd cmp/bin/.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run77
export PATH=$PWD/cmp/bin:$PATH
ops=examples/operators
mkdir -p $out/sass
for v in aff-sp:affine:single-pass:256,16 aff-sp8:affine:single-pass:256,8 aff-ml:affine:multilevel:- \
         add-sp:add_u32:single-pass:256,16; do
  IFS=: read name op alg tune <<< "$v"; [ "$tune" = - ] && tune=
  d=$out/dump-$name
  env ${tune:+WGSCAN_TUNE_SP=$tune} BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val VKSTATS=0 \
    timeout 40 bash bench/lab/dump-spirv.sh $d scan --operator $ops/$op.wgsl --inclusive --n 4194304 --repeat 1 \
    --algorithm $alg > $d.log 2>&1
  for s in $d/*.spv; do case $s in *dawn-internal*) ;; *) cp $s $out/sass/$name-$(basename $s);; esac; done
  rm -rf $d $d.log
done
sass_archive
A="scan --operator $ops/affine.wgsl --inclusive --n 268435456 --repeat 20"
U="scan --operator $ops/add_u32.wgsl --n 268435456 --repeat 20"
S warm - $A --repeat 3
S aff-ml - $A --algorithm multilevel
for t in 256,16 256,16,264 256,16,528 128,16 256,12 512,8 256,8 64,32 128,8; do
  S aff-sp WGSCAN_TUNE_SP=$t $A --algorithm single-pass
done
for t in 256,16 512,8 256,8; do
  S add-sp WGSCAN_TUNE_SP=$t $U --algorithm single-pass
done
# The copy of 2^28 u32 beside the built-in scan (the affine pairs move twice its bytes).
timeout 100 build/wgscan bench --series u32:add --algorithms single-pass --min 2^28 --max 2^28 --runs 20 \
  --csv /dev/stdout --json /tmp/b.json --svg /tmp/b.svg 2>&1 | grep -E "^u32,|rror|warning" >> $L
cat $L
