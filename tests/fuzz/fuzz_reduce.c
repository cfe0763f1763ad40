/* SPDX-License-Identifier: MIT */
/*
 * fuzz_reduce.c: the primitives that fold an array into a small result, from bytes:
 * reduce (every operator and algorithm, float sums by CAS and fixed point), count
 * (every predicate, per-encode operands) and histogram (bins, bounds, all types).
 * Accepted calls must give ref_reduce / ref_count / ref_histogram's result (float sums
 * within the manual's bound, exactly when the data make every order exact) and write
 * nothing outside the result.
 */
#include "harness.h"

#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static wgs_type valid_type(wgs_type t) { return t == WGS_TYPE_DEFAULT ? WGS_TYPE_U32 : t; }

/* The element-type rules shared by the three plans. */
static void type_rules(fz_expect *e, wgs_type type) {
    fz_rule(e, type == WGS_TYPE_F16 || (unsigned)type > WGS_TYPE_F32, WGS_ERROR_UNSUPPORTED_TYPE, 0);
}

static void huge_capacity(fz_expect *e, uint64_t capacity, int indexed) {
    if (capacity <= fz_max_n()) return;
    fz_rule(e, indexed && capacity > 0xFFFFFFFFull, WGS_ERROR_TOO_LARGE, 0);
    fz_may(e, WGS_ERROR_TOO_LARGE);
    fz_may(e, WGS_ERROR_GPU_OUT_OF_MEMORY);
    fz_may(e, WGS_ERROR_OUT_OF_HOST_MEMORY);
}

/* Integer operands must be values of the type; f32 operands are rounded. */
static int operand_ok(wgs_type type, double v) {
    if (type == WGS_TYPE_F32) return 1;
    double lo = type == WGS_TYPE_I32 ? -2147483648.0 : 0.0, hi = type == WGS_TYPE_I32 ? 2147483647.0 : 4294967295.0;
    return v >= lo && v <= hi && v == floor(v);
}

static void predicate_rules(fz_expect *e, wgs_type type, const wgs_predicate *p) {
    wgs_predicate_kind k = p->kind == WGS_PREDICATE_DEFAULT ? WGS_PREDICATE_NONZERO : p->kind;
    if ((unsigned)k > WGS_PREDICATE_IN_RANGE) {
        fz_must(e, WGS_ERROR_INVALID_ARGUMENT);
        return;
    }
    int uses_a = k >= WGS_PREDICATE_EQUAL, uses_b = k == WGS_PREDICATE_IN_RANGE;
    fz_rule(e, !operand_ok(type, p->a), WGS_ERROR_INVALID_ARGUMENT, !uses_a);
    fz_rule(e, !operand_ok(type, p->b), WGS_ERROR_INVALID_ARGUMENT, !uses_b);
}

static wgs_predicate make_predicate(fz *f, wgs_type type) {
    (void)type; /* operands of every type go to the library as they are */
    wgs_predicate p;
    p.kind = (wgs_predicate_kind)fz_enum(f, WGS_PREDICATE_IN_RANGE);
    p.a = fz_double(f);
    p.b = fz_u8(f) < 128 ? p.a + (double)(fz_u8(f) % 64) : fz_double(f);
    return p;
}

/* The input and the result buffer of one encode, with the rules they break. */
typedef struct io {
    uint64_t n;
    uint32_t *data;
    int exact;
    fz_buffer in, out;
} io;

static void make_io(fz *f, io *x, wgs_type type, uint64_t capacity, uint64_t result_bytes, int for_sum,
                    fz_expect *e, int n_zero_writes) {
    x->n = fz_u8(f) < 200 && capacity <= fz_max_n() ? fz_below(f, (uint32_t)capacity + 1) : fz_size(f, fz_max_n());
    fz_rule(e, x->n > capacity, WGS_ERROR_CAPACITY_EXCEEDED, 0);
    uint64_t filled = x->n <= fz_max_n() ? x->n : 0; /* larger n break a rule: no data */
    x->data = calloc((size_t)filled + 1, 4);
    if (!x->data) fz_fail("out of host memory");
    x->exact = fz_fill(f, x->data, type == WGS_TYPE_DEFAULT ? WGS_TYPE_U32 : type, filled, for_sum);
    x->in = fz_buffer_for(f, x->n > UINT64_MAX / 4 ? UINT64_MAX : x->n * 4, x->data, e, x->n == 0);
    if (fz_u8(f) == 7 && x->in.b) { /* the result into the input buffer */
        x->out = x->in;
        x->out.init = NULL;
        fz_must(e, WGS_ERROR_ALIASING);
        fz_buffer_rules(&x->out, result_bytes, e, x->n == 0 && !n_zero_writes);
    } else {
        x->out = fz_buffer_for(f, result_bytes, NULL, e, x->n == 0 && !n_zero_writes);
    }
}

