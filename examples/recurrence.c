/* SPDX-License-Identifier: MIT */
/*
 * recurrence: a first-order linear recurrence y[t] = a[t] y[t-1] + b[t] (an IIR filter,
 * exponential smoothing, a state-space layer's scan) solved by a scan with the user's
 * own operator, and by the sequential loop on the CPU.
 *
 * Each step is the affine map x -> a x + b, carried as the pair (a, b); applying f and
 * then g is the map (g.a f.a, g.a f.b + g.b), which is associative but does not commute.
 * The inclusive scan of the maps from a carry-in (0, y0), the constant map that gives
 * y0, holds (0, y[t]) at step t. The CPU loop runs in f32 as the GPU does; both are
 * compared with the recurrence in double precision, and the program fails when the
 * GPU's largest difference exceeds 1e-4 of the largest |y| (a wrong order of
 * combination is off by the size of y itself). The times: the scan on the GPU (best of
 * --repeat, GPU timestamps where the device has them, else wall clock around submit and
 * wait), a copy of the same bytes for scale, and the CPU loop.
 *
 * Then the same with 2x2 u32 matrices (running products, Fibonacci-like: exact, checked
 * bit for bit against the CPU's products).
 *
 *   recurrence [--n N] [--repeat R] [--seed S]
 */
#include "example.h"

static const char *example_name = "recurrence";

#include <math.h>
#include <stdlib.h>

static const char affine_wgsl[] = "struct Affine { a: f32, b: f32 }\n"
                                  "fn then(f: Affine, g: Affine) -> Affine {\n"
                                  "    return Affine(g.a * f.a, g.a * f.b + g.b);\n"
                                  "}\n";
static const float affine_identity[2] = {1.0f, 0.0f};

static const char mat2_wgsl[] = "struct Mat2 { a: u32, b: u32, c: u32, d: u32 }\n"
                                "fn mul(x: Mat2, y: Mat2) -> Mat2 {\n"
                                "    return Mat2(x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d,\n"
                                "                x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d);\n"
                                "}\n";
static const uint32_t mat2_identity[4] = {1, 0, 0, 1};

/* The GPU time of one scan of n elements of `bytes` each, in ms (best of repeat), and
 * of a copy of the same bytes. */
static int time_scan(wgs_context *ctx, wgs_scan_plan *plan, WGPUBuffer in, WGPUBuffer out, uint64_t n,
                     const void *init, int repeat, double *scan_ms, double *copy_ms, uint64_t bytes) {
    wgs_context_info info;
    CHECKED(wgs_context_get_info(ctx, &info));
    wgs_timer *timer = NULL;
    if (info.has_timestamp_query) CHECKED(wgs_timer_create(ctx, 2, &timer));
    WGPUQuerySet qs = timer ? wgs_timer_query_set(timer) : NULL;
    *scan_ms = *copy_ms = 1e30;
    for (int r = 0; r < repeat; r++) {
        for (int which = 1; which >= 0; which--) { /* the copy first: the scan's output is what stays */
            WGPUCommandEncoder enc;
            CHECKED(wgs_encoder_create(ctx, &enc));
            double t0 = example_now();
            if (which == 0) {
                wgs_scan_args a = {.input = in, .output = out, .n = n, .init_value = init,
                                   .timestamp_query_set = qs, .timestamp_begin_index = 0, .timestamp_end_index = 1};
                CHECKED(wgs_scan_encode(plan, enc, &a));
            } else {
                wgs_copy_args c = {.src = in, .dst = out, .bytes = bytes / 16 * 16,
                                   .timestamp_query_set = qs, .timestamp_begin_index = 0, .timestamp_end_index = 1};
                CHECKED(wgs_copy_encode(ctx, enc, &c));
            }
            if (timer) CHECKED(wgs_timer_resolve(timer, enc));
            CHECKED(wgs_submit(ctx, enc));
            CHECKED(wgs_wait(ctx));
            double ms = (example_now() - t0) * 1e3;
            if (timer) {
                double sec[2];
                CHECKED(wgs_timer_read(timer, sec, 2));
                ms = sec[0] * 1e3;
            }
            double *best = which ? copy_ms : scan_ms;
            if (ms < *best) *best = ms;
        }
    }
    wgs_timer_destroy(timer);
    return 0;
}

