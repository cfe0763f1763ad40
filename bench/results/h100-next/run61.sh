#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 61 (issues 32, 36): the segmented sort at f8b62ae against cmp/wgscan-base
# (626728d) again, each binary's first segmented sort a warm-up (a run's first one is no
# measurement, thirteenth session), then a 2^27 + 3 sort verified against the CPU.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run61
B() { P cmp/wgscan-base "$@"; }
S warm - segmented-sort --n 67108864 --segments 16 --repeat 5
B warm - segmented-sort --n 67108864 --segments 16 --repeat 5
for len in 16 256 4096 65536 16; do
  B base - segmented-sort --n 67108864 --segments $len --repeat 20
  S new - segmented-sort --n 67108864 --segments $len --repeat 20
done
echo "verify: $(timeout 100 build/wgscan sort --n 134217731 --repeat 1 --verify 2>&1 | grep -E 'verify|rror' | tr -s ' ')" >> $L
cat $L
