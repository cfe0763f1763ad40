#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest install: wgscan as a user gets it. Installs the build into a prefix outside the
# source and build trees, moves that prefix elsewhere (the install must be relocatable),
# then builds consumers against the moved copy only, with the README's commands as
# they stand (nothing added to them):
#   - pkg-config, shared:  cc main.c $(pkg-config --cflags --libs wgscan)
#   - pkg-config, static:  cc main.c $(pkg-config --cflags --libs --static wgscan-static)
#   - find_package(wgscan), shared (wgscan::wgscan) and static (wgscan::wgscan_static)
#   - where MPI was found: the MPI layer (component mpi) through wgscan_mpi.pc and
#     find_package(wgscan COMPONENTS mpi), and the installed wgscan-mpi, under mpirun
# and runs each, and the installed CLI, with the source and build trees unreachable (an
# empty folder bind-mounted over each, in a mount namespace of their own) and an empty
# environment (env -i PATH=/usr/bin:/bin: no WGSCAN_WEBGPU_LIB, no LD_LIBRARY_PATH):
# the shared library is found through the run path wgscan.pc gives, and each program
# must load the Dawn copy of the prefix (libwgscan.so looks beside itself, a program
# with the archive in its run path) and compute a verified scan. Also checks that no
# installed file names the configure-time prefix, the source tree or the build tree,
# and that the shared library's SONAME and the versions follow docs/abi.md.
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
# docs/abi.md: one version in the header, the pkg-config files and the CMake package;
# the SONAME is libwgscan.so.0.MINOR before 1.0, libwgscan.so.MAJOR from 1.0.
hv() { sed -n "s/^#define WGSCAN_VERSION_$1 \([0-9]*\)$/\1/p" "$prefix/include/wgscan.h"; }
major=$(hv MAJOR) minor=$(hv MINOR) patch=$(hv PATCH)
version=$major.$minor.$patch
if [ "$major" = 0 ]; then soname=libwgscan.so.0.$minor; else soname=libwgscan.so.$major; fi
so=$(find "$prefix" -name 'libwgscan.so' | head -1)
check "SONAME $soname (version $version, docs/abi.md)" -- \
  sh -c 'readelf -d "$1" | grep -q "(SONAME) *Library soname: \[$2\]" && test -e "$(dirname "$1")/$2"' _ "$so" "$soname"
for f in "$pc" "$(dirname "$pc")/wgscan-static.pc"; do
  check "$(basename "$f") says version $version" -- grep -qx "Version: $version" "$f"
done
check "the CMake package says version $version" -- \
  grep -q "set(PACKAGE_VERSION \"$version\")" "$(dirname "$config")/wgscanConfigVersion.cmake"
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
for f in $(find "$prefix" -name 'libwgscan*.*' -type f) "$prefix"/bin/wgscan*; do
  check "$(basename "$f") names no path into the source or build tree" -- \
    sh -c '! grep -aF -e "$1/" -e "$2/" "$3" >/dev/null' _ "$src" "$build" "$f"
done

# ---- the consumers, built against the moved prefix only ---------------------------
export PKG_CONFIG_PATH=$(dirname "$pc")
pcf() { pkg-config "$@" wgscan; }
check "pkg-config: the include folder is inside the prefix" -- \
  test -f "$(pcf --variable=includedir)/wgscan.h"
libdir=$(pcf --variable=libdir)
# The README's two commands, word for word but for the names of the files.
check "pkg-config, shared: builds" -- \
  sh -c '"$1" "$2/tests/consumer/main.c" -o "$3/pc_shared" $(pkg-config --cflags --libs wgscan)' _ "$cc" "$src" "$tmp"
check "pkg-config, static: builds" -- \
  sh -c '"$1" "$2/tests/consumer/main.c" -o "$3/pc_static" $(pkg-config --cflags --libs --static wgscan-static)' \
  _ "$cc" "$src" "$tmp"
check "pc_shared: libwgscan.so needed, found through the prefix's libdir as run path" -- \
  sh -c 'readelf -d "$1" | grep -q "NEEDED.*libwgscan.so" && readelf -d "$1" | grep -q "R.*PATH.*$2"' \
  _ "$tmp/pc_shared" "$libdir"
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
# The MPI layer, where the build made it (MPI found): installed, and its consumers built.
mpi=0
[ -f "$build/libwgscan_mpi.a" ] && mpi=1
if [ $mpi = 1 ]; then
  check "MPI layer installed: wgscan_mpi.h, libwgscan_mpi.a, wgscan-mpi, wgscan_mpi.pc, CMake targets" -- \
    test -f "$prefix/include/wgscan_mpi.h" -a -n "$(find "$prefix" -name libwgscan_mpi.a)" \
         -a -x "$prefix/bin/wgscan-mpi" -a -f "$(dirname "$pc")/wgscan_mpi.pc" \
         -a -f "$(dirname "$config")/wgscanMpiTargets.cmake"
  check "pkg-config, MPI: builds" -- \
    sh -c '"$1" "$2/tests/consumer/mpi_main.c" -o "$3/pc_mpi" $(pkg-config --cflags --libs wgscan_mpi)' _ "$cc" "$src" "$tmp"
  check "find_package(wgscan COMPONENTS mpi): builds" -- \
    sh -c 'cmake -S "$1/tests/consumer" -B "$2/cmake_mpi" -DCMAKE_PREFIX_PATH="$3" -DCMAKE_BUILD_TYPE=Release \
             -DWGSCAN_CONSUMER_MPI=ON && cmake --build "$2/cmake_mpi"' _ "$src" "$tmp" "$prefix"
  [ -x "$tmp/cmake_mpi/consumer" ] && cp "$tmp/cmake_mpi/consumer" "$tmp/cmake_mpi.exe"
else
  echo "[ SKIP ] the MPI layer: this build found no MPI"
fi
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
# (Built here, so a failure above shows as a failure, not a skip.)
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
if [ $mpi = 1 ]; then
  # Two ranks under mpirun; Open MPI refuses root unless told (CI runs as root).
  mpirun() { hidden env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
                 OMPI_MCA_rmaps_base_oversubscribe=1 mpirun -np 2 "$@"; }
  for exe in pc_mpi cmake_mpi.exe; do
    if [ -x "$tmp/$exe" ] && mpirun "$tmp/$exe" >"$tmp/out.txt" 2>&1 &&
       grep -q "runtime $prefix/" "$tmp/out.txt" && [ "$(grep -c 'WGS_OK, 0 wrong' "$tmp/out.txt")" = 2 ]; then
      ok "$exe: a verified scan over 2 ranks with the prefix's Dawn, trees hidden, no environment"
    else
      cat "$tmp/out.txt" 2>/dev/null; bad "$exe: a verified scan over 2 ranks, trees hidden, no environment"
    fi
  done
  check "installed wgscan-mpi: scan --verify over 2 ranks, trees hidden, no environment" -- \
    mpirun "$prefix/bin/wgscan-mpi" scan --n 5000 --verify --repeat 1
fi
finish
