#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 17 (2026-12-06, eighth session), at most 120 s: where the 2^28 u32 sort's 11.25 ms
# (run14, HEAD 74fd9e2) go now, and whether one-sweep (off by default since the H200's
# 29.8 against 17.5 ms) wins at the tile the reduce-then-scan sort now uses:
#   1. phases at 256 x 8 (count; count,scan; no-rank); group tiles 2 and 4;
#   2. one-sweep at its default 256 x 16, at 256 x 8 and 128 x 16, and its phases.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run17.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
build/wgscan info | head -1 > $L
S() { # label, env, args: the GPU line
  lab=$1 e=$2; shift 2
  t=$(env $e timeout 20 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
N="sort --n 268435456 --repeat 10"
S default X=0 $N
for ph in count count,scan count,scan,scatter,no-rank; do S phases WGSCAN_SORT_PHASES=$ph $N; done
for s in 256,8,2,8 256,8,4,8; do S gt WGSCAN_TUNE_SORT=$s $N; done
for e in X=0 WGSCAN_TUNE_SORT=256,8 WGSCAN_TUNE_SORT=128,16 WGSCAN_TUNE_SORT=256,12; do S onesweep $e $N --algorithm onesweep; done
for ph in count count,scan,scatter,no-lookback count,scan,scatter,no-rank count,scan,scatter,no-write; do
  S onesweep-phases "WGSCAN_TUNE_SORT=256,8 WGSCAN_SORT_PHASES=$ph" $N --algorithm onesweep
done
S verify WGSCAN_TUNE_SORT=256,8 sort --n 16777221 --repeat 1 --verify --algorithm onesweep
S onesweep-pairs WGSCAN_TUNE_SORT=256,8 $N --algorithm onesweep --payload index
S pairs X=0 $N --payload index
cat $L
