#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The distributed primitives under mpirun with 1, 2, 3 and 4 ranks on the default
# adapter (SwiftShader on a CPU-only machine, where CI runs; the ranks share a GPU
# where there is one; WGSCAN_MPI_TEST_ARGS=--cpu forces SwiftShader), oversubscribed:
# this machine may have fewer cores than ranks. Every part is verified by
# each rank against the CPU reference: uneven slices, empty ranks, every command, and a
# rank that fails (every rank must return the same error, none may hang). Small n: the
# ranks share this machine's cores.
#   tests/test_mpi.sh build/wgscan-mpi [mpirun]
set -u
bin=$1
mpirun=${2:-mpirun}
# Open MPI refuses root unless told; CI runs as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
passed=0 failed=0
check() { # check NP WANT_OUTPUT ARGS...
  local np=$1 want=$2; shift 2
  local out
  out=$(timeout 120 "$mpirun" -np "$np" "$bin" "$@" ${WGSCAN_MPI_TEST_ARGS:-} --repeat 1 2>&1)
  local rc=$?
  if [ $rc -eq 0 ] && grep -q "$want" <<<"$out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL (rc $rc): -np $np $* (wanted '$want')"
    sed 's/^/    /' <<<"$out" | tail -8
  fi
}
ok="verify: OK"
for np in 1 2 3 4; do
  check $np "$ok" scan --n 4099 --verify
  check $np "$ok" scan --n 30011 --uneven --type f32 --inclusive --verify
  check $np "$ok" reduce --n 20000 --uneven --op argmax --type i32 --verify
done
check 3 "$ok" scan --n 5000 --empty 1 --type i32 --op max --verify
check 4 "$ok" scan --n 3 --empty 0 --op xor --inclusive --verify
check 2 "$ok" scan --n 0 --verify
check 3 "$ok" reduce --n 10007 --type f32 --op add --verify
check 4 "$ok" reduce --n 10007 --type f32 --op argmin --empty 2 --verify
check 3 "$ok" reduce --n 5000 --op min --empty 0 --verify
check 2 "$ok" reduce --n 0 --op argmax --verify
check 3 "$ok" count --n 20001 --uneven --verify
check 4 "$ok" count --n 9000 --type f32 --empty 3 --verify
check 3 "$ok" histogram --n 20001 --bins 100 --uneven --verify
check 4 "$ok" histogram --n 7000 --type f32 --bins 7 --empty 1 --verify
# Compaction: flags and predicates, in place and rebalanced, payloads, empty ranks.
check 1 "$ok" compact --n 3001 --uneven --verify
check 2 "$ok" compact --n 2999 --select if --type f32 --rebalance --verify
check 3 "$ok" compact --n 4000 --select if --type i32 --empty 1 --verify
check 3 "$ok" compact --n 3001 --uneven --rebalance --verify
check 4 "$ok" compact --n 1000 --rebalance --payload --empty 0 --uneven --verify
check 3 "$ok" compact --n 1 --rebalance --verify
check 2 "$ok" compact --n 0 --rebalance --verify
# Sort: every key type, both orders, values of 4 and 8 bytes, equal and few distinct keys
# (the balance bound is checked in every run), uneven and empty slices. Few runs: each
# rank compiles the sort's pipelines, seconds on SwiftShader.
check 1 "$ok" sort --n 3001 --type i32 --descending --values 4 --verify
check 2 "$ok" sort --n 2000 --type u64 --keys equal --values 8 --uneven --verify
check 3 "$ok" sort --n 2000 --type i64 --descending --keys few --values 4 --empty 1 --verify
check 4 "$ok" sort --n 1500 --type f32 --values 8 --uneven --empty 0 --verify
check 3 "$ok" sort --n 3 --keys equal --empty 1 --verify
check 2 "$ok" sort --n 0 --values 4 --verify
# A rank that fails: the others return its error.
for cmd in scan reduce count histogram; do
  check 3 "returned WGS_ERROR_UNSUPPORTED_TYPE (agreed)" $cmd --n 1000 --fail-rank 1
