for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
R=build/ab/regs/wgscan
B() { b=$1; name=$2; shift 2; echo "== $name"; $b bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.log 2>&1; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2; }
B $R regs --series u32:add,f32:add,i32:max --algorithms single-pass --min 2^28 --max 2^28
for cfg in 256,16,528 256,16,660 256,16,792 256,16,1320 512,16,396 128,16,1584 256,8,1584 1024,4,132 1024,4,264 512,8,660; do
  WGSCAN_TUNE_SP=$cfg B $R "regs $cfg" --series u32:add,f32:add --algorithms single-pass --min 2^28 --max 2^28
done
B $R regs-big --series u32:add,f32:add,i32:max --algorithms single-pass --min 2^30 --max 2^30
B $R regs-small --series u32:add --algorithms single-pass --min 2^20 --max 2^24
B build/wgscan base --series u32:add,f32:add --algorithms single-pass --min 2^28 --max 2^28
echo "== test_scan"; (time build/ab/regs/test_scan) > $OUT/t.log 2>&1; grep -E "FAIL|passed" $OUT/t.log; tail -3 $OUT/t.log
