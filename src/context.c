/* SPDX-License-Identifier: MIT */
/*
 * context.c: the context object and its description's checks and defaults. Device
 * creation belongs to the GPU backend (gpu/), failure recording to error.c.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The experiments of a description, defaults applied; refuses values no device runs. */
static wgs_result experimental_defaults(const wgs_context_desc *desc, wgs_experimental *e) {
    memset(e, 0, sizeof *e);
    if (desc->experimental) *e = *desc->experimental;
    if (e->max_storage_binding_size && e->max_storage_binding_size < WGS_MIN_BINDING_CAP)
        return wgs__fail_desc(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "experimental max_storage_binding_size %llu is below %u bytes",
                          (unsigned long long)e->max_storage_binding_size, WGS_MIN_BINDING_CAP);
    if (e->max_workgroups_per_dimension == 1)
        return wgs__fail_desc(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "experimental max_workgroups_per_dimension must be 0 or at least 2");
    if (e->lookback_per_lane > 8)
        return wgs__fail_desc(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "experimental lookback_per_lane %u is outside 1..8", e->lookback_per_lane);
    if (e->transfer_chunk_bytes && (e->transfer_chunk_bytes % 65536 || e->transfer_chunk_bytes > (1ull << 30)))
        return wgs__fail_desc(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "experimental transfer_chunk_bytes %llu is not a multiple of 64 KiB up to 1 GiB",
                          (unsigned long long)e->transfer_chunk_bytes);
    if (e->transfer_slots > 16 || e->transfer_threads > 16)
        return wgs__fail_desc(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "experimental transfer_slots %u or transfer_threads %u is outside 1..16",
                          e->transfer_slots, e->transfer_threads);
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
        wgs__gpu_close(gpu);
        return wgs__fail_desc(desc, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the context");
    }
    ctx->gpu = gpu;
    ctx->log = desc->log;
    ctx->log_user = desc->log_user;
    ctx->exp = *e;
    wgs__gpu_get_caps(gpu, &ctx->caps);
    apply_caps(ctx);
    gpu_transfer_shape ts = {e->transfer_chunk_bytes, e->transfer_slots, e->transfer_threads,
                             e->transfer_direct_max, e->transfer_legacy};
    wgs__gpu_set_transfer_shape(gpu, &ts);
    *out = ctx;
    return WGS_OK;
}

/* What both creations check first: out given, the description's fields valid. */
static wgs_result desc_check(const wgs_context_desc *desc, wgs_experimental *e) {
    if ((unsigned)desc->adapter > WGS_ADAPTER_CPU)
        return wgs__fail_desc(desc, WGS_ERROR_INVALID_ARGUMENT, "unknown adapter preference %d",
                          (int)desc->adapter);
    if ((unsigned)desc->driver_output > WGS_DRIVER_OUTPUT_STDERR)
        return wgs__fail_desc(desc, WGS_ERROR_INVALID_ARGUMENT, "unknown driver_output %d",
                          (int)desc->driver_output);
    if (!(desc->wait_timeout_s >= 0) || desc->wait_timeout_s > 1e9)
        return wgs__fail_desc(desc, WGS_ERROR_INVALID_ARGUMENT, "wait_timeout_s %g is not a number of seconds",
                          desc->wait_timeout_s);
    if (desc->runtime_library && !*desc->runtime_library)
        return wgs__fail_desc(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "runtime_library is an empty string (NULL picks the default runtime)");
    return experimental_defaults(desc, e);
}

wgs_result wgs_context_create(const wgs_context_desc *desc, wgs_context **out) {
    if (out) *out = NULL;
    if (!out) return wgs__fail_desc(desc, WGS_ERROR_INVALID_ARGUMENT, "out is NULL");
    wgs_context_desc zero;
    memset(&zero, 0, sizeof zero);
    if (!desc) desc = &zero;
    wgs_experimental e;
    wgs_result r = desc_check(desc, &e);
    if (r != WGS_OK) return r;
    gpu_device *gpu = NULL;
    char err[768] = "";
    r = wgs__gpu_open_default(desc, &gpu, err, sizeof err);
    if (r != WGS_OK) return wgs__fail_desc(desc, r, "%s", err);
    return finish_create(gpu, desc, &e, out);
}

wgs_result wgs_context_create_from_device(const wgs_external_device *ext,
                                          const wgs_context_desc *desc, wgs_context **out) {
    if (out) *out = NULL;
    if (!out || !ext || !ext->device || !ext->instance || !ext->get_proc_address)
        return wgs__fail_desc(desc, WGS_ERROR_INVALID_ARGUMENT,
                          "out, device, instance and get_proc_address are required");
    wgs_context_desc zero;
    memset(&zero, 0, sizeof zero);
    if (!desc) desc = &zero;
    wgs_experimental e;
    wgs_result r = desc_check(desc, &e);
    if (r != WGS_OK) return r;
    gpu_device *gpu = NULL;
    char err[768] = "";
    r = wgs__gpu_open_external(ext, desc, &gpu, err, sizeof err);
    if (r != WGS_OK) return wgs__fail_desc(desc, r, "%s", err);
    return finish_create(gpu, desc, &e, out);
}

void wgs_context_destroy(wgs_context *ctx) {
    if (!ctx) return;
    if (ctx->live_plans)
        fprintf(stderr, "wgscan: wgs_context_destroy with %d plan(s) alive; destroy them first\n",
                ctx->live_plans);
    wgs__pipelines_release(ctx);
    wgs__dispatch_release(ctx);
    wgs__gpu_close(ctx->gpu);
    free(ctx);
}

const char *wgs_context_last_error(const wgs_context *ctx) { return ctx ? ctx->last_error : ""; }

uint64_t wgs_experimental_buffer_bytes_created(const wgs_context *ctx) {
    return ctx ? wgs__gpu_buffer_bytes_created(ctx->gpu) : 0;
}

wgs_experimental_pipeline_counts wgs_experimental_pipelines(const wgs_context *ctx) {
    wgs_experimental_pipeline_counts c = {0, 0};
    if (ctx) c.created = ctx->pipelines_created, c.prepared = ctx->pipelines_prepared;
    return c;
}

wgs_experimental_encode_counts wgs_experimental_encodes(const wgs_context *ctx) {
    wgs_experimental_encode_counts c = {0, 0};
    if (ctx) c.bind_groups_created = ctx->bind_groups_created, c.records_written = ctx->records_written;
    return c;
}

wgs_result wgs_context_get_info(const wgs_context *ctx, wgs_context_info *info) {
    if (!ctx || !info) return WGS_ERROR_INVALID_ARGUMENT;
    *info = ctx->caps.info;
    return WGS_OK;
}

WGPUDevice wgs_context_device(const wgs_context *ctx) { return ctx ? wgs__gpu_wgpu_device(ctx->gpu) : NULL; }
WGPUQueue wgs_context_queue(const wgs_context *ctx) { return ctx ? wgs__gpu_wgpu_queue(ctx->gpu) : NULL; }
WGPUInstance wgs_context_instance(const wgs_context *ctx) {
    return ctx ? wgs__gpu_wgpu_instance(ctx->gpu) : NULL;
}
WGPUProc wgs_context_get_proc(const wgs_context *ctx, const char *name) {
    return ctx ? wgs__gpu_get_proc(ctx->gpu, name) : NULL;
}
