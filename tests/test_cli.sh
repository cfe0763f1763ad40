#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The CLI as a user meets it: exit statuses, raw files in and out, verification.
# Usage: test_cli.sh path/to/wgscan
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

expect() { # expect STATUS DESCRIPTION -- command...
  local want=$1 what=$2
  shift 3
  "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
  local got=$?
  if [ "$got" -eq "$want" ]; then
    passed=$((passed + 1))
    echo "[  OK  ] $what"
  else
    failed=$((failed + 1))
    echo "[ FAIL ] $what: exit $got, expected $want"
    sed 's/^/    /' "$tmp/out.txt" "$tmp/err.txt"
  fi
}

check() {
  local what=$1
  shift 2
  if "$@"; then passed=$((passed + 1)); echo "[  OK  ] $what"; else failed=$((failed + 1)); echo "[ FAIL ] $what"; sed 's/^/    /' "$tmp/out.txt" "$tmp/err.txt"; fi
}

# gpu_results: a run whose options take a host path an earlier run took, with other GPU
# settings, checks the GPU's results only; the sanitized build (WGSCAN_SANITIZED), there
# for the host code, skips it (a sort's pipelines take a minute to compile under ASan).
gpu_results() { [ -z "${WGSCAN_SANITIZED:-}" ]; }

expect 0 "help" -- "$cli" help
expect 2 "no command" -- "$cli"
expect 2 "unknown command" -- "$cli" frobnicate
expect 2 "scan without n" -- "$cli" scan
expect 2 "bad type" -- "$cli" scan --n 10 --type u64
expect 2 "bad op" -- "$cli" scan --n 10 --op mul
expect 2 "xor on floats" -- "$cli" scan --n 10 --type f32 --op xor
expect 2 "bad n" -- "$cli" scan --n ten
expect 2 "missing input file" -- "$cli" scan --in "$tmp/nope.bin"
expect 0 "info" -- "$cli" info
grep -q "adapter" "$tmp/out.txt" || { failed=$((failed + 1)); echo "[ FAIL ] info prints the adapter"; }
# Quiet start-up: what the Vulkan loader prints while the adapters are probed (here made
# loud with VK_LOADER_DEBUG) stays off the terminal, and --verbose shows it.
expect 0 "info with a loud driver" -- env VK_LOADER_DEBUG=all "$cli" info
check "start-up prints nothing on stderr" -- test ! -s "$tmp/err.txt"
expect 0 "info --verbose with a loud driver" -- env VK_LOADER_DEBUG=all "$cli" info --verbose
check "--verbose shows the driver's lines" -- grep -q "^wgscan: driver: " "$tmp/err.txt"
check "--verbose states the runtime lookup order" -- grep -q "runtime lookup, in order" "$tmp/out.txt"
expect 0 "scan and verify" -- "$cli" scan --n 131073 --repeat 2 --verify
if gpu_results; then
  expect 0 "scan 2^17 i32 max inclusive" -- "$cli" scan --n 2^17 --type i32 --op max --inclusive --repeat 2 --verify
  grep -q "verify: OK" "$tmp/out.txt" || { failed=$((failed + 1)); echo "[ FAIL ] verify line"; }
fi
expect 0 "scan n=0" -- "$cli" scan --n 0
expect 0 "scan --gpu-count" -- "$cli" scan --n 100003 --gpu-count 70001 --inclusive --repeat 1 --verify
check "--gpu-count: the count's elements, nothing past them" -- grep -q "nothing written past the count" "$tmp/out.txt"
expect 0 "scan --gpu-count above n" -- "$cli" scan --n 1000 --gpu-count 5000 --type f32 --repeat 1 --verify
expect 2 "scan --gpu-count past 32 bits" -- "$cli" scan --n 10 --gpu-count 2^33

# --operator: the shipped operators verified against their CPU references (exact on
# random input); an operator with no reference cannot be verified; bad files.
ops=$(dirname "$0")/../examples/operators
# (The sanitized build leaves out the first run here and the mat2 reduce below: the
# affine file's inclusive scan takes the first's plan and verify, the segmented and
# by-key runs fill affine input from --n, the mat2 scan fills mat2 input; each operator
# scan compiles for 14 to 26 s of CPU under ASan.)
if gpu_results; then
  expect 0 "scan --operator affine, inclusive, verified" -- "$cli" scan --operator "$ops/affine.wgsl" --n 5001 --inclusive --repeat 1 --verify
  check "--operator: verify line" -- grep -q "verify: OK, all 5001 elements equal" "$tmp/out.txt"
fi
expect 0 "scan --operator mat2, multilevel, out" -- "$cli" scan --operator "$ops/mat2.wgsl" --n 3001 --algorithm multilevel --repeat 1 --verify --out "$tmp/mat2.bin"
check "--operator --out: 16 bytes an element" -- test "$(wc -c <"$tmp/mat2.bin")" -eq 48016
# A file of 2 affine pairs: (2, 1) then (3, 1): inclusive y from 0 is (2, 1), (6, 4).
printf '\000\000\000\100\000\000\200\077\000\000\100\100\000\000\200\077' >"$tmp/affine.bin"
expect 0 "scan --operator --in, --out" -- "$cli" scan --operator "$ops/affine.wgsl" --in "$tmp/affine.bin" --inclusive --verify --out "$tmp/affine_out.bin"
check "--operator --in: the composed maps" -- test "$(od -An -tf4 "$tmp/affine_out.bin" | tr -s ' ')" = " 2 1 6 4"
printf '// wgscan-operator: element=u32 combine=plus identity=0\nfn plus(a: u32, b: u32) -> u32 { return a + b; }\n' >"$tmp/plus.wgsl"
expect 0 "scan --operator without a reference" -- "$cli" scan --operator "$tmp/plus.wgsl" --n 1000 --repeat 1
expect 2 "scan --operator --verify without a reference" -- "$cli" scan --operator "$tmp/plus.wgsl" --n 1000 --verify
check "--verify refusal says why" -- grep -q "cannot run WGSL on the CPU" "$tmp/err.txt"
expect 2 "scan --operator with --type" -- "$cli" scan --operator "$tmp/plus.wgsl" --n 10 --type f32
printf 'fn plus(a: u32, b: u32) -> u32 { return a + b; }\n' >"$tmp/nohead.wgsl"
expect 2 "scan --operator without its header line" -- "$cli" scan --operator "$tmp/nohead.wgsl" --n 10
printf '// wgscan-operator: element=u32 combine=plus identity=0\nfn plus(a: u32, b: u32) -> u32 {\n    return a + ;\n}\n' >"$tmp/broken.wgsl"
expect 3 "scan --operator that does not compile" -- "$cli" scan --operator "$tmp/broken.wgsl" --n 10
check "the compiler's message at the file's line" -- grep -q "WGS_ERROR_OPERATOR_COMPILE.*line 3" "$tmp/err.txt"
if gpu_results; then
  expect 0 "reduce --operator mat2, verified" -- "$cli" reduce --operator "$ops/mat2.wgsl" --n 20001 --repeat 1 --verify
  check "reduce --operator: verify line" -- grep -q "verify: OK, all 1 result equal" "$tmp/out.txt"
