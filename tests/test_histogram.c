/* Histogram against the CPU reference: the three integer bin rules (shift, division,
 * general), f32 bins, the whole u32 range, bins past workgroup memory (global atomics),
 * out-of-range values, several bindings, size boundaries and bad inputs. */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

static uint64_t max_n(void) {
    const char *e = getenv("WGSCAN_TEST_MAX_N");
    return e ? strtoull(e, NULL, 10) : (1ull << 22) + 3;
}

static void check_histogram(wgs_context *ctx, const wgs_histogram_plan_desc *d, uint64_t n, uint64_t seed,
                            int spread) {
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
    ref_histogram(in, d->type, d->bins, d->lower, d->upper, n, want);
    bin = test_upload(ctx, in, n * 4);
    bout = test_buffer(ctx, (uint64_t)d->bins * 4);
    if (!bin || !bout) goto done;
    for (uint32_t i = 0; i < d->bins; i++) got[i] = 0xABCDu; /* the encode must zero it */
    wgs_buffer_write(ctx, bout, 0, got, (uint64_t)d->bins * 4);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_histogram_args a = {bin, 0, n, bout, 0, NULL, 0, 0};
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
    wgs_histogram_plan_destroy(plan);
    free(in), free(want), free(got);
}

TEST(histogram_rules_and_sizes) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const wgs_histogram_plan_desc descs[] = {
        {WGS_TYPE_U32, 256, 0, 4294967296.0, 0, NULL},        /* shift: the whole u32 range */
        {WGS_TYPE_U32, 100, 1000, 1000 + 100 * 37, 0, NULL},  /* division */
        {WGS_TYPE_U32, 7, 0, 4294967296.0, 0, NULL},          /* general, R = 2^32 */
        {WGS_TYPE_I32, 1000, -5000, 123457, 0, NULL},         /* general */
        {WGS_TYPE_I32, 1, -2147483648.0, 2147483648.0, 0, NULL}, /* one bin, shift by 32 */
        {WGS_TYPE_F32, 64, -1.5, 2.25, 0, NULL},
        {WGS_TYPE_F32, 4096, 0, 1, 0, NULL},
        {WGS_TYPE_U32, 10000, 0, 1000000, 0, NULL},           /* global atomics path */
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

TEST(histogram_multi_binding) {
    wgs_context *ctx = test_context_capped(0, 64 * 1024);
    if (!ctx) return;
    wgs_histogram_plan_desc d = {WGS_TYPE_I32, 300, -100000, 200000, 300000, NULL};
    check_histogram(ctx, &d, 16385, 1, 1);
    check_histogram(ctx, &d, 65536 * 3 + 3, 2, 1);
}

TEST(histogram_bad_input) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_histogram_plan *plan = NULL;
    wgs_histogram_plan_desc d = {WGS_TYPE_U32, 0, 0, 10, 10, NULL};
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
    wgs_histogram_args a = {in, 0, 11, out, 0, NULL, 0, 0};
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
