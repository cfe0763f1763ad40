#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 78 (issues 32, 33), for a warm H100 after run73 and run77 (2026-12-08): build/ is
# the candidate (one-sweep values loaded before the ranking, v3, and one-sweep pairs at
# 256 x 20: run73's 14.43 ms against head's 15.87), cmp/wgscan-head the base. Pairs,
# indices, f32 pairs, u64 pairs at 2^28 and pairs at 2^20 and 2^24, both builds; then
# why run77's user-operator single passes ran at tile-count pace under WGSCAN_TUNE_SP
# (a user's u32 add 3.73 ms at 256 x 16 where the built-in takes 0.84): the same scans
# with no experiment; then the whole suite on the candidate (until 330 s: the session's
# device time was nearly spent). Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels).
. bench/results/h100-next/lib.sh run78
H() { P cmp/wgscan-head "$@"; }
S warm - sort --n 16777216 --repeat 3 --pairs
for a in "--pairs" "--pairs --type u64"; do
  H head - sort --n 268435456 --repeat 10 $a
  S cand - sort --n 268435456 --repeat 10 $a
done
S cand - sort --n 268435456 --repeat 10 --payload index
S cand-verify - sort --n 268435456 --repeat 1 --pairs --verify
ops=examples/operators
S add-sp - scan --operator $ops/add_u32.wgsl --n 268435456 --repeat 20 --algorithm single-pass
S builtin-sp - scan --n 268435456 --repeat 20 --algorithm single-pass
suite 330
cat $L
