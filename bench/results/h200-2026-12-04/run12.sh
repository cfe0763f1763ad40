# Is the scan by key's 256 x 8 failure (f32 add inclusive from the second tile; one
# segment from tile 33) a fault of that shape alone? The segmented scan through the CLI
# (--verify: every element against the CPU, f32 sums within wgscan.h's bound), one
# segment over everything and segments of 1792, at the default shape and at 256 x 8.
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
L=$OUT/run12.log
build/wgscan info | head -4 > $L
echo "tree: 7f16f3b" >> $L
for shape in default 256,8; do
  for n in 75781 200000 4194304; do
    for seg in $n 1792; do
      for ty in f32 u32; do
        for kind in --inclusive --exclusive; do
          if [ $shape = default ]; then unset WGSCAN_TUNE_SCAN_BY_KEY; else export WGSCAN_TUNE_SCAN_BY_KEY=$shape; fi
          out=$(build/wgscan segmented-scan --n $n --segments $seg --type $ty $kind --verify --repeat 1 2>&1 | tail -2 | tr '\n' ' ')
          echo "$shape n=$n segments=$seg $ty $kind : $out" >> $L
        done
      done
    done
  done
done
