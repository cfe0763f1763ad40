#!/usr/bin/env bash
# The measurement run behind BENCHMARKS.md and the README's figures, on the GPU
# machine: info, the acceptance scan, the test suite, `wgscan bench` and CUB.
# Results go to $OUT (or ./out).
out=${OUT:-out}
mkdir -p "$out"
build/wgscan info
build/wgscan scan --n 268435456 --type u32 --verify
build/tests/test_scan
build/tests/test_errors
build/wgscan bench --json "$out/bench.json" --csv "$out/bench.csv" --svg "$out/bench.svg" 2>/dev/null
bench/cub/run.sh 10 30 > "$out/cub.csv"
cat "$out/cub.csv"
