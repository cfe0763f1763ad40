#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 64 (issue 32): the build with one array for the digits' first places and runs
# (2 KiB less workgroup memory), the one-sweep histogram on about 1024 workgroups
# whatever the passes' group (it took one tile a workgroup with keys' tuning), and the
# no-lookback experiment writing where the sort would (run63's wrote every tile to the
# same places); against cmp/wgscan-base (a211f69), then the whole suite.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run64
B() { P cmp/wgscan-base "$@"; }
K="sort --n 268435456 --repeat 10"
S warm - sort --n 16777216 --repeat 3
B warm - sort --n 16777216 --repeat 3
B base - $K; S new - $K
for t in 256,12,1; do
  e="WGSCAN_TUNE_SORT=$t"
  B base "$e" $K --algorithm onesweep
  S new "$e" $K --algorithm onesweep
  B base-hist "$e WGSCAN_SORT_PHASES=count" $K --algorithm onesweep
  S new-hist "$e WGSCAN_SORT_PHASES=count" $K --algorithm onesweep
  S new-no-lookback "$e WGSCAN_SORT_PHASES=count,scatter,no-lookback" $K --algorithm onesweep
done
S new - $K --algorithm onesweep
suite ${SUITE_UNTIL:-400}
cat $L
