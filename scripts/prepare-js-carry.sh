#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Packs what the JavaScript package needs on the GPU machine, which has no Node: this
# machine's Node binary (the official x86-64 build, self-contained) and Dawn for Node
# (npm webgpu), xz-compressed into .jsrt/ (ignored by git, about 30 MB), for the device
# tool's carry. Run once here before scripts/gpu-js.sh:
#   scripts/prepare-js-carry.sh
set -euo pipefail
cd "$(dirname "$0")/.."
grep -qx '/.jsrt/' .git/info/exclude 2>/dev/null || echo /.jsrt/ >> .git/info/exclude
mkdir -p .jsrt
node=$(readlink -f "$(command -v node)")
xz -T0 -6 -c "$node" > .jsrt/node.xz
tar -C node_modules -cf - webgpu/index.js webgpu/package.json webgpu/dist/linux-x64 | xz -T0 -6 > .jsrt/webgpu.tar.xz
du -sh .jsrt/*
