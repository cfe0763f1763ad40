#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what wgscan needs on a fresh Debian 12 machine, and nothing twice:
#   - Debian packages: the C toolchain, CMake, pkg-config, the Vulkan loader, chromium
#     (its SwiftShader Vulkan driver is the CPU fallback adapter, and the browser test
#     runs in it), firefox-esr (the browser test's other WebGPU engine, wgpu + Naga) and
#     mesa-vulkan-drivers (lavapipe, a CPU Vulkan driver with shader-f16, for Firefox's
#     f16 test), clang + lld + wasi-libc for the WebAssembly build, clang's runtime
#     libraries (libclang-rt-14-dev: libFuzzer and the sanitizers) for tests/fuzz, Open
#     MPI (openmpi-bin, libopenmpi-dev) for the distributed layer and its test;
#   - with `npm ci` from the committed package-lock.json: the pinned Dawn runtime (npm
#     bun-webgpu-linux-x64 0.1.7); playwright-core and puppeteer-core, which drive
#     Debian's chromium and firefox-esr (neither downloads a browser); typescript and
#     @webgpu/types for the npm package's type check; webgpu (Dawn for Node) for the
#     package's test under Node.
# Run as root (or with sudo available). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libvulkan1 chromium ca-certificates
          firefox-esr mesa-vulkan-drivers
          clang lld wasi-libc libclang-rt-14-dev-wasm32 libclang-rt-14-dev
          openmpi-bin libopenmpi-dev)
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

lib=node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
stamp=node_modules/.wgscan-lock
if [ ! -f "$lib" ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/puppeteer-core ] ||
   ! cmp -s package-lock.json "$stamp"; then
  echo "install-deps: npm ci (pinned Dawn runtime, playwright-core, puppeteer-core, typescript)"
  # The system's browsers only: no package may fetch one.
  PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi
