# Run 2 (issue 32): what the driver made of the sort's kernels, where a pass's time goes,
# five variants, then the whole suite on E. Builds of the working tree after db33d8b:
# `build-a-slim` c0f55f0 (A: per-key code written out, ranking in three sweeps, values
# through workgroup memory); `build-b-slim` (B: A with each key ranked in one go, its
# digit taken again from the key where needed); `build-c-slim` (C: B with each owner's
# count read once after the ranking, the runs' bases less the digit starts);
# `build-d-slim` (D: C with one room in workgroup memory for the owners' counters and
# then the keys); `build-e` (E: D with A's ranking in three sweeps, which SwiftShader
# compiles; B's per-key calls took it over 30 minutes and 8 GB in the reduce-then-scan
# scatter). Dumps: bench/lab/dump-spirv.sh (Dawn's SPIR-V, wgscan-vkstats' statistics
# from NVIDIA's driver).
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run2.log
build-e/wgscan info | head -4 > $L
S() { # build algorithm n extra-args...: one `wgscan sort --repeat 10` line
  b=$1 a=$2 n=$3; shift 3
  t=$(env $ENVV "$b/wgscan" sort --n $n --algorithm $a --repeat 10 "$@" 2>&1 | grep -E "GPU time|rror" | head -2 | tr -s ' ')
  echo "$b $a n=$n $* ${ENVV:-}: $t" >> $L
}
N=268435456
for b in build-a-slim build-e; do ENVV= S $b reduce-scan $N; ENVV= S $b onesweep $N; done
CTEST_ARGS=-j8 bash scripts/gpu-test.sh build-e > $OUT/suite-e.log 2>&1; echo "suite (build-e) rc=$?" >> $L
tail -22 $OUT/suite-e.log >> $L
for b in build-e build-a-slim; do
  for a in reduce-scan onesweep; do
    d=$OUT/spirv-$b-$a
    BUILD=$PWD/$b SPIRV_AS=$PWD/build-e/lab/spirv-as SPIRV_VAL=$PWD/build-e/lab/spirv-val \
      timeout 60 bash bench/lab/dump-spirv.sh $d sort --n 16777216 --repeat 1 --algorithm $a > $d.txt 2>&1
    echo "== dump $b $a rc=$?" >> $L
    grep -iE "^[0-9][0-9]-|regist|spill|local|shared|occup|stack|warps|thread|statistic|executable|extension" $d.txt | head -60 >> $L
  done
done
for b in build-b-slim build-c-slim build-d-slim; do ENVV= S $b reduce-scan $N; ENVV= S $b onesweep $N; done
for b in build-d-slim build-e; do for sh in 256,4 256,16 256,32 128,16 128,32; do
  ENVV=WGSCAN_TUNE_SORT=$sh S $b reduce-scan $N
  ENVV=WGSCAN_TUNE_SORT=$sh S $b onesweep $N
done; done
for ph in count count,scan count,scan,scatter,no-rank count,scan,scatter,no-write count,scan,scatter,no-rank,no-write; do
  ENVV=WGSCAN_SORT_PHASES=$ph S build-e reduce-scan $N
done
for ph in count count,scatter,no-lookback count,scatter,no-rank count,scatter,no-write count,scatter,no-lookback,no-rank,no-write; do
  ENVV=WGSCAN_SORT_PHASES=$ph S build-e onesweep $N
done
for b in build-a-slim build-e; do ENVV= S $b reduce-scan $N --pairs; ENVV= S $b onesweep $N --pairs; done
for n in 1048576 16777216; do for a in reduce-scan onesweep; do ENVV= S build-e $a $n; done; done
for t in u64 f32 i32; do ENVV= S build-e reduce-scan $N --type $t; ENVV= S build-e onesweep $N --type $t; done
(cd $OUT && tar czf spirv.tgz spirv-* && rm -rf spirv-build-*)
for sh in 256,16 256,32; do
  (cd build-e/tests && WGSCAN_TUNE_SORT=$sh timeout 120 ./test_sort > $OUT/test_sort-$sh.log 2>&1; echo "test_sort (build-e) at $sh rc=$?" >> $L)
  tail -1 $OUT/test_sort-$sh.log >> $L
done
