#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Select on a GPU at 2^28: the default against a baseline build (W0, if given), the
# scatter's shapes and tiles per workgroup (WGSCAN_TUNE_SELECT=wg,items,group_tiles), and
# the phases. Phases alone mislead when the scatter runs without its scan: the tile sums
# are then zero and it writes nothing, so "count,scan" against the whole is the honest split.
n=${N:-268435456}
b() { "${W:-build/wgscan}" bench --series none --primitives ${P:-select-flagged} --min ${M:-$n} --max $n --runs 20 \
  --json /dev/null --csv /dev/null --svg /dev/null 2>/dev/null | grep select; }
if [ -n "${W0:-}" ]; then
  echo "== baseline $W0"; W=$W0 P=select-flagged,select-if M=1048576 b
  echo "== baseline phases count,scan"; W=$W0 WGSCAN_SELECT_PHASES=count,scan b
  echo "== baseline phase count"; W=$W0 WGSCAN_SELECT_PHASES=count b
fi
echo "== default"; P=select-flagged,select-if M=1048576 b
echo "== phases count,scan"; WGSCAN_SELECT_PHASES=count,scan b
echo "== phase count"; WGSCAN_SELECT_PHASES=count b
for t in ${SHAPES:-32,16,4 32,16,8 32,16,16 64,16,16 32,8,16}; do
  echo "== $t"; WGSCAN_TUNE_SELECT=$t b
done
