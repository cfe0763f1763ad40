#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 75: on an H200, run69-js.sh (issue 34: the package beside native, the splat sort,
# the Node test on the GPU); on any other GPU, run73.sh (issue 32's candidates).
# Carry: .gl .jsrt build/wgscan build/web/wgscan.wasm node_modules/bun-webgpu-linux-x64
# (cmp/ travels untracked).
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  exec bash bench/results/h100-next/run69-js.sh
else
  exec bash bench/results/h100-next/run73.sh
fi