/* Downloads the result buffer; checks the bytes around the result; returns the result. */
static uint8_t *result_of(io *x, uint64_t result_bytes, int written) {
    uint8_t *got = malloc((size_t)x->out.size);
    if (!got) fz_fail("out of host memory");
    fz_buffer_download(&x->out, got);
    fz_check_untouched("result buffer", got, x->out.init, x->out.size, x->out.offset,
                       written ? x->out.offset + result_bytes : x->out.offset);
    return got;
}

static void input_untouched(io *x) {
    if (!x->in.b) return;
    uint8_t *got = malloc((size_t)x->in.size);
    if (!got) fz_fail("out of host memory");
    fz_buffer_download(&x->in, got);
    fz_check_untouched("input", got, x->in.init, x->in.size, 0, 0);
    free(got);
}

static void io_release(io *x) {
    if (x->out.b && x->out.b != x->in.b) fz_buffer_release(&x->out);
    fz_buffer_release(&x->in);
    free(x->data);
}

static void encode_rules(fz *f, fz_expect *e, WGPUCommandEncoder *use, int *null_args) {
    uint32_t misuse = fz_u8(f);
    if (misuse == 255) *use = NULL, *e = (fz_expect){FZ_CODE(WGS_ERROR_INVALID_ARGUMENT), 0};
    if (misuse == 254) *null_args = 1, *e = (fz_expect){FZ_CODE(WGS_ERROR_INVALID_ARGUMENT), 0};
}

