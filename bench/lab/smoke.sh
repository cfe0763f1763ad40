#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The laboratory checks itself (ctest `lab`): each variant of bench/lab/scan_lab.wgsl
# that computes a whole scan is run on a small array and compared with the CPU, the sort
# tile's variants run, and sass.sh's cut of a pipeline cache is checked. Usage:
# bench/lab/smoke.sh path/to/wgscan-lab
set -eu
L=$1
F=$(dirname "$0")/scan_lab.wgsl
N=65536
D="-D WG=64 -D ITEMS=4 -D TPW=2 -D PREFETCH=1 -D ROWS=0 -D SUMS_WG=64 -D NARROW=1"
T4=$((64 * 4)); G=$((N / 4 / T4 / 2)); T=$((N / 4 / T4))
run() { out=$("$L" "$F" --n $N --runs 2 $D "$@" 2>&1); echo "$out" | head -1; echo "$out" | grep -q " ok |"; }
run --check copy --pass copy4:$T
for v in scan_rows scan_contig; do
  run --aux $G --params $G --check scan --pass reduce_tiles:$G --pass scan_sums:1 --pass $v:$G
done
run --aux $((1 + 2 * T)) --check scan --pass single_pass:$T
for fb in 0 2; do run --aux $((1 + 2 * T)) -D FB=$fb --check scan --pass sp_rows:$T; done
for f in 0 1; do run --aux $((1 + 2 * T)) -D WGFB_FORCE=$f --check scan --pass sp_rows_wgfb:$T; done
# The persistent variants in a grid of 3 workgroups (many tiles each), fallbacks forced or not.
for v in sp_persist sp_ahead sp_ahead2; do
  for fb in 1 2; do run --aux $((1 + 2 * T)) -D FB=$fb --check scan --pass $v:3; done
done
# The sort tile's stages and rankings are timing artefacts (no output to check): that
# each compiles and runs is what is checked.
S=$(dirname "$0")/sort_lab.wgsl
for v in "STAGE=1" "STAGE=2" "STAGE=3" "ROOM=1" "RANK=0" "RANK=2" "RANK=4" "RANK=5" "RANK=6 -D PEERS=1" "TOT=0"; do
  "$L" "$S" --n $N --runs 2 -D WG=128 -D $v --pass tile_pass:16 | head -1 | grep -q "^tile_pass"
done
# sass.sh cuts the code out of a pipeline cache laid out as NVIDIA's driver writes it
# (made up here: the Vulkan header, a zstd frame holding the object): the same bytes.
if command -v zstd >/dev/null && command -v python3 >/dev/null; then
  t=$(mktemp -d)
  python3 - "$t" <<'PY'
import struct, subprocess, sys
d = sys.argv[1]
code = bytes(range(256)) * 3
obj = bytearray(b'NVDANVVMNVuc' + bytes(0x170 - 12))
struct.pack_into('<II', obj, 0x4c, len(code), 0x170)
obj += bytes(8) + code
frame = subprocess.run(['zstd', '-q', '-c'], input=bytes(obj), capture_output=True, check=True).stdout
open(d + '/x.spv.cache', 'wb').write(bytes(32) + bytes(64) + frame)
open(d + '/want', 'wb').write(code)
PY
  bash "$(dirname "$0")/sass.sh" "$t" --cached x.spv > "$t/log" 2>&1
  cmp -s "$t/x.spv.code" "$t/want" || { echo "lab: sass.sh cut the wrong bytes"; cat "$t/log"; exit 1; }
  rm -rf "$t"
fi
# The ranked tile checked at the device's subgroup width (4 lanes on SwiftShader, 32 on
# NVIDIA): 8 subgroups a workgroup of at most 256, 8 keys an invocation, 16 tiles a
# workgroup. A device whose subgroups vary in width cannot give the kernel its width:
# the test is skipped there (77, ctest's SKIP_RETURN_CODE).
sizes=$("$L" --subgroups) || { echo "lab: wgscan-lab --subgroups failed"; exit 1; }
read -r sg sg_max <<<"$sizes"
[ "$sg" = "$sg_max" ] || { echo "lab: subgroups of $sg to $sg_max lanes: the ranked tile's check skipped"; exit 77; }
wg=$((8 * sg > 256 ? 256 : 8 * sg))
for room in 0 1; do
  "$L" "$S" --n 65536 --runs 2 -D WG=$wg -D SGW=$sg -D ITEMS=8 -D GT=16 -D STAGE=3 -D ROOM=$room \
    --check digits:$((8 * wg)) --pass tile_pass:$((65536 / (8 * wg) / 16)) | head -1 | grep -q " ok |"
done
echo "lab: all variants equal the CPU scan; the sort tile's variants run, its ranking equals the CPU's"