fi
expect 0 "reduce --operator --in, --out" -- "$cli" reduce --operator "$ops/affine.wgsl" --in "$tmp/affine.bin" --verify --out "$tmp/affine_r.bin"
check "reduce --operator --in: verify line" -- grep -q "verify: OK, all 1 result " "$tmp/out.txt"
check "reduce --operator --in: the composed map" -- test "$(od -An -tf4 "$tmp/affine_r.bin" | tr -s ' ')" = " 6 4"
expect 0 "reduce --operator, n = 0: the identity" -- "$cli" reduce --operator "$ops/affine.wgsl" --n 0 --verify --out "$tmp/affine_0.bin"
check "reduce --operator n = 0 writes the identity" -- test "$(od -An -tf4 "$tmp/affine_0.bin" | tr -s ' ')" = " 1 0"
expect 2 "reduce --operator with --op" -- "$cli" reduce --operator "$ops/affine.wgsl" --n 10 --op max
head -c 8 "$tmp/affine.bin" >"$tmp/half.bin"
expect 2 "scan --operator, a file of a partial element" -- "$cli" scan --operator "$ops/mat2.wgsl" --in "$tmp/half.bin"
# The segmented and by-key commands with the shipped operators, verified (each segment or
# run against the same CPU references), and on a file: (2, 1), (3, 1), (2, 1), (3, 1).
expect 0 "segmented-reduce --operator mat2, verified" -- "$cli" segmented-reduce --operator "$ops/mat2.wgsl" --n 7001 --segments random:50 --repeat 1 --verify
check "segmented-reduce --operator: verify line" -- grep -q "verify: OK, all [0-9]* segments equal" "$tmp/out.txt"
expect 0 "segmented-scan --operator affine, inclusive, verified" -- "$cli" segmented-scan --operator "$ops/affine.wgsl" --n 5001 --segments 300 --inclusive --repeat 1 --verify
check "segmented-scan --operator: verify line" -- grep -q "verify: OK, all 5001 elements equal" "$tmp/out.txt"
expect 0 "scan-by-key --operator mat2, verified" -- "$cli" scan-by-key --operator "$ops/mat2.wgsl" --n 3001 --segments random:20 --repeat 1 --verify
expect 0 "reduce-by-key --operator affine, verified" -- "$cli" reduce-by-key --operator "$ops/affine.wgsl" --n 3001 --segments random:30 --repeat 1 --verify
check "reduce-by-key --operator: verify line" -- grep -q "verify: OK, all [0-9]* runs equal" "$tmp/out.txt"
cat "$tmp/affine.bin" "$tmp/affine.bin" >"$tmp/affine4.bin"
printf '\000\000\000\000\001\000\000\000\004\000\000\000' >"$tmp/offsets3.bin"
printf '\005\000\000\000\005\000\000\000\007\000\000\000\007\000\000\000' >"$tmp/keys4.bin"
expect 0 "segmented-reduce --operator --in, --segments FILE, --out" -- "$cli" segmented-reduce --operator "$ops/affine.wgsl" --in "$tmp/affine4.bin" --segments "$tmp/offsets3.bin" --verify --out "$tmp/seg_out.bin"
check "segmented-reduce --operator --in: each segment composed in order" -- test "$(od -An -tf4 "$tmp/seg_out.bin" | tr -s ' ')" = " 2 1 18 10"
expect 0 "scan-by-key --operator --in, --keys FILE, --out" -- "$cli" scan-by-key --operator "$ops/affine.wgsl" --in "$tmp/affine4.bin" --keys "$tmp/keys4.bin" --inclusive --verify --out "$tmp/sbk_out.bin"
check "scan-by-key --operator --in: each run scanned" -- test "$(echo $(od -v -An -tf4 "$tmp/sbk_out.bin"))" = "2 1 6 4 2 1 6 4"
expect 0 "reduce-by-key --operator --in, --keys FILE, --out" -- "$cli" reduce-by-key --operator "$ops/affine.wgsl" --in "$tmp/affine4.bin" --keys "$tmp/keys4.bin" --verify --out "$tmp/rbk_out.bin"
check "reduce-by-key --operator --in: one result a run" -- test "$(od -An -tf4 "$tmp/rbk_out.bin" | tr -s ' ')" = " 6 4 6 4"
expect 2 "scan-by-key --operator, keys of another n" -- "$cli" scan-by-key --operator "$ops/affine.wgsl" --in "$tmp/affine.bin" --keys "$tmp/keys4.bin"
expect 2 "reduce-by-key --operator --verify without a reference" -- "$cli" reduce-by-key --operator "$tmp/plus.wgsl" --n 100 --segments 7 --verify
expect 0 "segmented-scan --operator without a reference" -- "$cli" segmented-scan --operator "$tmp/plus.wgsl" --n 100 --segments 7 --repeat 1
expect 2 "segmented-reduce --operator with --op" -- "$cli" segmented-reduce --operator "$ops/affine.wgsl" --n 10 --segments 3 --op max
printf '\000\000\000\000\003\000\000\000\002\000\000\000' >"$tmp/unordered3.bin"
expect 2 "segmented-scan --operator, offsets out of order" -- "$cli" segmented-scan --operator "$ops/affine.wgsl" --in "$tmp/affine4.bin" --segments "$tmp/unordered3.bin"

# A raw file in, a raw file out: 1000 u32 of ones give 0, 1, 2, ... exclusive.
head -c 4000 /dev/zero | tr '\0' '\1' >"$tmp/ones8.bin" # bytes 0x01: u32 0x01010101
expect 0 "scan --in/--out" -- "$cli" scan --in "$tmp/ones8.bin" --out "$tmp/res.bin" --verify --repeat 1
size=$(stat -c %s "$tmp/res.bin" 2>/dev/null || echo 0)
if [ "$size" -eq 4000 ]; then passed=$((passed + 1)); echo "[  OK  ] output size"; else failed=$((failed + 1)); echo "[ FAIL ] output size $size"; fi
# element 3 of the exclusive sum is 3 * 0x01010101 = 0x03030303: bytes 12..15
b=$(od -An -tx1 -j12 -N4 "$tmp/res.bin" | tr -d ' \n')
if [ "$b" = "03030303" ]; then passed=$((passed + 1)); echo "[  OK  ] output values"; else failed=$((failed + 1)); echo "[ FAIL ] output values: $b"; fi
head -c 4002 /dev/zero >"$tmp/odd.bin"
expect 2 "file not a whole number of u32" -- "$cli" scan --in "$tmp/odd.bin"
expect 3 "runtime missing" -- env WGSCAN_WEBGPU_LIB=/nonexistent.so "$cli" info
grep -q "WGS_ERROR_RUNTIME_NOT_FOUND" "$tmp/err.txt" || { failed=$((failed + 1)); echo "[ FAIL ] runtime error message"; }

# The primitives: every command verifies against its CPU reference.
expect 0 "reduce argmax f32" -- "$cli" reduce --n 100003 --type f32 --op argmax --repeat 2 --verify
expect 0 "reduce atomic fixed point" -- "$cli" reduce --n 100003 --type f32 --algorithm atomic --float-sum fixed --repeat 2 --verify
expect 0 "count per element" -- "$cli" count --n 100003 --predicate lt:50 --algorithm per-element --repeat 2 --verify
expect 0 "compact flagged" -- "$cli" compact --n 100003 --repeat 2 --verify
expect 0 "compact partition" -- "$cli" compact --n 100003 --type i32 --predicate range:-10:10 --partition --payload index --repeat 2 --verify
expect 0 "compact rle" -- "$cli" compact --n 100003 --mode rle --repeat 2 --verify
expect 0 "histogram" -- "$cli" histogram --n 100003 --type f32 --bins 100 --repeat 2 --verify
expect 0 "reduce n=0" -- "$cli" reduce --n 0 --verify
expect 0 "segmented-reduce fixed" -- "$cli" segmented-reduce --n 100003 --segments 256 --repeat 2 --verify
check "segmented-reduce: 391 segments, none differ" -- grep -q "segments: 391 (mean length 255.8), status WGS_OK, 0 differ" "$tmp/out.txt"
expect 0 "segmented-reduce random f32 argmax" -- "$cli" segmented-reduce --n 100003 --segments random:40 --type f32 --op argmax --repeat 2 --verify
expect 0 "segmented-reduce f32 sums" -- "$cli" segmented-reduce --n 100003 --segments random:3000 --type f32 --repeat 1 --verify
expect 0 "segmented-reduce n=0" -- "$cli" segmented-reduce --n 0 --segments 16 --verify
expect 2 "segmented-reduce without --segments" -- "$cli" segmented-reduce --n 10
expect 2 "segmented-reduce --segments 0" -- "$cli" segmented-reduce --n 10 --segments 0
expect 2 "segmented-reduce --segments random:" -- "$cli" segmented-reduce --n 10 --segments random:
expect 2 "segmented-reduce f32 xor" -- "$cli" segmented-reduce --n 10 --segments 4 --type f32 --op xor
expect 2 "segmented-reduce --bins (another command's)" -- "$cli" segmented-reduce --n 10 --segments 4 --bins 3
expect 0 "scan-by-key fixed" -- "$cli" scan-by-key --n 100003 --segments 256 --repeat 2 --verify
check "scan-by-key: 391 runs, none differ" -- grep -q "runs: 391 (mean length 255.8), 0 elements differ" "$tmp/out.txt"
expect 0 "scan-by-key random f32 inclusive" -- "$cli" scan-by-key --n 100003 --segments random:3000 --type f32 --inclusive --repeat 1 --verify
expect 0 "scan-by-key i32 max exclusive" -- "$cli" scan-by-key --n 100003 --segments random:40 --type i32 --op max --exclusive --repeat 1 --verify
expect 0 "scan-by-key n=0" -- "$cli" scan-by-key --n 0 --segments 16 --verify
expect 2 "scan-by-key without --segments" -- "$cli" scan-by-key --n 10
expect 2 "scan-by-key --inclusive --exclusive" -- "$cli" scan-by-key --n 10 --segments 4 --inclusive --exclusive
expect 2 "scan-by-key f32 xor" -- "$cli" scan-by-key --n 10 --segments 4 --type f32 --op xor
expect 2 "scan-by-key argmin (a reduce's operator)" -- "$cli" scan-by-key --n 10 --segments 4 --op argmin
expect 0 "reduce-by-key fixed" -- "$cli" reduce-by-key --n 100003 --segments 256 --repeat 2 --verify
check "reduce-by-key: 391 runs, none differ" -- grep -q "runs: 391 (want 391), 0 differ" "$tmp/out.txt"
expect 0 "reduce-by-key random f32" -- "$cli" reduce-by-key --n 100003 --segments random:300 --type f32 --repeat 1 --verify
expect 0 "reduce-by-key n=0" -- "$cli" reduce-by-key --n 0 --segments 16 --verify
expect 0 "reduce-by-key argmin i32" -- "$cli" reduce-by-key --n 100003 --segments random:40 --type i32 --op argmin --repeat 1 --verify
expect 0 "segmented-scan fixed" -- "$cli" segmented-scan --n 100003 --segments 256 --repeat 2 --verify
check "segmented-scan: 391 segments, none differ" -- grep -q "segments: 391 (mean length 255.8), 0 elements differ" "$tmp/out.txt"
expect 0 "segmented-scan random f32 inclusive" -- "$cli" segmented-scan --n 100003 --segments random:3000 --type f32 --inclusive --repeat 1 --verify
gpu_results && expect 0 "segmented-scan random i32 max" -- "$cli" segmented-scan --n 100003 --segments random:40 --type i32 --op max --repeat 1 --verify
expect 0 "segmented-scan n=0" -- "$cli" segmented-scan --n 0 --segments 16 --verify
# A file of CSR offsets: [10, 20), [20, 20), [20, 500), [500, 900) over 1000 ones;
# elements 0..9 and 900..999 are in no segment (0, the identity of add).
printf '\x0a\0\0\0\x14\0\0\0\x14\0\0\0\xf4\x01\0\0\x84\x03\0\0' >"$tmp/offsets.bin"
python3 -c 'import sys; sys.stdout.buffer.write(b"\x01\0\0\0" * 1000)' >"$tmp/ones32.bin"
expect 0 "segmented-scan --segments FILE --in/--out" -- "$cli" segmented-scan --in "$tmp/ones32.bin" --segments "$tmp/offsets.bin" --inclusive --out "$tmp/sscan.bin" --repeat 1 --verify
check "segmented-scan FILE: 4 segments" -- grep -q "segments: 4 (mean length 250.0), 0 elements differ" "$tmp/out.txt"
w() { od -An -tu4 -j$(($1 * 4)) -N4 "$tmp/sscan.bin" | tr -d ' \n'; }
check "segmented-scan FILE: 0 before the first offset, 1 at it, 480 at 499, 400 at 899, 0 after the last" -- \
  test "$(w 9),$(w 10),$(w 499),$(w 899),$(w 900)" = "0,1,480,400,0"
