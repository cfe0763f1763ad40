/* SPDX-License-Identifier: MIT */
/*
 * fuzz_select.c: wgs_select_plan_create and wgs_select_encode from bytes: every mode
 * (flagged, if, unique, run-length), partition, payloads, both algorithms, predicates
 * of the plan and of the encode, and the six buffers of an encode: each may be NULL,
 * misaligned, too small, without Storage, or one buffer in two roles. Accepted encodes
 * must give ref_select's count, elements and payloads, leave the inputs as they were
 * and write nothing outside the output ranges.
 */
#include "harness.h"

#include "reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { IN, FLAGS, PAY_IN, OUT, PAY_OUT, COUNT, ROLES };
static const char *role_name[ROLES] = {"input", "flags", "payload_in", "output", "payload_out", "count"};

static int operand_ok(wgs_type type, double v) {
    if (type == WGS_TYPE_F32) return 1;
    double lo = type == WGS_TYPE_I32 ? -2147483648.0 : 0.0, hi = type == WGS_TYPE_I32 ? 2147483647.0 : 4294967295.0;
    return v >= lo && v <= hi && v == floor(v);
}

static void predicate_rules(fz_expect *e, wgs_type type, const wgs_predicate *p, int lenient) {
    wgs_predicate_kind k = p->kind == WGS_PREDICATE_DEFAULT ? WGS_PREDICATE_NONZERO : p->kind;
    if ((unsigned)k > WGS_PREDICATE_IN_RANGE) {
        fz_rule(e, 1, WGS_ERROR_INVALID_ARGUMENT, lenient);
        return;
    }
    fz_rule(e, !operand_ok(type, p->a), WGS_ERROR_INVALID_ARGUMENT, lenient || k < WGS_PREDICATE_EQUAL);
    fz_rule(e, !operand_ok(type, p->b), WGS_ERROR_INVALID_ARGUMENT, lenient || k != WGS_PREDICATE_IN_RANGE);
}

static wgs_predicate make_predicate(fz *f, wgs_type type) {
    (void)type; /* operands of every type go to the library as they are */
    wgs_predicate p;
    p.kind = (wgs_predicate_kind)fz_enum(f, WGS_PREDICATE_IN_RANGE);
    p.a = fz_u8(f) < 160 ? (double)(fz_u8(f) % 6) - 1.0 : fz_double(f);
    p.b = fz_u8(f) < 128 ? p.a + (double)(fz_u8(f) % 8) : fz_double(f);
    return p;
}

