/* SPDX-License-Identifier: MIT */
/*
 * host.c: the convenience layer: buffers, submission, waiting, GPU timers and
 * the host-array calls of every primitive (wgs_*_host). Everything here waits or
 * allocates; the algorithms never do.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

wgs_result wgs_buffer_create(wgs_context *ctx, uint64_t size, WGPUBufferUsage usage,
                             WGPUBuffer *out) {
    if (out) *out = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !out || size == 0, WGS_ERROR_INVALID_ARGUMENT, "out and a non-zero size are required");
    wgs_result r = wgs__check_device(ctx);
    if (r != WGS_OK) return r;
    WGS_FAIL_IF(ctx, size > ctx->caps.info.max_buffer_size, WGS_ERROR_TOO_LARGE,
                "buffer of %llu bytes exceeds maxBufferSize %llu", (unsigned long long)size,
                (unsigned long long)ctx->caps.info.max_buffer_size);
    wgs__gpu_scope_push(ctx->gpu);
    WGPUBuffer b = wgs__gpu_buffer_create(ctx->gpu, wgs__round_up(size, 4), usage, "wgscan user buffer");
    r = wgs__scope_end(ctx, "creating a buffer");
    if (r != WGS_OK) {
        wgs__gpu_buffer_release(ctx->gpu, b);
        return r;
    }
    *out = b;
    return WGS_OK;
}

void wgs_buffer_release(wgs_context *ctx, WGPUBuffer buffer) {
    if (!ctx || !buffer) return;
    wgs__gpu_buffer_release(ctx->gpu, buffer);
}

wgs_result wgs_buffer_write(wgs_context *ctx, WGPUBuffer buffer, uint64_t offset, const void *data,
                            uint64_t size) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !buffer || (!data && size), WGS_ERROR_INVALID_ARGUMENT, "buffer and data are required");
    WGS_FAIL_IF(ctx, size % 4 || offset % 4, WGS_ERROR_MISALIGNED_OFFSET,
                "buffer writes need offset and size in multiples of 4 bytes");
    WGS_FAIL_IF(ctx, offset > wgs__gpu_buffer_size(ctx->gpu, buffer) ||
                         wgs__gpu_buffer_size(ctx->gpu, buffer) - offset < size,
                WGS_ERROR_BUFFER_TOO_SMALL, "write of %llu bytes at %llu past the buffer's end",
                (unsigned long long)size, (unsigned long long)offset);
    wgs_result r = wgs__check_device(ctx);
    if (r != WGS_OK) return r;
    char msg[512] = "";
    r = wgs__gpu_buffer_write(ctx->gpu, buffer, offset, data, size, msg, sizeof msg);
    if (r != WGS_OK) return wgs__fail(ctx, r, "writing a buffer: %s", msg);
    return WGS_OK;
}

wgs_result wgs_buffer_read(wgs_context *ctx, WGPUBuffer buffer, uint64_t offset, void *data,
                           uint64_t size) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !buffer || (!data && size), WGS_ERROR_INVALID_ARGUMENT, "buffer and data are required");
    WGS_FAIL_IF(ctx, offset % 4, WGS_ERROR_MISALIGNED_OFFSET, "buffer reads need offset in multiples of 4 bytes");
    uint64_t bsize = wgs__gpu_buffer_size(ctx->gpu, buffer);
    /* (round_up saturates: a size near 2^64 fails here instead of wrapping to 0) */
    WGS_FAIL_IF(ctx, offset > bsize || bsize - offset < wgs__round_up(size, 4), WGS_ERROR_BUFFER_TOO_SMALL,
                "read of %llu bytes at %llu past the buffer's end", (unsigned long long)size,
                (unsigned long long)offset);
    WGS_FAIL_IF(ctx, size && !(wgs__gpu_buffer_usage(ctx->gpu, buffer) & WGPUBufferUsage_CopySrc),
                WGS_ERROR_BUFFER_USAGE, "buffer reads need WGPUBufferUsage_CopySrc");
    wgs_result r = wgs__check_device(ctx);
    if (r != WGS_OK) return r;
    char msg[512] = "";
    r = wgs__gpu_buffer_read(ctx->gpu, buffer, offset, size, data, msg, sizeof msg);
    if (r != WGS_OK) return wgs__fail(ctx, r, "reading a buffer: %s", msg);
    return WGS_OK;
}

wgs_result wgs_encoder_create(wgs_context *ctx, WGPUCommandEncoder *out) {
    if (out) *out = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !out, WGS_ERROR_INVALID_ARGUMENT, "out is required");
    wgs_result r = wgs__check_device(ctx);
    if (r != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    WGPUCommandEncoder enc = wgs__gpu_encoder_create(ctx->gpu);
    r = wgs__scope_end(ctx, "creating a command encoder");
    if (r == WGS_OK) *out = enc;
    return r;
}

