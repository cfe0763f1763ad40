#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The SPIR-V that Dawn made of wgscan's kernels, as binaries for wgscan-vkstats. Usage:
#   bench/lab/dump-spirv.sh OUTDIR [WGSCAN COMMAND AND OPTIONS]   (default: sort --n 65536 --repeat 1)
#   PROGRAM=build/wgscan-lab bench/lab/dump-spirv.sh OUTDIR FILE.wgsl --n N --runs 1 --pass ENTRY:GROUPS
# Runs build/wgscan (or $PROGRAM, any program that loads its WebGPU runtime from
# $WGSCAN_WEBGPU_LIB, as wgscan-lab does) with the Dawn toggle dump_shaders (added to $WGSCAN_DAWN_TOGGLES),
# through bench/lab/dawn_log_shim.c, which hands Dawn's device log to OUTDIR/dawn.log
# (the library sets no logging callback; the shim's comment says how). Each pipeline's
# SPIR-V disassembly becomes OUTDIR/NN-ENTRY.spvasm and, by spirv-as, NN-ENTRY.spv,
# checked by spirv-val; OUTDIR/index.txt names each file's pipeline (its wgscan label).
# Dawn's own pipelines (the timestamp conversion) come out as NN-dawn-internal. Then,
# where build/wgscan-vkstats exists, it is run on them all (statistics to stdout,
# internal representations into OUTDIR/ir). The driver is Vulkan's usual choice for
# wgscan-vkstats (set VK_ICD_FILENAMES) and wgscan's own for the dump.
# Environment: BUILD (build), PROGRAM ($BUILD/wgscan), CC (cc), SPIRV_AS, SPIRV_VAL (from
# PATH), VKSTATS=0 to skip.
set -eu
[ $# -ge 1 ] || { sed -n 3,5p "$0" >&2; exit 2; }
OUT=$1; shift
[ $# -ge 1 ] || set -- sort --n 65536 --repeat 1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
PROGRAM=${PROGRAM:-$BUILD/wgscan}
SPIRV_AS=${SPIRV_AS:-spirv-as}
SPIRV_VAL=${SPIRV_VAL:-spirv-val}
DAWN_DIR=$(sed -n 's/^WGSCAN_DAWN_LIB:FILEPATH=\(.*\)\/[^/]*$/\1/p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
[ -f "$DAWN_DIR/libwebgpu_wrapper.so" ] || DAWN_DIR=$ROOT/node_modules/bun-webgpu-linux-x64
[ -f "$DAWN_DIR/libwebgpu_wrapper.so" ] || { echo "dump-spirv: no Dawn runtime in $DAWN_DIR (npm ci)" >&2; exit 2; }
command -v "$SPIRV_AS" >/dev/null || { echo "dump-spirv: no $SPIRV_AS (Debian: spirv-tools)" >&2; exit 2; }

# The shim, built once per build tree (no rpath: LD_LIBRARY_PATH finds Dawn wherever it
# is); a copied build tree keeps its shim where there is no compiler.
SHIM=$BUILD/lab/libwgscan-dawn-log.so
SRC=$ROOT/bench/lab/dawn_log_shim.c
if [ ! -f "$SHIM" ] || { [ "$SRC" -nt "$SHIM" ] && command -v "${CC:-cc}" >/dev/null; }; then
  mkdir -p "$BUILD/lab"
  ${CC:-cc} -std=c11 -O1 -Wall -Wextra -shared -fPIC -I"$ROOT/include" "$SRC" -o "$SHIM" \
    -L"$DAWN_DIR" -Wl,--no-as-needed -l:libwebgpu_wrapper.so -ldl
fi

mkdir -p "$OUT"
rm -f "$OUT"/dawn.log "$OUT"/[0-9][0-9]-*.spv "$OUT"/[0-9][0-9]-*.spvasm "$OUT"/index.txt
WGSCAN_WEBGPU_LIB=$SHIM LD_LIBRARY_PATH=$DAWN_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
WGSCAN_DAWN_LOG=$OUT/dawn.log WGSCAN_DAWN_TOGGLES=dump_shaders${WGSCAN_DAWN_TOGGLES:+,$WGSCAN_DAWN_TOGGLES} \
  "$PROGRAM" "$@" > "$OUT/wgscan.out"
[ -s "$OUT/dawn.log" ] || { echo "dump-spirv: Dawn logged nothing (is dump_shaders known to this Dawn?)" >&2; exit 3; }

# A pipeline's SPIR-V follows its marker (Dawn compiles during the create call); a
# second one before the next marker is Dawn's own. A dump ends at the next message.
awk -v out="$OUT" '
  /^\/\/ wgscan-dump pipeline / {
    label = substr($0, 25); sub(/ entry [^ ]*$/, "", label)
    entry = $NF; fresh = 1; cap = 0; next }
  /^\/\/ dawn / || /^\/\/ wgscan-dump / { cap = 0; next }
  /^\/\* Dumped generated SPIRV disassembly \*\// {
    n++; name = sprintf("%02d-%s", n, fresh ? entry : "dawn-internal")
    file = out "/" name ".spvasm"; cap = 1
    printf "%s.spv\t%s\n", name, fresh ? label : "(Dawn internal)" > (out "/index.txt")
    fresh = 0; next }
  cap { print > file }
' "$OUT/dawn.log"

status=0
for asm in "$OUT"/[0-9][0-9]-*.spvasm; do
  [ -e "$asm" ] || { echo "dump-spirv: no SPIR-V in $OUT/dawn.log" >&2; exit 3; }
  spv=${asm%.spvasm}.spv
  v=$(sed -n 's/^; Version: \([0-9]*\.[0-9]*\).*/\1/p' "$asm" | head -1)
  case ${v:-1.3} in 1.[0-3]) venv=vulkan1.1 ;; 1.4) venv=vulkan1.1spv1.4 ;; 1.5) venv=vulkan1.2 ;; *) venv=vulkan1.3 ;; esac
  if ! "$SPIRV_AS" --target-env "spv${v:-1.3}" "$asm" -o "$spv"; then
    echo "dump-spirv: $asm does not assemble" >&2; status=3; continue
  fi
  if command -v "$SPIRV_VAL" >/dev/null && ! "$SPIRV_VAL" --target-env "$venv" "$spv"; then
    echo "dump-spirv: $spv fails spirv-val ($venv)" >&2; status=3
  fi
done
echo "dump-spirv: $(ls "$OUT"/[0-9][0-9]-*.spv | wc -l) SPIR-V binaries in $OUT (index.txt names them):"
cut -c1-160 "$OUT/index.txt"
if [ "${VKSTATS:-1}" != 0 ] && [ -x "$BUILD/wgscan-vkstats" ]; then
  mkdir -p "$OUT/ir"
  "$BUILD/wgscan-vkstats" --ir "$OUT/ir" "$OUT"/[0-9][0-9]-*.spv || status=$?
fi
exit $status
