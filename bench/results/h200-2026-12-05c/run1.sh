#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 1 (2026-12-05, third session, issue 32): the sort's figures of `build` (this
# session's ranking: the valid lanes counted, not balloted; the count pass loading a
# tile's keys before counting them) against main before it
# (cecf24d, `build-base/wgscan`), one-sweep knobs, Tint against glslang for the lab's
# digit pass (bench/lab/tint-vs-glslang.sh, prepared here), and what NVIDIA's driver
# made of the library's sort kernels (dump-spirv.sh + wgscan-vkstats).
# Carry: .gl, build, build-base, node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run1.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
build/wgscan info | head -4 > $L
S() { # binary algorithm n extra-args: one `wgscan sort --repeat 10` line
  b=$1 a=$2 n=$3; shift 3
  t=$(env $ENVV $b sort --n $n --algorithm $a --repeat 10 "$@" 2>&1 | grep -E "GPU time|rror" | head -2 | tr -s ' ')
  echo "sort $b $a n=$n $* ${ENVV:-}: $t" >> $L
}
N=268435456
for b in build-base/wgscan build/wgscan; do for a in reduce-scan onesweep; do ENVV= S $b $a $N; done; done
for b in build-base/wgscan build/wgscan; do ENVV=WGSCAN_SORT_PHASES=count S $b reduce-scan $N; done
RESULTS=$OUT/tvg timeout 200 bash bench/lab/tint-vs-glslang.sh run 2^28 > $OUT/tvg.log 2>&1; echo "tvg rc=$?" >> $L
tail -30 $OUT/tvg.log >> $L
for a in reduce-scan onesweep; do ENVV= S build/wgscan $a $N --pairs; ENVV= S build/wgscan $a 16777216; ENVV= S build/wgscan $a 1048576; done
for t in u64 f32 i32; do ENVV= S build/wgscan reduce-scan $N --type $t; done
ENVV=WGSCAN_TUNE_SORT=256,8 S build/wgscan onesweep $N
ENVV=WGSCAN_LOOKBACK=1 S build/wgscan onesweep $N
ENVV=WGSCAN_LOOKBACK=2 S build/wgscan onesweep $N
ENVV=WGSCAN_TUNE_SORT=256,16 S build/wgscan reduce-scan $N
ENVV=WGSCAN_DAWN_TOGGLES=disable_robustness S build/wgscan reduce-scan $N
for a in reduce-scan onesweep; do
  d=$OUT/spirv-$a
  timeout 60 bash bench/lab/dump-spirv.sh $d sort --n 16777216 --repeat 1 --algorithm $a > $d.txt 2>&1
  echo "== dump $a rc=$?" >> $L
  grep -iE "^[0-9][0-9]-|regist|local|shared|executable" $d.txt | head -40 >> $L
done
(cd $OUT && tar czf spirv.tgz spirv-* tvg && rm -rf spirv-reduce-scan spirv-onesweep tvg)
