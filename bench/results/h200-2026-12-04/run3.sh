# Issue 17/18: does workgroup memory cost occupancy on the H200's Vulkan driver? The
# persistent scan with an unused-but-allocated workgroup array of BALLAST u32 (a build
# with bench/results/h200-2026-12-04/ballast.patch), then baselines of the primitives.
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run3.log
B() { name=$1; shift; echo "== $name" >> $L; build/wgscan bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.out 2>&1 || tail -3 $OUT/x.out >> $L; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2 >> $L; }
build/wgscan info | head -4 > $L
S="--series u32:add,f32:add --algorithms single-pass --min 2^28 --max 2^28"
B "warm-up" $S
for b in 1 256 512 1024 1536 2048 3072 4096 6144 8192 10240; do
  WGSCAN_BALLAST=$b B "ballast $b u32" $S
done
B "primitives 2^28" --series none --primitives segmented-reduce-16,segmented-reduce-256,segmented-reduce-4096,scan-by-key-16,reduce-by-key-256,select-if,select-flagged,select-flagged-1pass --min 2^28 --max 2^28
B "select 2^16..2^24" --series none --primitives select-flagged,select-flagged-1pass --min 2^16 --max 2^24
