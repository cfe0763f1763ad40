#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 2 (2026-12-05, third session): the whole suite (-j8) on `build` (this session's
# sort kernels, with the operators, top-k and every change since the last suite on the
# H200), the user operators' run (issue 33, scripts/gpu-operators.sh), top-k beside the
# sort, the reduce and the copy (issue 36), plan creation cold and warm and one
# wgs_prepare of every primitive (issue 34).
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
set -u
L=$OUT/run2.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
CTEST_ARGS=-j8 timeout 330 bash scripts/gpu-test.sh build > $OUT/suite.log 2>&1
echo "suite rc=$?" > $L
tail -25 $OUT/suite.log >> $L
OUT=$OUT/ops timeout 120 bash scripts/gpu-operators.sh > $OUT/operators.log 2>&1; echo "operators rc=$?" >> $L
grep -E "GPU time|passed|bits|error|differ|recurrence|max|rror" $OUT/operators.log | head -40 >> $L
timeout 100 build/wgscan bench --series none --primitives topk-1024,topk-rows-50,sort-keys,reduce-tree --min 2^24 --max 2^28 --runs 20 \
  --csv $OUT/bench_topk.csv > /dev/null 2>> $L
cat $OUT/bench_topk.csv >> $L
# Plan creation, cold and warm, and one wgs_prepare of all primitives (issue 34).
timeout 60 build/wgscan bench --creation --json $OUT/creation.json --csv $OUT/creation.csv >> $L 2>&1; echo "creation rc=$?" >> $L