wgs_result wgs_submit(wgs_context *ctx, WGPUCommandEncoder encoder) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !encoder, WGS_ERROR_INVALID_ARGUMENT, "encoder is required");
    wgs__gpu_scope_push(ctx->gpu);
    wgs__gpu_submit(ctx->gpu, encoder);
    return wgs__scope_end(ctx, "submitting commands");
}

wgs_result wgs_wait(wgs_context *ctx) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    char msg[512] = "";
    wgs_result r = wgs__gpu_wait_idle(ctx->gpu, msg, sizeof msg);
    if (r != WGS_OK) return wgs__fail(ctx, r, "waiting for the GPU: %s", msg);
    return WGS_OK;
}

/* ---- timers ------------------------------------------------------------------- */

struct wgs_timer {
    wgs_context *ctx;
    uint32_t pairs;
    WGPUQuerySet set;
    WGPUBuffer resolved; /* QueryResolve | CopySrc: 8 bytes per query */
};

wgs_result wgs_timer_create(wgs_context *ctx, uint32_t pairs, wgs_timer **out) {
    if (out) *out = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !out || pairs == 0 || pairs > 2048, WGS_ERROR_INVALID_ARGUMENT,
                "a timer needs 1 to 2048 pairs");
    WGS_FAIL_IF(ctx, !ctx->caps.info.has_timestamp_query, WGS_ERROR_FEATURE_MISSING,
                "GPU timers need the timestamp-query feature");
    wgs_timer *t = calloc(1, sizeof *t);
    WGS_FAIL_IF(ctx, !t, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating a timer");
    t->ctx = ctx;
    t->pairs = pairs;
    wgs__gpu_scope_push(ctx->gpu);
    t->set = wgs__gpu_timestamp_set_create(ctx->gpu, 2 * pairs);
    t->resolved = wgs__gpu_buffer_create(ctx->gpu, 16ull * pairs,
                                    WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc,
                                    "wgscan timer");
    wgs_result r = wgs__scope_end(ctx, "creating a timer");
    if (r != WGS_OK) {
        wgs_timer_destroy(t);
        return r;
    }
    *out = t;
    return WGS_OK;
}

void wgs_timer_destroy(wgs_timer *t) {
    if (!t) return;
    wgs__gpu_query_set_release(t->ctx->gpu, t->set);
    wgs__gpu_buffer_release(t->ctx->gpu, t->resolved);
    free(t);
}

WGPUQuerySet wgs_timer_query_set(const wgs_timer *t) { return t ? t->set : NULL; }

wgs_result wgs_timer_resolve(wgs_timer *t, WGPUCommandEncoder encoder) {
    if (!t || !encoder) return WGS_ERROR_INVALID_ARGUMENT;
    wgs__gpu_resolve_queries(t->ctx->gpu, encoder, t->set, 0, 2 * t->pairs, t->resolved, 0);
    return WGS_OK;
}

wgs_result wgs_timer_read(wgs_timer *t, double *seconds, uint32_t pairs) {
    if (!t) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(t->ctx, !seconds || pairs > t->pairs, WGS_ERROR_INVALID_ARGUMENT,
                "seconds is required and pairs may not exceed the timer's %u", t->pairs);
    uint64_t ticks[2 * 2048];
    wgs_result r = wgs_buffer_read(t->ctx, t->resolved, 0, ticks, 16ull * pairs);
    if (r != WGS_OK) return r;
    /* WebGPU timestamps are in nanoseconds. An end before its begin (a reordered or
     * unwritten pair) reads as 0 rather than a huge unsigned difference. */
    for (uint32_t i = 0; i < pairs; i++)
        seconds[i] = ticks[2 * i + 1] > ticks[2 * i] ? (double)(ticks[2 * i + 1] - ticks[2 * i]) * 1e-9 : 0.0;
    return WGS_OK;
}

/* ---- host-array scan ------------------------------------------------------------ */

