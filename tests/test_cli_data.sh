#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The CLI's data (issue 35, items 10, 14, 15): NumPy .npy files in and out, the sort's
# permutation, --json results of every command, the bench's memory and its columns, and
# the bench chart as a renderer draws it.
# Usage: test_cli_data.sh path/to/wgscan
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

expect() { # expect STATUS DESCRIPTION -- command...
  local want=$1 what=$2
  shift 3
  "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
  local got=$?
  if [ "$got" -eq "$want" ]; then
    passed=$((passed + 1))
    echo "[  OK  ] $what"
  else
    failed=$((failed + 1))
    echo "[ FAIL ] $what: exit $got, expected $want"
    sed 's/^/    /' "$tmp/out.txt" "$tmp/err.txt"
  fi
}

check() {
  local what=$1
  shift 2
  if "$@"; then passed=$((passed + 1)); echo "[  OK  ] $what"; else failed=$((failed + 1)); echo "[ FAIL ] $what"; sed 's/^/    /' "$tmp/out.txt" "$tmp/err.txt"; fi
}

if ! command -v python3 >/dev/null; then
  echo "[ SKIP ] python3 is needed to write and read the test's .npy files"
  exit 0
fi

# .npy files written and read by a few lines of Python's standard library (NumPy's
# format, numpy/lib/format.py), so the test needs no NumPy.
cat >"$tmp/npy.py" <<'EOF'
import ast, struct, sys
def write(path, descr, shape, data, version=1, order="False"):
    d = "{'descr': %s, 'fortran_order': %s, 'shape': %s, }" % (descr, order, shape)
    pre = 10 if version == 1 else 12
    total = (pre + len(d) + 1 + 63) // 64 * 64
    h = d + " " * (total - pre - len(d) - 1) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY" + bytes([version, 0]))
        f.write(struct.pack("<H" if version == 1 else "<I", len(h)))
        f.write(h.encode())
        f.write(data)
def read(path):
    b = open(path, "rb").read()
    assert b[:6] == b"\x93NUMPY", "no magic"
    hlen = struct.unpack("<H", b[8:10])[0] if b[6] == 1 else struct.unpack("<I", b[8:12])[0]
    pre = 10 if b[6] == 1 else 12
    assert (pre + hlen) % 64 == 0 and b[pre + hlen - 1:pre + hlen] == b"\n", "header not padded to 64"
    h = ast.literal_eval(b[pre:pre + hlen].decode())
    return h, b[pre + hlen:]
EOF
npy() { local code=$1; shift; PYTHONPATH="$tmp" python3 -c "from npy import *; $code" "$@"; }

