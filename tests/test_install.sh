#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest install: wgscan as a user gets it. Installs the build into a prefix outside the
# source and build trees, moves that prefix elsewhere (the install must be relocatable),
# then builds consumers against the moved copy only:
#   - pkg-config, shared:  cc $(pkg-config --cflags wgscan) main.c $(pkg-config --libs wgscan)
#   - pkg-config, static:  the same with --static, the archive picked with -l:libwgscan.a
#     (pkg-config cannot choose between libwgscan.a and libwgscan.so itself)
#   - find_package(wgscan), shared (wgscan::wgscan) and static (wgscan::wgscan_static)
# and runs each, and the installed CLI, with the source and build trees unreachable (an
# empty folder bind-mounted over each, in a mount namespace of their own) and an empty
# environment (no WGSCAN_WEBGPU_LIB, no LD_LIBRARY_PATH): each must load the Dawn copy
# of the prefix and compute a verified scan. Also checks that no installed file names
# the configure-time prefix, the source tree or the build tree.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd -P) src=$(cd "$2" && pwd -P)
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgscan-install.XXXXXX")
tmp=$(cd "$tmp" && pwd -P)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
passed=0 failed=0
ok() { echo "[  OK  ] $1"; passed=$((passed + 1)); }
bad() { echo "[ FAIL ] $1"; failed=$((failed + 1)); }
check() { # check NAME -- COMMAND...: passes when COMMAND succeeds
  local name=$1; shift 2
  if "$@" >"$tmp/out.txt" 2>&1; then ok "$name"; else cat "$tmp/out.txt"; bad "$name"; fi
}
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
inside() { case "$1/" in "$2"/*) return 0 ;; *) return 1 ;; esac; }
if inside "$tmp" "$src" || inside "$tmp" "$build"; then
  echo "the temporary folder $tmp lies inside the trees it must hide; set TMPDIR elsewhere"
  exit 1
fi

# ---- install, then move: nothing may depend on where the prefix first was -----------
if ! cmake --install "$build" --prefix "$tmp/staging" >"$tmp/out.txt" 2>&1; then
  cat "$tmp/out.txt"; bad "cmake --install"; finish
fi
mv "$tmp/staging" "$tmp/prefix"
prefix=$tmp/prefix
pc=$(find "$prefix" -name wgscan.pc | head -1)
config=$(find "$prefix" -name wgscanConfig.cmake | head -1)
runtime=$(find "$prefix" -name libwebgpu_wrapper.so | head -1)
check "header, libraries, CLI, pkg-config file and CMake package installed" -- \
  test -f "$prefix/include/wgscan.h" -a -f "$prefix/include/wgscan_webgpu.h" \
       -a -n "$(find "$prefix" -name libwgscan.a)" -a -n "$(find "$prefix" -name 'libwgscan.so')" \
       -a -x "$prefix/bin/wgscan" -a -n "$pc" -a -n "$config"
check "the Dawn runtime copy installed in <libdir>/wgscan" -- test -n "$runtime"
check "the runtime's licence beside it" -- test -f "$(dirname "$runtime")/LICENSE.libwebgpu_wrapper"
check "wgscan's licence installed" -- test -f "$prefix/share/doc/wgscan/LICENSE"
# The configure-time prefix, the staging prefix, the trees: none may be named.
configured=$(sed -n 's/^CMAKE_INSTALL_PREFIX:[A-Z]*=//p' "$build/CMakeCache.txt")
for what in "$configured" "$tmp/staging" "$src" "$build"; do
  [ -n "$what" ] || continue
  check "no installed text file names '$what'" -- \
    sh -c '! grep -rlF "$1" "$2/lib/pkgconfig" "$2/lib/cmake" "$2/include" 2>/dev/null | grep .' _ "$what" "$prefix"
done
# The compiled-in paths of the library and the CLI: none may lead into the trees.
for f in $(find "$prefix" -name 'libwgscan.*' -type f) "$prefix/bin/wgscan"; do
  check "$(basename "$f") names no path into the source or build tree" -- \
    sh -c '! grep -aF -e "$1/" -e "$2/" "$3" >/dev/null' _ "$src" "$build" "$f"
done

# ---- the consumers, built against the moved prefix only ---------------------------
export PKG_CONFIG_PATH=$(dirname "$pc")
pcf() { pkg-config "$@" wgscan; }
check "pkg-config: the include folder is inside the prefix" -- \
  test -f "$(pcf --variable=includedir)/wgscan.h"
libdir=$(pcf --variable=libdir)
# Shared: the user points the loader at a prefix outside its search path (here a
# RUNPATH; ldconfig or /usr/local would do as well).
check "pkg-config, shared: builds" -- \
  sh -c '"$1" $(pkg-config --cflags wgscan) "$2/tests/consumer/main.c" -o "$3/pc_shared" \
           $(pkg-config --libs wgscan) -Wl,-rpath,"$4"' _ "$cc" "$src" "$tmp" "$libdir"
check "pkg-config, static: builds" -- \
  sh -c '"$1" $(pkg-config --cflags wgscan) "$2/tests/consumer/main.c" -o "$3/pc_static" \
           $(pkg-config --libs --static wgscan | sed "s/-lwgscan\\b/-l:libwgscan.a/")' _ "$cc" "$src" "$tmp"
for kind in shared static; do
  flag=OFF; [ $kind = static ] && flag=ON
  check "find_package(wgscan), $kind: builds" -- \
    sh -c 'cmake -S "$1/tests/consumer" -B "$2/cmake_$3" -DCMAKE_PREFIX_PATH="$4" \
             -DCMAKE_BUILD_TYPE=Release -DWGSCAN_CONSUMER_STATIC=$5 && cmake --build "$2/cmake_$3"' \
    _ "$src" "$tmp" "$kind" "$prefix" "$flag"
  [ -x "$tmp/cmake_$kind/consumer" ] && cp "$tmp/cmake_$kind/consumer" "$tmp/cmake_$kind.exe"
done
for exe in pc_static cmake_static.exe; do
  [ -x "$tmp/$exe" ] && check "$exe: the library is inside the program (no libwgscan.so needed)" -- \
    sh -c '! readelf -d "$1" | grep -q "NEEDED.*libwgscan"' _ "$tmp/$exe"
done
# wgscan.h beside a real webgpu.h (the stand-in), in both orders, from the installed header.
for first in webgpu wgscan; do
  def=; [ $first = wgscan ] && def=-DWGSCAN_FIRST
  check "installed wgscan.h beside webgpu.h, $first.h first" -- \
    "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only $def $(pcf --cflags) \
          -I"$src/tests/consumer" "$src/tests/consumer/webgpu_order.c"
done

# ---- run with the trees unreachable and an empty environment ------------------------
# Everything runs from $tmp: a working folder inside a hidden tree would still reach it.
mkdir -p "$tmp/empty"
hidden() { # hidden COMMAND...: runs COMMAND with empty folders over both trees, env -i
  unshare -m -- sh -c '
    empty=$1 b=$2 s=$3; shift 3
    mount --make-rprivate / 2>/dev/null
    mount --bind "$empty" "$b" && mount --bind "$empty" "$s" || exit 90
    if [ -e "$s/CMakeLists.txt" ] || [ -e "$b/CMakeCache.txt" ]; then exit 91; fi
    exec env -i PATH=/usr/bin:/bin "$@"' _ "$tmp/empty" "$build" "$src" "$@"
}
if ! command -v unshare >/dev/null 2>&1 || ! hidden true 2>/dev/null; then
  echo "[ SKIP ] running with the source and build trees unreachable: mount namespaces" \
       "are not available here (unshare -m and mount --bind need root or user namespaces)"
  finish
fi
run() { # run NAME EXE [ARGS...]: verified scan, Dawn loaded from the prefix
  local name=$1; shift
  if [ ! -x "$1" ]; then bad "$name: runs (not built)"; return; fi
  if hidden "$@" >"$tmp/out.txt" 2>&1; then
    if grep -q "runtime $prefix/" "$tmp/out.txt"; then
      ok "$name: verified scan with the prefix's Dawn, trees hidden, no environment"
    else
      cat "$tmp/out.txt"; bad "$name: the runtime loaded is the prefix's"
    fi
  else
    cat "$tmp/out.txt"; bad "$name: verified scan with the trees hidden and no environment"
  fi
}
run "pkg-config, shared" "$tmp/pc_shared"
run "pkg-config, static" "$tmp/pc_static"
run "find_package, shared" "$tmp/cmake_shared.exe"
run "find_package, static" "$tmp/cmake_static.exe"
# The installed CLI: `info` names the runtime it loaded, `scan --verify` checks a scan.
if hidden "$prefix/bin/wgscan" info >"$tmp/out.txt" 2>&1 && grep -q "^runtime *: $prefix/" "$tmp/out.txt"; then
  ok "installed CLI: info, the prefix's Dawn, trees hidden, no environment"
else
  cat "$tmp/out.txt"; bad "installed CLI: info, the prefix's Dawn, trees hidden, no environment"
fi
check "installed CLI: scan --verify, trees hidden, no environment" -- \
  hidden "$prefix/bin/wgscan" scan --n 100000 --verify
finish
