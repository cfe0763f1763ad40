/* SPDX-License-Identifier: MIT */
/* Bad input: every case asserts its exact result code and that nothing crashed. */
#define _POSIX_C_SOURCE 200809L /* access */
#include "test_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static wgs_scan_plan *plan_u32(wgs_context *ctx, uint64_t capacity) {
    wgs_scan_plan_desc d = {0};
    d.capacity = capacity;
    wgs_scan_plan *p = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_OK);
    return p;
}

TEST(errors_result_names) {
    CHECK(strcmp(wgs_result_name(WGS_OK), "WGS_OK") == 0);
    CHECK(strcmp(wgs_result_name(WGS_ERROR_BUFFER_TOO_SMALL), "WGS_ERROR_BUFFER_TOO_SMALL") == 0);
    CHECK(strcmp(wgs_result_name((wgs_result)9999), "WGS_UNKNOWN_RESULT") == 0);
    CHECK(WGS_ERROR_INVALID_ARGUMENT == 1 && WGS_ERROR_WRONG_CONTEXT == 21); /* numbers are fixed */
    CHECK(strlen(wgs_result_description(WGS_ERROR_DEVICE_LOST)) > 0);
    CHECK(wgs_type_size(WGS_TYPE_F16) == 2 && wgs_type_size((wgs_type)77) == 0);
}

TEST(errors_null_arguments) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_scan_plan *p = NULL;
    wgs_scan_plan_desc d = {0};
    CHECK_RESULT(wgs_context_create(NULL, NULL), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_scan_plan_create(NULL, &d, &p), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_scan_plan_create(ctx, NULL, &p), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, NULL), WGS_ERROR_INVALID_ARGUMENT);
    CHECK(p == NULL);
    CHECK_RESULT(wgs_scan_encode(NULL, NULL, NULL), WGS_ERROR_INVALID_ARGUMENT);
    wgs_scan_plan *plan = plan_u32(ctx, 100);
    wgs_scan_args a = {0};
    a.n = 10;
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    CHECK_RESULT(wgs_scan_encode(plan, NULL, &a), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_scan_encode(plan, enc, NULL), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT); /* NULL buffers */
    CHECK(strstr(wgs_context_last_error(ctx), "input buffer is NULL") != NULL);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK); /* nothing was recorded */
    CHECK_RESULT(wgs_scan_host(ctx, &d, NULL, 5, NULL), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_context_get_info(NULL, NULL), WGS_ERROR_INVALID_ARGUMENT);
    wgs_scan_plan_destroy(plan);
    /* destroy accepts NULL */
    wgs_scan_plan_destroy(NULL);
    wgs_context_destroy(NULL);
    wgs_timer_destroy(NULL);
    wgs_buffer_release(ctx, NULL);
}

TEST(errors_unsupported_type_and_operator) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_scan_plan *p = NULL;
    wgs_scan_plan_desc d = {0};
    d.type = (wgs_type)99;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_ERROR_UNSUPPORTED_TYPE);
    d.type = WGS_TYPE_U32;
    d.op = (wgs_op)42;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_ERROR_UNSUPPORTED_OPERATOR);
    d.type = WGS_TYPE_F32;
    d.op = WGS_OP_XOR;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_ERROR_UNSUPPORTED_OPERATOR);
    CHECK(strstr(wgs_context_last_error(ctx), "integer") != NULL);
    d.op = WGS_OP_ADD;
    d.kind = (wgs_scan_kind)7;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_ERROR_INVALID_ARGUMENT);
    d.kind = WGS_SCAN_DEFAULT;
    d.algorithm = (wgs_scan_algorithm)9;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_ERROR_INVALID_ARGUMENT);
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    d.algorithm = WGS_SCAN_ALGORITHM_DEFAULT;
    d.type = WGS_TYPE_F16;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p),
                 info.has_shader_f16 ? WGS_OK : WGS_ERROR_FEATURE_MISSING);
    wgs_scan_plan_destroy(p);
    p = NULL;
    d.type = WGS_TYPE_U32;
    d.capacity = UINT64_MAX / 2; /* more than any device holds */
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_ERROR_TOO_LARGE);
    CHECK(p == NULL);
    d.capacity = 10;
    d.algorithm = WGS_SCAN_ALGORITHM_SINGLE_PASS;
    d.deterministic = 1;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_ERROR_INVALID_ARGUMENT);
}

/* The single pass cannot run in place: forced, it says so; by default the plan switches
 * to the multi-level algorithm. */
