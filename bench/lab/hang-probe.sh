#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Which single-pass scans finish on this GPU: each case under a timeout.
for op in add min xor; do for n in 1 4097 1048581 4194309; do for k in "" --inclusive; do
  r=$(timeout 20 build/wgscan scan --n $n --op $op $k --algorithm single-pass --verify --repeat 1 2>&1 | grep -E "verify|error" | head -1)
  echo "rc=$? $op n=$n $k: $r"
done; done; done
