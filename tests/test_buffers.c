/* SPDX-License-Identifier: MIT */
#include "test_buffers.h"
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

WGPUBuffer test_buffer(wgs_context *ctx, uint64_t bytes) {
    WGPUBuffer b = NULL;
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    if (!ctx) return NULL;
    if (wgs_buffer_create(ctx, bytes < 4 ? 4 : (bytes + 3) & ~3ull, usage, &b) != WGS_OK)
        test_fail(__FILE__, __LINE__, "buffer of %llu bytes: %s", (unsigned long long)bytes,
                  wgs_context_last_error(ctx));
    return b;
}

WGPUBuffer test_upload(wgs_context *ctx, const void *data, uint64_t bytes) {
    WGPUBuffer b = test_buffer(ctx, bytes);
    uint64_t padded = (bytes + 3) & ~3ull;
    if (!b || !bytes) return b;
    if (padded != bytes) {
        void *tmp = calloc(1, padded);
        if (tmp) memcpy(tmp, data, bytes);
        if (tmp) CHECK_RESULT(wgs_buffer_write(ctx, b, 0, tmp, padded), WGS_OK);
        free(tmp);
    } else {
        CHECK_RESULT(wgs_buffer_write(ctx, b, 0, data, bytes), WGS_OK);
    }
    return b;
}

int test_download(wgs_context *ctx, WGPUBuffer b, void *data, uint64_t bytes) {
    if (!bytes) return 1;
    wgs_result r = wgs_buffer_read(ctx, b, 0, data, bytes);
    if (r != WGS_OK) test_fail(__FILE__, __LINE__, "read: %s", wgs_context_last_error(ctx));
    return r == WGS_OK;
}

WGPUBuffer test_count_buffer(wgs_context *ctx, uint32_t count, uint64_t offset) {
    uint64_t bytes = offset + 16;
    uint32_t *words = calloc(1, bytes);
    if (!words) return NULL;
    memset(words, 0xEE, bytes);
    memcpy((unsigned char *)words + offset, &count, 4);
    WGPUBuffer b = test_upload(ctx, words, bytes);
    free(words);
    return b;
}

int test_count_values(uint64_t t, uint64_t bound, uint32_t *counts) {
    const uint64_t all[] = {0, 1, t - 1, t, t + 1};
    int k = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i] < bound && (k == 0 || all[i] > counts[k - 1])) counts[k++] = (uint32_t)all[i];
    counts[k++] = (uint32_t)bound;
    counts[k++] = (uint32_t)(bound + 1000 > 0xFFFFFFFFull ? 0xFFFFFFFFull : bound + 1000);
    return k;
}