TEST(errors_single_pass_in_place) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_scan_plan_desc d = {0};
    d.capacity = 1000;
    d.algorithm = WGS_SCAN_ALGORITHM_SINGLE_PASS;
    wgs_scan_plan *p = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_OK);
    WGPUBuffer b = NULL;
    CHECK_RESULT(wgs_buffer_create(ctx, 4000, WGPUBufferUsage_Storage, &b), WGS_OK);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_scan_args a = {.input = b, .output = b, .n = 1000};
    CHECK_RESULT(wgs_scan_encode(p, enc, &a), WGS_ERROR_ALIASING);
    CHECK(strstr(wgs_context_last_error(ctx), "in place") != NULL);
    wgs_scan_plan_destroy(p);
    d.algorithm = WGS_SCAN_ALGORITHM_DEFAULT;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_OK);
    CHECK(wgs_scan_plan_algorithm(p, 1000, 1) == WGS_SCAN_ALGORITHM_MULTILEVEL);
    CHECK(wgs_scan_plan_algorithm(p, 1000, 0) == WGS_SCAN_ALGORITHM_SINGLE_PASS);
    CHECK(wgs_scan_plan_algorithm(p, (1ull << 24) + 1, 0) == WGS_SCAN_ALGORITHM_MULTILEVEL);
    CHECK(wgs_scan_plan_tile_size(p, WGS_SCAN_ALGORITHM_SINGLE_PASS) > 0);
    CHECK_RESULT(wgs_scan_encode(p, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    wgs_scan_plan_destroy(p);
    wgs_buffer_release(ctx, b);
}

TEST(errors_bad_buffers) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_scan_plan *plan = plan_u32(ctx, 1000);
    if (!plan) return;
    WGPUBuffer big = NULL, small = NULL, nostorage = NULL;
    CHECK_RESULT(wgs_buffer_create(ctx, 8192, WGPUBufferUsage_Storage, &big), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, 400, WGPUBufferUsage_Storage, &small), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, 8192, WGPUBufferUsage_CopyDst, &nostorage), WGS_OK);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_scan_args a = {.input = big, .output = big, .n = 1001};
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a.n = 101; /* 404 bytes > 400 */
    a.output = small;
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    a.n = 100;
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_OK); /* exactly fits */
    a.output = big;
    a.output_offset = 4;
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    a.output_offset = 256;
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_ERROR_ALIASING); /* same buffer, other offset */
    a.output_offset = 8192; /* past the end */
    a.output = nostorage;
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_ERROR_BUFFER_USAGE);
    a.output = big;
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL); /* offset past end */
    a.output_offset = 0;
    a.input = small;
    a.n = 200; /* 800 bytes of input needed, 400 there */
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    CHECK(strstr(wgs_context_last_error(ctx), "input") != NULL);
    a.n = 0; /* nothing to do, but the buffers are still checked */
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    CHECK_RESULT(wgs_buffer_write(ctx, big, 2, "ab", 2), WGS_ERROR_MISALIGNED_OFFSET);
    CHECK_RESULT(wgs_buffer_write(ctx, small, 0, (const char[404]){0}, 404), WGS_ERROR_BUFFER_TOO_SMALL);
    wgs_buffer_release(ctx, big);
    wgs_buffer_release(ctx, small);
    wgs_buffer_release(ctx, nostorage);
    wgs_scan_plan_destroy(plan);
}

/* A WebGPU validation error is captured by an error scope and returned, not raised. */
TEST(errors_webgpu_validation_is_captured) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    WGPUBuffer b = NULL;
    /* MapRead may only be combined with CopyDst. */
    CHECK_RESULT(wgs_buffer_create(ctx, 1024, WGPUBufferUsage_MapRead | WGPUBufferUsage_Storage, &b),
                 WGS_ERROR_GPU_VALIDATION);
    CHECK(b == NULL);
    CHECK(strlen(wgs_context_last_error(ctx)) > 20);
    /* The context stays usable. */
    CHECK_RESULT(wgs_buffer_create(ctx, 1024, WGPUBufferUsage_Storage, &b), WGS_OK);
    wgs_buffer_release(ctx, b);
}

TEST(errors_runtime_not_found) {
    wgs_context_desc d = {0};
    d.runtime_library = "/nonexistent/libwebgpu.so";
    wgs_context *ctx = (wgs_context *)1;
    CHECK_RESULT(wgs_context_create(&d, &ctx), WGS_ERROR_RUNTIME_NOT_FOUND);
    CHECK(ctx == NULL);
    d.runtime_library = NULL;
    d.adapter = (wgs_adapter_preference)12;
    CHECK_RESULT(wgs_context_create(&d, &ctx), WGS_ERROR_INVALID_ARGUMENT);
    d.adapter = WGS_ADAPTER_DEFAULT;
    d.driver_output = (wgs_driver_output)2;
    CHECK_RESULT(wgs_context_create(&d, &ctx), WGS_ERROR_INVALID_ARGUMENT);
    wgs_external_device ext = {0};
    CHECK_RESULT(wgs_context_create_from_device(&ext, NULL, &ctx), WGS_ERROR_INVALID_ARGUMENT);
}

/* After the device is destroyed behind wgscan's back, calls report the loss. */
TEST(errors_device_lost) {
    wgs_context_desc d = {0};
    wgs_context *ctx = NULL;
    CHECK_RESULT(wgs_context_create(&d, &ctx), WGS_OK);
    if (!ctx) return;
    typedef void (*destroy_fn)(WGPUDevice);
    destroy_fn destroy = (destroy_fn)wgs_context_get_proc(ctx, "wgpuDeviceDestroy");
    CHECK(destroy != NULL);
    if (destroy) destroy(wgs_context_device(ctx));
    wgs_scan_plan_desc pd = {0};
    pd.capacity = 1000;
    wgs_scan_plan *p = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &pd, &p), WGS_ERROR_DEVICE_LOST);
    CHECK(p == NULL);
    wgs_context_destroy(ctx);
}

/* Adapter preferences: CPU always gives the CPU driver; GPU fails with NO_ADAPTER on a
 * machine whose default adapter is a CPU driver (and succeeds where a GPU exists). */
