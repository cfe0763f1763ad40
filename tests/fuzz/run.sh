#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs one libFuzzer target for a while; the Makefile's fuzz targets and ctest use it.
#   run.sh BINARY SECONDS CORPUS FINDINGS [SEEDS] [libFuzzer flags...]
# CORPUS receives the inputs that add coverage (created if missing), FINDINGS the crash,
# timeout and out-of-memory reproducers; SEEDS (a folder, used only if it exists) is read
# but never written. Exits non-zero when the target found something.
# Reproduce a finding:  BINARY FINDINGS/crash-...   (prints the failed check)
set -uo pipefail
bin=$1 seconds=$2 corpus=$3 findings=$4
shift 4
seeds=()
if (($#)) && [[ $1 != -* ]]; then
  [ -d "$1" ] && [ "$(readlink -f "$1")" != "$(readlink -f "$corpus")" ] && seeds=("$1")
  shift
fi
# FUZZ_FRESH=1 (the ctest smoke run): start from the seeds alone, every time the same.
[ "${FUZZ_FRESH:-0}" = 1 ] && rm -rf "$corpus"
mkdir -p "$corpus" "$findings"
# LeakSanitizer stays off (its stop-the-world tracer crashes at the exit of processes
# whose SwiftShader threads run on fibers, see the Makefile); a leak shows instead as
# growing memory against -rss_limit_mb / -malloc_limit_mb.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec "$bin" -max_total_time="$seconds" -timeout=300 -rss_limit_mb=4096 -malloc_limit_mb=2048 \
  -detect_leaks=0 -print_final_stats=1 -max_len=1024 -len_control=0 -artifact_prefix="$findings/" "$@" "$corpus" "${seeds[@]}"
