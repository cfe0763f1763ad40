# Issue 17: the persistent single pass with its waiting tile parked in workgroup memory
# (WGSCAN_SP_KEEP=workgroup) against registers, shapes and grids, then test_scan.
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run2.log
B() { name=$1; shift; echo "== $name" >> $L; build/wgscan bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.out 2>&1 || tail -3 $OUT/x.out >> $L; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2 >> $L; }
build/wgscan info | head -4 > $L
S="--series u32:add,f32:add,i32:max --algorithms single-pass"
WGSCAN_SP_KEEP=registers B "registers 256x16 (warm-up)" $S --min 2^28 --max 2^28
WGSCAN_SP_KEEP=registers B "registers 256x16" $S --min 2^20 --max 2^30
WGSCAN_SP_KEEP=workgroup B "workgroup 256x16" $S --min 2^20 --max 2^30
for sh in 256,16,660 256,16,792 256,16,1056 256,16,1320 512,16,264 512,16,396 128,16,2112 128,16,1584 256,32,528 256,32,396 512,8,1024 256,8,1584 128,32,1056; do
  WGSCAN_SP_KEEP=workgroup WGSCAN_TUNE_SP=$sh B "workgroup $sh" $S --min 2^28 --max 2^28
done
for sh in 256,16,660 128,16,2112; do
  WGSCAN_SP_KEEP=registers WGSCAN_TUNE_SP=$sh B "registers $sh" $S --min 2^28 --max 2^28
done
echo "== test_scan" >> $L
(cd build && timeout 300 tests/test_scan > $OUT/test_scan.log 2>&1; echo "test_scan rc $?" >> $L)
tail -3 $OUT/test_scan.log >> $L
