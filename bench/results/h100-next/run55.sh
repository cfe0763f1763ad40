#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 55 (issue 32): the machine code of the scatter for keys and for pairs (run54's
# SPIR-V, carried in cmp/, through bench/lab/sass.sh), then tile shapes of the halves
# staging around run54's best (256 x 12, two tiles a group: 10.21 ms against 10.65).
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run55
BUILD=build timeout 60 bash bench/lab/sass.sh $out/sass cmp/keys-scatter.spv cmp/pairs-scatter.spv > $out/sass.log 2>&1
echo "sass rc=$?" >> $L; grep -E "ELF|instructions|nvdisasm|no ELF|Register" $out/sass.log >> $L
K="sort --n 268435456 --repeat 10"
H=WGSCAN_SORT_STAGE=halves
S warm - sort --n 16777216 --repeat 3
S keys - $K
for t in 256,12,2 256,12,1 256,12,4 256,10,2 256,10,4 256,14,2 256,14,4 128,12,4 128,16,4 512,8,2; do
  S rs-halves "$H WGSCAN_TUNE_SORT=$t" $K --algorithm reduce-scan
done
for t in 256,10,2 256,12,2 256,8,4; do
  S rs-plain "WGSCAN_TUNE_SORT=$t" $K --algorithm reduce-scan
done
S keys - $K
for n in 16777216 1048576; do
  S keys - sort --n $n --repeat 30
  S rs-halves-$n "$H WGSCAN_TUNE_SORT=256,12,2" sort --n $n --repeat 30
done
cat $L
