# The segmented reduce with each run's first border from workgroup memory (its segment
# and begin, atomic minima of the owners: no load for a run with one border): the whole
# suite, issue 18's figures, the reduce by key alone in its own process.
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run10.log
B() { name=$1; shift; echo "== $name" >> $L; build/wgscan bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.out 2>&1 || tail -3 $OUT/x.out >> $L; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2 >> $L; }
build/wgscan info | head -4 > $L
echo "tree: 2d34a1d" >> $L
CTEST_ARGS=-j8 bash scripts/gpu-test.sh build > $OUT/suite.log 2>&1; echo "suite rc=$?" >> $L
tail -22 $OUT/suite.log >> $L
P="--series none --min 2^28 --max 2^28 --primitives"
SEG=segmented-reduce-16,segmented-reduce-256,segmented-reduce-4096
B "warm-up" --series u32:add --algorithms single-pass --min 2^28 --max 2^28
B "segmented default" $P $SEG
B "reduce-by-key alone" $P reduce-by-key-256
WGSCAN_TUNE_SEGMENTED=128,16,1452 B "segmented 128,16,1452" $P $SEG
B "segmented default again" $P $SEG
B "reduce-by-key alone again" $P reduce-by-key-256
B "segmented 2^20 .. 2^30" --series none --min 2^20 --max 2^30 --primitives $SEG
