/* SPDX-License-Identifier: MIT */
/*
 * gpu_web.c: the browser backend of gpu.h, for the WebAssembly build. Every function
 * is a call into JavaScript (web/wgscan.js, import module "wgpu"), which holds the
 * page's GPUDevice and keeps WebGPU objects in a table: a handle here is an index into
 * that table, never a pointer.
 *
 * Two differences from the native backend follow from the browser's API: the device
 * always belongs to the page (wgs__gpu_open_default takes the one wgscan.js registered), and
 * error scopes resolve asynchronously, so wgs__gpu_scope_pop reports success here and
 * wgscan.js awaits the scopes after each call and raises what they caught.
 */
#include "gpu/gpu.h"

#include <stdlib.h>
#include <string.h>

#define WGPU_IMPORT(name) __attribute__((import_module("wgpu"), import_name(#name)))

WGPU_IMPORT(deviceLost) int js_device_lost(void);
WGPU_IMPORT(capsNumber) double js_caps_number(int index);
WGPU_IMPORT(capsString) int js_caps_string(int index, char *dst, int cap);
WGPU_IMPORT(pushScope) void js_push_scope(void);
WGPU_IMPORT(popScope) void js_pop_scope(void);
WGPU_IMPORT(bufferCreate) uint32_t js_buffer_create(double size, double usage);
WGPU_IMPORT(release) void js_release(uint32_t handle);
WGPU_IMPORT(bufferSize) double js_buffer_size(uint32_t buffer);
WGPU_IMPORT(bufferUsage) double js_buffer_usage(uint32_t buffer);
WGPU_IMPORT(objectId) double js_object_id(uint32_t handle);
WGPU_IMPORT(queueWrite) void js_queue_write(uint32_t buffer, double offset, const void *data, uint32_t size);
WGPU_IMPORT(pipelineCreate) uint32_t js_pipeline_create(const char *wgsl, uint32_t wgsl_len, const char *entry,
                                                         uint32_t entry_len);
WGPU_IMPORT(bindGroupCreate) uint32_t js_bind_group_create(uint32_t pipeline, const uint32_t *bindings,
                                                            const double *ranges, uint32_t count);
WGPU_IMPORT(passBegin) uint32_t js_pass_begin(uint32_t encoder, uint32_t query_set, uint32_t begin_index,
                                               uint32_t end_index);
WGPU_IMPORT(passDispatch) void js_pass_dispatch(uint32_t pass, uint32_t pipeline, uint32_t group, uint32_t x,
                                                 uint32_t y);
WGPU_IMPORT(passDispatchIndirect) void js_pass_dispatch_indirect(uint32_t pass, uint32_t pipeline, uint32_t group,
                                                                  uint32_t args, double offset);
WGPU_IMPORT(passEnd) void js_pass_end(uint32_t pass);

/* Caps fields as wgscan.js numbers them. */
enum {
    CAP_MAX_BUFFER, CAP_MAX_BINDING, CAP_MAX_WG_PER_DIM, CAP_MAX_WG_STORAGE, CAP_MAX_INVOCATIONS,
    CAP_MAX_WG_SIZE_X, CAP_STORAGE_ALIGN, CAP_UNIFORM_ALIGN, CAP_MAX_STORAGE_BUFFERS, CAP_SUBGROUPS,
    CAP_TIMESTAMP, CAP_F16, CAP_SG_MIN, CAP_SG_MAX, CAP_VENDOR_ID, CAP_DEVICE_ID
};
enum { STR_VENDOR, STR_ARCHITECTURE, STR_DEVICE, STR_DESCRIPTION, STR_BACKEND, STR_ADAPTER_TYPE };

struct gpu_device {
    gpu_caps caps;
    uint64_t buffer_bytes_created; /* wgs__gpu_buffer_bytes_created */
    int measuring;                 /* wgs__gpu_set_measuring */
};

#define H(x) ((uint32_t)(uintptr_t)(x))
#define P(T, h) ((T)(uintptr_t)(h))