TEST(errors_adapter_preferences) {
    wgs_context *def = test_context();
    if (!def) return;
    wgs_context_info info;
    wgs_context_get_info(def, &info);
    int cpu_only = strcmp(info.adapter_type, "cpu") == 0;
    wgs_context_desc d = {0};
    wgs_context *ctx = NULL;
    d.adapter = WGS_ADAPTER_CPU;
    /* The CPU driver comes with Debian's chromium; a GPU machine may not have it. */
    int have_cpu_driver = access("/usr/lib/chromium/vk_swiftshader_icd.json", R_OK) == 0;
    CHECK_RESULT(wgs_context_create(&d, &ctx), have_cpu_driver ? WGS_OK : WGS_ERROR_NO_ADAPTER);
    if (ctx) {
        wgs_context_info ci;
        wgs_context_get_info(ctx, &ci);
        CHECK(strcmp(ci.adapter_type, "cpu") == 0);
        wgs_context_destroy(ctx);
    }
    ctx = NULL;
    d.adapter = WGS_ADAPTER_GPU;
    CHECK_RESULT(wgs_context_create(&d, &ctx), cpu_only ? WGS_ERROR_NO_ADAPTER : WGS_OK);
    CHECK((ctx == NULL) == cpu_only);
    wgs_context_destroy(ctx);
}

/* Adapter index: the default context took index 0 of at least one adapter; the first
 * index past the count is refused before any device is made, with a message naming it. */
static char adapter_msg[512];
static void keep_msg(wgs_log_level level, wgs_result r, const char *msg, void *user) {
    (void)r, (void)user;
    if (level == WGS_LOG_ERROR) snprintf(adapter_msg, sizeof adapter_msg, "%s", msg);
}

TEST(errors_adapter_index) {
    wgs_context *def = test_context();
    if (!def) return;
    wgs_context_info info;
    CHECK_RESULT(wgs_context_get_info(def, &info), WGS_OK);
    CHECK(info.adapter_count >= 1);
    wgs_context_desc d = {.log = keep_msg, .adapter_index = info.adapter_count};
    wgs_context *ctx = (wgs_context *)1;
    CHECK_RESULT(wgs_context_create(&d, &ctx), WGS_ERROR_NO_ADAPTER);
    CHECK(ctx == NULL);
    CHECK(strstr(adapter_msg, "adapter_index") != NULL);
}

/* A wait that gives up must leave nothing of its frame to WebGPU: the callbacks of the
 * abandoned work-done and map requests run later (at the latest at destroy), and they
 * must find heap state, not a dead stack frame (run under ASan with
 * detect_stack_use_after_return=1 to see the difference). */
TEST(errors_tiny_wait_timeout) {
    wgs_context_desc cd = {.wait_timeout_s = 1e-6};
    wgs_context *ctx = NULL;
    CHECK_RESULT(wgs_context_create(&cd, &ctx), WGS_OK); /* creation keeps its own limit */
    if (!ctx) return;
    const uint64_t n = 1u << 22;
    wgs_scan_plan *plan = plan_u32(ctx, n);
    WGPUBuffer b = NULL;
    CHECK_RESULT(wgs_buffer_create(ctx, n * 4, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc |
                                                   WGPUBufferUsage_CopyDst, &b), WGS_OK);
    uint32_t *host = calloc(n, 4);
    int timeouts = 0;
    for (int round = 0; plan && b && host && round < 2; round++) {
        WGPUCommandEncoder enc;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        wgs_scan_args a = {.input = b, .output = b, .n = n};
        for (int k = 0; k < 3; k++) CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        wgs_result w = wgs_wait(ctx);
        CHECK(w == WGS_OK || w == WGS_ERROR_TIMEOUT);
        timeouts += w == WGS_ERROR_TIMEOUT;
        if (w == WGS_ERROR_TIMEOUT) /* a sub-second limit is said as it is */
            CHECK(strstr(wgs_context_last_error(ctx), "within 1e-06 s") != NULL);
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        wgs_result rd = wgs_buffer_read(ctx, b, 0, host, n * 4);
        CHECK(rd == WGS_OK || rd == WGS_ERROR_TIMEOUT);
        timeouts += rd == WGS_ERROR_TIMEOUT;
    }
    printf("    %d of 4 waits timed out\n", timeouts);
    free(host);
    wgs_buffer_release(ctx, b);
    wgs_scan_plan_destroy(plan);
    wgs_context_destroy(ctx); /* the abandoned callbacks run here at the latest */
}

static double seconds(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC); /* C11's clock: the build is not POSIX */
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The limit is kept to within milliseconds: a wait of 5 ms behind work that takes
 * longer returns WGS_ERROR_TIMEOUT well before 50 ms (the fastest of three tries, so
 * that a loaded machine's scheduler does not fail it; a wait that sleeps in steps of
 * 100 ms cannot). Skipped where the GPU finishes the work within the limit. */
