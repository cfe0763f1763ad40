/* SPDX-License-Identifier: MIT */
/*
 * error.c: result names and messages, and the recording of failures (the context's
 * last error and the log callback). Every other file reports through these.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

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

wgs_result wgs__fail_desc(const wgs_context_desc *desc, wgs_result result, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vrecord(desc ? desc->log : NULL, desc ? desc->log_user : NULL, buf, sizeof buf, result, fmt, ap);
    va_end(ap);
    return result;
}

wgs_result wgs__check_device(wgs_context *ctx) {
    char msg[256] = "";
    if (wgs__gpu_is_lost(ctx->gpu, msg, sizeof msg))
        return wgs__fail(ctx, WGS_ERROR_DEVICE_LOST, "the device was lost: %s", msg);
    return WGS_OK;
}

wgs_result wgs__scope_end(wgs_context *ctx, const char *what) {
    char msg[512] = "";
    wgs_result r = wgs__gpu_scope_pop(ctx->gpu, msg, sizeof msg);
    if (r == WGS_OK) return WGS_OK;
    /* A bind group that WebGPU refused may be among those kept: gone, the same
     * arguments meet the same error in their own scope, not at the submit. */
    wgs__bind_cache_clear(ctx);
    return wgs__fail(ctx, r, "%s: %s", what, msg);
}

