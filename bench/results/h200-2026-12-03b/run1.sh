for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
B() { b=$1; name=$2; shift 2; $b bench --runs 20 --csv $OUT/$name.csv --json $OUT/$name.json --svg /dev/null "$@" > $OUT/$name.log 2>&1; echo "== $name"; cat $OUT/$name.csv; }
S="--series u32:add,f32:add,i32:max --algorithms single-pass --min 2^28 --max 2^28"
build/wgscan info | head -3
B build/wgscan base $S
B build/ab/imad/wgscan imad $S
B build/ab/cut1/wgscan cut1 $S
B build/ab/cut2/wgscan cut2 $S
B build/ab/cut3/wgscan cut3 $S
B build/wgscan base2 $S
B build/wgscan small --series u32:add --algorithms single-pass --min 2^20 --max 2^24
B build/ab/imad/wgscan imadsmall --series u32:add --algorithms single-pass --min 2^20 --max 2^24
B build/wgscan prims --series none --primitives select-if,select-flagged,select-flagged-1pass,reduce-tree --min 2^28 --max 2^28
