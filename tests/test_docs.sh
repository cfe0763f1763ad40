#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest docs: the documentation that is generated or quoted stays true.
#   - Every figure README.md states (µs, ms, GB/s, copies) is in BENCHMARKS.md's summary,
#     the one table of current figures (so the README cannot keep a stale one).
#   - docs/speed.svg is what that table draws, and fits inside its own rectangle.
#   - docs/cli.md is what `wgscan --help` and each command's --help print now.
# All three through scripts/docs.py check, which names each difference and the command
# that regenerates the file.
# Usage: test_docs.sh SOURCE_DIR [WGSCAN]   (without WGSCAN, docs/cli.md is not checked)
set -u
src=$1
wgscan=${2:-}
if ! command -v python3 >/dev/null; then
  echo "test_docs: python3 not found"; exit 1
fi
status=0
python3 "$src/scripts/docs.py" check $wgscan || status=1
if command -v rsvg-convert >/dev/null; then
  python3 "$src/tests/svg_fits.py" "$src/docs/speed.svg" || { echo "docs/speed.svg draws outside itself"; status=1; }
else
  echo "test_docs: rsvg-convert not found, the chart's fit not checked"
fi
exit $status
