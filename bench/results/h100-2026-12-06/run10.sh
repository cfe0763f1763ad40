#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run 10 (prepared 2026-12-05, fifth session, extended in the sixth; not yet run): what
# the sessions left for the GPU, in one call of at most 240 s, the most needed first:
#   0. issue 32: the sort's tile shapes at 2^28 (6f147b4 lets the tile take 384 x 23,
#      512 x 16, ...) for keys and pairs, each beside the copy;
#   1. the whole suite (-j12): 6f147b4's sort tile, e1c36c8's top-k row path (its tests
#      force both paths), 4832923's tiny segments, 833f7e1's operators, d0180de (layers);
#   2. issue 36: top-k's row path against the passes (64 rows x 128k f32, k = 50: 0.192
#      ms on the passes at 256 x 8, 0.248 at 256 x 16), its shapes, its bounds; the
#      segmented sort at 2^26 in segments of 16, 32, 4096, 65536 (CUB 0.321 / - / 1.459 /
#      2.779 ms in h100-2026-12-05e/run6.log);
#   3. issue 32: what the driver made of the library's sort tile at 256 x 8, 256 x 16 and
#      384 x 23 (bench/lab/dump-spirv.sh, wgscan-vkstats: registers, workgroup memory,
#      spills), since 256 x 16 was 47% slower in the library and faster in the lab;
#   4. issue 33: the affine f32 scan at 2^28 over tile shapes (3.545 ms, 2.48 copies);
#   5. issue 37 item 10: scripts/gpu-pace.sh if time is left.
# Carry: .gl, build (with build/lab: spirv-as, spirv-val, the log shim; drop
# build/lab/tvg and build/lab/sortvar if past 64 MiB), node_modules/bun-webgpu-linux-x64.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run10.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
left() { echo $(( 240 - ($(date +%s) - start) )); }
build/wgscan info | head -2 > $L
# Issue 32: the sort's tile shapes at 2^28 beside the copy (workgroups past 256 and
# items no power of two run since the tile's digit steps take any workgroup).
for s in 256,8 384,23 512,16 256,16 384,16; do
  [ $(left) -gt 205 ] || break
  echo "sort-keys $s: $(WGSCAN_TUNE_SORT=$s timeout 40 build/wgscan bench --series none --primitives sort-keys \
    --min 268435456 --max 268435456 --csv /dev/stdout 2>&1 | grep -E ',sort-|rror' | tr '\n' ' ') ($(( $(date +%s) - start )) s)" >> $L
done
for s in 256,8 384,12; do
  [ $(left) -gt 200 ] || break
  echo "sort-pairs $s: $(WGSCAN_TUNE_SORT=$s timeout 40 build/wgscan bench --series none --primitives sort-pairs \
    --min 268435456 --max 268435456 --csv /dev/stdout 2>&1 | grep -E ',sort-|rror' | tr '\n' ' ') ($(( $(date +%s) - start )) s)" >> $L
done
CTEST_ARGS=-j12 timeout 170 bash scripts/gpu-test.sh build > $OUT/suite.log 2>&1
echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
grep -E "tests passed|Failed|SEGFAULT|CRASH|Exception|\*\*\*" $OUT/suite.log >> $L
C() { # label, env, command...: the lines with a GPU time
  l=$1 e=$2; shift 2
  [ $(left) -gt 15 ] || { echo "$l: skipped (time)" >> $L; return; }
  t=$(env $e timeout 40 build/wgscan "$@" 2>&1 | grep -E "GPU|rror|verify" | head -4 | tr -s ' ' | tr '\n' ' ')
  echo "$l [$e] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
for l in 16 256 4096 65536; do C segsort X=0 segmented-sort --n 67108864 --segments $l --repeat 10; done
R="--n 131072 --rows 64 --k 50 --type f32 --payload index"
for p in multi rows; do C topk WGSCAN_TOPK_PATH=$p topk $R --repeat 50 --verify; done
for s in 256,16 256,8 512,8; do C affine WGSCAN_TUNE_SP=$s scan --operator examples/operators/affine.wgsl --n 268435456 --inclusive --algorithm single-pass --repeat 20 --verify; done
C affine X=0 scan --operator examples/operators/affine.wgsl --n 268435456 --inclusive --algorithm multilevel --repeat 20
for l in 4096 65536; do C segsort X=0 segmented-sort --n 67108864 --segments $l --repeat 1 --verify; done
for t in 256,8 256,16,128,16,1048576 256,8,256,16,1048576; do
  for l in 4096 65536; do C segsort WGSCAN_TUNE_SEGSORT=$t segmented-sort --n 67108864 --segments $l --repeat 10; done
done
for s in 1024,4 1024,8 512,8 256,16; do C topk "WGSCAN_TOPK_PATH=rows WGSCAN_TUNE_TOPK_ROWS=$s" topk $R --repeat 50; done
for p in multi rows; do C topk WGSCAN_TOPK_PATH=$p topk --n 262144 --rows 64 --k 1024 --type f32 --repeat 20; done
for p in multi rows; do C topk WGSCAN_TOPK_PATH=$p topk --n 262144 --k 1024 --repeat 20; done
C topk X=0 topk --n 268435456 --k 1024 --repeat 20
for s in 256,8,1 256,16,1 384,23,1; do
  BUILD=build SPIRV_AS=build/lab/spirv-as SPIRV_VAL=build/lab/spirv-val WGSCAN_TUNE_SORT=$s timeout 60 \
    bash bench/lab/dump-spirv.sh $OUT/spirv-$s sort --n 1048576 --repeat 1 > $OUT/spirv-$s.log 2>&1
  echo "dump-spirv $s rc=$?" >> $L; grep -iE "sort_(count|scatter|pass)|register|spill|local" $OUT/spirv-$s.log | head -20 >> $L
done
[ $(left) -gt 150 ] && OUT=$OUT/pace timeout $(( $(left) - 10 )) bash scripts/gpu-pace.sh > $OUT/pace.log 2>&1
echo "pace rc=$? t=$(( $(date +%s) - start )) s" >> $L
(cd $OUT && tar czf spirv.tgz spirv-* 2>/dev/null && rm -rf spirv-*/)
cat $L
