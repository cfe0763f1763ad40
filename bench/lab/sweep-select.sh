#!/usr/bin/env bash
# Select tile shapes on a GPU (WGSCAN_TUNE_SELECT), 2^28, then the phases of the default.
n=268435456
b() { build/wgscan bench --series none --primitives ${P:-select-flagged,select-if} --min $n --max $n --runs 20 \
  --json /dev/null --csv /dev/null --svg /dev/null 2>/dev/null | grep select; }
for t in 128,16 64,16 256,16 128,8 128,32 64,32; do echo "== $t"; WGSCAN_TUNE_SELECT=$t b; done
for ph in count scan scatter; do echo "== phase $ph"; WGSCAN_SELECT_PHASES=$ph P=select-flagged b; done
