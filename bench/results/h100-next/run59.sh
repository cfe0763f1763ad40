#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 59 (issue 32): the tree to land (the leader by highest_bit and the held digits as
# a shift and a mask; keys alone at 256 x 12, a tile a group; pairs as before) against
# cmp/wgscan-base (626728d) in the same call: every key type at 2^28, 2^24 and 2^20,
# the segmented sort (its tiles rank the same way), then the whole suite.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run59
B() { P cmp/wgscan-base "$@"; }
K="sort --n 268435456 --repeat 10"
S warm - sort --n 16777216 --repeat 3
B warm - sort --n 16777216 --repeat 3
for a in "" "--pairs" "--type u64" "--type f32" "--type i32" "--pairs --type u64 --value-bytes 8"; do
  B base - $K $a
  S new - $K $a
done
for n in 16777216 1048576; do
  B base - sort --n $n --repeat 30
  S new - sort --n $n --repeat 30
done
for len in 16 256 4096 65536; do
  B base - segmented-sort --n 67108864 --segments $len --repeat 20
  S new - segmented-sort --n 67108864 --segments $len --repeat 20
done
S verify - sort --n 268435459 --repeat 1 --verify
S verify - sort --n 16777217 --repeat 1 --verify --type f32 --descending
suite ${SUITE_UNTIL:-500}
cat $L
