/* SPDX-License-Identifier: MIT */
/* Histogram against the CPU reference: the three integer bin rules (shift, division,
 * general), f32 bins, the whole u32 range, bins past workgroup memory (global atomics),
 * out-of-range values, several bindings, size boundaries and bad inputs. */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t max_n(void) {
    const char *e = getenv("WGSCAN_TEST_MAX_N");
    return e ? strtoull(e, NULL, 10) : (1ull << 22) + 3;
}

/* gpu_count >= 0: n is the bound and the count (clamped to it) comes from a GPU buffer. */
static void check_histogram_count(wgs_context *ctx, const wgs_histogram_plan_desc *d, uint64_t n, uint64_t seed,
                                  int spread, int64_t gpu_count) {
    const uint64_t m = gpu_count >= 0 && (uint64_t)gpu_count < n ? (uint64_t)gpu_count : n;
    WGPUBuffer bn = NULL;
    wgs_histogram_plan *plan = NULL;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, d, &plan), WGS_OK);
    uint32_t *in = malloc(n ? n * 4 : 4), *want = malloc((size_t)d->bins * 4), *got = malloc((size_t)d->bins * 4);
    WGPUBuffer bin = NULL, bout = NULL;
    if (!plan || !in || !want || !got) goto done;
    ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, n, seed);
    /* spread 0: full-range bits; 1: values around [lower, upper), some outside. */
    for (uint64_t i = 0; spread && i < n; i++) {
        double span = d->upper - d->lower;
        double v = d->lower - span / 8 + span * 1.25 * ((double)(in[i] >> 8) / 16777216.0);
        if (d->type == WGS_TYPE_F32) {
            float f = (float)v;
            memcpy(&in[i], &f, 4);
        } else if (d->type == WGS_TYPE_I32) {
            if (v < -2147483648.0) v = -2147483648.0;
            if (v > 2147483647.0) v = 2147483647.0;
            in[i] = (uint32_t)(int32_t)v;
        } else {
            if (v < 0) v = 0;
            if (v > 4294967295.0) v = 4294967295.0;
            in[i] = (uint32_t)v;
        }
    }
    ref_histogram(in, d->type, d->bins, d->lower, d->upper, m, want);
    if (gpu_count >= 0) bn = test_count_buffer(ctx, (uint32_t)gpu_count, 4);
    bin = test_upload(ctx, in, n * 4);
    bout = test_buffer(ctx, (uint64_t)d->bins * 4);
    if (!bin || !bout) goto done;
    for (uint32_t i = 0; i < d->bins; i++) got[i] = 0xABCDu; /* the encode must zero it */
    wgs_buffer_write(ctx, bout, 0, got, (uint64_t)d->bins * 4);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_histogram_args a = {.input = bin, .n = n, .output = bout, .n_buffer = bn, .n_offset = 4};
    CHECK_RESULT(wgs_histogram_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    if (!test_download(ctx, bout, got, (uint64_t)d->bins * 4)) goto done;
    for (uint32_t i = 0; i < d->bins; i++) {
        if (got[i] != want[i]) {
            test_fail(__FILE__, __LINE__, "%s %u bins [%.9g, %.9g) n=%llu: bin %u holds %u, want %u",
                      wgs_type_name(d->type), d->bins, d->lower, d->upper, (unsigned long long)n, i, got[i],
                      want[i]);
            break;
        }
    }
done:
    wgs_buffer_release(ctx, bin);
    wgs_buffer_release(ctx, bout);
    wgs_buffer_release(ctx, bn);
    wgs_histogram_plan_destroy(plan);
    free(in), free(want), free(got);
}

static void check_histogram(wgs_context *ctx, const wgs_histogram_plan_desc *d, uint64_t n, uint64_t seed,
                            int spread) {
    check_histogram_count(ctx, d, n, seed, spread, -1);
}

