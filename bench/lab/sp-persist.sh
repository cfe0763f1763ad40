#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The lab's single pass in persistent workgroups (sp_persist: tiles claimed in turn, the
# next one loaded during the current one's look-back, PF=1, or after its store, PF=0)
# against sp_rows (one tile a workgroup) and the copy, u32 add, fallback code compiled in
# (FB=1), on a GPU. Arguments: WG ITEMS GROUPS triples are swept at 2^28 and 2^24.
# Usage: bench/lab/sp-persist.sh   (LAB=path/to/wgscan-lab)
L=${LAB:-build/wgscan-lab}
F=bench/lab/scan_lab.wgsl
for lg in 28 24; do N=$((1 << lg))
  lab() { $L $F --n $N --runs 30 "$@" 2>&1 | head -1; }
  d() { echo "-D WG=$1 -D ITEMS=$2 -D TPW=1 -D PREFETCH=0 -D ROWS=1 -D SUMS_WG=1024 -D FB=1"; }
  tiles() { echo $((N / 4 / ($1 * $2))); }
  lab $(d 256 4) --check copy --pass copy4:$((N / 4 / 1024))
  for c in "1024 4" "512 4"; do set -- $c; T=$(tiles $1 $2)
    lab $(d $1 $2) --aux $((1 + 2 * T)) --check scan --pass sp_rows:$T
  done
  if [ $lg = 28 ]; then shapes="1024,4 512,4 256,4 512,8 256,8 1024,2 128,8"; groups="132 264 528 1056"
  else shapes="1024,4 512,4 256,4 256,8"; groups="264 528"; fi
  for s in $shapes; do wg=${s%,*}; it=${s#*,}; T=$(tiles $wg $it)
    for g in $groups; do
      lab $(d $wg $it) --aux $((1 + 2 * T)) --check scan --pass sp_persist:$g
    done
    lab $(d $wg $it) -D PF=0 --aux $((1 + 2 * T)) --check scan --pass sp_persist:264
  done
done
