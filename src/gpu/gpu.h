/* SPDX-License-Identifier: MIT */
/*
 * gpu.h: the one narrow interface through which every algorithm reaches WebGPU.
 *
 * Algorithms (scan.c, ...) see buffers, pipelines made from WGSL text, bind groups of
 * whole-buffer-range bindings, compute passes and dispatches, queue writes and a few
 * host-side helpers. A backend implements these functions: native/ does it with
 * the WebGPU C API resolved at run time (Dawn, wgpu-native); a browser backend does it
 * with JavaScript imports. Algorithms never call wgpu* themselves, so a new backend
 * needs no change to them.
 *
 * Errors: calls that create objects may fail without returning NULL (WebGPU hands out
 * invalid objects). Wrap them in wgs__gpu_scope_push / wgs__gpu_scope_pop, which reports the
 * first WebGPU error raised in between as a wgs_result with the WebGPU message.
 */
#ifndef WGS_GPU_H
#define WGS_GPU_H

#include "wgscan.h"

typedef struct gpu_device gpu_device;

/* What the device offers, after any debug caps from wgs_context_desc. */
typedef struct gpu_caps {
    wgs_context_info info;
} gpu_caps;

/* Opens the default device (runtime loading and adapter choice belong to the backend).
 * err receives a message on failure. */
wgs_result wgs__gpu_open_default(const wgs_context_desc *desc, gpu_device **out, char *err,
                            size_t errlen);
wgs_result wgs__gpu_open_external(const wgs_external_device *ext, const wgs_context_desc *desc,
                             gpu_device **out, char *err, size_t errlen);
void wgs__gpu_close(gpu_device *dev);
void wgs__gpu_get_caps(const gpu_device *dev, gpu_caps *caps);

WGPUDevice wgs__gpu_wgpu_device(const gpu_device *dev);
WGPUQueue wgs__gpu_wgpu_queue(const gpu_device *dev);
WGPUInstance wgs__gpu_wgpu_instance(const gpu_device *dev);
WGPUProc wgs__gpu_get_proc(const gpu_device *dev, const char *name);

/* Non-zero once the device is lost; msg (may be NULL) receives the reason. */
int wgs__gpu_is_lost(const gpu_device *dev, char *msg, size_t msglen);

/* Error capture around device-level calls. Scopes nest. */
void wgs__gpu_scope_push(gpu_device *dev);
wgs_result wgs__gpu_scope_pop(gpu_device *dev, char *msg, size_t msglen);

/* Buffers. */
WGPUBuffer wgs__gpu_buffer_create(gpu_device *dev, uint64_t size, WGPUBufferUsage usage,
                             const char *label);
/* Bytes asked of wgs__gpu_buffer_create on this device so far (a running total, never
 * lowered by releases): what the tests hold the plans' scratch queries to. */
uint64_t wgs__gpu_buffer_bytes_created(const gpu_device *dev);
/* While on, wgs__gpu_buffer_create makes nothing, counts nothing and returns NULL (which
 * wgs__gpu_buffer_release accepts): a plan created so says what it would hold
 * (measure.c). Only plan creation runs in between; it never uses its buffers. */
void wgs__gpu_set_measuring(gpu_device *dev, int on);
void wgs__gpu_buffer_release(gpu_device *dev, WGPUBuffer buffer);
uint64_t wgs__gpu_buffer_size(gpu_device *dev, WGPUBuffer buffer);
WGPUBufferUsage wgs__gpu_buffer_usage(gpu_device *dev, WGPUBuffer buffer);
void wgs__gpu_queue_write(gpu_device *dev, WGPUBuffer buffer, uint64_t offset, const void *data,
                     size_t size);

/* How host transfers are staged; zero in a field keeps the backend's default. */
typedef struct gpu_transfer_shape {
    uint64_t chunk;        /* bytes per staging buffer and per GPU copy */
    uint32_t slots;        /* staging buffers per direction (in flight at once) */
    uint32_t threads;      /* host threads of each chunk's memcpy */
    uint64_t direct_max;   /* uploads up to this size go through wgpuQueueWriteBuffer */
    int legacy;            /* the old path: QueueWriteBuffer up, one fresh staging buffer down */
} gpu_transfer_shape;
void wgs__gpu_set_transfer_shape(gpu_device *dev, const gpu_transfer_shape *shape);
/* Copies host memory into [offset, offset+size) of a buffer (CopyDst usage; offset and
 * size multiples of 4). Returns once the host memory is no longer needed; the GPU's
 * copies are queued after all work submitted before. */
wgs_result wgs__gpu_buffer_write(gpu_device *dev, WGPUBuffer buffer, uint64_t offset, const void *data,
                            uint64_t size, char *msg, size_t msglen);