TEST(histogram_rules_and_sizes) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const wgs_histogram_plan_desc descs[] = {
        {.type = WGS_TYPE_U32, .bins = 256, .upper = 4294967296.0},        /* shift: the whole u32 range */
        {WGS_TYPE_U32, 100, 1000, 1000 + 100 * 37, 0, NULL},  /* division */
        {WGS_TYPE_U32, 7, 0, 4294967296.0, 0, NULL},          /* general, R = 2^32 */
        {WGS_TYPE_I32, 1000, -5000, 123457, 0, NULL},         /* general */
        {WGS_TYPE_I32, 1, -2147483648.0, 2147483648.0, 0, NULL}, /* one bin, shift by 32 */
        {WGS_TYPE_F32, 64, -1.5, 2.25, 0, NULL},
        {.type = WGS_TYPE_F32, .bins = 4096, .upper = 1},
        {.type = WGS_TYPE_U32, .bins = 10000, .upper = 1000000},           /* global atomics path */
    };
    const uint64_t sizes[] = {0, 1, 3, 4, 5, 2047, 2049, 32769, 1000003};
    for (size_t k = 0; k < sizeof descs / sizeof descs[0]; k++) {
        wgs_histogram_plan_desc d = descs[k];
        d.capacity = max_n();
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            if (sizes[i] <= max_n()) check_histogram(ctx, &d, sizes[i], 31 * k + i, k != 0 && k != 2);
        check_histogram(ctx, &d, max_n(), 99 + k, k != 0 && k != 2);
    }
}

/* Chunks of 16384 elements, each chunk's grid folded (3 workgroups a dimension) with
 * spare workgroups, which once counted their share twice; private and global bins. */
TEST(histogram_multi_binding) {
    wgs_context *ctx = test_context_capped(3, 64 * 1024);
    if (!ctx) return;
    wgs_histogram_plan_desc d = {.type = WGS_TYPE_I32, .bins = 300, .lower = -100000, .upper = 200000,
                                 .capacity = 300000};
    check_histogram(ctx, &d, 16385, 1, 1);
    check_histogram(ctx, &d, 65536 * 3 + 3, 2, 1);
    wgs_histogram_plan_desc wide = {.type = WGS_TYPE_U32, .bins = 5000, .upper = 1000000, .capacity = 300000};
    check_histogram(ctx, &wide, 65536 * 3 + 3, 3, 1);
}

/* f32 data full of NaNs (several payloads), +-inf, +-0 and subnormals: NaN and the
 * infinities in no bin, the range test exact (-1e-45 is below 0), subnormals binned as 0
 * in the arithmetic, the same on the device and the CPU; and bounds at the edges of what
 * is accepted: a subnormal lower, the widest range and the narrowest bins. */
TEST(histogram_float_edges) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const wgs_histogram_plan_desc descs[] = {
        {.type = WGS_TYPE_F32, .bins = 16, .upper = 1},
        {.type = WGS_TYPE_F32, .bins = 7, .lower = -0.0, .upper = 4},
        {.type = WGS_TYPE_F32, .bins = 64, .lower = -4, .upper = 4},
        {.type = WGS_TYPE_F32, .bins = 16, .lower = -1e-40, .upper = 2e-37},    /* a subnormal lower; bins of 1.25e-38 */
        {WGS_TYPE_F32, 8, -1.7e38, 1.7e38, 0, NULL},   /* the widest range */
        {WGS_TYPE_F32, 1024, 1e-30, 2e-30, 0, NULL},   /* narrow bins */
        {WGS_TYPE_F32, 5000, -2, 2, 0, NULL},          /* global atomics */
    };
    const unsigned kinds[] = {REF_EDGE_ALL, REF_EDGE_ALL | REF_EDGE_ONLY};
    const uint64_t n = 40001;
    uint32_t *in = malloc(n * 4), *want = malloc(5000 * 4), *got = malloc(5000 * 4);
    if (!in || !want || !got) goto done;
    for (size_t k = 0; k < sizeof descs / sizeof descs[0]; k++) {
        wgs_histogram_plan_desc d = descs[k];
        d.capacity = n;
        wgs_histogram_plan *plan = NULL;
        CHECK_RESULT(wgs_histogram_plan_create(ctx, &d, &plan), WGS_OK);
        if (!plan) continue;
        for (int v = 0; v < 2; v++) {
            ref_fill_f32_edges(in, n, 3 * k + (uint64_t)v, kinds[v]);
            /* Values at the bounds and across the range, and the largest finite ones. */
            for (uint64_t i = 0; i < n; i += 17) {
                float lo = (float)d.lower, hi = (float)d.upper, f;
                uint64_t m = i / 17 % 6;
                f = m == 0 ? lo : m == 1 ? hi : m == 2 ? nextafterf(hi, -INFINITY) : m == 3 ? 3.4e38f : m == 4 ? -3.4e38f
                  : lo + (hi - lo) * (float)(i % 1000) / 1000.0f;
                memcpy(&in[i], &f, 4);
            }
            ref_histogram(in, WGS_TYPE_F32, d.bins, d.lower, d.upper, n, want);
            WGPUBuffer bi = test_upload(ctx, in, n * 4), bo = test_buffer(ctx, (uint64_t)d.bins * 4);
            WGPUCommandEncoder enc;
            if (bi && bo && wgs_encoder_create(ctx, &enc) == WGS_OK) {
                wgs_histogram_args a = {.input = bi, .n = n, .output = bo};
                CHECK_RESULT(wgs_histogram_encode(plan, enc, &a), WGS_OK);
                CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
                if (test_download(ctx, bo, got, (uint64_t)d.bins * 4)) {
                    for (uint32_t b = 0; b < d.bins; b++) {
                        if (got[b] != want[b]) {
                            test_fail(__FILE__, __LINE__, "%u bins [%g, %g) kinds %u: bin %u holds %u, want %u",
                                      d.bins, d.lower, d.upper, kinds[v], b, got[b], want[b]);
                            break;
                        }
                    }
                }
            }
            wgs_buffer_release(ctx, bi);
            wgs_buffer_release(ctx, bo);
        }
        wgs_histogram_plan_destroy(plan);
    }
