#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 25 (2026-12-06, eighth session), at most 100 s: js-probe2.mjs, one process a mode
# (MODES, default alloc-free first pieces sizes; run 26: MODES="first3 first3-free after6";
# run 27: MODES="unwritten3 rewrite3"; each run's log is run25.log, kept as run2N.log)
# (what turns Dawn for Node's copy from 724 to 1280 us for the rest of a process, run24).
# Carry: .gl .jsrt node_modules/bun-webgpu-linux-x64
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/jsrt
xz -dc .jsrt/node.xz > /tmp/jsrt/node && chmod +x /tmp/jsrt/node
xz -dc .jsrt/webgpu.tar.xz | tar -C node_modules -xf -
L=$OUT/run25.log
: > $L
for m in ${MODES:-alloc-free first pieces sizes}; do
  timeout 25 /tmp/jsrt/node bench/results/h100-2026-12-06/js-probe2.mjs $m 2>&1 | grep -E "^$m|rror" >> $L
done
nvidia-smi --query-gpu=memory.used,memory.total --format=csv >> $L
cat $L