# ---- item 10: .npy in and out ----------------------------------------------------
npy 'write(sys.argv[1], "\"<u4\"", "(1000,)", struct.pack("<1000I", *[1] * 1000))' "$tmp/ones.npy"
expect 0 "scan --in FILE.npy (1000 u32 ones) --out FILE.npy" -- "$cli" scan --in "$tmp/ones.npy" --out "$tmp/res.npy" --repeat 1 --verify
check "the .npy input is 1000 elements, not its header read as data" -- grep -q "scan: n = 1000," "$tmp/out.txt"
check "--out FILE.npy: a 1-D <u4 array of 0, 1, ..., 999" -- npy '
h, d = read(sys.argv[1])
assert h == {"descr": "<u4", "fortran_order": False, "shape": (1000,)}, h
assert list(struct.unpack("<1000I", d)) == list(range(1000))' "$tmp/res.npy"
npy 'write(sys.argv[1], "\"<u4\"", "(1000,)", struct.pack("<1000I", *[1] * 1000), version=2)' "$tmp/v2.npy"
expect 0 "a version 2.0 .npy file" -- "$cli" scan --in "$tmp/v2.npy" --repeat 1 --verify
check "version 2.0: 1000 elements" -- grep -q "scan: n = 1000," "$tmp/out.txt"
npy 'write(sys.argv[1], "\"<f4\"", "(1000,)", struct.pack("<1000f", *[1] * 1000))' "$tmp/f.npy"
expect 2 "a <f4 .npy file for --type u32: refused" -- "$cli" scan --in "$tmp/f.npy" --repeat 1
check "the refusal names both dtypes" -- grep -q "holds dtype <f4; this needs <u4" "$tmp/err.txt"
expect 0 "the same file with --type f32" -- "$cli" scan --in "$tmp/f.npy" --type f32 --repeat 1 --verify
expect 2 "a <f4 .npy file for sort --type u64: refused" -- "$cli" sort --in "$tmp/f.npy" --type u64 --repeat 1
npy 'write(sys.argv[1], "\">u4\"", "(1000,)", struct.pack(">1000I", *[1] * 1000))' "$tmp/be.npy"
expect 2 "a big-endian .npy file: refused" -- "$cli" reduce --in "$tmp/be.npy" --repeat 1
check "the refusal says big-endian" -- grep -q "big-endian" "$tmp/err.txt"
npy 'write(sys.argv[1], "\"<u4\"", "(10, 100)", struct.pack("<1000I", *[1] * 1000))' "$tmp/2d.npy"
expect 2 "a 2-D .npy file: refused" -- "$cli" count --in "$tmp/2d.npy" --repeat 1
check "the refusal gives the shape" -- grep -q "2-dimensional array (shape (10, 100))" "$tmp/err.txt"
npy 'write(sys.argv[1], "\"<u4\"", "(1001,)", struct.pack("<1000I", *[1] * 1000))' "$tmp/short.npy"
expect 2 "a .npy file shorter than its shape: refused" -- "$cli" scan --in "$tmp/short.npy" --repeat 1
npy 'write(sys.argv[1], "[(\"a\", \"<u4\")]", "(1000,)", struct.pack("<1000I", *[1] * 1000))' "$tmp/rec.npy"
expect 2 "a structured .npy file: refused" -- "$cli" scan --in "$tmp/rec.npy" --repeat 1
# Raw files are still raw: 4000 bytes of 0x01 are 1000 u32 whatever the name.
head -c 4000 /dev/zero | tr '\0' '\1' >"$tmp/ones8.npy"
expect 0 "a raw file named .npy is read raw (no magic)" -- "$cli" scan --in "$tmp/ones8.npy" --out "$tmp/raw.bin" --repeat 1 --verify
check "raw --out stays raw: 4000 bytes" -- test "$(stat -c %s "$tmp/raw.bin")" -eq 4000
# The other commands' files: segment offsets, flags, results.
npy 'write(sys.argv[1], "\"<u4\"", "(4,)", struct.pack("<4I", 0, 300, 700, 1000))' "$tmp/seg.npy"
expect 0 "segmented-scan --segments FILE.npy" -- "$cli" segmented-scan --in "$tmp/ones.npy" --segments "$tmp/seg.npy" --inclusive --out "$tmp/ss.npy" --repeat 1 --verify
check "segmented-scan's .npy: each segment counts from 1 again" -- npy '
h, d = read(sys.argv[1]); v = struct.unpack("<1000I", d)
assert h["shape"] == (1000,) and v[0] == 1 and v[299] == 300 and v[300] == 1 and v[999] == 300, (h, v[:3])' "$tmp/ss.npy"
expect 0 "segmented-reduce --segments FILE.npy" -- "$cli" segmented-reduce --in "$tmp/ones.npy" --segments "$tmp/seg.npy" --out "$tmp/sr.npy" --repeat 1 --verify
check "segmented-reduce's .npy: sums 300, 400, 300" -- npy '
h, d = read(sys.argv[1]); assert h["shape"] == (3,) and struct.unpack("<3I", d) == (300, 400, 300), (h, d)' "$tmp/sr.npy"
npy 'write(sys.argv[1], "\"<u4\"", "(1000,)", struct.pack("<1000I", *[i // 250 for i in range(1000)]))' "$tmp/keys4.npy"
expect 0 "reduce-by-key --keys FILE.npy" -- "$cli" reduce-by-key --in "$tmp/ones.npy" --keys "$tmp/keys4.npy" --out "$tmp/rbk.npy" --repeat 1 --verify
check "reduce-by-key's .npy: four runs of 250" -- npy '
h, d = read(sys.argv[1]); assert h["shape"] == (4,) and struct.unpack("<4I", d) == (250,) * 4, (h, d)' "$tmp/rbk.npy"
expect 2 "--keys FILE.npy of f32: refused" -- "$cli" scan-by-key --in "$tmp/ones.npy" --keys "$tmp/f.npy" --repeat 1
npy 'write(sys.argv[1], "\"|b1\"", "(1000,)", bytes([i % 3 == 0 for i in range(1000)]))' "$tmp/flags.npy"
expect 0 "compact --flags FILE.npy (bool)" -- "$cli" compact --in "$tmp/ones.npy" --flags "$tmp/flags.npy" --out "$tmp/sel.npy" --repeat 1 --verify
check "compact's .npy holds the 334 kept elements" -- npy '
h, d = read(sys.argv[1]); assert h["shape"] == (334,) and h["descr"] == "<u4", h' "$tmp/sel.npy"
expect 0 "reduce --op argmax --out FILE.npy" -- "$cli" reduce --in "$tmp/f.npy" --type f32 --op argmax --out "$tmp/am.npy" --repeat 1 --verify
check "argmax's .npy: one (value, index) record" -- npy '
h, d = read(sys.argv[1])
assert h["descr"] == [("value", "<f4"), ("index", "<u4")] and h["shape"] == (1,), h
assert struct.unpack("<fI", d) == (1.0, 0), struct.unpack("<fI", d)' "$tmp/am.npy"

