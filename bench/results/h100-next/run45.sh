#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 45 (issue 32): the one-sweep sort with its tuning row's look-back (four states a
# read, 256 spins; until this tree every sort read one state and gave up after 16:
# the context's defaults), DEFAULT's one-sweep up to 2^20 keys (2^21 on either side),
# the segmented sort's gather with its range guard; then the whole suite (not yet run
# on a GPU at 1722cb4's tree).
# SUITE_UNTIL: seconds from the start by which the suite must end (default 590).
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run45
S keys - sort --n 268435456 --repeat 10
S keys - sort --n 268435456 --repeat 10 --algorithm onesweep
for e in 20 21 24; do
  S keys - sort --n $((1 << e)) --repeat 50
  S keys - sort --n $((1 << e)) --repeat 50 --algorithm onesweep
  S pairs - sort --n $((1 << e)) --repeat 50 --payload index
done
S verify - sort --n 1048573 --repeat 1 --payload index --type f32 --verify
S segsort-verify - segmented-sort --n 16777219 --segments 16777219 --repeat 1 --verify --payload index --type u64
suite ${SUITE_UNTIL:-590}
cat $L
