#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 5 (prepared 2026-12-05 on branch sortlab, issue 32; not yet run): the digit pass's
# design variant by variant, in GLSL through glslang, straight to NVIDIA's driver
# (`bench/lab/sort-variants-glsl.sh run 2^28`, RUNS 10): for each of the 33 variants of
# bench/lab/sort_tile.comp a check against the CPU's output, the driver's registers,
# shared memory and spills, and the median of 10 dispatches at 2^28 random keys; then the
# occupancy probe (bench/lab/smem_probe.comp: how many workgroups of 0 to 48 KiB of
# shared memory a core holds) and vkCmdCopyBuffer of 1 GiB. All in run5.log, the table
# last; each variant's files in sortvar.tgz.
# Prepared where glslang is: `cmake --build build --target sort_variants_prepare` (or
# `SGS=32 bash bench/lab/sort-variants-glsl.sh prepare`: the subgroups of 32 alone, which
# is all this machine needs), beside build/wgscan-vkstats.
# Carry: .gl, build/wgscan-vkstats, build/lab/spirv-val, build/lab/sortvar/sg32,
# build/lab/sortvar/probe (about 11 MB; all of build also serves where it stays under the
# carry's 64 MiB). About 60 to 100 s: no variant starts after 80 s (BUDGET), the probe and
# the copy follow; a pass that hangs is cut at 30 s (VKSTATS_TIMEOUT).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run5.log
start=$(date +%s)
RESULTS=$OUT/sortvar RUNS=10 BUDGET=80 timeout 115 bash bench/lab/sort-variants-glsl.sh run 2^28 > $L 2>&1
echo "sort-variants-glsl rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -q "^variant " $L || { echo "(cut short: the rows so far)"; cat $OUT/sortvar/rows.txt; } >> $L
(cd $OUT && tar czf sortvar.tgz sortvar && rm -rf sortvar)
cat $L
