#!/usr/bin/env bash
# Tuning experiment for the single pass on a GPU: look-back spins before a fallback.
# Prints the 2^20, 2^24 and 2^28 rows of `wgscan bench` for each setting.
for spins in 4 16 64 256 4096; do
  echo "== spins $spins"
  WGSCAN_LOOKBACK_SPINS=$spins build/wgscan bench --min 2^20 --max 2^28 --runs 20 --series u32:add --algorithms single-pass \
    --json /tmp/x.json --csv /tmp/x.csv --svg /tmp/x.svg 2>/dev/null | awk '$4==1048576||$4==16777216||$4==268435456'
done
