#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 57 (issue 32): the ranking's leader found without Tint's binary search (the f32
# exponent of its top peer), the written keys' digit as a shift and a mask, a whole
# tile's keys written without a test each; against cmp/wgscan-base (626728d, the tree
# before) in the same call; the scatter's machine code for keys, pairs and keys at
# 256 x 12 (bench/lab/sass.sh; zstd carried in cmp/bin), then 256 x 12 shapes.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
. bench/results/h100-next/lib.sh run57
export PATH=$PWD/cmp/bin:$PATH
B() { P cmp/wgscan-base "$@"; }
for v in keys:-:- pairs:--pairs:- keys12:-:256,12,1 f32:--type=f32:- u64:--type=u64:-; do
  IFS=: read name arg tune <<< "$v"; [ "$arg" = - ] && arg=; [ "$tune" = - ] && tune=
  d=$out/dump-$name
  env ${tune:+WGSCAN_TUNE_SORT=$tune} BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val VKSTATS=0 \
    timeout 40 bash bench/lab/dump-spirv.sh $d sort --n 4194304 --repeat 1 --algorithm reduce-scan $arg > $d.log 2>&1
  s=$(ls $d/*sort_scatter.spv | head -1)
  mkdir -p $out/sass; [ -n "$s" ] && cp $s $out/sass/$name-scatter.spv
  rm -rf $d $d.log
done
(cd $out/sass && BUILD=$OLDPWD/build timeout 90 bash $OLDPWD/bench/lab/sass.sh . *.spv) > $out/sass.log 2>&1
grep -E "instructions|Register Count|Shared Memory|not disass" $out/sass.log >> $L
rm -f $out/sass/*.cache $out/sass/*.code $out/sass/*.err
K="sort --n 268435456 --repeat 10"
S warm - sort --n 16777216 --repeat 3
B warm - sort --n 16777216 --repeat 3
for a in "" "--pairs" "--type f32" "--type u64"; do
  B base - $K $a
  S new - $K $a
done
for t in 256,12,1 256,12,2 256,16,1; do
  B base "WGSCAN_TUNE_SORT=$t" $K
  S new "WGSCAN_TUNE_SORT=$t" $K
done
S new "WGSCAN_TUNE_SORT=256,10,1" $K --pairs
for n in 16777216 1048576; do
  B base - sort --n $n --repeat 30
  S new - sort --n $n --repeat 30
done
B base - $K
S new - $K
cat $L
