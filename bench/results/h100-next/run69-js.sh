#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 69 (issue 34; for an H200): run48-js.sh without its laboratory part, on the tree
# whose pairs sort by one-sweep (the splat sort's path): each primitive through the
# package under Dawn for Node beside the native `wgscan bench` at 2^24, the host time of
# one encode, the splat sort and pairs at 2^20 to 2^24, then the package's Node test on
# the GPU. About 250 s. Carry: .gl .jsrt build/wgscan build/web/wgscan.wasm
# node_modules/bun-webgpu-linux-x64.
sed -e '/lab48.sh/d' -e 's/lib.sh run48$/lib.sh run69/' bench/results/h100-next/run48-js.sh > /tmp/run69-body.sh
NODE_TEST=1 bash /tmp/run69-body.sh
