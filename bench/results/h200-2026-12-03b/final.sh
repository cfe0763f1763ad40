# The whole suite on the H200, then the scan against the build before the merge.
CTEST_ARGS="-j4" bash scripts/gpu-test.sh build > $OUT/suite.log 2>&1; echo "suite rc $?"; grep -E "tests passed|tests failed|Failed|Passed" $OUT/suite.log | tail -30
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
B() { b=$1; name=$2; shift 2; echo "== $name"; $b bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.log 2>&1; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2; }
S="--series u32:add,f32:add --algorithms single-pass --min 2^28 --max 2^28"
B build/ab/base/wgscan base $S
B build/wgscan merged $S
