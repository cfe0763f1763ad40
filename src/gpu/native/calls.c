/* SPDX-License-Identifier: MIT */
/*
 * calls.c: the native backend's wrappers of gpu.h: error scopes, buffers, pipelines,
 * bind groups, recording, submission, waits and reads, each a thin call through the
 * resolved function table.
 */
#include "gpu/native/native.h"

#include <pthread.h>
#include <unistd.h>

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
    if (d->measuring) return NULL;
    d->buffer_bytes_created += size;
    return d->p.DeviceCreateBuffer(d->device, &bd);
}

uint64_t wgs__gpu_buffer_bytes_created(const gpu_device *d) { return d->buffer_bytes_created; }
void wgs__gpu_set_measuring(gpu_device *d, int on) { d->measuring = on; }

void wgs__gpu_buffer_release(gpu_device *d, WGPUBuffer b) {
    if (b) d->p.BufferRelease(b);
}

uint64_t wgs__gpu_buffer_size(gpu_device *d, WGPUBuffer b) { return d->p.BufferGetSize(b); }
WGPUBufferUsage wgs__gpu_buffer_usage(gpu_device *d, WGPUBuffer b) { return d->p.BufferGetUsage(b); }

void wgs__gpu_queue_write(gpu_device *d, WGPUBuffer b, uint64_t offset, const void *data, size_t size) {
    d->p.QueueWriteBuffer(d->queue, b, offset, data, size);
}

/* The shader module of `wgsl` and a pipeline description of its `entry`, shared by the
 * synchronous and the asynchronous creation; the caller releases *module (may be NULL). */
static WGPUComputePipelineDescriptor pipeline_desc(gpu_device *d, const char *wgsl, const char *entry,
                                                   const char *label, WGPUShaderModule *module) {
    WGPUShaderSourceWGSL src;
    memset(&src, 0, sizeof src);
    src.chain.sType = WGPUSType_ShaderSourceWGSL;
    src.code = sv(wgsl);
    WGPUShaderModuleDescriptor md;
    memset(&md, 0, sizeof md);
    md.nextInChain = &src.chain;
    md.label = sv(label);
    *module = d->p.DeviceCreateShaderModule(d->device, &md);
    WGPUComputePipelineDescriptor pd;
    memset(&pd, 0, sizeof pd);
    pd.label = sv(label);
    pd.compute.module = *module;
    pd.compute.entryPoint = sv(entry);
    return pd;
}

WGPUComputePipeline wgs__gpu_pipeline_create(gpu_device *d, const char *wgsl, const char *entry,
                                        const char *label) {
    WGPUShaderModule m;
    WGPUComputePipelineDescriptor pd = pipeline_desc(d, wgsl, entry, label, &m);
    if (!m) return NULL;
    WGPUComputePipeline p = d->p.DeviceCreateComputePipeline(d->device, &pd);
    d->p.ShaderModuleRelease(m);
    return p;
}

/* A pipeline compiling while the caller goes on (wgs__gpu_pipeline_request). */
struct gpu_pipeline_request {
    pending head;
    WGPUFuture future;
    WGPUCreatePipelineAsyncStatus status;
    WGPUComputePipeline pipeline;
    void (*release)(WGPUComputePipeline); /* for a pipeline that arrives after its waiter gave up */
    char msg[1024];
};

static void on_pipeline(WGPUCreatePipelineAsyncStatus status, WGPUComputePipeline pipeline, WGPUStringView message,
                        void *u1, void *u2) {
    (void)u2;
    gpu_pipeline_request *r = u1;
    if (r->head.abandoned && pipeline) r->release(pipeline);
    if (wgs__pending_orphan(r)) return;
    r->status = status;
    r->pipeline = pipeline;
    sv_copy(r->msg, sizeof r->msg, message);
    r->head.done = 1;
}

gpu_pipeline_request *wgs__gpu_pipeline_request(gpu_device *d, const char *wgsl, const char *entry,
                                                const char *label) {
    gpu_pipeline_request *r = wgs__pending_new(sizeof *r);
    if (!r) return NULL;
    r->release = d->p.ComputePipelineRelease;
    WGPUShaderModule m;
    WGPUComputePipelineDescriptor pd = pipeline_desc(d, wgsl, entry, label, &m);
    WGPUCreateComputePipelineAsyncCallbackInfo cb;
    memset(&cb, 0, sizeof cb);
    cb.mode = wait_mode(d);
    cb.callback = on_pipeline;
    cb.userdata1 = r;
    /* An invalid module (m never NULL in Dawn) makes the request fail in its callback;
     * the module's own error goes to the caller's scope, as wgs__gpu_pipeline_create's. */
    r->future = d->p.DeviceCreateComputePipelineAsync(d->device, &pd, cb);
    if (m) d->p.ShaderModuleRelease(m);
    return r;
}

