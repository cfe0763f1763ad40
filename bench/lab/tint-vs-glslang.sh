#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tint against glslang for the sort's digit pass (issue 32): the laboratory's tile_pass
# (bench/lab/sort_lab.wgsl at its defaults) as Tint's SPIR-V, dumped from Dawn, and the
# same pass written in GLSL (bench/lab/sort_tile.comp) as glslang's, both given straight
# to the Vulkan driver by wgscan-vkstats: the driver's statistics, a check that both write
# the same output, and the time of one dispatch on the same buffers. Usage, from the
# repository root:
#   bash bench/lab/tint-vs-glslang.sh prepare      here (glslang, spirv-tools, python3, cc)
#   bash bench/lab/tint-vs-glslang.sh run [N]      on the GPU machine, BUILD carried (N: 2^28)
# The GPU machine's call (carry build, .gl, node_modules/bun-webgpu-linux-x64; the .deb
# files give it the Vulkan loader, as in bench/results/h200-2026-12-05-sort/run2.sh):
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
#   RESULTS=$OUT/tvg bash bench/lab/tint-vs-glslang.sh run 2^28 2>&1 | tee $OUT/tvg.log
# prepare compiles sort_tile.comp for subgroups of 32 (WG 256, the lab's tile), 8 (WG
# 64, llvmpipe's) and 4 (WG 32, SwiftShader's): eight owners a workgroup, as the lab's
# (the WGSL's owners' counters of 4-lane subgroups at WG 256 would not fit WebGPU's 16 KiB
# of workgroup memory), with and without its [[unroll]] hints, into $BUILD/lab/tvg/;
# writes the check's keys and their expected output for each; copies spirv-as and
# spirv-val into $BUILD/lab (the GPU machine has neither) and builds the Dawn logging
# shim (dump-spirv.sh). Tint's SPIR-V is not made here: Dawn's output depends on the
# adapter, so run dumps it on the machine it times, through
# wgscan-lab (Dawn's robustness on, as the library runs, and off: toggle
# disable_robustness), then for each variant prints wgscan-vkstats' statistics, runs it
# once on the check's keys and compares its output with cmp, and times it on N random
# keys (--time, median of RUNS after 3 warm-ups; groups: N / (GT * WG * ITEMS)).
# The table: registers a thread, shared memory bytes, local memory bytes (spills and
# arrays the driver did not keep in registers: the low 32 bits of NVIDIA's 'Local Memory
# Size', which read 2^36 more than that on the H200 on 2026-12-05), median µs. Devices
# without VK_KHR_pipeline_executable_properties (SwiftShader, llvmpipe) print '-' there.
# Here: on llvmpipe (Mesa's Vulkan, subgroups of 8; Tint's SPIR-V still from Dawn's
# SwiftShader, which is the same for any adapter at SGC 1 but for its subgroup size):
#   SG=8 VKSTATS_ICD=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \
#     bash bench/lab/tint-vs-glslang.sh run 2^18
# and on SwiftShader, without the unrolled GLSL, which SwiftShader's compiler had not
# compiled in 5 minutes (1 s with either of the ranking's two nested loops left rolled):
#   SG=4 VKSTATS_ICD=/usr/lib/chromium/vk_swiftshader_icd.json \
#     VARIANTS="tint-robust-on tint-robust-off glslang-plain" bash bench/lab/tint-vs-glslang.sh run 2^18
# Environment: BUILD (build), SG (32: the target's subgroup size, 32, 8 or 4), RUNS (20),
# VKSTATS_ICD (a Vulkan ICD's .json for wgscan-vkstats alone, as its VK_ICD_FILENAMES:
# Dawn keeps its own choice, which that variable would change),
# VARIANTS (all four: tint-robust-on tint-robust-off glslang-unroll glslang-plain),
# CHECK_N (prepare: keys of the check, 2^18), GLSLANG (glslangValidator), RESULTS (run's
# files: dumps, statistics, internal representations, outputs; $BUILD/lab/tvg/run-sgSG).
# The output is a timing artefact, not sorted (sort_lab.wgsl's header says why); the
# check's keys put exactly GT * WG * ITEMS / 256 keys of each digit in each workgroup's
# tiles, so no run reaches another and the output is exact: each workgroup's keys,
# stably by digit, in its digit runs.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export BUILD # dump-spirv.sh reads it
TVG=$BUILD/lab/tvg
VKSTATS=$BUILD/wgscan-vkstats
LAB_NAME=tint-vs-glslang
. "$ROOT/bench/lab/vk-lab.sh"
GT=16 ITEMS=8
VARIANTS=${VARIANTS:-tint-robust-on tint-robust-off glslang-unroll glslang-plain}
wg_of() { echo $((8 * $1)); }

