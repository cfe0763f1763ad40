#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 79 (issue 33), about 90 s: the ordered look-back's forward fold (a user's operator,
# scan by key of floats) with its shuffles taken out of the chain of combines
# (cmp/wgscan-f1, /work/notes/patches/f1-*.patch: the run found by two subgroup
# operations, four values fetched ahead of each four combines; the same left fold, the
# same bits) against head. run77 saw a user's single pass at tile-count pace (a u32 add
# 3.73 ms at 2^28 where the built-in's single pass takes 0.84; affine 5.2): up to
# hundreds of tiles folded one shuffle-and-combine at a time per tile is the suspect.
# Build with /work/notes/build-candidates.sh; a winner needs the whole suite on its build.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run79
H() { P cmp/wgscan-head "$@"; }
F() { P cmp/wgscan-f1 "$@"; }
ops=examples/operators
H warm - scan --operator $ops/affine.wgsl --inclusive --n 16777216 --repeat 3 --algorithm single-pass
F warm - scan --operator $ops/affine.wgsl --inclusive --n 16777216 --repeat 3 --algorithm single-pass
for a in "--operator $ops/affine.wgsl --inclusive --algorithm single-pass" "--operator $ops/affine.wgsl --inclusive" \
         "--operator $ops/add_u32.wgsl --algorithm single-pass" "--algorithm single-pass"; do
  H head - scan --n 268435456 --repeat 20 $a
  F f1 - scan --n 268435456 --repeat 20 $a
done
for a in "--type f32" "--type u32"; do
  H head - scan-by-key --n 268435456 --segments 1000 --repeat 20 $a
  F f1 - scan-by-key --n 268435456 --segments 1000 --repeat 20 $a
done
F f1-verify - scan --operator $ops/affine.wgsl --inclusive --n 16777216 --repeat 1 --algorithm single-pass --verify
F f1-verify - scan-by-key --n 16777216 --segments random:1000 --repeat 1 --type f32 --verify
cat $L
