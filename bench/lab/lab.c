/* SPDX-License-Identifier: MIT */
/*
 * lab.c: a kernel laboratory for tuning experiments. It runs a sequence of WGSL entry
 * points from one self-contained file as one timed compute pass, many times, and prints
 * the median GPU time (timestamp queries), so variants of a kernel can be compared in
 * one call to the GPU machine without touching the library. Not part of the library.
 *
 *   wgscan-lab FILE.wgsl --n N [--runs R] [--aux WORDS] [--check scan|copy|none]
 *              [-D NAME=VALUE]... --pass ENTRY:GROUPS [--pass ...]
 *   wgscan-lab --subgroups    the device's subgroup sizes, "MIN MAX" (for scripts that
 *                             give a kernel its subgroup width)
 *
 * Every entry point sees the same group 0: 0 src (N random u32, read-only), 1 dst (N
 * u32), 2 Params (uniform, 8 u32: n, then --params a,b,c,... ), 3 aux (WORDS u32,
 * zeroed before every run), and must use all four (auto layout). -D NAME=VALUE becomes
 * `const NAME: u32 = VALUEu;` inserted at the line `//DEFINES` (else at the top); a line
 * `//DEFAULT NAME=VALUE` in the file gives NAME a value when no -D names it (so the
 * experiments of one kernel need not pass the knobs of all the others).
 * --check scan compares dst with the exclusive u32 sum of src after the last run;
 * --check digits:T each T words of dst with the same T words of src stably ordered by
 * their low byte (sort_lab.wgsl's STAGE 3: a tile ranked and put back in its place).
 */
#include "experiment_env.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PASSES 8

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)len + 1);
    if (s && fread(s, 1, (size_t)len, f) != (size_t)len) {
        free(s);
        s = NULL;
    }
    if (s) s[len] = 0;
    fclose(f);
    return s;
}

static int fail(const char *what, wgs_context *ctx) {
    fprintf(stderr, "wgscan-lab: %s%s%s\n", what, ctx ? ": " : "", ctx ? wgs_context_last_error(ctx) : "");
    return 1;
}

/* The context every run uses, with WGSCAN_DAWN_TOGGLES and the rest read as the CLI
 * reads them; 0, or 1 with the reason printed. */
static int lab_context(wgs_context **ctx) {
    wgs_context_desc cd = {0};
    wgs_experimental exp;
    char env_err[256];
    if (wgs_experiment_from_env(&cd, &exp, env_err, sizeof env_err) != 0) return fail(env_err, NULL);
    if (wgs_context_create(&cd, ctx) != WGS_OK) return fail("no context", *ctx);
    return 0;
}

