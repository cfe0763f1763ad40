#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The lab's single pass one tile ahead in persistent workgroups (sp_ahead) against
# sp_rows and the copy, u32 add, fallback code compiled in, on a GPU: tile shapes,
# grids (GROUPS), look-back windows (LBW states a lane). Usage: bench/lab/sp-ahead.sh
L=${LAB:-build/wgscan-lab}
F=bench/lab/scan_lab.wgsl
for lg in 28 24; do N=$((1 << lg))
  lab() { $L $F --n $N --runs 30 "$@" 2>&1 | head -1; }
  d() { echo "-D WG=$1 -D ITEMS=$2 -D TPW=1 -D PREFETCH=0 -D ROWS=1 -D SUMS_WG=1024 -D FB=1"; }
  tiles() { echo $((N / 4 / ($1 * $2))); }
  lab $(d 256 4) --check copy --pass copy4:$((N / 4 / 1024))
  T=$(tiles 1024 4); lab $(d 1024 4) --aux $((1 + 2 * T)) --check scan --pass sp_rows:$T
  if [ $lg = 28 ]; then
    runs="1024,4,132,1 1024,4,132,4 1024,4,264,4 512,4,132,4 512,4,264,1 512,4,264,4 512,4,528,4
          256,4,264,4 256,4,528,4 256,4,1056,4 512,2,264,4 512,2,528,4 256,8,264,4 256,8,528,4
          128,8,528,4 128,8,1056,4 256,2,1056,4 1024,2,132,4 1024,2,264,4"
  else runs="1024,4,132,4 512,4,264,4 256,4,528,4 256,8,264,4 1024,2,132,4"; fi
  for r in $runs; do IFS=, read wg it g w <<<"$r"; T=$(tiles $wg $it)
    lab $(d $wg $it) -D LBW=$w --aux $((1 + 2 * T)) --check scan --pass sp_ahead:$g | sed "s/\$/ GROUPS=$g/"
  done
done