wgs_result wgs_scan_host(wgs_context *ctx, const wgs_scan_plan_desc *desc, const void *input,
                         uint64_t n, void *output) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc || ((!input || !output) && n), WGS_ERROR_INVALID_ARGUMENT,
                "desc, input and output are required");
    wgs_scan_plan_desc d = *desc;
    if (d.capacity < n) d.capacity = n;
    wgs_scan_plan *plan = NULL;
    wgs_result r = wgs_scan_plan_create(ctx, &d, &plan);
    if (r != WGS_OK || n == 0) {
        wgs_scan_plan_destroy(plan);
        return r;
    }
    size_t es = wgs__scan_plan_element_size(plan);
    uint64_t bytes = n * es, padded = wgs__round_up(bytes, 4);
    WGPUBuffer buf = NULL, outb = NULL;
    WGPUCommandEncoder enc = NULL;
    void *staged = NULL;
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    r = wgs_buffer_create(ctx, padded, usage, &buf);
    /* In place, unless the plan only has the single pass, which cannot run in place. */
    if (r == WGS_OK && wgs_scan_plan_algorithm(plan, n, 1) == WGS_SCAN_ALGORITHM_SINGLE_PASS)
        r = wgs_buffer_create(ctx, padded, usage, &outb);
    /* f16 with odd n: writes move whole 4-byte words, so stage a padded copy. */
    if (r == WGS_OK && padded != bytes) {
        staged = calloc(1, (size_t)padded);
        if (!staged) r = wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "staging %llu bytes", (unsigned long long)padded);
        else memcpy(staged, input, (size_t)bytes);
    }
    if (r == WGS_OK) r = wgs_buffer_write(ctx, buf, 0, staged ? staged : input, padded);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_scan_args a = {.input = buf, .output = outb ? outb : buf, .n = n};
        r = wgs_scan_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc); /* also releases the encoder */
        if (r == WGS_OK) r = s;
    }
    if (r == WGS_OK) r = wgs_buffer_read(ctx, outb ? outb : buf, 0, output, bytes);
    free(staged);
    wgs_buffer_release(ctx, buf);
    wgs_buffer_release(ctx, outb);
    wgs_scan_plan_destroy(plan);
    return r;
}

/* Host convenience shared by reduce and count: upload, encode, read back. */
static wgs_result run_reduce_host(wgs_context *ctx, wgs_reduce_plan *plan, const void *input, uint64_t n,
                           void *result) {
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer in = NULL, outb = NULL;
    WGPUCommandEncoder enc = NULL;
    uint32_t es, result_bytes;
    wgs__reduce_plan_sizes(plan, &es, &result_bytes);
    wgs_result r = wgs_buffer_create(ctx, n ? n * es : 4, usage, &in);
    if (r == WGS_OK) r = wgs_buffer_create(ctx, 16, usage, &outb);
    if (r == WGS_OK && n) r = wgs_buffer_write(ctx, in, 0, input, n * es);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_reduce_args a = {.input = in, .n = n, .output = outb};
        r = wgs_reduce_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = s;
    }
    if (r == WGS_OK) r = wgs_buffer_read(ctx, outb, 0, result, result_bytes);
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, outb);
    return r;
}

wgs_result wgs_reduce_host(wgs_context *ctx, const wgs_reduce_plan_desc *desc, const void *input,
                           uint64_t n, void *result) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc || (!input && n) || !result, WGS_ERROR_INVALID_ARGUMENT,
                "desc, input and result are required");
    wgs_reduce_plan_desc d = *desc;
    if (d.capacity < n) d.capacity = n;
    wgs_reduce_plan *plan = NULL;
    wgs_result r = wgs_reduce_plan_create(ctx, &d, &plan);
    if (r == WGS_OK)
        r = run_reduce_host(ctx, plan, input, n, result);
    wgs_reduce_plan_destroy(plan);
    return r;
}

wgs_result wgs_count_host(wgs_context *ctx, const wgs_count_plan_desc *desc, const void *input,
                          uint64_t n, uint32_t *count) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc || (!input && n) || !count, WGS_ERROR_INVALID_ARGUMENT,
                "desc, input and count are required");
    wgs_count_plan_desc d = *desc;
    if (d.capacity < n) d.capacity = n;
    wgs_reduce_plan *plan = NULL;
    wgs_result r = wgs_count_plan_create(ctx, &d, &plan);
    if (r == WGS_OK) r = run_reduce_host(ctx, plan, input, n, count);
    wgs_reduce_plan_destroy(plan);
    return r;
}

/* ---- host-array select, histogram and allocator ---------------------------------- */

static const WGPUBufferUsage host_usage =
    WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;

/* A device buffer of `bytes` rounded up to whole words (at least one), holding `data`
 * when given; the bytes past `bytes` are zero (writes move whole words, so a ragged end
 * is staged through a padded copy). */
static wgs_result host_upload(wgs_context *ctx, const void *data, uint64_t bytes, WGPUBuffer *out) {
    uint64_t padded = bytes ? wgs__round_up(bytes, 4) : 4;
    wgs_result r = wgs_buffer_create(ctx, padded, host_usage, out);
    if (r != WGS_OK || !data || !bytes) return r;
    if (padded == bytes) return wgs_buffer_write(ctx, *out, 0, data, bytes);
    void *staged = calloc(1, (size_t)padded);
    if (!staged)
        return wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "staging %llu bytes", (unsigned long long)padded);
    memcpy(staged, data, (size_t)bytes);
    r = wgs_buffer_write(ctx, *out, 0, staged, padded);
    free(staged);
    return r;
}

