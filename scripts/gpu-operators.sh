#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The measurement run of issue 33 (user operators) on the GPU machine, not yet made: a
# user's u32 add against the built-in add at 2^28 (scan and reduce; the issue asks for
# 3%), the affine f32 scan against a copy of its bytes (the issue asks for at most 1.5
# copies), and the operator tests. Results go to $OUT (or ./out).
set -u
out=${OUT:-out}
mkdir -p "$out"
n=268435456
ops=examples/operators
build/tests/test_operators | tail -1
for k in 1 2; do # twice, to see the spread
  build/wgscan scan --n $n --repeat 20
  build/wgscan scan --operator $ops/add_u32.wgsl --n $n --repeat 20 --out "$out/custom_add.bin"
  build/wgscan reduce --n $n --repeat 20
  build/wgscan reduce --operator $ops/add_u32.wgsl --n $n --repeat 20
done
# The same input (the built-in's random input is not the operator's): equal outputs.
head -c $((4 * n)) /dev/urandom >"$out/in_u32.bin"
build/wgscan scan --in "$out/in_u32.bin" --repeat 3 --out "$out/builtin.bin"
build/wgscan scan --operator $ops/add_u32.wgsl --in "$out/in_u32.bin" --repeat 3 --out "$out/custom.bin"
cmp "$out/builtin.bin" "$out/custom.bin" && echo "custom add: the built-in's bits"
rm -f "$out/in_u32.bin" "$out/builtin.bin" "$out/custom.bin" "$out/custom_add.bin"
# Affine f32 pairs, 8 bytes an element: the scan and a copy of the same bytes.
build/wgscan scan --operator $ops/affine.wgsl --n $n --inclusive --repeat 20 --verify
build/examples/recurrence --n 67108864 --repeat 20
