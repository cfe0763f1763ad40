/* SPDX-License-Identifier: MIT */
/* test_buffers.h: GPU buffers for the primitive tests (Storage | CopyDst | CopySrc).
 * NULL after recording a failure. */
#ifndef WGS_TEST_BUFFERS_H
#define WGS_TEST_BUFFERS_H

#include "wgscan.h"

WGPUBuffer test_buffer(wgs_context *ctx, uint64_t bytes);
/* A buffer holding `bytes` of `data` (at least 4 bytes, rounded up to 4). */
WGPUBuffer test_upload(wgs_context *ctx, const void *data, uint64_t bytes);
/* Reads back `bytes`; 1 on success. */
int test_download(wgs_context *ctx, WGPUBuffer b, void *data, uint64_t bytes);

/* A buffer of offset + 4 bytes or more holding the u32 `count` at byte `offset` (a
 * count on the GPU: args.n_buffer). */
WGPUBuffer test_count_buffer(wgs_context *ctx, uint32_t count, uint64_t offset);
/* The counts a GPU-count test takes for a tile t and a bound: 0, 1, t - 1, t, t + 1
 * (those at most the bound), the bound, and one above it (which reads as the bound).
 * Returns how many were written (at most 7). */
int test_count_values(uint64_t t, uint64_t bound, uint32_t *counts);

#endif