# The sort's permutation: --payload index --out-values.
npy 'import random; random.seed(7); write(sys.argv[1], "\"<u4\"", "(3000,)", struct.pack("<3000I", *[random.randrange(50) for _ in range(3000)]))' "$tmp/keys.npy"
expect 0 "sort --payload index --out K.npy --out-values P.npy" -- "$cli" sort --in "$tmp/keys.npy" --payload index --out "$tmp/k.npy" --out-values "$tmp/p.npy" --repeat 1 --verify
check "the permutation orders the keys, stably" -- npy '
_, kd = read(sys.argv[1]); hk, sk = read(sys.argv[2]); hp, pd = read(sys.argv[3])
keys = struct.unpack("<3000I", kd); sk = struct.unpack("<3000I", sk); p = struct.unpack("<3000I", pd)
assert hp == {"descr": "<u4", "fortran_order": False, "shape": (3000,)}, hp
assert sorted(p) == list(range(3000)), "not a permutation"
assert [keys[i] for i in p] == list(sk) == sorted(keys), "keys[p] is not the sorted keys"
assert all(p[i] < p[i + 1] for i in range(2999) if sk[i] == sk[i + 1]), "not stable"' "$tmp/keys.npy" "$tmp/k.npy" "$tmp/p.npy"
expect 0 "sort --pairs --value-bytes 8 --out-values V.bin (raw)" -- "$cli" sort --n 1000 --pairs --value-bytes 8 --out-values "$tmp/v.bin" --repeat 1
check "raw values: 8 bytes each" -- test "$(stat -c %s "$tmp/v.bin")" -eq 8000
expect 2 "--out-values without values: refused" -- "$cli" sort --n 1000 --out-values "$tmp/v2.bin"
expect 2 "--out-values into a missing folder: refused before the run" -- "$cli" sort --n 1000 --payload index --out-values "$tmp/no/p.npy"
check "no sort ran" -- bash -c '! grep -q "sort: n =" "$0"' "$tmp/out.txt"
expect 2 "--out and --out-values one file: refused" -- "$cli" sort --n 1000 --payload index --out "$tmp/same" --out-values "$tmp/same"

