#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 50 (issue 36, thirteenth session): where the segmented sort's time goes at 2^26
# u32 keys, and ss_tiny's one walk a lane (its held keys ranked together) against the
# walk a key. build/wgscan-diag is a local build of the tree before ss_tiny's change
# with environment switches that leave parts of the large path out (DIAG_NOLARGE:
# none of it; DIAG_NOSCAN: the check's lengths written, nothing after; DIAG_NOSORT:
# all but its two radix sorts), not committed: timing only. Then the suite.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run50
D() { # label envs args...: as S, with build/wgscan-diag
  local lab=$1 envs=$2 t; shift 2
  [ "$envs" = - ] && envs=
  t=$(env $envs timeout 60 build/wgscan-diag "$@" 2>&1 | grep -E "GPU|rror|verify|^wgscan:" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$envs] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
S warm - segmented-sort --n 1048576 --segments 4096 --repeat 2
D warm - segmented-sort --n 1048576 --segments 4096 --repeat 2
for len in 16 4096; do
  for e in - DIAG_NOLARGE=1 DIAG_NOSCAN=1 DIAG_NOSORT=1; do
    D diag $e segmented-sort --n 67108864 --segments $len --repeat 20
  done
done
for len in 16 32 random:16 8; do
  D tiny-old - segmented-sort --n 67108864 --segments $len --repeat 20 --path small
  S tiny-new - segmented-sort --n 67108864 --segments $len --repeat 20 --path small
done
S tiny-new - segmented-sort --n 67108864 --segments 16 --repeat 20
S verify - segmented-sort --n 16777219 --segments random:20 --repeat 1 --verify --payload index
suite ${SUITE_UNTIL:-590}
cat $L