printf '\x0a\0\0\0\x05\0\0\0' >"$tmp/bad_offsets.bin"
expect 2 "segmented-scan offsets out of order: the GPU's status" -- "$cli" segmented-scan --n 100 --segments "$tmp/bad_offsets.bin" --repeat 1
check "segmented-scan out of order: the status named" -- grep -q "WGS_ERROR_SEGMENTS_UNORDERED" "$tmp/err.txt"
printf '\0\0\0\0\xe9\x03\0\0' >"$tmp/far_offsets.bin"
expect 2 "segmented-scan an offset past n" -- "$cli" segmented-scan --n 1000 --segments "$tmp/far_offsets.bin" --repeat 1
check "segmented-scan past n: the status named" -- grep -q "WGS_ERROR_SEGMENT_OUT_OF_RANGE" "$tmp/err.txt"
head -c 6 /dev/zero >"$tmp/odd_offsets.bin"
expect 2 "segmented-scan offsets not whole u32" -- "$cli" segmented-scan --n 10 --segments "$tmp/odd_offsets.bin"
expect 2 "segmented-scan missing offsets file" -- "$cli" segmented-scan --n 10 --segments "$tmp/nope.bin"
expect 2 "segmented-scan without --segments" -- "$cli" segmented-scan --n 10
expect 2 "segmented-scan f32 xor" -- "$cli" segmented-scan --n 10 --segments 4 --type f32 --op xor
expect 2 "segmented-scan argmax (a reduce's operator)" -- "$cli" segmented-scan --n 10 --segments 4 --op argmax
expect 2 "segmented-reduce --segments FILE with offsets past n" -- "$cli" segmented-reduce --n 10 --segments "$tmp/offsets.bin"
# segmented-sort (issue 36): both of its paths (segments past the tile: 256 keys on CPU
# drivers) against the stable CPU sort, the offsets of a file, the GPU's status.
expect 0 "segmented-sort random f32 descending with indices" -- "$cli" segmented-sort --n 30001 --segments random:300 --type f32 --descending --payload index --repeat 1 --verify
check "segmented-sort says OK with indices" -- grep -q "verify: OK, every segment's keys and indices" "$tmp/out.txt"
expect 0 "segmented-sort random i64 descending with 8-byte values" -- "$cli" segmented-sort --n 30001 --segments random:300 --type i64 --descending --pairs --value-bytes 8 --repeat 1 --verify
check "segmented-sort says OK with values" -- grep -q "verify: OK, every segment's keys and values" "$tmp/out.txt"
expect 2 "segmented-sort --pairs with --payload" -- "$cli" segmented-sort --n 100 --segments 4 --pairs --payload index
expect 2 "segmented-sort --value-bytes without --pairs" -- "$cli" segmented-sort --n 100 --segments 4 --value-bytes 8
expect 0 "segmented-sort u64 segments of 16 --out --json" -- "$cli" segmented-sort --n 5000 --segments 16 --type u64 --repeat 1 --verify --out "$tmp/ss.bin" --json "$tmp/ss.json"
check "segmented-sort --out holds n u64 keys" -- test "$(wc -c <"$tmp/ss.bin")" -eq 40000
check "segmented-sort --json: 313 segments, verified" -- bash -c 'grep -q "\"segments\": 313" "$0" && grep -q "\"verify\": \"ok\"" "$0"' "$tmp/ss.json"
expect 0 "segmented-sort --path large" -- "$cli" segmented-sort --n 3001 --segments random:40 --path large --payload index --repeat 1 --verify
expect 0 "segmented-sort --path small within the tile" -- "$cli" segmented-sort --n 3001 --segments 40 --path small --repeat 1 --verify
expect 2 "segmented-sort --path small past the tile" -- "$cli" segmented-sort --n 10001 --segments 5000 --path small --repeat 1
check "segmented-sort --path small names the tile" -- grep -q "longer than a workgroup.s tile" "$tmp/err.txt"
expect 2 "segmented-sort --path bad" -- "$cli" segmented-sort --n 100 --segments 4 --path medium
expect 0 "segmented-sort --segments FILE (gaps before and after)" -- "$cli" segmented-sort --n 1000 --segments "$tmp/offsets.bin" --type i32 --repeat 1 --verify
expect 0 "segmented-sort n=0" -- "$cli" segmented-sort --n 0 --segments 16 --verify
expect 2 "segmented-sort offsets out of order: the GPU's status" -- "$cli" segmented-sort --n 100 --segments "$tmp/bad_offsets.bin" --repeat 1
check "segmented-sort out of order: the status named" -- grep -q "WGS_ERROR_SEGMENTS_UNORDERED" "$tmp/err.txt"
if gpu_results; then # the status's host path is the out-of-order run's
  expect 2 "segmented-sort an offset past n" -- "$cli" segmented-sort --n 1000 --segments "$tmp/far_offsets.bin" --repeat 1
  check "segmented-sort past n: the status named" -- grep -q "WGS_ERROR_SEGMENT_OUT_OF_RANGE" "$tmp/err.txt"
fi
expect 2 "segmented-sort without --segments" -- "$cli" segmented-sort --n 10
expect 2 "segmented-sort without --n" -- "$cli" segmented-sort --segments 4
for v in "--type f16" "--payload buffer" "--op add" "--bins 3"; do
  # shellcheck disable=SC2086 # the words of $v are the options
  expect 2 "segmented-sort $v" -- "$cli" segmented-sort --n 100 --segments 4 $v
done
expect 2 "segmented-sort --segments 0" -- "$cli" segmented-sort --n 100 --segments 0
expect 2 "segmented-sort --n 2^31" -- "$cli" segmented-sort --n 2^31 --segments 16
check "segmented-sort refusals name the rule" -- grep -q "n below 2^31" "$tmp/err.txt"
# The second row takes the large path on the GPU; its host setup is the first's.
ssrows=segmented-sort-16,segmented-sort-65536
gpu_results || ssrows=segmented-sort-16
expect 0 "bench --primitives $ssrows" -- "$cli" bench --series none \
  --primitives $ssrows --min 1024 --max 1024 --runs 20 --json "$tmp/ssb.json" \
  --csv "$tmp/ssb.csv" --svg "$tmp/ssb.svg"
check "bench CSV: a row of each segmented sort" -- \
  bash -c 'for r in ${1//,/ }; do grep -q "^u32,none,$r,1024," "$0" || exit 1; done' "$tmp/ssb.csv" "$ssrows"
