#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The digit pass's design, variant by variant (issue 32): bench/lab/sort_tile.comp built
# by glslang with the macros of each row of the table below, given straight to the Vulkan
# driver by wgscan-vkstats: the driver's statistics, a check of the output against the
# CPU's, and the time of one dispatch; then an occupancy probe (bench/lab/smem_probe.comp:
# how many workgroups of B bytes of shared memory a core holds). Usage, from the
# repository root:
#   bash bench/lab/sort-variants-glsl.sh prepare     here (glslang, python3, wgscan-vkstats built)
#   bash bench/lab/sort-variants-glsl.sh check       any Vulkan device: every variant's output
#   bash bench/lab/sort-variants-glsl.sh run [N]     the GPU machine: check, statistics, time at N
#   bash bench/lab/sort-variants-glsl.sh probe       the occupancy probe alone
# prepare builds every variant for subgroups of 32 (the GPU's shapes), and for 8 and 4
# with the workgroup scaled to keep the same number of subgroups (WG * SG / 32: llvmpipe's
# and SwiftShader's lanes; SG 4 without the unroll hints, which SwiftShader's compiler
# takes minutes over), into $BUILD/lab/sortvar/sgSG/NAME.spv; writes the check of each
# group and tile size (bench/lab/sort_check.py: about CHECK_N keys, at least a group and
# two tiles, so that the last group is partial where GT > 2; each run has room for 4
# times its even share, so that odd groups hold skewed digits); builds the probe's
# modules; copies spirv-val into $BUILD/lab (the GPU machine has none); prints each
# variant's declared shared bytes and how many workgroups of that size 48 KiB holds.
# check runs each variant of SG (32, 8 or 4) once on its check's keys and compares the
# whole output with the CPU's (the copy's with its input). Here:
#   SG=8 VKSTATS_ICD=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json bash bench/lab/sort-variants-glsl.sh check
#   SG=4 VKSTATS_ICD=/usr/lib/chromium/vk_swiftshader_icd.json bash bench/lab/sort-variants-glsl.sh check
# run does for each variant of SG (32) in the table's order the check, then one
# wgscan-vkstats --time call at N random keys (RUNS runs after 3 warm-ups; params.a = 0;
# the output sized for the runs, 256 * groups * ceil(GT * TILE / 256) words; the keys of a
# last partial tile, fewer than a tile, are left out), which prints the statistics too;
# it starts no variant after BUDGET seconds; then the probe and the copy of N words
# (vkCmdCopyBuffer: the copy engine's figure, not a kernel's); then the table:
#   variant shape(WGxITEMSxGTgt) declared registers shared local check median_us
# (declared: the bytes of the shader's shared arrays; shared: the driver's 'Shared Memory
# Size'; local: spills, vk-lab.sh; '-' where the device gives no statistics; check OK,
# WRONG or FAILED; the variant copy is the yardstick: the keys in and out, no sort).
# probe: modules of 0 to 48 KiB of shared memory, one subgroup a workgroup, PROBE_GROUPS
# workgroups (132 cores x 32 x 4), each a chain of PROBE_ITERS dependent loads; the table:
#   ballast_KiB shared_bytes median_us ratio fit48 ratio48 fit228 ratio228
# ratio: the time over the time at 0 KiB; fitX: workgroups of that size a core holds if
# it has X KiB for them (at most 32, the hardware's limit; 228: CUDA's carve-out, less its
# 1 KiB a workgroup); ratioX: the time ratio that fit predicts (rounds of the default grid
# against its 4 at 32 a core).
# Environment: BUILD (build), SG (check, run: 32), RUNS (10), VARIANTS (names from the
# table; default all), BUDGET (run: 85 s), CHECK_N (prepare: 2^16), SGS (prepare: the
# subgroup sizes to build for, "32 8 4"; the GPU machine needs 32 alone), GLSLANG
# (glslangValidator), VKSTATS_ICD and VKSTATS_TIMEOUT (vk-lab.sh; run: 30 s), RESULTS
# (run's files: $BUILD/lab/sortvar/run), PROBE_ITERS (2000), PROBE_GROUPS (16896), PROBE
# (run: 1; 0 leaves the probe out).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
SV=$BUILD/lab/sortvar
VKSTATS=$BUILD/wgscan-vkstats
LAB_NAME=sort-variants-glsl
. "$ROOT/bench/lab/vk-lab.sh"

