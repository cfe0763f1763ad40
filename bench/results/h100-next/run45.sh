#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 45 (issue 32): the one-sweep sort with its tuning row's look-back (four states a
# read, 256 spins; until this tree every sort read one state and gave up after 16:
# the context's defaults), DEFAULT's one-sweep up to 2^21 keys; then the whole suite.
# SUITE_UNTIL: seconds from the start by which the suite must end (default 590).
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
out=${OUT:-out}
L=$out/run45.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log -1 --format=%h 2>/dev/null; } > $L
S() { # label, env assignments (or -), args: the GPU line
  local lab=$1 envs=$2 t; shift 2
  [ "$envs" = - ] && envs=
  t=$(env $envs timeout 60 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$envs] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
S keys - sort --n 268435456 --repeat 10
S keys - sort --n 268435456 --repeat 10 --algorithm onesweep
for e in 20 21 24; do
  S keys - sort --n $((1 << e)) --repeat 50
  S keys - sort --n $((1 << e)) --repeat 50 --algorithm onesweep
  S pairs - sort --n $((1 << e)) --repeat 50 --payload index
done
S verify - sort --n 2097151 --repeat 1 --payload index --type f32 --verify
CTEST_ARGS=-j12 timeout $(( ${SUITE_UNTIL:-590} - ($(date +%s) - start) )) bash scripts/gpu-test.sh build > $out/suite.log 2>&1
echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -E "tests passed|Failed|SEGFAULT|CRASH|Exception|\*\*\*" $out/suite.log >> $L
cat $L
