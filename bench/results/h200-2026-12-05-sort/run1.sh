# Run 1 (issue 32): `build` at c0f55f0 (per-key code written out per item, the one-sweep
# histogram and overlap, values through workgroup memory), `build-base` at eb54dec (main
# before): the sort tests, both algorithms at several tile shapes, sizes and key types, Dawn robustness off.
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run1.log
S() { # build algorithm n extra-args...: one `wgscan sort --repeat 10` line
  b=$1 a=$2 n=$3; shift 3
  t=$(env $ENVV "$b/wgscan" sort --n $n --algorithm $a --repeat 10 "$@" 2>&1 | grep -E "GPU time|rror" | head -2 | tr -s ' ')
  echo "$b $a n=$n $* ${ENVV:-}: $t" >> $L
}
build/wgscan info | head -4 > $L
(cd build/tests && timeout 200 ./test_sort > $OUT/test_sort.log 2>&1; echo "test_sort rc=$?" >> $L)
tail -3 $OUT/test_sort.log >> $L
N=268435456
for b in build-base build; do ENVV= S $b reduce-scan $N; ENVV= S $b onesweep $N; done
for sh in 256,8 256,12 256,16 256,20 256,24 128,16 128,32; do
  ENVV=WGSCAN_TUNE_SORT=$sh S build reduce-scan $N
  ENVV=WGSCAN_TUNE_SORT=$sh S build onesweep $N
done
ENVV=WGSCAN_DAWN_TOGGLES=disable_robustness S build reduce-scan $N
ENVV=WGSCAN_DAWN_TOGGLES=disable_robustness S build onesweep $N
for n in 1048576 16777216; do for a in reduce-scan onesweep; do ENVV= S build $a $n; ENVV= S build-base $a $n; done; done
for k in "--pairs" "--type u64" "--type f32" "--type i32"; do ENVV= S build reduce-scan $N $k; ENVV= S build onesweep $N $k; ENVV= S build-base reduce-scan $N $k; done
