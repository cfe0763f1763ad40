#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 4 (2026-12-05, fourth session): 539 s of device time were left, so run 3 cut to
# what issue 32 needs first, in 330 s: the sort of `build` against cecf24d
# (`build-base/wgscan`) at 2^28, Tint against glslang for the lab's digit pass, then the
# whole suite (-j12) in the time that is left.
# Carry: .gl, build, build-base/wgscan, node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run4.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
left() { echo $(( 330 - ($(date +%s) - start) )); }
build/wgscan info | head -4 > $L
S() { # binary algorithm n extra-args: one `wgscan sort --repeat 10` line
  b=$1 a=$2 n=$3; shift 3
  t=$(env $ENVV timeout 30 $b sort --n $n --algorithm $a --repeat 10 "$@" 2>&1 | grep -E "GPU time|rror" | head -2 | tr -s ' ')
  echo "sort $b $a n=$n $* ${ENVV:-}: $t ($(( $(date +%s) - start )) s)" >> $L
}
N=268435456
for a in reduce-scan onesweep; do for b in build-base/wgscan build/wgscan; do ENVV= S $b $a $N; done; done
RESULTS=$OUT/tvg RUNS=10 timeout 75 bash bench/lab/tint-vs-glslang.sh run 2^28 > $OUT/tvg.log 2>&1; echo "tvg rc=$?" >> $L
tail -16 $OUT/tvg.log >> $L
echo "t=$(( $(date +%s) - start )) s" >> $L
CTEST_ARGS=-j12 timeout $(( $(left) - 5 )) bash scripts/gpu-test.sh build > $OUT/suite.log 2>&1
echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
tail -45 $OUT/suite.log >> $L
(cd $OUT && tar czf tvg.tgz tvg 2>/dev/null && rm -rf tvg)