static void run_reduce(fz *f) {
    wgs_context *ctx = fz_context();
    wgs_reduce_plan_desc d = {0};
    d.type = (wgs_type)fz_enum(f, WGS_TYPE_F16);
    d.op = (wgs_op)fz_enum(f, WGS_OP_ARGMAX + 1);
    d.algorithm = (wgs_reduce_algorithm)fz_enum(f, WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT);
    d.float_sum = (wgs_float_sum)fz_enum(f, WGS_FLOAT_SUM_FIXED_POINT);
    d.fixed_point_bits = fz_u8(f) < 224 ? fz_u8(f) % 41 : fz_u32(f);
    d.capacity = fz_size(f, fz_max_n());
    wgs_type type = valid_type(d.type);
    wgs_op op = d.op == WGS_OP_DEFAULT ? WGS_OP_ADD : d.op;
    int arg = op == WGS_OP_ARGMIN || op == WGS_OP_ARGMAX;
    wgs_reduce_algorithm algo = d.algorithm ? d.algorithm : WGS_REDUCE_ALGORITHM_TREE;
    int sum_f32_atomic = type == WGS_TYPE_F32 && op == WGS_OP_ADD && algo == WGS_REDUCE_ALGORITHM_ATOMIC;
    int fixed = sum_f32_atomic && d.float_sum == WGS_FLOAT_SUM_FIXED_POINT;
    uint32_t bits = d.fixed_point_bits ? d.fixed_point_bits : 24;

    fz_expect e = {0};
    type_rules(&e, type);
    fz_rule(&e, (unsigned)op > WGS_OP_ARGMAX, WGS_ERROR_UNSUPPORTED_OPERATOR, 0);
    fz_rule(&e, type == WGS_TYPE_F32 && op >= WGS_OP_AND && op <= WGS_OP_XOR, WGS_ERROR_UNSUPPORTED_OPERATOR, 0);
    fz_rule(&e, (unsigned)algo > WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT, WGS_ERROR_INVALID_ARGUMENT, 0);
    if (algo == WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT) { /* count plans only */
        fz_must(&e, WGS_ERROR_INVALID_ARGUMENT);
        fz_may(&e, WGS_ERROR_UNSUPPORTED_OPERATOR);
    }
    fz_rule(&e, arg && algo == WGS_REDUCE_ALGORITHM_ATOMIC, WGS_ERROR_UNSUPPORTED_OPERATOR, 0);
    fz_rule(&e, (unsigned)d.float_sum > WGS_FLOAT_SUM_FIXED_POINT, WGS_ERROR_INVALID_ARGUMENT, !sum_f32_atomic);
    fz_rule(&e, bits > 40, WGS_ERROR_INVALID_ARGUMENT, !fixed);
    huge_capacity(&e, d.capacity, arg);

    static char not_null;
    wgs_reduce_plan *plan = (wgs_reduce_plan *)(void *)&not_null;
    if (!fz_check("wgs_reduce_plan_create", wgs_reduce_plan_create(ctx, &d, &plan), e)) {
        if (plan) fz_fail("wgs_reduce_plan_create failed but left its out-parameter non-NULL");
        return;
    }
    uint64_t capacity = d.capacity ? d.capacity : 1, result_bytes = arg ? 8 : 4;
    fz_expect ee = {0};
    io x = {0};
    make_io(f, &x, type, capacity, result_bytes, op == WGS_OP_ADD, &ee, 1);
    wgs_predicate pred = make_predicate(f, type);
    wgs_reduce_args a = {x.in.b, x.in.offset, x.n, x.out.b, x.out.offset, NULL, NULL, 0, 0};
    if (fz_one_in(f, 8)) { /* count plans only: ignored here, or refused */
        a.predicate = &pred;
        fz_may(&ee, WGS_ERROR_INVALID_ARGUMENT);
    }
    WGPUCommandEncoder enc = fz_encoder(), use = enc;
    int null_args = 0;
    encode_rules(f, &ee, &use, &null_args);
    wgs_result r = wgs_reduce_encode(plan, use, null_args ? NULL : &a);
    int ok = fz_check("wgs_reduce_encode", r, ee);
    fz_submit(enc, 1);
    if (x.out.b && x.out.b != x.in.b) {
        uint8_t *got = result_of(&x, result_bytes, ok);
        if (ok) {
            ref_reduction want = ref_reduce(x.data, type, op, x.n);
            uint32_t gbits, gindex = 0;
            memcpy(&gbits, got + x.out.offset, 4);
            if (arg) memcpy(&gindex, got + x.out.offset + 4, 4);
            if (type == WGS_TYPE_F32 && op == WGS_OP_ADD) {
                float g;
                memcpy(&g, &gbits, 4);
                const double u = ldexp(1.0, -24);
                double tol = ref_reduce_sum_tolerance(&want, x.n);
                if (fixed) tol += (double)(x.n + 1) * ldexp(1.0, -(int)bits - 1) + u * fabs(want.exact);
                /* FIXED_POINT needs finite elements whose total fits its range. */
                int defined = !fixed || (isfinite(want.exact) && want.abs_sum < ldexp(1.0, 62 - (int)bits));
                if (x.exact && !fixed && (double)g != (double)(float)want.exact)
                    fz_fail("exact f32 sum of %llu (alg %d): got %.9g, want %.9g", (unsigned long long)x.n,
                            (int)algo, g, (double)(float)want.exact);
                if (defined && !ref_sum_matches((double)g, want.exact, tol))
                    fz_fail("f32 sum of %llu (alg %d, float_sum %d, bits %u): got %.9g, want %.9g within %g",
                            (unsigned long long)x.n, (int)algo, (int)d.float_sum, bits, g, want.exact, tol);
            } else if (!ref_same_value(type, gbits, want.bits) || (arg && gindex != want.index)) {
                fz_fail("reduce %s %s of %llu (alg %d): got 0x%08x index %u, want 0x%08x index %u",
                        wgs_type_name(type), wgs_op_name(op), (unsigned long long)x.n, (int)algo, gbits, gindex,
                        want.bits, want.index);
            }
        }
        free(got);
    }
    input_untouched(&x);
    io_release(&x);
    wgs_reduce_plan_destroy(plan);
}

