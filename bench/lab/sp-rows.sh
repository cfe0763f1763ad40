#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The checked row-tile single pass of the lab (sp_rows) against the copy and the lab's
# timing-only single pass, u32 add at 2^28 and 2^24 on a GPU: tile shapes; the fallback's
# code compiled in (FB=1) or not (FB=0) or a one-load stand-in (FB=3); the spin limit;
# the lane prefix folded in early (EXF); the tile kept in workgroup memory across the
# look-back (STASH) or only across a fallback (FB_STASH); the fallback run by the whole
# workgroup outside the subgroup's loop (sp_rows_wgfb). Figures in BENCHMARKS.md. Usage: bench/lab/sp-rows.sh
L=${LAB:-build/wgscan-lab}
F=bench/lab/scan_lab.wgsl
for lg in 28 24; do N=$((1 << lg))
  lab() { $L $F --n $N --runs 30 "$@" 2>&1 | head -1; }
  d() { echo "-D WG=$1 -D ITEMS=$2 -D TPW=1 -D PREFETCH=0 -D ROWS=1 -D SUMS_WG=1024"; }
  sp() { local T=$((N / 4 / ($1 * $2))); lab $(d $1 $2) --aux $((1 + 2 * T)) --check scan "${@:3}" --pass sp_rows:$T; }
  lab $(d 256 4) --check copy --pass copy4:$((N / 4 / 1024))
  lab $(d 256 8) --aux $((1 + N / 1024)) --pass single_pass:$((N / 4 / 2048))
  for c in "256 4" "256 8" "512 2" "512 4" "512 8" "1024 2" "1024 4"; do set -- $c
    for fb in 0 1 3; do sp $1 $2 -D FB=$fb; done
  done
  for c in "512 4" "1024 4"; do set -- $c
    for s in 256 1000000; do sp $1 $2 -D FB=1 -D MAX_SPINS=$s; done
    sp $1 $2 -D FB=1 -D EXF=1
    sp $1 $2 -D FB=1 -D FB_STASH=1
  done
  sp 512 4 -D FB=0 -D STASH=1
  for c in "512 4" "1024 4"; do set -- $c; T=$((N / 4 / ($1 * $2)))
    lab $(d $1 $2) --aux $((1 + 2 * T)) --check scan --pass sp_rows_wgfb:$T
  done
  sp 256 4 -D FB=1 -D NARROW=0
done
