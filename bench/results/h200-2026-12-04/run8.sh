# The segmented reduce without per-element codes, second form (build2: the codes of a
# run's borders searched before its values are walked, out of the unrolled loop), beside
# the occupancy branch (build) and build2 without the searches (build3, wrong output,
# timing only); grids swept; the whole suite on build2.
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run8.log
B() { bin=$1; name=$2; shift 2; echo "== $bin $name" >> $L; $bin/wgscan bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.out 2>&1 || tail -3 $OUT/x.out >> $L; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2 >> $L; }
build2/wgscan info | head -4 > $L
P="--series none --min 2^28 --max 2^28 --primitives"
SEG=segmented-reduce-16,segmented-reduce-256,segmented-reduce-4096
B build "warm-up" --series u32:add --algorithms single-pass --min 2^28 --max 2^28
B build "segmented default (codes)" $P $SEG,reduce-by-key-256
B build2 "segmented default (bits, prepass)" $P $SEG,reduce-by-key-256
for sh in 128,16,1056 128,16,1320 128,16,1584 128,16,2112 256,16,1056 128,32,1056; do
  WGSCAN_TUNE_SEGMENTED=$sh B build2 "segmented $sh" $P $SEG
done
B build3 "segmented default (no searches)" $P $SEG
WGSCAN_TUNE_SEGMENTED=128,16,1584 B build3 "segmented 128,16,1584 (no searches)" $P $SEG
B build "segmented default (codes) again" $P $SEG
CTEST_ARGS=-j8 bash scripts/gpu-test.sh build2 > $OUT/suite-build2.log 2>&1; echo "suite build2 rc=$?" >> $L
tail -22 $OUT/suite-build2.log >> $L
