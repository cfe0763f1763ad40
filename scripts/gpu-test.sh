#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite on the GPU machine (NVIDIA H200), in one call of the device tool,
# from the project root there, with .gl/, the build folder and the Dawn runtime's folder
# carried along:
#   scripts/gpu-test.sh [build folder]      (default: build)
# It unpacks the Vulkan loader carried in .gl/, makes the paths that ctest recorded on
# the build machine resolve to this copy of the tree, and runs every ctest test that
# needs no browser or package tools (browser*, node*, install, webgpu_header: Node, npm
# and a compiler are not there; scripts/gpu-js.sh carries Node for the node tests).
# Extra ctest arguments come from CTEST_ARGS (e.g. CTEST_ARGS='-R scan').
set -u
build=${1:-build}
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export WGSCAN_WEBGPU_LIB="$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so"
src=$(sed -n 's/^# Source directory: //p' "$build/CTestTestfile.cmake")
bin=$(sed -n 's/^# Build directory: //p' "$build/CTestTestfile.cmake")
for pair in "$src:$PWD" "$bin:$PWD/$build"; do
  from=${pair%%:*} to=${pair#*:}
  if [ -n "$from" ] && [ "$from" != "$to" ] && [ ! -e "$from" ]; then
    mkdir -p "$(dirname "$from")" && ln -s "$to" "$from"
  fi
done
"$build/wgscan" info | head -4
cd "$build" && ctest --output-on-failure -E '^(browser.*|node.*|install|webgpu_header)$' ${CTEST_ARGS:-}
