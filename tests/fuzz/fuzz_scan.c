/* SPDX-License-Identifier: MIT */
/*
 * fuzz_scan.c: wgs_scan_plan_create and wgs_scan_encode from bytes. Every type,
 * operator, kind and algorithm (and values past each list), capacities from 0 to
 * 2^64 - 1, up to three encodes of one plan in one submit (each its own parameters),
 * in place and out of place, buffers NULL, misaligned, too small or without Storage.
 * Accepted scans must equal ref_scan (exactly; float sums within the manual's bound, and
 * exactly when the data make every order of additions exact) and leave every byte
 * outside the output range as it was.
 */
#include "harness.h"

#include "reference.h"

#include <stdlib.h>
#include <string.h>

typedef struct scan_run {
    wgs_scan_args a;
    fz_buffer in, out;
    int separate; /* out is its own buffer */
    int exact;    /* float data whose sums are exact in any order */
    wgs_result r;
    uint8_t *data; /* the input range as written */
} scan_run;

static int is_float(wgs_type t) { return t == WGS_TYPE_F32 || t == WGS_TYPE_F16; }

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
    fz f = {bytes, size, 0};
    fz_begin(&f);
    wgs_context *ctx = fz_context();
    const wgs_context_info *ci = fz_info();

    wgs_scan_plan_desc d = {0};
    d.type = (wgs_type)fz_enum(&f, WGS_TYPE_F16);
    d.op = (wgs_op)fz_enum(&f, WGS_OP_ARGMAX);
    d.kind = (wgs_scan_kind)fz_enum(&f, WGS_SCAN_INCLUSIVE);
    d.algorithm = (wgs_scan_algorithm)fz_enum(&f, WGS_SCAN_ALGORITHM_SINGLE_PASS);
    d.deterministic = fz_one_in(&f, 4);
    d.capacity = fz_size(&f, fz_max_n());
    d.label = fz_one_in(&f, 8) ? "fuzz scan" : NULL;

    wgs_type type = d.type == WGS_TYPE_DEFAULT ? WGS_TYPE_U32 : d.type;
    wgs_op op = d.op == WGS_OP_DEFAULT ? WGS_OP_ADD : d.op;
    int inclusive = d.kind == WGS_SCAN_INCLUSIVE;
    fz_expect e = {0};
    fz_rule(&e, (unsigned)type > WGS_TYPE_F16, WGS_ERROR_UNSUPPORTED_TYPE, 0);
    fz_rule(&e, (unsigned)op > WGS_OP_XOR, WGS_ERROR_UNSUPPORTED_OPERATOR, 0);
    fz_rule(&e, is_float(type) && op >= WGS_OP_AND, WGS_ERROR_UNSUPPORTED_OPERATOR, 0);
    fz_rule(&e, type == WGS_TYPE_F16 && !ci->has_shader_f16, WGS_ERROR_FEATURE_MISSING, 0);
    fz_rule(&e, (unsigned)d.kind > WGS_SCAN_INCLUSIVE, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, (unsigned)d.algorithm > WGS_SCAN_ALGORITHM_SINGLE_PASS, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, d.deterministic && d.algorithm == WGS_SCAN_ALGORITHM_SINGLE_PASS, WGS_ERROR_INVALID_ARGUMENT, 0);
    if (d.capacity > fz_max_n()) { /* scratch for a huge capacity may not fit the device */
        fz_may(&e, WGS_ERROR_TOO_LARGE);
        fz_may(&e, WGS_ERROR_GPU_OUT_OF_MEMORY);
        fz_may(&e, WGS_ERROR_OUT_OF_HOST_MEMORY);
#ifdef FZ_TOLERATE_SCRATCH_VALIDATION
        fz_may(&e, WGS_ERROR_GPU_VALIDATION);
#endif
    }
    int null_desc = fz_u8(&f) == 255;
    if (null_desc) e = (fz_expect){FZ_CODE(WGS_ERROR_INVALID_ARGUMENT), 0};

    static char not_null;
    wgs_scan_plan *plan = (wgs_scan_plan *)(void *)&not_null;
    if (!fz_check("wgs_scan_plan_create", wgs_scan_plan_create(ctx, null_desc ? NULL : &d, &plan), e)) {
        if (plan) fz_fail("wgs_scan_plan_create failed but left its out-parameter non-NULL");
        return 0;
    }
    uint64_t capacity = d.capacity ? d.capacity : 1;
    size_t es = wgs_type_size(type);

    /* The documented choice of algorithm. */
    for (int in_place = 0; in_place < 2; in_place++) {
        uint64_t n = fz_size(&f, 1ull << 26);
        wgs_scan_algorithm want = d.algorithm != WGS_SCAN_ALGORITHM_DEFAULT ? d.algorithm
                                  : in_place || d.deterministic || n > WGS_SCAN_SINGLE_PASS_MAX_N
                                      ? WGS_SCAN_ALGORITHM_MULTILEVEL
                                      : WGS_SCAN_ALGORITHM_SINGLE_PASS;
        if (d.deterministic && d.algorithm == WGS_SCAN_ALGORITHM_DEFAULT) want = WGS_SCAN_ALGORITHM_MULTILEVEL;
        wgs_scan_algorithm got = wgs_scan_plan_algorithm(plan, n, in_place);
        if (got != want)
            fz_fail("wgs_scan_plan_algorithm(n %llu, in place %d) = %d, the manual says %d", (unsigned long long)n,
                    in_place, (int)got, (int)want);
        if (wgs_scan_plan_tile_size(plan, got) == 0) fz_fail("wgs_scan_plan_tile_size of the algorithm in use is 0");
    }

    scan_run runs[3];
    memset(runs, 0, sizeof runs);
    int count = 1 + (int)fz_below(&f, 3);
    WGPUCommandEncoder enc = fz_encoder();
    int all_ok = 1;
    for (int k = 0; k < count; k++) {
        scan_run *s = &runs[k];
        uint64_t n = fz_u8(&f) < 200 && capacity <= fz_max_n() ? fz_below(&f, (uint32_t)capacity + 1)
                                                               : fz_size(&f, fz_max_n());
        int lenient = n == 0;
        uint64_t data_bytes = n <= fz_max_n() ? n * es : 0;
        uint64_t range = (n * es + 3) & ~3ull; /* f16: whole words */
        if (n > (1ull << 40)) range = n; /* no overflow in the buffer rules */
        fz_expect ee = {0};
        fz_rule(&ee, n > capacity, WGS_ERROR_CAPACITY_EXCEEDED, 0);
        s->data = calloc(1, (size_t)data_bytes + 4);
        if (!s->data) fz_fail("out of host memory");
        s->exact = fz_fill(&f, s->data, type, data_bytes / (es ? es : 4), op == WGS_OP_ADD);
        s->in = fz_buffer_for(&f, range, s->data, &ee, lenient);
        uint32_t layout = fz_u8(&f);
        int in_place = layout < 64 && s->in.b;
        if (in_place) {
            s->out = s->in;
            if (layout < 16) { /* the same buffer at another offset */
                s->out.offset = s->in.offset + (layout < 8 ? ci->min_storage_offset_alignment : 4);
                fz_rule(&ee, 1, WGS_ERROR_ALIASING, lenient);
                fz_buffer_rules(&s->out, range, &ee, lenient);
            } else {
                fz_rule(&ee, d.algorithm == WGS_SCAN_ALGORITHM_SINGLE_PASS, WGS_ERROR_ALIASING, lenient);
            }
        } else {
            s->out = fz_buffer_for(&f, range, NULL, &ee, lenient);
            s->separate = 1;
        }
        s->a = (wgs_scan_args){s->in.b, s->in.offset, s->out.b, s->out.offset, n, NULL, 0, 0};
        uint32_t misuse = fz_u8(&f);
        WGPUCommandEncoder use = enc;
        const wgs_scan_args *args = &s->a;
        if (misuse == 255) use = NULL, ee = (fz_expect){FZ_CODE(WGS_ERROR_INVALID_ARGUMENT), 0};
        if (misuse == 254) args = NULL, ee = (fz_expect){FZ_CODE(WGS_ERROR_INVALID_ARGUMENT), 0};
        s->r = wgs_scan_encode(plan, use, args);
        if (!fz_check("wgs_scan_encode", s->r, ee)) all_ok = 0;
        if (s->r != WGS_OK) s->a.n = 0; /* nothing may have been written */
    }
    fz_submit(enc, 1);
    (void)all_ok;

    for (int k = 0; k < count; k++) {
        scan_run *s = &runs[k];
        uint64_t n = s->a.n;
        if (s->out.b) {
            uint8_t *got = malloc((size_t)s->out.size);
            if (!got) fz_fail("out of host memory");
            fz_buffer_download(&s->out, got);
            if (n) {
                const uint8_t *out = got + s->out.offset;
                ref_check c = ref_verify(s->data, out, type, op, inclusive, n);
                if (c.mismatches)
                    fz_fail("scan %s %s %s alg %d det %d n %llu (cap %llu, %s): %llu wrong, first at %llu: got %g, "
                            "want %g",
                            wgs_type_name(type), wgs_op_name(op), inclusive ? "inclusive" : "exclusive",
                            (int)d.algorithm, d.deterministic, (unsigned long long)n, (unsigned long long)capacity,
                            s->separate ? "out of place" : "in place", (unsigned long long)c.mismatches,
                            (unsigned long long)c.first_bad, c.got, c.want);
                if (is_float(type) && op == WGS_OP_ADD && s->exact) {
                    /* Every partial sum is exact: any order of additions gives the same values. */
                    uint8_t *want = malloc((size_t)(n * es) + 4);
                    if (!want) fz_fail("out of host memory");
                    ref_scan(s->data, want, type, op, inclusive, n);
                    for (uint64_t i = 0; i < n; i++) {
                        float g, w;
                        if (type == WGS_TYPE_F16) {
                            uint16_t gh, wh;
                            memcpy(&gh, out + 2 * i, 2);
                            memcpy(&wh, want + 2 * i, 2);
                            g = ref_f16_to_f32(gh), w = ref_f16_to_f32(wh);
                        } else {
                            memcpy(&g, out + 4 * i, 4);
                            memcpy(&w, want + 4 * i, 4);
                        }
                        if (g != w)
                            fz_fail("exact %s sum scan, n %llu: element %llu is %g, want %g", wgs_type_name(type),
                                    (unsigned long long)n, (unsigned long long)i, g, w);
                    }
                    free(want);
                }
            }
            /* Elements past n are never written, nor bytes before the offset. */
            fz_check_untouched("scan output", got, s->out.init, s->out.size, s->out.offset,
                               s->out.offset + n * es);
            free(got);
        }
        if (s->separate && s->in.b) { /* the input is only read */
            uint8_t *got = malloc((size_t)s->in.size);
            if (!got) fz_fail("out of host memory");
            fz_buffer_download(&s->in, got);
            fz_check_untouched("scan input", got, s->in.init, s->in.size, 0, 0);
            free(got);
        }
        if (s->separate) fz_buffer_release(&s->out);
        fz_buffer_release(&s->in);
        free(s->data);
    }
    wgs_scan_plan_destroy(plan);
    return 0;
}
