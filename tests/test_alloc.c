/* SPDX-License-Identifier: MIT */
/* The bump allocator: scan version against a sequential CPU allocator (same offsets,
 * same failures, same top); atomic version by its guarantees (disjoint blocks that tile
 * the served range exactly, failures only after one that could not fit); state kept
 * across calls; bad inputs. */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

typedef struct served {
    uint32_t offset, size;
} served;

static int by_offset(const void *a, const void *b) {
    const served *x = a, *y = b;
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    return x->size < y->size ? -1 : x->size > y->size; /* empty blocks first */
}

/* gpu_count >= 0: n is the bound and the number of requests (clamped) comes from a GPU
 * buffer; offsets past them must stay as they were. */
static void run_calls_count(wgs_alloc_algorithm algo, uint64_t n, uint32_t arena, int calls, int64_t gpu_count) {
    const uint64_t m = gpu_count >= 0 && (uint64_t)gpu_count < n ? (uint64_t)gpu_count : n;
    WGPUBuffer bn = NULL;
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_alloc_plan_desc d = {.algorithm = algo, .capacity = n};
    wgs_alloc_plan *plan = NULL;
    CHECK_RESULT(wgs_alloc_plan_create(ctx, &d, &plan), WGS_OK);
    uint32_t *sizes = malloc(n * 4 + 4), *got = malloc(n * 4 + 4);
    served *blocks = malloc(n * sizeof *blocks + 1);
    WGPUBuffer bs = NULL, bo = test_buffer(ctx, n * 4), bstate = test_buffer(ctx, 8);
    uint32_t top = 0;
    CHECK_RESULT(wgs_buffer_write(ctx, bstate, 0, &top, 4), WGS_OK);
    if (gpu_count >= 0) bn = test_count_buffer(ctx, (uint32_t)gpu_count, 4);
    for (int call = 0; plan && sizes && got && blocks && call < calls; call++) {
        ref_fill_random(sizes, WGS_TYPE_U32, WGS_OP_ADD, n, (uint64_t)call * 7 + n);
        for (uint64_t i = 0; i < n; i++) sizes[i] %= 97; /* 0..96, zero-sized requests too */
        wgs_buffer_release(ctx, bs);
        bs = test_upload(ctx, sizes, n * 4);
        memset(got, 0xC3, n * 4);
        CHECK_RESULT(wgs_buffer_write(ctx, bo, 0, got, n * 4), WGS_OK);
        WGPUCommandEncoder enc;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        wgs_alloc_args a = {.sizes = bs, .offsets = bo, .state = bstate, .n = n, .arena_size = arena, .n_buffer = bn,
                            .n_offset = 4};
        CHECK_RESULT(wgs_alloc_encode(plan, enc, &a), WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        uint32_t new_top = 0;
        if (!test_download(ctx, bo, got, n * 4) || !test_download(ctx, bstate, &new_top, 4)) break;
        for (uint64_t i = m; i < n; i++)
            if (got[i] != 0xC3C3C3C3u) {
                test_fail(__FILE__, __LINE__, "request %llu past the count of %llu written", (unsigned long long)i,
                          (unsigned long long)m);
                break;
            }
        if (algo == WGS_ALLOC_SCAN) {
            uint32_t t = top;
            int full = 0;
            for (uint64_t i = 0; i < m; i++) {
                uint32_t want = WGS_ALLOC_FAILED;
                if (!full && sizes[i] <= arena - t) {
                    want = t;
                    t += sizes[i];
                } else {
                    full = 1;
                }
                if (got[i] != want) {
                    test_fail(__FILE__, __LINE__, "scan alloc call %d request %llu: offset %u, want %u", call,
                              (unsigned long long)i, got[i], want);
                    break;
                }
            }
            CHECK(new_top == t);
        } else {
            uint64_t k = 0, sum = 0;
            int failed = 0, first_failure_seen = 0;
            for (uint64_t i = 0; i < m; i++) {
                if (got[i] == WGS_ALLOC_FAILED) {
                    /* the first failure in the adds' order did not fit what was left */
                    failed = 1;
                    first_failure_seen |= sizes[i] > arena - new_top;
                    continue;
                }
                blocks[k++] = (served){got[i], sizes[i]};
                sum += sizes[i];
            }
            qsort(blocks, k, sizeof *blocks, by_offset);
            uint64_t at = top;
            for (uint64_t i = 0; i < k; i++) {
                if (blocks[i].offset != at) {
                    test_fail(__FILE__, __LINE__, "atomic blocks do not tile [%u, %u): block at %u, expected %llu",
                              top, new_top, blocks[i].offset, (unsigned long long)at);
                    break;
                }
                at += blocks[i].size;
            }
            CHECK(top + sum == new_top && new_top <= arena);
            CHECK(!failed || first_failure_seen);
        }
        top = new_top;
    }
    wgs_buffer_release(ctx, bs);
    wgs_buffer_release(ctx, bo);
    wgs_buffer_release(ctx, bstate);
    wgs_buffer_release(ctx, bn);
    free(sizes), free(got), free(blocks);
    wgs_alloc_plan_destroy(plan);
}

static void run_calls(wgs_alloc_algorithm algo, uint64_t n, uint32_t arena, int calls) {
    run_calls_count(algo, n, arena, calls, -1);
}

/* The number of requests from a GPU buffer: both algorithms, none, one, a workgroup's
 * edges, the bound, above it; the arena filling up within the counted requests. */
TEST(alloc_count_from_gpu) {
    const int64_t counts[] = {0, 1, 63, 65, 3000, 4097, 9000};
    for (int algo = WGS_ALLOC_SCAN; algo <= WGS_ALLOC_ATOMIC; algo++)
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
            run_calls_count((wgs_alloc_algorithm)algo, 4097, i == 4 ? 100000 : 1u << 30, 2, counts[i]);
}

TEST(alloc_scan_in_order) {
    run_calls(WGS_ALLOC_SCAN, 1, 1000, 3);
    run_calls(WGS_ALLOC_SCAN, 4097, 1u << 30, 2);
    run_calls(WGS_ALLOC_SCAN, 100003, 3000000, 3); /* the arena fills up in the second call */
}

TEST(alloc_atomic_disjoint) {
    run_calls(WGS_ALLOC_ATOMIC, 1, 1000, 3);
    run_calls(WGS_ALLOC_ATOMIC, 4097, 1u << 30, 2);
    run_calls(WGS_ALLOC_ATOMIC, 100003, 3000000, 3);
}

TEST(alloc_bad_input) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_alloc_plan *plan = NULL;
    wgs_alloc_plan_desc d = {.algorithm = (wgs_alloc_algorithm)7, .capacity = 10};
    CHECK_RESULT(wgs_alloc_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    d.algorithm = WGS_ALLOC_ATOMIC;
    CHECK_RESULT(wgs_alloc_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    WGPUBuffer s = test_buffer(ctx, 40), o = test_buffer(ctx, 40), st = test_buffer(ctx, 8);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_alloc_args a = {.sizes = s, .offsets = o, .state = st, .n = 11, .arena_size = 100};
    CHECK_RESULT(wgs_alloc_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a.n = 10;
    a.state = o;
    CHECK_RESULT(wgs_alloc_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a.state = NULL;
    CHECK_RESULT(wgs_alloc_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    wgs_buffer_release(ctx, s);
    wgs_buffer_release(ctx, o);
    wgs_buffer_release(ctx, st);
    wgs_alloc_plan_destroy(plan);
}

/* The host helper: the scan version against a sequential CPU allocator, from a top that
 * is not zero, until the arena fills; n = 0 leaves the top alone. */
TEST(alloc_host) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { N = 777 };
    uint32_t sizes[N], got[N], want[N];
    ref_fill_random(sizes, WGS_TYPE_U32, WGS_OP_ADD, N, 5);
    const uint32_t arena = 30000, start = 123;
    uint32_t top = start, cpu_top = start;
    int full = 0;
    for (int i = 0; i < N; i++) {
        sizes[i] %= 80;
        full = full || sizes[i] > arena - cpu_top;
        want[i] = full ? WGS_ALLOC_FAILED : cpu_top;
        if (!full) cpu_top += sizes[i];
    }
    CHECK(full); /* the case covers failures */
    CHECK_RESULT(wgs_alloc_host(ctx, &(wgs_alloc_plan_desc){0}, sizes, N, arena, &top, got), WGS_OK);
    CHECK(memcmp(got, want, sizeof got) == 0);
    CHECK(top == cpu_top);
    CHECK_RESULT(wgs_alloc_host(ctx, &(wgs_alloc_plan_desc){0}, NULL, 0, arena, &top, NULL), WGS_OK);
    CHECK(top == cpu_top);
    CHECK_RESULT(wgs_alloc_host(ctx, &(wgs_alloc_plan_desc){0}, sizes, N, arena, NULL, got),
                 WGS_ERROR_INVALID_ARGUMENT);
}

/* Allocations of the scan version, hundreds into one encoder: each records its own
 * parameters and then a scan, whose parameters may need a fresh parameter ring after
 * the allocation's record went into the full one. Every allocation must still read its
 * own record (the top after them all says so). A fresh context, so that the ring is
 * known to start empty; one atomic allocation first puts the allocations' records
 * at odd places, where the scan's record is the one that finds the ring full. */
TEST(alloc_many_one_submit) {
    wgs_context *ctx = NULL;
    CHECK_RESULT(wgs_context_create(NULL, &ctx), WGS_OK);
    if (!ctx) return;
    enum { CALLS = 600, N = 5 };
    wgs_alloc_plan_desc ds = {.algorithm = WGS_ALLOC_SCAN, .capacity = N}, da = {.algorithm = WGS_ALLOC_ATOMIC, .capacity = N};
    wgs_alloc_plan *scan = NULL, *atomic = NULL;
    CHECK_RESULT(wgs_alloc_plan_create(ctx, &ds, &scan), WGS_OK);
    CHECK_RESULT(wgs_alloc_plan_create(ctx, &da, &atomic), WGS_OK);
    const uint32_t sizes[N] = {1, 2, 3, 4, 5}, none = 0; /* 15 a call */
    WGPUBuffer bs = test_upload(ctx, sizes, sizeof sizes), bo = test_buffer(ctx, sizeof sizes),
               bstate = test_buffer(ctx, 8);
    WGPUCommandEncoder enc = NULL;
    if (scan && atomic && bs && bo && bstate && wgs_encoder_create(ctx, &enc) == WGS_OK) {
        CHECK_RESULT(wgs_buffer_write(ctx, bstate, 0, &none, 4), WGS_OK);
        wgs_alloc_args a = {.sizes = bs, .offsets = bo, .state = bstate, .n = N, .arena_size = 1u << 30};
        CHECK_RESULT(wgs_alloc_encode(atomic, enc, &a), WGS_OK);
        for (int call = 0; call < CALLS; call++) CHECK_RESULT(wgs_alloc_encode(scan, enc, &a), WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        uint32_t top = 0, got[N];
        if (test_download(ctx, bstate, &top, 4) && test_download(ctx, bo, got, sizeof got)) {
            if (top != 15u * (CALLS + 1))
                test_fail(__FILE__, __LINE__, "top %u after %d allocations of 15, expected %u", top, CALLS + 1,
                          15u * (CALLS + 1));
            for (int i = 0; i < N; i++) CHECK(got[i] == 15u * CALLS + (uint32_t)(i * (i + 1) / 2));
        }
    }
    wgs_buffer_release(ctx, bs);
    wgs_buffer_release(ctx, bo);
    wgs_buffer_release(ctx, bstate);
    wgs_alloc_plan_destroy(scan);
    wgs_alloc_plan_destroy(atomic);
    wgs_context_destroy(ctx);
}
