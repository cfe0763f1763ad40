#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 32 (issue 32): keys held in their sort forms in a tile (sort_key.wgsl), so that a
# digit computed again is one bit-field extract for every key type: pairs of u32, i32,
# f32 (and u32 descending, u64) with the digits held and computed, keys alone of each
# type, the segmented sort with indices both ways (run28 at f2e3b11, H200: pairs with
# indices u32 16.34 computed / 20.65 held, i32 21.44 / 20.70, f32 22.00 / 21.11; the
# segmented sort of 4096 4.51 / 4.03), then the scatter's registers for i32 and f32
# computed (run30: 107 and 108, u32 80). Run after run31-js.sh (which unpacks .gl).
set -u
out=${OUT:-out}
L=$out/run32.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -1 > $L
S() { # label, env, args: the GPU line
  local lab=$1 e=$2 t; shift 2
  t=$(env $e timeout 30 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
N=268435456
for t in u32 i32 f32; do
  for m in computed held; do S pairs WGSCAN_SORT_DIGITS=$m sort --n $N --repeat 10 --payload index --type $t; done
  S keys X=0 sort --n $N --repeat 10 --type $t
done
S pairs-desc X=0 sort --n $N --repeat 10 --payload index --descending
S pairs-u64 X=0 sort --n $N --repeat 5 --payload index --type u64
S keys-u64 X=0 sort --n $N --repeat 5 --type u64
for m in computed held; do
  S segsort WGSCAN_SORT_DIGITS=$m segmented-sort --n 67108864 --segments 4096 --repeat 10 --payload index
  S segsort WGSCAN_SORT_DIGITS=$m segmented-sort --n 67108864 --segments 65536 --repeat 10 --payload index
done
for l in 16 256 4096 65536; do S segsort X=0 segmented-sort --n 67108864 --segments $l --repeat 10; done
S verify X=0 sort --n 16777216 --repeat 1 --payload index --type f32 --verify
S verify X=0 sort --n 16777216 --repeat 1 --payload index --type i32 --descending --verify
for t in i32 f32; do
  d=$out/spirv-$t
  WGSCAN_SORT_DIGITS=computed BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val \
    timeout 60 bash bench/lab/dump-spirv.sh $d sort --n 1048576 --repeat 1 --payload index --type $t > $d.log 2>&1
  echo "== $t computed: $(grep -A1 sort_scatter.spv: $d.log | grep -i register | tr -s ' ')" >> $L
  rm -rf $d
done
cat $L
