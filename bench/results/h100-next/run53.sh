#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 53 (fourteenth session, issues 32 and 36): the sort tile's ranking with fewer
# instructions a key (rank_subgroup.wgsl: a whole tile skips the valid lanes'
# arithmetic, the highest peer leads so one bit count and one leading-bit find serve a
# key, the eight ballots written out and joined in a tree) against the tree before it
# (cmp/wgscan-base, a build of e6a200a); the driver's registers of both scatters; the
# other sorts and shapes; the segmented sort (its block path ranks the same way, ss_tiny
# in its landed form); CUB beside where the machine is an H200; the whole suite.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64 (cmp/ travels untracked).
# Not run in the fourteenth session (its device time went on failed starts); run53b.sh
# ran its first part. For the next: cmp/wgscan-base a build of the tree to compare with.
. bench/results/h100-next/lib.sh run53
B() { P cmp/wgscan-base "$@"; } # the base build
R() { # label program: the driver's registers and workgroup memory of the sort's passes
  local lab=$1 d=$out/spirv-$1
  PROGRAM=$2 BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val \
    timeout 60 bash bench/lab/dump-spirv.sh $d sort --n 65536 --repeat 1 > $d.log 2>&1
  echo "== regs $lab: $(grep -A4 -E 'sort_(scatter|onesweep|count).spv:' $d.log | grep -iE 'spv:|register|shared' | tr -s ' ' | tr '\n' ' ')" >> $L
  rm -rf $d
}
N=268435456
K="sort --n $N --repeat 10"
S warm - sort --n 16777216 --repeat 3
B base - $K
S new - $K
B base - $K --pairs
S new - $K --pairs
B base-no-rank WGSCAN_SORT_PHASES=count,scan,scatter,no-rank $K
S new-no-rank WGSCAN_SORT_PHASES=count,scan,scatter,no-rank $K
B base - sort --n 16777216 --repeat 20
S new - sort --n 16777216 --repeat 20
R new build/wgscan
R base cmp/wgscan-base
suite ${SUITE_UNTIL:-330}
S new - $K --type f32
S new - $K --type u64
S new - sort --n 1048576 --repeat 50
for sh in 384,12,1 256,16,1; do
  S shape WGSCAN_TUNE_SORT=$sh $K
done
S halves "WGSCAN_SORT_STAGE=halves WGSCAN_TUNE_SORT=256,16,1" $K
S halves "WGSCAN_SORT_STAGE=halves WGSCAN_TUNE_SORT=256,16,2" $K
S halves "WGSCAN_SORT_STAGE=halves" $K
S segsort - segmented-sort --n 67108864 --segments 16 --repeat 20
S segsort - segmented-sort --n 67108864 --segments 4096 --repeat 20
S segsort-small - segmented-sort --n 67108864 --segments 16 --repeat 20 --path small
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  timeout 110 bash bench/cub/run_primitives.sh 24 28 > $out/cub.csv 2>&1
  echo "cub rc=$? ($(( $(date +%s) - start )) s)" >> $L
  grep -iE "sort|topk" $out/cub.csv >> $L
fi
cat $L
