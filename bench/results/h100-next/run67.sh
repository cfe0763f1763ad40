#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 67 (issue 32): which algorithm pairs want once their one-word values are loaded
# when the keys are placed (run65: one-sweep pairs at 2^28 21.33 -> 15.86 ms, the
# reduce-then-scan 18.08 -> 17.36): build/ (main with that change and the one-sweep
# histogram on about 4096 workgroups) at 2^20 .. 2^28 both ways, one-sweep's shapes for
# pairs, u64 keys and pairs, keys at 2^21 and 2^22 (the one-sweep bound of keys); and
# cmp/wgscan-v2, the values loaded with the keys (before the ranking).
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run67
V() { P cmp/wgscan-v2 "$@"; }
S warm - sort --n 16777216 --repeat 3 --pairs
V warm - sort --n 16777216 --repeat 3 --pairs
O="--algorithm onesweep"; R="--algorithm reduce-scan"
for t in 256,8,1 256,12,1 256,16,1; do
  S os-$t WGSCAN_TUNE_SORT=$t sort --n 268435456 --repeat 10 --pairs $O
done
for n in 1048576 2097152 4194304 8388608 16777216 67108864 268435456; do
  r=$(( n >= 67108864 ? 10 : 30 ))
  S rs - sort --n $n --repeat $r --pairs $R
  S os - sort --n $n --repeat $r --pairs $O
done
for n in 16777216 268435456; do
  S rs - sort --n $n --repeat 10 --payload index $R
  S os - sort --n $n --repeat 10 --payload index $O
  S rs - sort --n $n --repeat 10 --type u64 $R
  S os - sort --n $n --repeat 10 --type u64 $O
  S rs - sort --n $n --repeat 10 --type u64 --pairs $R
  S os - sort --n $n --repeat 10 --type u64 --pairs $O
  S rs - sort --n $n --repeat 10 --type f32 --pairs $R
  S os - sort --n $n --repeat 10 --type f32 --pairs $O
done
for n in 2097152 4194304; do
  S rs - sort --n $n --repeat 50 $R
  S os - sort --n $n --repeat 50 $O
  S os-12 WGSCAN_TUNE_SORT=256,12,1 sort --n $n --repeat 50 $O
done
for a in "$R" "$O"; do
  S base - sort --n 268435456 --repeat 10 --pairs $a
  V v2 - sort --n 268435456 --repeat 10 --pairs $a
  S base - sort --n 268435456 --repeat 10 --pairs --type u64 $a
  V v2 - sort --n 268435456 --repeat 10 --pairs --type u64 $a
done
S keys - sort --n 268435456 --repeat 10
S keys-os - sort --n 268435456 --repeat 10 $O
cat $L
