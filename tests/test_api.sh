#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest api: rules of the public API that no compiler checks (docs/abi.md).
#   - The host-array calls (wgs_*_host of wgscan.h), all thirteen, take their arguments in
#     one order: ctx, desc, the arrays they read (const pointers), the sizes (integers, n
#     first), then what they write (pointers). With void * a swap would compile silently.
#   - README.md names each of them.
#   - One version: project(VERSION) of CMakeLists.txt, WGSCAN_VERSION_* of wgscan.h, and a
#     section of CHANGELOG.md for it that says what it breaks (docs/abi.md's rule).
# Usage: test_api.sh SOURCE_DIR
set -u
src=$1
hdr=$src/include/wgscan.h
passed=0 failed=0
ok() { echo "[  OK  ] $1"; passed=$((passed + 1)); }
bad() { echo "[ FAIL ] $1"; failed=$((failed + 1)); }

# Each declaration on one line: "name|param|param|...".
decls=$(awk '
  /^WGS_API wgs_result wgs_[a-z_]+_host\(/ { d = $0; open = 1 }
  open && d != $0 { d = d " " $0 }
  open && /\);/ { open = 0; print d }' "$hdr" |
  sed -E 's/^WGS_API wgs_result (wgs_[a-z_]+_host)\((.*)\);.*/\1|\2/; s/ +/ /g; s/, */|/g')
count=$(printf '%s\n' "$decls" | grep -c .)
if [ "$count" = 13 ]; then ok "thirteen host-array calls"; else bad "thirteen host-array calls (found $count)"; fi
while IFS='|' read -r name params; do
  [ -n "$name" ] || continue
  IFS='|' read -r -a p <<<"$params"
  why=""
  [[ ${p[0]} == "wgs_context *ctx" ]] || why="first argument '${p[0]}', not wgs_context *ctx"
  [[ -z $why && ${p[1]} =~ ^const\ wgs_[a-z_]+_desc\ \*desc$ ]] || why=${why:-"second argument '${p[1]}', not the description"}
  phase=0 first_size=""
  for ((i = 2; i < ${#p[@]}; i++)); do
    [ -z "$why" ] || break
    a=${p[i]}
    if [[ $a == const*\** ]]; then k=0
    elif [[ $a != *\** ]]; then k=1; [ -n "$first_size" ] || first_size=${a##* }
    else k=2; fi
    if [ $k -lt $phase ]; then why="'$a' after a later kind of argument"; fi
    phase=$k
  done
  [[ -n $why || $first_size == n ]] || why="the first size is '$first_size', not n"
  if [ -z "$why" ]; then ok "$name: ctx, desc, inputs, sizes, outputs"; else bad "$name: $why"; fi
  if grep -q "\b$name\b" "$src/README.md"; then ok "README names $name"; else bad "README names $name"; fi
done <<<"$decls"

# One version, and the CHANGELOG's word on it.
hv() { sed -n "s/^#define WGSCAN_VERSION_$1 \([0-9]*\)$/\1/p" "$hdr"; }
version=$(hv MAJOR).$(hv MINOR).$(hv PATCH)
cmake_version=$(sed -n 's/^project(wgscan VERSION \([0-9.]*\) .*/\1/p' "$src/CMakeLists.txt")
if [ "$version" = "$cmake_version" ]; then ok "wgscan.h and CMakeLists.txt say $version"
else bad "wgscan.h says $version, CMakeLists.txt $cmake_version"; fi
if grep -q "^## $version\b" "$src/CHANGELOG.md" &&
   awk -v v="## $version" 'index($0, v) == 1 { on = 1; next } on && /^## / { exit } on && /^### Breaks/ { found = 1 }
                           END { exit !found }' "$src/CHANGELOG.md"; then
  ok "CHANGELOG.md has a section for $version with what it breaks"
else
  bad "CHANGELOG.md has a section '## $version' with a '### Breaks' part"
fi
if [ -f "$src/docs/abi.md" ] && grep -q "SONAME" "$src/docs/abi.md"; then ok "docs/abi.md states the policy"
else bad "docs/abi.md states the policy"; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
