#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 76 (issue 36), about 60 s: the segmented sort's tiny segments (ss_tiny) by a sorting
# network an invocation a segment (cmp/wgscan-n1, /work/notes/patches/n1-*.patch:
# Batcher's odd-even merge sort of 8, 16 or 32 keys written out by the composer, min and
# max for keys alone; the plain rank walk on 8 invocations a segment before) against
# head, 2^26 u32 keys: segments of 16 (CUB 0.333 ms on an H100, head 1.031), 8, 32,
# random 0..32, pairs and u64 at 16, then the two builds' --verify. Build with
# /work/notes/build-candidates.sh; a winner needs the whole suite on its build.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run76
H() { P cmp/wgscan-head "$@"; }
N() { P cmp/wgscan-n1 "$@"; }
H warm - segmented-sort --n 16777216 --segments 16 --repeat 3
N warm - segmented-sort --n 16777216 --segments 16 --repeat 3
for a in "--segments 16" "--segments 8" "--segments 32" "--segments random:16" "--segments 16 --pairs" \
         "--segments 16 --type u64" "--segments 16 --payload index"; do
  H head - segmented-sort --n 67108864 --repeat 20 $a
  N n1 - segmented-sort --n 67108864 --repeat 20 $a
done
for a in "--segments 16" "--segments random:16 --pairs" "--segments 13 --type i64 --descending"; do
  N n1-verify - segmented-sort --n 16777216 --repeat 2 --verify $a
done
cat $L
