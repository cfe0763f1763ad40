/* SPDX-License-Identifier: MIT */
/*
 * Host transfers (wgs_buffer_write, wgs_buffer_read) through the staging rings: round
 * trips at the sizes around a chunk, at offsets and with ragged read tails, on shapes
 * small enough for the CPU driver (chunks of 64 KiB and 1 MiB, rings of 2 and 3 slots,
 * memcpy on 3 threads), the default shape, the old path, and the failures: a buffer the
 * copy may not touch, a destroyed buffer, another context's buffer, a lost device, waits
 * that give up, shapes no device runs.
 */
#include "test_buffers.h"
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

static const WGPUBufferUsage STORAGE_RW = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;

static uint32_t rng_state = 12345;
static void fill(unsigned char *p, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 17;
        rng_state ^= rng_state << 5;
        p[i] = (unsigned char)rng_state;
    }
}

/* A context with the given staging shape (each call replaces the last one's). */
static wgs_context *shaped(uint64_t chunk, uint32_t slots, uint32_t threads, uint64_t direct_max, int legacy,
                           double wait_s) {
    static wgs_context *ctx;
    static wgs_experimental e;
    wgs_context_destroy(ctx);
    ctx = NULL;
    if (!chunk && !slots && !threads && !direct_max && !legacy && !wait_s) return NULL; /* the last call */
    e = (wgs_experimental){.transfer_chunk_bytes = chunk, .transfer_slots = slots, .transfer_threads = threads,
                           .transfer_direct_max = direct_max, .transfer_legacy = legacy};
    wgs_context_desc d = {.experimental = &e, .wait_timeout_s = wait_s};
    wgs_result r = wgs_context_create(&d, &ctx);
    if (r != WGS_OK) test_fail(__FILE__, __LINE__, "no context: %s", wgs_result_name(r));
    return ctx;
}

/* Writes [off, off + size) of a buffer and of its host mirror with fresh bytes, reads the
 * range back with tails of 0..3 bytes cut (guard bytes past each read must stay) and
 * the whole buffer (nothing outside the range moved). */
static void round_trip(wgs_context *ctx, WGPUBuffer b, unsigned char *mirror, uint64_t bsize, uint64_t off,
                       uint64_t size) {
    unsigned char *src = malloc(size + 1), *got = malloc(bsize + 8);
    if (!src || !got) {
        test_fail(__FILE__, __LINE__, "out of host memory");
        free(src), free(got);
        return;
    }
    fill(src, size);
    wgs_result r = wgs_buffer_write(ctx, b, off, src, size);
    CHECK_RESULT(r, WGS_OK);
    if (r == WGS_OK) memcpy(mirror + off, src, size);
    for (uint64_t cut = 0; cut < 4 && cut <= size; cut++) {
        uint64_t n = size - cut;
        memset(got, 0xA5, n + 8);
        CHECK_RESULT(wgs_buffer_read(ctx, b, off, got, n), WGS_OK);
        if (memcmp(got, mirror + off, n) != 0)
            test_fail(__FILE__, __LINE__, "read of %llu bytes at %llu differs", (unsigned long long)n,
                      (unsigned long long)off);
        for (int g = 0; g < 8; g++) CHECK(got[n + g] == 0xA5);
        if (size < 64) break; /* the small sizes: one read is enough */
    }
    CHECK_RESULT(wgs_buffer_read(ctx, b, 0, got, bsize), WGS_OK);
    if (memcmp(got, mirror, bsize) != 0)
        test_fail(__FILE__, __LINE__, "write of %llu bytes at %llu changed the buffer elsewhere",
                  (unsigned long long)size, (unsigned long long)off);
    free(src);
    free(got);
}

