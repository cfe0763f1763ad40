#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 54 (issue 32, fifteenth session): HEAD's sort against the targets (2^28 keys,
# pairs with 4669ea3's split, u64, f32, i32; 2^24, 2^20), one-sweep with the halves
# staging at larger tiles (its default 256 x 16 takes 27 KiB and 128 registers: one
# workgroup a core), halves for pairs and with two tiles a group, the driver's
# registers and internal representation of the scatter for keys and pairs, the whole
# suite, and CUB's sorts beside where the machine is an H200.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run54
K="sort --n 268435456 --repeat 10"
H=WGSCAN_SORT_STAGE=halves
S warm - sort --n 16777216 --repeat 3
S keys - $K
S pairs - $K --pairs
S u64 - $K --type u64
S f32 - $K --type f32
S i32 - $K --type i32
S keys24 - sort --n 16777216 --repeat 30
S keys20 - sort --n 1048576 --repeat 50
S os - $K --algorithm onesweep
for t in 256,16,1 256,24,1 256,32,1 256,12,1; do
  S os-halves "$H WGSCAN_TUNE_SORT=$t" $K --algorithm onesweep
done
for t in 256,16,1 256,16,2 256,24,1 256,12,2; do
  S rs-halves "$H WGSCAN_TUNE_SORT=$t" $K --algorithm reduce-scan
done
S pairs-halves "$H WGSCAN_TUNE_SORT=256,16,1" $K --pairs
S pairs-halves "$H WGSCAN_TUNE_SORT=256,12,1" $K --pairs
for n in 1048576 16777216; do
  S os-halves-$n "$H WGSCAN_TUNE_SORT=256,16,1" sort --n $n --repeat 30 --algorithm onesweep
  S os-halves-$n "$H WGSCAN_TUNE_SORT=256,24,1" sort --n $n --repeat 30 --algorithm onesweep
done
for v in keys:- pairs:--pairs; do
  d=$out/ir-${v%%:*}
  a=${v#*:}; [ "$a" = - ] && a=
  BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val \
    timeout 40 bash bench/lab/dump-spirv.sh $d sort --n 4194304 --repeat 1 --algorithm reduce-scan $a > $d.log 2>&1
  echo "== regs ${v%%:*}: $(grep -A4 -E 'sort_(scatter|onesweep|count).spv:' $d.log | grep -iE 'spv:|register|shared|spill' | tr -s ' ' | tr '\n' ' ')" >> $L
  find $d -type f ! -path '*ir*scatter*' -delete 2>/dev/null
done
suite ${SUITE_UNTIL:-420}
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  timeout $(( 590 - ($(date +%s) - start) )) bash bench/cub/run_primitives.sh 20 28 > $out/cub.csv 2>&1
  echo "cub rc=$?" >> $L; grep -iE "sort" $out/cub.csv | head -20 >> $L
fi
cat $L
