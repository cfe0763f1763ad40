#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The laboratory's digit pass (bench/lab/sort_lab.wgsl, Tint's SPIR-V as the library's)
# with the keys staged in plain words of their own (ROOM 0) against the counters' room
# of atomic words (ROOM 1, the library's tile), 2^28 keys, 256 x 8, 1 and 16 tiles a
# workgroup; STAGE 3 checked against the CPU (each tile stably by its low byte),
# STAGE 4 the real pass's writes. Sourced by run48-js.sh and run49.sh; $L their log.
N=268435456
for gt in 1 16; do
  for room in 0 1; do
    for st in 3 4; do
      c=none; [ $st = 3 ] && c=digits:2048
      echo "lab $(timeout 60 build/wgscan-lab bench/lab/sort_lab.wgsl --n $N --runs 10 -D GT=$gt -D ROOM=$room \
        -D STAGE=$st --check $c --pass tile_pass:$(( N / 2048 / gt )) 2>&1 | tail -1)" >> $L
    done
  done
done