/* The sizes around chunk c, at offsets 0, 4 and c - 4, and more chunks than slots. */
static void boundaries(wgs_context *ctx, uint64_t c) {
    const uint64_t bsize = 8 * c + 4096;
    WGPUBuffer b = test_buffer(ctx, bsize);
    unsigned char *mirror = calloc(1, bsize);
    if (!b || !mirror) {
        free(mirror);
        wgs_buffer_release(ctx, b);
        return;
    }
    CHECK_RESULT(wgs_buffer_write(ctx, b, 0, mirror, bsize), WGS_OK); /* zeros, as the mirror */
    const uint64_t sizes[] = {0, 4, c - 4, c, c + 4, 3 * c + 12, 7 * c + 100};
    const uint64_t offsets[] = {0, 4, c - 4};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t j = 0; j < sizeof offsets / sizeof *offsets; j++)
            if (offsets[j] + sizes[i] <= bsize) round_trip(ctx, b, mirror, bsize, offsets[j], sizes[i]);
    /* Writes in a row without reads between: each takes the next slot of the ring, and a
     * slot is reused only after its copy is done. */
    unsigned char *src = malloc(2 * c);
    if (src) {
        for (int k = 0; k < 9; k++) {
            uint64_t off = (uint64_t)k * (c / 2 + 8), size = c + 4 * (uint64_t)k;
            fill(src, size);
            CHECK_RESULT(wgs_buffer_write(ctx, b, off, src, size), WGS_OK);
            memcpy(mirror + off, src, size);
        }
        unsigned char *got = malloc(bsize);
        CHECK(got != NULL);
        if (got) {
            CHECK_RESULT(wgs_buffer_read(ctx, b, 0, got, bsize), WGS_OK);
            CHECK(memcmp(got, mirror, bsize) == 0);
        }
        free(got);
    }
    free(src);
    free(mirror);
    wgs_buffer_release(ctx, b);
}

TEST(transfers_chunk_boundaries_64k_3_slots) {
    wgs_context *ctx = shaped(64 << 10, 3, 1, 1, 0, 0);
    if (ctx) boundaries(ctx, 64 << 10);
    shaped(0, 0, 0, 0, 0, 0);
}

/* 1 MiB chunks on 3 memcpy threads (parts of about 340 KiB), a ring of 2. */
TEST(transfers_chunk_boundaries_1m_2_slots_3_threads) {
    wgs_context *ctx = shaped(1 << 20, 2, 3, 1, 0, 0);
    if (ctx) boundaries(ctx, 1 << 20);
    shaped(0, 0, 0, 0, 0, 0);
}

/* The default shape: QueueWriteBuffer up to 2 MiB, staged above, chunks of 32 MiB. */
TEST(transfers_default_shape) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t chunk = 32ull << 20, bsize = chunk + (1 << 20);
    WGPUBuffer b = test_buffer(ctx, bsize);
    unsigned char *mirror = calloc(1, bsize);
    if (b && mirror) {
        CHECK_RESULT(wgs_buffer_write(ctx, b, 0, mirror, bsize), WGS_OK);
        const uint64_t sizes[] = {4, (1 << 20) + 4, 2 << 20, (2 << 20) + 4, chunk - 4, chunk + 4};
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) round_trip(ctx, b, mirror, bsize, 8, sizes[i]);
    }
    free(mirror);
    wgs_buffer_release(ctx, b);
}

/* The old path, kept for comparison in the benchmark, stays correct. */
TEST(transfers_legacy_path) {
    wgs_context *ctx = shaped(0, 0, 0, 0, 1, 0);
    if (ctx) {
        const uint64_t bsize = (3ull << 20) + 64;
        WGPUBuffer b = test_buffer(ctx, bsize);
        unsigned char *mirror = calloc(1, bsize);
        if (b && mirror) {
            CHECK_RESULT(wgs_buffer_write(ctx, b, 0, mirror, bsize), WGS_OK);
            round_trip(ctx, b, mirror, bsize, 4, 12);
            round_trip(ctx, b, mirror, bsize, 60, 3ull << 20);
        }
        free(mirror);
        wgs_buffer_release(ctx, b);
    }
    shaped(0, 0, 0, 0, 0, 0);
}

/* Copies WebGPU refuses fail with their code, on the direct and the staged path, and the
 * context keeps working. */