TEST(errors_wait_timeout_kept) {
    wgs_context_desc cd = {.wait_timeout_s = 0.005};
    wgs_context *ctx = NULL;
    CHECK_RESULT(wgs_context_create(&cd, &ctx), WGS_OK);
    if (!ctx) return;
    const uint64_t n = 1u << 21; /* a few hundred ms on a CPU driver */
    wgs_scan_plan *plan = plan_u32(ctx, n);
    WGPUBuffer b = NULL;
    CHECK_RESULT(wgs_buffer_create(ctx, n * 4, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst, &b), WGS_OK);
    int timeouts = 0;
    double fastest = 1e9;
    for (int round = 0; plan && b && round < 3; round++) {
        WGPUCommandEncoder enc;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        wgs_scan_args a = {.input = b, .output = b, .n = n};
        CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        double t0 = seconds();
        wgs_result w = wgs_wait(ctx);
        double took = seconds() - t0;
        CHECK(w == WGS_OK || w == WGS_ERROR_TIMEOUT);
        if (w == WGS_ERROR_TIMEOUT) {
            timeouts++;
            if (took < fastest) fastest = took;
        }
        /* The work goes on after a wait gives up: let it finish before the next. */
        for (int drain = 0; w == WGS_ERROR_TIMEOUT && drain < 100000; drain++) w = wgs_wait(ctx);
        CHECK_RESULT(w, WGS_OK);
    }
    if (timeouts) printf("    %d of 3 waits timed out, the soonest after %.1f ms\n", timeouts, fastest * 1e3);
    if (!timeouts)
        test_skip("the GPU finished the work within 5 ms");
    else if (fastest > 0.050)
        test_fail(__FILE__, __LINE__, "a wait of 5 ms gave up after %.0f ms at the soonest (%d timeouts)",
                  fastest * 1e3, timeouts);
    wgs_buffer_release(ctx, b);
    wgs_scan_plan_destroy(plan);
    wgs_context_destroy(ctx);
}

/* Sizes near 2^64 fail their checks instead of wrapping past them. */
TEST(errors_size_overflow) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    WGPUBuffer b = NULL;
    CHECK_RESULT(wgs_buffer_create(ctx, 1024, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, &b), WGS_OK);
    uint32_t small[4] = {0};
    /* rounded up to 4, these wrapped to 0 and passed, then 64 MiB were copied into small */
    CHECK_RESULT(wgs_buffer_read(ctx, b, 0, small, UINT64_MAX - 1), WGS_ERROR_BUFFER_TOO_SMALL);
    CHECK_RESULT(wgs_buffer_read(ctx, b, 0, small, UINT64_MAX), WGS_ERROR_BUFFER_TOO_SMALL);
    CHECK_RESULT(wgs_buffer_read(ctx, b, 4, small, UINT64_MAX - 3), WGS_ERROR_BUFFER_TOO_SMALL);
    CHECK_RESULT(wgs_buffer_read(ctx, b, UINT64_MAX - 3, small, 8), WGS_ERROR_BUFFER_TOO_SMALL);
    CHECK_RESULT(wgs_buffer_write(ctx, b, 4, small, UINT64_MAX - 3), WGS_ERROR_BUFFER_TOO_SMALL);
    CHECK_RESULT(wgs_buffer_write(ctx, b, UINT64_MAX - 3, small, 8), WGS_ERROR_BUFFER_TOO_SMALL);
    CHECK_RESULT(wgs_buffer_read(ctx, b, 0, small, 16), WGS_OK);
    wgs_buffer_release(ctx, b);
    /* Capacities whose byte counts (capacity * 4) wrap. */
    const uint64_t huge = 1ull << 62;
    wgs_reduce_plan *rp = NULL;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.op = WGS_OP_ADD, .capacity = huge}, &rp),
                 WGS_ERROR_TOO_LARGE);
    CHECK(rp == NULL);
    wgs_histogram_plan *hp = NULL;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &(wgs_histogram_plan_desc){.bins = 4, .lower = 0, .upper = 4,
                                                                          .capacity = huge}, &hp),
                 WGS_ERROR_TOO_LARGE);
    CHECK(hp == NULL);
    wgs_histogram_plan_destroy(hp);
    wgs_alloc_plan *ap = NULL;
    CHECK_RESULT(wgs_alloc_plan_create(ctx, &(wgs_alloc_plan_desc){.capacity = huge}, &ap), WGS_ERROR_TOO_LARGE);
    wgs_select_plan *sp = NULL;
    CHECK_RESULT(wgs_select_plan_create(ctx, &(wgs_select_plan_desc){.capacity = huge}, &sp), WGS_ERROR_TOO_LARGE);
    wgs_scan_plan *scp = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.capacity = huge}, &scp), WGS_ERROR_TOO_LARGE);
    CHECK_RESULT(wgs_scan_host(ctx, &(wgs_scan_plan_desc){0}, small, huge, small), WGS_ERROR_TOO_LARGE);
}

/* A read that cannot copy fails instead of handing back zeros. */
TEST(errors_read_needs_a_readable_buffer) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t got[64];
    WGPUBuffer b = NULL;
    CHECK_RESULT(wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst, &b), WGS_OK);
    CHECK_RESULT(wgs_buffer_read(ctx, b, 0, got, 256), WGS_ERROR_BUFFER_USAGE);
    CHECK(strstr(wgs_context_last_error(ctx), "CopySrc") != NULL);
    wgs_buffer_release(ctx, b);
    b = NULL;
    CHECK_RESULT(wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, &b), WGS_OK);
    typedef void (*destroy_fn)(WGPUBuffer);
    destroy_fn destroy = (destroy_fn)wgs_context_get_proc(ctx, "wgpuBufferDestroy");
    CHECK(destroy != NULL);
    if (b && destroy) {
        destroy(b);
        CHECK_RESULT(wgs_buffer_read(ctx, b, 0, got, 256), WGS_ERROR_GPU_VALIDATION);
        CHECK(strstr(wgs_context_last_error(ctx), "reading a buffer") != NULL);
    }
    wgs_buffer_release(ctx, b);
    /* The context stays usable. */
    CHECK_RESULT(wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, &b), WGS_OK);
    CHECK_RESULT(wgs_buffer_read(ctx, b, 0, got, 256), WGS_OK);
    wgs_buffer_release(ctx, b);
}

