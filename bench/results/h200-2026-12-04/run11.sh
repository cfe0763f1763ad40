# e8002ab (the segmented reduce's searches shared, no change of what they do): the whole
# suite and the segmented reduce's and reduce by key's figures once more.
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run11.log
B() { name=$1; shift; echo "== $name" >> $L; build/wgscan bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.out 2>&1 || tail -3 $OUT/x.out >> $L; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2 >> $L; }
build/wgscan info | head -4 > $L
echo "tree: e8002ab" >> $L
CTEST_ARGS=-j8 bash scripts/gpu-test.sh build > $OUT/suite.log 2>&1; echo "suite rc=$?" >> $L
tail -22 $OUT/suite.log >> $L
P="--series none --min 2^28 --max 2^28 --primitives"
B "warm-up" --series u32:add,f32:add,i32:max --algorithms single-pass --min 2^28 --max 2^28
B "segmented default" $P segmented-reduce-16,segmented-reduce-256,segmented-reduce-4096
B "reduce-by-key alone" $P reduce-by-key-256
B "scan-by-key-16 alone" $P scan-by-key-16
