#!/usr/bin/env bash
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
expect 0 "scan and verify" -- "$cli" scan --n 131073 --repeat 2 --verify
expect 0 "scan 2^17 i32 max inclusive" -- "$cli" scan --n 2^17 --type i32 --op max --inclusive --repeat 2 --verify
grep -q "verify: OK" "$tmp/out.txt" || { failed=$((failed + 1)); echo "[ FAIL ] verify line"; }
expect 0 "scan n=0" -- "$cli" scan --n 0

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

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