done:
    free(in), free(want), free(got);
}

/* f32 bounds the bin rule cannot keep exact and finite are refused, each by its code:
 * NaN or infinite bounds, lower >= upper, upper - lower overflowing f32, a scale
 * bins / (upper - lower) above 2^126 (bins narrower than the smallest normal) or below
 * 2^-126 (a subnormal scale, flushed by some devices). Integer bounds that are NaN or
 * infinite likewise. */
TEST(histogram_float_bounds) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const struct {
        wgs_type type;
        uint32_t bins;
        double lower, upper;
        wgs_result want;
    } cases[] = {
        {WGS_TYPE_F32, 4, NAN, 1, WGS_ERROR_INVALID_ARGUMENT},
        {WGS_TYPE_F32, 4, 0, NAN, WGS_ERROR_INVALID_ARGUMENT},
        {WGS_TYPE_F32, 4, -INFINITY, 0, WGS_ERROR_INVALID_ARGUMENT},
        {WGS_TYPE_F32, 4, 0, 1e39, WGS_ERROR_INVALID_ARGUMENT},          /* inf in f32 */
        {WGS_TYPE_F32, 4, 1, 1, WGS_ERROR_INVALID_ARGUMENT},
        {WGS_TYPE_F32, 4, 1, 1 + 1e-9, WGS_ERROR_INVALID_ARGUMENT},       /* equal in f32 */
        {WGS_TYPE_F32, 4, 2, 1, WGS_ERROR_INVALID_ARGUMENT},
        {WGS_TYPE_F32, 4, -3e38, 3e38, WGS_ERROR_INVALID_ARGUMENT},       /* upper - lower = inf */
        {WGS_TYPE_F32, 1, -1e38, 1e38, WGS_ERROR_INVALID_ARGUMENT},       /* scale subnormal */
        {WGS_TYPE_F32, 4, -1e38, 1e38, WGS_OK},                           /* scale 2e-38: normal */
        {WGS_TYPE_F32, 1024, 0, 1e-37, WGS_ERROR_INVALID_ARGUMENT},       /* scale 1e40: inf in f32 */
        {WGS_TYPE_F32, 16, 0, 1e-37, WGS_ERROR_INVALID_ARGUMENT},         /* scale 1.6e38 > 2^126 */
        {WGS_TYPE_F32, 16, 0, 1e-36, WGS_OK},                             /* scale 1.6e37 */
        {WGS_TYPE_F32, 2, 0, 1e-45, WGS_ERROR_INVALID_ARGUMENT},          /* subnormal width */
        {WGS_TYPE_U32, 4, NAN, 10, WGS_ERROR_INVALID_ARGUMENT},
        {WGS_TYPE_I32, 4, 0, INFINITY, WGS_ERROR_INVALID_ARGUMENT},
        {WGS_TYPE_I32, 4, -INFINITY, 0, WGS_ERROR_INVALID_ARGUMENT},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        wgs_histogram_plan_desc d = {.type = cases[k].type, .bins = cases[k].bins, .lower = cases[k].lower,
                                     .upper = cases[k].upper, .capacity = 16};
        wgs_histogram_plan *plan = NULL;
        wgs_result r = wgs_histogram_plan_create(ctx, &d, &plan);
        if (r != cases[k].want)
            test_fail(__FILE__, __LINE__, "%s %u bins [%g, %g): %s, want %s", wgs_type_name(d.type), d.bins, d.lower,
                      d.upper, wgs_result_name(r), wgs_result_name(cases[k].want));
        CHECK((plan != NULL) == (r == WGS_OK));
        wgs_histogram_plan_destroy(plan);
        /* The reference refuses alike: it counts nothing rather than convert inf or NaN. */
        uint32_t x[3] = {0x3F000000u, 0x7F800000u, 0x7FC00000u}, h[1024];
        ref_histogram(x, d.type, d.bins, d.lower, d.upper, 3, h);
        if (r != WGS_OK) CHECK(h[0] == 0);
    }
}

