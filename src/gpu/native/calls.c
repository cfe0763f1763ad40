/* SPDX-License-Identifier: MIT */
/*
 * calls.c: the native backend's wrappers of gpu.h: error scopes, buffers, pipelines,
 * bind groups, recording, submission, waits and reads, each a thin call through the
 * resolved function table.
 */
#include "gpu/native/native.h"

/* ------------------------------------------------------------------------- */
/* error scopes                                                                */

typedef struct scope_req {
    pending head;
    WGPUPopErrorScopeStatus status;
    WGPUErrorType type;
    char msg[512];
} scope_req;

static void on_scope(WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message,
                     void *u1, void *u2) {
    (void)u2;
    scope_req *r = u1;
    if (wgs__pending_orphan(r)) return;
    r->status = status;
    r->type = type;
    sv_copy(r->msg, sizeof r->msg, message);
    r->head.done = 1;
}

/* WebGPU cannot be asked which device made an object, but Dawn's validation names a
 * wrong-device object this way ("[Buffer] is associated with [Device \"a\"], and cannot
 * be used with [Device \"b\"]"): a buffer of another context. Other runtimes' texts
 * stay WGS_ERROR_GPU_VALIDATION. */
static int names_other_device(const char *msg) {
    return strstr(msg, "is associated with") && strstr(msg, "cannot be used with");
}

void wgs__gpu_scope_push(gpu_device *d) {
    d->p.DevicePushErrorScope(d->device, WGPUErrorFilter_Internal);
    d->p.DevicePushErrorScope(d->device, WGPUErrorFilter_OutOfMemory);
    d->p.DevicePushErrorScope(d->device, WGPUErrorFilter_Validation);
    d->scope_depth++;
}

wgs_result wgs__gpu_scope_pop(gpu_device *d, char *msg, size_t msglen) {
    wgs_result first = WGS_OK;
    if (d->scope_depth <= 0) return WGS_ERROR_GPU_INTERNAL;
    d->scope_depth--;
    /* Pop in reverse order of the pushes: validation, out-of-memory, internal. All three
     * are popped even after an error so the stack stays balanced. */
    for (int i = 0; i < 3; i++) {
        scope_req *r = wgs__pending_new(sizeof *r);
        if (!r) { /* the scope stays on the device's stack: nothing better to do */
            if (first == WGS_OK) fmt(msg, msglen, "out of host memory popping an error scope");
            if (first == WGS_OK) first = WGS_ERROR_OUT_OF_HOST_MEMORY;
            continue;
        }
        WGPUPopErrorScopeCallbackInfo cb;
        memset(&cb, 0, sizeof cb);
        cb.mode = wait_mode(d);
        cb.callback = on_scope;
        cb.userdata1 = r;
        WGPUFuture f = d->p.DevicePopErrorScope(d->device, cb);
        wgs_result w = wgs__native_wait(d, f, &r->head.done);
        wgs_result e = WGS_OK;
        if (w != WGS_OK) {
            e = w;
            if (first == WGS_OK) fmt(msg, msglen, "waiting for a WebGPU error scope failed");
        } else if (r->status == WGPUPopErrorScopeStatus_Success) { /* else: the device is gone */
            switch (r->type) {
            case WGPUErrorType_NoError: break;
            case WGPUErrorType_Validation:
                e = names_other_device(r->msg) ? WGS_ERROR_WRONG_CONTEXT : WGS_ERROR_GPU_VALIDATION;
                break;
            case WGPUErrorType_OutOfMemory: e = WGS_ERROR_GPU_OUT_OF_MEMORY; break;
            default: e = WGS_ERROR_GPU_INTERNAL; break;
            }
            if (e != WGS_OK && first == WGS_OK) fmt(msg, msglen, "%s", r->msg);
        }
        wgs__pending_end(r);
        if (first == WGS_OK) first = e;
    }
    if (first == WGS_OK && d->lost) {
        fmt(msg, msglen, "%s", d->lost_msg);
        return WGS_ERROR_DEVICE_LOST;
    }
    return first;
}

/* ------------------------------------------------------------------------- */
/* objects                                                                     */

