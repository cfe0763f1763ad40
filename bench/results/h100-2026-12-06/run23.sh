#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 23 (2026-12-06, eighth session), at most 120 s: js-probe.mjs (why bench.mjs's copy
# of 2^28 u32 takes 1285 us under Dawn for Node against 724 for js-copy.mjs's same
# kernel), with the native copy beside it. Run 24 is this script again after js-probe.mjs
# took its present form (0-6 GiB more, written or not, then freed; one device): run24.log.
# Carry: .gl .jsrt build/wgscan node_modules/bun-webgpu-linux-x64
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/jsrt
xz -dc .jsrt/node.xz > /tmp/jsrt/node && chmod +x /tmp/jsrt/node
xz -dc .jsrt/webgpu.tar.xz | tar -C node_modules -xf -
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
L=$OUT/run23.log
timeout 40 build/wgscan bench --series none --primitives reduce-tree --min 2^28 --max 2^28 --runs 20 \
  --csv /dev/stdout --json /tmp/n.json --svg /tmp/n.svg 2>&1 | grep -E "^u32,|rror" > $L
timeout 90 /tmp/jsrt/node bench/results/h100-2026-12-06/js-probe.mjs 2>&1 | grep -v XDG >> $L
cat $L
