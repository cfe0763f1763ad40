#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The check's keys and expected output for the laboratory's digit pass (sort_tile.comp,
sort_lab.wgsl's tile_pass): bench/lab/tint-vs-glslang.sh and sort-variants-glsl.sh.

  sort_check.py --group KEYS [--tile KEYS] --n N [--slack A] [--mode even|mixed] --out PREFIX

A group is the GT tiles one workgroup takes (GT * WG * ITEMS keys, a tile WG * ITEMS,
by default the group); N is rounded down to whole tiles (at least one), so the last
group may hold fewer tiles. A group's run of a digit is SPAN = ceil(GROUP / 256) + A
words, a digit's part of the output GROUPS * SPAN (the pass's params.a is A). Each group
holds at most SPAN keys of a digit, so no run reaches another and the output is exact:
each group's keys, stably by digit, at d * GROUPS * SPAN + g * SPAN; words no key reaches
stay zero. even: every group's digits as even as its size allows (each digit GROUP / 256
times where 256 divides it); mixed: the even groups so, the odd ones skewed (a few digits
hold most keys, others none), which needs A > 0 to have room. Keys: the digit in the low
byte over 24 random bits, each group's in random order.
Writes PREFIX-keys.bin and PREFIX-want.bin.gz (u32, little-endian; the expected output
gzipped, being mostly zeros where A > 0) and prints 'n=N groups=G span=S out_bytes=B'.
"""
import argparse
import gzip
import random
import sys
from array import array


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--group", type=int, required=True)
    ap.add_argument("--tile", type=int)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--slack", type=int, default=0)
    ap.add_argument("--mode", choices=("even", "mixed"), default="even")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    tile = a.tile or a.group
    if tile <= 0 or a.group % tile or a.slack < 0:
        sys.exit("sort_check: --group a positive multiple of --tile, --slack not negative")
    n = max(1, a.n // tile) * tile
    groups = (n + a.group - 1) // a.group
    span = (a.group + 255) // 256 + a.slack
    region = groups * span
    rnd = random.Random(32)
    keys, want = array("I"), array("I", bytes(4 * 256 * region))
    for g in range(groups):
        size = min(a.group, n - g * a.group)
        counts = [size // 256] * 256
        for d in rnd.sample(range(256), size % 256):
            counts[d] += 1
        if a.mode == "mixed" and g % 2 == 1:
            weights = [rnd.random() ** 6 for _ in range(256)]
            scale = size / sum(weights)
            counts = [min(span, int(w * scale)) for w in weights]
            short = size - sum(counts)
            while short:
                d = rnd.randrange(256)
                if counts[d] < span:
                    counts[d] += 1
                    short -= 1
        digits = [d for d in range(256) for _ in range(counts[d])]
        rnd.shuffle(digits)
        seen = [0] * 256
        for d in digits:
            k = rnd.getrandbits(24) << 8 | d
            keys.append(k)
            want[d * region + g * span + seen[d]] = k
            seen[d] += 1
    with open(a.out + "-keys.bin", "wb") as f:
        keys.tofile(f)
    with gzip.GzipFile(a.out + "-want.bin.gz", "wb", compresslevel=6, mtime=0) as f:
        f.write(want.tobytes())
    print(f"n={n} groups={groups} span={span} out_bytes={4 * 256 * region}")


if __name__ == "__main__":
    main()
