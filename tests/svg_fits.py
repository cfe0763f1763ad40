#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Renders an SVG with rsvg-convert on a canvas 200 px larger on every side (the image's
own coordinates kept) and fails if anything is drawn outside the image's rectangle: a
legend or title that runs past the edge, which the image itself would cut.
Usage: svg_fits.py FILE.svg (its root element gives its width and height in pixels)."""
import re
import struct
import subprocess
import sys
import zlib

PAD = 200


def rgba_rows(png):
    """The rows of an 8-bit RGBA, non-interlaced PNG (what rsvg-convert writes)."""
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert (depth, color, interlace) == (8, 6, 0), (depth, color, interlace)
        elif kind == b"IDAT":
            idat += body
    raw, stride, prev = zlib.decompress(idat), width * 4, bytearray(width * 4)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # the five filters of the PNG specification
            a = row[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = row
        yield width, row


def main():
    svg = open(sys.argv[1]).read()
    root = svg[svg.index("<svg"):svg.index(">", svg.index("<svg")) + 1]
    size = re.search(r"width=['\"]([0-9.]+)['\"] height=['\"]([0-9.]+)['\"]", root)
    view = re.search(r" viewBox=['\"]([^'\"]*)['\"]", root)
    if not size or (view and view.group(1).split() != ["0", "0", size.group(1), size.group(2)]):
        sys.exit("the root element needs a width and height in pixels (and no viewBox, or '0 0 width height')")
    w, h = float(size.group(1)), float(size.group(2))
    new_root = root.replace(view.group(0), "") if view else root
    new_root = new_root.replace(size.group(0), "width='%d' height='%d' viewBox='%d %d %d %d'" % (
        w + 2 * PAD, h + 2 * PAD, -PAD, -PAD, w + 2 * PAD, h + 2 * PAD), 1)
    wide = svg.replace(root, new_root, 1)
    png = subprocess.run(["rsvg-convert", "--format=png"], input=wide.encode(), stdout=subprocess.PIPE,
                         check=True).stdout
    outside = 0
    for y, (width, row) in enumerate(rgba_rows(png)):
        inside_y = PAD <= y < PAD + h
        for x in range(width):
            if row[4 * x + 3] and not (inside_y and PAD <= x < PAD + w):
                outside += 1
    if outside:
        sys.exit("%d pixels drawn outside the %gx%g image (a legend or title cut at its edge)" % (outside, w, h))


main()