wgs_result wgs_select_host(wgs_context *ctx, const wgs_select_plan_desc *desc, const void *input,
                           const uint8_t *flags, const void *payload_in, uint64_t n, void *output,
                           void *payload_out, uint32_t *count) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc || !count, WGS_ERROR_INVALID_ARGUMENT, "desc and count are required");
    wgs_select_plan_desc d = *desc;
    const int flagged = d.mode == WGS_SELECT_DEFAULT || d.mode == WGS_SELECT_FLAGGED;
    const int takes_payload = d.payload == WGS_PAYLOAD_BUFFER;
    const int gives_payload = d.payload != WGS_PAYLOAD_NONE || d.mode == WGS_SELECT_RUN_LENGTH;
    WGS_FAIL_IF(ctx, n && (!input || !output || (flagged && !flags) || (takes_payload && !payload_in) ||
                           (gives_payload && !payload_out)),
                WGS_ERROR_INVALID_ARGUMENT,
                "input and output are required, and flags, payload_in and payload_out where the plan uses them");
    if (d.capacity < n) d.capacity = n;
    wgs_select_plan *plan = NULL;
    wgs_result r = wgs_select_plan_create(ctx, &d, &plan);
    *count = 0;
    if (r != WGS_OK || n == 0) {
        wgs_select_plan_destroy(plan);
        return r;
    }
    WGPUBuffer in = NULL, fl = NULL, pin = NULL, out = NULL, pout = NULL, cnt = NULL;
    WGPUCommandEncoder enc = NULL;
    r = host_upload(ctx, input, n * 4, &in);
    if (r == WGS_OK && flagged) r = host_upload(ctx, flags, n, &fl);
    if (r == WGS_OK && takes_payload) r = host_upload(ctx, payload_in, n * 4, &pin);
    if (r == WGS_OK) r = host_upload(ctx, NULL, n * 4, &out);
    if (r == WGS_OK && gives_payload) r = host_upload(ctx, NULL, n * 4, &pout);
    if (r == WGS_OK) r = host_upload(ctx, NULL, 4, &cnt);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_select_args a = {.input = in, .flags = fl, .payload_in = pin, .output = out,
                             .payload_out = pout, .count = cnt, .n = n};
        r = wgs_select_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = s;
    }
    uint32_t got = 0;
    if (r == WGS_OK) r = wgs_buffer_read(ctx, cnt, 0, &got, 4);
    /* A partition fills all n places; otherwise only the `got` selected ones are read. */
    uint64_t filled = d.partition ? n : got;
    if (r == WGS_OK && filled) r = wgs_buffer_read(ctx, out, 0, output, filled * 4);
    if (r == WGS_OK && filled && gives_payload) r = wgs_buffer_read(ctx, pout, 0, payload_out, filled * 4);
    if (r == WGS_OK) *count = got;
    WGPUBuffer all[] = {in, fl, pin, out, pout, cnt};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_select_plan_destroy(plan);
    return r;
}

wgs_result wgs_segmented_reduce_host(wgs_context *ctx, const wgs_segmented_reduce_plan_desc *desc,
                                     const void *input, const uint32_t *offsets, const uint32_t *end_offsets,
                                     uint64_t n, uint64_t n_segments, void *output) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc, WGS_ERROR_INVALID_ARGUMENT, "desc is required");
    const int csr = desc->segments != WGS_SEGMENTS_BEGIN_END;
    WGS_FAIL_IF(ctx, (!input && n) || (csr && !offsets) || (!csr && n_segments && (!offsets || !end_offsets)) ||
                         (n_segments && !output),
                WGS_ERROR_INVALID_ARGUMENT,
                "input, offsets (and end_offsets for BEGIN_END) and output are required");
    wgs_segmented_reduce_plan_desc d = *desc;
    if (d.capacity < n) d.capacity = n;
    if (d.segment_capacity < n_segments) d.segment_capacity = n_segments;
    wgs_segmented_reduce_plan *plan = NULL;
    wgs_result r = wgs_segmented_reduce_plan_create(ctx, &d, &plan);
    if (r != WGS_OK) return r;
    const uint64_t result_bytes = wgs__segmented_reduce_plan_result_size(plan);
    const uint64_t es = d.custom ? result_bytes : 4;
    WGPUBuffer in = NULL, begins = NULL, ends = NULL, out = NULL, status = NULL;
    WGPUCommandEncoder enc = NULL;
    r = host_upload(ctx, input, n * es, &in);
    if (r == WGS_OK) r = host_upload(ctx, offsets, (csr ? n_segments + 1 : n_segments) * 4, &begins);
    if (r == WGS_OK && !csr) r = host_upload(ctx, end_offsets, n_segments * 4, &ends);
    if (r == WGS_OK) r = host_upload(ctx, NULL, n_segments * result_bytes, &out);
    if (r == WGS_OK) r = host_upload(ctx, NULL, 4, &status);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_segmented_reduce_args a = {.input = in, .n = n, .n_segments = n_segments, .output = out,
                                       .status = status};
        if (csr) a.offsets = begins;
        else a.begin_offsets = begins, a.end_offsets = ends;
        r = wgs_segmented_reduce_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = s;
    }
    uint32_t st = 0;
    if (r == WGS_OK) r = wgs_buffer_read(ctx, status, 0, &st, 4);
    if (r == WGS_OK && st)
        r = wgs__fail(ctx, (wgs_result)st, "the segment offsets break the rules (wgscan.h, Segmented reduce)");
    if (r == WGS_OK && n_segments) r = wgs_buffer_read(ctx, out, 0, output, n_segments * result_bytes);
    WGPUBuffer all[] = {in, begins, ends, out, status};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_segmented_reduce_plan_destroy(plan);
    return r;
}

