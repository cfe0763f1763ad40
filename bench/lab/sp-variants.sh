#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lab single pass (row loads, timing only) with and without narrow polling; 2^28 u32.
N=268435456
for e in single_pass; do for nar in 0 1; do for it in 4 8; do T=$((N / 4 / (256 * it)))
  build/wgscan-lab bench/lab/scan_lab.wgsl --n $N --runs 20 -D WG=256 -D ITEMS=$it -D TPW=1 -D PREFETCH=0 -D ROWS=1 \
    -D SUMS_WG=1024 -D NARROW=$nar --aux $((1 + 2 * T)) --pass $e:$T 2>&1 | head -2
done; done; done
