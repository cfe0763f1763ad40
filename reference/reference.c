/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* sysconf(_SC_NPROCESSORS_ONLN) */
#include "reference.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint16_t ref_f32_to_f16(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xFF) - 127 + 15;
    uint32_t mant = x & 0x7FFFFFu;
    if (((x >> 23) & 0xFF) == 0xFF) return (uint16_t)(sign | 0x7C00u | (mant ? 0x200u : 0));
    if (exp >= 31) return (uint16_t)(sign | 0x7C00u);
    if (exp <= 0) {
        if (exp < -10) return (uint16_t)sign;
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exp);
        uint32_t h = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)exp << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++; /* may carry into the exponent: correct */
    return (uint16_t)(sign | h);
}

float ref_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1F, mant = h & 0x3FFu, x;
    if (exp == 0) {
        if (mant == 0) {
            x = sign;
        } else { /* subnormal: normalise */
            int e = -1;
            do {
                e++;
                mant <<= 1;
            } while (!(mant & 0x400u));
            x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((mant & 0x3FFu) << 13);
        }
    } else if (exp == 31) {
        x = sign | 0x7F800000u | (mant << 13);
    } else {
        x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void ref_fill_random(void *data, wgs_type type, wgs_op op, uint64_t n, uint64_t seed) {
    uint64_t s = seed * 0x2545F4914F6CDD1Dull + 1;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = splitmix(&s);
        uint32_t bits = (uint32_t)r;
        if (op == WGS_OP_AND) bits |= (uint32_t)(r >> 32) | (uint32_t)(r >> 16); /* mostly ones */
        if (op == WGS_OP_OR) bits &= (uint32_t)(r >> 32) & (uint32_t)(r >> 16);  /* mostly zeros */
        switch (type) {
        case WGS_TYPE_F32: {
            float f = (float)((double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0);
            memcpy((char *)data + 4 * i, &f, 4);
            break;
        }
        case WGS_TYPE_F16:
            ((uint16_t *)data)[i] = ref_f32_to_f16((float)((int)(r % 17) - 8) / 8.0f);
            break;
        default: memcpy((char *)data + 4 * i, &bits, 4); break;
        }
    }
}

void ref_fill_f32_edges(uint32_t *bits, uint64_t n, uint64_t seed, unsigned kinds) {
    static const uint32_t nans[] = {0x7FC00000u, 0xFFC00000u, 0x7FC00001u, 0x7FFFFFFFu, 0xFFD23456u};
    static const uint32_t infs[] = {0x7F800000u, 0xFF800000u};
    static const uint32_t zeros[] = {0x00000000u, 0x80000000u};
    static const uint32_t subs[] = {0x00000001u, 0x80000001u, 0x00000002u, 0x007FFFFFu,
                                    0x807FFFFFu, 0x00400000u, 0x80012345u};
    const uint32_t *pools[4] = {nans, infs, zeros, subs};
    const unsigned sizes[4] = {5, 2, 2, 7};
    uint64_t s = seed * 0x2545F4914F6CDD1Dull + 7;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = splitmix(&s);
        if (i > 0 && (r >> 60) == 0) { /* 1 in 16: a repeat, so that runs form */
            bits[i] = bits[i - 1];
            continue;
        }
        unsigned k = (unsigned)(r >> 8) & 3;
        int special = (kinds & REF_EDGE_ONLY) || (r & 7) < 3;
        if (special && (kinds & (1u << k))) {
            bits[i] = pools[k][(r >> 16) % sizes[k]];
        } else if (!(kinds & REF_EDGE_ONLY)) {
            float f = (float)((int)((r >> 24) % 33) - 16) * 0.25f;
            memcpy(&bits[i], &f, 4);
        } else { /* a kind not asked for: the first one that was */
            unsigned j = 0;
            while (j < 3 && !(kinds & (1u << j))) j++;
            bits[i] = pools[j][(r >> 16) % sizes[j]];
        }
    }
}