expect 2 "reduce-by-key without --segments" -- "$cli" reduce-by-key --n 10
expect 2 "reduce-by-key --inclusive (a scan's)" -- "$cli" reduce-by-key --n 10 --segments 4 --inclusive
expect 2 "reduce bad op" -- "$cli" reduce --n 10 --op mul
expect 2 "scan argmin" -- "$cli" scan --n 10 --op argmin
expect 2 "count bad predicate" -- "$cli" count --n 10 --predicate lt
expect 2 "histogram half a range" -- "$cli" histogram --n 10 --lower 3
expect 2 "compact option of another command" -- "$cli" compact --n 10 --bins 3
expect 2 "reduce argmin atomic (refused by the library)" -- "$cli" reduce --n 10 --op argmin --algorithm atomic
grep -q "WGS_ERROR_UNSUPPORTED_OPERATOR" "$tmp/err.txt" || { failed=$((failed + 1)); echo "[ FAIL ] argmin atomic message"; }
expect 2 "compact single pass with partition" -- "$cli" compact --n 10 --algorithm single-pass --partition
expect 2 "compact bad algorithm" -- "$cli" compact --n 10 --algorithm fastest
expect 0 "compact single pass" -- "$cli" compact --n 100003 --algorithm single-pass --payload index --repeat 2 --verify
expect 0 "compact three passes" -- "$cli" compact --n 100003 --algorithm three-pass --repeat 2 --verify
# count of a file: 1000 words of 0x01010101 are all non-zero
expect 0 "count --in/--out" -- "$cli" count --in "$tmp/ones8.bin" --out "$tmp/count.bin" --verify --repeat 1
b=$(od -An -tu4 -N4 "$tmp/count.bin" | tr -d ' \n')
if [ "$b" = "1000" ]; then passed=$((passed + 1)); echo "[  OK  ] count output"; else failed=$((failed + 1)); echo "[ FAIL ] count output: $b"; fi

# check DESCRIPTION -- test...: one more check of the last command's output
# ---- strict values (issue 13): nothing reads as 0, nothing half-parsed --------------
for p in gt: eq: lt: ne: range:: range:1: range::2 range:1:2:3 eq:1x eq:0x gt:' 1' eq:1e999; do
  expect 2 "count --predicate '$p'" -- "$cli" count --n 10 --predicate "$p"
done
expect 2 "range with A > B" -- "$cli" count --n 10 --predicate range:5:-5
expect 2 "nan operand for u32" -- "$cli" count --n 10 --predicate ne:nan
expect 2 "inf operand for i32" -- "$cli" count --n 10 --type i32 --predicate lt:inf
expect 2 "fraction operand for u32" -- "$cli" count --n 10 --predicate eq:2.5
expect 0 "nan operand for f32 (IEEE: ne:nan holds for every element)" -- "$cli" count --n 1000 --type f32 --predicate ne:nan --repeat 1 --verify
check "ne:nan counts every element" -- grep -q "count: 1000 of 1000" "$tmp/out.txt"
expect 0 "inf operand for f32" -- "$cli" count --n 1000 --type f32 --predicate range:-inf:inf --repeat 1 --verify
expect 2 "histogram --lower ''" -- "$cli" histogram --n 10 --lower '' --upper 5
expect 2 "histogram --upper nan" -- "$cli" histogram --n 10 --type f32 --lower 0 --upper nan
expect 2 "histogram --upper inf" -- "$cli" histogram --n 10 --type f32 --lower 0 --upper inf
expect 2 "histogram lower above upper" -- "$cli" histogram --n 10 --lower 5 --upper 1
expect 2 "compact --density ''" -- "$cli" compact --n 10 --density ''
for n in '' ' 5' 1.5 -0 +5 0x10 9007199254740993 2^41 1e3x 1..5 1e 2^ 16Q inf nan; do
  expect 2 "scan --n '$n'" -- "$cli" scan --n "$n"
done
expect 0 "scan --n 1.5K (1500)" -- "$cli" scan --n 1.5K --repeat 1 --verify
grep -q "n = 1500," "$tmp/out.txt" || { failed=$((failed + 1)); echo "[ FAIL ] 1.5K is 1500"; }
expect 0 "scan --n 2Ki (2048)" -- "$cli" scan --n 2Ki --repeat 1
grep -q "n = 2048," "$tmp/out.txt" || { failed=$((failed + 1)); echo "[ FAIL ] 2Ki is 2048"; }
expect 2 "--repeat 0" -- "$cli" scan --n 10 --repeat 0
expect 2 "--bins 0" -- "$cli" histogram --n 10 --bins 0
expect 2 "bench --runs 19" -- "$cli" bench --runs 19
expect 2 "bench --runs 5 without --transfers" -- "$cli" bench --runs 5
expect 2 "bench --transfers with --series" -- "$cli" bench --transfers --series u32:add
expect 2 "bench --transfers with --svg" -- "$cli" bench --transfers --svg "$tmp/t.svg"
expect 2 "bench --transfers of 2 bytes" -- "$cli" bench --transfers --min 2 --max 4
expect 2 "bench --creation with --series" -- "$cli" bench --creation --series u32:add
expect 2 "bench --creation with --min" -- "$cli" bench --creation --min 2^10
expect 2 "bench --creation with --transfers" -- "$cli" bench --creation --transfers
expect 3 "bench --transfers with a bad WGSCAN_TRANSFER" -- env WGSCAN_TRANSFER=64,4 "$cli" bench --transfers --min 4 --max 4096
check "the variable's form is said" -- grep -q "chunk_kib,slots,threads" "$tmp/err.txt"
expect 3 "top-k with a bad WGSCAN_TOPK_PHASES" -- env WGSCAN_TOPK_PHASES=histogram,bogus "$cli" topk --n 4096 --k 8
check "the phases' names are said" -- grep -q "histogram,filter,candidates,scan,write" "$tmp/err.txt"
expect 0 "top-k timed without its later phases" -- env WGSCAN_TOPK_PATH=multi WGSCAN_TOPK_PHASES=histogram,filter "$cli" topk --n 100000 --k 16 --repeat 2
expect 0 "top-k with every phase named" -- env WGSCAN_TOPK_PATH=multi WGSCAN_TOPK_PHASES=histogram,filter,candidates,scan,write "$cli" topk --n 100000 --k 16 --repeat 1 --verify
expect 3 "bench --transfers with a shape no device runs" -- env WGSCAN_TRANSFER=100,4,4 "$cli" bench --transfers --min 4 --max 4096
expect 0 "bench --transfers, small" -- "$cli" bench --transfers --min 4 --max 2^20 --runs 3 --json "$tmp/t.json" --csv "$tmp/t.csv"
check "transfers CSV: both directions at every size" -- bash -c '[ "$(grep -c "^up," "$0")" = 19 ] && [ "$(grep -c "^down," "$0")" = 19 ]' "$tmp/t.csv"
expect 0 "bench --transfers, the old path" -- env WGSCAN_TRANSFER=legacy "$cli" bench --transfers --min 2^16 --max 2^18 --runs 3 --json "$tmp/t.json" --csv "$tmp/t.csv"
if command -v python3 >/dev/null; then
  check "transfers JSON names the staging" -- python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["staging"] == "legacy" and len(d["results"]) == 6, d' "$tmp/t.json"
fi
expect 2 "bench with a bad WGSCAN_BENCH_POOL_MIB" -- env WGSCAN_BENCH_POOL_MIB=12x "$cli" bench --max 1024
expect 2 "bench with a bad WGSCAN_BENCH_PLAN_MAX" -- env WGSCAN_BENCH_PLAN_MAX=-1 "$cli" bench --max 1024

# ---- --in: regular files only, the size checked before anything is read ----------
expect 2 "--in a directory" -- "$cli" scan --in "$tmp"
check "the directory is named as such" -- grep -q "directory" "$tmp/err.txt"
expect 2 "--in a character device" -- "$cli" scan --in /dev/zero
check "the device is named as such" -- grep -q "character device" "$tmp/err.txt"
expect 2 "--in a /proc file" -- "$cli" count --in /proc/self/status
expect 2 "--flags a directory" -- "$cli" compact --n 10 --flags "$tmp"
expect 2 "--in missing, with the reason" -- "$cli" reduce --in "$tmp/nope.bin"
check "the reason is given" -- grep -q "No such file" "$tmp/err.txt"
# Sparse input larger than the device's largest buffer (1 GiB on SwiftShader, 1 TiB on
# an H200): refused by the plan before it is read, so it runs in 1.5 GB of address space
# (old: read it first). (AddressSanitizer's shadow memory needs more address space than
# that: there, only the message is checked.)
maxbuf=$("$cli" info | sed -n 's/.*maxBufferSize \([0-9]*\),.*/\1/p')
truncate -s $(( ${maxbuf:-1073741824} + 512 * 1024 * 1024 )) "$tmp/big.bin"
if grep -q __asan_init "$cli"; then limit=unlimited; else limit=1500000; fi
expect 2 "--in too large: refused before reading" -- bash -c 'ulimit -v "$2"; exec "$0" scan --in "$1" --repeat 1' "$cli" "$tmp/big.bin" "$limit"
check "too large names the library's code" -- grep -q "WGS_ERROR_TOO_LARGE" "$tmp/err.txt"
rm -f "$tmp/big.bin"

