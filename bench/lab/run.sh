#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The scan-pass experiments of bench/lab/scan_lab.wgsl on a GPU: a copy as the ceiling,
# the reduce pass, the seeded scan pass in two layouts, tiles per workgroup, prefetch,
# and a single pass with the contiguous tile. Usage: bench/lab/run.sh [LOG2_N]
set -u
L=${LAB:-build/wgscan-lab}
F=bench/lab/scan_lab.wgsl
N=$((1 << ${1:-28}))
R=${RUNS:-30}
SW=${SUMS_WG:-1024}
lab() { $L $F --n $N --runs $R "$@" 2>&1 | head -3; }
d() { echo "-D WG=$1 -D ITEMS=$2 -D TPW=$3 -D PREFETCH=$4 -D ROWS=${5:-0} -D SUMS_WG=$SW"; }
groups() { echo $((N / 4 / ($1 * $2 * $3))); }
echo "== copy"
for c in "256 4" "256 8" "128 8"; do set -- $c; lab $(d $1 $2 1 0) --check copy --pass copy4:$(groups $1 $2 1); done
echo "== reduce pass (read once)"
for c in "256 4 1" "256 4 4" "256 4 16" "256 8 4" "128 8 8" "512 4 4"; do set -- $c
  G=$(groups $1 $2 $3); lab $(d $1 $2 $3 0) --aux $G --pass reduce_tiles:$G; done
echo "== seeded scan pass alone (read + write)"
for v in scan_rows scan_contig; do
  for c in "256 4 1 0" "256 4 4 0" "256 4 4 1" "256 4 16 1" "256 8 1 0" "256 8 4 1" "128 8 4 1" "128 4 8 1" "512 4 4 1"; do
    set -- $c; G=$(groups $1 $2 $3); lab $(d $1 $2 $3 $4) --aux $G --pass $v:$G; done
done
echo "== reduce-then-scan, checked"
for v in scan_rows scan_contig; do
  for c in "256 4 4 1" "256 8 4 1" "256 4 16 1"; do set -- $c; G=$(groups $1 $2 $3)
    lab $(d $1 $2 $3 $4) --aux $G --params $G --check scan --pass reduce_tiles:$G --pass scan_sums:1 --pass $v:$G; done
done
echo "== single pass (contiguous tiles; ROWS=1: row loads, timing only)"
for c in "256 4" "256 8" "256 16" "128 8" "128 16" "512 8" "1024 4"; do set -- $c; T=$(groups $1 $2 1)
  lab $(d $1 $2 1 0) --aux $((1 + 2 * T)) --check scan --pass single_pass:$T
done
for c in "256 8" "256 16"; do set -- $c; T=$(groups $1 $2 1)
  lab $(d $1 $2 1 0 1) --aux $((1 + 2 * T)) --pass single_pass:$T
done
