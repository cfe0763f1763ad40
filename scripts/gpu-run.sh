#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What we run on the GPU machine (NVIDIA H200, no Vulkan loader installed there):
# unpack the loader carried in .gl/, point wgscan at the carried Dawn, then run the
# given commands. Used as: scripts/gpu-run.sh 'build/wgscan info' 'build/wgscan scan ...'
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export WGSCAN_WEBGPU_LIB="$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so"
for cmd in "$@"; do
  echo "\$ $cmd"
  bash -c "$cmd"
  echo "[exit $?]"
done
