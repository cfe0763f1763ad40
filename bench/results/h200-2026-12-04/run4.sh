# Workgroup memory costs occupancy (run3): with the per-subgroup tables sized by the
# device's smallest subgroup (SG_MIN), shapes and grids chosen to fit ~48 KiB a core:
# the segmented reduce, select's single pass, the scan by key; the scan for SG_MIN.
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run4.log
B() { name=$1; shift; echo "== $name" >> $L; build/wgscan bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.out 2>&1 || tail -3 $OUT/x.out >> $L; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2 >> $L; }
build/wgscan info | head -4 > $L
P="--series none --min 2^28 --max 2^28 --primitives"
B "scan (warm-up)" --series u32:add,f32:add,i32:max --algorithms single-pass --min 2^28 --max 2^28
B "scan" --series u32:add,f32:add,i32:max --algorithms single-pass --min 2^28 --max 2^28
SEG=segmented-reduce-16,segmented-reduce-256,segmented-reduce-4096
B "segmented default" $P $SEG
for sh in 128,16,660 128,8,1452 128,8,1320 64,16,1452 256,8,660 64,8,2772 128,4,2112 256,4,1056 32,16,2772 64,8,2112; do
  WGSCAN_TUNE_SEGMENTED=$sh B "segmented $sh" $P $SEG
done
B "select 1pass default" $P select-flagged-1pass,select-flagged
for sh in 256,8 128,16 128,8 64,16 64,8 32,16 256,16; do
  WGSCAN_TUNE_SELECT=$sh B "select 1pass $sh" $P select-flagged-1pass
done
B "by key default" $P scan-by-key-16,segmented-scan-16,reduce-by-key-256
for sh in 128,16 128,8 256,8 64,16; do
  WGSCAN_TUNE_SCAN_BY_KEY=$sh B "scan-by-key $sh" $P scan-by-key-16
done
