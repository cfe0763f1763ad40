/* SPDX-License-Identifier: MIT */
#include "scan_check.h"
#include "reference.h"
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

#define GUARD 0xABu

int scan_check(wgs_context *ctx, wgs_scan_plan *plan, const wgs_scan_plan_desc *desc,
               const scan_case *c) {
    wgs_type type = desc->type ? desc->type : WGS_TYPE_U32;
    wgs_op op = desc->op ? desc->op : WGS_OP_ADD;
    int inclusive = desc->kind == WGS_SCAN_INCLUSIVE;
    size_t es = wgs_type_size(type);
    uint64_t bytes = c->n * es, padded = (bytes + 3) & ~3ull;
    uint64_t out_off = c->in_place ? c->in_offset : c->out_offset;
    /* Room after the range: the guard bytes that must survive. */
    uint64_t in_size = c->in_offset + padded + 256, out_size = out_off + padded + 256;
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer in = NULL, out = NULL;
    unsigned char *host_in = malloc(in_size), *host_out = malloc(out_size), *expect_guard = malloc(out_size);
    int ok = 0;
    if (!host_in || !host_out || !expect_guard) {
        test_fail(__FILE__, __LINE__, "out of host memory for n=%llu", (unsigned long long)c->n);
        goto done;
    }
    memset(host_in, GUARD, in_size);
    ref_fill_random(host_in + c->in_offset, type, op, c->n, c->seed);
    memset(expect_guard, GUARD, out_size);
    if (wgs_buffer_create(ctx, in_size, usage, &in) != WGS_OK) {
        test_fail(__FILE__, __LINE__, "buffer: %s", wgs_context_last_error(ctx));
        goto done;
    }
    CHECK_RESULT(wgs_buffer_write(ctx, in, 0, host_in, in_size), WGS_OK);
    if (c->in_place) {
        out = in;
    } else {
        if (wgs_buffer_create(ctx, out_size, usage, &out) != WGS_OK) {
            test_fail(__FILE__, __LINE__, "buffer: %s", wgs_context_last_error(ctx));
            goto done;
        }
        CHECK_RESULT(wgs_buffer_write(ctx, out, 0, expect_guard, out_size), WGS_OK);
    }
    /* The carry-in: one random element, as a value or in a buffer at offset 256. */
    uint32_t carry = 0;
    WGPUBuffer carry_buf = NULL;
    ref_fill_random(&carry, type, op, 1, c->seed ^ 0x5EEDu);
    if (c->carry == 2) {
        unsigned char words[512];
        memset(words, GUARD, sizeof words);
        memcpy(words + 256, &carry, es);
        if (wgs_buffer_create(ctx, sizeof words, usage, &carry_buf) != WGS_OK) {
            test_fail(__FILE__, __LINE__, "buffer: %s", wgs_context_last_error(ctx));
            goto done;
        }
        CHECK_RESULT(wgs_buffer_write(ctx, carry_buf, 0, words, sizeof words), WGS_OK);
    }
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_scan_args a = {.input = in, .input_offset = c->in_offset, .output = out, .output_offset = out_off,
                       .n = c->n, .init_value = c->carry == 1 ? &carry : NULL, .init_buffer = carry_buf,
                       .init_offset = carry_buf ? 256 : 0};
    wgs_result r = wgs_scan_encode(plan, enc, &a);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    wgs_buffer_release(ctx, carry_buf);
    if (r != WGS_OK) {
        test_fail(__FILE__, __LINE__, "encode n=%llu: %s", (unsigned long long)c->n, wgs_context_last_error(ctx));
        goto done;
    }
    if (wgs_buffer_read(ctx, out, 0, host_out, out_size) != WGS_OK) {
        test_fail(__FILE__, __LINE__, "read: %s", wgs_context_last_error(ctx));
        goto done;
    }
    ref_check chk;
    if (c->carry) {
        /* With a carry-in the output is the reference scan of [carry, input] from its
         * second element on: checked as that scan, its first element taken as right. */
        unsigned char *in2 = malloc((c->n + 1) * es + 4), *out2 = malloc((c->n + 1) * es + 4);
        if (!in2 || !out2) {
            free(in2), free(out2);
            test_fail(__FILE__, __LINE__, "out of host memory for n=%llu", (unsigned long long)c->n);
            goto done;
        }
        memcpy(in2, &carry, es);
        memcpy(in2 + es, host_in + c->in_offset, bytes);
        ref_scan(in2, out2, type, op, inclusive, 1);
        memcpy(out2 + es, host_out + out_off, bytes);
        chk = ref_verify(in2, out2, type, op, inclusive, c->n + 1);
        if (chk.mismatches) chk.first_bad--;
        free(in2), free(out2);
    } else {
        chk = ref_verify(host_in + c->in_offset, host_out + out_off, type, op, inclusive, c->n);
    }
    if (chk.mismatches) {
        test_fail(__FILE__, __LINE__,
                  "%s %s %s n=%llu in_off=%llu out_off=%llu%s%s: %llu wrong, first at %llu: got %.9g want %.9g",
                  wgs_type_name(type), wgs_op_name(op), inclusive ? "inclusive" : "exclusive",
                  (unsigned long long)c->n, (unsigned long long)c->in_offset, (unsigned long long)out_off,
                  c->in_place ? " in place" : "", c->carry == 1 ? " carry value" : c->carry ? " carry buffer" : "",
                  (unsigned long long)chk.mismatches,
                  (unsigned long long)chk.first_bad, chk.got, chk.want);
        goto done;
    }
    /* Nothing outside [out_off, out_off + bytes) may change; in place, the guard
     * before the range is the input's. */
    const unsigned char *guard_src = c->in_place ? host_in : expect_guard;
    for (uint64_t i = 0; i < out_size; i++) {
        if (i >= out_off && i < out_off + bytes) continue;
        if (host_out[i] != guard_src[i]) {
            test_fail(__FILE__, __LINE__, "n=%llu: byte %llu outside the output range was written",
                      (unsigned long long)c->n, (unsigned long long)i);
            goto done;
        }
    }
    ok = 1;
done:
    if (out && out != in) wgs_buffer_release(ctx, out);
    wgs_buffer_release(ctx, in);
    free(host_in);
    free(host_out);
    free(expect_guard);
    return ok;
}

int scan_boundary_sizes(uint32_t t, uint64_t max, uint64_t *sizes, int cap) {
    uint64_t tt = (uint64_t)t * t;
    const uint64_t all[] = {0, 1, 2, 3, 4, 5, t - 1, t, t + 1, 2ull * t - 1, 3ull * t + 5,
                            tt - 1, tt, tt + 1, (1ull << 20) - 1, (1ull << 20) + 1,
                            (1ull << 20) + 3, (1ull << 24) - 1, (1ull << 24) + 5};
    int k = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0] && k < cap; i++)
        if (all[i] <= max) sizes[k++] = all[i];
    return k;
}
