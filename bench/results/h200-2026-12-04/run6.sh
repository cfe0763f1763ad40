# The whole suite on the H200 with the per-subgroup tables sized by SG_MIN and the
# segmented reduce on 660 workgroups; then the figures of the note.
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
L=$OUT/run6.log
CTEST_ARGS="-j8 --timeout 200" timeout 240 bash scripts/gpu-test.sh build > $OUT/suite.log 2>&1; echo "suite rc $?" > $L
grep -E "tests passed|tests failed|Failed|\*\*\*|Timeout" $OUT/suite.log | tail -20 >> $L
B() { name=$1; shift; echo "== $name" >> $L; build/wgscan bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.out 2>&1 || tail -3 $OUT/x.out >> $L; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2 >> $L; }
B "scan" --series u32:add,f32:add,i32:max --algorithms single-pass --min 2^28 --max 2^28
B "primitives" --series none --min 2^28 --max 2^28 --primitives segmented-reduce-16,segmented-reduce-256,segmented-reduce-4096,scan-by-key-16,select-flagged,select-flagged-1pass