/* Pipelines from WGSL text (entry point `entry`), with the layout WebGPU derives from
 * the shader. */
WGPUComputePipeline wgs__gpu_pipeline_create(gpu_device *dev, const char *wgsl, const char *entry,
                                        const char *label);
void wgs__gpu_pipeline_release(gpu_device *dev, WGPUComputePipeline pipeline);
/* The same pipeline compiled while the caller goes on, so that several compile at
 * once: the request starts it (NULL only when out of host memory; errors of the WGSL
 * go to the error scope open around the call, as wgs__gpu_pipeline_create's), the wait
 * ends it, successful or not: WGS_OK with *out the pipeline (the caller's), or the
 * error with the compiler's message. Every request is waited for. */
typedef struct gpu_pipeline_request gpu_pipeline_request;
gpu_pipeline_request *wgs__gpu_pipeline_request(gpu_device *dev, const char *wgsl, const char *entry,
                                                const char *label);
wgs_result wgs__gpu_pipeline_wait(gpu_device *dev, gpu_pipeline_request *req, WGPUComputePipeline *out, char *msg,
                                  size_t msglen);

/* One buffer binding of group 0. */
typedef struct gpu_binding {
    uint32_t binding;
    WGPUBuffer buffer;
    uint64_t offset;
    uint64_t size;
} gpu_binding;
WGPUBindGroup wgs__gpu_bind_group_create(gpu_device *dev, WGPUComputePipeline pipeline,
                                    const gpu_binding *bindings, uint32_t count);
void wgs__gpu_bind_group_release(gpu_device *dev, WGPUBindGroup group);
/* A buffer's identity for the bind group cache (bindings.c): equal for two handles of
 * one buffer and never equal for two buffers that exist at once. Natively the handle
 * itself; in the browser a serial number of the GPUBuffer object (handles there are
 * per call and reused). With wgs__gpu_buffer_hold, which keeps the buffer (and so its
 * identity) alive until wgs__gpu_buffer_unhold, no later buffer takes it over. */
uint64_t wgs__gpu_buffer_id(gpu_device *dev, WGPUBuffer buffer);
void wgs__gpu_buffer_hold(gpu_device *dev, WGPUBuffer buffer);
void wgs__gpu_buffer_unhold(gpu_device *dev, WGPUBuffer buffer);

/* Recording. query_set may be NULL. */
WGPUComputePassEncoder wgs__gpu_pass_begin(gpu_device *dev, WGPUCommandEncoder encoder,
                                      WGPUQuerySet query_set, uint32_t begin_index,
                                      uint32_t end_index);
void wgs__gpu_pass_dispatch(gpu_device *dev, WGPUComputePassEncoder pass,
                       WGPUComputePipeline pipeline, WGPUBindGroup group, uint32_t x,
                       uint32_t y);
/* The grid from three u32 (x, y, z) at `offset` (a multiple of 4) of `args` (Indirect
 * usage), read when the dispatch runs: a grid the GPU computed. */
void wgs__gpu_pass_dispatch_indirect(gpu_device *dev, WGPUComputePassEncoder pass,
                                WGPUComputePipeline pipeline, WGPUBindGroup group, WGPUBuffer args,
                                uint64_t offset);
void wgs__gpu_pass_end(gpu_device *dev, WGPUComputePassEncoder pass);

/* Host-side helpers for the convenience layer, the CLI and the tests. */
WGPUCommandEncoder wgs__gpu_encoder_create(gpu_device *dev);
void wgs__gpu_copy(gpu_device *dev, WGPUCommandEncoder encoder, WGPUBuffer src, uint64_t src_offset,
              WGPUBuffer dst, uint64_t dst_offset, uint64_t size);
/* Timestamp queries (timestamp-query feature). */
WGPUQuerySet wgs__gpu_timestamp_set_create(gpu_device *dev, uint32_t count);
void wgs__gpu_query_set_release(gpu_device *dev, WGPUQuerySet query_set);
void wgs__gpu_resolve_queries(gpu_device *dev, WGPUCommandEncoder encoder, WGPUQuerySet query_set,
                         uint32_t first, uint32_t count, WGPUBuffer dst, uint64_t dst_offset);
/* Finishes and submits the encoder, releasing it. */
void wgs__gpu_submit(gpu_device *dev, WGPUCommandEncoder encoder);
/* Waits until all submitted work is done. */
wgs_result wgs__gpu_wait_idle(gpu_device *dev, char *msg, size_t msglen);
/* Copies [offset, offset+size) of a buffer (CopySrc usage) to host memory and waits. */
wgs_result wgs__gpu_buffer_read(gpu_device *dev, WGPUBuffer buffer, uint64_t offset, uint64_t size,
                           void *dst, char *msg, size_t msglen);

#endif