# name, then sort_tile.comp's macros for subgroups of 32 (defaults: WG 256, ITEMS 8, GT 16,
# RANK 1, STAGED 1, ROOM 0, SCAN 1, FUSE 0, BALLAST 0, COPY 0): the yardstick (copy: its
# check is its input), the factors one at a time from the pass timed on 2026-12-05
# (base), the occupancy, the tile's shape, tiles a workgroup.
TABLE='
copy          COPY=1
base
room          ROOM=1
direct        STAGED=0
early         RANK=2
early-room    RANK=2 ROOM=1
scan2         SCAN=2
fuse          FUSE=1
lean1         ROOM=1 SCAN=2 FUSE=1
lean2         RANK=2 ROOM=1 SCAN=2 FUSE=1
direct2       RANK=2 STAGED=0 SCAN=2 FUSE=1
room-b4k      ROOM=1 BALLAST=4096
room-b8k      ROOM=1 BALLAST=8192
room-b16k     ROOM=1 BALLAST=16384
room-b24k     ROOM=1 BALLAST=24576
room-b32k     ROOM=1 BALLAST=32768
lean2-256x12  ITEMS=12 RANK=2 ROOM=1 SCAN=2 FUSE=1
lean2-256x16  ITEMS=16 RANK=2 ROOM=1 SCAN=2 FUSE=1
lean2-256x23  ITEMS=23 RANK=2 ROOM=1 SCAN=2 FUSE=1
lean2-384x8   WG=384 RANK=2 ROOM=1 SCAN=2 FUSE=1
lean2-384x12  WG=384 ITEMS=12 RANK=2 ROOM=1 SCAN=2 FUSE=1
lean2-384x16  WG=384 ITEMS=16 RANK=2 ROOM=1 SCAN=2 FUSE=1
lean2-384x23  WG=384 ITEMS=23 RANK=2 ROOM=1 SCAN=2 FUSE=1
lean2-512x8   WG=512 RANK=2 ROOM=1 SCAN=2 FUSE=1
lean2-512x12  WG=512 ITEMS=12 RANK=2 ROOM=1 SCAN=2 FUSE=1
lean2-512x16  WG=512 ITEMS=16 RANK=2 ROOM=1 SCAN=2 FUSE=1
cub           WG=384 ITEMS=23 GT=1 RANK=2 ROOM=1 SCAN=2 FUSE=1
cub-direct    WG=384 ITEMS=23 GT=1 RANK=2 STAGED=0 SCAN=2 FUSE=1
lean1-384x23  WG=384 ITEMS=23 ROOM=1 SCAN=2 FUSE=1
direct2-256x16 ITEMS=16 RANK=2 STAGED=0 SCAN=2 FUSE=1
onesweep-256x15 ITEMS=15 GT=1 ROOM=1 SCAN=2 FUSE=1
base-gt1      GT=1
base-gt4      GT=4
'
NAMES=$(echo "$TABLE" | awk 'NF { print $1 }')
VARIANTS=${VARIANTS:-$NAMES}

