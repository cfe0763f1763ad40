#!/usr/bin/env bash
# Tuning experiment on a GPU: what Dawn's safety transforms cost the scans.
# Prints the 2^20, 2^24 and 2^28 rows of `wgscan bench` for each set of device toggles.
for toggles in "" "disable_workgroup_init" "disable_robustness" "disable_workgroup_init,disable_robustness"; do
  echo "== toggles '$toggles'"
  WGSCAN_DAWN_TOGGLES=$toggles build/wgscan bench --min 2^20 --max 2^28 --runs 20 --series u32:add \
    --json /tmp/x.json --csv /tmp/x.csv --svg /tmp/x.svg 2>/dev/null | awk '$4==1048576||$4==16777216||$4==268435456'
done
