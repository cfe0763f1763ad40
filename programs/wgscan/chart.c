/* SPDX-License-Identifier: MIT */
/* The bench's SVG chart (chart.h). */
#include "chart.h"

#include <math.h>
#include <string.h>

#define FONT 12.0     /* px, the labels' and legend's */
#define TITLE_FONT 15.0
#define PLOT_W 560.0
#define PLOT_H 380.0
#define LEFT 70.0     /* room for the y tick labels and the axis title */
#define TOP 62.0      /* the title and subtitle */
#define BOTTOM 52.0   /* the x tick labels and the axis title */
#define ROW 18.0      /* a legend entry */
#define SWATCH 30.0

/* The width of text in a sans-serif face, by the widest glyphs of DejaVu Sans and
 * Liberation Sans (the faces Debian's renderers pick): a bound, so the legend is never
 * cut; rounded up. */
static double text_width(const char *s, double size) {
    double w = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (strchr("ijlt.,:;'|!() ", c)) w += 0.40;
        else if (strchr("mwMW@%", c)) w += 1.00;
        else if (c >= 'A' && c <= 'Z') w += 0.78;
        else if (c >= 0x80) w += 0.35; /* a byte of a UTF-8 character: ~0.7 for two */
        else w += 0.64;
    }
    return ceil(w * size) + 4;
}

