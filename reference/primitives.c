/* SPDX-License-Identifier: MIT */
/*
 * primitives.c: CPU references for reduce, count, select and histogram. Plain loops:
 * correctness of the GPU primitives is judged here.
 */
#include "reference.h"

#include <math.h>
#include <string.h>

static uint32_t word(const void *in, uint64_t i) {
    uint32_t w;
    memcpy(&w, (const char *)in + i * 4, 4);
    return w;
}

static double as_double(wgs_type type, uint32_t w) {
    if (type == WGS_TYPE_I32) return (double)(int32_t)w;
    if (type == WGS_TYPE_F32) {
        float f;
        memcpy(&f, &w, 4);
        return f;
    }
    return (double)w;
}

ref_reduction ref_reduce(const void *in, wgs_type type, wgs_op op, uint64_t n) {
    ref_reduction r = {0, 0xFFFFFFFFu, 0.0, 0.0};
    int arg = op == WGS_OP_ARGMIN || op == WGS_OP_ARGMAX;
    int want_min = op == WGS_OP_MIN || op == WGS_OP_ARGMIN;
    if (op == WGS_OP_AND) r.bits = 0xFFFFFFFFu;
    if (op == WGS_OP_MIN || op == WGS_OP_MAX || arg) {
        float inf = INFINITY, ninf = -INFINITY;
        if (type == WGS_TYPE_F32) memcpy(&r.bits, want_min ? &inf : &ninf, 4);
        else if (type == WGS_TYPE_I32) r.bits = want_min ? 0x7FFFFFFFu : 0x80000000u;
        else r.bits = want_min ? 0xFFFFFFFFu : 0u;
    }
    wgs_op key_op = want_min ? WGS_OP_MIN : WGS_OP_MAX;
    uint32_t best = ref_order_key(type, key_op, r.bits);
    for (uint64_t i = 0; i < n; i++) {
        uint32_t w = word(in, i);
        double v = as_double(type, w);
        switch (op) {
        case WGS_OP_ADD:
            if (type == WGS_TYPE_F32) {
                r.exact += v;
                r.abs_sum += fabs(v);
            } else {
                r.bits += w; /* wrapping, two's complement for i32 */
            }
            break;
        case WGS_OP_AND: r.bits &= w; break;
        case WGS_OP_OR: r.bits |= w; break;
        case WGS_OP_XOR: r.bits ^= w; break;
        default: { /* min, max, argmin, argmax: first index of the extreme key wins */
            uint32_t k = ref_order_key(type, key_op, w);
            if ((want_min ? k < best : k > best) || (k == best && r.index == 0xFFFFFFFFu)) {
                best = k;
                r.bits = w;
                r.index = (uint32_t)i;
            }
            break;
        }
        }
    }
    if (!arg) r.index = 0xFFFFFFFFu;
    return r;
}

double ref_reduce_sum_tolerance(const ref_reduction *want, uint64_t n) {
    return ((double)n / 1024 + 64) * ldexp(1, -24) * want->abs_sum + 2.0 * (double)n * ldexp(1, -126);
}

int ref_sum_matches(double got, double exact, double tol) {
    if (isnan(exact)) return isnan(got);
    if (isinf(exact)) return got == exact;
    return fabs(got - exact) <= tol;
}

int ref_same_value(wgs_type type, uint32_t got, uint32_t want) {
    if (got == want) return 1;
    return type == WGS_TYPE_F32 && isnan(as_double(type, got)) && isnan(as_double(type, want));
}

int ref_predicate(wgs_type type, const wgs_predicate *pred, const void *element) {
    double v = as_double(type, word(element, 0));
    double a = pred->a, b = pred->b;
    if (type == WGS_TYPE_F32) { /* operands are rounded to f32 by the library */
        a = (float)a;
        b = (float)b;
    }
    switch (pred->kind) {
    case WGS_PREDICATE_EQUAL: return v == a;
    case WGS_PREDICATE_NOT_EQUAL: return v != a;
    case WGS_PREDICATE_LESS: return v < a;
    case WGS_PREDICATE_GREATER: return v > a;
    case WGS_PREDICATE_IN_RANGE: return v >= a && v < b;
    default: return v != 0.0;
    }
}

uint64_t ref_count(const void *in, wgs_type type, const wgs_predicate *pred, uint64_t n) {
    uint64_t c = 0;
    for (uint64_t i = 0; i < n; i++) c += (uint64_t)ref_predicate(type, pred, (const char *)in + i * 4);
    return c;
}

