# The segmented reduce without its per-element codes (workgroup memory 8.6 -> ~1.7 KiB a
# workgroup at 128 x 16), build2, beside main's occupancy branch (build) in the same run;
# the whole suite on build2 first (on build too where build2's fails).
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run7.log
B() { bin=$1; name=$2; shift 2; echo "== $bin $name" >> $L; $bin/wgscan bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.out 2>&1 || tail -3 $OUT/x.out >> $L; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2 >> $L; }
build2/wgscan info | head -4 > $L
CTEST_ARGS=-j8 bash scripts/gpu-test.sh build2 > $OUT/suite-build2.log 2>&1; echo "suite build2 rc=$?" >> $L
tail -25 $OUT/suite-build2.log >> $L
if ! grep -q "100% tests passed" $OUT/suite-build2.log; then
  CTEST_ARGS=-j8 bash scripts/gpu-test.sh build > $OUT/suite-build.log 2>&1; echo "suite build rc=$?" >> $L
  tail -25 $OUT/suite-build.log >> $L
fi
P="--series none --min 2^28 --max 2^28 --primitives"
SEG=segmented-reduce-16,segmented-reduce-256,segmented-reduce-4096
B build "warm-up" --series u32:add --algorithms single-pass --min 2^28 --max 2^28
B build "segmented default (codes)" $P $SEG,reduce-by-key-256
B build2 "segmented default (bits)" $P $SEG,reduce-by-key-256
for sh in 128,16,1056 128,16,1320 128,16,1584 128,16,2112 128,16,2640 256,16,660 256,16,1056 64,16,2112 64,16,3168 128,8,2112 256,8,1320 128,32,660; do
  WGSCAN_TUNE_SEGMENTED=$sh B build2 "segmented $sh" $P $SEG
done
B build2 "segmented default again" $P $SEG