int main(int argc, char **argv) {
    const char *file = NULL, *check = "none";
    uint64_t n = 0, aux_words = 16;
    int runs = 30;
    uint32_t pa[7] = {0};
    char defines[4096] = "";
    char *pass_entry[MAX_PASSES];
    uint64_t pass_groups[MAX_PASSES];
    int passes = 0;
    if (argc == 2 && !strcmp(argv[1], "--subgroups")) {
        wgs_context *ctx = NULL;
        if (lab_context(&ctx) != 0) return 1;
        wgs_context_info info;
        wgs_context_get_info(ctx, &info);
        printf("%u %u\n", info.subgroup_min_size, info.subgroup_max_size);
        wgs_context_destroy(ctx);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--n") && v) n = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--runs") && v) runs = atoi(argv[++i]);
        else if (!strcmp(a, "--aux") && v) aux_words = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--check") && v) check = argv[++i];
        else if (!strcmp(a, "--params") && v) {
            char *s = argv[++i];
            for (int k = 0; k < 7 && *s; k++) {
                pa[k] = (uint32_t)strtoul(s, &s, 0);
                if (*s == ',') s++;
            }
        } else if (!strcmp(a, "-D") && v) {
            char *eq = strchr(argv[++i], '=');
            if (!eq) return fail("-D wants NAME=VALUE", NULL);
            size_t len = strlen(defines);
            snprintf(defines + len, sizeof defines - len, "const %.*s: u32 = %su;\n", (int)(eq - argv[i]),
                     argv[i], eq + 1);
        } else if (!strcmp(a, "--pass") && v && passes < MAX_PASSES) {
            char *s = argv[++i], *colon = strchr(s, ':');
            if (!colon) return fail("--pass wants ENTRY:GROUPS", NULL);
            *colon = 0;
            pass_entry[passes] = s;
            pass_groups[passes++] = strtoull(colon + 1, NULL, 0);
        } else if (a[0] != '-' && !file) file = a;
        else return fail("usage: wgscan-lab FILE.wgsl --n N [--runs R] [--aux W] [--check scan|copy|digits:T|none] "
                         "[--params a,b,..] [-D NAME=VALUE].. --pass ENTRY:GROUPS.. | wgscan-lab --subgroups", NULL);
    }
    if (!file || !n || !passes || runs < 1) return fail("need a file, --n and at least one --pass", NULL);
    char *body = read_text(file);
    if (!body) return fail("cannot read the kernel file", NULL);
    for (char *d = strstr(body, "//DEFAULT "); d; d = strstr(d + 1, "//DEFAULT ")) {
        char name[64], value[64], given[80];
        if (sscanf(d + 10, "%63[A-Za-z0-9_]=%63[0-9]", name, value) != 2) continue;
        snprintf(given, sizeof given, "const %s:", name);
        if (strstr(defines, given)) continue;
        size_t len = strlen(defines);
        snprintf(defines + len, sizeof defines - len, "const %s: u32 = %su;\n", name, value);
    }
    char *mark = strstr(body, "//DEFINES");
    size_t pre = mark ? (size_t)(mark - body) : 0;
    char *src = malloc(strlen(body) + strlen(defines) + 1);
    memcpy(src, body, pre);
    strcpy(src + pre, defines);
    strcat(src, body + pre);

    wgs_context *ctx = NULL;
    if (lab_context(&ctx) != 0) return 1;
    gpu_device *g = ctx->gpu;
    WGPUComputePipeline pipe[MAX_PASSES];
    for (int p = 0; p < passes; p++) {
        wgs__gpu_scope_push(g);
        pipe[p] = wgs__gpu_pipeline_create(g, src, pass_entry[p], pass_entry[p]);
        if (wgs__scope_end(ctx, "compiling") != WGS_OK) return fail(pass_entry[p], ctx);
    }
    uint32_t *host = malloc(n * 4), *back = malloc(n * 4);
    uint64_t seed = 12345;
    for (uint64_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        host[i] = (uint32_t)(seed >> 40) & 1023u;
    }
    WGPUBufferUsage st = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
    wgs__gpu_scope_push(g);
    WGPUBuffer bsrc = wgs__gpu_buffer_create(g, n * 4, st, "lab src");
    WGPUBuffer bdst = wgs__gpu_buffer_create(g, n * 4, st, "lab dst");
    WGPUBuffer baux = wgs__gpu_buffer_create(g, aux_words * 4, st, "lab aux");
    WGPUBuffer bzero = wgs__gpu_buffer_create(g, aux_words * 4, st, "lab zero");
    WGPUBuffer bpar = wgs__gpu_buffer_create(g, 256, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, "lab params");
    WGPUBuffer bts = wgs__gpu_buffer_create(g, 16 * (uint64_t)runs, WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc,
                                       "lab timestamps");
    WGPUQuerySet qs = wgs__gpu_timestamp_set_create(g, 2 * (uint32_t)runs);
    if (wgs__scope_end(ctx, "allocating") != WGS_OK) return fail("buffers", ctx);
    for (uint64_t off = 0; off < n * 4; off += 1u << 28) {
        uint64_t len = n * 4 - off < (1u << 28) ? n * 4 - off : (1u << 28);
        wgs__gpu_queue_write(g, bsrc, off, (char *)host + off, len);
    }
    uint32_t par[8] = {(uint32_t)n, pa[0], pa[1], pa[2], pa[3], pa[4], pa[5], pa[6]};
    wgs__gpu_queue_write(g, bpar, 0, par, sizeof par);
    gpu_binding b[4] = {{0, bsrc, 0, n * 4}, {1, bdst, 0, n * 4}, {2, bpar, 0, 32}, {3, baux, 0, aux_words * 4}};
    /* Warm-up (clocks ramp up), then the timed runs, each its own pass. */
    for (int phase = 0; phase < 2; phase++) {
        int count = phase ? runs : 10;
        WGPUCommandEncoder enc = wgs__gpu_encoder_create(g);
        for (int r = 0; r < count; r++) {
            wgs__gpu_copy(g, enc, bzero, 0, baux, 0, aux_words * 4);
            WGPUComputePassEncoder pass = wgs__gpu_pass_begin(g, enc, phase ? qs : NULL, 2u * (uint32_t)r, 2u * (uint32_t)r + 1);
            for (int p = 0; p < passes; p++) {
                WGPUBindGroup grp = wgs__gpu_bind_group_create(g, pipe[p], b, 4);
                uint64_t groups = pass_groups[p], max_dim = ctx->caps.info.max_workgroups_per_dimension;
                uint32_t x = (uint32_t)groups, y = 1;
                if (groups > max_dim) {
                    y = (uint32_t)((groups + max_dim - 1) / max_dim);
                    x = (uint32_t)((groups + y - 1) / y);
                }
                wgs__gpu_pass_dispatch(g, pass, pipe[p], grp, x, y);
                wgs__gpu_bind_group_release(g, grp);
            }
            wgs__gpu_pass_end(g, pass);
        }
        if (phase) wgs__gpu_resolve_queries(g, enc, qs, 0, 2 * (uint32_t)runs, bts, 0);
        wgs__gpu_submit(g, enc);
        char msg[512];
        if (wgs__gpu_wait_idle(g, msg, sizeof msg) != WGS_OK) return fail(msg, NULL);
    }
    uint64_t *ts = malloc(16 * (uint64_t)runs);
    double *us = malloc(sizeof(double) * (size_t)runs);
    char msg[512];
    if (wgs__gpu_buffer_read(g, bts, 0, 16 * (uint64_t)runs, ts, msg, sizeof msg) != WGS_OK) return fail(msg, NULL);
    for (int r = 0; r < runs; r++) us[r] = (double)(ts[2 * r + 1] - ts[2 * r]) / 1000.0;
    qsort(us, (size_t)runs, sizeof *us, cmp_double);
    if (wgs__gpu_buffer_read(g, bdst, 0, n * 4, back, msg, sizeof msg) != WGS_OK) return fail(msg, NULL);
    const char *verdict = "unchecked";
    if (!strcmp(check, "scan") || !strcmp(check, "copy")) {
        uint32_t acc = 0;
        uint64_t bad = n;
        for (uint64_t i = 0; i < n && bad == n; i++) {
            uint32_t want = !strcmp(check, "scan") ? acc : host[i];
            acc += host[i];
            if (back[i] != want) bad = i;
        }
        if (bad < n) {
            printf("WRONG at %llu: got %u\n", (unsigned long long)bad, back[bad]);
            verdict = "WRONG";
        } else {
            verdict = "ok";
        }
    } else if (!strncmp(check, "digits:", 7)) {
        uint64_t t = strtoull(check + 7, NULL, 0), bad = n;
        uint32_t *want = t ? malloc(4 * t) : NULL;
        for (uint64_t first = 0; want && first + t <= n && bad == n; first += t) {
            uint64_t start[257] = {0};
            for (uint64_t i = 0; i < t; i++) start[(host[first + i] & 255u) + 1]++;
            for (int d = 0; d < 256; d++) start[d + 1] += start[d];
            for (uint64_t i = 0; i < t; i++) want[start[host[first + i] & 255u]++] = host[first + i];
            for (uint64_t i = 0; i < t && bad == n; i++)
                if (back[first + i] != want[i]) bad = first + i;
        }
        free(want);
        if (!t || bad < n) {
            printf("WRONG at %llu: got %u\n", (unsigned long long)bad, bad < n ? back[bad] : 0);
            verdict = "WRONG";
        } else {
            verdict = "ok";
        }
    }
    double gbs = 8.0 * (double)n / (us[runs / 2] * 1e3);
    printf("%s n=%llu median %.1f us min %.1f (%.0f GB/s as copy) %s |", pass_entry[passes - 1],
           (unsigned long long)n, us[runs / 2], us[0], gbs, verdict);
    for (int i = 1; i < argc; i++) /* the defines on one line */
        if (!strcmp(argv[i], "-D") && i + 1 < argc) printf(" %s", argv[i + 1]);
    printf("\n");
    for (int p = 0; p < passes; p++) wgs__gpu_pipeline_release(g, pipe[p]);
    wgs__gpu_query_set_release(g, qs);
    WGPUBuffer bufs[] = {bsrc, bdst, baux, bzero, bpar, bts};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) wgs__gpu_buffer_release(g, bufs[i]);
    wgs_context_destroy(ctx);
    free(ts);
    free(us);
    free(host);
    free(back);
    free(src);
    free(body);
    return strcmp(verdict, "WRONG") == 0;
}