int main(int argc, char **argv) {
    uint64_t n_opt = 1u << 24, repeat_opt = 5, seed = 11;
    const example_option opts[] = {{"--n", &n_opt, 1, 1u << 26}, {"--repeat", &repeat_opt, 1, 100},
                                   {"--seed", &seed, 1, UINT64_MAX}};
    int st = example_options(argc, argv, "usage: recurrence [--n N] [--repeat R] [--seed S]\n", opts, 3);
    if (st >= 0) return st;
    const uint64_t n = n_opt;
    const int repeat = (int)repeat_opt;

    wgs_context *ctx = NULL;
    if (wgs_context_create(NULL, &ctx) != WGS_OK) {
        fprintf(stderr, "recurrence: no WebGPU context\n");
        return 3;
    }
    wgs_context_info info;
    CHECKED(wgs_context_get_info(ctx, &info));

    /* a in [0.9, 1): a stable filter; b in [-1, 1). */
    float *ab = malloc(n * 8), *got = malloc(n * 8), *cpu = malloc(n * 4);
    double *exact = malloc(n * 8);
    if (!ab || !got || !cpu || !exact) return fprintf(stderr, "recurrence: out of memory\n"), 3;
    for (uint64_t t = 0; t < n; t++) {
        ab[2 * t] = 0.9f + 0.1f * (float)((example_random(&seed) >> 40) * 0x1p-24);
        ab[2 * t + 1] = (float)((example_random(&seed) >> 40) * 0x1p-23) - 1.0f;
    }
    const float y0 = 0.5f, init[2] = {0.0f, y0};

    double t0 = example_now();
    float y = y0;
    for (uint64_t t = 0; t < n; t++) cpu[t] = y = ab[2 * t] * y + ab[2 * t + 1];
    double cpu_ms = (example_now() - t0) * 1e3;
    double yd = y0;
    for (uint64_t t = 0; t < n; t++) exact[t] = yd = (double)ab[2 * t] * yd + (double)ab[2 * t + 1];

    const wgs_operator_desc affine = {affine_wgsl, "Affine", "then", affine_identity, 8, 0};
    wgs_scan_plan *plan = NULL;
    CHECKED(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.kind = WGS_SCAN_INCLUSIVE, .capacity = n,
                                                            .custom = &affine, .label = "recurrence"}, &plan));
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer bin = NULL, bout = NULL;
    CHECKED(wgs_buffer_create(ctx, n * 8, usage, &bin));
    CHECKED(wgs_buffer_create(ctx, n * 8, usage, &bout));
    CHECKED(wgs_buffer_write(ctx, bin, 0, ab, n * 8));
    double scan_ms, copy_ms;
    if (time_scan(ctx, plan, bin, bout, n, init, repeat, &scan_ms, &copy_ms, n * 8)) return 3;
    CHECKED(wgs_buffer_read(ctx, bout, 0, got, n * 8));

    double gpu_err = 0, cpu_err = 0, gpu_cpu = 0, ymax = 0;
    for (uint64_t t = 0; t < n; t++) {
        double e = fabs((double)got[2 * t + 1] - exact[t]);
        if (!(e <= gpu_err)) gpu_err = e; /* a NaN is the largest */
        if (fabs((double)cpu[t] - exact[t]) > cpu_err) cpu_err = fabs((double)cpu[t] - exact[t]);
        if (fabs((double)got[2 * t + 1] - cpu[t]) > gpu_cpu) gpu_cpu = fabs((double)got[2 * t + 1] - cpu[t]);
        if (fabs(exact[t]) > ymax) ymax = fabs(exact[t]);
    }
    int bad = !(gpu_err <= 1e-4 * (ymax > 1 ? ymax : 1));
    printf("recurrence: %llu steps of y = a y + b on %s (%s)\n", (unsigned long long)n, info.device,
           info.has_timestamp_query ? "GPU timestamps" : "wall clock");
    printf("  scan (affine f32 pairs): %.3f ms; a copy of the same %llu bytes: %.3f ms (%.2f copies)\n", scan_ms,
           (unsigned long long)(n * 8), copy_ms, scan_ms / copy_ms);
    printf("  CPU sequential loop: %.3f ms\n", cpu_ms);
    printf("  largest |difference|: GPU - CPU loop %.3g; against double: GPU %.3g, CPU loop %.3g (max |y| %.3g)%s\n",
           gpu_cpu, gpu_err, cpu_err, ymax, bad ? "  FAIL" : "");

    /* 2x2 matrices: running products, exact. */
    uint64_t m = n < (1u << 22) ? n : (1u << 22);
    uint32_t *mats = malloc(m * 16), *mgot = malloc(m * 16);
    if (!mats || !mgot) return fprintf(stderr, "recurrence: out of memory\n"), 3;
    /* a and d odd, b and c even: odd determinants, so the products never collapse to 0
     * modulo 2^32 (which would hide a wrong order) */
    for (uint64_t i = 0; i < 4 * m; i++) mats[i] = (uint32_t)(2 * (example_random(&seed) % 3) + (i % 4 == 0 || i % 4 == 3));
    const wgs_operator_desc mat2 = {mat2_wgsl, "Mat2", "mul", mat2_identity, 16, 0};
    wgs_scan_plan *mplan = NULL;
    CHECKED(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.kind = WGS_SCAN_INCLUSIVE, .capacity = m,
                                                            .custom = &mat2, .label = "recurrence"}, &mplan));
    WGPUBuffer min = NULL, mout = NULL;
    CHECKED(wgs_buffer_create(ctx, m * 16, usage, &min));
    CHECKED(wgs_buffer_create(ctx, m * 16, usage, &mout));
    CHECKED(wgs_buffer_write(ctx, min, 0, mats, m * 16));
    double mscan_ms, mcopy_ms;
    if (time_scan(ctx, mplan, min, mout, m, NULL, repeat, &mscan_ms, &mcopy_ms, m * 16)) return 3;
    CHECKED(wgs_buffer_read(ctx, mout, 0, mgot, m * 16));
    uint32_t p[4] = {1, 0, 0, 1};
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < m; i++) {
        const uint32_t *y2 = mats + 4 * i;
        uint32_t q[4] = {p[0] * y2[0] + p[1] * y2[2], p[0] * y2[1] + p[1] * y2[3], p[2] * y2[0] + p[3] * y2[2],
                         p[2] * y2[1] + p[3] * y2[3]};
        memcpy(p, q, 16);
        wrong += memcmp(p, mgot + 4 * i, 16) != 0;
    }
    printf("  2x2 u32 matrix products, %llu: %.3f ms (%.2f copies), %llu wrong%s\n", (unsigned long long)m, mscan_ms,
           mscan_ms / mcopy_ms, (unsigned long long)wrong, wrong ? "  FAIL" : "");

    wgs_buffer_release(ctx, bin);
    wgs_buffer_release(ctx, bout);
    wgs_buffer_release(ctx, min);
    wgs_buffer_release(ctx, mout);
    wgs_scan_plan_destroy(plan);
    wgs_scan_plan_destroy(mplan);
    wgs_context_destroy(ctx);
    free(ab), free(got), free(cpu), free(exact), free(mats), free(mgot);
    return bad || wrong ? 1 : 0;
}
