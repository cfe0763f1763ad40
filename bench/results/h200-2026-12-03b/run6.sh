for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
B() { b=$1; name=$2; shift 2; echo "== $name"; $b bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.log 2>&1; cut -d, -f1-5,9,10 $OUT/x.csv | tail -n +2; }
P="--series none --primitives reduce-by-key-256,select-flagged --min 2^28 --max 2^28"
B build/wgscan base $P
B build/ab/heads/wgscan heads $P
B build/wgscan base2 $P
B build/ab/heads/wgscan heads2 $P
build/ab/heads/wgscan reduce-by-key --n 2^28 --segments random:256 --repeat 3 --verify 2>&1 | grep -i "verif\|error\|gpu"
build/ab/heads/wgscan reduce-by-key --n 2^24 --segments random:3 --type f32 --repeat 3 --verify 2>&1 | grep -i "verif\|error"
build/ab/heads/test_select select_unique 2>&1 | tail -2
