#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 3 (2026-12-05, third session): runs 1 and 2 cut to fit one call, since machines
# came rarely this session: the sort of `build` against cecf24d (`build-base/wgscan`),
# Tint against glslang for the lab's digit pass, the whole suite (-j8), then the
# segmented kernels against cecf24d, the operators' and top-k figures as time allows.
# Carry: .gl, build, build-base/wgscan, node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run3.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -4 > $L
S() { # binary algorithm n extra-args: one `wgscan sort --repeat 10` line
  b=$1 a=$2 n=$3; shift 3
  t=$(env $ENVV timeout 40 $b sort --n $n --algorithm $a --repeat 10 "$@" 2>&1 | grep -E "GPU time|rror" | head -2 | tr -s ' ')
  echo "sort $b $a n=$n $* ${ENVV:-}: $t" >> $L
}
N=268435456
for b in build-base/wgscan build/wgscan; do for a in reduce-scan onesweep; do ENVV= S $b $a $N; done; done
for b in build-base/wgscan build/wgscan; do ENVV=WGSCAN_SORT_PHASES=count S $b reduce-scan $N; done
RESULTS=$OUT/tvg RUNS=10 timeout 120 bash bench/lab/tint-vs-glslang.sh run 2^28 > $OUT/tvg.log 2>&1; echo "tvg rc=$?" >> $L
tail -16 $OUT/tvg.log >> $L
echo "t=$(( $(date +%s) - start )) s" >> $L
CTEST_ARGS=-j8 timeout 300 bash scripts/gpu-test.sh build > $OUT/suite.log 2>&1
echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
tail -25 $OUT/suite.log >> $L
left() { echo $(( 540 - ($(date +%s) - start) )); }
for a in reduce-scan onesweep; do ENVV= S build/wgscan $a 16777216; ENVV= S build/wgscan $a 1048576; ENVV= S build/wgscan $a $N --pairs; done
ENVV=WGSCAN_TUNE_SORT=256,8 S build/wgscan onesweep $N
ENVV=WGSCAN_LOOKBACK=1 S build/wgscan onesweep $N
# The segmented and keyed kernels that the operators' merge (d14d85b) changed: main before
# it against `build`, as time allows.
PR=segmented-reduce-16,segmented-reduce-4096,segmented-scan-256,scan-by-key-256,reduce-by-key-256
for b in build-base/wgscan build/wgscan; do
  [ $(left) -gt 90 ] || break
  timeout 80 $b bench --series none --primitives $PR --min 2^28 --max 2^28 --runs 20 --csv $OUT/seg-$(dirname $b).csv \
    --json /tmp/seg.json --svg /tmp/seg.svg > /dev/null 2>&1; echo "segmented $b rc=$?" >> $L
  cut -d, -f1-8 $OUT/seg-$(dirname $b).csv >> $L 2>/dev/null
done
[ $(left) -gt 60 ] && { OUT=$OUT/ops timeout $(( $(left) - 50 )) bash scripts/gpu-operators.sh > $OUT/operators.log 2>&1; echo "operators rc=$?" >> $L; }
grep -E "GPU time|passed|bits|rror|differ|recurrence|max" $OUT/operators.log 2>/dev/null | head -30 >> $L
[ $(left) -gt 30 ] && timeout $(( $(left) - 10 )) build/wgscan bench --series none --primitives topk-1024,topk-rows-50,reduce-tree \
  --min 2^28 --max 2^28 --runs 20 --csv $OUT/bench_topk.csv > /dev/null 2>> $L
cat $OUT/bench_topk.csv >> $L 2>/dev/null
for L2 in 16 256 4096 65536; do
  [ $(left) -gt 25 ] || break
  echo "segmented-sort L=$L2: $(timeout 20 build/wgscan segmented-sort --n 67108864 --segments $L2 --repeat 10 2>&1 | grep -E "GPU time|rror" | tr -s ' ')" >> $L
done
echo "end t=$(( $(date +%s) - start )) s" >> $L
(cd $OUT && tar czf tvg.tgz tvg && rm -rf tvg)
