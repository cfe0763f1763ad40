#!/usr/bin/env bash
# Tile-shape sweep of the library scan on a GPU (WGSCAN_TUNE_SP / WGSCAN_TUNE_ML), 2^24 and 2^28.
b() { build/wgscan bench --min 16777216 --max 268435456 --runs 20 --series u32:add "$@" --json /dev/null --csv /dev/null --svg /dev/null 2>/dev/null | awk '$4==16777216||$4==268435456||/copy/'; }
echo "== defaults"; b --algorithms single-pass,multilevel
for t in 256,32 256,64 128,16 512,16 1024,16 256,8; do echo "== SP $t"; WGSCAN_TUNE_SP=$t b --algorithms single-pass; done
for t in 256,8 512,16 128,16 256,32; do echo "== ML $t"; WGSCAN_TUNE_ML=$t b --algorithms multilevel; done
echo "== lab single pass, row loads (timing only), 2^28"
for c in "256 4" "256 8" "512 4"; do set -- $c; T=$((268435456 / 4 / ($1 * $2)))
  build/wgscan-lab bench/lab/scan_lab.wgsl --n 268435456 --runs 20 -D WG=$1 -D ITEMS=$2 -D TPW=1 -D PREFETCH=0 -D ROWS=1 -D SUMS_WG=1024 --aux $((1 + 2 * T)) --pass single_pass:$T 2>&1 | head -2
done
