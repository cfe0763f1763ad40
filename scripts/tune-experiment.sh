#!/usr/bin/env bash
# Tuning experiment on a GPU: does the copy lose speed with 4-byte loads (as the scan
# kernels load) instead of 16-byte ones? Prints the 2^20, 2^24, 2^28 rows for each.
for copy in vec4 scalar; do
  echo "== copy $copy"
  WGSCAN_COPY=$copy build/wgscan bench --min 2^20 --max 2^28 --runs 20 --series u32:add --algorithms multilevel \
    --json /tmp/x.json --csv /tmp/x.csv --svg /tmp/x.svg 2>/dev/null | awk '$4==1048576||$4==16777216||$4==268435456'
done