TEST(transfers_refused_copies) {
    wgs_context *ctx = shaped(64 << 10, 2, 2, 64 << 10, 0, 0);
    if (!ctx) return;
    const uint64_t big = 300 << 10; /* five chunks, staged (direct up to 64 KiB) */
    unsigned char *host = calloc(1, big);
    WGPUBuffer nodst = NULL, nosrc = NULL, ok = test_buffer(ctx, big);
    CHECK_RESULT(wgs_buffer_create(ctx, big, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, &nodst), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, big, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst, &nosrc), WGS_OK);
    if (host && nodst && nosrc && ok) {
        CHECK_RESULT(wgs_buffer_write(ctx, nodst, 0, host, 16), WGS_ERROR_GPU_VALIDATION);
        CHECK_RESULT(wgs_buffer_write(ctx, nodst, 0, host, big), WGS_ERROR_GPU_VALIDATION);
        CHECK(strstr(wgs_context_last_error(ctx), "writing a buffer") != NULL);
        CHECK_RESULT(wgs_buffer_read(ctx, nosrc, 0, host, big), WGS_ERROR_BUFFER_USAGE);
        CHECK_RESULT(wgs_buffer_write(ctx, ok, 8, host, big), WGS_ERROR_BUFFER_TOO_SMALL);
        CHECK_RESULT(wgs_buffer_write(ctx, ok, 2, host, 8), WGS_ERROR_MISALIGNED_OFFSET);
        CHECK_RESULT(wgs_buffer_read(ctx, ok, 6, host, 8), WGS_ERROR_MISALIGNED_OFFSET);
        CHECK_RESULT(wgs_buffer_write(ctx, ok, 0, NULL, 8), WGS_ERROR_INVALID_ARGUMENT);
        CHECK_RESULT(wgs_buffer_write(ctx, ok, 0, NULL, 0), WGS_OK); /* nothing to write */
        CHECK_RESULT(wgs_buffer_read(ctx, ok, 0, host, 0), WGS_OK);
        /* A destroyed buffer, both ways. */
        typedef void (*destroy_fn)(WGPUBuffer);
        destroy_fn destroy = (destroy_fn)wgs_context_get_proc(ctx, "wgpuBufferDestroy");
        WGPUBuffer gone = test_buffer(ctx, big);
        if (destroy && gone) {
            destroy(gone);
            CHECK_RESULT(wgs_buffer_write(ctx, gone, 0, host, big), WGS_ERROR_GPU_VALIDATION);
            CHECK_RESULT(wgs_buffer_read(ctx, gone, 0, host, big), WGS_ERROR_GPU_VALIDATION);
            CHECK(strstr(wgs_context_last_error(ctx), "reading a buffer") != NULL);
        }
        wgs_buffer_release(ctx, gone);
        /* Still usable: a staged round trip. */
        unsigned char *mirror = calloc(1, big);
        if (mirror) {
            CHECK_RESULT(wgs_buffer_write(ctx, ok, 0, mirror, big), WGS_OK);
            round_trip(ctx, ok, mirror, big, 4, big - 8);
        }
        free(mirror);
    }
    free(host);
    wgs_buffer_release(ctx, nodst);
    wgs_buffer_release(ctx, nosrc);
    wgs_buffer_release(ctx, ok);
    shaped(0, 0, 0, 0, 0, 0);
}

/* A buffer of another context: WGS_ERROR_WRONG_CONTEXT on the staged path too. */
TEST(transfers_wrong_context) {
    wgs_context *mine = shaped(64 << 10, 2, 1, 1, 0, 0), *theirs = test_context();
    if (!mine || !theirs) return;
    const uint64_t n = 200 << 10;
    unsigned char *host = calloc(1, n);
    WGPUBuffer b = test_buffer(theirs, n);
    if (host && b) {
        CHECK_RESULT(wgs_buffer_write(mine, b, 0, host, n), WGS_ERROR_WRONG_CONTEXT);
        CHECK_RESULT(wgs_buffer_read(mine, b, 0, host, n), WGS_ERROR_WRONG_CONTEXT);
        CHECK_RESULT(wgs_buffer_write(theirs, b, 0, host, n), WGS_OK);
    }
    free(host);
    wgs_buffer_release(theirs, b);
    shaped(0, 0, 0, 0, 0, 0);
}

/* Waits that give up (a limit of 1 µs, behind GPU work that takes longer) return WGS_ERROR_TIMEOUT or succeed, never crash or leave a
 * callback a dead frame; a ring given up on is made again (run under ASan). */