macros_of() { echo "$TABLE" | awk -v v="$1" '$1 == v { $1 = ""; print; f = 1 } END { exit !f }' || die "no variant '$1'"; }
# One macro of a variant with its default.
macro() {
  local m
  m=$(echo " $(macros_of "$1") " | sed -n "s/.* $2=\\([0-9]*\\) .*/\\1/p")
  echo "${m:-$3}"
}
# The variant's workgroup for subgroups of SG: the same number of subgroups as at 32.
wg_at() { echo $(($(macro "$1" WG 256) * $2 / 32)); }
tile_at() { echo $(($(wg_at "$1" "$2") * $(macro "$1" ITEMS 8))); }
group_at() { echo $(($(macro "$1" GT 16) * $(tile_at "$1" "$2"))); }
# The check's files of variant $1 at subgroups of $2: one set for each group and tile.
check_of() { echo "$SV/sg$2/check-$(group_at "$1" "$2")-$(tile_at "$1" "$2")"; }
# The shader's shared arrays in bytes for subgroups of SG (sort_tile.comp's declarations).
declared_bytes() {
  local wg items rows tile words
  wg=$(wg_at "$1" "$2") items=$(macro "$1" ITEMS 8)
  rows=$((wg / $2 * 256)) tile=$((wg * items))
  if [ "$(macro "$1" ROOM 0)" = 1 ]; then words=$((rows > tile ? rows : tile))
  elif [ "$(macro "$1" STAGED 1)" = 1 ]; then words=$((rows + tile))
  else words=$rows; fi
  [ "$(macro "$1" FUSE 0)" = 1 ] && words=$((words + 256)) || words=$((words + 768))
  echo $(((words + wg / $2) * 4 + $(macro "$1" BALLAST 0)))
}
grid() { local x=$(($1 < 32768 ? $1 : 32768)); echo "$x,$(((${1} + x - 1) / x))"; }
PROBE_KIB="0 1 2 3 4 5 6 8 10 12 14 16 20 24 28 32 40 48"

prepare() {
  local glslang=${GLSLANG:-glslangValidator} sg v d u group tile n
  command -v "$glslang" >/dev/null || die "no $glslang (Debian: glslang-tools)"
  n=$(pow "${CHECK_N:-2^16}")
  for sg in ${SGS:-32 8 4}; do
    case $sg in 32 | 8 | 4) ;; *) die "SGS: subgroup sizes of 32, 8 or 4" ;; esac
    mkdir -p "$SV/sg$sg"
    u=$([ $sg = 4 ] && echo 0 || echo 1)
    for v in $NAMES; do
      d=
      for m in $(macros_of "$v"); do case $m in WG=*) ;; *) d="$d -D$m" ;; esac; done
      "$glslang" -V --target-env vulkan1.1 -DSG=$sg -DWG="$(wg_at "$v" $sg)" -DUNROLL=$u $d \
        -e tile_pass --source-entrypoint main bench/lab/sort_tile.comp -o "$SV/sg$sg/$v.spv" > "$SV/sg$sg/$v.glslang.txt" ||
        { cat "$SV/sg$sg/$v.glslang.txt"; die "$v (SG $sg): glslang failed"; }
      group=$(group_at "$v" $sg) tile=$(tile_at "$v" $sg)
      [ -f "$(check_of "$v" $sg).meta" ] || check_keys "$group" "$tile" $((n > group + 2 * tile ? n : group + 2 * tile)) \
        $(((group + 255) / 256 * 3)) mixed "$(check_of "$v" $sg)"
    done
  done
  mkdir -p "$SV/probe"
  for k in $PROBE_KIB; do
    "$glslang" -V --target-env vulkan1.1 -DBALLAST=$((k * 1024)) bench/lab/smem_probe.comp -o "$SV/probe/probe-$(printf %02d "$k")k.spv" >/dev/null ||
      die "smem_probe.comp ($k KiB): glslang failed"
  done
  command -v spirv-val >/dev/null || die "no spirv-val (Debian: spirv-tools)"
  cp "$(command -v spirv-val)" "$BUILD/lab/spirv-val"
  echo "sort-variants-glsl: prepared $SV; shared memory declared a workgroup (subgroups of 32):"
  printf '%-16s %-22s %8s %8s %14s\n' variant shape groups@2^28 bytes a_core_at_48KiB
  for v in $NAMES; do
    local b tile gt
    b=$(declared_bytes "$v" 32) gt=$(macro "$v" GT 16) tile=$(($(wg_at "$v" 32) * $(macro "$v" ITEMS 8)))
    printf '%-16s %-22s %8s %8s %14s\n' "$v" "$(wg_at "$v" 32)x$(macro "$v" ITEMS 8)x${gt}gt" \
      $(( ((1 << 28) / tile + gt - 1) / gt )) "$b" $((49152 / b))
  done
}

