/* SPDX-License-Identifier: MIT */
/*
 * chart.h: the bench's SVG chart. One line per measured series: its speed as a fraction
 * of a copy that moves as many bytes (the copy's time over the series' time, so 1 is as
 * fast as a copy) against n on a log2 axis; the y axis logarithmic where the values span
 * more than a decade, linear otherwise, with round ticks either way; a legend sized to
 * its longest entry, the image sized to hold it.
 */
#ifndef WGSCAN_CHART_H
#define WGSCAN_CHART_H

#include <stdint.h>
#include <stdio.h>

typedef struct chart_point {
    uint64_t n;
    double fraction; /* copy time / time: > 0 */
    int hollow;      /* drawn as an open circle: a point not comparable with the others */
} chart_point;

typedef struct chart_line {
    const char *title; /* the legend's entry */
    const chart_point *points;
    int count;
} chart_line;

/* Writes the chart; title and subtitle go on top (escaped here). Returns 0, or -1 when
 * there is nothing to draw (no line with a point). */
int chart_write_svg(FILE *f, const char *title, const char *subtitle, const chart_line *lines, int nlines);

#endif
