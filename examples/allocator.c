/* SPDX-License-Identifier: MIT */
/*
 * allocator: a GPU slot allocator, the first seed article's use of scan for memory.
 *
 * Frame after frame, a batch of requests of varying sizes (say, vertex ranges for
 * meshes spawned this frame) asks for blocks of one arena. Two allocators serve them:
 *   scan    offsets by an exclusive scan of the sizes: blocks in request order, the
 *           same every run; served up to the first request that does not fit
 *   atomic  each request bumps the top with one fetch-add: blocks in no particular
 *           order; served up to the first request (in the adds' order) that does not fit
 * The program checks each frame: the scan allocator against a sequential CPU allocator
 * exactly; the atomic one by its guarantees (disjoint blocks tiling the served range,
 * failures only after a request that could not fit).
 *
 *   allocator [--requests N] [--frames F]
 */
#include "example.h"

static const char *example_name = "allocator";

#include <stdlib.h>
#include <string.h>

typedef struct block {
    uint32_t offset, size;
} block;

static int by_offset(const void *a, const void *b) {
    const block *x = a, *y = b;
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    return x->size < y->size ? -1 : x->size > y->size;
}

/* 1 when the frame's offsets obey the allocator's guarantees (top: before, new_top: after). */
static int check_frame(wgs_alloc_algorithm algo, const uint32_t *sizes, const uint32_t *offsets, uint64_t n,
                       uint32_t top, uint32_t new_top, uint32_t arena, block *scratch, uint64_t *served) {
    uint64_t k = 0;
    if (algo == WGS_ALLOC_SCAN) {
        uint32_t t = top;
        int full = 0;
        for (uint64_t i = 0; i < n; i++) {
            uint32_t want = WGS_ALLOC_FAILED;
            if (!full && sizes[i] <= arena - t) want = t, t += sizes[i], k++;
            else full = 1;
            if (offsets[i] != want) return 0;
        }
        *served = k;
        return new_top == t;
    }
    int failed = 0, first_failure = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (offsets[i] == WGS_ALLOC_FAILED) { /* the first failure did not fit what was left */
            failed = 1;
            first_failure |= sizes[i] > arena - new_top;
            continue;
        }
        scratch[k++] = (block){offsets[i], sizes[i]};
    }
    qsort(scratch, k, sizeof *scratch, by_offset);
    uint64_t at = top;
    for (uint64_t i = 0; i < k; i++) {
        if (scratch[i].offset != at) return 0;
        at += scratch[i].size;
    }
    *served = k;
    return at == new_top && new_top <= arena && (!failed || first_failure);
}

int main(int argc, char **argv) {
    uint64_t n = 100000, frames_opt = 8;
    const example_option opts[] = {{"--requests", &n, 1, 1ull << 30}, {"--frames", &frames_opt, 1, 1000}};
    int rc = example_options(argc, argv,
                             "usage: allocator [--requests N (default 100000)] [--frames F (1..1000, default 8)]\n",
                             opts, 2);
    if (rc >= 0) return rc;
    const int frames = (int)frames_opt;
    wgs_context *ctx = NULL;
    if (wgs_context_create(&(wgs_context_desc){0}, &ctx) != WGS_OK) {
        fprintf(stderr, "allocator: no WebGPU device\n");
        return 3;
    }
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    /* Sizes 1..256, mean ~128: the arena holds about six frames. */
    const uint32_t arena = (uint32_t)(n * 128 * 6 > 0xF0000000u ? 0xF0000000u : n * 128 * 6);
    uint32_t *sizes = malloc(n * 4), *offsets = malloc(n * 4);
    block *scratch = malloc(n * sizeof *scratch);
    if (!sizes || !offsets || !scratch) return 2;
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer bsizes, boffsets, bstate;
    CHECKED(wgs_buffer_create(ctx, n * 4, usage, &bsizes));
    CHECKED(wgs_buffer_create(ctx, n * 4, usage, &boffsets));
    CHECKED(wgs_buffer_create(ctx, 8, usage, &bstate));
    printf("allocator: %llu requests a frame, arena of %u units, on %s\n", (unsigned long long)n, arena, info.device);
    int bad = 0;
    for (int v = 0; v < 2 && !bad; v++) {
        wgs_alloc_algorithm algo = v == 0 ? WGS_ALLOC_SCAN : WGS_ALLOC_ATOMIC;
        wgs_alloc_plan *plan = NULL;
        CHECKED(wgs_alloc_plan_create(ctx, &(wgs_alloc_plan_desc){.algorithm = algo, .capacity = n,
                                                                  .label = "allocator"}, &plan));
        uint32_t top = 0;
        CHECKED(wgs_buffer_write(ctx, bstate, 0, &top, 4));
        uint64_t seed = 12345;
        for (int f = 0; f < frames && !bad; f++) {
            for (uint64_t i = 0; i < n; i++) {
                sizes[i] = (uint32_t)(example_random(&seed) >> 33) % 256 + 1;
            }
            CHECKED(wgs_buffer_write(ctx, bsizes, 0, sizes, n * 4));
            double t0 = example_now();
            WGPUCommandEncoder enc;
            CHECKED(wgs_encoder_create(ctx, &enc));
            wgs_alloc_args a = {.sizes = bsizes, .offsets = boffsets, .state = bstate, .n = n,
                                .arena_size = arena};
            CHECKED(wgs_alloc_encode(plan, enc, &a));
            CHECKED(wgs_submit(ctx, enc));
            uint32_t new_top = 0;
            CHECKED(wgs_buffer_read(ctx, bstate, 0, &new_top, 4));
            double t1 = example_now();
            CHECKED(wgs_buffer_read(ctx, boffsets, 0, offsets, n * 4));
            uint64_t served = 0;
            if (!check_frame(algo, sizes, offsets, n, top, new_top, arena, scratch, &served)) {
                fprintf(stderr, "allocator: %s frame %d breaks the allocator's guarantees\n", v ? "atomic" : "scan", f);
                bad = 1;
            }
            printf("  %-6s frame %d: served %6llu of %llu, top %10u -> %10u, %.3f ms with the top read back\n",
                   v ? "atomic" : "scan", f, (unsigned long long)served, (unsigned long long)n, top, new_top,
                   (t1 - t0) * 1e3);
            top = new_top;
        }
        wgs_alloc_plan_destroy(plan);
    }
    if (!bad) printf("  verified: scan blocks equal a sequential allocator's; atomic blocks disjoint and complete\n");
    wgs_buffer_release(ctx, bsizes);
    wgs_buffer_release(ctx, boffsets);
    wgs_buffer_release(ctx, bstate);
    wgs_context_destroy(ctx);
    free(sizes), free(offsets), free(scratch);
    return bad;
}
