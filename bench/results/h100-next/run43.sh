#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 43 (issue 36, 32): where the segmented sort's large path spends 1.4-2.3 ms when
# no segment is large (run40-42: segments of 16 at 2^26, 0.67 ms without the path):
# its sorts' phases cut, Dawn's validation (of the indirect dispatches) skipped, a
# small n to tell a fixed cost from a per-key one; ss_tiny's two forms; the sorts at
# 2^24 and 2^20.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run43
NL=WGSCAN_TUNE_SEGSORT=256,16,256,8,67108864
for n in 67108864 65536; do
  G="segmented-sort --n $n --segments 16 --repeat 20"
  S seg16 - $G
  S seg16 $NL $G
  S seg16 WGSCAN_SORT_PHASES=count $G
  S seg16 WGSCAN_SORT_PHASES=scatter $G
  S seg16 WGSCAN_DAWN_TOGGLES=skip_validation $G
  S seg16 "WGSCAN_DAWN_TOGGLES=skip_validation $NL" $G
  S seg16 WGSCAN_SORT_PHASES=count,scan,scatter,no-lookback $G
done
# ss_tiny reading each key once a lane for all its held keys (the working tree's
# build) against 9f761af's (a key at a time), build/lab/wgscan-9f761af.
for l in 1 5 16 32; do
  S tiny-new - segmented-sort --n 67108864 --segments $l --repeat 20
  B=build/lab/wgscan-9f761af
  t=$(timeout 60 $B segmented-sort --n 67108864 --segments $l --repeat 20 2>&1 | grep -E "GPU|rror" | tr -s ' ')
  echo "tiny-9f761af L=$l: $t" >> $L
done
S tiny-verify - segmented-sort --n 16777219 --segments 24 --repeat 1 --verify --payload index --type u64
S seg4096 - segmented-sort --n 67108864 --segments 4096 --repeat 20
S seg4096 WGSCAN_DAWN_TOGGLES=skip_validation segmented-sort --n 67108864 --segments 4096 --repeat 20
for n in 16777216 1048576; do
  S keys - sort --n $n --repeat 50
  S keys WGSCAN_DAWN_TOGGLES=skip_validation sort --n $n --repeat 50
  S keys - sort --n $n --repeat 50 --algorithm onesweep
  S keys WGSCAN_LOOKBACK=4 sort --n $n --repeat 50 --algorithm onesweep
  S pairs - sort --n $n --repeat 50 --payload index
done
S keys WGSCAN_DAWN_TOGGLES=skip_validation sort --n 268435456 --repeat 10
cat $L
