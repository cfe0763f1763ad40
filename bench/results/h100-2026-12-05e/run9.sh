#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 9 (2026-12-05, fifth session, the session's last device time): the npm package
# under Node beside the native bench (scripts/gpu-js.sh, issue 34, after the package's
# fixes: timestamps at full resolution, buffers kept until their submit, the segmented
# sort test's layout), then the top-k and segmented sort tests on the GPU at the new
# tuning (256 x 16 top-k) and top-k's figures (issue 36).
# Carry: .gl .jsrt build/wgscan build/web/wgscan.wasm build/tests/test_topk
# build/tests/test_segmented_sort node_modules/bun-webgpu-linux-x64.
set -u
start=$(date +%s)
timeout 165 bash scripts/gpu-js.sh > $OUT/gpujs.log 2>&1
echo "gpu-js rc=$? t=$(( $(date +%s) - start )) s" > $OUT/run9.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for t in test_topk test_segmented_sort; do timeout 40 build/tests/$t 2>&1 | tail -2 >> $OUT/run9.log; done
T() { t=$(env $1 timeout 20 build/wgscan topk --repeat 20 "${@:2}" 2>&1 | grep -E "GPU time|rror|verif" | tr -s ' ' | tr '\n' ' '); echo "topk [$1] ${*:2}: $t" >> $OUT/run9.log; }
T X=0 --n 268435456 --k 1024
T X=0 --n 131072 --rows 64 --k 50 --type f32 --verify
echo "t=$(( $(date +%s) - start )) s" >> $OUT/run9.log
cat $OUT/run9.log; grep -E "quantiz|check|passed|FAIL" $OUT/gpujs.log | head -20
