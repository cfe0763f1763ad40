#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The measurement run behind BENCHMARKS.md and the README's figures, on the GPU
# machine: info, the acceptance scans, the scan tests, `wgscan bench` and CUB.
# Results go to $OUT (or ./out).
out=${OUT:-out}
mkdir -p "$out"
build/wgscan info
build/wgscan scan --n 268435456 --type u32 --verify | grep -E "GPU time|verify"
build/wgscan scan --n 1073741824 --type u32 --verify | grep -E "GPU time|verify"
WGSCAN_TEST_MAX_N=${TEST_MAX_N:-16777221} build/tests/test_scan | grep -E "FAIL|passed"
build/wgscan bench --min ${BENCH_MIN:-1024} --json "$out/bench.json" --csv "$out/bench.csv" --svg "$out/bench.svg" 2>/dev/null
cat "$out/bench.csv" | head -3
timeout ${CUB_TIMEOUT:-600} bench/cub/run.sh 10 30 > "$out/cub.csv"
cat "$out/cub.csv"