# ---- options that would do nothing are refused ---------------------------------------
head -c 1000 /dev/zero >"$tmp/flags1000.bin"
expect 2 "--flags outside --mode flagged" -- "$cli" compact --n 1000 --mode unique --flags "$tmp/flags1000.bin" --repeat 1
expect 2 "--predicate outside --mode if" -- "$cli" compact --n 100 --mode rle --predicate lt:5 --repeat 1
expect 2 "--density outside --mode flagged" -- "$cli" compact --n 100 --mode if --density 0.3 --repeat 1
expect 2 "--density with --flags" -- "$cli" compact --n 1000 --flags "$tmp/flags1000.bin" --density 0.3 --repeat 1
expect 2 "--float-sum with the tree" -- "$cli" reduce --n 100 --type f32 --float-sum fixed --repeat 1
expect 2 "--seed with --in" -- "$cli" scan --in "$tmp/ones8.bin" --seed 5 --repeat 1
expect 2 "an option given twice" -- "$cli" scan --n 10 --n 20 --repeat 1
expect 2 "--algorithms with --series none" -- "$cli" bench --series none --algorithms multilevel --primitives reduce-tree --min 1024 --max 1024 --runs 20 --json "$tmp/b.json" --csv "$tmp/b.csv" --svg "$tmp/b.svg"
expect 2 "info takes only --verbose" -- "$cli" info --n 10
expect 2 "demo takes no options" -- "$cli" demo --verbose

# ---- output files: not written, not 0 ---------------------------------------------
# The benches' pools of 16 MiB, not 512: filling and warming those costs most of a minute
# a bench on a CPU driver, and nothing checked here depends on their size.
export WGSCAN_BENCH_POOL_MIB=16
bench_small=(--min 1024 --max 1024 --series u32:add --algorithms single-pass --runs 20)
# The pace check compares a copy only with earlier copies of about as many bytes (within
# an eighth): the segmented reduce's (n words and the offsets) was once compared with the
# scan's of twice its bytes, rounded to the same power of two, and flagged at half the
# time.
expect 0 "bench: copies of different sizes" -- "$cli" bench --series u32:add --algorithms multilevel \
  --primitives segmented-reduce-256 --min 2^16 --max 2^16 --runs 20 --csv "$tmp/pace.csv" \
  --json "$tmp/pace.json" --svg "$tmp/pace.svg"
check "no pace change flagged for the segmented reduce" -- \
  grep -q "^u32,add,segmented-reduce-256,65536,.*,1.000,0,132096$" "$tmp/pace.csv"
expect 2 "bench --json in a missing folder" -- "$cli" bench "${bench_small[@]}" --json /proc/x/b.json --csv "$tmp/b.csv" --svg "$tmp/b.svg"
check "no 'wrote' for it" -- bash -c '! grep -q wrote "$0"' "$tmp/out.txt"
expect 2 "bench --csv on a full disk" -- "$cli" bench "${bench_small[@]}" --json "$tmp/q\"b.json" --csv /dev/full --svg "$tmp/b.svg"
check "'wrote' only for the files written" -- bash -c '! grep -q "wrote /dev/full" "$0" && grep -q "wrote $1" "$0"' "$tmp/out.txt" "$tmp/b.svg"
if command -v python3 >/dev/null; then # the command line's quote is escaped in the JSON
  check "bench JSON parses" -- python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/q\"b.json"
  check "bench JSON carries provenance and spread" -- python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("date", "command", "wgscan_version", "commit", "device", "vendor", "description", "backend", "runtime"):
    assert isinstance(d[k], str), k
assert d["wgscan_version"] == sys.argv[2], d["wgscan_version"]
assert d["date"].endswith("Z") and "T" in d["date"], d["date"]
assert "q\"b.json" in d["command"], d["command"]
for p in d["results"]:
    assert p["min_us"] <= p["median_us"] <= p["max_us"], p
' "$tmp/q\"b.json" "$("$cli" --version | cut -d" " -f2)"
fi
# Two outputs in one file, by one name or two: refused before the run (issue 37).
expect 2 "bench with one file for --json, --csv and --svg" -- "$cli" bench "${bench_small[@]}" --json "$tmp/same" --csv "$tmp/same" --svg "$tmp/same"
check "one file for two outputs: nothing left behind" -- test ! -e "$tmp/same"
expect 2 "bench --transfers with --json and --csv one file by two names" -- "$cli" bench --transfers --min 4 --max 4 --runs 3 --json "$tmp/t2" --csv "$tmp/./t2"
# One bench for the files' contents and the rows of a scan series, the sorts (issue 16)
# the segmented reduces and the by-key rows, each timed against the copy: each bench pays
# for a device, its pools and their warm-up. One segment length of each family (the
# others are the same entry with another L) and the sorts' three layouts (32-bit keys,
# pairs, 64-bit keys); sort-f32 is sort-keys with other bits.
# (Sanitized: without sort-pairs, sort-u64 and segmented-reduce-4096, whose rows' host
# setup the bench of test_cli_data.sh takes in the same build; each row compiles its
# pipelines, the sorts for 20 s of CPU apiece under ASan.)
brows=(u32,add,single-pass u32,none,sort-keys u32,none,sort-pairs u64,none,sort-u64 u32,add,segmented-reduce-4096
       u32,add,segmented-scan-16 u32,add,scan-by-key-4096 u32,add,reduce-by-key-256)
gpu_results || brows=(u32,add,single-pass u32,none,sort-keys u32,add,segmented-scan-16 u32,add,scan-by-key-4096
                      u32,add,reduce-by-key-256)
bprims=$(for r in "${brows[@]:1}"; do printf '%s,' "${r##*,}"; done)
expect 0 "bench writing all three files: a scan series, the sorts, segmented and by-key rows" -- "$cli" bench \
  "${bench_small[@]}" --primitives "${bprims%,}" \
  --json "$tmp/b.json" --csv "$tmp/b.csv" --svg "$tmp/b.svg"
check "bench CSV: the old columns in order, max_us and the pace's columns appended" -- \
  bash -c 'head -1 "$0" | grep -qx "type,op,algorithm,n,median_us,min_us,gelem_per_s,gb_per_s,copy_us,time_over_copy,max_us,copy_over_first,pace_changed,copy_bytes"' "$tmp/b.csv"
check "bench CSV: a row of the series, of each sort with its key type, of the segmented and by-key rows" -- bash -c '
  for r in "$@"; do
    grep -q "^$r,1024," "$0" || exit 1
  done' "$tmp/b.csv" "${brows[@]}"
check "bench SVG: a marker per point, every x label" -- \
  bash -c 'grep -q "<circle" "$0" && grep -q ">2^10<" "$0"' "$tmp/b.svg"
expect 2 "scan --out in a missing folder" -- "$cli" scan --n 100 --repeat 1 --out /proc/x/out.bin
expect 2 "scan --out on a full disk" -- "$cli" scan --n 100 --repeat 1 --out /dev/full

# ---- NaN in a verified f32 scan: NaN is the right answer --------------------------
# 1000 f32 of 1.0 (0x3f800000) with a NaN (0x7fc00000) at index 10
{ for i in $(seq 0 999); do if [ "$i" -eq 10 ]; then printf '\000\000\300\177'; else printf '\000\000\200\077'; fi; done; } >"$tmp/nan.bin"
expect 0 "f32 sum with a NaN verifies (exclusive)" -- "$cli" scan --in "$tmp/nan.bin" --type f32 --verify --repeat 1
expect 0 "f32 sum with a NaN verifies (inclusive)" -- "$cli" scan --in "$tmp/nan.bin" --type f32 --verify --inclusive --repeat 1
check "verify says OK" -- grep -q "verify: OK" "$tmp/out.txt"
expect 0 "f32 max with a NaN verifies (NaN wins)" -- "$cli" scan --in "$tmp/nan.bin" --type f32 --op max --verify --inclusive --repeat 1
expect 0 "f32 count ne:nan of data with a NaN verifies" -- "$cli" count --in "$tmp/nan.bin" --type f32 --predicate ne:nan --verify --repeat 1
# The other f32 commands judge infinities and NaN by the same rule (issue 37): segments of
# 4 whose sums are inf, NaN (inf + -inf) and NaN, each the right answer.
python3 -c 'import struct, sys; i, n = float("inf"), float("nan"); sys.stdout.buffer.write(struct.pack("<12f", 1, i, 2, 3, i, 4, -i, 5, 6, n, 7, 8))' >"$tmp/special.bin"
for c in "segmented-scan --segments 4" "scan-by-key --segments 4 --inclusive" "segmented-reduce --segments 4" \
         "reduce-by-key --segments 4" reduce; do
  expect 0 "f32 $c of inf and NaN verifies" -- "$cli" $c --in "$tmp/special.bin" --type f32 --verify --repeat 1