static void run_count(fz *f) {
    wgs_context *ctx = fz_context();
    wgs_count_plan_desc d = {0};
    d.type = (wgs_type)fz_enum(f, WGS_TYPE_F16);
    wgs_type type = valid_type(d.type);
    d.predicate = make_predicate(f, type);
    d.algorithm = (wgs_reduce_algorithm)fz_enum(f, WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT);
    d.capacity = fz_size(f, fz_max_n());
    fz_expect e = {0};
    type_rules(&e, type);
    if (type == WGS_TYPE_U32 || type == WGS_TYPE_I32 || type == WGS_TYPE_F32) {
        predicate_rules(&e, type, &d.predicate);
    } else { /* the type is refused; the predicate's rules may be checked first */
        fz_expect p = {0};
        predicate_rules(&p, WGS_TYPE_U32, &d.predicate);
        e.may |= p.must | p.may;
    }
    fz_rule(&e, (unsigned)d.algorithm > WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT, WGS_ERROR_INVALID_ARGUMENT, 0);
    huge_capacity(&e, d.capacity, 1);
    static char not_null;
    wgs_reduce_plan *plan = (wgs_reduce_plan *)(void *)&not_null;
    if (!fz_check("wgs_count_plan_create", wgs_count_plan_create(ctx, &d, &plan), e)) {
        if (plan) fz_fail("wgs_count_plan_create failed but left its out-parameter non-NULL");
        return;
    }
    uint64_t capacity = d.capacity ? d.capacity : 1;
    fz_expect ee = {0};
    io x = {0};
    make_io(f, &x, type, capacity, 4, 0, &ee, 1);
    wgs_reduce_args a = {x.in.b, x.in.offset, x.n, x.out.b, x.out.offset, NULL, NULL, 0, 0};
    wgs_predicate used = d.predicate, over;
    if (fz_one_in(f, 3)) { /* this encode's operands */
        over = make_predicate(f, type);
        if (fz_u8(f) < 192) over.kind = d.predicate.kind;
        a.predicate = &over;
        wgs_predicate_kind k1 = d.predicate.kind ? d.predicate.kind : WGS_PREDICATE_NONZERO;
        wgs_predicate_kind k2 = over.kind ? over.kind : WGS_PREDICATE_NONZERO;
        predicate_rules(&ee, type, &over);
        fz_rule(&ee, k1 != k2, WGS_ERROR_INVALID_ARGUMENT, 0);
        used = over;
    }
    WGPUCommandEncoder enc = fz_encoder(), use = enc;
    int null_args = 0;
    encode_rules(f, &ee, &use, &null_args);
    int ok = fz_check("wgs_reduce_encode (count)", wgs_reduce_encode(plan, use, null_args ? NULL : &a), ee);
    fz_submit(enc, 1);
    if (x.out.b && x.out.b != x.in.b) {
        uint8_t *got = result_of(&x, 4, ok);
        if (ok) {
            uint32_t g;
            memcpy(&g, got + x.out.offset, 4);
            uint64_t want = ref_count(x.data, type, &used, x.n);
            if (g != want)
                fz_fail("count %s kind %d (%.17g, %.17g) of %llu (alg %d): got %u, want %llu", wgs_type_name(type),
                        (int)used.kind, used.a, used.b, (unsigned long long)x.n, (int)d.algorithm, g,
                        (unsigned long long)want);
        }
        free(got);
    }
    input_untouched(&x);
    io_release(&x);
    wgs_reduce_plan_destroy(plan);
}

