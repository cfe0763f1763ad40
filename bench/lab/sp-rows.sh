#!/usr/bin/env bash
# The checked row-tile single pass of the lab (sp_rows) against the copy and the lab's
# timing-only single pass: tile shapes, the fallback's code compiled in or not, at 2^28
# and 2^24 (u32 add, H200). Usage: bench/lab/sp-rows.sh
L=${LAB:-build/wgscan-lab}
F=bench/lab/scan_lab.wgsl
for lg in 28 24; do N=$((1 << lg))
  lab() { $L $F --n $N --runs 30 "$@" 2>&1 | head -1; }
  d() { echo "-D WG=$1 -D ITEMS=$2 -D TPW=1 -D PREFETCH=0 -D ROWS=1 -D SUMS_WG=1024"; }
  lab $(d 256 4) --check copy --pass copy4:$((N / 4 / 1024))
  lab $(d 256 8) --aux $((1 + N / 1024)) --pass single_pass:$((N / 4 / 2048))
  for c in "256 4" "256 8" "512 4" "512 8" "128 8" "128 16" "1024 4"; do set -- $c; T=$((N / 4 / ($1 * $2)))
    for fb in 0 1; do lab $(d $1 $2) -D FB=$fb --aux $((1 + 2 * T)) --check scan --pass sp_rows:$T; done
  done
  T=$((N / 4 / 2048)); lab $(d 256 8) -D FB=1 -D NARROW=0 --aux $((1 + 2 * T)) --check scan --pass sp_rows:$T
done