prepare() {
  local glslang=${GLSLANG:-glslangValidator} n sg wg
  command -v "$glslang" >/dev/null || die "no $glslang (Debian: glslang-tools)"
  n=$(pow "${CHECK_N:-2^18}")
  mkdir -p "$TVG"
  for sg in 32 8 4; do
    wg=$(wg_of $sg)
    for u in 1 0; do
      "$glslang" -V --target-env vulkan1.1 -DSG=$sg -DWG=$wg -DITEMS=$ITEMS -DGT=$GT -DUNROLL=$u \
        -e tile_pass --source-entrypoint main bench/lab/sort_tile.comp -o "$TVG/glslang-sg$sg-unroll$u.spv" >/dev/null
    done
    # The check's keys: each workgroup's GT tiles hold every digit the same number of
    # times (bench/lab/sort_check.py), whole groups: the WGSL's runs are n / 256 apart.
    check_keys $((GT * wg * ITEMS)) $((GT * wg * ITEMS)) "$n" 0 even "$TVG/check-sg$sg"
  done
  for t in spirv-as spirv-val; do
    command -v $t >/dev/null || die "no $t (Debian: spirv-tools)"
    cp "$(command -v $t)" "$BUILD/lab/$t"
  done
  # The shim, built by dump-spirv.sh; its dump of the 4-lane variant also shows here that
  # wgscan-lab compiles the pass.
  SPIRV_AS=$BUILD/lab/spirv-as SPIRV_VAL=$BUILD/lab/spirv-val PROGRAM=$BUILD/wgscan-lab VKSTATS=0 \
    bash bench/lab/dump-spirv.sh "$TVG/prepare-dump" bench/lab/sort_lab.wgsl --n $((GT * 32 * ITEMS)) --runs 1 \
    -D WG=32 -D SGW=4 --pass tile_pass:1 > "$TVG/prepare-dump.txt" || die "dump-spirv failed ($TVG/prepare-dump.txt)"
  echo "tint-vs-glslang: prepared $TVG:"
  ls "$TVG"
}

