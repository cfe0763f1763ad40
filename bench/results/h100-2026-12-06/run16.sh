#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 16 (2026-12-06, eighth session), at most 270 s:
#   1. the segmented sort of segments of 4096 took 5.43 ms in run14 (HEAD 74fd9e2)
#      against 4.05 in run13 (09feb3b): builds of 09feb3b, eed4170 (the count groups and
#      slot_digit's fold, without fdaf37a's places) and HEAD side by side, and what the
#      driver made of ss_small in each;
#   2. the driver's registers for the sort's count and scatter at HEAD (run14 ran out);
#   3. the two tests run14's suite did not reach (cli, mpi);
#   4. run15's pace sequence and top-k at 2^28, if time is left.
# Carry: .gl, build (with build/lab and build/base-*), node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run16.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
left() { echo $(( 270 - ($(date +%s) - start) )); }
build/wgscan info | head -1 > $L
S() { # label, env, binary, args: the GPU line
  l=$1 e=$2 b=$3; shift 3
  t=$(env $e timeout 30 $b "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$l [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
for l in 4096 65536; do
  for b in build/base-09feb3b/wgscan build/base-eed4170/wgscan build/wgscan; do
    S $b X=0 $b segmented-sort --n 67108864 --segments $l --repeat 10
  done
done
S payload X=0 build/wgscan segmented-sort --n 67108864 --segments 4096 --repeat 10 --payload index
V() { # label, program, args
  l=$1 p=$2; shift 2
  BUILD=build PROGRAM=$p SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val timeout 30 \
    bash bench/lab/dump-spirv.sh /tmp/spirv-$l "$@" > $OUT/spirv-$l.log 2>&1
  echo "dump-spirv $l rc=$?" >> $L
  grep -A7 -E "(ss_small|sort_count|sort_scatter).spv:" $OUT/spirv-$l.log | grep -E "spv:|Register|Shared|Local" >> $L
}
V ss-09feb3b build/base-09feb3b/wgscan segmented-sort --n 1048576 --segments 4096 --repeat 1
V ss-head build/wgscan segmented-sort --n 1048576 --segments 4096 --repeat 1
V sort-head build/wgscan sort --n 1048576 --repeat 1
echo "== ctest cli mpi ($(( $(date +%s) - start )) s)" >> $L
CTEST_ARGS="-j2 -R ^(cli|mpi)$" timeout 150 bash scripts/gpu-test.sh build > $OUT/suite2.log 2>&1
echo "suite2 rc=$? ($(( $(date +%s) - start )) s)" >> $L
grep -E "tests passed|Failed|Passed|\*\*\*" $OUT/suite2.log >> $L
B() { # label, primitives
  [ $(left) -gt 40 ] || { echo "$1: skipped (time)" >> $L; return; }
  echo "== $1 ($(( $(date +%s) - start )) s)" >> $L
  timeout $(( $(left) - 5 )) build/wgscan bench --series none --primitives $2 --min 2^28 --max 2^28 --runs 20 \
    --csv /tmp/$1.csv > /dev/null 2>> $L
  cut -d, -f1-14 /tmp/$1.csv >> $L
}
B alone topk-1024,topk-rows-50
B sequence reduce-tree,scan-by-key-16,reduce-by-key-256,topk-1024,segmented-sort-16
cat $L