done
check 4 "returned WGS_ERROR_UNSUPPORTED_TYPE (agreed)" scan --n 1000 --fail-rank 0
check 3 "returned WGS_ERROR_UNSUPPORTED_TYPE (agreed)" compact --n 1000 --rebalance --fail-rank 2
check 4 "returned WGS_ERROR_UNSUPPORTED_TYPE (agreed)" sort --n 1000 --values 4 --fail-rank 3
# A rank whose share does not fit its output (an empty rank that keeps room for none).
check 3 "returned WGS_ERROR_BUFFER_TOO_SMALL (agreed)" compact --n 1000 --rebalance --empty 1 --tight 1
check 3 "returned WGS_ERROR_BUFFER_TOO_SMALL (agreed)" sort --n 1000 --empty 2 --tight 2
# Usage errors exit 2 without running.
out=$("$mpirun" -np 1 "$bin" merge --n 10 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "unknown command" <<<"$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: unknown command"; fi
out=$("$mpirun" -np 1 "$bin" scan --n 10 --op argmax 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "does not go" <<<"$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: argmax scan"; fi
out=$("$mpirun" -np 1 "$bin" scan --n 10 --type u64 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "only with sort" <<<"$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: u64 scan"; fi
out=$("$mpirun" -np 1 "$bin" sort --n 10 --values 3 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "bad --values" <<<"$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: --values 3"; fi
out=$("$mpirun" -np 1 "$bin" compact --n 10 --tight 0 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "goes with" <<<"$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: --tight without --rebalance"; fi
# What the distributed select and sort refuse: every rank returns the exact code.
out=$(timeout 120 "$mpirun" -np 2 "$bin" compact --n 100 --select unique ${WGSCAN_MPI_TEST_ARGS:-} 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "compact failed: WGS_ERROR_INVALID_ARGUMENT" <<<"$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: compact --select unique (rc $rc)"; fi
out=$(timeout 120 "$mpirun" -np 3 "$bin" sort --n 100 --values index ${WGSCAN_MPI_TEST_ARGS:-} 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "sort failed: WGS_ERROR_INVALID_ARGUMENT" <<<"$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: sort --values index (rc $rc)"; fi
# Sizes are read as wgscan reads them; values past the ranges, signs, zero bins or
# repeats and ranks past the last are usage errors (exit 2, before any rank starts
# work), also where only one rank of several was given them.
refused() { # refused WANT_OUTPUT MPIRUN_ARGS...
  local want=$1; shift
  out=$(timeout 60 "$mpirun" "$@" 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -q -- "$want" <<<"$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL (rc $rc): $* (wanted exit 2 and '$want')"; sed 's/^/    /' <<<"$out" | tail -4; fi
}
refused "bad --n '-1'" -np 1 "$bin" scan --n -1
refused "bad --n '17592186044416M'" -np 1 "$bin" scan --n 17592186044416M
refused "bad --n '2^41'" -np 1 "$bin" count --n 2^41
refused "bad --bins '0'" -np 1 "$bin" histogram --n 10 --bins 0
refused "bad --repeat '0'" -np 1 "$bin" scan --n 10 --repeat 0
refused "bad --empty '2'" -np 2 "$bin" scan --n 10 --empty 2
refused "bad --n '-1'" -np 1 "$bin" scan --n 10 : -np 1 "$bin" scan --n -1
# A slice no device holds fails on every rank before host memory is asked for it.
out=$(timeout 60 "$mpirun" -np 2 "$bin" scan --n 2^40 ${WGSCAN_MPI_TEST_ARGS:-} 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "setting up the slices failed: WGS_ERROR_TOO_LARGE" <<<"$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL (rc $rc): scan --n 2^40"; sed 's/^/    /' <<<"$out" | tail -4; fi
# Ranks whose descriptions differ (mpirun gives each its own arguments) all return the
# same error, before anything moves between them.
differ() { # differ COMMAND FIELD ARGS_RANK0 -- ARGS_RANK1
  local cmd=$1 field=$2; shift 2
  local a=() b=()
  while [ "$1" != -- ]; do a+=("$1"); shift; done; shift; b=("$@")
  out=$(timeout 60 "$mpirun" -np 1 "$bin" "${a[@]}" ${WGSCAN_MPI_TEST_ARGS:-} : -np 1 "$bin" "${b[@]}" ${WGSCAN_MPI_TEST_ARGS:-} 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -q "$cmd failed: WGS_ERROR_INVALID_ARGUMENT" <<<"$out" &&
     [ "$(grep -c "descriptions differ in $field" <<<"$out")" -eq 2 ]; then passed=$((passed + 1))
  else failed=$((failed + 1)); echo "FAIL (rc $rc): ranks differ in $field: ${a[*]} : ${b[*]}"; sed 's/^/    /' <<<"$out" | tail -4; fi
}
differ sort "key type" sort --n 1000 --type u64 -- sort --n 1000 --type u32
differ histogram bins histogram --n 1000 --bins 10 -- histogram --n 1000 --bins 20
# main.c calls into moves.c, never the reverse (the objects of a CMake build beside the
# program): nothing main.c's object defines is left undefined in moves.c's.
objs=$(dirname "$bin")/CMakeFiles/wgscan_mpi_cli.dir/programs/wgscan-mpi
if [ -f "$objs/main.c.o" ] && [ -f "$objs/moves.c.o" ] && command -v nm >/dev/null; then
  back=$(comm -12 <(nm -g --defined-only "$objs/main.c.o" | awk '{print $3}' | sort) <(nm -u "$objs/moves.c.o" | awk '{print $2}' | sort))
  if [ -z "$back" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: moves.c calls main.c:" $back; fi
else
  echo "skipped: the dependency of moves.c on main.c (no objects at $objs)"
fi
out=$("$mpirun" -np 1 "$bin" scan --help 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "usage" <<<"$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: --help"; fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