static uint8_t *download(const fz_buffer *b) {
    uint8_t *got = malloc((size_t)b->size);
    if (!got) fz_fail("out of host memory");
    fz_buffer_download(b, got);
    return got;
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size) {
    fz f = {input, size, 0};
    fz_begin(&f);
    wgs_context *ctx = fz_context();
    const wgs_context_info *ci = fz_info();

    wgs_select_plan_desc d = {0};
    d.type = (wgs_type)fz_enum(&f, WGS_TYPE_F16);
    d.mode = (wgs_select_mode)fz_enum(&f, WGS_SELECT_RUN_LENGTH);
    wgs_type type = d.type == WGS_TYPE_DEFAULT ? WGS_TYPE_U32 : d.type;
    d.predicate = make_predicate(&f, type);
    d.partition = fz_u8(&f) < 192 ? 0 : fz_one_in(&f, 4) ? (int)fz_u32(&f) : 1;
    d.payload = (wgs_payload)fz_enum(&f, WGS_PAYLOAD_INDEX);
    d.capacity = fz_size(&f, fz_max_n());
    d.algorithm = (wgs_select_algorithm)fz_enum(&f, WGS_SELECT_ALGORITHM_THREE_PASS);
    d.label = fz_one_in(&f, 8) ? "fuzz select" : NULL;

    wgs_select_mode mode = d.mode == WGS_SELECT_DEFAULT ? WGS_SELECT_FLAGGED : d.mode;
    int heads = mode == WGS_SELECT_UNIQUE || mode == WGS_SELECT_RUN_LENGTH;
    int valid_type = type == WGS_TYPE_U32 || type == WGS_TYPE_I32 || type == WGS_TYPE_F32;
    fz_expect e = {0};
    fz_rule(&e, !valid_type, WGS_ERROR_UNSUPPORTED_TYPE, 0);
    fz_rule(&e, (unsigned)mode > WGS_SELECT_RUN_LENGTH, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, (unsigned)d.payload > WGS_PAYLOAD_INDEX, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, heads && d.partition, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, mode == WGS_SELECT_RUN_LENGTH && d.payload, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, (unsigned)d.algorithm > WGS_SELECT_ALGORITHM_THREE_PASS, WGS_ERROR_INVALID_ARGUMENT, 0);
    fz_rule(&e, d.algorithm == WGS_SELECT_ALGORITHM_SINGLE_PASS && d.partition, WGS_ERROR_INVALID_ARGUMENT, 0);
    /* The predicate counts in IF plans (other modes may ignore it, or check it). */
    predicate_rules(&e, valid_type ? type : WGS_TYPE_U32, &d.predicate, mode != WGS_SELECT_IF || !valid_type);
    uint64_t capacity = d.capacity ? d.capacity : 1;
    fz_rule(&e, capacity > 0xFFFFFFFFull || capacity > ci->max_storage_binding_size / 4, WGS_ERROR_TOO_LARGE, 0);
    if (capacity > fz_max_n()) {
        fz_may(&e, WGS_ERROR_GPU_OUT_OF_MEMORY);
        fz_may(&e, WGS_ERROR_OUT_OF_HOST_MEMORY);
#ifdef FZ_TOLERATE_SCRATCH_VALIDATION
        fz_may(&e, WGS_ERROR_GPU_VALIDATION);
#endif
    }

    static char not_null;
    wgs_select_plan *plan = (wgs_select_plan *)(void *)&not_null;
    if (!fz_check("wgs_select_plan_create", wgs_select_plan_create(ctx, &d, &plan), e)) {
        if (plan) fz_fail("wgs_select_plan_create failed but left its out-parameter non-NULL");
        return 0;
    }

    /* ---- one encode ---- */
    uint64_t n = fz_u8(&f) < 200 && capacity <= fz_max_n() ? fz_below(&f, (uint32_t)capacity + 1) : fz_size(&f, fz_max_n());
    uint64_t filled = n <= fz_max_n() ? n : 0;
    uint64_t bytes = n > UINT64_MAX / 4 ? UINT64_MAX : n * 4;
    int lenient = n == 0;
    fz_expect ee = {0};
    fz_rule(&ee, n > capacity, WGS_ERROR_CAPACITY_EXCEEDED, 0);
    uint32_t *values = calloc((size_t)filled + 1, 4), *pay = calloc((size_t)filled + 1, 4);
    uint8_t *flags = calloc((size_t)filled + 4, 1);
    if (!values || !pay || !flags) fz_fail("out of host memory");
    fz_fill(&f, values, type, filled, 0);
    fz_fill_words(&f, pay, filled);
    fz_fill_bytes(&f, flags, filled);

    int used[ROLES] = {1, mode == WGS_SELECT_FLAGGED, d.payload == WGS_PAYLOAD_BUFFER, 1,
                       d.payload != WGS_PAYLOAD_NONE || mode == WGS_SELECT_RUN_LENGTH, 1};
    uint64_t need[ROLES] = {bytes, n > UINT64_MAX - 3 ? UINT64_MAX : (n + 3) & ~3ull, bytes, bytes, bytes, 4};
    const void *fill[ROLES] = {values, flags, pay, NULL, NULL, NULL};
    fz_buffer buf[ROLES];
    int owned[ROLES], owner[ROLES];
    fz_expect unused = {0};
    for (int r = 0; r < ROLES; r++) {
        memset(&buf[r], 0, sizeof buf[r]);
        owner[r] = r;
        owned[r] = used[r] || fz_one_in(&f, 8);
        if (owned[r])
            buf[r] = fz_buffer_for(&f, need[r], fill[r], used[r] ? &ee : &unused, lenient && r != COUNT);
    }
    /* One buffer in two roles. */
    if (fz_one_in(&f, 12)) {
        int from = (int)fz_below(&f, ROLES), to = (int)fz_below(&f, ROLES);
        if (from != to && buf[from].b) {
            if (owned[to]) fz_buffer_release(&buf[to]);
            owned[to] = 0;
            owner[to] = from;
            ee = (fz_expect){0};
            fz_rule(&ee, n > capacity, WGS_ERROR_CAPACITY_EXCEEDED, 0);
            buf[to] = buf[from];
            for (int r = 0; r < ROLES; r++)
                if (used[r]) fz_buffer_rules(&buf[r], need[r], &ee, lenient && r != COUNT);
            /* An input read from another role's buffer holds that buffer's bytes. */
            void *host[ROLES] = {values, flags, pay, NULL, NULL, NULL};
            uint64_t len[ROLES] = {filled * 4, filled, filled * 4, 0, 0, 0};
            if (host[to] && buf[to].offset <= buf[to].size && buf[to].size - buf[to].offset >= len[to])
                memcpy(host[to], buf[to].init + buf[to].offset, (size_t)len[to]);
        }
    }
    for (int i = 0; i < ROLES; i++) /* outputs are other buffers than the inputs and each other */
        for (int j = i + 1; j < ROLES; j++)
            if (used[i] && used[j] && buf[i].b && buf[i].b == buf[j].b && j >= OUT)
                fz_must(&ee, WGS_ERROR_ALIASING);

    wgs_select_args a = {buf[IN].b,      buf[IN].offset,      buf[FLAGS].b,   buf[FLAGS].offset,
                         buf[PAY_IN].b,  buf[PAY_IN].offset,  buf[OUT].b,     buf[OUT].offset,
                         buf[PAY_OUT].b, buf[PAY_OUT].offset, buf[COUNT].b,   buf[COUNT].offset,
                         n,              NULL,                NULL,           0,
                         0};
    wgs_predicate used_pred = d.predicate, over;
    if (fz_one_in(&f, 4)) {
        over = make_predicate(&f, type);
        if (fz_u8(&f) < 192) over.kind = d.predicate.kind;
        a.predicate = &over;
        int is_if = mode == WGS_SELECT_IF;
        predicate_rules(&ee, type, &over, !is_if);
        wgs_predicate_kind k1 = d.predicate.kind ? d.predicate.kind : WGS_PREDICATE_NONZERO;
        wgs_predicate_kind k2 = over.kind ? over.kind : WGS_PREDICATE_NONZERO;
        fz_rule(&ee, k1 != k2, WGS_ERROR_INVALID_ARGUMENT, !is_if);
        if (is_if) used_pred = over;
    }
    WGPUCommandEncoder enc = fz_encoder(), use = enc;
    const wgs_select_args *args = &a;
    uint32_t misuse = fz_u8(&f);
    if (misuse == 255) use = NULL, ee = (fz_expect){FZ_CODE(WGS_ERROR_INVALID_ARGUMENT), 0};
    if (misuse == 254) args = NULL, ee = (fz_expect){FZ_CODE(WGS_ERROR_INVALID_ARGUMENT), 0};
    int ok = fz_check("wgs_select_encode", wgs_select_encode(plan, use, args), ee);
    fz_submit(enc, 1);

    uint8_t *got[ROLES] = {0}, *mine[ROLES] = {0};
    for (int r = 0; r < ROLES; r++)
        if (owned[r] && buf[r].b) mine[r] = download(&buf[r]);
    for (int r = 0; r < ROLES; r++) got[r] = mine[owner[r]];
    if (ok) {
        uint32_t *want = calloc((size_t)n + 1, 4), *want_pay = calloc((size_t)n + 1, 4);
        if (!want || !want_pay) fz_fail("out of host memory");
        uint64_t k = ref_select(values, type, mode, &used_pred, flags, d.partition != 0, d.payload, pay, n, want,
                                want_pay);
        uint32_t count;
        memcpy(&count, got[COUNT] + buf[COUNT].offset, 4);
        if (count != k)
            fz_fail("select mode %d partition %d payload %d alg %d %s n %llu: count %u, want %llu", (int)mode,
                    d.partition != 0, (int)d.payload, (int)d.algorithm, wgs_type_name(type), (unsigned long long)n,
                    count, (unsigned long long)k);
        uint64_t kept = d.partition ? n : k;
        for (uint64_t i = 0; i < kept; i++) {
            uint32_t g;
            memcpy(&g, got[OUT] + buf[OUT].offset + 4 * i, 4);
            if (g != want[i])
                fz_fail("select mode %d partition %d alg %d %s n %llu (count %llu): output[%llu] = 0x%08x, want 0x%08x",
                        (int)mode, d.partition != 0, (int)d.algorithm, wgs_type_name(type), (unsigned long long)n,
                        (unsigned long long)k, (unsigned long long)i, g, want[i]);
            if (used[PAY_OUT]) {
                memcpy(&g, got[PAY_OUT] + buf[PAY_OUT].offset + 4 * i, 4);
                if (g != want_pay[i])
                    fz_fail("select mode %d payload %d alg %d n %llu: payload_out[%llu] = %u, want %u", (int)mode,
                            (int)d.payload, (int)d.algorithm, (unsigned long long)n, (unsigned long long)i, g,
                            want_pay[i]);
            }
        }
        free(want);
        free(want_pay);
    }
    /* Inputs unchanged; outputs written only inside their ranges (nowhere if refused);
     * roles the mode does not use untouched. */
    for (int r = 0; r < ROLES; r++) {
        if (!owned[r]) continue;
        if (!buf[r].b) continue;
        uint64_t from = buf[r].offset, to = buf[r].offset;
        for (int q = OUT; q < ROLES; q++) /* the output role this buffer serves, if any */
            if (ok && used[q] && owner[q] == r) to = buf[r].offset + need[q];
        fz_check_untouched(role_name[r], mine[r], buf[r].init, buf[r].size, from, to);
        free(mine[r]);
        fz_buffer_release(&buf[r]);
    }
    free(values);
    free(pay);
    free(flags);
    wgs_select_plan_destroy(plan);
    return 0;
}