WGPUBuffer wgs__gpu_buffer_create(gpu_device *d, uint64_t size, WGPUBufferUsage usage,
                             const char *label) {
    WGPUBufferDescriptor bd;
    memset(&bd, 0, sizeof bd);
    bd.label = sv(label);
    bd.usage = usage;
    bd.size = size;
    return d->p.DeviceCreateBuffer(d->device, &bd);
}

void wgs__gpu_buffer_release(gpu_device *d, WGPUBuffer b) {
    if (b) d->p.BufferRelease(b);
}

uint64_t wgs__gpu_buffer_size(gpu_device *d, WGPUBuffer b) { return d->p.BufferGetSize(b); }
WGPUBufferUsage wgs__gpu_buffer_usage(gpu_device *d, WGPUBuffer b) { return d->p.BufferGetUsage(b); }

void wgs__gpu_queue_write(gpu_device *d, WGPUBuffer b, uint64_t offset, const void *data, size_t size) {
    d->p.QueueWriteBuffer(d->queue, b, offset, data, size);
}

WGPUComputePipeline wgs__gpu_pipeline_create(gpu_device *d, const char *wgsl, const char *entry,
                                        const char *label) {
    WGPUShaderSourceWGSL src;
    memset(&src, 0, sizeof src);
    src.chain.sType = WGPUSType_ShaderSourceWGSL;
    src.code = sv(wgsl);
    WGPUShaderModuleDescriptor md;
    memset(&md, 0, sizeof md);
    md.nextInChain = &src.chain;
    md.label = sv(label);
    WGPUShaderModule m = d->p.DeviceCreateShaderModule(d->device, &md);
    if (!m) return NULL;
    WGPUComputePipelineDescriptor pd;
    memset(&pd, 0, sizeof pd);
    pd.label = sv(label);
    pd.compute.module = m;
    pd.compute.entryPoint = sv(entry);
    WGPUComputePipeline p = d->p.DeviceCreateComputePipeline(d->device, &pd);
    d->p.ShaderModuleRelease(m);
    return p;
}

void wgs__gpu_pipeline_release(gpu_device *d, WGPUComputePipeline p) {
    if (p) d->p.ComputePipelineRelease(p);
}

WGPUBindGroup wgs__gpu_bind_group_create(gpu_device *d, WGPUComputePipeline pipeline,
                                    const gpu_binding *b, uint32_t count) {
    WGPUBindGroupEntry e[12];
    if (count > 12) return NULL;
    memset(e, 0, sizeof e);
    for (uint32_t i = 0; i < count; i++) {
        e[i].binding = b[i].binding;
        e[i].buffer = b[i].buffer;
        e[i].offset = b[i].offset;
        e[i].size = b[i].size;
    }
    WGPUBindGroupLayout layout = d->p.ComputePipelineGetBindGroupLayout(pipeline, 0);
    WGPUBindGroupDescriptor bd;
    memset(&bd, 0, sizeof bd);
    bd.layout = layout;
    bd.entryCount = count;
    bd.entries = e;
    WGPUBindGroup g = d->p.DeviceCreateBindGroup(d->device, &bd);
    d->p.BindGroupLayoutRelease(layout);
    return g;
}

void wgs__gpu_bind_group_release(gpu_device *d, WGPUBindGroup g) {
    if (g) d->p.BindGroupRelease(g);
}

WGPUComputePassEncoder wgs__gpu_pass_begin(gpu_device *d, WGPUCommandEncoder enc, WGPUQuerySet qs,
                                      uint32_t begin_index, uint32_t end_index) {
    WGPUPassTimestampWrites tw;
    memset(&tw, 0, sizeof tw);
    WGPUComputePassDescriptor pd;
    memset(&pd, 0, sizeof pd);
    pd.label = sv("wgscan");
    /* A pass between the first and the last of a primitive writes no timestamp, and
     * WebGPU refuses timestampWrites with neither index. */
    if (qs && (begin_index != WGPU_QUERY_SET_INDEX_UNDEFINED || end_index != WGPU_QUERY_SET_INDEX_UNDEFINED)) {
        tw.querySet = qs;
        tw.beginningOfPassWriteIndex = begin_index;
        tw.endOfPassWriteIndex = end_index;
        pd.timestampWrites = &tw;
    }
    return d->p.CommandEncoderBeginComputePass(enc, &pd);
}

