#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 41 (issues 32, 36), at the tree that ranks a tile's keys a round at a time (run40:
# faster at every shape) and gives the segmented sort's large path one-sweep sorts
# (run40: its reduce-then-scan sorts of a count of 0 cost 0.4-0.55 ms of every
# segmented sort of 2^26): the sorts of 2^28 and the segmented sorts of 2^26 at the
# defaults, then the whole suite. Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
out=${OUT:-out}
L=$out/run41.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log -1 --format=%h 2>/dev/null; } > $L
S() { # label, args: the GPU line
  local lab=$1 t; shift
  t=$(timeout 40 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
K="sort --n 268435456 --repeat 10"
S keys $K
S pairs $K --payload index
S f32 $K --type f32
for l in 16 256 4096 65536 67108864; do
  S segsort segmented-sort --n 67108864 --segments $l --repeat 10
done
S segsort-verify segmented-sort --n 16777216 --segments 16777216 --repeat 1 --verify --payload index
CTEST_ARGS=-j12 timeout $(( 560 - ($(date +%s) - start) )) bash scripts/gpu-test.sh build > $out/suite.log 2>&1
echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -E "tests passed|Failed|SEGFAULT|CRASH|Exception|\*\*\*" $out/suite.log >> $L
cat $L
