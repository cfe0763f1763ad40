#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The measurement run behind BENCHMARKS.md's primitive rows, on the GPU machine: the
# primitive tests and examples, the CLI's verified 2^28 runs, `wgscan bench
# --primitives all`, the select phases and CUB's reduce / select / histogram.
# Results go to $OUT (or ./out).
out=${OUT:-out}
mkdir -p "$out"
n=268435456
for t in reduce select histogram alloc; do WGSCAN_TEST_MAX_N=16777219 build/tests/test_$t | tail -1; done
build/examples/particles && build/examples/allocator --requests 1000000 && build/examples/block_sparse --blocks 2048
build/wgscan reduce --n $n --verify
build/wgscan reduce --n $n --type f32 --algorithm atomic --float-sum fixed --verify
build/wgscan reduce --n $n --type i32 --op argmax --verify
build/wgscan count --n $n --predicate lt:50 --algorithm atomic --verify
build/wgscan compact --n $n --verify
build/wgscan compact --n $n --predicate range:10:60 --partition --payload index --verify
build/wgscan histogram --n $n --verify
build/wgscan bench --series none --primitives all --min 1048576 --max $n \
  --json "$out/bench_primitives.json" --csv "$out/bench_primitives.csv" --svg "$out/bench_primitives.svg" 2>/dev/null
# Where select's time goes: the count pass, then count and scan (the output is wrong
# then; the scatter alone would find zero tile sums and write nothing, so it is the
# whole minus "count,scan").
for ph in count count,scan; do
  echo "select phases: $ph"
  WGSCAN_SELECT_PHASES=$ph build/wgscan bench --series none --primitives select-flagged --min $n --max $n \
    --json /dev/null --csv /dev/null --svg /dev/null 2>/dev/null | grep select
done
bench/cub/run_primitives.sh 20 28 > "$out/cub_primitives.csv"
cat "$out/cub_primitives.csv"