void wgs__gpu_pass_dispatch(gpu_device *d, WGPUComputePassEncoder pass, WGPUComputePipeline pipeline,
                       WGPUBindGroup group, uint32_t x, uint32_t y) {
    d->p.ComputePassEncoderSetPipeline(pass, pipeline);
    d->p.ComputePassEncoderSetBindGroup(pass, 0, group, 0, NULL);
    d->p.ComputePassEncoderDispatchWorkgroups(pass, x, y, 1);
}

void wgs__gpu_pass_end(gpu_device *d, WGPUComputePassEncoder pass) {
    d->p.ComputePassEncoderEnd(pass);
    d->p.ComputePassEncoderRelease(pass);
}

/* ------------------------------------------------------------------------- */
/* host-side helpers                                                           */

WGPUCommandEncoder wgs__gpu_encoder_create(gpu_device *d) {
    WGPUCommandEncoderDescriptor ed;
    memset(&ed, 0, sizeof ed);
    return d->p.DeviceCreateCommandEncoder(d->device, &ed);
}

void wgs__gpu_copy(gpu_device *d, WGPUCommandEncoder enc, WGPUBuffer src, uint64_t src_offset,
              WGPUBuffer dst, uint64_t dst_offset, uint64_t size) {
    d->p.CommandEncoderCopyBufferToBuffer(enc, src, src_offset, dst, dst_offset, size);
}

void wgs__gpu_resolve_queries(gpu_device *d, WGPUCommandEncoder enc, WGPUQuerySet qs, uint32_t first,
                         uint32_t count, WGPUBuffer dst, uint64_t dst_offset) {
    d->p.CommandEncoderResolveQuerySet(enc, qs, first, count, dst, dst_offset);
}

WGPUQuerySet wgs__gpu_timestamp_set_create(gpu_device *d, uint32_t count) {
    WGPUQuerySetDescriptor qd;
    memset(&qd, 0, sizeof qd);
    qd.label = sv("wgscan timestamps");
    qd.type = WGPUQueryType_Timestamp;
    qd.count = count;
    return d->p.DeviceCreateQuerySet(d->device, &qd);
}

void wgs__gpu_query_set_release(gpu_device *d, WGPUQuerySet qs) {
    if (!qs) return;
    d->p.QuerySetDestroy(qs);
    d->p.QuerySetRelease(qs);
}

void wgs__gpu_submit(gpu_device *d, WGPUCommandEncoder enc) {
    WGPUCommandBufferDescriptor cd;
    memset(&cd, 0, sizeof cd);
    WGPUCommandBuffer cb = d->p.CommandEncoderFinish(enc, &cd);
    d->p.CommandEncoderRelease(enc);
    d->p.QueueSubmit(d->queue, 1, &cb);
    d->p.CommandBufferRelease(cb);
}

typedef struct done_req {
    pending head;
    int status;
    char msg[256];
} done_req;

static void on_work_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1,
                         void *u2) {
    (void)u2;
    done_req *r = u1;
    if (wgs__pending_orphan(r)) return;
    r->status = (int)status;
    sv_copy(r->msg, sizeof r->msg, message);
    r->head.done = 1;
}

wgs_result wgs__gpu_wait_idle(gpu_device *d, char *msg, size_t msglen) {
    done_req *r = wgs__pending_new(sizeof *r);
    if (!r) {
        fmt(msg, msglen, "out of host memory");
        return WGS_ERROR_OUT_OF_HOST_MEMORY;
    }
    WGPUQueueWorkDoneCallbackInfo cb;
    memset(&cb, 0, sizeof cb);
    cb.mode = wait_mode(d);
    cb.callback = on_work_done;
    cb.userdata1 = r;
    WGPUFuture f = d->p.QueueOnSubmittedWorkDone(d->queue, cb);
    wgs_result w = wgs__native_wait(d, f, &r->head.done);
    if (w != WGS_OK) {
        fmt(msg, msglen, "the GPU did not finish within %g s", d->wait_limit_s);
    } else if (d->lost) {
        fmt(msg, msglen, "%s", d->lost_msg);
        w = WGS_ERROR_DEVICE_LOST;
    } else if (r->status != WGPUQueueWorkDoneStatus_Success) {
        fmt(msg, msglen, "queue work failed: %s", r->msg);
        w = WGS_ERROR_GPU_INTERNAL;
    }
    wgs__pending_end(r);
    return w;
}

