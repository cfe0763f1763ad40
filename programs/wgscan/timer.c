/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cli.h"

#include <string.h>

#include <stdlib.h>
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
