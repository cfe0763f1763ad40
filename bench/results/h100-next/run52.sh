#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 52 (issue 36, thirteenth session): ss_tiny's one walk a lane as one loop with
# branches on the held keys (run50's loop a shape lost where a warp's segments differ
# in length) against the walk a key (build/wgscan-diag, the tree before the change),
# the small path alone at 2^26 u32 keys; the default path beside; the suite; other tiles for
# the listed and the block segments after the suite.
# Carry: .gl, build, node_modules/bun-webgpu-linux-x64.
. bench/results/h100-next/lib.sh run52
D() { # label envs args...: as S, with build/wgscan-diag (a local build; skipped without it)
  [ -x build/wgscan-diag ] || { echo "$1: no build/wgscan-diag" >> $L; return; }
  P build/wgscan-diag "$@"
}
S warm - segmented-sort --n 1048576 --segments 4096 --repeat 2
D warm - segmented-sort --n 1048576 --segments 4096 --repeat 2
for len in 8 16 32 random:16 random:8; do
  D tiny-old - segmented-sort --n 67108864 --segments $len --repeat 20 --path small
  S tiny-new - segmented-sort --n 67108864 --segments $len --repeat 20 --path small
done
for len in 16 256 4096 65536; do
  S default - segmented-sort --n 67108864 --segments $len --repeat 20
done
S verify - segmented-sort --n 16777219 --segments random:12 --repeat 1 --verify --pairs --type i64 --value-bytes 8
suite ${SUITE_UNTIL:-590}
# Other tiles for the listed segments (wg,items: 4096 keys each) and the block path
# (block wg,block items), which the tuning row fixes at 256 x 16 and 256 x 8.
for t in 512,8 1024,4 128,32; do
  for len in 256 4096; do
    S tune WGSCAN_TUNE_SEGSORT=$t segmented-sort --n 67108864 --segments $len --repeat 20
  done
done
for t in 256,16,512,8 256,16,512,4 256,16,128,16 256,16,1024,4; do
  S tune WGSCAN_TUNE_SEGSORT=$t segmented-sort --n 67108864 --segments 65536 --repeat 20
done
cat $L
