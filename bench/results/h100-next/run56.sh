#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 56 (issue 32): run55's scatter code (cut from its pipeline caches here, carried in
# cmp/sass) disassembled by nvdisasm; the scatter at 256 x 12 dumped and disassembled
# there end to end (bench/lab/sass.sh); shapes around run55's best (the plain staging at
# 256 x 12, two tiles a group: 9.97 ms against 10.65) for keys, pairs and u64, and
# 2^24 and 2^20 at that shape.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run56
mkdir -p $out/sass && cp cmp/sass/*.code $out/sass/
timeout 60 bash bench/lab/sass.sh $out/sass --cached keys-scatter.spv pairs-scatter.spv >> $L 2>&1
d=$out/dump12
WGSCAN_TUNE_SORT=256,12,2 BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val VKSTATS=0 \
  timeout 40 bash bench/lab/dump-spirv.sh $d sort --n 4194304 --repeat 1 --algorithm reduce-scan > $d.log 2>&1
s12=$(ls $d/*sort_scatter.spv | head -1)
[ -n "$s12" ] && cp $s12 $out/sass/keys12-scatter.spv && BUILD=build timeout 60 bash bench/lab/sass.sh $out/sass $out/sass/keys12-scatter.spv >> $L 2>&1
rm -rf $d
K="sort --n 268435456 --repeat 10"
S warm - sort --n 16777216 --repeat 3
S keys - $K
for t in 256,12,2 256,12,1 256,11,2 256,13,2 256,12,4 384,8,2 384,10,1 512,6,2 192,16,2; do
  S rs-plain "WGSCAN_TUNE_SORT=$t" $K --algorithm reduce-scan
done
S pairs - $K --pairs
for t in 256,12,1 256,10,1 256,6,1; do
  S pairs-plain "WGSCAN_TUNE_SORT=$t" $K --pairs --algorithm reduce-scan
done
S u64 - $K --type u64
for t in 256,12,1 256,6,1 256,8,2; do
  S u64-plain "WGSCAN_TUNE_SORT=$t" $K --type u64 --algorithm reduce-scan
done
for n in 16777216 4194304; do
  S keys - sort --n $n --repeat 30
  S rs-plain-$n "WGSCAN_TUNE_SORT=256,12,2" sort --n $n --repeat 30 --algorithm reduce-scan
done
S keys - $K
cat $L
