#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The licence as a package user meets it: LICENSE at the top, and an SPDX line near the
# top of every tracked source, script and build file (data, corpora and results aside).
# Usage: test_licence.sh SOURCE_DIR
set -u
cd "$1" || exit 2
[ -f LICENSE ] && grep -q "MIT License" LICENSE || { echo "LICENSE missing or not MIT"; exit 1; }
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "not a git checkout: the file list comes from git; skipped"
  exit 0
fi
missing=0
while IFS= read -r f; do
  case "$f" in
    tests/fuzz/corpus/* | bench/results/* | */node_modules/*) continue ;;
    *.c | *.h | *.wgsl | *.js | *.mjs | *.ts | *.cu | *.sh | *.cmake | *.py | */CMakeLists.txt | CMakeLists.txt | Makefile | .ci/run) ;;
    *) continue ;;
  esac
  [ -f "$f" ] || continue
  if ! head -n 3 "$f" | grep -q "SPDX-License-Identifier: MIT"; then
    echo "no SPDX line: $f"
    missing=$((missing + 1))
  fi
done < <(git ls-files)
[ "$missing" -eq 0 ] || { echo "$missing file(s) without an SPDX line"; exit 1; }
echo "LICENSE and SPDX lines: OK"