# --json FILE on every command that runs something (bench wrote JSON alone before).
for c in "scan" "reduce --op max" "count --predicate lt:50" "compact" "histogram --bins 16" \
         "segmented-reduce --segments 16" "segmented-scan --segments 16" "scan-by-key --segments 16" \
         "reduce-by-key --segments 16" "sort --payload index"; do
  name=${c%% *}
  expect 0 "$name --json" -- "$cli" $c --n 3000 --repeat 2 --verify --json "$tmp/$name.json"
  check "$name --json: what ran, where, the times and the verdict" -- python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == sys.argv[2] and d["n"] == 3000 and d["repeat"] == 2 and d["verify"] == "ok", d
for k in ("date", "wgscan_version", "commit", "device", "backend", "adapter_type", "type"):
    assert isinstance(d[k], str) and d[k], k
for k in ("wall_ms", "upload_ms", "download_ms", "cpu_ms"):
    assert isinstance(d[k], (int, float)) and d[k] >= 0, (k, d[k])
assert d["gpu_ms"] is None or d["gpu_ms"] > 0, d["gpu_ms"]
out = open(sys.argv[3]).read()
if d["command"] == "count": assert "count: %d of 3000" % d["count"] in out, (d["count"], out)
if d["command"] == "compact": assert 0 < d["selected"] < 3000, d["selected"]
if d["command"] == "reduce": assert "result: %d" % d["result"] in out, (d["result"], out)' "$tmp/$name.json" "$name" "$tmp/out.txt"
done
expect 0 "info --json" -- "$cli" info --json "$tmp/info.json"
check "info --json: the device and its limits" -- python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["device"] and d["backend"] and d["max_buffer_size"] > 0 and isinstance(d["timestamp_query"], bool), d' "$tmp/info.json"
expect 2 "--json into a missing folder: refused before the run" -- "$cli" reduce --n 1000 --json "$tmp/no/r.json"
check "no reduce ran" -- bash -c '! grep -q "reduce: n =" "$0"' "$tmp/out.txt"
expect 2 "--json and --out one file: refused" -- "$cli" scan --n 1000 --out "$tmp/same2" --json "$tmp/same2"

# ---- items 14 and 15: the bench's memory, its columns and its chart ----------------
# One sweep of 2^10..2^14 with the widest slots (sort-pairs, sort-u64) and long legend
# entries; the pools at their own size (no WGSCAN_BENCH_POOL_MIB): they held 512 MiB each,
# 2.9 GB of peak RSS for this sweep, and now hold what 26 runs of 2^14 touch.
unset WGSCAN_BENCH_POOL_MIB
bench=(bench --min 2^10 --max 2^14 --series u32:add --algorithms single-pass --runs 20
       --primitives sort-pairs,sort-u64,segmented-reduce-4096,scan-by-key-16
       --json "$tmp/b.json" --csv "$tmp/b.csv" --svg "$tmp/b.svg")
if [ -x /usr/bin/time ] && [ -z "${WGSCAN_SANITIZED:-}" ]; then
  expect 0 "bench 2^10..2^14 (peak memory measured)" -- /usr/bin/time -f "peak_rss_kb %M" "$cli" "${bench[@]}"
  rss=$(sed -n 's/^peak_rss_kb \([0-9]*\)$/\1/p' "$tmp/err.txt")
  echo "  peak RSS: ${rss:-?} kB"
  check "a 2^10..2^14 sweep's peak RSS stays below 1 GiB (2.9 GB before)" -- test "${rss:-0}" -gt 0 -a "${rss:-0}" -lt 1048576
else
  expect 0 "bench 2^10..2^14" -- "$cli" "${bench[@]}"
fi
cp "$tmp/err.txt" "$tmp/bench_err.txt"
check "the pools are sized by the sweep: under 8 MiB for 2^14 (512 MiB before)" -- \
  python3 -c 'import re, sys; m = re.search(r"inputs rotated over ([0-9.]+) MiB", open(sys.argv[1]).read()); assert m and float(m.group(1)) < 8, m and m.group(1)' "$tmp/out.txt"