/* Whether element i is selected. f32 heads compare values: +0.0 equals -0.0. */
static int ref_selected(const void *in, wgs_type type, wgs_select_mode mode, const wgs_predicate *pred,
                        const uint8_t *flags, uint64_t i) {
    if (mode == WGS_SELECT_UNIQUE || mode == WGS_SELECT_RUN_LENGTH)
        return i == 0 || as_double(type, word(in, i)) != as_double(type, word(in, i - 1));
    if (mode == WGS_SELECT_IF) return ref_predicate(type, pred, (const char *)in + i * 4);
    return flags[i] != 0;
}

uint64_t ref_select(const void *in, wgs_type type, wgs_select_mode mode, const wgs_predicate *pred,
                    const uint8_t *flags, int partition, wgs_payload payload, const uint32_t *pay_in,
                    uint64_t n, void *out, uint32_t *pay_out) {
    uint32_t *o = out;
    uint64_t k = 0, selected = 0;
    /* Pass 0 keeps the selected elements; a partition's pass 1 appends the rest. */
    for (int pass = 0; pass < (partition ? 2 : 1); pass++) {
        for (uint64_t i = 0; i < n; i++) {
            if (ref_selected(in, type, mode, pred, flags, i) != (pass == 0)) continue;
            o[k] = word(in, i);
            if (payload == WGS_PAYLOAD_BUFFER) pay_out[k] = pay_in[i];
            if (payload == WGS_PAYLOAD_INDEX || mode == WGS_SELECT_RUN_LENGTH) pay_out[k] = (uint32_t)i;
            k++;
        }
        if (pass == 0) selected = k;
    }
    if (mode == WGS_SELECT_RUN_LENGTH)
        for (uint64_t j = 0; j < selected; j++)
            pay_out[j] = (uint32_t)((j + 1 < selected ? pay_out[j + 1] : n) - pay_out[j]);
    return selected;
}

/* The f32 bin rule's operands, or 0 where the library refuses the bounds (wgscan.h
 * "Histogram"): lower and upper finite in f32 with lower < upper, upper - lower finite
 * in f32 (also from lower's flushed value), scale = bins / (upper - lower) in
 * [2^-126, 2^126]. */
static int f32_rule(uint32_t bins, double lower, double upper, float *lo, float *hi, float *lo_flushed,
                    float *scale) {
    *lo = (float)lower;
    *hi = (float)upper;
    if (!isfinite(*lo) || !isfinite(*hi) || !(*lo < *hi)) return 0;
    *lo_flushed = fabsf(*lo) < 0x1p-126f ? 0.0f : *lo;
    float w = *hi - *lo, w0 = *hi - *lo_flushed;
    *scale = (float)((double)bins / ((double)*hi - (double)*lo));
    return isfinite(w) && isfinite(w0) && *scale >= 0x1p-126f && *scale <= 0x1p126f;
}

void ref_histogram(const void *in, wgs_type type, uint32_t bins, double lower, double upper, uint64_t n,
                   uint32_t *hist) {
    memset(hist, 0, (size_t)bins * 4);
    if (bins == 0) return;
    float lo, hi, lo0, scale;
    if (type == WGS_TYPE_F32 && !f32_rule(bins, lower, upper, &lo, &hi, &lo0, &scale)) return;
    double tmin = type == WGS_TYPE_I32 ? -2147483648.0 : 0.0;
    double tmax = type == WGS_TYPE_I32 ? 2147483648.0 : 4294967296.0;
    if (type != WGS_TYPE_F32 &&
        !(lower == floor(lower) && upper == floor(upper) && lower >= tmin && upper <= tmax && lower < upper))
        return;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t w = word(in, i);
        uint64_t b;
        if (type == WGS_TYPE_F32) {
            float x;
            memcpy(&x, &w, 4);
            if (!(x >= lo && x < hi)) continue; /* IEEE: NaN is in no range */
            /* f32 arithmetic as the kernel's, on subnormals taken as 0 (the kernel does so
             * itself, so that a device that flushes them gives the same bins). */
            float t = ((fabsf(x) < 0x1p-126f ? 0.0f : x) - lo0) * scale;
            b = t >= (float)bins ? bins - 1 : t > 0 ? (uint64_t)t : 0; /* 0 <= t, finite: no overflow */
        } else {
            double v = as_double(type, w);
            if (!(v >= lower && v < upper)) continue;
            b = (uint64_t)(v - lower) * bins / (uint64_t)(upper - lower);
        }
        hist[b]++;
    }
}