/* The parameter ring cannot be created (fault injection): every encode that needs it
 * returns that error and records nothing (scan too: its parameters go there as well). */
TEST(errors_param_ring_failure) {
    wgs_experimental e = {.fail_param_ring = 1};
    wgs_context_desc cd = {.experimental = &e};
    wgs_context *ctx = NULL;
    CHECK_RESULT(wgs_context_create(&cd, &ctx), WGS_OK);
    if (!ctx) return;
    const uint64_t n = 1000;
    const WGPUBufferUsage u = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
    WGPUBuffer in = NULL, out = NULL, out2 = NULL, cnt = NULL;
    CHECK_RESULT(wgs_buffer_create(ctx, n * 4, u, &in), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, n * 4, u, &out), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, n * 4, u, &out2), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, 256, u, &cnt), WGS_OK);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    const wgs_result want = WGS_ERROR_GPU_VALIDATION;
#define RING_CHECK(call)                                                                      \
    do {                                                                                      \
        CHECK_RESULT(call, want);                                                             \
        CHECK(strstr(wgs_context_last_error(ctx), "creating the parameter ring") != NULL);   \
    } while (0)

    wgs_reduce_plan *rp = NULL, *cp = NULL;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.op = WGS_OP_ADD, .capacity = n}, &rp), WGS_OK);
    if (rp) RING_CHECK(wgs_reduce_encode(rp, enc, &(wgs_reduce_args){.input = in, .n = n, .output = out}));
    CHECK_RESULT(wgs_count_plan_create(ctx, &(wgs_count_plan_desc){.capacity = n}, &cp), WGS_OK);
    if (cp) RING_CHECK(wgs_reduce_encode(cp, enc, &(wgs_reduce_args){.input = in, .n = n, .output = out}));
    wgs_select_plan *sp = NULL;
    CHECK_RESULT(wgs_select_plan_create(ctx, &(wgs_select_plan_desc){.mode = WGS_SELECT_IF, .capacity = n}, &sp),
                 WGS_OK);
    if (sp)
        RING_CHECK(wgs_select_encode(sp, enc, &(wgs_select_args){.input = in, .output = out, .count = cnt,
                                                                 .n = n}));
    wgs_histogram_plan *hp = NULL;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &(wgs_histogram_plan_desc){.bins = 8, .lower = 0, .upper = 8,
                                                                          .capacity = n}, &hp), WGS_OK);
    if (hp) RING_CHECK(wgs_histogram_encode(hp, enc, &(wgs_histogram_args){.input = in, .n = n, .output = out}));
    for (int algo = WGS_ALLOC_SCAN; algo <= WGS_ALLOC_ATOMIC; algo++) {
        wgs_alloc_plan *ap = NULL;
        CHECK_RESULT(wgs_alloc_plan_create(ctx, &(wgs_alloc_plan_desc){.algorithm = (wgs_alloc_algorithm)algo,
                                                                      .capacity = n}, &ap), WGS_OK);
        if (ap)
            RING_CHECK(wgs_alloc_encode(ap, enc, &(wgs_alloc_args){.sizes = in, .offsets = out, .state = cnt,
                                                                   .n = n, .arena_size = 1000}));
        wgs_alloc_plan_destroy(ap);
    }
    RING_CHECK(wgs_copy_encode(ctx, enc, &(wgs_copy_args){.src = in, .dst = out, .bytes = 1024}));
    wgs_scan_plan *scan = plan_u32(ctx, n);
    if (scan) RING_CHECK(wgs_scan_encode(scan, enc, &(wgs_scan_args){.input = in, .output = out2, .n = n}));
#undef RING_CHECK
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK); /* the failed encodes recorded nothing */
    wgs_scan_plan_destroy(scan);
    wgs_reduce_plan_destroy(rp);
    wgs_reduce_plan_destroy(cp);
    wgs_select_plan_destroy(sp);
    wgs_histogram_plan_destroy(hp);
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, out);
    wgs_buffer_release(ctx, out2);
    wgs_buffer_release(ctx, cnt);
    wgs_context_destroy(ctx);
}

/* Far more parameter records than one ring holds, in one submit: every encode keeps
 * its own (1100 reductions of 2 records each, each of another length). */
