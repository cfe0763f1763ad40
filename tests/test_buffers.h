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

#endif
