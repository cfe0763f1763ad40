#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 37, item 10, on the GPU machine: after the by-key primitives at 2^28 the whole
# process ran 2.4 times slower (the copy beside each bench point 520 -> 1260 us). This
# finds what a process must have done for that, in one device call (carry .gl, build/
# wgscan, node_modules/bun-webgpu-linux-x64), results to $OUT (or out/):
#   1. nvidia-smi logs clocks, memory, power and throttle reasons every 200 ms throughout;
#   2. each primitive alone at 2^28 in a process of its own (its copy_us: the baseline);
#   3. the sweep of `--primitives all` at 2^28 only, in one process, then growing
#      prefixes of the by-key primitives after the sorts and segments, so the first one
#      whose copy_us jumps names the trigger;
#   4. the same sweep with 2^27 as the largest size.
#   scripts/gpu-pace.sh
set -u
out=${OUT:-out}
mkdir -p "$out"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export WGSCAN_WEBGPU_LIB="$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,memory.used,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 200 > "$out/smi.csv" 2>&1 &
smi=$!
bench() { # label, primitives, min, max
  echo "== $1 $(date +%T)" >> "$out/pace.txt"
  build/wgscan bench --series none --primitives "$2" --min "$3" --max "$4" --runs 20 \
    --csv "/tmp/$1.csv" --json "/tmp/$1.json" --svg "/tmp/$1.svg" > /dev/null 2>> "$out/pace.txt"
  # primitive, n, time, copy and whether the bench saw the pace change (its own columns)
  cut -d, -f1-12 "/tmp/$1.csv" >> "$out/pace.txt"
  nvidia-smi --query-gpu=memory.used --format=csv,noheader >> "$out/pace.txt"
}
for p in reduce-tree sort-keys segmented-scan-4096 scan-by-key-16 reduce-by-key-256; do
  bench "alone-$p" "$p" 2^28 2^28
done
bench all-2p28 all 2^28 2^28
before=reduce-tree,select-if,sort-keys,sort-pairs,sort-u64,segmented-reduce-16,segmented-scan-16,segmented-scan-4096
for tail in scan-by-key-16 scan-by-key-16,scan-by-key-256 scan-by-key-16,scan-by-key-256,scan-by-key-4096,reduce-by-key-256; do
  bench "prefix-$(echo "$tail" | tr -cd ',' | wc -c)" "$before,$tail" 2^28 2^28
done
bench all-2p27 all 2^27 2^27
kill $smi
