#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 63 (issue 32): why a one-sweep pass costs more than the reduce-then-scan scatter
# at the same tile (run62: one-sweep without its look-back 11.67 ms at 256 x 16, 12.02
# at 256 x 12, against 9.11 for reduce-then-scan): each algorithm's phases alone, and
# the machine code of both (bench/lab/sass.sh; zstd carried in cmp/bin), into one
# archive $OUT/sass.tar.gz. And the tile with 2 KiB less workgroup memory (one array
# for the digits' first places and runs, counts in registers) against cmp/wgscan-base
# (a211f69) at the shapes near 48 KiB a core.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run63
export PATH=$PWD/cmp/bin:$PATH
mkdir -p $out/sass
for v in keys:reduce-scan:-:- os16:onesweep:-:- os12:onesweep:-:256,12,1 pairs:reduce-scan:--pairs:-; do
  IFS=: read name alg arg tune <<< "$v"; [ "$arg" = - ] && arg=; [ "$tune" = - ] && tune=
  d=$out/dump-$name
  env ${tune:+WGSCAN_TUNE_SORT=$tune} BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val VKSTATS=0 \
    timeout 40 bash bench/lab/dump-spirv.sh $d sort --n 4194304 --repeat 1 --algorithm $alg $arg > $d.log 2>&1
  for e in sort_count sort_scatter sort_histogram sort_onesweep; do
    s=$(ls $d/*-$e.spv 2>/dev/null | head -1)
    [ -n "$s" ] && cp $s $out/sass/$name-$e.spv
  done
  rm -rf $d $d.log
done
sass_archive
K="sort --n 268435456 --repeat 10"
S warm - sort --n 16777216 --repeat 3
S keys - $K
S keys-count WGSCAN_SORT_PHASES=count $K
S keys-scatter WGSCAN_SORT_PHASES=scatter $K
S keys-scatter-no-rank WGSCAN_SORT_PHASES=scatter,no-rank $K
S keys-scatter-no-write WGSCAN_SORT_PHASES=scatter,no-write $K
for t in 256,16,1 256,12,1; do
  e="WGSCAN_TUNE_SORT=$t"
  S os "$e" $K --algorithm onesweep
  S os-hist "$e WGSCAN_SORT_PHASES=count" $K --algorithm onesweep
  S os-pass "$e WGSCAN_SORT_PHASES=scatter,no-lookback" $K --algorithm onesweep
  S os-pass-no-rank "$e WGSCAN_SORT_PHASES=scatter,no-lookback,no-rank" $K --algorithm onesweep
  S os-pass-no-write "$e WGSCAN_SORT_PHASES=scatter,no-lookback,no-write" $K --algorithm onesweep
  S os-pass-bare "$e WGSCAN_SORT_PHASES=scatter,no-lookback,no-rank,no-write" $K --algorithm onesweep
done
S keys-scatter-bare WGSCAN_SORT_PHASES=scatter,no-rank,no-write $K
B() { P cmp/wgscan-base "$@"; }
for t in - WGSCAN_TUNE_SORT=256,8,1 WGSCAN_TUNE_SORT=256,16,1 WGSCAN_TUNE_SORT=256,10,1; do
  B base "$t" $K
  S new "$t" $K
done
for a in "--pairs" "--type u64" "--algorithm onesweep"; do
  B base - $K $a
  S new - $K $a
done
B base WGSCAN_TUNE_SORT=256,12,1 $K --algorithm onesweep
S new WGSCAN_TUNE_SORT=256,12,1 $K --algorithm onesweep
B base - sort --n 16777216 --repeat 30
S new - sort --n 16777216 --repeat 30
B warm - segmented-sort --n 67108864 --segments 4096 --repeat 2
S warm - segmented-sort --n 67108864 --segments 4096 --repeat 2
for l in 256 4096; do
  B base - segmented-sort --n 67108864 --segments $l --repeat 10
  S new - segmented-sort --n 67108864 --segments $l --repeat 10
done
S keys - $K
cat $L