TEST(errors_many_parameter_records_one_submit) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { ENCODES = 1100 };
    const uint64_t n = ENCODES;
    uint32_t *values = malloc(n * 4), *got = malloc(ENCODES * 256);
    for (uint64_t i = 0; i < n; i++) values[i] = (uint32_t)i;
    const WGPUBufferUsage u = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
    WGPUBuffer in = NULL, out = NULL;
    CHECK_RESULT(wgs_buffer_create(ctx, n * 4, u, &in), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, ENCODES * 256ull, u, &out), WGS_OK);
    CHECK_RESULT(wgs_buffer_write(ctx, in, 0, values, n * 4), WGS_OK);
    wgs_reduce_plan *rp = NULL;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.op = WGS_OP_ADD, .capacity = n}, &rp), WGS_OK);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    int bad = 0;
    for (uint64_t k = 0; rp && k < ENCODES && !bad; k++) {
        wgs_reduce_args a = {.input = in, .n = k + 1, .output = out, .output_offset = 256 * k};
        wgs_result r = wgs_reduce_encode(rp, enc, &a);
        if (r != WGS_OK) CHECK_RESULT(r, WGS_OK);
        bad = r != WGS_OK;
    }
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    CHECK_RESULT(wgs_buffer_read(ctx, out, 0, got, ENCODES * 256ull), WGS_OK);
    uint64_t wrong = 0, first = 0;
    for (uint64_t k = 0; rp && !bad && k < ENCODES; k++) {
        uint32_t want = (uint32_t)(k * (k + 1) / 2);
        if (got[k * 64] != want && !wrong++) first = k;
    }
    if (wrong)
        test_fail(__FILE__, __LINE__, "%llu of %d sums wrong, first of n = %llu", (unsigned long long)wrong, ENCODES,
                  (unsigned long long)first + 1);
    wgs_reduce_plan_destroy(rp);
    wgs_buffer_release(ctx, in);
    wgs_buffer_release(ctx, out);
    free(values);
    free(got);
}

static char logged[1024];
static void keep_log(wgs_log_level level, wgs_result r, const char *m, void *u) {
    (void)level;
    (void)r;
    (void)u;
    snprintf(logged, sizeof logged, "%s", m);
}

/* A buffer of another context is named as such; a runtime that does not load says why. */
TEST(errors_wrong_context) {
    wgs_context *a = test_context();
    if (!a) return;
    wgs_context *b = NULL;
    CHECK_RESULT(wgs_context_create(NULL, &b), WGS_OK);
    if (!b) return;
    const WGPUBufferUsage u = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
    WGPUBuffer mine = NULL, theirs = NULL;
    CHECK_RESULT(wgs_buffer_create(a, 4096, u, &mine), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(b, 4096, u, &theirs), WGS_OK);
    wgs_scan_plan *plan = plan_u32(a, 1000);
    WGPUCommandEncoder enc = NULL;
    CHECK_RESULT(wgs_encoder_create(a, &enc), WGS_OK);
    if (plan) {
        wgs_scan_args args = {.input = mine, .output = theirs, .n = 1000};
        CHECK_RESULT(wgs_scan_encode(plan, enc, &args), WGS_ERROR_WRONG_CONTEXT);
    }
    /* The failed pass stays in the encoder (WebGPU has no undo): its submit fails too. */
    CHECK(wgs_submit(a, enc) != WGS_OK);
    uint32_t words[4] = {1, 2, 3, 4};
    CHECK_RESULT(wgs_buffer_write(a, theirs, 0, words, 16), WGS_ERROR_WRONG_CONTEXT);
    CHECK_RESULT(wgs_buffer_read(a, theirs, 0, words, 16), WGS_ERROR_WRONG_CONTEXT);
    CHECK_RESULT(wgs_buffer_read(b, theirs, 0, words, 16), WGS_OK);
    wgs_scan_plan_destroy(plan);
    wgs_buffer_release(a, mine);
    wgs_buffer_release(b, theirs);
    wgs_context_destroy(b);

    wgs_context_desc d = {.runtime_library = "/nonexistent/libwebgpu.so", .log = keep_log};
    wgs_context *none = NULL;
    logged[0] = 0;
    CHECK_RESULT(wgs_context_create(&d, &none), WGS_ERROR_RUNTIME_NOT_FOUND);
    CHECK(strstr(logged, "/nonexistent/libwebgpu.so") != NULL && strstr(logged, "(null)") == NULL);
    CHECK(strstr(logged, "No such file") != NULL); /* dlopen's own reason */
}

/* ---- counts on the GPU: a bad n_buffer, with its exact code, for every primitive -- */

typedef wgs_result (*count_encode_fn)(wgs_context *ctx, WGPUCommandEncoder enc, WGPUBuffer data, WGPUBuffer nb,
                                      uint64_t n_offset);

static wgs_result count_scan(wgs_context *ctx, WGPUCommandEncoder enc, WGPUBuffer data, WGPUBuffer nb,
                             uint64_t off) {
    wgs_scan_plan *p = plan_u32(ctx, 64);
    WGPUBuffer out = NULL;
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &out);
    wgs_result r = wgs_scan_encode(p, enc, &(wgs_scan_args){.input = data, .output = out, .n = 64,
                                                             .n_buffer = nb, .n_offset = off});
    wgs_buffer_release(ctx, out);
    wgs_scan_plan_destroy(p);
    return r;
}

static wgs_result count_reduce(wgs_context *ctx, WGPUCommandEncoder enc, WGPUBuffer data, WGPUBuffer nb,
                               uint64_t off) {
    wgs_reduce_plan *p = NULL;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.capacity = 64}, &p), WGS_OK);
    WGPUBuffer out = NULL;
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &out);
    wgs_result r = wgs_reduce_encode(p, enc, &(wgs_reduce_args){.input = data, .output = out, .n = 64,
                                                                 .n_buffer = nb, .n_offset = off});
    wgs_buffer_release(ctx, out);
    wgs_reduce_plan_destroy(p);
    return r;
}