TEST(histogram_bad_input) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_histogram_plan *plan = NULL;
    wgs_histogram_plan_desc d = {.type = WGS_TYPE_U32, .upper = 10, .capacity = 10};
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.bins = WGS_HISTOGRAM_MAX_BINS + 1;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.bins = 4;
    d.lower = 10;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.lower = -1;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.lower = 0.5;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.lower = 0;
    d.upper = 4294967297.0;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.type = WGS_TYPE_F16;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &d, &plan), WGS_ERROR_UNSUPPORTED_TYPE);
    d.type = WGS_TYPE_F32;
    d.upper = 1.0 / 0.0;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.upper = 10;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    WGPUBuffer in = test_buffer(ctx, 40), out = test_buffer(ctx, 12);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_histogram_args a = {.input = in, .n = 11, .output = out};
    CHECK_RESULT(wgs_histogram_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a.n = 10;
    CHECK_RESULT(wgs_histogram_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL); /* 4 bins need 16 bytes */
    a.output = in;
    CHECK_RESULT(wgs_histogram_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, out);
    wgs_histogram_plan_destroy(plan);
}

/* The host helper: f32 values with some outside the range, and n = 0 (all zero). */
TEST(histogram_host) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { N = 5001, BINS = 37 };
    float in[N];
    uint32_t got[BINS], want[BINS];
    for (int i = 0; i < N; i++) in[i] = (float)((i * 7919) % 1200) * 0.01f - 1.0f;
    const wgs_histogram_plan_desc d = {.type = WGS_TYPE_F32, .bins = BINS, .lower = 0.0, .upper = 10.0};
    ref_histogram(in, d.type, d.bins, d.lower, d.upper, N, want);
    CHECK_RESULT(wgs_histogram_host(ctx, &d, in, N, got), WGS_OK);
    CHECK(memcmp(got, want, sizeof got) == 0);
    memset(got, 0xEE, sizeof got);
    CHECK_RESULT(wgs_histogram_host(ctx, &d, NULL, 0, got), WGS_OK);
    for (int i = 0; i < BINS; i++) CHECK(got[i] == 0);
    CHECK_RESULT(wgs_histogram_host(ctx, &(wgs_histogram_plan_desc){.bins = 0}, in, N, got),
                 WGS_ERROR_INVALID_ARGUMENT);
}

/* Counts on the GPU (args.n_buffer): global and workgroup bins, counts at a workgroup's
 * share's edges (CPU tuning: 512 elements), the bound and above it (every bin 0 for a
 * count of 0); and over several bindings (capped limits). */
TEST(histogram_count_from_gpu) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t bound = 70001;
    const int64_t counts[] = {0, 1, 511, 513, 40000, (int64_t)bound, (int64_t)bound + 1000};
    const wgs_histogram_plan_desc descs[] = {
        {.type = WGS_TYPE_F32, .bins = 100, .lower = -1, .upper = 3, .capacity = bound},
        {.type = WGS_TYPE_U32, .bins = 5000, .lower = 0, .upper = 1e9, .capacity = bound},
    };
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
            check_histogram_count(ctx, &descs[k], bound, 5 + i, 1, counts[i]);
    wgs_context *capped = test_context_capped(0, 64 * 1024);
    if (!capped) return;
    const uint64_t chunk = 16384, big = 3 * chunk + 9;
    const int64_t chunk_counts[] = {chunk - 1, chunk + 1, 2 * chunk + 500, (int64_t)big};
    wgs_histogram_plan_desc d = {.type = WGS_TYPE_I32, .bins = 64, .lower = -100, .upper = 100, .capacity = big};
    for (size_t i = 0; i < sizeof chunk_counts / sizeof chunk_counts[0]; i++)
        check_histogram_count(capped, &d, big, 9 + i, 1, chunk_counts[i]);
}
