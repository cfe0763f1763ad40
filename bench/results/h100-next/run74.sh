#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 74: on an H200, run68.sh (every target of issues 32, 33, 36 beside CUB, then the
# whole suite); on any other GPU, run73.sh (issue 32's candidates against head).
# Carry: .gl, build, cmp, node_modules/bun-webgpu-linux-x64.
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  exec bash bench/results/h100-next/run68.sh
else
  exec bash bench/results/h100-next/run73.sh
fi