check "CSV: the pace and the copy's bytes in columns" -- \
  bash -c 'head -1 "$0" | grep -qx "type,op,algorithm,n,median_us,min_us,gelem_per_s,gb_per_s,copy_us,time_over_copy,max_us,copy_over_first,pace_changed,copy_bytes"' "$tmp/b.csv"
check "CSV: a sort has no operator (op none), the key type in the type column" -- \
  bash -c 'grep -q "^u32,none,sort-pairs,1024," "$0" && grep -q "^u64,none,sort-u64,1024," "$0" && grep -q "^u32,add,segmented-reduce-4096,1024," "$0"' "$tmp/b.csv"
check "JSON and CSV: pace_changed exactly where stderr warned, copy_bytes the bytes each moves" -- python3 -c '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
res = json.load(open(sys.argv[2]))["results"]
warned = open(sys.argv[3]).read().count("the device changed pace")
assert len(rows) == len(res) == 25, (len(rows), len(res))
assert sum(r["pace_changed"] == "1" for r in rows) == sum(p["pace_changed"] for p in res) == warned, warned
moved = {"single-pass": 8, "sort-pairs": 16, "sort-u64": 16, "scan-by-key-16": 12}  # bytes an element, read + written
for r in rows:
    n = int(r["n"])
    want = moved[r["algorithm"]] * n // 2 if r["algorithm"] in moved else (4 * n + 8 * (n // 4096 + (n % 4096 > 0))) // 2
    assert int(r["copy_bytes"]) == (want + 15) // 16 * 16, (r["algorithm"], n, r["copy_bytes"], want)
    assert float(r["copy_over_first"]) > 0, r' "$tmp/b.csv" "$tmp/b.json" "$tmp/bench_err.txt"
check "chart: no empty <text>" -- bash -c '! grep -q "<text[^>]*></text>" "$0"' "$tmp/b.svg"
check "chart: primitives named by what they are, not by a scan operator" -- \
  bash -c 'grep -q ">sort u32 keys + u32 values<" "$0" && grep -q ">scan u32 add (single-pass)<" "$0" && ! grep -q "add sort-" "$0"' "$tmp/b.svg"
check "chart: the commit and the device in the title" -- python3 -c '
import json, re, sys
d = json.load(open(sys.argv[2])); svg = open(sys.argv[1]).read()
title = re.search(r"<text[^>]*>([^<]*)</text>", svg).group(1)
assert d["commit"] in title and d["device"] in title, title' "$tmp/b.svg" "$tmp/b.json"
check "chart: round tick labels (2^k; at most two significant digits, no exponent)" -- python3 -c '
import re, sys
svg = open(sys.argv[1]).read()
ticks = re.findall(r"<text class=.tick.[^>]*>([^<]*)</text>", svg)
assert len(ticks) >= 6, ticks
for t in ticks:
    if re.fullmatch(r"2\^[0-9]+", t): continue
    assert re.fullmatch(r"[0-9]+(\.[0-9]+)?", t), t
    digits = t.replace(".", "").lstrip("0").rstrip("0")
    assert len(digits) <= 2, t' "$tmp/b.svg"
# The chart as a renderer draws it: on a canvas 200 px larger on every side (the
# image's own coordinates kept), nothing may be drawn outside the image's rectangle:
# a legend or title running past the edge shows up there.
if command -v rsvg-convert >/dev/null; then
  check "chart: rsvg-convert renders it" -- rsvg-convert --format=png -o "$tmp/b.png" "$tmp/b.svg"
  check "chart: the legend and titles fit inside the image as rendered" -- python3 "$(dirname "$0")/svg_fits.py" "$tmp/b.svg"
else
  echo "[ SKIP ] rsvg-convert (Debian's librsvg2-bin; scripts/install-deps.sh installs it) is missing"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
