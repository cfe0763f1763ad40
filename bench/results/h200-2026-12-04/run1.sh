# Issue 17: the blocked tile layout of the persistent single pass against the rows,
# shapes and grids of the blocked one, then test_scan on the H200. One device call.
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run1.log
B() { name=$1; shift; echo "== $name" >> $L; build/wgscan bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.out 2>&1 || tail -3 $OUT/x.out >> $L; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2 >> $L; }
build/wgscan info | head -4 > $L
S="--series u32:add,f32:add,i32:max --algorithms single-pass"
WGSCAN_SP_LAYOUT=rows B "rows 256x16" $S --min 2^20 --max 2^30
WGSCAN_SP_LAYOUT=blocked B "blocked 256x16" $S --min 2^20 --max 2^30
for sh in 256,8 128,16 512,16 256,32 128,32 512,8 256,16,528 256,16,660 256,16,792 128,16,2112 128,32,1056 64,16,2112; do
  WGSCAN_SP_LAYOUT=blocked WGSCAN_TUNE_SP=$sh B "blocked $sh" $S --min 2^28 --max 2^28
done
WGSCAN_SP_LAYOUT=rows B "rows again 256x16" $S --min 2^28 --max 2^28
echo "== test_scan" >> $L
(cd build && timeout 300 tests/test_scan > $OUT/test_scan.log 2>&1; echo "test_scan rc $?" >> $L)
tail -3 $OUT/test_scan.log >> $L