/* ---- one element type's arithmetic, as doubles or 32-bit words ---------------- */

static uint32_t int_combine(wgs_type type, wgs_op op, uint32_t a, uint32_t b) {
    switch (op) {
    case WGS_OP_MIN:
        if (type == WGS_TYPE_I32) return (int32_t)a < (int32_t)b ? a : b;
        return a < b ? a : b;
    case WGS_OP_MAX:
        if (type == WGS_TYPE_I32) return (int32_t)a > (int32_t)b ? a : b;
        return a > b ? a : b;
    case WGS_OP_AND: return a & b;
    case WGS_OP_OR: return a | b;
    case WGS_OP_XOR: return a ^ b;
    default: return a + b;
    }
}

uint32_t ref_order_key(wgs_type type, wgs_op op, uint32_t bits) {
    if (type == WGS_TYPE_I32) return bits ^ 0x80000000u;
    if (type != WGS_TYPE_F32 && type != WGS_TYPE_F16) return bits;
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return op == WGS_OP_MAX || op == WGS_OP_ARGMAX ? 0xFFFFFFFFu : 0u;
    return bits & 0x80000000u ? ~bits : bits | 0x80000000u;
}

static uint32_t f32_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* min and max as the kernels' prelude has them (wgscan.h "Floats"): on order keys, the
 * first operand on ties. f16 values arrive converted to f32, exactly and in order. */
static float flt_combine(wgs_op op, float a, float b) {
    uint32_t ka = ref_order_key(WGS_TYPE_F32, op, f32_bits(a)), kb = ref_order_key(WGS_TYPE_F32, op, f32_bits(b));
    switch (op) {
    case WGS_OP_MIN: return ka <= kb ? a : b;
    case WGS_OP_MAX: return ka >= kb ? a : b;
    default: return a + b;
    }
}

static int is_float(wgs_type t) { return t == WGS_TYPE_F32 || t == WGS_TYPE_F16; }

static float identity_f(wgs_op op) {
    return op == WGS_OP_MIN ? INFINITY : op == WGS_OP_MAX ? -INFINITY : 0.0f;
}

static float load_f(const void *p, wgs_type t, uint64_t i) {
    if (t == WGS_TYPE_F16) return ref_f16_to_f32(((const uint16_t *)p)[i]);
    float f;
    memcpy(&f, (const char *)p + 4 * i, 4);
    return f;
}

static void store_f(void *p, wgs_type t, uint64_t i, float f) {
    if (t == WGS_TYPE_F16)
        ((uint16_t *)p)[i] = ref_f32_to_f16(f);
    else
        memcpy((char *)p + 4 * i, &f, 4);
}

/* Rounds to the element type (f16 arithmetic is done in f32 and rounded each step). */
static float round_to(wgs_type t, float f) {
    return t == WGS_TYPE_F16 ? ref_f16_to_f32(ref_f32_to_f16(f)) : f;
}

/* Scans [first, first+len) seeded with `carry` (a word or a float's bits). Returns the
 * total including the seed. */
