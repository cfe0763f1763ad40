/*
 * context.c: the context object, result names and error reporting. Device creation
 * itself belongs to the GPU backend (gpu/).
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *wgs_result_name(wgs_result result) {
    switch (result) {
#define WGS_NAME_CASE_(sym, num, msg) \
    case sym: return #sym;
        WGS_RESULT_LIST(WGS_NAME_CASE_)
#undef WGS_NAME_CASE_
    default: return "WGS_UNKNOWN_RESULT";
    }
}

const char *wgs_result_description(wgs_result result) {
    switch (result) {
#define WGS_DESC_CASE_(sym, num, msg) \
    case sym: return msg;
        WGS_RESULT_LIST(WGS_DESC_CASE_)
#undef WGS_DESC_CASE_
    default: return "unknown result";
    }
}

size_t wgs_type_size(wgs_type type) {
    switch (type) {
    case WGS_TYPE_DEFAULT:
    case WGS_TYPE_U32:
    case WGS_TYPE_I32:
    case WGS_TYPE_F32: return 4;
    case WGS_TYPE_F16: return 2;
    default: return 0;
    }
}

const char *wgs_type_name(wgs_type type) {
    switch (type) {
    case WGS_TYPE_DEFAULT:
    case WGS_TYPE_U32: return "u32";
    case WGS_TYPE_I32: return "i32";
    case WGS_TYPE_F32: return "f32";
    case WGS_TYPE_F16: return "f16";
    default: return "?";
    }
}

const char *wgs_op_name(wgs_op op) {
    switch (op) {
    case WGS_OP_DEFAULT:
    case WGS_OP_ADD: return "add";
    case WGS_OP_MIN: return "min";
    case WGS_OP_MAX: return "max";
    case WGS_OP_AND: return "and";
    case WGS_OP_OR: return "or";
    case WGS_OP_XOR: return "xor";
    case WGS_OP_ARGMIN: return "argmin";
    case WGS_OP_ARGMAX: return "argmax";
    default: return "?";
    }
}

static void vrecord(wgs_log_fn log, void *user, char *buf, size_t cap, wgs_result result,
                    const char *fmt, va_list ap) {
    int k = snprintf(buf, cap, "%s: ", wgs_result_name(result));
    if (k < 0) k = 0;
    if ((size_t)k < cap) vsnprintf(buf + k, cap - (size_t)k, fmt, ap);
    if (log) log(WGS_LOG_ERROR, result, buf, user);
}

wgs_result wgs__fail(wgs_context *ctx, wgs_result result, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vrecord(ctx->log, ctx->log_user, ctx->last_error, sizeof ctx->last_error, result, fmt, ap);
    va_end(ap);
    return result;
}

/* Failures before a context exists go to the log callback only. */
static wgs_result fail_early(const wgs_context_desc *desc, wgs_result result, const char *fmt,
                             ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vrecord(desc ? desc->log : NULL, desc ? desc->log_user : NULL, buf, sizeof buf, result, fmt, ap);
    va_end(ap);
    return result;
}

wgs_result wgs__check_device(wgs_context *ctx) {
    char msg[256] = "";
    if (gpu_is_lost(ctx->gpu, msg, sizeof msg))
        return wgs__fail(ctx, WGS_ERROR_DEVICE_LOST, "the device was lost: %s", msg);
    return WGS_OK;
}

wgs_result wgs__scope_end(wgs_context *ctx, const char *what) {
    char msg[512] = "";
    wgs_result r = gpu_scope_pop(ctx->gpu, msg, sizeof msg);
    if (r != WGS_OK) return wgs__fail(ctx, r, "%s: %s", what, msg);
    return WGS_OK;
}

/* The experiments of a description, defaults applied; refuses values no device runs. */
static wgs_result experimental_defaults(const wgs_context_desc *desc, wgs_experimental *e) {
    memset(e, 0, sizeof *e);
    if (desc->experimental) *e = *desc->experimental;
    if (e->max_storage_binding_size && e->max_storage_binding_size < WGS_MIN_BINDING_CAP)
        return fail_early(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "experimental max_storage_binding_size %llu is below %u bytes",
                          (unsigned long long)e->max_storage_binding_size, WGS_MIN_BINDING_CAP);
    if (e->max_workgroups_per_dimension == 1)
        return fail_early(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "experimental max_workgroups_per_dimension must be 0 or at least 2");
    if (e->lookback_per_lane > 8)
        return fail_early(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "experimental lookback_per_lane %u is outside 1..8", e->lookback_per_lane);
    if (!e->lookback_spins) e->lookback_spins = 16;
    if (!e->lookback_per_lane) e->lookback_per_lane = 1;
    e->dawn_toggles = NULL; /* used while the device is created, not kept */
    return WGS_OK;
}