# The check of variant $1 for subgroups of $2 into $3 (prefix); prints OK, WRONG or FAILED.
check_one() {
  local v=$1 sg=$2 out=$3 group c cn
  group=$(group_at "$v" "$sg") c=$(check_of "$v" "$sg")
  [ -f "$c.meta" ] || { echo "FAILED (no $c.meta)" > "$out.check.txt"; echo FAILED; return; }
  cn=$(check_field n "$c.meta")
  if ! SPIRV_VAL=$BUILD/lab/spirv-val vkstats --time --groups "$(check_field groups "$c.meta")" --runs 1 \
    --buffer 0=@"$c-keys.bin" --buffer 1="$(check_field out_bytes "$c.meta")" \
    --uniform 2="$cn,$(($(check_field span "$c.meta") - (group + 255) / 256)),0,0,0,0,0,0" --buffer 3=64 \
    --dump 1="$out.check.bin" "$SV/sg$sg/$v.spv" > "$out.check.txt" 2>&1; then echo FAILED
  elif [ "$(macro "$v" COPY 0)" = 1 ]; then cmp -s -n $((cn * 4)) "$out.check.bin" "$c-keys.bin" && echo OK || echo WRONG
  elif same_as_want "$out.check.bin" "$c-want.bin.gz"; then echo OK
  else echo WRONG; fi
  rm -f "$out.check.bin"
}

check() {
  local sg=${SG:-32} v r bad=0 dir
  case $sg in 32 | 8 | 4) ;; *) die "SG is 32, 8 or 4" ;; esac
  [ -x "$VKSTATS" ] || die "no $VKSTATS (built where the Vulkan headers are)"
  [ -d "$SV/sg$sg" ] || die "no $SV/sg$sg: run prepare first"
  dir=${RESULTS:-$SV/check-sg$sg}
  mkdir -p "$dir"
  for v in $VARIANTS; do
    macros_of "$v" > /dev/null
    r=$(check_one "$v" "$sg" "$dir/$v")
    echo "$v (WG $(wg_at "$v" "$sg") x $(macro "$v" ITEMS 8), $(macro "$v" GT 16) tiles a workgroup): $r"
    [ "$r" = OK ] || { bad=1; tail -3 "$dir/$v.check.txt"; }
  done
  return $bad
}

probe() {
  local dir=$1 g=${PROBE_GROUPS:-16896} iters=${PROBE_ITERS:-2000} f k t0 m mods=
  for k in $PROBE_KIB; do mods="$mods $SV/probe/probe-$(printf %02d "$k")k.spv"; done
  SPIRV_VAL=$BUILD/lab/spirv-val vkstats --time --groups "$g" --runs "${RUNS:-10}" --buffer 0=1024:iota \
    --buffer 1=$((g * 32 * 4)) --uniform 2="$iters,0,0,0" $mods > "$dir/probe.txt" 2>&1 ||
    { grep "^wgscan-vkstats:" "$dir/probe.txt" | tail -5; echo "probe: wgscan-vkstats failed for some modules (their rows: -)"; }
  # One file of each module's lines, for the readers of vk-lab.sh.
  for k in $PROBE_KIB; do
    f=probe-$(printf %02d "$k")k
    awk -v m="/$f.spv: entry" 'index($0, m) { on = 1; print; next } /\.spv: entry/ { on = 0 } on' "$dir/probe.txt" > "$dir/$f.txt"
  done
  echo "probe: $g workgroups of 32 invocations, chains of $iters loads"
  printf '%11s %12s %10s %6s %5s %7s %6s %8s\n' ballast_KiB shared_bytes median_us ratio fit48 ratio48 fit228 ratio228
  t0=$(median_us "$dir/probe-00k.txt")
  for k in $PROBE_KIB; do
    f=$dir/probe-$(printf %02d "$k")k.txt
    m=$(median_us "$f")
    awk -v k="$k" -v s="$(statistic "Shared Memory Size" "$f")" -v m="${m:--}" -v t0="${t0:-0}" 'function fit(c, b) { b = int(c / b); return b > 32 ? 32 : b }
      function rounds(x) { return int((128 + x - 1) / x) }
      BEGIN { f48 = k ? fit(48, k) : 32; f228 = fit(228, k + 1)
              printf "%11s %12s %10s %6s %5d %7.2f %6d %8.2f\n", k, s, m, (m != "-" && t0 > 0) ? sprintf("%.2f", m / t0) : "-",
                     f48, f48 ? rounds(f48) / 4 : 0, f228, rounds(f228) / 4 }'
  done
}