done
# The fixed-point sum needs finite elements: 1, inf, 2, 3 refused (it gave -65536, verified).
head -c 16 "$tmp/special.bin" >"$tmp/inf.bin"
expect 2 "reduce --float-sum fixed of an inf: refused" -- "$cli" reduce --algorithm atomic --float-sum fixed --in "$tmp/inf.bin" --type f32 --verify --repeat 1
check "the refusal names the element" -- grep -q "holds inf at element 1: --float-sum fixed sums finite elements only" "$tmp/err.txt"
expect 2 "scan --out into a missing folder: refused before the run" -- "$cli" scan --n 100 --repeat 1 --out "$tmp/no/such/dir/out.bin"
check "no run happened" -- bash -c '! grep -q "scan: n =" "$0"' "$tmp/out.txt"

# ---- sort (issue 16): every key type verified against the stable CPU sort ------------
# Each run pays for a device and the sort's pipelines (seconds on SwiftShader), so the key
# types, payloads and distributions share runs; test_sort.c sorts their whole product.
expect 0 "sort u32 --pairs --distribution equal" -- "$cli" sort --n 20001 --pairs --distribution equal --repeat 1 --verify
check "--pairs checks the values" -- grep -q "verify: OK, the keys and values" "$tmp/out.txt"
check "the distribution is taken" -- grep -q "n = 20001, u32 .*equal" "$tmp/out.txt"
expect 0 "sort u64 --pairs --value-bytes 8 --descending --distribution few:16" -- "$cli" sort --n 20001 --type u64 --pairs --value-bytes 8 --descending --distribution few:16 --repeat 1 --verify
check "sort u64 says OK" -- grep -q "verify: OK, the keys and values" "$tmp/out.txt"
expect 0 "sort f32 --payload index --distribution reversed" -- "$cli" sort --n 20001 --type f32 --payload index --distribution reversed --repeat 1 --verify
check "--payload index checks the indices" -- grep -q "verify: OK, the keys and indices" "$tmp/out.txt"
expect 0 "sort i32 --descending --distribution sorted" -- "$cli" sort --n 20001 --type i32 --descending --distribution sorted --repeat 1 --verify
check "sort i32 says OK" -- grep -q "verify: OK" "$tmp/out.txt"
gpu_results && expect 0 "sort --bits 8:20 --distribution few:2^20 (stable: the rest keeps input order)" -- "$cli" sort --n 20001 --bits 8:20 --payload index --distribution few:2^20 --repeat 1 --verify
expect 0 "sort i64 --bits 30:50 --descending --distribution skewed" -- "$cli" sort --n 20001 --type i64 --bits 30:50 --descending --distribution skewed --repeat 1 --verify
check "sort i64 says OK" -- grep -q "verify: OK" "$tmp/out.txt"
gpu_results && expect 0 "sort f32 --distribution few:3 --descending" -- "$cli" sort --n 20001 --type f32 --distribution few:3 --descending --payload index --repeat 1 --verify
if [ -n "${WGSCAN_TEST_LONG:-}" ] && [ "$WGSCAN_TEST_LONG" != 0 ]; then # make test-long: a run each
  for t in u32 i32 f32 u64 i64; do
    expect 0 "sort $t" -- "$cli" sort --n 20001 --type $t --repeat 1 --verify
    check "sort $t says OK" -- grep -q "verify: OK" "$tmp/out.txt"
  done
  for d in sorted reversed equal few:16 few:2^20 skewed; do
    expect 0 "sort --distribution $d --pairs" -- "$cli" sort --n 20001 --distribution $d --pairs --repeat 1 --verify
  done
fi
expect 0 "sort n=0" -- "$cli" sort --n 0 --pairs --repeat 1 --verify
expect 0 "sort n=1 i64 --bits 0:64" -- "$cli" sort --n 1 --type i64 --bits 0:64 --payload index --repeat 1 --verify
check "i64 takes --bits 0:64" -- grep -q "n = 1, i64 keys with indices, ascending, bits 0..63" "$tmp/out.txt"
# (Sanitized: the i64 keys with bits above take this one's host path, and the option
# words go through the one getopt_long of every command: scan's --opt=value below.)
if gpu_results; then
  expect 0 "sort --opt=value" -- "$cli" sort --n=5000 --type=u64 --bits=0:40 --distribution=few:100 --repeat=1 --verify
  check "--opt=value took the values" -- grep -q "n = 5000, u64 keys only, ascending, bits 0..39, few:100" "$tmp/out.txt"
fi
# A raw file in and out: 256 u32 keys 255, 254, ..., 0 come out as 0, 1, ..., 255; the
# sorted file sorts to itself.
for i in $(seq 255 -1 0); do printf "\\$(printf %03o "$i")\\000\\000\\000"; done >"$tmp/keys_down.bin"
for i in $(seq 0 255); do printf "\\$(printf %03o "$i")\\000\\000\\000"; done >"$tmp/keys_up.bin"
expect 0 "sort --in/--out" -- "$cli" sort --in "$tmp/keys_down.bin" --out "$tmp/sorted.bin" --repeat 1 --verify
check "the sorted keys are 0..255" -- cmp -s "$tmp/sorted.bin" "$tmp/keys_up.bin"
if gpu_results; then
  expect 0 "sort --in of sorted keys, --descending" -- "$cli" sort --in "$tmp/sorted.bin" --descending --out "$tmp/down.bin" --repeat 1 --verify
  check "descending gives 255..0 back" -- cmp -s "$tmp/down.bin" "$tmp/keys_down.bin"
fi
expect 0 "sort --in as u64 --pairs --seed" -- "$cli" sort --in "$tmp/keys_down.bin" --type u64 --pairs --seed 7 --repeat 1 --verify
check "1024 bytes are 128 u64 keys" -- grep -q "n = 128, u64" "$tmp/out.txt"
: >"$tmp/empty.bin"
expect 0 "sort --in an empty file" -- "$cli" sort --in "$tmp/empty.bin" --out "$tmp/empty_out.bin" --repeat 1 --verify
check "an empty file sorts to an empty file" -- test -f "$tmp/empty_out.bin" -a ! -s "$tmp/empty_out.bin"
expect 2 "sort --in not whole u64 keys" -- "$cli" sort --in "$tmp/odd.bin" --type u64
expect 2 "sort --n disagrees with --in" -- "$cli" sort --in "$tmp/keys_down.bin" --n 255
expect 2 "sort without n" -- "$cli" sort --pairs
for v in "--type f16" "--type u16" "--type=" "--bits 0:33" "--bits 0:65" "--bits 5:5" "--bits 8:4" "--bits 0:0" \
         "--bits 1:" "--bits :8" "--bits 1:2:3" "--bits 0x1:8" "--bits -1:8" "--bits 1e1:2^6+1" "--bits=8" \
         "--distribution zipf" "--distribution few:0" "--distribution few:" "--distribution few:2^33" \
         "--distribution few:-1" "--distribution Uniform" "--value-bytes 2" "--value-bytes 8" \
         "--pairs --value-bytes 16" "--pairs --payload index" "--pairs --payload none" "--payload all" \
         "--payload index --value-bytes 4" "--repeat 0" "--descending=yes" "--op add" "--predicate nonzero"; do
  # shellcheck disable=SC2086 # the words of $v are the options
  expect 2 "sort $v" -- "$cli" sort --n 100 $v
done
expect 2 "sort i32 --bits 0:64 (i64 takes it, above)" -- "$cli" sort --n 100 --type i32 --bits 0:64
expect 2 "sort --distribution with --in" -- "$cli" sort --in "$tmp/keys_up.bin" --distribution sorted
expect 2 "sort --seed with --in (keys only)" -- "$cli" sort --in "$tmp/keys_up.bin" --seed 3
expect 2 "sort --n 2^32 (refused by the library)" -- "$cli" sort --n 2^32 --repeat 1
expect 2 "sort --out in a missing folder: refused before the run" -- "$cli" sort --n 100 --out "$tmp/no/such/dir/k.bin"
check "no sort ran" -- bash -c '! grep -q "sort: n =" "$0"' "$tmp/out.txt"
expect 2 "bench --primitives sort-keys twice" -- "$cli" bench --series none --primitives sort-keys,sort-keys
expect 2 "bench --primitives sort-i64 (no such row)" -- "$cli" bench --series none --primitives sort-i64

# ---- topk (issue 36): rows of random keys against the stable CPU sort's first k ------
expect 0 "topk f32 5 rows k 50 with indices" -- "$cli" topk --n 3000 --k 50 --rows 5 --type f32 --payload index --repeat 1 --verify
check "topk f32 says OK with indices" -- grep -q "verify: OK, every row's keys and indices" "$tmp/out.txt"
expect 0 "topk i32 --smallest --input-order, k = n" -- "$cli" topk --n 1500 --k 1500 --type i32 --smallest --input-order --repeat 1 --verify
check "topk i32 says OK" -- grep -q "verify: OK" "$tmp/out.txt"
expect 0 "topk n=1 k=1 --out" -- "$cli" topk --n 1 --rows 3 --out "$tmp/topk1.bin" --repeat 1 --verify
check "topk --out holds rows x k keys" -- test "$(wc -c <"$tmp/topk1.bin")" -eq 12
expect 0 "bench --primitives topk-1024,topk-rows-50" -- "$cli" bench --series none --primitives topk-1024,topk-rows-50 \
  --min 1024 --max 1024 --runs 20 --json "$tmp/tk.json" --csv "$tmp/tk.csv" --svg "$tmp/tk.svg"
