for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
R=build/ab/np2/wgscan
for cfg in 384,16,396 320,16,528 192,16,792; do for t in u32 f32; do
  WGSCAN_TUNE_SP=$cfg $R scan --n 16777219 --type $t --algorithm single-pass --verify --repeat 1 2>&1 | grep -i "verif\|error" | sed "s/^/$cfg $t /"; done; done
for cfg in 256,16,1024 384,16,264 384,16,396 384,16,528 320,16,528 320,16,660 192,16,792 192,16,924 448,16,264 448,16,396 640,8,264; do
  echo "== $cfg"; WGSCAN_TUNE_SP=$cfg $R bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null --series u32:add,f32:add,i32:max --algorithms single-pass --min 2^28 --max 2^28 > $OUT/x.log 2>&1; tail -3 $OUT/x.csv | cut -d, -f1,2,5,9,10
done