run() {
  local n v dir tile gt groups span out start r rows sg=${SG:-32}
  valid_n "${1:-2^28}"
  n=$(pow "${1:-2^28}")
  [ -x "$VKSTATS" ] || die "no $VKSTATS (built where the Vulkan headers are)"
  case $sg in 32 | 8 | 4) ;; *) die "SG is 32, 8 or 4" ;; esac
  [ -d "$SV/sg$sg" ] || die "no $SV/sg$sg: run prepare first"
  dir=${RESULTS:-$SV/run}
  mkdir -p "$dir"
  start=$(date +%s)
  export VKSTATS_TIMEOUT=${VKSTATS_TIMEOUT:-30}
  rows=$dir/rows.txt
  : > "$rows"
  vkstats --copy 4096 --runs 1 | head -1
  echo "sort-variants-glsl: n = $n, ${RUNS:-10} runs a variant, subgroups of $sg"
  for v in $VARIANTS; do
    macros_of "$v" > /dev/null
    gt=$(macro "$v" GT 16) tile=$(($(wg_at "$v" "$sg") * $(macro "$v" ITEMS 8)))
    groups=$(( (n / tile + gt - 1) / gt )) span=$(( (gt * tile + 255) / 256 ))
    out=$dir/$v
    if [ $(($(date +%s) - start)) -ge "${BUDGET:-85}" ] || [ $((n / tile)) = 0 ]; then
      echo "$v: not run ($([ $((n / tile)) = 0 ] && echo "N under one tile" || echo "past BUDGET"))"
      printf '%-16s %-16s %8s %9s %8s %8s %7s %10s\n' "$v" "$(wg_at "$v" "$sg")x$(macro "$v" ITEMS 8)x${gt}gt" \
        "$(declared_bytes "$v" "$sg")" - - - - "not-run" >> "$rows"
      continue
    fi
    r=$(check_one "$v" "$sg" "$out")
    SPIRV_VAL=$BUILD/lab/spirv-val vkstats --time --groups "$(grid "$groups")" --runs "${RUNS:-10}" \
      --buffer 0=$((n * 4)):random --buffer 1=$((256 * groups * span * 4)) --uniform 2=$n,0,0,0,0,0,0,0 \
      --buffer 3=64 "$SV/sg$sg/$v.spv" > "$out.time.txt" 2>&1 || echo "$v: the timed run failed: $(tail -1 "$out.time.txt")"
    echo "$v: check $r, $(median_us "$out.time.txt") us ($(($(date +%s) - start)) s)"
    printf '%-16s %-16s %8s %9s %8s %8s %7s %10s\n' "$v" "$(wg_at "$v" "$sg")x$(macro "$v" ITEMS 8)x${gt}gt" \
      "$(declared_bytes "$v" "$sg")" "$(statistic "Register Count" "$out.time.txt")" \
      "$(statistic "Shared Memory Size" "$out.time.txt")" "$(local_bytes "$out.time.txt")" "$r" \
      "$(median_us "$out.time.txt")" >> "$rows"
  done
  [ "${PROBE:-1}" = 0 ] || probe "$dir" || true
  vkstats --copy $((n * 4)) --runs "${RUNS:-10}" | grep "^copy" || echo "the copy's timing failed"
  printf '%-16s %-16s %8s %9s %8s %8s %7s %10s\n' variant shape declared registers shared local check median_us
  cat "$rows"
  echo "(files: $dir; $(($(date +%s) - start)) s)"
}

case ${1:-} in
  prepare) prepare ;;
  check) check ;;
  run) shift; run "$@" ;;
  probe) d=${RESULTS:-$SV/probe-run}; mkdir -p "$d"; probe "$d" ;;
  *) sed -n 3,12p "$0" >&2; exit 2 ;;
esac
