#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 28 (prepared in the eighth session, 2026-12-06): where top-k's
# 1.432 ms for k = 1024 of 2^28 u32 go (issue 36, target 1.05; two reads of the keys are
# 0.70): WGSCAN_TOPK_PHASES with its phases added one at a time, beside the copy; the
# segmented sort's segments of at most 32 keys ranked from the input (1.235 ms for 2^26
# in segments of 16, CUB 0.321) against staged in workgroup memory
# (WGSCAN_SEGSORT_TINY=staged); pairs of each key type with the digits held and computed
# (WGSCAN_SORT_DIGITS); then the sort of u32 keys at the defaults (10.94 ms at 3e043af)
# as a check of the machine. At most about 150 s. Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run28.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -1 > $L
S() { # label, env, args: the GPU line
  local lab=$1 e=$2 t; shift 2
  t=$(env $e timeout 20 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
K="topk --n 268435456 --k 1024 --repeat 20"
for ph in histogram histogram,filter histogram,filter,candidates histogram,filter,candidates,scan \
  histogram,filter,candidates,scan,write; do
  S topk "WGSCAN_TOPK_PATH=multi WGSCAN_TOPK_PHASES=$ph" $K
done
S topk X=0 $K
S topk-f32-index X=0 $K --type f32 --payload index
S verify X=0 topk --n 16777216 --k 1024 --repeat 1 --verify
timeout 30 build/wgscan bench --series none --primitives topk-1024 --min 2^28 --max 2^28 --runs 20 \
  --csv /dev/stdout --json /tmp/b.json --svg /tmp/b.svg 2>&1 | grep -E "^u32|rror" >> $L
for l in 16 1 32; do
  for m in input staged; do S segsort-tiny WGSCAN_SEGSORT_TINY=$m segmented-sort --n 67108864 --segments $l --repeat 10; done
done
S verify WGSCAN_SEGSORT_TINY=staged segmented-sort --n 16777216 --segments 16 --repeat 1 --verify --payload index
# A tile's digits held or computed again (WGSCAN_SORT_DIGITS; 3e043af: computed beside
# values with 32-bit keys, held otherwise; f32 pairs 23.27 computed against 22.54 held).
for t in u32 i32 f32 u64; do
  for m in held computed; do S digits WGSCAN_SORT_DIGITS=$m sort --n 268435456 --repeat 10 --payload index --type $t; done
done
for m in held computed; do
  S digits WGSCAN_SORT_DIGITS=$m segmented-sort --n 67108864 --segments 4096 --repeat 10 --payload index
done
S sort X=0 sort --n 268435456 --repeat 10
cat $L
