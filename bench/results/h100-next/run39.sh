#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 39 (prepared in the ninth session, 2026-12-06; for an H200): the figures issues 32
# and 36 are judged by, beside CUB in one device run: `wgscan bench` rows topk-1024
# (2^28), topk-rows-50 (2^23: 64 rows), the segmented sorts (2^26) and the sorts (2^28), then CUB's
# (bench/cub/run_primitives.sh: DeviceRadixSort, DeviceSegmentedSort) at the same sizes,
# then the whole suite. About 300 s. Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
out=${OUT:-out}
L=$out/run39.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log -1 --format=%h 2>/dev/null; } > $L
B() { # min max primitives: the CSV rows
  timeout 120 build/wgscan bench --series none --primitives $3 --min $1 --max $2 --runs 20 \
    --csv /dev/stdout --json /tmp/b.json --svg /tmp/b.svg 2>&1 | grep -E "^u32,|rror|warning" >> $L
  echo "($(( $(date +%s) - start )) s)" >> $L
}
B 2^28 2^28 topk-1024,sort-keys,sort-pairs,sort-f32
B 2^23 2^23 topk-rows-50 # 64 rows of 128k f32, k = 50 (issue 36: <= 100 us)
B 2^26 2^26 segmented-sort-16,segmented-sort-256,segmented-sort-4096,segmented-sort-65536
echo "== CUB" >> $L
timeout 200 bash bench/cub/run_primitives.sh 26 28 >> $L 2>&1
echo "cub rc=$? ($(( $(date +%s) - start )) s)" >> $L
CTEST_ARGS=-j12 timeout 300 bash scripts/gpu-test.sh build > $out/suite.log 2>&1
echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -E "tests passed|Failed|SEGFAULT|CRASH|Exception|\*\*\*" $out/suite.log >> $L
cat $L