wgs_result wgs__gpu_open_default(const wgs_context_desc *desc, gpu_device **out, char *err, size_t errlen) {
    *out = NULL;
    if (desc && desc->adapter_index) { /* the page's one device */
        if (err && errlen) strncpy(err, "adapter_index is past the 1 adapter the page offers", errlen - 1);
        return WGS_ERROR_NO_ADAPTER;
    }
    gpu_device *d = calloc(1, sizeof *d);
    if (!d) return WGS_ERROR_OUT_OF_HOST_MEMORY;
    wgs_context_info *i = &d->caps.info;
    js_caps_string(STR_VENDOR, i->vendor, sizeof i->vendor);
    js_caps_string(STR_ARCHITECTURE, i->architecture, sizeof i->architecture);
    js_caps_string(STR_DEVICE, i->device, sizeof i->device);
    js_caps_string(STR_DESCRIPTION, i->description, sizeof i->description);
    js_caps_string(STR_BACKEND, i->backend, sizeof i->backend);
    js_caps_string(STR_ADAPTER_TYPE, i->adapter_type, sizeof i->adapter_type);
    i->max_buffer_size = (uint64_t)js_caps_number(CAP_MAX_BUFFER);
    i->max_storage_binding_size = (uint64_t)js_caps_number(CAP_MAX_BINDING);
    i->max_workgroups_per_dimension = (uint32_t)js_caps_number(CAP_MAX_WG_PER_DIM);
    i->max_workgroup_storage_size = (uint32_t)js_caps_number(CAP_MAX_WG_STORAGE);
    i->max_invocations_per_workgroup = (uint32_t)js_caps_number(CAP_MAX_INVOCATIONS);
    i->max_workgroup_size_x = (uint32_t)js_caps_number(CAP_MAX_WG_SIZE_X);
    i->min_storage_offset_alignment = (uint32_t)js_caps_number(CAP_STORAGE_ALIGN);
    i->min_uniform_offset_alignment = (uint32_t)js_caps_number(CAP_UNIFORM_ALIGN);
    i->max_storage_buffers_per_stage = (uint32_t)js_caps_number(CAP_MAX_STORAGE_BUFFERS);
    i->has_subgroups = js_caps_number(CAP_SUBGROUPS) != 0;
    i->has_timestamp_query = js_caps_number(CAP_TIMESTAMP) != 0;
    i->has_shader_f16 = js_caps_number(CAP_F16) != 0;
    i->subgroup_min_size = (uint32_t)js_caps_number(CAP_SG_MIN);
    i->subgroup_max_size = (uint32_t)js_caps_number(CAP_SG_MAX);
    i->vendor_id = (uint32_t)js_caps_number(CAP_VENDOR_ID);
    i->device_id = (uint32_t)js_caps_number(CAP_DEVICE_ID);
    if (!i->max_workgroups_per_dimension || !i->min_storage_offset_alignment) {
        if (err && errlen) strncpy(err, "wgscan.js registered no GPUDevice", errlen - 1);
        free(d);
        return WGS_ERROR_NO_ADAPTER;
    }
    i->adapter_count = 1;
    *out = d;
    return WGS_OK;
}

wgs_result wgs__gpu_open_external(const wgs_external_device *ext, const wgs_context_desc *desc, gpu_device **out,
                             char *err, size_t errlen) {
    (void)ext;
    (void)desc;
    return wgs__gpu_open_default(NULL, out, err, errlen);
}

void wgs__gpu_close(gpu_device *d) { free(d); }
void wgs__gpu_get_caps(const gpu_device *d, gpu_caps *caps) { *caps = d->caps; }
WGPUDevice wgs__gpu_wgpu_device(const gpu_device *d) { (void)d; return NULL; }
WGPUQueue wgs__gpu_wgpu_queue(const gpu_device *d) { (void)d; return NULL; }
WGPUInstance wgs__gpu_wgpu_instance(const gpu_device *d) { (void)d; return NULL; }
WGPUProc wgs__gpu_get_proc(const gpu_device *d, const char *name) { (void)d; (void)name; return NULL; }

int wgs__gpu_is_lost(const gpu_device *d, char *msg, size_t msglen) {
    (void)d;
    int lost = js_device_lost();
    if (lost && msg && msglen) strncpy(msg, "the GPUDevice was lost", msglen - 1);
    return lost;
}

void wgs__gpu_scope_push(gpu_device *d) { (void)d; js_push_scope(); }

wgs_result wgs__gpu_scope_pop(gpu_device *d, char *msg, size_t msglen) {
    (void)d;
    (void)msg;
    (void)msglen;
    js_pop_scope(); /* resolved asynchronously; wgscan.js reports what it caught */
    return WGS_OK;
}

WGPUBuffer wgs__gpu_buffer_create(gpu_device *d, uint64_t size, WGPUBufferUsage usage, const char *label) {
    (void)label;
    if (d->measuring) return NULL;
    d->buffer_bytes_created += size;
    return P(WGPUBuffer, js_buffer_create((double)size, (double)usage));
}

uint64_t wgs__gpu_buffer_bytes_created(const gpu_device *d) { return d->buffer_bytes_created; }
void wgs__gpu_set_measuring(gpu_device *d, int on) { d->measuring = on; }

void wgs__gpu_buffer_release(gpu_device *d, WGPUBuffer b) {
    (void)d;
    if (b) js_release(H(b));
}

uint64_t wgs__gpu_buffer_size(gpu_device *d, WGPUBuffer b) { (void)d; return (uint64_t)js_buffer_size(H(b)); }
WGPUBufferUsage wgs__gpu_buffer_usage(gpu_device *d, WGPUBuffer b) {
    (void)d;
    return (WGPUBufferUsage)js_buffer_usage(H(b));
}

