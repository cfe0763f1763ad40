/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double cli_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double cli_median(double *v, int n) {
    if (n <= 0) return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double cli_warmup_seconds(const wgs_context_info *info) {
    return strcmp(info->adapter_type, "cpu") == 0 ? 0.0 : 1.0;
}

const char *cli_format_rate(char *buf, size_t size, double per_second, const char *unit) {
    static const char prefixes[] = " KMGTP";
    int k = 0;
    while (k < 5 && per_second >= 999.9995) per_second /= 1000, k++;
    if (k) snprintf(buf, size, "%8.3f %c%s", per_second, prefixes[k], unit);
    else snprintf(buf, size, "%8.3f %s", per_second, unit);
    return buf;
}

void cli_print_time(const char *label, double seconds, uint64_t n) {
    char rate[32];
    if (seconds > 0) cli_format_rate(rate, sizeof rate, (double)n / seconds, "elem/s");
    else snprintf(rate, sizeof rate, "%8s", "-");
    printf("  %-34s %10.3f ms   %s\n", label, seconds * 1e3, rate);
}
