/* SPDX-License-Identifier: MIT */
/*
 * histogram.c: histogram plans (kernels in wgsl/device/histogram.wgsl). Per encode: the
 * output zeroed, then one dispatch per chunk of the input over a fixed grid.
 */
#include "tuning.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wgs_histogram_plan {
    wgs_context *ctx;
    wgs_type type;
    uint32_t bins;
    uint64_t capacity, chunk_elems;
    uint32_t wg, items, groups_max;
    wgs_histogram_params base; /* the bin rule: range, lower, scale */
    uint32_t mode;             /* BIN_* */
    WGPUComputePipeline count, clear;
};

static uint32_t f32_bits(double v) {
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* The bin rule as kernel parameters (see histogram.wgsl); refuses what it cannot bin. */
static wgs_result bin_rule(wgs_context *ctx, wgs_type type, uint32_t bins, double lower, double upper,
                           wgs_histogram_params *rec, uint32_t *mode) {
    memset(rec, 0, sizeof *rec);
    rec->bins = bins;
    if (type == WGS_TYPE_F32) {
        /* The kernel computes (v - lower) * scale in f32 for v in [lower, upper): with
         * upper - lower finite that stays finite, and with scale normal and at most 2^126
         * a device that flushes subnormals (v - lower, or scale itself) bins alike. */
        float lo = (float)lower, hi = (float)upper;
        WGS_FAIL_IF(ctx, !isfinite(lo) || !isfinite(hi) || !(lo < hi), WGS_ERROR_INVALID_ARGUMENT,
                    "histogram bounds [%g, %g) must be finite f32 values with lower < upper", lower, upper);
        float lo0 = fabsf(lo) < 0x1p-126f ? 0.0f : lo; /* the kernel's: subnormals as 0 */
        float range = hi - lo, range0 = hi - lo0;
        WGS_FAIL_IF(ctx, !isfinite(range) || !isfinite(range0), WGS_ERROR_INVALID_ARGUMENT,
                    "histogram bounds [%g, %g): upper - lower overflows f32", lower, upper);
        float scale = (float)((double)bins / ((double)hi - (double)lo));
        WGS_FAIL_IF(ctx, !(scale >= 0x1p-126f && scale <= 0x1p126f), WGS_ERROR_INVALID_ARGUMENT,
                    "histogram bounds [%g, %g) with %u bins: the scale bins / (upper - lower) = %g must lie "
                    "in [2^-126, 2^126] (bins neither narrower than the smallest normal f32 nor wider "
                    "than 2^126)", lower, upper, bins, (double)scale);
        *mode = WGS_BIN_F32;
        rec->lower = f32_bits(lo);
        rec->upper = f32_bits(hi);
        rec->span = f32_bits(lo0);
        rec->rule = f32_bits(scale);
        return WGS_OK;
    }
    double tmin = type == WGS_TYPE_I32 ? -2147483648.0 : 0.0;
    double tmax = type == WGS_TYPE_I32 ? 2147483648.0 : 4294967296.0; /* max + 1 */
    WGS_FAIL_IF(ctx, lower != floor(lower) || upper != floor(upper) || lower < tmin || upper > tmax ||
                         !(lower < upper),
                WGS_ERROR_INVALID_ARGUMENT,
                "histogram bounds [%.17g, %.17g) must be %s integers with lower < upper <= %.0f", lower,
                upper, wgs_type_name(type), tmax);
    uint64_t range = (uint64_t)(upper - lower);
    rec->lower = type == WGS_TYPE_I32 ? (uint32_t)(int32_t)lower : (uint32_t)lower;
    rec->upper = (uint32_t)(range - 1);
    rec->span = (uint32_t)range;
    rec->flags = (uint32_t)(range >> 32) << 8;
    if (range % bins == 0) {
        uint64_t w = range / bins;
        if ((w & (w - 1)) == 0) {
            uint32_t s = 0;
            while ((1ull << s) < w) s++;
            *mode = WGS_BIN_SHIFT;
            rec->rule = s;
        } else {
            *mode = WGS_BIN_DIVIDE;
            rec->rule = (uint32_t)w;
        }
    } else {
        *mode = WGS_BIN_ESTIMATE;
        rec->rule = f32_bits((double)bins / (double)range);
    }
    return WGS_OK;
}

wgs_result wgs_histogram_plan_create(wgs_context *ctx, const wgs_histogram_plan_desc *desc,
                                     wgs_histogram_plan **out) {
    WGS_CREATE_BEGIN(ctx, desc, out);
    wgs_result r = WGS_OK;
    wgs_type type = desc->type ? desc->type : WGS_TYPE_U32;
    WGS_FAIL_IF(ctx, type == WGS_TYPE_F16 || (unsigned)type > WGS_TYPE_F32, WGS_ERROR_UNSUPPORTED_TYPE,
                "histogram takes u32, i32 and f32, not %s", wgs_type_name(type));
    WGS_FAIL_IF(ctx, desc->bins == 0 || desc->bins > WGS_HISTOGRAM_MAX_BINS, WGS_ERROR_INVALID_ARGUMENT,
                "bins must be 1..%u, not %u", WGS_HISTOGRAM_MAX_BINS, desc->bins);
    wgs_histogram_params rule;
    uint32_t mode = 0;
    if ((r = bin_rule(ctx, type, desc->bins, desc->lower, desc->upper, &rule, &mode)) != WGS_OK) return r;
    const wgs_context_info *ci = &ctx->caps.info;
    uint64_t capacity = desc->capacity ? desc->capacity : 1;
    WGS_FAIL_IF(ctx, wgs__mul_sat(capacity, 4) > ci->max_buffer_size || (uint64_t)desc->bins * 4 > ci->max_storage_binding_size,
                WGS_ERROR_TOO_LARGE, "capacity %llu or %u bins do not fit this device",
                (unsigned long long)capacity, desc->bins);
    wgs_histogram_plan *p = calloc(1, sizeof *p);
    WGS_FAIL_IF(ctx, !p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the histogram plan");
    p->ctx = ctx;
    p->type = type;
    p->bins = desc->bins;
    p->capacity = capacity;
    p->base = rule;
    p->chunk_elems = wgs__chunk_elems(ctx, 4);
    const wgs__tuning *tu = wgs__tuning_of(ctx);
    p->wg = tu->histogram.wg;
    p->items = tu->histogram.items;
    p->groups_max = tu->histogram_groups;
    /* Workgroup-private bins: a power of two >= bins (fewer pipeline variants). */
    uint32_t local = 64;
    while (local < p->bins) local *= 2;
    int use_local = p->bins <= WGS_HISTOGRAM_LOCAL_BINS && local * 4 + 1024 <= ci->max_workgroup_storage_size;
    wgs_kernel_spec spec = {.file = "device/histogram.wgsl", .helper = "element/predicate.wgsl",
                            .primitive = 1, .value_type = type,
                            .type = WGS_TYPE_U32, .op = WGS_OP_ADD, .wg = p->wg, .items = p->items,
                            .params = WGS_PARAMS_KIND_HISTOGRAM,
                            .consts = {{"BIN_MODE", mode}, {"LOCAL_BINS", use_local ? local : 0u}}};
    spec.entry = use_local ? "histogram_local" : "histogram_global";
    r = wgs__pipeline(ctx, &spec, &p->count);
    spec.entry = "histogram_clear";
    if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->clear);
    WGS_CREATE_END(ctx, r, p, (void)0, out);
}

/* It counts into the caller's output (workgroup memory, atomics): no buffer of its own. */
uint64_t wgs_histogram_plan_scratch_size(const wgs_histogram_plan *p) {
    (void)p;
    return 0;
}

void wgs_histogram_plan_destroy(wgs_histogram_plan *p) {
    if (!p) return;
    wgs__plan_gone(p->ctx);
    free(p);
}

wgs_result wgs_histogram_encode(wgs_histogram_plan *p, WGPUCommandEncoder encoder,
                                const wgs_histogram_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->input, a->input_offset, a->n * 4, "input")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->output, a->output_offset, (uint64_t)p->bins * 4, "output")) != WGS_OK)
        return r;
    WGS_FAIL_IF(ctx, a->input == a->output, WGS_ERROR_ALIASING, "the histogram must go to another buffer");
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK) return r;
    if ((r = wgs__params_reserve(ctx, 1 + wgs__div_up(a->n, p->chunk_elems))) != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    WGPUComputePassEncoder pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                 a->timestamp_begin_index, a->timestamp_end_index);
    gpu_binding hist = {1, a->output, a->output_offset, (uint64_t)p->bins * 4};
    wgs_params clear = {.histogram = p->base};
    uint64_t po = wgs__param_push(ctx, &clear);
    /* A count on the GPU: the bins are cleared in any case; each chunk's n, groups and
     * grid follow the count. */
    wgs__dispatch_begin(ctx, a->n_buffer, a->n_offset, a->n);
    wgs__dispatch(ctx, pass, p->clear, &hist, 1, &clear, po, wgs__div_up(p->bins, p->wg), NULL);
    uint64_t per_group = (uint64_t)4 * p->wg * p->items;
    for (uint64_t first = 0; first < a->n; first += p->chunk_elems) {
        uint64_t len = a->n - first < p->chunk_elems ? a->n - first : p->chunk_elems;
        uint64_t groups = wgs__div_up(len, per_group);
        if (groups > p->groups_max) groups = p->groups_max;
        wgs_params rec = {.histogram = p->base};
        rec.histogram.n = (uint32_t)len;
        rec.histogram.groups = (uint32_t)groups;
        po = wgs__param_push(ctx, &rec);
        gpu_binding b[3];
        wgs__bind_vec4_input(ctx, b, a->input, a->input_offset + first * 4, len);
        b[2] = hist;
        wgs__count_rule rule = wgs__count_follow(first, per_group);
        rule.ops[0] = (wgs__count_op){WGS_COUNT_OP_DIV_UP, 1, (uint32_t)per_group, 0}; /* groups */
        wgs__dispatch(ctx, pass, p->count, b, 3, &rec, po, groups, &rule);
    }
    r = wgs__dispatch_end(ctx, pass);
    wgs__gpu_pass_end(ctx->gpu, pass);
    wgs_result rs = wgs__scope_end(ctx, "recording the histogram");
    return r != WGS_OK ? r : rs;
}
