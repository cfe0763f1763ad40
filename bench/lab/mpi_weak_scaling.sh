#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Weak scaling of the distributed layer on one machine: the scan, the sort of keys and
# the sort of key-value pairs, 2^28 u32 keys a rank, on 1, 2 and 4 ranks, each run
# verified; prints the slowest rank's phase times (local GPU, host transfers, MPI) and
# the efficiency t(1 rank) / t(P ranks) of the median wall time.
#   bench/lab/mpi_weak_scaling.sh BUILD [KEYS_A_RANK]      (default 2^28)
# Ranks on one machine share its GPU (Dawn lists one adapter, so every rank takes the
# same one): there the efficiency measures how the ranks share the GPU, the host
# transfers and the memory bus, not a network. Memory, 4 ranks at 2^28: GPU about
# 6 GB a rank for the sort of pairs (keys and values with room for the balance bound,
# 1.31 x 2^28 at 4 ranks, the sort's second copy, its digit counts), host about 8 GB a
# rank (the program's arrays, the library's downloaded slice and received part): 24
# and 32 GB in all; the scan needs less. A few minutes in all on the H200.
# REPEAT=K sets the timed runs of each case (default 3).
set -u
build=${1:?usage: bench/lab/mpi_weak_scaling.sh BUILD [KEYS_A_RANK]}
n=${2:-2^28}
bin=$build/wgscan-mpi
if ! command -v mpirun >/dev/null 2>&1; then
  echo "mpirun is not installed: no distributed run is possible here." >&2
  echo "Install Open MPI (Debian: apt-get install openmpi-bin libopenmpi-dev; 'make deps' does it)," >&2
  echo "reconfigure and rebuild $build so that CMake finds MPI and builds wgscan-mpi, then run this again." >&2
  exit 2
fi
if [ ! -x "$bin" ]; then
  echo "$bin is missing: $build was configured without MPI (cmake -B $build, with Open MPI installed)." >&2
  exit 2
fi
# Open MPI refuses root unless told; 4 ranks may exceed the cores it counts.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader
free -g | head -2
git -C "$(dirname "$0")" log -1 --format='commit %h %s' 2>/dev/null
status=0
run_case() { # run_case NAME ARGS...
  local name=$1; shift
  local t1=""
  echo "== $name: $n keys a rank"
  for np in 1 2 4; do
    local out rc
    out=$(timeout 900 mpirun -np $np "$bin" "$@" --n "$n" --repeat "${REPEAT:-3}" --verify 2>&1); rc=$?
    local wall phases verify
    wall=$(sed -n 's/.*median of [0-9]* *\([0-9.]*\) ms.*/\1/p' <<<"$out")
    phases=$(sed -n 's/.*slowest rank: //p' <<<"$out")
    verify=$(sed -n 's/.*verify: \([A-Z]*\).*/\1/p' <<<"$out")
    if [ $rc -ne 0 ] || [ -z "$wall" ] || [ "$verify" != OK ]; then
      echo "  $np ranks: FAILED (rc $rc)"; sed 's/^/    /' <<<"$out" | tail -12; status=1; continue
    fi
    [ $np -eq 1 ] && t1=$wall
    local eff="n/a"
    [ -n "$t1" ] && eff=$(awk -v a="$t1" -v b="$wall" 'BEGIN { printf "%.3f", a / b }')
    printf '  %d ranks: wall %10.3f ms  efficiency %s  verified  (%s)\n' $np "$wall" "$eff" "$phases"
    grep -E "balance:" <<<"$out" | sed 's/^ */    /'
  done
}
run_case "scan (u32, exclusive add)" scan
run_case "sort (u32 keys)" sort
run_case "sort (u32 keys, 4-byte values)" sort --values 4
exit $status
