#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The machine code NVIDIA's Vulkan driver made of SPIR-V modules, disassembled:
#   bench/lab/sass.sh OUTDIR FILE.spv ...
# wgscan-vkstats --ir OUTDIR compiles each module alone into a pipeline cache and writes
# the cache's data (OUTDIR/FILE.spv.cache). NVIDIA's (driver 580) is the Vulkan header,
# the driver's own header and a zstd frame; the frame holds an "NVDANVVMNVuc" object
# whose word at byte 0x4c is the code's size (the "Binary Size" statistic) and at 0x50
# where it starts, less 8. That code is cut out (OUTDIR/FILE.spv.code) and disassembled
# by the CUDA toolkit's nvdisasm as raw SASS of the GPU's architecture
# (OUTDIR/FILE.spv.sass), with a count of each opcode (OUTDIR/FILE.spv.ops). The layout
# was read from the data, not from a document: where it does not hold, the first bytes
# are shown instead.
# Needs: build/wgscan-vkstats (BUILD), python3, zstd, nvdisasm (PATH or
# /usr/local/cuda*/bin), nvidia-smi. With --cached, the .cache files already in OUTDIR
# are taken, or the .code files cut from them (cut out on one machine, disassembled on
# another: the H100 and H200 machines have no zstd).
set -eu
[ $# -ge 2 ] || { sed -n 3,4p "$0" >&2; exit 2; }
OUT=$1; shift
BUILD=${BUILD:-build}
mkdir -p "$OUT"
if [ "${1:-}" = --cached ]; then shift; else "$BUILD/wgscan-vkstats" --ir "$OUT" "$@"; fi
NVDISASM=$(command -v nvdisasm || ls /usr/local/cuda*/bin/nvdisasm 2>/dev/null | head -1 || true)
ARCH=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d . || true)
for spv in "$@"; do
  c=$OUT/$(basename "$spv").cache
  code=${c%.cache}.code
  [ -f "$c" ] || [ -f "$code" ] || continue
  if [ ! -f "$code" ]; then
    python3 - "$c" "$code" <<'PY' || continue
import struct, subprocess, sys
path, code = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
z = data.find(b'\x28\xb5\x2f\xfd')
obj = subprocess.run(['zstd', '-d', '-c'], input=data[z:], capture_output=True).stdout if z >= 0 else b''
if obj[:12] != b'NVDANVVMNVuc':
    print('  %s: no NVuc object (%d bytes); its first 128:' % (path, len(data)))
    for i in range(0, min(128, len(data)), 32): print('   ', data[i:i + 32].hex())
    sys.exit(1)
size, at = struct.unpack_from('<II', obj, 0x4c)
open(code, 'wb').write(obj[at + 8:at + 8 + size])
print('  %s: %d bytes of code at byte %d of the object' % (code, size, at + 8))
PY
  fi
  out=${code%.code}
  if [ -n "$NVDISASM" ] && [ -n "$ARCH" ] && "$NVDISASM" -b SM$ARCH "$code" > "$out.sass" 2> "$out.err"; then
    grep -oE '^\s+/\*[0-9a-f]+\*/\s+(@!?U?P[0-9T]+ )?[A-Z][A-Z0-9_.]*' "$out.sass" |
      awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn > "$out.ops"
    echo "  $out.sass: $(grep -cE '^\s+/\*[0-9a-f]+\*/' "$out.sass") instructions"
  else
    echo "  $code: not disassembled (nvdisasm: ${NVDISASM:-missing}, architecture: ${ARCH:-unknown}) $(head -c 300 "$out.err" 2>/dev/null)"
  fi
done
