for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
B() { b=$1; name=$2; shift 2; echo "== $name"; $b bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.log 2>&1; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2; }
S="--series u32:add,f32:add,i32:max --algorithms single-pass --min 2^28 --max 2^28"
B build/wgscan base $S
B build/ab/redux/wgscan redux $S
WGSCAN_TUNE_SP=256,16,528 B build/ab/redux/wgscan "redux 528" --series u32:add --algorithms single-pass --min 2^28 --max 2^28
WGSCAN_TUNE_SP=256,16,660 B build/ab/redux/wgscan "redux 660" --series u32:add --algorithms single-pass --min 2^28 --max 2^28
B build/ab/redux/wgscan redux-big --series u32:add --algorithms single-pass --min 2^30 --max 2^30
build/ab/redux/test_scan scan_matrix_u32_single_pass 2>&1 | tail -1
build/ab/redux/test_scan scan_single_pass_forced_fallback 2>&1 | tail -1
