#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 7 (2026-12-05, fifth session, issue 32 and 36): the library's own sort at 2^28
# over the tile shapes and tiles a group its kernels take today (WGSCAN_TUNE_SORT), after
# run 5's lab said the tile's shape and the tiles a group weigh far more than the ranking's
# details; then top-k of 64 rows x 128k f32, k = 50 (issue 36's second target).
# Carry: .gl, build (without build/lab), node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run7.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -2 > $L
S() { # label, env, sort args: one `wgscan sort --repeat 10` line
  l=$1 e=$2; shift 2
  t=$(env $e timeout 40 build/wgscan sort --n 268435456 --repeat 10 "$@" 2>&1 | grep -E "GPU time|rror|verif" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "sort $l [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
S default X=0
S default-verify X=0 --verify
for s in 256,8,16 256,8,4 256,8,1 256,16,16 256,16,4 256,16,2 256,16,1 128,16,4 128,16,1 128,32,4 128,32,1 256,32,4 256,32,1 64,32,1; do
  S keys WGSCAN_TUNE_SORT=$s
done
for s in 256,16,16 256,16,4 256,16,1 256,8,4 256,8,1; do S pairs WGSCAN_TUNE_SORT=$s --payload index; done
S pairs-default X=0 --payload index
T() { t=$(timeout 40 build/wgscan topk --repeat 20 "$@" 2>&1 | grep -E "GPU time|rror|verif" | head -3 | tr -s ' ' | tr '\n' ' '); echo "topk $*: $t ($(( $(date +%s) - start )) s)" >> $L; }
T --n 131072 --rows 64 --k 50 --type f32 --verify
T --n 131072 --rows 64 --k 50 --type f32 --payload index
T --n 131072 --rows 64 --k 50 --type f32 --input-order
T --n 268435456 --k 1024
T --n 268435456 --k 1
T --n 268435456 --k 1024 --input-order
cat $L
