#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 62 (issue 32, next session; copy to bench/results/h100-next/ first). At main
# (c6f31c9 or later), one call: the whole suite is NOT in it (no kernel change), so it
# fits ~200 s.
# 1. Pairs' ranking taken apart: build cmp/wgscan-p1 and cmp/wgscan-p2 from main with
#    /work/notes/patches/p1-pairs-lowest-popcount.patch (the pairs' lowest peer by a bit
#    count, not Tint's firstTrailingBit binary search) and p2-pairs-highest-leads.patch
#    (pairs ranked by the keys' form, highest peer leads, digits still computed):
#    git apply PATCH && cmake --build build --target wgscan_cli && cp build/wgscan cmp/wgscan-pN && git checkout src
#    and cmp/wgscan-k1 from k1-digit-below-radix.patch (a held digit & (RADIX - 1), so
#    that the driver can drop the bounds clamps of the arrays it indexes: about two
#    instructions a key in the SASS of 626728d).
# 2. Keys at shapes the new ranking has not met (384 x 10/12, 512 x 6/8, 320 x 10).
# 3. One-sweep at 2^28 with wider look-back reads (WGSCAN_LOOKBACK 1/4/8) and without it.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run62
K="sort --n 268435456 --repeat 10"
S warm - sort --n 16777216 --repeat 3
for b in p1 p2; do [ -x cmp/wgscan-$b ] && P cmp/wgscan-$b warm - sort --n 16777216 --repeat 3; done
for a in "--pairs" "--pairs --type f32" "--pairs --type i32" "--payload index"; do
  S main - $K $a
  for b in p1 p2; do [ -x cmp/wgscan-$b ] && P cmp/wgscan-$b $b - $K $a; done
done
for t in 256,12,1 256,10,1; do
  S main "WGSCAN_TUNE_SORT=$t" $K --pairs
  for b in p1 p2; do [ -x cmp/wgscan-$b ] && P cmp/wgscan-$b $b "WGSCAN_TUNE_SORT=$t" $K --pairs; done
done
for a in "" "--type f32" "--type u64"; do
  S keys - $K $a
  [ -x cmp/wgscan-k1 ] && P cmp/wgscan-k1 k1 - $K $a
done
S keys - sort --n 16777216 --repeat 30
[ -x cmp/wgscan-k1 ] && P cmp/wgscan-k1 k1 - sort --n 16777216 --repeat 30
for t in 384,10,1 384,12,1 512,6,1 512,8,1 320,10,1 256,12,2; do
  S keys "WGSCAN_TUNE_SORT=$t" $K
done
for lb in 1 4 8; do
  S os "WGSCAN_LOOKBACK=$lb" $K --algorithm onesweep
done
S os-no-lookback WGSCAN_SORT_PHASES=count,scan,scatter,no-lookback $K --algorithm onesweep
S os-12-no-lookback "WGSCAN_SORT_PHASES=count,scan,scatter,no-lookback WGSCAN_TUNE_SORT=256,12,1" $K --algorithm onesweep
for sp in 1024 8192; do
  S os "WGSCAN_LOOKBACK_SPINS=$sp" $K --algorithm onesweep
done
for t in 256,24,1 384,16,1 512,12,1 512,15,1 384,20,1; do
  S os "WGSCAN_TUNE_SORT=$t" $K --algorithm onesweep
done
S keys - $K
cat $L