static void on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
    (void)u2;
    done_req *r = u1;
    if (wgs__pending_orphan(r)) return;
    r->status = (int)status;
    sv_copy(r->msg, sizeof r->msg, message);
    r->head.done = 1;
}

wgs_result wgs__gpu_buffer_read(gpu_device *d, WGPUBuffer b, uint64_t offset, uint64_t size, void *dst,
                           char *msg, size_t msglen) {
    if (size == 0) return WGS_OK;
    /* Staging in pieces keeps the extra GPU memory small for multi-gigabyte reads. */
    const uint64_t piece_max = 64ull << 20;
    uint64_t piece = size < piece_max ? (size + 3) & ~3ull : piece_max;
    wgs__gpu_scope_push(d);
    WGPUBuffer staging = wgs__gpu_buffer_create(d, piece, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst,
                                           "wgscan staging");
    wgs_result r = wgs__gpu_scope_pop(d, msg, msglen);
    if (r != WGS_OK) {
        wgs__gpu_buffer_release(d, staging);
        return r;
    }
    for (uint64_t done = 0; done < size && r == WGS_OK;) {
        uint64_t len = size - done < piece ? size - done : piece;
        uint64_t copy_len = (len + 3) & ~3ull; /* copies move multiples of 4 bytes */
        /* The copy's own errors (a buffer without CopySrc, destroyed, or of another
         * device) surface at finish and submit: caught here, not left to the
         * uncaptured-error handler while zeros are read back. */
        wgs__gpu_scope_push(d);
        WGPUCommandEncoder enc = wgs__gpu_encoder_create(d);
        wgs__gpu_copy(d, enc, b, offset + done, staging, 0, copy_len);
        wgs__gpu_submit(d, enc);
        r = wgs__gpu_scope_pop(d, msg, msglen);
        if (r != WGS_OK) break;
        done_req *mr = wgs__pending_new(sizeof *mr);
        if (!mr) {
            fmt(msg, msglen, "out of host memory");
            r = WGS_ERROR_OUT_OF_HOST_MEMORY;
            break;
        }
        WGPUBufferMapCallbackInfo cb;
        memset(&cb, 0, sizeof cb);
        cb.mode = wait_mode(d);
        cb.callback = on_map;
        cb.userdata1 = mr;
        WGPUFuture f = d->p.BufferMapAsync(staging, WGPUMapMode_Read, 0, (size_t)copy_len, cb);
        r = wgs__native_wait(d, f, &mr->head.done);
        if (r != WGS_OK) {
            fmt(msg, msglen, "the GPU did not finish within %g s", d->wait_limit_s);
        } else if (mr->status != WGPUMapAsyncStatus_Success) {
            fmt(msg, msglen, "mapping the staging buffer failed: %s", mr->msg);
            r = d->lost ? WGS_ERROR_DEVICE_LOST : WGS_ERROR_MAP_FAILED;
        }
        wgs__pending_end(mr);
        if (r != WGS_OK) break;
        const void *src = d->p.BufferGetConstMappedRange(staging, 0, (size_t)copy_len);
        if (!src) {
            fmt(msg, msglen, "the mapped range is not accessible");
            r = WGS_ERROR_MAP_FAILED;
        } else {
            memcpy((char *)dst + done, src, (size_t)len);
        }
        d->p.BufferUnmap(staging);
        done += len;
    }
    d->p.BufferDestroy(staging);
    wgs__gpu_buffer_release(d, staging);
    return r;
}
