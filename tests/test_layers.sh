#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The library's files are layers: no file reaches itself through its calls into other
# files (two files calling each other, or a longer loop), and counts.c (counts from GPU
# buffers) is reached only through the dispatch layer, never from a primitive.
# The calls are read from the objects, not the sources: a wgs_ or wgs__ symbol that one
# object of the archive leaves undefined and another defines is a call (or a use) from
# the first file into the second. Every such pair of files is listed.
# Usage: test_layers.sh NM ARCHIVE
set -u
nm_tool=$1
archive=$2
[ -f "$archive" ] || { echo "no archive $archive"; exit 2; }
# From the archive's folder, so that no space in the path splits nm's first field.
symbols=$(cd "$(dirname "$archive")" && "$nm_tool" -A "$(basename "$archive")") ||
  { echo "$nm_tool failed on $archive"; exit 2; }
printf '%s\n' "$symbols" | awk '
# nm -A: "archive:member.o:address type name", or "archive:member.o: U name".
{
    n = split($1, part, ":")
    file = part[n - 1]
    sub(/\.o$/, "", file)
    name = $NF
    type = $(NF - 1)
    if (name !~ /^wgs_/) next
    if (type == "U") { used[++uses] = file SUBSEP name }
    else if (type ~ /^[A-Z]$/) { defined_in[name] = file; files[file] = 1 }
}
END {
    for (i = 1; i <= uses; i++) {
        split(used[i], u, SUBSEP)
        if (!(u[2] in defined_in) || defined_in[u[2]] == u[1]) continue
        edge = u[1] SUBSEP defined_in[u[2]]
        if (edge in calls) calls[edge] = calls[edge] " " u[2]
        else calls[edge] = u[2]
        reach[edge] = 1
    }
    for (edge in calls) {
        split(edge, e, SUBSEP)
        printf "%s -> %s: %s\n", e[1], e[2], calls[edge] | "sort"
    }
    close("sort")
    for (k in files) for (i in files) for (j in files)
        if (((i, k) in reach) && ((k, j) in reach)) reach[i, j] = 1
    bad = 0
    for (i in files) for (j in files) {
        if (i >= j || !((i, j) in reach) || !((j, i) in reach)) continue
        how = ((i, j) in calls) && ((j, i) in calls) ? "call each other" : "reach each other through other files"
        printf "FAIL: %s and %s %s\n", i, j, how
        bad++
    }
    for (edge in calls) {
        split(edge, e, SUBSEP)
        if (e[2] != "counts.c" || e[1] == "dispatch.c") continue
        printf "FAIL: %s calls counts.c (%s): only dispatch.c may\n", e[1], calls[edge]
        bad++
    }
    if (bad) exit 1
    print "layers: no file reaches itself, counts.c only under dispatch.c: OK"
}'
