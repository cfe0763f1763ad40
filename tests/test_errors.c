/* Bad input: every case asserts its exact result code and that nothing crashed. */
#define _POSIX_C_SOURCE 200809L /* access */
#include "test_main.h"

#include <string.h>
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
    CHECK_RESULT(wgs_scan_host(ctx, &d, NULL, NULL, 5), WGS_ERROR_INVALID_ARGUMENT);
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
    wgs_scan_args a = {b, 0, b, 0, 1000, NULL, 0, 0};
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
    wgs_scan_args a = {big, 0, big, 0, 1001, NULL, 0, 0};
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