void wgs__gpu_queue_write(gpu_device *d, WGPUBuffer b, uint64_t offset, const void *data, size_t size) {
    (void)d;
    js_queue_write(H(b), (double)offset, data, (uint32_t)size);
}

/* The page's queue.writeBuffer does its own staging (the browser keeps this path). */
void wgs__gpu_set_transfer_shape(gpu_device *d, const gpu_transfer_shape *shape) { (void)d; (void)shape; }

wgs_result wgs__gpu_buffer_write(gpu_device *d, WGPUBuffer b, uint64_t offset, const void *data, uint64_t size,
                            char *msg, size_t msglen) {
    const uint64_t piece = 256ull << 20;
    wgs__gpu_scope_push(d);
    for (uint64_t done = 0; done < size; done += piece) {
        uint64_t len = size - done < piece ? size - done : piece;
        wgs__gpu_queue_write(d, b, offset + done, (const char *)data + done, (size_t)len);
    }
    return wgs__gpu_scope_pop(d, msg, msglen);
}

WGPUComputePipeline wgs__gpu_pipeline_create(gpu_device *d, const char *wgsl, const char *entry, const char *label) {
    (void)d;
    (void)label;
    return P(WGPUComputePipeline,
             js_pipeline_create(wgsl, (uint32_t)strlen(wgsl), entry, (uint32_t)strlen(entry)));
}

void wgs__gpu_pipeline_release(gpu_device *d, WGPUComputePipeline p) {
    (void)d;
    if (p) js_release(H(p));
}

/* wgscan.js decides: its prepare() compiles with createComputePipelineAsync and fills
 * the handle later, other calls compile at once; here the handle is all there is. */
struct gpu_pipeline_request {
    WGPUComputePipeline pipeline;
};

gpu_pipeline_request *wgs__gpu_pipeline_request(gpu_device *d, const char *wgsl, const char *entry,
                                                const char *label) {
    gpu_pipeline_request *r = malloc(sizeof *r);
    if (r) r->pipeline = wgs__gpu_pipeline_create(d, wgsl, entry, label);
    return r;
}

wgs_result wgs__gpu_pipeline_wait(gpu_device *d, gpu_pipeline_request *r, WGPUComputePipeline *out, char *msg,
                                  size_t msglen) {
    (void)d;
    (void)msg;
    (void)msglen;
    *out = r->pipeline;
    free(r);
    return WGS_OK;
}

WGPUBindGroup wgs__gpu_bind_group_create(gpu_device *d, WGPUComputePipeline pipeline, const gpu_binding *b,
                                    uint32_t count) {
    (void)d;
    uint32_t ids[24];
    double ranges[24];
    if (count > 12) return NULL;
    for (uint32_t i = 0; i < count; i++) {
        ids[2 * i] = b[i].binding;
        ids[2 * i + 1] = H(b[i].buffer);
        ranges[2 * i] = (double)b[i].offset;
        ranges[2 * i + 1] = (double)b[i].size;
    }
    return P(WGPUBindGroup, js_bind_group_create(H(pipeline), ids, ranges, count));
}

void wgs__gpu_bind_group_release(gpu_device *d, WGPUBindGroup g) {
    (void)d;
    if (g) js_release(H(g));
}

uint64_t wgs__gpu_buffer_id(gpu_device *d, WGPUBuffer b) {
    (void)d;
    return b ? (uint64_t)js_object_id(H(b)) : 0;
}

/* A cached GPUBindGroup references its GPUBuffers itself, and identities are never
 * reused: nothing to hold here (the handle is the caller's, per call). */
void wgs__gpu_buffer_hold(gpu_device *d, WGPUBuffer b) { (void)d; (void)b; }
void wgs__gpu_buffer_unhold(gpu_device *d, WGPUBuffer b) { (void)d; (void)b; }

WGPUComputePassEncoder wgs__gpu_pass_begin(gpu_device *d, WGPUCommandEncoder enc, WGPUQuerySet qs,
                                      uint32_t begin_index, uint32_t end_index) {
    (void)d;
    return P(WGPUComputePassEncoder, js_pass_begin(H(enc), H(qs), begin_index, end_index));
}

void wgs__gpu_pass_dispatch(gpu_device *d, WGPUComputePassEncoder pass, WGPUComputePipeline pipeline,
                       WGPUBindGroup group, uint32_t x, uint32_t y) {
    (void)d;
    js_pass_dispatch(H(pass), H(pipeline), H(group), x, y);
}

void wgs__gpu_pass_dispatch_indirect(gpu_device *d, WGPUComputePassEncoder pass, WGPUComputePipeline pipeline,
                                WGPUBindGroup group, WGPUBuffer args, uint64_t offset) {
    (void)d;
    js_pass_dispatch_indirect(H(pass), H(pipeline), H(group), H(args), (double)offset);
}

void wgs__gpu_pass_end(gpu_device *d, WGPUComputePassEncoder pass) {
    (void)d;
    js_pass_end(H(pass));
}