TEST(transfers_wait_timeouts) {
    wgs_context *ctx = shaped(64 << 10, 2, 1, 1, 0, 1e-6);
    if (!ctx) return;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    const uint64_t n = 1 << 20, heavy = 32ull << 20;
    unsigned char *host = calloc(1, n);
    WGPUBuffer b = test_buffer(ctx, n), h0 = NULL, h1 = NULL;
    CHECK_RESULT(wgs_buffer_create(ctx, heavy, STORAGE_RW, &h0), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, heavy, STORAGE_RW, &h1), WGS_OK);
    int timeouts = 0, calls = 0;
    for (int k = 0; host && b && h0 && h1 && k < 2; k++) {
        WGPUCommandEncoder enc;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        for (int c = 0; c < 4; c++)
            CHECK_RESULT(wgs_copy_encode(ctx, enc, &(wgs_copy_args){.src = c % 2 ? h1 : h0, .dst = c % 2 ? h0 : h1,
                                                                     .bytes = heavy}),
                         WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        for (int t = 0; t < 2; t++) {
            wgs_result w = wgs_buffer_write(ctx, b, 0, host, n);
            wgs_result r = wgs_buffer_read(ctx, b, 0, host, n);
            CHECK(w == WGS_OK || w == WGS_ERROR_TIMEOUT);
            CHECK(r == WGS_OK || r == WGS_ERROR_TIMEOUT);
            timeouts += (w == WGS_ERROR_TIMEOUT) + (r == WGS_ERROR_TIMEOUT);
            calls += 2;
            if (r == WGS_ERROR_TIMEOUT) CHECK(strstr(wgs_context_last_error(ctx), "did not finish within") != NULL);
        }
    }
    printf("    %d of %d transfers timed out\n", timeouts, calls);
    /* A CPU driver takes far longer than 100 ms for these copies. */
    if (strcmp(info.adapter_type, "cpu") == 0) CHECK(timeouts > 0);
    free(host);
    wgs_buffer_release(ctx, b);
    wgs_buffer_release(ctx, h0);
    wgs_buffer_release(ctx, h1);
    shaped(0, 0, 0, 0, 0, 0); /* abandoned map callbacks run here at the latest */
}

/* A device lost with uploads still in flight (the ring's slots waiting to be mapped):
 * the next transfers say so, and the context goes without a crash. */
TEST(transfers_device_lost) {
    wgs_context *ctx = shaped(64 << 10, 3, 1, 1, 0, 0);
    if (!ctx) return;
    const uint64_t n = 512 << 10;
    unsigned char *host = calloc(1, n);
    WGPUBuffer b = test_buffer(ctx, n);
    typedef void (*destroy_fn)(WGPUDevice);
    destroy_fn destroy = (destroy_fn)wgs_context_get_proc(ctx, "wgpuDeviceDestroy");
    CHECK(destroy != NULL);
    if (host && b && destroy) {
        CHECK_RESULT(wgs_buffer_write(ctx, b, 0, host, n), WGS_OK);
        destroy(wgs_context_device(ctx));
        CHECK_RESULT(wgs_buffer_write(ctx, b, 0, host, n), WGS_ERROR_DEVICE_LOST);
        CHECK_RESULT(wgs_buffer_read(ctx, b, 0, host, n), WGS_ERROR_DEVICE_LOST);
    }
    free(host);
    wgs_buffer_release(ctx, b);
    shaped(0, 0, 0, 0, 0, 0);
}

/* Shapes no device runs are refused when the context is made. */
TEST(transfers_bad_shapes) {
    const wgs_experimental bad[] = {{.transfer_chunk_bytes = 1000},
                                    {.transfer_chunk_bytes = (1ull << 30) + 65536},
                                    {.transfer_slots = 17},
                                    {.transfer_threads = 100}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        wgs_context_desc d = {.experimental = &bad[i]};
        wgs_context *ctx = (wgs_context *)1;
        CHECK_RESULT(wgs_context_create(&d, &ctx), WGS_ERROR_INVALID_ARGUMENT);
        CHECK(ctx == NULL);
    }
}
