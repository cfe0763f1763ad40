#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 73 (issue 32), short (about 120 s): one-sweep pairs (DEFAULT's since fc98cd2) with
# their one-word values loaded before the ranking (cmp/wgscan-v3,
# /work/notes/patches/v3-*.patch: run67's v2 did that in both algorithms, one-sweep
# 15.88 -> 15.54 ms, reduce-then-scan 17.25 -> 17.43; v3 in one-sweep only) against
# head, and one-sweep pairs at larger tiles (run67: 256 x 8 18.69, 256 x 12 17.99,
# 256 x 16 15.87 ms); and one-sweep whose tiles are their workgroups' ids, not claimed
# by an atomic before the keys' loads can start (cmp/wgscan-c1, c1-*.patch: correct on
# SwiftShader through the fallback, which out-of-order workgroups there take often).
# Build with /work/notes/build-candidates.sh. A winner needs the
# whole suite on its build. Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run73
H() { P cmp/wgscan-head "$@"; }
V() { P cmp/wgscan-v3 "$@"; }
H warm - sort --n 16777216 --repeat 3 --pairs
V warm - sort --n 16777216 --repeat 3 --pairs
for a in "--pairs" "--payload index" "--pairs --type f32" "--pairs --type u64"; do
  H head - sort --n 268435456 --repeat 10 $a
  V v3 - sort --n 268435456 --repeat 10 $a
done
for n in 1048576 16777216; do
  H head - sort --n $n --repeat 30 --pairs
  V v3 - sort --n $n --repeat 30 --pairs
done
for t in 256,16,1 256,18,1 256,20,1 256,24,1; do
  H os-$t WGSCAN_TUNE_SORT=$t sort --n 268435456 --repeat 10 --pairs
  V v3-$t WGSCAN_TUNE_SORT=$t sort --n 268435456 --repeat 10 --pairs
done
C() { P cmp/wgscan-c1 "$@"; }
C warm - sort --n 16777216 --repeat 3
for a in "" "--pairs" "--type u64 --pairs"; do
  H head - sort --n 268435456 --repeat 10 --algorithm onesweep $a
  C c1 - sort --n 268435456 --repeat 10 --algorithm onesweep $a
done
for n in 1048576 2097152 16777216; do
  H head - sort --n $n --repeat 30 --algorithm onesweep
  C c1 - sort --n $n --repeat 30 --algorithm onesweep
done
cat $L