static wgs_result count_select(wgs_context *ctx, WGPUCommandEncoder enc, WGPUBuffer data, WGPUBuffer nb,
                               uint64_t off) {
    wgs_select_plan *p = NULL;
    CHECK_RESULT(wgs_select_plan_create(ctx, &(wgs_select_plan_desc){.mode = WGS_SELECT_UNIQUE, .capacity = 64}, &p),
                 WGS_OK);
    WGPUBuffer out = NULL, count = NULL;
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &out);
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &count);
    wgs_result r = wgs_select_encode(p, enc, &(wgs_select_args){.input = data, .output = out, .count = count, .n = 64,
                                                                 .n_buffer = nb, .n_offset = off});
    wgs_buffer_release(ctx, out);
    wgs_buffer_release(ctx, count);
    wgs_select_plan_destroy(p);
    return r;
}

static wgs_result count_sort(wgs_context *ctx, WGPUCommandEncoder enc, WGPUBuffer data, WGPUBuffer nb,
                             uint64_t off) {
    wgs_sort_plan *p = NULL;
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.capacity = 64}, &p), WGS_OK);
    WGPUBuffer out = NULL;
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &out);
    wgs_result r = wgs_sort_encode(p, enc, &(wgs_sort_args){.keys_in = data, .keys_out = out, .n = 64,
                                                             .n_buffer = nb, .n_offset = off});
    wgs_buffer_release(ctx, out);
    wgs_sort_plan_destroy(p);
    return r;
}

static wgs_result count_histogram(wgs_context *ctx, WGPUCommandEncoder enc, WGPUBuffer data, WGPUBuffer nb,
                                  uint64_t off) {
    wgs_histogram_plan *p = NULL;
    CHECK_RESULT(wgs_histogram_plan_create(ctx, &(wgs_histogram_plan_desc){.bins = 8, .lower = 0, .upper = 8,
                                                                          .capacity = 64}, &p),
                 WGS_OK);
    WGPUBuffer out = NULL;
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &out);
    wgs_result r = wgs_histogram_encode(p, enc, &(wgs_histogram_args){.input = data, .output = out, .n = 64,
                                                                       .n_buffer = nb, .n_offset = off});
    wgs_buffer_release(ctx, out);
    wgs_histogram_plan_destroy(p);
    return r;
}

static wgs_result count_scan_by_key(wgs_context *ctx, WGPUCommandEncoder enc, WGPUBuffer data, WGPUBuffer nb,
                                    uint64_t off) {
    wgs_scan_by_key_plan *p = NULL;
    CHECK_RESULT(wgs_scan_by_key_plan_create(ctx, &(wgs_scan_by_key_plan_desc){.capacity = 64}, &p), WGS_OK);
    WGPUBuffer keys = NULL, out = NULL;
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &keys);
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &out);
    wgs_result r = wgs_scan_by_key_encode(p, enc, &(wgs_scan_by_key_args){.keys = keys, .input = data, .output = out,
                                                                           .n = 64, .n_buffer = nb, .n_offset = off});
    wgs_buffer_release(ctx, keys);
    wgs_buffer_release(ctx, out);
    wgs_scan_by_key_plan_destroy(p);
    return r;
}

static wgs_result count_reduce_by_key(wgs_context *ctx, WGPUCommandEncoder enc, WGPUBuffer data, WGPUBuffer nb,
                                      uint64_t off) {
    wgs_reduce_by_key_plan *p = NULL;
    CHECK_RESULT(wgs_reduce_by_key_plan_create(ctx, &(wgs_reduce_by_key_plan_desc){.capacity = 64}, &p), WGS_OK);
    WGPUBuffer keys = NULL, uk = NULL, ag = NULL, runs = NULL;
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &keys);
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &uk);
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &ag);
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &runs);
    wgs_result r = wgs_reduce_by_key_encode(p, enc, &(wgs_reduce_by_key_args){
        .keys = keys, .input = data, .n = 64, .unique_keys = uk, .aggregates = ag, .num_runs = runs, .n_buffer = nb,
        .n_offset = off});
    WGPUBuffer all[] = {keys, uk, ag, runs};
    for (int i = 0; i < 4; i++) wgs_buffer_release(ctx, all[i]);
    wgs_reduce_by_key_plan_destroy(p);
    return r;
}

/* The segmented primitives: which = 0 the values' count, 1 the segments'. */
static wgs_result count_segmented(wgs_context *ctx, WGPUCommandEncoder enc, WGPUBuffer data, WGPUBuffer nb,
                                  uint64_t off, int scan, int which) {
    WGPUBuffer offsets = NULL, out = NULL;
    uint32_t zeros[5] = {0, 0, 0, 0, 0};
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst, &offsets);
    wgs_buffer_write(ctx, offsets, 0, zeros, sizeof zeros);
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &out);
    wgs_result r;
    if (scan) {
        wgs_segmented_scan_plan *p = NULL;
        CHECK_RESULT(wgs_segmented_scan_plan_create(ctx, &(wgs_segmented_scan_plan_desc){.capacity = 64,
                                                                                        .segment_capacity = 4}, &p),
                     WGS_OK);
        wgs_segmented_scan_args a = {.input = data, .output = out, .n = 64, .offsets = offsets, .n_segments = 4};
        if (which) a.n_segments_buffer = nb, a.n_segments_offset = off;
        else a.n_buffer = nb, a.n_offset = off;
        r = wgs_segmented_scan_encode(p, enc, &a);
        wgs_segmented_scan_plan_destroy(p);
    } else {
        wgs_segmented_reduce_plan *p = NULL;
        CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &(wgs_segmented_reduce_plan_desc){.capacity = 64,
                                                                                            .segment_capacity = 4}, &p),
                     WGS_OK);
        wgs_segmented_reduce_args a = {.input = data, .n = 64, .offsets = offsets, .n_segments = 4, .output = out};
        if (which) a.n_segments_buffer = nb, a.n_segments_offset = off;
        else a.n_buffer = nb, a.n_offset = off;
        r = wgs_segmented_reduce_encode(p, enc, &a);
        wgs_segmented_reduce_plan_destroy(p);
    }
    wgs_buffer_release(ctx, offsets);
    wgs_buffer_release(ctx, out);
    return r;
}

