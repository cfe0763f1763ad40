#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tile-shape sweep of the library scan on a GPU (WGSCAN_TUNE_SP / WGSCAN_TUNE_ML) at 2^24
# and 2^28, after verified runs of sizes with a scalar tail.
for a in single-pass multilevel; do for op in add min; do for n in 4097 1048581; do
  r=$(timeout 20 build/wgscan scan --n $n --op $op --algorithm $a --verify --repeat 1 2>&1 | grep -E "verify|error" | head -1)
  echo "$a $op n=$n: ${r:-TIMEOUT}"
done; done; done
b() { build/wgscan bench --min 16777216 --max 268435456 --runs 20 --series u32:add "$@" --json /dev/null --csv /dev/null --svg /dev/null 2>/dev/null | awk '$4==16777216||$4==268435456'; }
for t in 256,16 256,8 512,8 512,16 1024,8; do echo "== SP $t"; WGSCAN_TUNE_SP=$t b --algorithms single-pass; done
for t in 256,16 256,8 512,8 512,16 128,16; do echo "== ML $t"; WGSCAN_TUNE_ML=$t b --algorithms multilevel; done
