#!/usr/bin/env bash
# Installs the build into a temporary prefix, then builds and runs consumers against the
# installed copy only: one through the CMake package, one through pkg-config, with the
# static library. Usage: test_install.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/wgscan.h"
test -f "$tmp/prefix/lib/pkgconfig/wgscan.pc" || test -f "$tmp/prefix/lib/x86_64-linux-gnu/pkgconfig/wgscan.pc"
cmake -S "$src/tests/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
# The installed runtime copy sits in <libdir>/wgscan; the consumer must find it alone.
env -u WGSCAN_WEBGPU_LIB LD_LIBRARY_PATH="$(dirname "$(find "$tmp/prefix" -name 'libwgscan.so' | head -1)")" "$tmp/consumer/consumer"
pc=$(find "$tmp/prefix" -name wgscan.pc | head -1)
pcflags() { pkg-config --define-variable=prefix="$tmp/prefix" "$@" "$pc"; }
# Static linking through pkg-config: -l:libwgscan.a picks the archive over the .so.
cc $(pcflags --cflags) "$src/tests/consumer/main.c" -o "$tmp/pc_consumer" \
   $(pcflags --libs --static | sed 's/-lwgscan/-l:libwgscan.a/')
"$tmp/pc_consumer"
echo "1 passed, 0 failed"
