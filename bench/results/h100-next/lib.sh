# SPDX-License-Identifier: MIT
# lib.sh: what every run script of this folder starts with, sourced as
#   . bench/results/h100-next/lib.sh NAME
# on the device machine, in the repository root: the GL and Vulkan loader packages
# carried in .gl unpacked, the pinned Dawn named, the log $L ($OUT/NAME.log) begun with
# the GPU, its driver and the commit, and two helpers:
#   S label envs args...  one `wgscan` command (envs: assignments, or - for none), its
#                         GPU time, errors and verification on one line of $L
#   P program label envs args...  the same with another build (a base to compare with)
#   sass_archive          the SPIR-V modules put in $out/sass disassembled
#                         (bench/lab/sass.sh), their registers, local and shared
#                         memory and instruction counts in $L, all in
#                         $out/sass.tar.gz
#   suite [until]         the whole suite (scripts/gpu-test.sh, -j12) into
#                         $OUT/suite.log, ended by `until` seconds from the start
#                         (default 590), its result in $L
set -u
[ -d .gl ] && { for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; }
out=${OUT:-out}
L=$out/$1.log
export WGSCAN_WEBGPU_LIB=$PWD/node_modules/bun-webgpu-linux-x64/libwebgpu_wrapper.so
start=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log -1 --format=%h 2>/dev/null; } > $L
P() { # program label envs args...: as S, with another build of wgscan
  local prog=$1 lab=$2 envs=$3 t; shift 3
  [ "$envs" = - ] && envs=
  t=$(env $envs timeout 60 $prog "$@" 2>&1 | grep -E "GPU|rror|verify|^wgscan:" | head -3 | tr -s ' ' | tr '\n' ' ')
  echo "$lab [$envs] $*: $t ($(( $(date +%s) - start )) s)" >> $L
}
S() { P build/wgscan "$@"; }
sass_archive() {
  (cd $out/sass && BUILD=$OLDPWD/build timeout 120 bash $OLDPWD/bench/lab/sass.sh . *.spv) > $out/sass.log 2>&1
  grep -E "^==|instructions|Register Count|Local Memory|Shared Memory|not disass" $out/sass.log >> $L
  rm -f $out/sass/*.cache $out/sass/*.code $out/sass/*.err
  (cd $out && tar czf sass.tar.gz sass sass.log && rm -rf sass sass.log)
}
suite() {
  CTEST_ARGS=-j12 timeout $(( ${1:-590} - ($(date +%s) - start) )) bash scripts/gpu-test.sh build > $out/suite.log 2>&1
  echo "suite rc=$? t=$(( $(date +%s) - start )) s" >> $L
  grep -E "tests passed|Failed|SEGFAULT|CRASH|Exception|\*\*\*" $out/suite.log >> $L
}