/* Text for an SVG element: & < > ' " escaped. */
static void xml_text(FILE *f, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '\'': fputs("&apos;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* A tick value written as people write it: 0.05, 0.5, 1, 20, 1.5, never 1.21e+03. */
static void tick_label(char *buf, size_t size, double v, double step) {
    int decimals = 0;
    double s = step > 0 ? step : v;
    while (decimals < 9 && fabs(s * pow(10, decimals) - round(s * pow(10, decimals))) > 1e-6 * pow(10, decimals))
        decimals++;
    snprintf(buf, size, "%.*f", decimals, v);
    if (decimals && fabs(v - round(v)) < 1e-9) snprintf(buf, size, "%.0f", v); /* 1, not 1.0 */
}

typedef struct axis {
    int log;
    double lo, hi; /* in the axis' units: log10 of the value when log */
    double ticks[64];
    double steps[64]; /* each tick's rounding, for its label */
    int nticks;
} axis;

/* Round ticks over [vmin, vmax]: log10 when the values span more than a decade (1, 2, 5
 * of each decade when there are at most three, else the decades), else linear from 0 with
 * a step of 1, 2 or 5 times a power of ten and about five intervals. */
static void make_axis(axis *a, double vmin, double vmax) {
    memset(a, 0, sizeof *a);
    if (vmax / vmin > 10) {
        a->log = 1;
        int k0 = (int)floor(log10(vmin) + 1e-9), k1 = (int)ceil(log10(vmax) - 1e-9);
        a->lo = k0, a->hi = k1;
        static const double m[] = {1, 2, 5};
        int mantissas = k1 - k0 <= 3 ? 3 : 1;
        for (int k = k0; k <= k1 && a->nticks < 64; k++)
            for (int i = 0; i < mantissas && a->nticks < 64; i++) {
                double v = m[i] * pow(10, k);
                if (k == k1 && i > 0) break;
                a->ticks[a->nticks] = v;
                a->steps[a->nticks++] = v;
            }
        return;
    }
    double raw = vmax / 5, mag = pow(10, floor(log10(raw)));
    double step = raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag : 10 * mag;
    int n = (int)ceil(vmax / step - 1e-9);
    if (n < 1) n = 1;
    a->lo = 0, a->hi = step * n;
    for (int i = 0; i <= n && a->nticks < 64; i++) {
        a->ticks[a->nticks] = step * i;
        a->steps[a->nticks++] = step;
    }
}

static double axis_pos(const axis *a, double v) {
    double u = a->log ? log10(v) : v;
    return (u - a->lo) / (a->hi - a->lo);
}

int chart_write_svg(FILE *f, const char *title, const char *subtitle, const chart_line *lines, int nlines) {
    double vmin = 1, vmax = 1; /* the copy's line, 1, is always drawn */
    int kmin = 64, kmax = -1, points = 0;
    double legend_w = text_width("copy of the same bytes (1)", FONT);
    for (int l = 0; l < nlines; l++) {
        double w = text_width(lines[l].title, FONT);
        legend_w = w > legend_w ? w : legend_w;
        for (int i = 0; i < lines[l].count; i++) {
            const chart_point *p = &lines[l].points[i];
            if (!(p->fraction > 0) || !isfinite(p->fraction) || p->n == 0) continue;
            int k = (int)llround(log2((double)p->n));
            kmin = k < kmin ? k : kmin, kmax = k > kmax ? k : kmax;
            vmin = p->fraction < vmin ? p->fraction : vmin;
            vmax = p->fraction > vmax ? p->fraction : vmax;
            points++;
        }
    }
    if (!points) return -1;
    axis y;
    make_axis(&y, vmin, vmax);
    /* one size alone: a range of one either side, the point in the middle */
    double xlo = kmin == kmax ? kmin - 1 : kmin, xhi = kmin == kmax ? kmax + 1 : kmax;

    const double legend_x = LEFT + PLOT_W + 24, legend_y = TOP + 8;
    double W = legend_x + SWATCH + 6 + legend_w + 12;
    double tw = LEFT + text_width(title, TITLE_FONT) + 12, sw = LEFT + text_width(subtitle, FONT) + 12;
    W = tw > W ? tw : W;
    W = sw > W ? sw : W;
    double H = TOP + PLOT_H + BOTTOM, lh = legend_y + ROW * (nlines + 1) + 12;
    H = lh > H ? lh : H;
    W = ceil(W), H = ceil(H);
#define SX(k) (LEFT + ((k) - xlo) / (xhi - xlo) * PLOT_W)
#define SY(v) (TOP + PLOT_H - axis_pos(&y, (v)) * PLOT_H)

    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' viewBox='0 0 %.0f %.0f' "
               "font-family='DejaVu Sans, Liberation Sans, Arial, sans-serif' font-size='%.0f'>\n",
            W, H, W, H, FONT);
    fprintf(f, "<rect x='0' y='0' width='%.0f' height='%.0f' fill='white'/>\n", W, H);
    fprintf(f, "<text x='%.0f' y='24' font-size='%.0f'>", LEFT, TITLE_FONT);
    xml_text(f, title);
    fprintf(f, "</text>\n<text x='%.0f' y='44' fill='#444'>", LEFT);
    xml_text(f, subtitle);
    fputs("</text>\n", f);
    /* the y grid and its labels */
    for (int i = 0; i < y.nticks; i++) {
        char label[32];
        tick_label(label, sizeof label, y.ticks[i], y.steps[i]);
        double py = SY(y.ticks[i]);
        fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='#ddd'/>"
                   "<text class='tick' x='%.1f' y='%.1f' text-anchor='end'>%s</text>\n",
                LEFT, LEFT + PLOT_W, py, py, LEFT - 6, py + 4, label);
    }
    /* the x labels: powers of two, every one while they fit (about 12), else every 2nd, 3rd */
    int every = (int)ceil((xhi - xlo + 1) / 12.0);
    for (int k = (int)xlo; k <= (int)xhi; k++) {
        if ((k - (int)xlo) % every) continue;
        fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='#eee'/>"
                   "<text class='tick' x='%.1f' y='%.1f' text-anchor='middle'>2^%d</text>\n",
                SX(k), SX(k), TOP, TOP + PLOT_H, SX(k), TOP + PLOT_H + 18, k);
    }
    fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='none' stroke='#888'/>\n", LEFT, TOP, PLOT_W,
            PLOT_H);
    fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='middle'>n (elements, log scale)</text>\n", LEFT + PLOT_W / 2,
            TOP + PLOT_H + 40);
    fprintf(f, "<text x='16' y='%.1f' transform='rotate(-90 16 %.1f)' text-anchor='middle'>"
               "speed / copy speed of the same bytes%s</text>\n",
            TOP + PLOT_H / 2, TOP + PLOT_H / 2, y.log ? " (log scale)" : "");

    /* the copy: 1 by definition */
    fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='#555' stroke-width='1.5' stroke-dasharray='6 4'/>\n",
            LEFT, LEFT + PLOT_W, SY(1.0), SY(1.0));
    fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='#555' stroke-width='1.5' stroke-dasharray='6 4'/>"
               "<text x='%.1f' y='%.1f'>copy of the same bytes (1)</text>\n",
            legend_x, legend_x + SWATCH, legend_y, legend_y, legend_x + SWATCH + 6, legend_y + 4);

    static const char *colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
    static const char *dashes[] = {"", " stroke-dasharray='7 3'", " stroke-dasharray='2 3'"};
    for (int l = 0; l < nlines; l++) {
        const char *c = colors[l % 8], *d = dashes[(l / 8) % 3];
        fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2'%s points='", c, d);
        for (int i = 0; i < lines[l].count; i++) {
            const chart_point *p = &lines[l].points[i];
            if (p->fraction > 0 && isfinite(p->fraction))
                fprintf(f, "%.1f,%.1f ", SX(log2((double)p->n)), SY(p->fraction));
        }
        fputs("'/>\n", f);
        for (int i = 0; i < lines[l].count; i++) {
            const chart_point *p = &lines[l].points[i];
            if (p->fraction > 0 && isfinite(p->fraction))
                fprintf(f, "<circle cx='%.1f' cy='%.1f' r='3' fill='%s' stroke='%s'/>\n", SX(log2((double)p->n)),
                        SY(p->fraction), p->hollow ? "white" : c, c);
        }
        double ly = legend_y + ROW * (l + 1);
        fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='%s' stroke-width='2'%s/>"
                   "<text x='%.1f' y='%.1f'>",
                legend_x, legend_x + SWATCH, ly, ly, c, d, legend_x + SWATCH + 6, ly + 4);
        xml_text(f, lines[l].title);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
#undef SX
#undef SY
    return 0;
}