static void run_histogram(fz *f) {
    wgs_context *ctx = fz_context();
    wgs_histogram_plan_desc d = {0};
    d.type = (wgs_type)fz_enum(f, WGS_TYPE_F16);
    wgs_type type = valid_type(d.type);
    uint32_t mode = fz_u8(f);
    d.bins = mode < 160 ? 1 + fz_u8(f) % 64 : mode < 220 ? 1 + fz_u16(f) % 5000 : mode < 236 ? fz_u32(f) % (WGS_HISTOGRAM_MAX_BINS + 2) : fz_u32(f);
    if (fz_u8(f) < 200) { /* bounds of the type's values */
        d.lower = type == WGS_TYPE_U32 ? (double)fz_u8(f) : (double)(int8_t)fz_u8(f);
        d.upper = d.lower + 1 + fz_u16(f) % 512;
        if (type == WGS_TYPE_F32 && fz_one_in(f, 2)) d.lower /= 8.0, d.upper /= 8.0;
    } else {
        d.lower = fz_double(f);
        d.upper = fz_double(f);
    }
    d.capacity = fz_size(f, fz_max_n());
    fz_expect e = {0};
    type_rules(&e, type);
    fz_rule(&e, d.bins == 0 || d.bins > WGS_HISTOGRAM_MAX_BINS, WGS_ERROR_INVALID_ARGUMENT, 0);
    /* The bins are one storage binding (64 KiB in the small-tile context). */
    fz_rule(&e, (uint64_t)d.bins * 4 > fz_info()->max_storage_binding_size && d.bins <= WGS_HISTOGRAM_MAX_BINS,
            WGS_ERROR_TOO_LARGE, 0);
    if (type == WGS_TYPE_F32) {
        float lo = (float)d.lower, hi = (float)d.upper;
        fz_rule(&e, !isfinite(lo) || !isfinite(hi) || !(lo < hi), WGS_ERROR_INVALID_ARGUMENT, 0);
        /* The bin arithmetic must stay exact and finite (wgscan.h "Histogram"). */
        float width = hi - lo;
        double scale = (double)(float)((double)d.bins / ((double)hi - (double)lo));
        fz_rule(&e, !isfinite(width) || !(scale >= ldexp(1.0, -126) && scale <= ldexp(1.0, 126)),
                WGS_ERROR_INVALID_ARGUMENT, 0);
    } else if (type == WGS_TYPE_U32 || type == WGS_TYPE_I32) {
        double tmin = type == WGS_TYPE_I32 ? -2147483648.0 : 0.0, tmax = type == WGS_TYPE_I32 ? 2147483648.0 : 4294967296.0;
        fz_rule(&e, d.lower != floor(d.lower) || d.upper != floor(d.upper) || !(d.lower >= tmin) ||
                        !(d.upper <= tmax) || !(d.lower < d.upper),
                WGS_ERROR_INVALID_ARGUMENT, 0);
    }
    huge_capacity(&e, d.capacity, 0);
    static char not_null;
    wgs_histogram_plan *plan = (wgs_histogram_plan *)(void *)&not_null;
    if (!fz_check("wgs_histogram_plan_create", wgs_histogram_plan_create(ctx, &d, &plan), e)) {
        if (plan) fz_fail("wgs_histogram_plan_create failed but left its out-parameter non-NULL");
        return;
    }
    uint64_t capacity = d.capacity ? d.capacity : 1, result_bytes = (uint64_t)d.bins * 4;
    fz_expect ee = {0};
    io x = {0};
    make_io(f, &x, type, capacity, result_bytes, 0, &ee, 1);
    wgs_histogram_args a = {x.in.b, x.in.offset, x.n, x.out.b, x.out.offset, NULL, 0, 0};
    WGPUCommandEncoder enc = fz_encoder(), use = enc;
    int null_args = 0;
    encode_rules(f, &ee, &use, &null_args);
    int ok = fz_check("wgs_histogram_encode", wgs_histogram_encode(plan, use, null_args ? NULL : &a), ee);
    fz_submit(enc, 1);
    if (x.out.b && x.out.b != x.in.b) {
        uint8_t *got = result_of(&x, result_bytes, ok);
        if (ok) {
            uint32_t *want = malloc(result_bytes);
            if (!want) fz_fail("out of host memory");
            ref_histogram(x.data, type, d.bins, d.lower, d.upper, x.n, want);
            uint64_t got_total = 0, want_total = 0;
            for (uint32_t b = 0; b < d.bins; b++) {
                uint32_t g;
                memcpy(&g, got + x.out.offset + 4ull * b, 4);
                got_total += g, want_total += want[b];
                if (g == want[b]) continue;
                fprintf(stderr, "  bin %u: %u, want %u\n", b, g, want[b]);
                if (type != WGS_TYPE_F32) continue;
                float lo = (float)d.lower, hi = (float)d.upper; /* the values at the edges of bin b */
                float scale = (float)((double)d.bins / ((double)hi - (double)lo));
                for (uint64_t i = 0; i < x.n; i++) {
                    float v;
                    memcpy(&v, &x.data[i], 4);
                    if (!(v >= lo && v < hi)) continue;
                    float t = (v - lo) * scale;
                    if (floorf(t) >= (float)b - 1 && floorf(t) <= (float)b + 1)
                        fprintf(stderr, "    x[%llu] = %.9g (0x%08x): (x - lower) * scale = %.9g in f32, %.17g exactly\n",
                                (unsigned long long)i, v, x.data[i], t, ((double)v - (double)lo) * (double)scale);
                }
            }
            if (got_total != want_total)
                fprintf(stderr, "  %llu counted, want %llu\n", (unsigned long long)got_total,
                        (unsigned long long)want_total);
            for (uint32_t b = 0; b < d.bins; b++) {
                uint32_t g;
                memcpy(&g, got + x.out.offset + 4ull * b, 4);
                if (g != want[b])
                    fz_fail("histogram %s, %u bins over [%.17g, %.17g), n %llu: bin %u holds %u, want %u",
                            wgs_type_name(type), d.bins, d.lower, d.upper, (unsigned long long)x.n, b, g, want[b]);
            }
            free(want);
        }
        free(got);
    }
    input_untouched(&x);
    io_release(&x);
    wgs_histogram_plan_destroy(plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
    fz f = {bytes, size, 0};
    fz_begin(&f);
    switch (fz_u8(&f) % 3) {
    case 0: run_reduce(&f); break;
    case 1: run_count(&f); break;
    default: run_histogram(&f); break;
    }
    return 0;
}