static uint32_t scan_range(const void *in, void *out, wgs_type type, wgs_op op, int inclusive,
                           uint64_t first, uint64_t len, uint32_t carry) {
    if (is_float(type)) {
        float acc;
        memcpy(&acc, &carry, 4);
        for (uint64_t i = first; i < first + len; i++) {
            float x = load_f(in, type, i);
            float next = round_to(type, flt_combine(op, acc, x));
            store_f(out, type, i, inclusive ? next : acc);
            acc = next;
        }
        uint32_t bits;
        memcpy(&bits, &acc, 4);
        return bits;
    }
    /* One loop per operator, so the CPU baseline is a fair (vectorisable) scan rather
     * than a switch per element. */
#define REF_SCAN_LOOP(T, EXPR)                                          \
    do {                                                                \
        const T *src = (const T *)in;                                   \
        T *dst = (T *)out;                                              \
        T acc = (T)carry;                                               \
        for (uint64_t i = first; i < first + len; i++) {                \
            T x = src[i];                                               \
            T next = (EXPR);                                            \
            dst[i] = inclusive ? next : acc;                            \
            acc = next;                                                 \
        }                                                               \
        return (uint32_t)acc;                                           \
    } while (0)
    switch (op) {
    case WGS_OP_MIN:
        if (type == WGS_TYPE_I32) REF_SCAN_LOOP(int32_t, x < acc ? x : acc);
        REF_SCAN_LOOP(uint32_t, x < acc ? x : acc);
    case WGS_OP_MAX:
        if (type == WGS_TYPE_I32) REF_SCAN_LOOP(int32_t, x > acc ? x : acc);
        REF_SCAN_LOOP(uint32_t, x > acc ? x : acc);
    case WGS_OP_AND: REF_SCAN_LOOP(uint32_t, acc & x);
    case WGS_OP_OR: REF_SCAN_LOOP(uint32_t, acc | x);
    case WGS_OP_XOR: REF_SCAN_LOOP(uint32_t, acc ^ x);
    default: REF_SCAN_LOOP(uint32_t, acc + x); /* unsigned: wraps like WGSL i32/u32 */
    }
#undef REF_SCAN_LOOP
}