static void apply_caps(wgs_context *ctx) {
    wgs_context_info *i = &ctx->caps.info;
    const wgs_experimental *e = &ctx->exp;
    if (e->max_workgroups_per_dimension && e->max_workgroups_per_dimension < i->max_workgroups_per_dimension)
        i->max_workgroups_per_dimension = e->max_workgroups_per_dimension;
    if (e->max_storage_binding_size && e->max_storage_binding_size < i->max_storage_binding_size)
        i->max_storage_binding_size = e->max_storage_binding_size;
    if (e->disable_subgroups) i->has_subgroups = 0;
}

static wgs_result finish_create(gpu_device *gpu, const wgs_context_desc *desc, const wgs_experimental *e,
                                wgs_context **out) {
    wgs_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        gpu_close(gpu);
        return fail_early(desc, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the context");
    }
    ctx->gpu = gpu;
    ctx->log = desc->log;
    ctx->log_user = desc->log_user;
    ctx->exp = *e;
    gpu_get_caps(gpu, &ctx->caps);
    apply_caps(ctx);
    *out = ctx;
    return WGS_OK;
}

/* What both creations check first: out given, the description's fields valid. */
static wgs_result desc_check(const wgs_context_desc *desc, wgs_experimental *e) {
    if ((unsigned)desc->adapter > WGS_ADAPTER_CPU)
        return fail_early(desc, WGS_ERROR_INVALID_ARGUMENT, "unknown adapter preference %d",
                          (int)desc->adapter);
    if (!(desc->wait_timeout_s >= 0) || desc->wait_timeout_s > 1e9)
        return fail_early(desc, WGS_ERROR_INVALID_ARGUMENT, "wait_timeout_s %g is not a number of seconds",
                          desc->wait_timeout_s);
    if (desc->runtime_library && !*desc->runtime_library)
        return fail_early(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "runtime_library is an empty string (NULL picks the default runtime)");
    return experimental_defaults(desc, e);
}

wgs_result wgs_context_create(const wgs_context_desc *desc, wgs_context **out) {
    if (out) *out = NULL;
    if (!out) return fail_early(desc, WGS_ERROR_INVALID_ARGUMENT, "out is NULL");
    wgs_context_desc zero;
    memset(&zero, 0, sizeof zero);
    if (!desc) desc = &zero;
    wgs_experimental e;
    wgs_result r = desc_check(desc, &e);
    if (r != WGS_OK) return r;
    gpu_device *gpu = NULL;
    char err[768] = "";
    r = gpu_open_default(desc, &gpu, err, sizeof err);
    if (r != WGS_OK) return fail_early(desc, r, "%s", err);
    return finish_create(gpu, desc, &e, out);
}

wgs_result wgs_context_create_from_device(const wgs_external_device *ext,
                                          const wgs_context_desc *desc, wgs_context **out) {
    if (out) *out = NULL;
    if (!out || !ext || !ext->device || !ext->instance || !ext->get_proc_address)
        return fail_early(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "out, device, instance and get_proc_address are required");
    wgs_context_desc zero;
    memset(&zero, 0, sizeof zero);
    if (!desc) desc = &zero;
    wgs_experimental e;
    wgs_result r = desc_check(desc, &e);
    if (r != WGS_OK) return r;
    gpu_device *gpu = NULL;
    char err[768] = "";
    r = gpu_open_external(ext, desc, &gpu, err, sizeof err);
    if (r != WGS_OK) return fail_early(desc, r, "%s", err);
    return finish_create(gpu, desc, &e, out);
}

void wgs_context_destroy(wgs_context *ctx) {
    if (!ctx) return;
    if (ctx->live_plans)
        fprintf(stderr, "wgscan: wgs_context_destroy with %d plan(s) alive; destroy them first\n",
                ctx->live_plans);
    wgs__pipelines_release(ctx);
    gpu_buffer_release(ctx->gpu, ctx->param_ring);
    gpu_buffer_release(ctx->gpu, ctx->dummy);
    gpu_buffer_release(ctx->gpu, ctx->dummy_rw);
    gpu_close(ctx->gpu);
    free(ctx);
}

const char *wgs_context_last_error(const wgs_context *ctx) { return ctx ? ctx->last_error : ""; }

wgs_result wgs_context_get_info(const wgs_context *ctx, wgs_context_info *info) {
    if (!ctx || !info) return WGS_ERROR_INVALID_ARGUMENT;
    *info = ctx->caps.info;
    return WGS_OK;
}

WGPUDevice wgs_context_device(const wgs_context *ctx) { return ctx ? gpu_wgpu_device(ctx->gpu) : NULL; }
WGPUQueue wgs_context_queue(const wgs_context *ctx) { return ctx ? gpu_wgpu_queue(ctx->gpu) : NULL; }
WGPUInstance wgs_context_instance(const wgs_context *ctx) {
    return ctx ? gpu_wgpu_instance(ctx->gpu) : NULL;
}
WGPUProc wgs_context_get_proc(const wgs_context *ctx, const char *name) {
    return ctx ? gpu_get_proc(ctx->gpu, name) : NULL;
}
