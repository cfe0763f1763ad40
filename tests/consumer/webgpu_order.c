/* SPDX-License-Identifier: MIT */
/*
 * A program that calls WebGPU itself and uses wgscan beside it: it includes a real
 * <webgpu/webgpu.h> (in the test, the stand-in of tests/consumer/webgpu/) before
 * wgscan.h, or after it when compiled with -DWGSCAN_FIRST. Either order must compile
 * with no macro defined and give the real header's declarations. It then creates its
 * own buffer with wgpuDeviceCreateBuffer (through wgs_context_get_proc), scans it with
 * wgs_scan_encode and checks 0, 1, ..., n-1.
 */
#ifdef WGSCAN_FIRST
#include <wgscan.h>
#include <webgpu/webgpu.h>
#else
#include <webgpu/webgpu.h>
#include <wgscan.h>
#endif

#include <stdio.h>
#include <string.h>

/* Only the real header declares these: the test fails to compile if ours were used. */
static WGPUProcDeviceCreateBuffer create_buffer;
static WGPUProcBufferRelease release_buffer;

int main(void) {
    enum { N = 4096 };
    wgs_context *ctx = NULL;
    wgs_result r = wgs_context_create(NULL, &ctx);
    if (r != WGS_OK) {
        fprintf(stderr, "webgpu_order: context: %s\n", wgs_result_name(r));
        return 3;
    }
    create_buffer = (WGPUProcDeviceCreateBuffer)wgs_context_get_proc(ctx, "wgpuDeviceCreateBuffer");
    release_buffer = (WGPUProcBufferRelease)wgs_context_get_proc(ctx, "wgpuBufferRelease");
    if (!create_buffer || !release_buffer) {
        fprintf(stderr, "webgpu_order: no wgpuDeviceCreateBuffer or wgpuBufferRelease\n");
        return 3;
    }
    WGPUBufferDescriptor bd = {NULL, {"webgpu_order", WGPU_STRLEN},
                               WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc,
                               N * 4, 0};
    WGPUBuffer buf = create_buffer(wgs_context_device(ctx), &bd);
    static uint32_t data[N];
    for (int i = 0; i < N; i++) data[i] = 1;
    wgs_scan_plan *plan = NULL;
    WGPUCommandEncoder enc = NULL;
    wgs_scan_plan_desc d; /* memset, not {0}: the file also compiles as C++ */
    memset(&d, 0, sizeof d);
    d.type = WGS_TYPE_U32;
    d.capacity = N;
    wgs_scan_args a;
    memset(&a, 0, sizeof a);
    a.input = a.output = buf;
    a.n = N;
    if (!buf) r = WGS_ERROR_GPU_VALIDATION;
    if (r == WGS_OK) r = wgs_buffer_write(ctx, buf, 0, data, sizeof data);
    if (r == WGS_OK) r = wgs_scan_plan_create(ctx, &d, &plan);
    if (r == WGS_OK) r = wgs_encoder_create(ctx, &enc);
    if (r == WGS_OK) r = wgs_scan_encode(plan, enc, &a);
    if (r == WGS_OK) r = wgs_submit(ctx, enc);
    if (r == WGS_OK) r = wgs_buffer_read(ctx, buf, 0, data, sizeof data);
    int bad = 0;
    for (int i = 0; r == WGS_OK && i < N; i++) bad += data[i] != (uint32_t)i;
    printf("webgpu_order (%s first): %s, %d wrong\n",
#ifdef WGSCAN_FIRST
           "wgscan.h",
#else
           "webgpu.h",
#endif
           wgs_result_name(r), bad);
    wgs_scan_plan_destroy(plan);
    if (buf) release_buffer(buf);
    wgs_context_destroy(ctx);
    return r != WGS_OK || bad;
}