static uint32_t identity_word(wgs_type type, wgs_op op) {
    if (is_float(type)) {
        float f = identity_f(op);
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    switch (op) {
    case WGS_OP_MIN: return type == WGS_TYPE_I32 ? 0x7FFFFFFFu : 0xFFFFFFFFu;
    case WGS_OP_MAX: return type == WGS_TYPE_I32 ? 0x80000000u : 0u;
    case WGS_OP_AND: return 0xFFFFFFFFu;
    default: return 0u;
    }
}

void ref_scan(const void *in, void *out, wgs_type type, wgs_op op, int inclusive, uint64_t n) {
    scan_range(in, out, type, op, inclusive, 0, n, identity_word(type, op));
}

static uint32_t reduce_range(const void *in, wgs_type type, wgs_op op, uint64_t first,
                             uint64_t len) {
    uint32_t acc = identity_word(type, op);
    if (is_float(type)) {
        float a;
        memcpy(&a, &acc, 4);
        for (uint64_t i = first; i < first + len; i++) a = round_to(type, flt_combine(op, a, load_f(in, type, i)));
        memcpy(&acc, &a, 4);
        return acc;
    }
    const uint32_t *src = in;
    for (uint64_t i = first; i < first + len; i++) acc = int_combine(type, op, acc, src[i]);
    return acc;
}

static uint32_t combine_word(wgs_type type, wgs_op op, uint32_t a, uint32_t b) {
    if (!is_float(type)) return int_combine(type, op, a, b);
    float fa, fb;
    memcpy(&fa, &a, 4);
    memcpy(&fb, &b, 4);
    float r = round_to(type, flt_combine(op, fa, fb));
    uint32_t w;
    memcpy(&w, &r, 4);
    return w;
}

typedef struct par_job {
    const void *in;
    void *out;
    wgs_type type;
    wgs_op op;
    int inclusive, phase;
    uint64_t first, len;
    uint32_t value; /* phase 0: block total out; phase 1: carry in */
} par_job;

static void *par_worker(void *arg) {
    par_job *j = arg;
    if (j->phase == 0)
        j->value = reduce_range(j->in, j->type, j->op, j->first, j->len);
    else
        scan_range(j->in, j->out, j->type, j->op, j->inclusive, j->first, j->len, j->value);
    return NULL;
}

void ref_scan_parallel(const void *in, void *out, wgs_type type, wgs_op op, int inclusive,
                       uint64_t n, int threads) {
    if (threads <= 0) threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    if (threads > 256) threads = 256;
    if (threads == 1 || n < (uint64_t)threads * 4096) {
        ref_scan(in, out, type, op, inclusive, n);
        return;
    }
    par_job jobs[256];
    pthread_t tid[256];
    uint64_t block = (n + (uint64_t)threads - 1) / (uint64_t)threads;
    for (int phase = 0; phase < 2; phase++) {
        uint32_t carry = identity_word(type, op);
        for (int t = 0; t < threads; t++) {
            par_job *j = &jobs[t];
            uint64_t first = (uint64_t)t * block;
            uint64_t len = first >= n ? 0 : (n - first < block ? n - first : block);
            if (phase == 0) {
                *j = (par_job){in, out, type, op, inclusive, 0, first, len, 0};
            } else {
                uint32_t total = j->value;
                j->phase = 1;
                j->value = carry;
                carry = combine_word(type, op, carry, total);
            }
        }
        int started = 0;
        for (int t = 0; t < threads; t++)
            if (pthread_create(&tid[t], NULL, par_worker, &jobs[t]) == 0) started = t + 1;
            else { par_worker(&jobs[t]); tid[t] = 0; }
        for (int t = 0; t < started; t++)
            if (tid[t]) pthread_join(tid[t], NULL);
    }
}

ref_check ref_verify(const void *in, const void *got, wgs_type type, wgs_op op, int inclusive,
                     uint64_t n) {
    ref_check c;
    memset(&c, 0, sizeof c);
    if (!is_float(type) || op != WGS_OP_ADD) {
        size_t es = wgs_type_size(type);
        void *want = malloc(n * es + 4);
        if (!want) {
            c.mismatches = n ? n : 1;
            return c;
        }
        ref_scan(in, want, type, op, inclusive, n);
        for (uint64_t i = 0; i < n; i++) {
            int bad;
            if (is_float(type)) { /* min/max pick an input: the rule of every float check */
                float a = load_f(got, type, i), b = load_f(want, type, i);
                bad = !ref_same_value(WGS_TYPE_F32, f32_bits(a), f32_bits(b));
                if (bad && !c.mismatches) c.got = a, c.want = b;
            } else {
                uint32_t a = ((const uint32_t *)got)[i], b = ((const uint32_t *)want)[i];
                bad = a != b;
                if (bad && !c.mismatches)
                    c.got = type == WGS_TYPE_I32 ? (double)(int32_t)a : a,
                    c.want = type == WGS_TYPE_I32 ? (double)(int32_t)b : b;
            }
            if (bad && !c.mismatches) c.first_bad = i;
            if (bad) c.mismatches++;
        }
        free(want);
        return c;
    }
    const double u = type == WGS_TYPE_F16 ? ldexp(1.0, -11) : ldexp(1.0, -24);
    const double tiny = type == WGS_TYPE_F16 ? ldexp(1.0, -14) : ldexp(1.0, -126); /* smallest normal */
    double exact = 0.0, mag = 0.0;
    for (uint64_t i = 0; i < n; i++) {
        double x = load_f(in, type, i);
        if (inclusive) exact += x, mag += fabs(x);
        double g = load_f(got, type, i);
        /* Plus what flushing subnormals to zero may cost: out[i] is a tree of i + 1
         * inputs and i additions (and identities, which make no new value), and each
         * flush moves it by less than the smallest normal. */
        double tol = 128.0 * u * mag + u * fabs(exact) + 2.0 * (double)(i + 1) * tiny;
        if (isfinite(exact)) { /* no infinity or NaN among the inputs: an error to measure */
            double err = fabs(g - exact);
            double ratio = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0);
            if (ratio > c.worst_ratio) c.worst_ratio = ratio;
        }
        if (!ref_sum_matches(g, exact, tol)) {
            if (!c.mismatches) c.first_bad = i, c.got = g, c.want = exact;
            c.mismatches++;
        }
        if (!inclusive) exact += x, mag += fabs(x);
    }
    return c;
}
