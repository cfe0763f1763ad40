#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 53b: run53 cut to what the session's last device minutes hold: the new ranking
# against e6a200a (cmp/wgscan-base) at 2^28 keys and pairs, the scatter without its
# ranking in both, 2^24, the new scatter's registers, then the whole suite until the
# end. Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run53b
B() { P cmp/wgscan-base "$@"; } # the base build
K="sort --n 268435456 --repeat 10"
S warm - sort --n 16777216 --repeat 3
B base - $K
S new - $K
B base - $K --pairs
S new - $K --pairs
B base-no-rank WGSCAN_SORT_PHASES=count,scan,scatter,no-rank $K
S new-no-rank WGSCAN_SORT_PHASES=count,scan,scatter,no-rank $K
B base - sort --n 16777216 --repeat 20
S new - sort --n 16777216 --repeat 20
d=$out/spirv-new
BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val \
  timeout 40 bash bench/lab/dump-spirv.sh $d sort --n 65536 --repeat 1 > $d.log 2>&1
echo "== regs new: $(grep -A4 -E 'sort_(scatter|onesweep|count).spv:' $d.log | grep -iE 'spv:|register|shared' | tr -s ' ' | tr '\n' ' ')" >> $L
rm -rf $d
S halves "WGSCAN_SORT_STAGE=halves WGSCAN_TUNE_SORT=256,16,1" $K
suite ${SUITE_UNTIL:-240}
cat $L
