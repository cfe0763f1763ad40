#!/usr/bin/env bash
# Tuning experiment for the single pass on a GPU: look-back width (states per lane per step).
# Prints 2^20, 2^24 and 2^28 rows of `wgscan bench` for each setting.
for cfg in 1 2; do
  set -- $cfg
  echo "== lookback per lane $1"
  WGSCAN_LOOKBACK=$1 build/wgscan bench --min 2^20 --max 2^28 --runs 20 --series u32:add --algorithms single-pass \
    --json /tmp/x.json --csv /tmp/x.csv --svg /tmp/x.svg 2>/dev/null | awk '$4==1048576||$4==16777216||$4==268435456'
done
