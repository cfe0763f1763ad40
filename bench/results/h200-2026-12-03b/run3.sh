for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for cfg in 256,16,264 256,16,396 256,16,528 256,16,660 256,16,792 256,16,1024 256,8,1056 256,8,1584 256,8,2048 512,8,528 512,8,792 128,16,1056 128,16,1584 128,16,2112; do
  echo "== $cfg"; WGSCAN_TUNE_SP=$cfg build/wgscan bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null --series u32:add,f32:add --algorithms single-pass --min 2^28 --max 2^28 > $OUT/x.log 2>&1; tail -2 $OUT/x.csv | cut -d, -f1,2,5,9,10
done
