# Issue 18: the segmented reduce with 16-bit codes (4.6 KiB of workgroup memory at
# 128 x 16 instead of 10.3) on grids that fit; the scan by key at 256 x 8; tests.
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run5.log
B() { name=$1; shift; echo "== $name" >> $L; build/wgscan bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.out 2>&1 || tail -3 $OUT/x.out >> $L; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2 >> $L; }
build/wgscan info | head -4 > $L
P="--series none --min 2^28 --max 2^28 --primitives"
SEG=segmented-reduce-16,segmented-reduce-256,segmented-reduce-4096
B "warm-up" --series u32:add --algorithms single-pass --min 2^28 --max 2^28
B "segmented default" $P $SEG
for sh in 128,16,660 128,16,924 128,16,1056 128,16,1188 128,16,1320 256,16,528 256,16,660 64,16,1452 64,16,2112 64,16,2640 128,8,1452 128,8,2112 256,8,1056 32,32,2112; do
  WGSCAN_TUNE_SEGMENTED=$sh B "segmented $sh" $P $SEG
done
B "reduce-by-key alone" $P reduce-by-key-256
WGSCAN_TUNE_SEGMENTED=128,16,1320 B "reduce-by-key alone 128,16,1320" $P reduce-by-key-256
B "scan-by-key 256x8" $P scan-by-key-16,scan-by-key-4096
B "segmented-scan" $P segmented-scan-16,segmented-scan-256,segmented-scan-4096
for t in test_segmented test_reduce test_scan_by_key test_segmented_scan; do
  (cd build && timeout 300 tests/$t > $OUT/t.log 2>&1; echo "$t rc $?" >> $L; tail -1 $OUT/t.log >> $L)
done