check "bench CSV: a row of each top-k with its key type" -- \
  bash -c 'grep -q "^u32,none,topk-1024,1024," "$0" && grep -q "^f32,none,topk-rows-50,1024," "$0"' "$tmp/tk.csv"
expect 2 "topk without n" -- "$cli" topk --k 5
for v in "--k 0" "--k 101" "--rows 0" "--type f16" "--type u64" "--payload all" "--payload buffer" "--smallest=yes" \
         "--in $tmp/keys_up.bin" "--descending" "--k 1.5"; do
  # shellcheck disable=SC2086 # the words of $v are the options
  expect 2 "topk $v" -- "$cli" topk --n 100 $v
done
expect 2 "topk sorted --k 5000 of 2 rows (k <= 4096 unless --input-order)" -- "$cli" topk --n 10000 --k 5000 --rows 2
expect 2 "topk --n 2^31 --rows 2 (2^32 keys)" -- "$cli" topk --n 2^31 --rows 2
check "topk refusals name the rule" -- grep -q "2^32 keys" "$tmp/err.txt"

# ---- conventions (issue 14): --help per command, --version, --opt=value -------------
for c in info scan demo reduce count compact histogram segmented-reduce segmented-scan scan-by-key reduce-by-key sort topk segmented-sort bench; do
  expect 0 "$c --help" -- "$cli" "$c" --help
  check "$c --help shows its usage" -- grep -q "usage: wgscan $c" "$tmp/out.txt"
  expect 0 "$c -h" -- "$cli" "$c" -h
  expect 0 "help $c" -- "$cli" help "$c"
done
expect 0 "--help" -- "$cli" --help
expect 0 "--version" -- "$cli" --version
check "--version prints the version" -- grep -Eq "^wgscan [0-9]+\.[0-9]+\.[0-9]+" "$tmp/out.txt"
project_version=$(sed -n 's/^project(wgscan VERSION \([0-9.]*\).*/\1/p' "$(dirname "$0")/../CMakeLists.txt")
check "--version is CMakeLists.txt's project version ($project_version)" -- \
  grep -Eq "^wgscan $project_version( |\$)" "$tmp/out.txt"
expect 0 "--opt=value" -- "$cli" scan --n=1000 --type=i32 --op=max --repeat=1 --verify
check "--opt=value took the values" -- grep -q "n = 1000, i32 max" "$tmp/out.txt"
expect 0 "--opt=value with a colon value" -- "$cli" count --n=1000 --predicate=range:10:60 --repeat=1 --verify
expect 2 "--flag=value refused" -- "$cli" scan --n 10 --verify=yes
expect 2 "an option without its value" -- "$cli" scan --n
expect 2 "unknown option" -- "$cli" scan --n 10 --frobnicate
check "the unknown option is named" -- grep -q "frobnicate" "$tmp/err.txt"
# getopt_long scans the words (issue 35, item 16): an unambiguous prefix is the option,
# an ambiguous one names the candidates, a stray word or a word after -- is refused by name.
expect 0 "an unambiguous prefix (--dist, --rep)" -- "$cli" sort --n 1000 --dist=few:3 --rep 1 --verify
check "the prefix took the value" -- grep -q "n = 1000, u32 .*few:3" "$tmp/out.txt"
expect 2 "an ambiguous prefix" -- "$cli" sort --n 10 --d
check "the candidates are named" -- grep -q "ambiguous option '--d' for sort (--descending, --distribution)" "$tmp/err.txt"
expect 2 "a prefix and the whole name: given twice" -- "$cli" sort --n 10 --dist equal --distribution equal
check "given twice names the option" -- grep -q "option --distribution given twice" "$tmp/err.txt"
expect 2 "a stray word" -- "$cli" scan --n 10 stray
check "the stray word is named" -- grep -q "unexpected argument 'stray'" "$tmp/err.txt"
expect 2 "a word after --" -- "$cli" scan --n 10 -- --verify
expect 2 "a short option" -- "$cli" scan --n 10 -v
check "the short option is named" -- grep -q "unknown option '-v'" "$tmp/err.txt"
expect 3 "runtime missing, the code named once" -- env WGSCAN_WEBGPU_LIB=/nonexistent.so "$cli" info
check "WGS_ERROR_RUNTIME_NOT_FOUND once" -- test "$(grep -o WGS_ERROR_RUNTIME_NOT_FOUND "$tmp/err.txt" | wc -l)" -eq 1
expect 2 "library refusal, the code named once" -- "$cli" reduce --n 10 --op argmin --algorithm atomic
check "WGS_ERROR_UNSUPPORTED_OPERATOR once" -- test "$(grep -o WGS_ERROR_UNSUPPORTED_OPERATOR "$tmp/err.txt" | wc -l)" -eq 1

# ---- rates in the unit that fits (issue 35, item 7): no "0.000 Gelem/s" ----------------
expect 0 "a small count's rates" -- "$cli" count --n 1000 --repeat 1
check "rates below 1 G a second in K or M" -- grep -Eq '[0-9] [KM]elem/s$' "$tmp/out.txt"
check "no rate printed as 0.xxx of its unit" -- bash -c '! grep -Eq " 0\.[0-9]+ [KMGTP]?elem/s" "$0"' "$tmp/out.txt"

# ---- features by name (issue 35, item 12) -------------------------------------------
expect 0 "info" -- "$cli" info
check "info names the features it knows" -- bash -c 'sed -n "/^adapter offers:/,/^limits/p" "$0" | grep -Eq "(depth-clip-control|timestamp-query|subgroups|dawn-native)"' "$tmp/out.txt"
check "no standard feature as a number" -- bash -c '! sed -n "/^adapter offers:/,/^limits/p" "$0" | grep -Eq "\b0x([1-9a-f]|1[0-2])\b"' "$tmp/out.txt"

# ---- a CPU driver's timings (issue 35, item 13): said to mean nothing for a GPU -------
expect 0 "info" -- "$cli" info
if grep -q "cpu adapter" "$tmp/out.txt"; then
  check "info on a CPU driver says its timings are no GPU's" -- grep -q "^note         : a CPU driver (no GPU in use)" "$tmp/out.txt"
  if [ -n "${WGSCAN_TEST_LONG:-}" ] && [ "$WGSCAN_TEST_LONG" != 0 ]; then # the demo takes half a minute here
    expect 0 "demo" -- "$cli" demo
    check "demo on a CPU driver: the note, and the reminder at the end" -- \
      bash -c 'grep -q "^note         : a CPU driver" "$0" && tail -1 "$0" | grep -q "the timings do not"' "$tmp/out.txt"
  fi
else
  check "info on a GPU: no CPU driver's note" -- bash -c '! grep -q "^note         : a CPU driver" "$0"' "$tmp/out.txt"
fi

# ---- one number parser (issue 35, item 9): every operand reads 2^31, 16M, -1.5K ------
expect 0 "count --predicate lt:2^31" -- "$cli" count --n 1000 --predicate lt:2^31 --repeat 1 --verify
check "every u32 of 0..99 is below 2^31" -- grep -q "count: 1000 of 1000" "$tmp/out.txt"
expect 0 "count i32 --predicate range:-2^31:1K" -- "$cli" count --n 1000 --type i32 --predicate range:-2^31:1K --repeat 1 --verify
expect 0 "histogram --lower -2^31 --upper 2^31" -- "$cli" histogram --n 1000 --type i32 --lower -2^31 --upper 2^31 --repeat 1 --verify
expect 0 "sort --bits 0:2^4 --value-bytes 2^3" -- "$cli" sort --n 1000 --bits 0:2^4 --pairs --value-bytes 2^3 --repeat 1 --verify
check "--bits 0:2^4 is bits 0..15" -- grep -q "bits 0..15" "$tmp/out.txt"
expect 2 "count --predicate lt:2^" -- "$cli" count --n 10 --predicate lt:2^
expect 2 "count --predicate lt:--5" -- "$cli" count --n 10 --predicate lt:--5
expect 2 "sort --bits 1.5:20" -- "$cli" sort --n 10 --bits 1.5:20

# ---- the random inputs (issue 35, item 8): documented, chosen by the user ------------
expect 0 "count --help" -- "$cli" count --help
check "count --help says what the default input is" -- grep -q "default input (from --seed): u32 uniform in 0..99" "$tmp/out.txt"
for c in scan reduce histogram segmented-reduce scan-by-key; do
  expect 0 "$c --help" -- "$cli" $c --help
  check "$c --help says what the default input is and offers --distribution" -- \
    bash -c 'grep -q "^  default input (from --seed): " "$0" && grep -q "^  --distribution D" "$0"' "$tmp/out.txt"
