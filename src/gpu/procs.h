/* SPDX-License-Identifier: MIT */
/*
 * The WebGPU functions wgscan calls, as one list. It yields the function-pointer table
 * (struct wgs_procs) and the code that resolves it, either with dlsym on a loaded
 * runtime or through a caller's wgpuGetProcAddress. Nothing links against WebGPU, so
 * one library binary runs on any implementation with this ABI.
 */
#ifndef WGS_GPU_PROCS_H
#define WGS_GPU_PROCS_H

#include "wgscan_webgpu.h"

/* X(name without the wgpu prefix, return type, parameter list) */
#define WGS_PROC_LIST(X)                                                                       \
    X(GetProcAddress, WGPUProc, (WGPUStringView))                                              \
    X(CreateInstance, WGPUInstance, (WGPUInstanceDescriptor const *))                          \
    X(InstanceRequestAdapter, WGPUFuture,                                                      \
      (WGPUInstance, WGPURequestAdapterOptions const *, WGPURequestAdapterCallbackInfo))       \
    X(InstanceProcessEvents, void, (WGPUInstance))                                             \
    X(InstanceWaitAny, WGPUWaitStatus, (WGPUInstance, size_t, WGPUFutureWaitInfo *, uint64_t)) \
    X(InstanceAddRef, void, (WGPUInstance))                                                    \
    X(InstanceRelease, void, (WGPUInstance))                                                   \
    X(AdapterGetInfo, WGPUStatus, (WGPUAdapter, WGPUAdapterInfo *))                            \
    X(AdapterGetLimits, WGPUStatus, (WGPUAdapter, WGPULimits *))                               \
    X(AdapterHasFeature, WGPUBool, (WGPUAdapter, WGPUFeatureName))                             \
    X(AdapterGetFeatures, void, (WGPUAdapter, WGPUSupportedFeatures *))                        \
    X(SupportedFeaturesFreeMembers, void, (WGPUSupportedFeatures))                             \
    X(AdapterRequestDevice, WGPUFuture,                                                        \
      (WGPUAdapter, WGPUDeviceDescriptor const *, WGPURequestDeviceCallbackInfo))              \
    X(AdapterInfoFreeMembers, void, (WGPUAdapterInfo))                                         \
    X(AdapterAddRef, void, (WGPUAdapter))                                                      \
    X(AdapterRelease, void, (WGPUAdapter))                                                     \
    X(DeviceGetAdapterInfo, WGPUStatus, (WGPUDevice, WGPUAdapterInfo *))                       \
    X(DeviceGetLimits, WGPUStatus, (WGPUDevice, WGPULimits *))                                 \
    X(DeviceHasFeature, WGPUBool, (WGPUDevice, WGPUFeatureName))                               \
    X(DeviceGetQueue, WGPUQueue, (WGPUDevice))                                                 \
    X(DevicePushErrorScope, void, (WGPUDevice, WGPUErrorFilter))                               \
    X(DevicePopErrorScope, WGPUFuture, (WGPUDevice, WGPUPopErrorScopeCallbackInfo))            \
    X(DeviceCreateBuffer, WGPUBuffer, (WGPUDevice, WGPUBufferDescriptor const *))              \
    X(DeviceCreateShaderModule, WGPUShaderModule,                                              \
      (WGPUDevice, WGPUShaderModuleDescriptor const *))                                        \
    X(DeviceCreateComputePipeline, WGPUComputePipeline,                                        \
      (WGPUDevice, WGPUComputePipelineDescriptor const *))                                     \
    X(DeviceCreateComputePipelineAsync, WGPUFuture,                                            \
      (WGPUDevice, WGPUComputePipelineDescriptor const *,                                      \
       WGPUCreateComputePipelineAsyncCallbackInfo))                                            \
    X(DeviceCreateBindGroup, WGPUBindGroup, (WGPUDevice, WGPUBindGroupDescriptor const *))     \
    X(DeviceCreateCommandEncoder, WGPUCommandEncoder,                                          \
      (WGPUDevice, WGPUCommandEncoderDescriptor const *))                                      \
    X(DeviceCreateQuerySet, WGPUQuerySet, (WGPUDevice, WGPUQuerySetDescriptor const *))        \
    X(DeviceAddRef, void, (WGPUDevice))                                                        \
    X(DeviceRelease, void, (WGPUDevice))                                                       \
    X(DeviceDestroy, void, (WGPUDevice))                                                       \
    X(QueueSubmit, void, (WGPUQueue, size_t, WGPUCommandBuffer const *))                       \
    X(QueueWriteBuffer, void, (WGPUQueue, WGPUBuffer, uint64_t, void const *, size_t))         \
    X(QueueOnSubmittedWorkDone, WGPUFuture, (WGPUQueue, WGPUQueueWorkDoneCallbackInfo))        \
    X(QueueRelease, void, (WGPUQueue))                                                         \
    X(BufferGetSize, uint64_t, (WGPUBuffer))                                                   \
    X(BufferGetUsage, WGPUBufferUsage, (WGPUBuffer))                                           \
    X(BufferMapAsync, WGPUFuture,                                                              \
      (WGPUBuffer, WGPUMapMode, size_t, size_t, WGPUBufferMapCallbackInfo))                    \
    X(BufferGetConstMappedRange, void const *, (WGPUBuffer, size_t, size_t))                   \
    X(BufferGetMappedRange, void *, (WGPUBuffer, size_t, size_t))                              \
    X(BufferUnmap, void, (WGPUBuffer))                                                         \
    X(BufferDestroy, void, (WGPUBuffer))                                                       \
    X(BufferAddRef, void, (WGPUBuffer))                                                        \
    X(BufferRelease, void, (WGPUBuffer))                                                       \
    X(ShaderModuleRelease, void, (WGPUShaderModule))                                           \
    X(ComputePipelineGetBindGroupLayout, WGPUBindGroupLayout, (WGPUComputePipeline, uint32_t)) \
    X(ComputePipelineRelease, void, (WGPUComputePipeline))                                     \
    X(BindGroupLayoutRelease, void, (WGPUBindGroupLayout))                                     \
    X(BindGroupRelease, void, (WGPUBindGroup))                                                 \
    X(CommandEncoderBeginComputePass, WGPUComputePassEncoder,                                  \
      (WGPUCommandEncoder, WGPUComputePassDescriptor const *))                                 \
    X(CommandEncoderCopyBufferToBuffer, void,                                                  \
      (WGPUCommandEncoder, WGPUBuffer, uint64_t, WGPUBuffer, uint64_t, uint64_t))              \
    X(CommandEncoderResolveQuerySet, void,                                                     \
      (WGPUCommandEncoder, WGPUQuerySet, uint32_t, uint32_t, WGPUBuffer, uint64_t))            \
    X(CommandEncoderFinish, WGPUCommandBuffer,                                                 \
      (WGPUCommandEncoder, WGPUCommandBufferDescriptor const *))                               \
    X(CommandEncoderRelease, void, (WGPUCommandEncoder))                                       \
    X(CommandBufferRelease, void, (WGPUCommandBuffer))                                         \
    X(ComputePassEncoderSetPipeline, void, (WGPUComputePassEncoder, WGPUComputePipeline))      \
    X(ComputePassEncoderSetBindGroup, void,                                                    \
      (WGPUComputePassEncoder, uint32_t, WGPUBindGroup, size_t, uint32_t const *))             \
    X(ComputePassEncoderDispatchWorkgroups, void,                                              \
      (WGPUComputePassEncoder, uint32_t, uint32_t, uint32_t))                                  \
    X(ComputePassEncoderDispatchWorkgroupsIndirect, void,                                      \
      (WGPUComputePassEncoder, WGPUBuffer, uint64_t))                                          \
    X(ComputePassEncoderEnd, void, (WGPUComputePassEncoder))                                   \
    X(ComputePassEncoderRelease, void, (WGPUComputePassEncoder))                               \
    X(QuerySetDestroy, void, (WGPUQuerySet))                                                   \
    X(QuerySetRelease, void, (WGPUQuerySet))

typedef struct wgs_procs {
#define WGS_PROC_FIELD_(name, ret, params) ret(*name) params;
    WGS_PROC_LIST(WGS_PROC_FIELD_)
#undef WGS_PROC_FIELD_
} wgs_procs;

#endif
