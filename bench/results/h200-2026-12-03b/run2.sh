for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
B() { b=$1; name=$2; shift 2; echo "== $name"; $b bench --runs 20 --csv $OUT/x.csv --json /dev/null --svg /dev/null "$@" > $OUT/x.log 2>&1; cat $OUT/x.csv; }
S="--series u32:add,f32:add,i32:max --algorithms single-pass --min 2^28 --max 2^28"
B build/wgscan base $S
B build/ab/intfb/wgscan intfb $S
B build/ab/nofb/wgscan nofb $S
B build/ab/intfb/wgscan intfb-big --series u32:add,f32:add,i32:max --algorithms single-pass --min 2^30 --max 2^30
B build/wgscan base-big --series u32:add --algorithms single-pass --min 2^30 --max 2^30
B build/ab/intfb/wgscan intfb-small --series u32:add --algorithms single-pass --min 2^20 --max 2^24
B build/ab/selnofb/wgscan selnofb --series none --primitives select-flagged-1pass,select-if --min 2^28 --max 2^28
B build/ab/intfb/wgscan intfb-prims --series none --primitives select-flagged-1pass,segmented-reduce-16,scan-by-key-16 --min 2^28 --max 2^28
B build/wgscan base-prims --series none --primitives segmented-reduce-16,scan-by-key-16 --min 2^28 --max 2^28