done
expect 0 "count --distribution uniform:0:2000 --predicate gt:999" -- "$cli" count --n 10000 --distribution uniform:0:2000 --predicate gt:999 --seed 5 --repeat 1 --verify
check "about half the elements are above 999" -- bash -c 'c=$(sed -n "s/^  count: \([0-9]*\) of 10000/\1/p" "$0"); [ "$c" -gt 4500 ] && [ "$c" -lt 5500 ]' "$tmp/out.txt"
expect 0 "scan i32 over the whole range" -- "$cli" scan --n 10000 --type i32 --distribution uniform:-2^31:2^31 --repeat 1 --verify
expect 0 "reduce f32 max of uniform:-1.5:1e3" -- "$cli" reduce --n 10000 --type f32 --op max --distribution uniform:-1.5:1e3 --repeat 1 --verify
check "the max lies in [-1.5, 1000)" -- bash -c 'v=$(sed -n "s/^  result: \([-0-9.e+]*\).*/\1/p" "$0"); python3 -c "import sys; v = float(sys.argv[1]); assert 990 < v < 1000, v" "$v"' "$tmp/out.txt"
expect 0 "histogram of a seeded uniform input, twice the same" -- "$cli" histogram --n 1000 --distribution uniform:0:256 --bins 256 --lower 0 --upper 256 --seed 9 --repeat 1 --out "$tmp/h1.bin" --verify
expect 0 "the same seed" -- "$cli" histogram --n 1000 --distribution uniform:0:256 --bins 256 --lower 0 --upper 256 --seed 9 --repeat 1 --out "$tmp/h2.bin"
check "one seed, one input" -- cmp -s "$tmp/h1.bin" "$tmp/h2.bin"
for d in uniform:5:5 uniform:0:2^33 uniform:-1:5 uniform:0.5:3 uniform:: uniform:1 uniform:0:inf uniform:nan:1 unif; do
  expect 2 "count --distribution $d (u32)" -- "$cli" count --n 10 --distribution "$d"
done
expect 2 "--distribution uniform for i32 past 2^31" -- "$cli" scan --n 10 --type i32 --distribution uniform:0:2147483649
expect 2 "--distribution uniform for f16" -- "$cli" scan --n 10 --type f16 --distribution uniform:0:1
expect 2 "--distribution with --in" -- "$cli" scan --in "$tmp/ones8.bin" --distribution uniform:0:10

# ---- names and help (issue 35, item 11) ---------------------------------------------
expect 0 "select (the APIs' name for compact)" -- "$cli" select --n 1000 --predicate lt:50 --repeat 1 --verify
check "select ran the compaction" -- grep -q "verify: OK" "$tmp/out.txt"
expect 0 "help select" -- "$cli" help select
for c in info demo scan reduce count compact select histogram segmented-reduce segmented-scan scan-by-key reduce-by-key sort topk bench; do
  "$cli" "$c" --help >"$tmp/help.txt" 2>&1
  check "$c --help: a description under the usage" -- bash -c 'sed -n 2p "$0" | grep -Eq "^[a-z]"' "$tmp/help.txt"
  check "$c --help: no option listed twice" -- bash -c '[ -z "$(grep -oE "^  --[a-z0-9-]+" "$0" | sort | uniq -d)" ]' "$tmp/help.txt"
done
"$cli" help >"$tmp/help.txt" 2>&1
check "the command list's descriptions start in one column" -- bash -c '
  [ "$(sed -n "/^commands:/,/^\$/p" "$0" | grep -E "^  [a-z-]" | sed -E "s/^(  [^ ]+( \[[a-z]+\])? +).*/\1/" | awk "{ print length }" | sort -u | wc -l)" = 1 ]' "$tmp/help.txt"
expect 0 "segmented-reduce --segments FILE" -- "$cli" segmented-reduce --in "$tmp/ones32.bin" --segments "$tmp/offsets.bin" --out "$tmp/sred.bin" --repeat 1 --verify
check "segmented-reduce FILE: the sums 10, 0, 480, 400" -- test "$(od -An -tu4 "$tmp/sred.bin" | tr -s ' ' | sed 's/^ //')" = "10 0 480 400"
expect 2 "segmented-reduce offsets out of order: the GPU's status" -- "$cli" segmented-reduce --n 100 --segments "$tmp/bad_offsets.bin" --repeat 1
check "segmented-reduce out of order: the status named" -- grep -q "WGS_ERROR_SEGMENTS_UNORDERED" "$tmp/err.txt"
python3 -c 'import struct, sys; k = [7] * 3 + [2] * 5 + [7] * 2 + [9] * 990; sys.stdout.buffer.write(struct.pack("<1000I", *k))' >"$tmp/keys.bin"
expect 0 "reduce-by-key --keys FILE" -- "$cli" reduce-by-key --in "$tmp/ones32.bin" --keys "$tmp/keys.bin" --out "$tmp/rbk.bin" --repeat 1 --verify
check "reduce-by-key --keys: runs 3, 5, 2, 990" -- test "$(od -An -tu4 "$tmp/rbk.bin" | tr -s ' ' | sed 's/^ //')" = "3 5 2 990"
expect 0 "scan-by-key --keys FILE" -- "$cli" scan-by-key --n 1000 --keys "$tmp/keys.bin" --inclusive --type i32 --op max --repeat 1 --verify
check "scan-by-key --keys: 4 runs" -- grep -q "runs: 4 (mean length 250.0), 0 elements differ" "$tmp/out.txt"
expect 2 "--keys of another n" -- "$cli" scan-by-key --n 999 --keys "$tmp/keys.bin"
expect 2 "--keys and --segments" -- "$cli" reduce-by-key --n 1000 --keys "$tmp/keys.bin" --segments 4
expect 2 "--keys of a segmented reduce" -- "$cli" segmented-reduce --n 1000 --keys "$tmp/keys.bin"

# ---- progress on a terminal (issue 35, item 6) --------------------------------------
# Ten scans of 2^20 take seconds on a CPU driver: on a terminal (script gives the command
# a pty) a progress line shows after 1.5 s and is cleared before the results; piped, or
# with WGSCAN_PROGRESS=0, nothing. Where the whole run is shorter, there is nothing to see.
expect 0 "scan, piped: no progress" -- "$cli" scan --n 2^20 --repeat 10 --verify
check "piped: stderr empty" -- test ! -s "$tmp/err.txt"
if command -v script >/dev/null; then
  start=$(date +%s%N)
  expect 0 "scan on a terminal" -- script -qec "$cli scan --n 2^20 --repeat 10 --verify" /dev/null
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  if [ "$ms" -gt 2500 ]; then
    check "a progress line on the terminal" -- grep -q "wgscan: scan: .*, [0-9]* s" "$tmp/out.txt"
    check "the results on lines of their own" -- bash -c 'grep -a "verify: OK" "$0" | grep -vq "wgscan: scan:"' "$tmp/out.txt"
    expect 0 "scan on a terminal, WGSCAN_PROGRESS=0" -- env WGSCAN_PROGRESS=0 script -qec "$cli scan --n 2^20 --repeat 10" /dev/null
    check "WGSCAN_PROGRESS=0: no progress" -- bash -c '! grep -q "wgscan: scan:" "$0"' "$tmp/out.txt"
  else
    echo "[ SKIP ] progress: the scan took ${ms} ms"
  fi
fi

# ---- the examples (beside the CLI in the build tree): --help, unknown options refused --
ex=$(dirname "$cli")/examples
if [ -x "$ex/particles" ] && [ -x "$ex/allocator" ] && [ -x "$ex/block_sparse" ] && [ -x "$ex/binning" ]; then
  for e in particles:--n allocator:--requests block_sparse:--blocks binning:--particles; do
    opt=${e#*:} e=${e%%:*}
    expect 0 "$e --help" -- "$ex/$e" --help
    check "$e --help shows its usage" -- grep -q "usage: $e" "$tmp/out.txt"
    expect 2 "$e with an unknown option" -- "$ex/$e" --bogus
    expect 2 "$e $opt without its value" -- "$ex/$e" "$opt"
  done
  expect 2 "particles --frames 0x10" -- "$ex/particles" --frames 0x10
  expect 2 "allocator --frames 0" -- "$ex/allocator" --frames 0
  expect 2 "block_sparse --blocks 9000" -- "$ex/block_sparse" --blocks 9000
  expect 0 "block_sparse, small" -- "$ex/block_sparse" --blocks 64 --masks 1
  expect 2 "binning --grid 257" -- "$ex/binning" --grid 257
  expect 0 "binning, a 2^3 grid (neighbour cells wrap onto each other)" -- "$ex/binning" --particles 3000 --grid 2 --frames 3
else
  echo "[ SKIP ] the examples (not built beside $cli)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