wgs_result wgs_scan_by_key_host(wgs_context *ctx, const wgs_scan_by_key_plan_desc *desc, const void *heads,
                                const void *input, uint64_t n, void *output) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc || (n && (!heads || !input || !output)), WGS_ERROR_INVALID_ARGUMENT,
                "desc, and for n > 0 heads, input and output, are required");
    wgs_scan_by_key_plan_desc d = *desc;
    if (d.capacity < n) d.capacity = n;
    wgs_scan_by_key_plan *plan = NULL;
    wgs_result r = wgs_scan_by_key_plan_create(ctx, &d, &plan);
    if (r != WGS_OK) return r;
    const int flags = d.heads == WGS_HEADS_FLAGS;
    const uint64_t bytes = n * wgs__scan_by_key_plan_element_size(plan);
    WGPUBuffer h = NULL, in = NULL, out = NULL;
    WGPUCommandEncoder enc = NULL;
    r = host_upload(ctx, heads, flags ? n : n * 4, &h);
    if (r == WGS_OK) r = host_upload(ctx, input, bytes, &in);
    if (r == WGS_OK) r = host_upload(ctx, NULL, bytes, &out);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_scan_by_key_args a = {.input = in, .output = out, .n = n};
        if (flags) a.flags = h;
        else a.keys = h;
        r = wgs_scan_by_key_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = s;
    }
    if (r == WGS_OK && n) r = wgs_buffer_read(ctx, out, 0, output, bytes);
    WGPUBuffer all[] = {h, in, out};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_scan_by_key_plan_destroy(plan);
    return r;
}

wgs_result wgs_segmented_scan_host(wgs_context *ctx, const wgs_segmented_scan_plan_desc *desc, const void *input,
                                   const uint32_t *offsets, const uint32_t *end_offsets, uint64_t n,
                                   uint64_t n_segments, void *output) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc, WGS_ERROR_INVALID_ARGUMENT, "desc is required");
    const int csr = desc->segments != WGS_SEGMENTS_BEGIN_END;
    WGS_FAIL_IF(ctx, (n && (!input || !output)) || (csr && !offsets) || (!csr && n_segments && (!offsets || !end_offsets)),
                WGS_ERROR_INVALID_ARGUMENT, "input, output, offsets (and end_offsets for BEGIN_END) are required");
    wgs_segmented_scan_plan_desc d = *desc;
    if (d.capacity < n) d.capacity = n;
    if (d.segment_capacity < n_segments) d.segment_capacity = n_segments;
    wgs_segmented_scan_plan *plan = NULL;
    wgs_result r = wgs_segmented_scan_plan_create(ctx, &d, &plan);
    if (r != WGS_OK) return r;
    const uint64_t bytes = n * wgs__segmented_scan_plan_element_size(plan);
    WGPUBuffer in = NULL, begins = NULL, ends = NULL, out = NULL, status = NULL;
    WGPUCommandEncoder enc = NULL;
    r = host_upload(ctx, input, bytes, &in);
    if (r == WGS_OK) r = host_upload(ctx, offsets, (csr ? n_segments + 1 : n_segments) * 4, &begins);
    if (r == WGS_OK && !csr) r = host_upload(ctx, end_offsets, n_segments * 4, &ends);
    if (r == WGS_OK) r = host_upload(ctx, NULL, bytes, &out);
    if (r == WGS_OK) r = host_upload(ctx, NULL, 4, &status);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_segmented_scan_args a = {.input = in, .output = out, .n = n, .n_segments = n_segments, .status = status};
        if (csr) a.offsets = begins;
        else a.begin_offsets = begins, a.end_offsets = ends;
        r = wgs_segmented_scan_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = s;
    }
    uint32_t st = 0;
    if (r == WGS_OK) r = wgs_buffer_read(ctx, status, 0, &st, 4);
    if (r == WGS_OK && st)
        r = wgs__fail(ctx, (wgs_result)st, "the segment offsets break the rules (wgscan.h, Segmented scan)");
    if (r == WGS_OK && n) r = wgs_buffer_read(ctx, out, 0, output, bytes);
    WGPUBuffer all[] = {in, begins, ends, out, status};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_segmented_scan_plan_destroy(plan);
    return r;
}