static wgs_result count_seg_reduce_n(wgs_context *c, WGPUCommandEncoder e, WGPUBuffer d, WGPUBuffer nb, uint64_t o) {
    return count_segmented(c, e, d, nb, o, 0, 0);
}
static wgs_result count_seg_reduce_segs(wgs_context *c, WGPUCommandEncoder e, WGPUBuffer d, WGPUBuffer nb,
                                        uint64_t o) {
    return count_segmented(c, e, d, nb, o, 0, 1);
}
static wgs_result count_seg_scan_n(wgs_context *c, WGPUCommandEncoder e, WGPUBuffer d, WGPUBuffer nb, uint64_t o) {
    return count_segmented(c, e, d, nb, o, 1, 0);
}
static wgs_result count_seg_scan_segs(wgs_context *c, WGPUCommandEncoder e, WGPUBuffer d, WGPUBuffer nb, uint64_t o) {
    return count_segmented(c, e, d, nb, o, 1, 1);
}

static wgs_result count_alloc(wgs_context *ctx, WGPUCommandEncoder enc, WGPUBuffer data, WGPUBuffer nb,
                              uint64_t off) {
    wgs_alloc_plan *p = NULL;
    CHECK_RESULT(wgs_alloc_plan_create(ctx, &(wgs_alloc_plan_desc){.capacity = 64}, &p), WGS_OK);
    WGPUBuffer offsets = NULL, state = NULL;
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &offsets);
    wgs_buffer_create(ctx, 256, WGPUBufferUsage_Storage, &state);
    wgs_result r = wgs_alloc_encode(p, enc, &(wgs_alloc_args){.sizes = data, .offsets = offsets, .state = state,
                                                               .n = 64, .arena_size = 100, .n_buffer = nb,
                                                               .n_offset = off});
    wgs_buffer_release(ctx, offsets);
    wgs_buffer_release(ctx, state);
    wgs_alloc_plan_destroy(p);
    return r;
}

static const struct {
    const char *name;
    count_encode_fn fn;
} count_encodes[] = {
    {"alloc", count_alloc},
    {"histogram", count_histogram},
    {"scan by key", count_scan_by_key},
    {"reduce by key", count_reduce_by_key},
    {"segmented reduce n", count_seg_reduce_n},
    {"segmented reduce n_segments", count_seg_reduce_segs},
    {"segmented scan n", count_seg_scan_n},
    {"segmented scan n_segments", count_seg_scan_segs},
    {"scan", count_scan},
    {"reduce", count_reduce},
    {"select", count_select},
    {"sort", count_sort},
};

TEST(errors_count_buffer) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    WGPUBuffer data = NULL, counts = NULL, uniform = NULL;
    const WGPUBufferUsage storage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst;
    CHECK_RESULT(wgs_buffer_create(ctx, 4096, storage, &data), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, 16, storage, &counts), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, 16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, &uniform), WGS_OK);
    for (size_t i = 0; i < sizeof count_encodes / sizeof count_encodes[0]; i++) {
        WGPUCommandEncoder enc;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        count_encode_fn f = count_encodes[i].fn;
        wgs_result r;
        if ((r = f(ctx, enc, data, counts, 2)) != WGS_ERROR_MISALIGNED_OFFSET)
            test_fail(__FILE__, __LINE__, "%s, n_offset 2: %s", count_encodes[i].name, wgs_result_name(r));
        if ((r = f(ctx, enc, data, uniform, 0)) != WGS_ERROR_BUFFER_USAGE)
            test_fail(__FILE__, __LINE__, "%s, a uniform n_buffer: %s", count_encodes[i].name, wgs_result_name(r));
        if ((r = f(ctx, enc, data, counts, 16)) != WGS_ERROR_BUFFER_TOO_SMALL)
            test_fail(__FILE__, __LINE__, "%s, n_offset 16 of 16 bytes: %s", count_encodes[i].name,
                      wgs_result_name(r));
        if ((r = f(ctx, enc, data, counts, 12)) != WGS_OK)
            test_fail(__FILE__, __LINE__, "%s, n_offset 12: %s (%s)", count_encodes[i].name, wgs_result_name(r),
                      wgs_context_last_error(ctx));
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    }
    CHECK_RESULT(wgs_wait(ctx), WGS_OK);
    wgs_buffer_release(ctx, data);
    wgs_buffer_release(ctx, counts);
    wgs_buffer_release(ctx, uniform);
}
