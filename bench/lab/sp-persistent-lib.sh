#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The library's persistent single pass (scan_persistent.wgsl) on a GPU: shapes and grids
# through WGSCAN_TUNE_SP=wg,items,groups (100000: a workgroup a tile), u32 add, beside the
# copy; CFGS overrides the list, LOOKBACKS the look-back windows (WGSCAN_LOOKBACK).
# Usage: bench/lab/sp-persistent-lib.sh BUILD OUTDIR
B=${1:-build}; O=${2:-.}
for lb in ${LOOKBACKS:-1}; do
for cfg in ${CFGS:-1024,16,132 1024,16,264 1024,16,1024 512,16,264 256,16,1056 1024,16,100000}; do
  WGSCAN_LOOKBACK=$lb WGSCAN_TUNE_SP=$cfg $B/wgscan bench --series u32:add --algorithms single-pass --min 2^20 --max 2^28 \
    --runs 20 --json $O/sp-$cfg.json --csv $O/sp-$cfg.csv --svg $O/sp-$cfg.svg >/dev/null 2>$O/sp-$cfg.err
  echo "== WGSCAN_TUNE_SP=$cfg WGSCAN_LOOKBACK=$lb"; cat $O/sp-$cfg.csv; tail -2 $O/sp-$cfg.err
done
done