wgs_result wgs_reduce_by_key_host(wgs_context *ctx, const wgs_reduce_by_key_plan_desc *desc, const uint32_t *keys,
                                  const void *input, uint64_t n, uint32_t *unique_keys, void *aggregates,
                                  uint32_t *num_runs) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc || !num_runs || (n && (!keys || !input || !unique_keys || !aggregates)),
                WGS_ERROR_INVALID_ARGUMENT, "desc, num_runs, and for n > 0 keys, input, unique_keys and aggregates, "
                                            "are required");
    wgs_reduce_by_key_plan_desc d = *desc;
    if (d.capacity < n) d.capacity = n;
    wgs_reduce_by_key_plan *plan = NULL;
    wgs_result r = wgs_reduce_by_key_plan_create(ctx, &d, &plan);
    if (r != WGS_OK) return r;
    uint32_t es, result;
    wgs__reduce_by_key_plan_sizes(plan, &es, &result);
    const uint64_t bytes = n * es, result_bytes = result;
    WGPUBuffer kb = NULL, in = NULL, uk = NULL, agg = NULL, runs = NULL;
    WGPUCommandEncoder enc = NULL;
    r = host_upload(ctx, keys, n * 4, &kb);
    if (r == WGS_OK) r = host_upload(ctx, input, bytes, &in);
    if (r == WGS_OK) r = host_upload(ctx, NULL, n * 4, &uk);
    if (r == WGS_OK) r = host_upload(ctx, NULL, n * result_bytes, &agg);
    if (r == WGS_OK) r = host_upload(ctx, NULL, 4, &runs);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_reduce_by_key_args a = {.keys = kb, .input = in, .n = n, .unique_keys = uk, .aggregates = agg,
                                    .num_runs = runs};
        r = wgs_reduce_by_key_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = s;
    }
    if (r == WGS_OK) r = wgs_buffer_read(ctx, runs, 0, num_runs, 4);
    if (r == WGS_OK && *num_runs > n) r = wgs__fail(ctx, WGS_ERROR_GPU_INTERNAL, "%u runs of %llu elements", *num_runs,
                                                    (unsigned long long)n);
    if (r == WGS_OK && *num_runs) r = wgs_buffer_read(ctx, uk, 0, unique_keys, (uint64_t)*num_runs * 4);
    if (r == WGS_OK && *num_runs)
        r = wgs_buffer_read(ctx, agg, 0, aggregates, (uint64_t)*num_runs * result_bytes);
    WGPUBuffer all[] = {kb, in, uk, agg, runs};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_reduce_by_key_plan_destroy(plan);
    return r;
}

wgs_result wgs_histogram_host(wgs_context *ctx, const wgs_histogram_plan_desc *desc, const void *input,
                              uint64_t n, uint32_t *counts) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc || (!input && n) || !counts, WGS_ERROR_INVALID_ARGUMENT,
                "desc, input and counts are required");
    wgs_histogram_plan_desc d = *desc;
    if (d.capacity < n) d.capacity = n;
    wgs_histogram_plan *plan = NULL;
    wgs_result r = wgs_histogram_plan_create(ctx, &d, &plan);
    if (r != WGS_OK) return r;
    WGPUBuffer in = NULL, out = NULL;
    WGPUCommandEncoder enc = NULL;
    r = host_upload(ctx, input, n * 4, &in);
    if (r == WGS_OK) r = host_upload(ctx, NULL, 4ull * d.bins, &out);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_histogram_args a = {.input = in, .n = n, .output = out};
        r = wgs_histogram_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = s;
    }
    if (r == WGS_OK) r = wgs_buffer_read(ctx, out, 0, counts, 4ull * d.bins);
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, out);
    wgs_histogram_plan_destroy(plan);
    return r;
}

wgs_result wgs_alloc_host(wgs_context *ctx, const wgs_alloc_plan_desc *desc, const uint32_t *sizes,
                          uint64_t n, uint32_t arena_size, uint32_t *top, uint32_t *offsets) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc || !top || (n && (!sizes || !offsets)), WGS_ERROR_INVALID_ARGUMENT,
                "desc, top, sizes and offsets are required");
    wgs_alloc_plan_desc d = *desc;
    if (d.capacity < n) d.capacity = n;
    wgs_alloc_plan *plan = NULL;
    wgs_result r = wgs_alloc_plan_create(ctx, &d, &plan);
    if (r != WGS_OK) return r;
    WGPUBuffer sz = NULL, off = NULL, state = NULL;
    WGPUCommandEncoder enc = NULL;
    const uint32_t st[2] = {*top, 0};
    r = host_upload(ctx, sizes, n * 4, &sz);
    if (r == WGS_OK) r = host_upload(ctx, NULL, n * 4, &off);
    if (r == WGS_OK) r = host_upload(ctx, st, sizeof st, &state);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_alloc_args a = {.sizes = sz, .offsets = off, .state = state, .n = n, .arena_size = arena_size};
        r = wgs_alloc_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = s;
    }
    if (r == WGS_OK && n) r = wgs_buffer_read(ctx, off, 0, offsets, n * 4);
    if (r == WGS_OK) r = wgs_buffer_read(ctx, state, 0, top, 4);
    wgs_buffer_release(ctx, sz);
    wgs_buffer_release(ctx, off);
    wgs_buffer_release(ctx, state);
    wgs_alloc_plan_destroy(plan);
    return r;
}