run() {
  local n sg=${SG:-32} wg tile groups v spv out
  case $sg in 32 | 8 | 4) ;; *) die "SG is 32, 8 or 4" ;; esac
  valid_n "${1:-2^28}"
  n=$(pow "${1:-2^28}")
  wg=$(wg_of "$sg")
  tile=$((wg * ITEMS))
  [ -x "$VKSTATS" ] || die "no $VKSTATS (built where the Vulkan headers are)"
  [ -f "$TVG/glslang-sg$sg-unroll1.spv" ] || die "no $TVG/glslang-sg$sg-unroll1.spv: run prepare first"
  [ $((n % tile)) = 0 ] && [ "$n" -ge $tile ] || die "N must be a positive multiple of $tile"
  groups=$(( (n / tile + GT - 1) / GT ))
  [ "$groups" -le 65535 ] || die "N too large for one row of groups"
  local out_dir=${RESULTS:-$TVG/run-sg$sg}
  mkdir -p "$out_dir"
  export SPIRV_VAL=$BUILD/lab/spirv-val
  for robust in on off; do
    local toggles=
    [ $robust = off ] && toggles=disable_robustness
    WGSCAN_DAWN_TOGGLES=$toggles SPIRV_AS=$BUILD/lab/spirv-as PROGRAM=$BUILD/wgscan-lab VKSTATS=0 \
      bash bench/lab/dump-spirv.sh "$out_dir/dump-robust-$robust" bench/lab/sort_lab.wgsl --n $tile --runs 1 \
      -D WG=$wg -D SGW=$sg --pass tile_pass:1 > "$out_dir/dump-robust-$robust.txt" ||
      die "dump-spirv failed ($out_dir/dump-robust-$robust.txt)"
    cp "$out_dir/dump-robust-$robust/01-tile_pass.spv" "$out_dir/tint-robust-$robust.spv"
  done
  cp "$TVG/glslang-sg$sg-unroll1.spv" "$out_dir/glslang-unroll.spv"
  cp "$TVG/glslang-sg$sg-unroll0.spv" "$out_dir/glslang-plain.spv"
  local cn cgroups status=0
  cn=$(( $(stat -c %s "$TVG/check-sg$sg-keys.bin") / 4 ))
  cgroups=$(( cn / tile / GT ))
  echo "tint-vs-glslang: subgroups of $sg, WG $wg x ITEMS $ITEMS, $GT tiles a workgroup; n = $n ($groups groups)"
  for v in $VARIANTS; do
    spv=$out_dir/$v.spv
    out=$out_dir/$v
    vkstats --ir "$out_dir" "$spv" > "$out.stats.txt" 2>&1 || { cat "$out.stats.txt"; die "$v: wgscan-vkstats failed"; }
    vkstats --time --groups $cgroups --runs 1 --buffer 0=@"$TVG/check-sg$sg-keys.bin" --buffer 1=$((cn * 4)) \
      --uniform 2=$cn,0,0,0,0,0,0,0 --buffer 3=64 --dump 1="$out.check.bin" "$spv" > "$out.check.txt" 2>&1 ||
      { cat "$out.check.txt"; die "$v: the check's run failed"; }
    if same_as_want "$out.check.bin" "$TVG/check-sg$sg-want.bin.gz"; then echo "$v: check of $cn keys: same output as the CPU's"
    else echo "$v: check of $cn keys: WRONG output ($(gzip -dc "$TVG/check-sg$sg-want.bin.gz" | cmp "$out.check.bin" - 2>&1 | head -1))"; status=1
    fi
    vkstats --time --groups $groups --runs "${RUNS:-20}" --buffer 0=$((n * 4)):random --buffer 1=$((n * 4)) \
      --uniform 2=$n,0,0,0,0,0,0,0 --buffer 3=64 "$spv" > "$out.time.txt" 2>&1 ||
      { cat "$out.time.txt"; die "$v: the timed run failed"; }
  done
  head -1 "$out_dir/$v.time.txt"
  vkstats --copy $((n * 4)) --runs "${RUNS:-20}" | grep "^copy" || die "the copy's timing failed"
  no_statistics "$out_dir/$v.stats.txt" && echo "(this device gives no pipeline statistics)"
  printf '%-16s %9s %13s %12s %11s\n' variant registers shared_bytes local_bytes median_us
  for v in $VARIANTS; do
    out=$out_dir/$v
    printf '%-16s %9s %13s %12s %11s\n' $v "$(statistic "Register Count" "$out.stats.txt")" \
      "$(statistic "Shared Memory Size" "$out.stats.txt")" "$(local_bytes "$out.stats.txt")" "$(median_us "$out.time.txt")"
  done
  echo "(files: $out_dir)"
  return $status
}

case ${1:-} in
  prepare) prepare ;;
  run) shift; run "$@" ;;
  *) sed -n 3,10p "$0" >&2; exit 2 ;;
esac
