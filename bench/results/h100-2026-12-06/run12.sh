#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 12 (sixth session, the device budget nearly spent by failed starts): the shortest
# call that still answers what steers the next session, at most 150 s: the sort's tile
# shapes at 2^28 beside the copy (issue 32), the segmented sort's four lengths at 2^26
# after 248e21d/ccc8437 and top-k's two paths for 64 rows x 128k (issue 36), the affine
# scan's single pass (issue 33). No suite: run10.sh has it.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run12.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
left() { echo $(( 150 - ($(date +%s) - start) )); }
build/wgscan info | head -2 > $L
B() { # primitive, shape
  [ $(left) -gt 20 ] || { echo "$1 $2: skipped (time)" >> $L; return; }
  echo "$1 $2: $(WGSCAN_TUNE_SORT=$2 timeout 25 build/wgscan bench --series none --primitives $1 --runs 20 \
    --min 268435456 --max 268435456 --csv /dev/stdout --json /tmp/b.json --svg /tmp/b.svg 2>&1 | grep -E ',sort-|rror' | tr '\n' ' ') ($(( $(date +%s) - start )) s)" >> $L
}
C() { # label, env, command...
  l=$1 e=$2; shift 2
  [ $(left) -gt 10 ] || { echo "$l: skipped (time)" >> $L; return; }
  t=$(env $e timeout 25 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$l [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
for s in 256,8 384,23 512,16; do B sort-keys $s; done
for l in 16 256 4096 65536; do C segsort X=0 segmented-sort --n 67108864 --segments $l --repeat 10; done
R="--n 131072 --rows 64 --k 50 --type f32 --payload index"
for p in multi rows; do C topk WGSCAN_TOPK_PATH=$p topk $R --repeat 50; done
C affine X=0 scan --operator examples/operators/affine.wgsl --n 268435456 --inclusive --algorithm single-pass --repeat 20
for s in 256,16 384,12; do B sort-keys $s; done
B sort-pairs 256,8; B sort-pairs 384,12
cat $L