wgs_result wgs_sort_host(wgs_context *ctx, const wgs_sort_plan_desc *desc, const void *keys, const void *values,
                         uint64_t n, void *keys_out, void *values_out) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc || (n && (!keys || !keys_out)), WGS_ERROR_INVALID_ARGUMENT,
                "desc, keys and keys_out are required");
    WGS_FAIL_IF(ctx, n && ((desc->payload == WGS_PAYLOAD_BUFFER && !values) ||
                           (desc->payload != WGS_PAYLOAD_NONE && !values_out)),
                WGS_ERROR_INVALID_ARGUMENT, "values (payload BUFFER) and values_out (BUFFER, INDEX) are required");
    wgs_sort_plan_desc d = *desc;
    d.capacity = n; /* the one n it sorts: DEFAULT chooses by it */
    wgs_sort_plan *plan = NULL;
    wgs_result r = wgs__sort_plan_create(ctx, &d, WGS__SORT_N_IS_CAPACITY, &plan);
    if (r != WGS_OK || n == 0) {
        wgs_sort_plan_destroy(plan);
        return r;
    }
    uint64_t kb = n * wgs_type_size(d.type ? d.type : WGS_TYPE_U32);
    uint64_t vb = d.payload == WGS_PAYLOAD_NONE ? 0 : n * (d.payload == WGS_PAYLOAD_BUFFER && d.value_bytes ? d.value_bytes : 4);
    WGPUBuffer kin = NULL, kout = NULL, vin = NULL, vout = NULL;
    WGPUCommandEncoder enc = NULL;
    r = host_upload(ctx, keys, kb, &kin);
    if (r == WGS_OK) r = host_upload(ctx, NULL, kb, &kout);
    if (r == WGS_OK && d.payload == WGS_PAYLOAD_BUFFER) r = host_upload(ctx, values, vb, &vin);
    if (r == WGS_OK && vb) r = host_upload(ctx, NULL, vb, &vout);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_sort_args a = {.keys_in = kin, .keys_out = kout, .values_in = vin, .values_out = vout, .n = n};
        r = wgs_sort_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = s;
    }
    if (r == WGS_OK) r = wgs_buffer_read(ctx, kout, 0, keys_out, kb);
    if (r == WGS_OK && vb) r = wgs_buffer_read(ctx, vout, 0, values_out, vb);
    WGPUBuffer all[] = {kin, kout, vin, vout};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_sort_plan_destroy(plan);
    return r;
}

wgs_result wgs_topk_host(wgs_context *ctx, const wgs_topk_plan_desc *desc, const void *keys, const uint32_t *values,
                         uint64_t n, uint32_t rows, uint32_t k, void *keys_out, uint32_t *values_out) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc || !keys || !keys_out, WGS_ERROR_INVALID_ARGUMENT, "desc, keys and keys_out are required");
    WGS_FAIL_IF(ctx, (desc->payload == WGS_PAYLOAD_BUFFER && !values) ||
                         (desc->payload != WGS_PAYLOAD_NONE && !values_out),
                WGS_ERROR_INVALID_ARGUMENT, "values (payload BUFFER) and values_out (BUFFER, INDEX) are required");
    /* The encode's own checks refuse these; the buffers' sizes need them sane first. */
    WGS_FAIL_IF(ctx, n == 0 || rows == 0 || k == 0 || k > n, WGS_ERROR_INVALID_ARGUMENT,
                "top-k needs n >= 1, rows >= 1 and 1 <= k <= n (n %llu, rows %u, k %u)", (unsigned long long)n, rows,
                k);
    wgs_topk_plan_desc d = *desc;
    if (d.capacity < n) d.capacity = n;
    if (d.row_capacity < rows) d.row_capacity = rows;
    if (d.k_capacity < k) d.k_capacity = k;
    wgs_topk_plan *plan = NULL;
    wgs_result r = wgs_topk_plan_create(ctx, &d, &plan);
    if (r != WGS_OK) return r;
    uint64_t in_bytes = n * rows * 4, out_bytes = (uint64_t)k * rows * 4;
    WGPUBuffer kin = NULL, kout = NULL, vin = NULL, vout = NULL;
    WGPUCommandEncoder enc = NULL;
    r = host_upload(ctx, keys, in_bytes, &kin);
    if (r == WGS_OK) r = host_upload(ctx, NULL, out_bytes, &kout);
    if (r == WGS_OK && d.payload == WGS_PAYLOAD_BUFFER) r = host_upload(ctx, values, in_bytes, &vin);
    if (r == WGS_OK && d.payload != WGS_PAYLOAD_NONE) r = host_upload(ctx, NULL, out_bytes, &vout);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_topk_args a = {.keys_in = kin, .keys_out = kout, .values_in = vin, .values_out = vout, .n = n,
                           .rows = rows, .k = k};
        r = wgs_topk_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = s;
    }
    if (r == WGS_OK) r = wgs_buffer_read(ctx, kout, 0, keys_out, out_bytes);
    if (r == WGS_OK && vout) r = wgs_buffer_read(ctx, vout, 0, values_out, out_bytes);
    WGPUBuffer all[] = {kin, kout, vin, vout};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_topk_plan_destroy(plan);
    return r;
}

