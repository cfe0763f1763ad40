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

static wgs_result run_once(wgs_context *ctx, cli_encode_fn encode, void *state, WGPUQuerySet qs, uint32_t pair,
                           double *wall) {
    WGPUCommandEncoder enc;
    double t0 = cli_now();
    wgs_result r = wgs_encoder_create(ctx, &enc);
    if (r != WGS_OK) return r;
    r = encode(state, enc, qs, pair);
    wgs_result sr = wgs_submit(ctx, enc);
    if (r == WGS_OK) r = sr;
    if (r == WGS_OK) r = wgs_wait(ctx);
    *wall = cli_now() - t0;
    return r;
}

wgs_result cli_time_runs(wgs_context *ctx, int repeat, cli_encode_fn encode, void *state, cli_timing *t) {
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    if (repeat < 1) repeat = 1;
    if (repeat > CLI_MAX_REPEAT) repeat = CLI_MAX_REPEAT;
    wgs_timer *timer = NULL;
    if (info.has_timestamp_query && wgs_timer_create(ctx, (uint32_t)repeat, &timer) != WGS_OK)
        timer = NULL; /* timing falls back to the wall clock */
    wgs_result r = WGS_OK;
    double warm, warm_start = cli_now();
    t->warmups = 0;
    cli_progress_stage("warming up", 0, 0);
    do {
        r = run_once(ctx, encode, state, NULL, 0, &warm);
        t->warmups++;
    } while (r == WGS_OK && t->warmups < 1000 && cli_now() - warm_start < cli_warmup_seconds(&info));
    for (int i = 0; r == WGS_OK && i < repeat; i++) {
        cli_progress_stage("timed run", i + 1, repeat);
        r = run_once(ctx, encode, state, timer ? wgs_timer_query_set(timer) : NULL, (uint32_t)i, &t->wall[i]);
    }
    if (r == WGS_OK && timer) {
        WGPUCommandEncoder enc;
        r = wgs_encoder_create(ctx, &enc);
        if (r == WGS_OK) r = wgs_timer_resolve(timer, enc);
        if (r == WGS_OK) r = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = wgs_timer_read(timer, t->gpu, (uint32_t)repeat);
    }
    t->have_gpu = timer != NULL;
    wgs_timer_destroy(timer);
    return r;
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
