#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Single-pass diagnosis on a GPU: sums with and without the subgroup scan instruction
# (WGSCAN_SUBGROUP_ADD) on sizes with a scalar tail, then tile shapes with and without
# the fallback code compiled in (WGSCAN_NO_FALLBACK), 2^24 and 2^28.
for m in 1 0 2; do for n in 4097 1048581; do
  r=$(WGSCAN_SUBGROUP_ADD=$m timeout 20 build/wgscan scan --n $n --algorithm single-pass --verify --repeat 1 2>&1 | grep -E "verify|error" | head -1)
  echo "subgroup_add=$m n=$n: ${r:-TIMEOUT}"
done; done
b() { build/wgscan bench --min 16777216 --max 268435456 --runs 20 --series u32:add "$@" --json /dev/null --csv /dev/null --svg /dev/null 2>/dev/null | awk '$4==16777216||$4==268435456'; }
for t in 256,16 256,8 512,8; do
  echo "== SP $t"; WGSCAN_TUNE_SP=$t b --algorithms single-pass
  echo "== SP $t no fallback"; WGSCAN_NO_FALLBACK=1 WGSCAN_TUNE_SP=$t b --algorithms single-pass
  echo "== SP $t no subgroup add"; WGSCAN_SUBGROUP_ADD=0 WGSCAN_TUNE_SP=$t b --algorithms single-pass
done
for t in 256,16 256,8; do echo "== ML $t"; WGSCAN_TUNE_ML=$t b --algorithms multilevel; done