wgs_result wgs__gpu_pipeline_wait(gpu_device *d, gpu_pipeline_request *r, WGPUComputePipeline *out, char *msg,
                                  size_t msglen) {
    *out = NULL;
    wgs_result w = wgs__native_wait(d, r->future, &r->head.done);
    if (w != WGS_OK) {
        fmt(msg, msglen, "%s", w == WGS_ERROR_TIMEOUT ? "the compilation did not finish in time"
                                                      : "waiting for the compilation failed");
    } else if (r->status == WGPUCreatePipelineAsyncStatus_Success && r->pipeline) {
        *out = r->pipeline;
    } else {
        if (r->pipeline) d->p.ComputePipelineRelease(r->pipeline);
        w = r->status == WGPUCreatePipelineAsyncStatus_ValidationError ? WGS_ERROR_GPU_VALIDATION
            : d->lost                                                    ? WGS_ERROR_DEVICE_LOST
                                                                         : WGS_ERROR_GPU_INTERNAL;
        fmt(msg, msglen, "%s", r->msg[0] ? r->msg : d->lost ? d->lost_msg : "no pipeline");
    }
    wgs__pending_end(r);
    return w;
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

uint64_t wgs__gpu_buffer_id(gpu_device *d, WGPUBuffer b) {
    (void)d;
    return (uint64_t)(uintptr_t)b;
}

void wgs__gpu_buffer_hold(gpu_device *d, WGPUBuffer b) {
    if (b) d->p.BufferAddRef(b);
}

void wgs__gpu_buffer_unhold(gpu_device *d, WGPUBuffer b) {
    if (b) d->p.BufferRelease(b);
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

void wgs__gpu_pass_dispatch_indirect(gpu_device *d, WGPUComputePassEncoder pass, WGPUComputePipeline pipeline,
                                WGPUBindGroup group, WGPUBuffer args, uint64_t offset) {
    d->p.ComputePassEncoderSetPipeline(pass, pipeline);
    d->p.ComputePassEncoderSetBindGroup(pass, 0, group, 0, NULL);
    d->p.ComputePassEncoderDispatchWorkgroupsIndirect(pass, args, offset);
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

/* ------------------------------------------------------------------------- */
/* host transfers (native.h: the staging rings; docs/design.md section 10)     */

/* The defaults, measured on the H200 (docs/design.md section 10): chunks large enough
 * that a submit and a map per chunk cost little, small enough that four of them in each
 * direction stay a modest amount of staging memory; 8 memcpy threads (at most half the
 * host's cores); wgpuQueueWriteBuffer is faster than a staged upload up to 2 MiB. */
#define XFER_CHUNK (32ull << 20)
#define XFER_SLOTS 4u
#define XFER_THREADS 8u
#define XFER_DIRECT_MAX (2ull << 20)
#define XFER_MAX_THREADS 16u
#define XFER_SLOT_MIN (1ull << 20)   /* transfers up to this size share slots of this size */
#define XFER_PART_MIN (256ull << 10) /* a memcpy is split only into parts this large */
#define XFER_LEGACY_PIECE (64ull << 20)
#define QUEUE_WRITE_PIECE (256ull << 20) /* keeps the runtime's own staging copy small */

typedef struct map_req {
    pending head;
    int status;
    char msg[256];
} map_req;

static void on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
    (void)u2;
    map_req *r = u1;
    if (wgs__pending_orphan(r)) return;
    r->status = (int)status;
    sv_copy(r->msg, sizeof r->msg, message);
    r->head.done = 1;
}

/* The shape in force: the fields set, the defaults for the others, the chunk a
 * multiple of 4 bytes within the device's largest buffer. */
static gpu_transfer_shape shape_of(const gpu_device *d) {
    gpu_transfer_shape t = d->xfer;
    if (!t.chunk) t.chunk = XFER_CHUNK;
    uint64_t max = d->caps.info.max_buffer_size & ~0xFFFFull;
    if (max && t.chunk > max) t.chunk = max;
    t.chunk &= ~3ull;
    if (t.chunk < 4) t.chunk = 4;
    if (!t.slots) t.slots = XFER_SLOTS;
    if (t.slots > WGS_XFER_MAX_SLOTS) t.slots = WGS_XFER_MAX_SLOTS;
    if (!t.threads) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        t.threads = cores >= 2 * (long)XFER_THREADS ? XFER_THREADS : cores >= 2 ? (uint32_t)(cores / 2) : 1;
    }
    if (t.threads > XFER_MAX_THREADS) t.threads = XFER_MAX_THREADS;
    if (!t.direct_max) t.direct_max = XFER_DIRECT_MAX;
    if (t.legacy) {
        t.chunk = XFER_LEGACY_PIECE;
        t.slots = 1;
        t.threads = 1;
    }
    return t;
}

typedef struct copy_part {
    char *dst;
    const char *src;
    size_t len;
} copy_part;

static void *copy_part_run(void *arg) {
    copy_part *c = arg;
    memcpy(c->dst, c->src, c->len);
    return NULL;
}

/* memcpy in up to `threads` parts, each on its own thread: one core alone copies into or
 * out of mapped memory well below what PCIe moves. A thread that cannot be started
 * leaves its part to the caller. */
static void copy_host(void *dst, const void *src, size_t len, uint32_t threads) {
    size_t parts = len / XFER_PART_MIN < threads ? len / XFER_PART_MIN : threads;
    if (parts <= 1) {
        memcpy(dst, src, len);
        return;
    }
    /* Parts in multiples of 4 KiB: the staging side splits at its pages. */
    size_t step = (len / parts + 4095) & ~(size_t)4095, count = (len + step - 1) / step;
    copy_part part[XFER_MAX_THREADS] = {{0}};
    pthread_t tid[XFER_MAX_THREADS];
    int started[XFER_MAX_THREADS] = {0};
    for (size_t k = 0; k < count; k++) {
        size_t at = k * step, n = len - at < step ? len - at : step;
        part[k] = (copy_part){(char *)dst + at, (const char *)src + at, n};
    }
    for (size_t k = 1; k < count; k++) started[k] = pthread_create(&tid[k], NULL, copy_part_run, &part[k]) == 0;
    copy_part_run(&part[0]);
    for (size_t k = 1; k < count; k++) {
        if (started[k]) pthread_join(tid[k], NULL);
        else copy_part_run(&part[k]);
    }
}

/* A staging slot's size for a chunk of len bytes: 1 MiB while transfers stay that
 * small, else the whole chunk. Two sizes only, since a slot made again costs about a
 * millisecond per 4 MiB on the H200 (its memory mapped and cleared). */
static uint64_t slot_size(const gpu_transfer_shape *t, uint64_t len) {
    return len <= XFER_SLOT_MIN && XFER_SLOT_MIN < t->chunk ? XFER_SLOT_MIN : t->chunk;
}

/* Issues the map of a slot's first len bytes; slot_wait waits for it. */
static wgs_result slot_map(gpu_device *d, xfer_slot *s, WGPUMapMode mode, uint64_t len, char *msg,
                           size_t msglen) {
    map_req *m = wgs__pending_new(sizeof *m);
    if (!m) {
        fmt(msg, msglen, "out of host memory");
        return WGS_ERROR_OUT_OF_HOST_MEMORY;
    }
    WGPUBufferMapCallbackInfo cb;
    memset(&cb, 0, sizeof cb);
    cb.mode = wait_mode(d);
    cb.callback = on_map;
    cb.userdata1 = m;
    s->req = m;
    s->future = d->p.BufferMapAsync(s->buffer, mode, 0, (size_t)len, cb);
    return WGS_OK;
}

static wgs_result slot_wait(gpu_device *d, xfer_slot *s, char *msg, size_t msglen) {
    if (!s->req) return WGS_OK;
    wgs_result w = wgs__native_wait(d, s->future, &s->req->head.done);
    if (w != WGS_OK) { /* the request stays with the slot: releasing the ring abandons it */
        fmt(msg, msglen, "the GPU did not finish within %g s", d->wait_limit_s);
        return w;
    }
    int status = s->req->status;
    if (status != WGPUMapAsyncStatus_Success)
        fmt(msg, msglen, "mapping a staging buffer failed: %s", s->req->msg);
    wgs__pending_end(s->req);
    s->req = NULL;
    if (status != WGPUMapAsyncStatus_Success) return d->lost ? WGS_ERROR_DEVICE_LOST : WGS_ERROR_MAP_FAILED;
    return WGS_OK;
}

static void slot_release(gpu_device *d, xfer_slot *s) {
    if (s->buffer) d->p.BufferDestroy(s->buffer); /* unmaps, and aborts a map in flight */
    if (s->req) {
        /* The aborted map's callback is due at once: take it here if it comes within a
         * second, else its callback frees the request whenever it runs. */
        double limit = d->wait_limit_s;
        d->wait_limit_s = limit < 1.0 ? limit : 1.0;
        wgs__native_wait(d, s->future, &s->req->head.done);
        d->wait_limit_s = limit;
        wgs__pending_end(s->req);
    }
    if (s->buffer) d->p.BufferRelease(s->buffer);
    memset(s, 0, sizeof *s);
}

static void ring_release(gpu_device *d, xfer_ring *ring) {
    for (int i = 0; i < WGS_XFER_MAX_SLOTS; i++) slot_release(d, &ring->slot[i]);
    ring->next = 0;
}

void wgs__native_transfer_release(gpu_device *d) {
    ring_release(d, &d->up);
    ring_release(d, &d->down);
}

void wgs__gpu_set_transfer_shape(gpu_device *d, const gpu_transfer_shape *t) {
    wgs__native_transfer_release(d); /* slots of the old shape */
    d->xfer = *t;
}

/* Upload slots are MapWrite | CopySrc and made mapped, download slots MapRead | CopyDst. */
static wgs_result slot_create(gpu_device *d, xfer_slot *s, uint64_t cap, int upload, char *msg, size_t msglen) {
    WGPUBufferDescriptor bd;
    memset(&bd, 0, sizeof bd);
    bd.label = sv(upload ? "wgscan upload staging" : "wgscan download staging");
    bd.usage = upload ? WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc
                      : WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
    bd.size = cap;
    bd.mappedAtCreation = upload;
    wgs__gpu_scope_push(d);
    s->buffer = d->p.DeviceCreateBuffer(d->device, &bd);
    wgs_result r = wgs__gpu_scope_pop(d, msg, msglen);
    s->cap = cap;
    if (r == WGS_OK && !s->buffer) {
        fmt(msg, msglen, "creating a staging buffer of %llu bytes failed", (unsigned long long)cap);
        r = WGS_ERROR_GPU_OUT_OF_MEMORY;
    }
    if (r != WGS_OK) slot_release(d, s);
    return r;
}

/* Where the host writes an upload slot's len bytes: the slot made, or its last copy
 * finished (the map issued after that copy's submit resolves then). */
static void *upload_slot(gpu_device *d, const gpu_transfer_shape *t, xfer_slot *s, uint64_t len, wgs_result *r,
                         char *msg, size_t msglen) {
    if (s->buffer && s->cap < len) slot_release(d, s);
    *r = s->buffer ? slot_wait(d, s, msg, msglen) : slot_create(d, s, slot_size(t, len), 1, msg, msglen);
    if (*r != WGS_OK) return NULL;
    void *p = d->p.BufferGetMappedRange(s->buffer, 0, (size_t)s->cap);
    if (!p) {
        fmt(msg, msglen, "the staging buffer's mapped range is not accessible");
        *r = WGS_ERROR_MAP_FAILED;
    }
    return p;
}

wgs_result wgs__gpu_buffer_write(gpu_device *d, WGPUBuffer b, uint64_t offset, const void *data, uint64_t size,
                            char *msg, size_t msglen) {
    if (size == 0) return WGS_OK;
    const gpu_transfer_shape t = shape_of(d);
    if (t.legacy || size <= t.direct_max) {
        /* Small writes: the runtime's own staging costs no wait and no submit here. */
        wgs__gpu_scope_push(d);
        for (uint64_t done = 0; done < size; done += QUEUE_WRITE_PIECE) {
            uint64_t len = size - done < QUEUE_WRITE_PIECE ? size - done : QUEUE_WRITE_PIECE;
            d->p.QueueWriteBuffer(d->queue, b, offset + done, (const char *)data + done, (size_t)len);
        }
        return wgs__gpu_scope_pop(d, msg, msglen);
    }
    wgs_result r = WGS_OK;
    for (uint64_t done = 0, len; r == WGS_OK && done < size; done += len) {
        len = size - done < t.chunk ? size - done : t.chunk;
        xfer_slot *s = &d->up.slot[d->up.next % t.slots];
        d->up.next = (d->up.next + 1) % t.slots;
        void *p = upload_slot(d, &t, s, len, &r, msg, msglen);
        if (!p) break;
        copy_host(p, (const char *)data + done, (size_t)len, t.threads);
        d->p.BufferUnmap(s->buffer);
        /* The copy's own errors (a buffer without CopyDst, destroyed, or of another
         * device) surface at finish and submit. */
        wgs__gpu_scope_push(d);
        WGPUCommandEncoder enc = wgs__gpu_encoder_create(d);
        wgs__gpu_copy(d, enc, s->buffer, 0, b, offset + done, len);
        wgs__gpu_submit(d, enc);
        /* Mapped again as soon as the GPU has copied out of it, for a later chunk. */
        wgs_result m = slot_map(d, s, WGPUMapMode_Write, s->cap, msg, msglen);
        r = wgs__gpu_scope_pop(d, msg, msglen);
        if (r == WGS_OK) r = m;
    }
    if (r != WGS_OK) ring_release(d, &d->up);
    return r;
}

/* Records and submits the GPU's copy of chunk k into its download slot, then maps the
 * slot (the map resolves once the copy is done). */
static wgs_result download_issue(gpu_device *d, const gpu_transfer_shape *t, WGPUBuffer b, uint64_t offset,
                                 uint64_t size, uint64_t k, char *msg, size_t msglen) {
    xfer_slot *s = &d->down.slot[k % t->slots];
    uint64_t at = k * t->chunk, len = size - at < t->chunk ? size - at : t->chunk;
    uint64_t copy_len = (len + 3) & ~3ull; /* copies move multiples of 4 bytes */
    if (s->buffer && s->cap < copy_len) slot_release(d, s);
    wgs_result r = s->buffer ? WGS_OK : slot_create(d, s, slot_size(t, copy_len), 0, msg, msglen);
    if (r != WGS_OK) return r;
    /* The copy's own errors (a buffer without CopySrc, destroyed, or of another device)
     * surface at finish and submit: caught here, not left to the uncaptured-error
     * handler while zeros are read back. */
    wgs__gpu_scope_push(d);
    WGPUCommandEncoder enc = wgs__gpu_encoder_create(d);
    wgs__gpu_copy(d, enc, b, offset + at, s->buffer, 0, copy_len);
    wgs__gpu_submit(d, enc);
    r = wgs__gpu_scope_pop(d, msg, msglen);
    if (r != WGS_OK) return r;
    return slot_map(d, s, WGPUMapMode_Read, copy_len, msg, msglen);
}

wgs_result wgs__gpu_buffer_read(gpu_device *d, WGPUBuffer b, uint64_t offset, uint64_t size, void *dst,
                           char *msg, size_t msglen) {
    if (size == 0) return WGS_OK;
    const gpu_transfer_shape t = shape_of(d);
    const uint64_t chunks = size / t.chunk + (size % t.chunk != 0);
    wgs_result r = WGS_OK;
    uint64_t issued = 0;
    for (uint64_t k = 0; r == WGS_OK && k < chunks; k++) {
        /* Every slot busy: the GPU copies the chunks ahead while the host copies this one. */
        while (r == WGS_OK && issued < chunks && issued < k + t.slots)
            r = download_issue(d, &t, b, offset, size, issued++, msg, msglen);
        xfer_slot *s = &d->down.slot[k % t.slots];
        if (r == WGS_OK) r = slot_wait(d, s, msg, msglen);
        if (r != WGS_OK) break;
        uint64_t at = k * t.chunk, len = size - at < t.chunk ? size - at : t.chunk;
        const void *src = d->p.BufferGetConstMappedRange(s->buffer, 0, (size_t)((len + 3) & ~3ull));
        if (!src) {
            fmt(msg, msglen, "the staging buffer's mapped range is not accessible");
            r = WGS_ERROR_MAP_FAILED;
        } else {
            copy_host((char *)dst + at, src, (size_t)len, t.threads);
        }
        d->p.BufferUnmap(s->buffer);
    }
    /* After a failure the slots' states are unknown; the old path kept no staging. */
    if (r != WGS_OK || t.legacy) ring_release(d, &d->down);
    return r;
}
