# SPDX-License-Identifier: MIT
# vk-lab.sh: what bench/lab/tint-vs-glslang.sh and bench/lab/sort-variants-glsl.sh share,
# sourced by both after they set LAB_NAME (for messages) and VKSTATS (wgscan-vkstats):
# N as a number or 2^K, wgscan-vkstats under an optional Vulkan ICD, the check's keys of
# the digit pass, and the figures read back from wgscan-vkstats' output.

die() { echo "$LAB_NAME: $*" >&2; exit 2; }
pow() { case $1 in 2^*) echo $((1 << ${1#2^})) ;; *) echo $(($1)) ;; esac; }
# Refuses an N that is neither a positive number nor 2^K (K < 40).
valid_n() {
  case $1 in 2^[0-9] | 2^[1-3][0-9] | [1-9] | [1-9]*[0-9]) ;; *) die "N is a number or 2^K: '$1'" ;; esac
  case $1 in 2^*) ;; *[!0-9]*) die "N is a number or 2^K: '$1'" ;; esac
}

# VKSTATS_ICD: a Vulkan ICD's .json for wgscan-vkstats alone (as its VK_ICD_FILENAMES;
# Dawn keeps its own choice, which that variable would change). VKSTATS_TIMEOUT: seconds
# a call may take (a pass that never finishes would otherwise hold the GPU for the
# tool's 600 s).
vkstats() {
  local t=
  [ -z "${VKSTATS_TIMEOUT:-}" ] || t="timeout $VKSTATS_TIMEOUT"
  if [ -n "${VKSTATS_ICD:-}" ]; then VK_ICD_FILENAMES=$VKSTATS_ICD $t "$VKSTATS" "$@"; else $t "$VKSTATS" "$@"; fi
}

# The check's keys and expected output (bench/lab/sort_check.py): GROUP keys a workgroup,
# TILE keys a tile, about N keys, slack A, mode, file prefix; writes the generator's
# 'n=.. groups=.. span=.. out_bytes=..' line to PREFIX.meta, which check_field reads.
check_keys() {
  command -v python3 >/dev/null || die "no python3 (the check's keys)"
  python3 "$ROOT/bench/lab/sort_check.py" --group "$1" --tile "$2" --n "$3" --slack "$4" --mode "$5" --out "$6" > "$6.meta" ||
    die "sort_check.py failed for $6"
}
check_field() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" "$2"; }
# Whether output file $1 is the check's expected output $2 (PREFIX-want.bin.gz).
same_as_want() { gzip -dc "$2" | cmp -s - "$1"; }

# One statistic of one module's wgscan-vkstats output ('-' where the driver gives none).
statistic() { awk -v k="$1" '$0 ~ "^    " k " " { v = $NF } END { print v == "" ? "-" : v }' "$2"; }
# Local memory (spills and arrays the driver did not keep in registers): the low 32 bits
# of NVIDIA's 'Local Memory Size', which read 2^36 more than that on the H200 on 2026-12-05.
local_bytes() {
  local loc
  loc=$(statistic "Local Memory Size" "$1")
  [ "$loc" = - ] || loc=$((loc % (1 << 32)))
  echo "$loc"
}
median_us() { sed -n 's/.*time: median \([0-9.]*\) us.*/\1/p' "$1" | head -1; }
no_statistics() { grep -q "no VK_KHR_pipeline_executable_properties" "$1"; }
