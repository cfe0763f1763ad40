#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sp_ahead2 (the next tile's aggregate published beside, not after, the current tile's
# look-back) against sp_ahead, sp_rows and the copy, u32 add, on a GPU; MAX_SPINS=10^6
# rows tell whether fallbacks make the slow shapes slow. Usage: bench/lab/sp-ahead2.sh
L=${LAB:-build/wgscan-lab}
F=bench/lab/scan_lab.wgsl
for lg in 28 24; do N=$((1 << lg))
  lab() { $L $F --n $N --runs 30 "$@" 2>&1 | head -1; }
  d() { echo "-D WG=$1 -D ITEMS=$2 -D TPW=1 -D PREFETCH=0 -D ROWS=1 -D SUMS_WG=1024 -D FB=1"; }
  tiles() { echo $((N / 4 / ($1 * $2))); }
  lab $(d 256 4) --check copy --pass copy4:$((N / 4 / 1024))
  T=$(tiles 1024 4); lab $(d 1024 4) --aux $((1 + 2 * T)) --check scan --pass sp_rows:$T
  if [ $lg = 28 ]; then
    runs="sp_ahead2,1024,4,132,1,16 sp_ahead2,1024,4,132,4,16 sp_ahead2,512,4,132,4,16 sp_ahead2,512,4,264,4,16
          sp_ahead2,256,4,528,4,16 sp_ahead2,256,4,1056,4,16 sp_ahead2,256,8,528,4,16 sp_ahead2,512,2,528,4,16
          sp_ahead2,512,4,264,4,1000000 sp_ahead,512,4,264,4,1000000 sp_ahead,1024,4,132,1,1000000
          sp_ahead2,1024,4,132,1,1000000 sp_ahead2,1024,2,264,4,16 sp_ahead2,128,8,1056,4,16"
  else runs="sp_ahead2,1024,4,132,1,16 sp_ahead2,512,4,264,4,16 sp_ahead2,256,4,528,4,16"; fi
  for r in $runs; do IFS=, read e wg it g w s <<<"$r"; T=$(tiles $wg $it)
    lab $(d $wg $it) -D LBW=$w -D MAX_SPINS=$s --aux $((1 + 2 * T)) --check scan --pass $e:$g | sed "s/\$/ GROUPS=$g/"
  done
done