wgs_result wgs_segmented_sort_host(wgs_context *ctx, const wgs_segmented_sort_plan_desc *desc, const void *keys,
                                   const void *values, const uint32_t *offsets, const uint32_t *end_offsets,
                                   uint64_t n, uint64_t n_segments, void *keys_out, void *values_out) {
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc, WGS_ERROR_INVALID_ARGUMENT, "desc is required");
    const int csr = desc->segments != WGS_SEGMENTS_BEGIN_END;
    WGS_FAIL_IF(ctx, (n && (!keys || !keys_out)) || (csr && !offsets) ||
                         (!csr && n_segments && (!offsets || !end_offsets)),
                WGS_ERROR_INVALID_ARGUMENT, "keys, keys_out, offsets (and end_offsets for BEGIN_END) are required");
    WGS_FAIL_IF(ctx, n && ((desc->payload == WGS_PAYLOAD_BUFFER && !values) ||
                           (desc->payload != WGS_PAYLOAD_NONE && !values_out)),
                WGS_ERROR_INVALID_ARGUMENT, "values (payload BUFFER) and values_out (BUFFER, INDEX) are required");
    wgs_segmented_sort_plan_desc d = *desc;
    if (d.capacity < n) d.capacity = n;
    if (d.segment_capacity < n_segments) d.segment_capacity = n_segments;
    wgs_segmented_sort_plan *plan = NULL;
    wgs_result r = wgs_segmented_sort_plan_create(ctx, &d, &plan);
    if (r != WGS_OK) return r;
    const uint64_t kb = n * wgs_type_size(d.type ? d.type : WGS_TYPE_U32);
    const uint64_t vb = d.payload == WGS_PAYLOAD_NONE ? 0
                        : n * (d.payload == WGS_PAYLOAD_BUFFER && d.value_bytes ? d.value_bytes : 4);
    WGPUBuffer kin = NULL, kout = NULL, vin = NULL, vout = NULL, begins = NULL, ends = NULL, status = NULL;
    WGPUCommandEncoder enc = NULL;
    /* The outputs start as the caller's arrays: places in no segment keep what they held. */
    r = host_upload(ctx, keys, kb, &kin);
    if (r == WGS_OK) r = host_upload(ctx, keys_out, kb, &kout);
    if (r == WGS_OK && d.payload == WGS_PAYLOAD_BUFFER) r = host_upload(ctx, values, vb, &vin);
    if (r == WGS_OK && d.payload != WGS_PAYLOAD_NONE) r = host_upload(ctx, vb ? values_out : NULL, vb, &vout);
    if (r == WGS_OK) r = host_upload(ctx, offsets, (csr ? n_segments + 1 : n_segments) * 4, &begins);
    if (r == WGS_OK && !csr) r = host_upload(ctx, end_offsets, n_segments * 4, &ends);
    if (r == WGS_OK) r = host_upload(ctx, NULL, 4, &status);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) {
        wgs_segmented_sort_args a = {.keys_in = kin, .keys_out = kout, .values_in = vin, .values_out = vout,
                                     .n = n, .n_segments = n_segments, .status = status};
        if (csr) a.offsets = begins;
        else a.begin_offsets = begins, a.end_offsets = ends;
        r = wgs_segmented_sort_encode(plan, enc, &a);
        wgs_result s = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = s;
    }
    uint32_t st = 0;
    if (r == WGS_OK) r = wgs_buffer_read(ctx, status, 0, &st, 4);
    if (r == WGS_OK && st)
        r = wgs__fail(ctx, (wgs_result)st, "the segments break the rules (wgscan.h, Segmented sort)");
    if (r == WGS_OK && kb) r = wgs_buffer_read(ctx, kout, 0, keys_out, kb);
    if (r == WGS_OK && vb) r = wgs_buffer_read(ctx, vout, 0, values_out, vb);
    WGPUBuffer all[] = {kin, kout, vin, vout, begins, ends, status};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_segmented_sort_plan_destroy(plan);
    return r;
}
