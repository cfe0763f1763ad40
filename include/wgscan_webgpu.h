/* SPDX-License-Identifier: MIT */
/*
 * wgscan_webgpu.h: the part of the WebGPU C API that wgscan uses, declared by us, for
 * programs that have no webgpu.h of their own. Included by wgscan.h.
 *
 * The ABI. The runtime wgscan loads (the pinned Dawn of npm bun-webgpu-linux-x64 0.1.7)
 * speaks the webgpu.h generation of June 2025: webgpu-native/webgpu-headers at commit
 * c13888a. No Debian or npm package ships that header, so the names, layouts and values
 * wgscan needs are declared below and were checked against that commit. Enum values
 * changed between generations: code compiled against another generation builds and then
 * breaks at run time. Dawn-specific values (the toggles descriptor) come from Dawn's own
 * numbering range 0x0005xxxx.
 *
 * Beside a real webgpu.h. Programs that call WebGPU themselves include the real header
 * (Dawn's or wgpu-native's, of the same generation), in either order with wgscan.h and
 * with no macro to define:
 *   - real header first: its include guard WEBGPU_H_ is defined, and nothing is declared
 *     here: wgscan.h uses the real header's types;
 *   - wgscan.h first: if the compiler can see <webgpu/webgpu.h> on the include path
 *     (__has_include, GCC 5+, Clang, MSVC 2017+), it is included here, before anything of
 *     ours, so the program's own #include <webgpu/webgpu.h> later is a no-op. Our
 *     declarations are used only where no real header can be found, and then the program
 *     cannot include one later either.
 *   A real header included later by another name than <webgpu/webgpu.h> (a path of its
 *   own, "webgpu.h" from the current folder) is not seen: include that one first.
 *   Whichever header is used, wgscan.h needs WGPUStringView and 64-bit flags (2024 and
 *   later); an older header stops the build here with a message.
 *
 * The library itself (WGSCAN_BUILDING) always compiles against the declarations below,
 * the runtime's ABI, unless WGSCAN_USE_SYSTEM_WEBGPU_H (CMake option
 * WGSCAN_SYSTEM_WEBGPU_H) asks for <webgpu/webgpu.h>, e.g. for your own Dawn or
 * wgpu-native of the same generation.
 *
 * wgscan never links these functions: they are resolved at run time through a proc
 * table (see wgs_context_create and wgs_context_create_from_device).
 */
#ifndef WGSCAN_WEBGPU_H
#define WGSCAN_WEBGPU_H

#if defined(WEBGPU_H_)
/* A real webgpu.h is already in. */
#elif defined(WGSCAN_USE_SYSTEM_WEBGPU_H)
#include <webgpu/webgpu.h>
#elif !defined(WGSCAN_BUILDING) && defined(__has_include)
#if __has_include(<webgpu/webgpu.h>)
#include <webgpu/webgpu.h>
#endif
#endif

#ifdef WEBGPU_H_
/* What wgscan.h takes from a real header; the generation check. */
#ifndef WGPU_STRLEN
#error "wgscan.h: this webgpu.h predates WGPUStringView; wgscan needs the generation of June 2025 (webgpu-headers c13888a)"
#endif
#if defined(__cplusplus) && __cplusplus >= 201103L
static_assert(sizeof(WGPUBufferUsage) == 8, "wgscan.h: WGPUBufferUsage must be 64-bit (webgpu.h of 2024 or later)");
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(WGPUBufferUsage) == 8, "wgscan.h: WGPUBufferUsage must be 64-bit (webgpu.h of 2024 or later)");
#endif
#else /* our declarations */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WGPU_STRLEN SIZE_MAX
#define WGPU_WHOLE_SIZE UINT64_MAX
#define WGPU_LIMIT_U32_UNDEFINED UINT32_MAX
#define WGPU_LIMIT_U64_UNDEFINED UINT64_MAX
#define WGPU_QUERY_SET_INDEX_UNDEFINED UINT32_MAX

typedef uint32_t WGPUBool;
typedef uint64_t WGPUFlags;

/* Opaque handles. */
typedef struct WGPUAdapterImpl *WGPUAdapter;
typedef struct WGPUBindGroupImpl *WGPUBindGroup;
typedef struct WGPUBindGroupLayoutImpl *WGPUBindGroupLayout;
typedef struct WGPUBufferImpl *WGPUBuffer;
typedef struct WGPUCommandBufferImpl *WGPUCommandBuffer;
typedef struct WGPUCommandEncoderImpl *WGPUCommandEncoder;
typedef struct WGPUComputePassEncoderImpl *WGPUComputePassEncoder;
typedef struct WGPUComputePipelineImpl *WGPUComputePipeline;
typedef struct WGPUDeviceImpl *WGPUDevice;
typedef struct WGPUInstanceImpl *WGPUInstance;
typedef struct WGPUPipelineLayoutImpl *WGPUPipelineLayout;
typedef struct WGPUQuerySetImpl *WGPUQuerySet;
typedef struct WGPUQueueImpl *WGPUQueue;
typedef struct WGPUShaderModuleImpl *WGPUShaderModule;
typedef struct WGPUSurfaceImpl *WGPUSurface;
typedef struct WGPUSamplerImpl *WGPUSampler;
typedef struct WGPUTextureViewImpl *WGPUTextureView;

/* Enums (values of the June 2025 generation). */
typedef enum WGPUAdapterType {
    WGPUAdapterType_DiscreteGPU = 1,
    WGPUAdapterType_IntegratedGPU = 2,
    WGPUAdapterType_CPU = 3,
    WGPUAdapterType_Unknown = 4,
    WGPUAdapterType_Force32 = 0x7FFFFFFF
} WGPUAdapterType;

typedef enum WGPUBackendType {
    WGPUBackendType_Undefined = 0,
    WGPUBackendType_Null = 1,
    WGPUBackendType_WebGPU = 2,
    WGPUBackendType_D3D11 = 3,
    WGPUBackendType_D3D12 = 4,
    WGPUBackendType_Metal = 5,
    WGPUBackendType_Vulkan = 6,
    WGPUBackendType_OpenGL = 7,
    WGPUBackendType_OpenGLES = 8,
    WGPUBackendType_Force32 = 0x7FFFFFFF
} WGPUBackendType;

typedef enum WGPUCallbackMode {
    WGPUCallbackMode_WaitAnyOnly = 1,
    WGPUCallbackMode_AllowProcessEvents = 2,
    WGPUCallbackMode_AllowSpontaneous = 3,
    WGPUCallbackMode_Force32 = 0x7FFFFFFF
} WGPUCallbackMode;

typedef enum WGPUCreatePipelineAsyncStatus {
    WGPUCreatePipelineAsyncStatus_Success = 1,
    WGPUCreatePipelineAsyncStatus_CallbackCancelled = 2,
    WGPUCreatePipelineAsyncStatus_ValidationError = 3,
    WGPUCreatePipelineAsyncStatus_InternalError = 4,
    WGPUCreatePipelineAsyncStatus_Force32 = 0x7FFFFFFF
} WGPUCreatePipelineAsyncStatus;

typedef enum WGPUDeviceLostReason {
    WGPUDeviceLostReason_Unknown = 1,
    WGPUDeviceLostReason_Destroyed = 2,
    WGPUDeviceLostReason_CallbackCancelled = 3,
    WGPUDeviceLostReason_FailedCreation = 4,
    WGPUDeviceLostReason_Force32 = 0x7FFFFFFF
} WGPUDeviceLostReason;

typedef enum WGPUErrorFilter {
    WGPUErrorFilter_Validation = 1,
    WGPUErrorFilter_OutOfMemory = 2,
    WGPUErrorFilter_Internal = 3,
    WGPUErrorFilter_Force32 = 0x7FFFFFFF
} WGPUErrorFilter;

typedef enum WGPUErrorType {
    WGPUErrorType_NoError = 1,
    WGPUErrorType_Validation = 2,
    WGPUErrorType_OutOfMemory = 3,
    WGPUErrorType_Internal = 4,
    WGPUErrorType_Unknown = 5,
    WGPUErrorType_Force32 = 0x7FFFFFFF
} WGPUErrorType;

typedef enum WGPUFeatureLevel {
    WGPUFeatureLevel_Undefined = 0,
    WGPUFeatureLevel_Compatibility = 1,
    WGPUFeatureLevel_Core = 2,
    WGPUFeatureLevel_Force32 = 0x7FFFFFFF
} WGPUFeatureLevel;

typedef enum WGPUFeatureName {
    WGPUFeatureName_TimestampQuery = 0x03,
    WGPUFeatureName_ShaderF16 = 0x0A,
    WGPUFeatureName_Subgroups = 0x11,
    WGPUFeatureName_CoreFeaturesAndLimits = 0x12,
    WGPUFeatureName_Force32 = 0x7FFFFFFF
} WGPUFeatureName;

typedef enum WGPUInstanceFeatureName {
    WGPUInstanceFeatureName_TimedWaitAny = 1,
    WGPUInstanceFeatureName_ShaderSourceSPIRV = 2,
    WGPUInstanceFeatureName_MultipleDevicesPerAdapter = 3,
    WGPUInstanceFeatureName_Force32 = 0x7FFFFFFF
} WGPUInstanceFeatureName;

typedef enum WGPUMapAsyncStatus {
    WGPUMapAsyncStatus_Success = 1,
    WGPUMapAsyncStatus_CallbackCancelled = 2,
    WGPUMapAsyncStatus_Error = 3,
    WGPUMapAsyncStatus_Aborted = 4,
    WGPUMapAsyncStatus_Force32 = 0x7FFFFFFF
} WGPUMapAsyncStatus;

typedef enum WGPUPopErrorScopeStatus {
    WGPUPopErrorScopeStatus_Success = 1,
    WGPUPopErrorScopeStatus_CallbackCancelled = 2,
    WGPUPopErrorScopeStatus_Error = 3,
    WGPUPopErrorScopeStatus_Force32 = 0x7FFFFFFF
} WGPUPopErrorScopeStatus;

typedef enum WGPUPowerPreference {
    WGPUPowerPreference_Undefined = 0,
    WGPUPowerPreference_LowPower = 1,
    WGPUPowerPreference_HighPerformance = 2,
    WGPUPowerPreference_Force32 = 0x7FFFFFFF
} WGPUPowerPreference;

typedef enum WGPUQueryType {
    WGPUQueryType_Occlusion = 1,
    WGPUQueryType_Timestamp = 2,
    WGPUQueryType_Force32 = 0x7FFFFFFF
} WGPUQueryType;

typedef enum WGPUQueueWorkDoneStatus {
    WGPUQueueWorkDoneStatus_Success = 1,
    WGPUQueueWorkDoneStatus_CallbackCancelled = 2,
    WGPUQueueWorkDoneStatus_Error = 3,
    WGPUQueueWorkDoneStatus_Force32 = 0x7FFFFFFF
} WGPUQueueWorkDoneStatus;

typedef enum WGPURequestAdapterStatus {
    WGPURequestAdapterStatus_Success = 1,
    WGPURequestAdapterStatus_CallbackCancelled = 2,
    WGPURequestAdapterStatus_Unavailable = 3,
    WGPURequestAdapterStatus_Error = 4,
    WGPURequestAdapterStatus_Force32 = 0x7FFFFFFF
} WGPURequestAdapterStatus;

typedef enum WGPURequestDeviceStatus {
    WGPURequestDeviceStatus_Success = 1,
    WGPURequestDeviceStatus_CallbackCancelled = 2,
    WGPURequestDeviceStatus_Error = 3,
    WGPURequestDeviceStatus_Force32 = 0x7FFFFFFF
} WGPURequestDeviceStatus;

typedef enum WGPUStatus {
    WGPUStatus_Success = 1,
    WGPUStatus_Error = 2,
    WGPUStatus_Force32 = 0x7FFFFFFF
} WGPUStatus;

typedef enum WGPUSType {
    WGPUSType_ShaderSourceWGSL = 0x00000002,
    WGPUSType_DawnTogglesDescriptor = 0x0005000A,
    WGPUSType_Force32 = 0x7FFFFFFF
} WGPUSType;

typedef enum WGPUWaitStatus {
    WGPUWaitStatus_Success = 1,
    WGPUWaitStatus_TimedOut = 2,
    WGPUWaitStatus_Error = 3,
    WGPUWaitStatus_Force32 = 0x7FFFFFFF
} WGPUWaitStatus;

/* Bit flags (64-bit in this generation). */
typedef WGPUFlags WGPUBufferUsage;
#define WGPUBufferUsage_None ((WGPUBufferUsage)0x000)
#define WGPUBufferUsage_MapRead ((WGPUBufferUsage)0x001)
#define WGPUBufferUsage_MapWrite ((WGPUBufferUsage)0x002)
#define WGPUBufferUsage_CopySrc ((WGPUBufferUsage)0x004)
#define WGPUBufferUsage_CopyDst ((WGPUBufferUsage)0x008)
#define WGPUBufferUsage_Uniform ((WGPUBufferUsage)0x040)
#define WGPUBufferUsage_Storage ((WGPUBufferUsage)0x080)
#define WGPUBufferUsage_Indirect ((WGPUBufferUsage)0x100)
#define WGPUBufferUsage_QueryResolve ((WGPUBufferUsage)0x200)

typedef WGPUFlags WGPUMapMode;
#define WGPUMapMode_Read ((WGPUMapMode)0x1)
#define WGPUMapMode_Write ((WGPUMapMode)0x2)

/* Structures. */
typedef struct WGPUStringView {
    char const *data;
    size_t length;
} WGPUStringView;

typedef struct WGPUChainedStruct {
    struct WGPUChainedStruct *next;
    WGPUSType sType;
} WGPUChainedStruct;

typedef struct WGPUFuture {
    uint64_t id;
} WGPUFuture;

typedef struct WGPUFutureWaitInfo {
    WGPUFuture future;
    WGPUBool completed;
} WGPUFutureWaitInfo;

typedef void (*WGPUProc)(void);
typedef WGPUProc (*WGPUProcGetProcAddress)(WGPUStringView procName);

typedef void (*WGPURequestAdapterCallback)(WGPURequestAdapterStatus status, WGPUAdapter adapter,
                                           WGPUStringView message, void *userdata1, void *userdata2);
typedef void (*WGPURequestDeviceCallback)(WGPURequestDeviceStatus status, WGPUDevice device,
                                          WGPUStringView message, void *userdata1, void *userdata2);
typedef void (*WGPUDeviceLostCallback)(WGPUDevice const *device, WGPUDeviceLostReason reason,
                                       WGPUStringView message, void *userdata1, void *userdata2);
typedef void (*WGPUUncapturedErrorCallback)(WGPUDevice const *device, WGPUErrorType type,
                                            WGPUStringView message, void *userdata1, void *userdata2);
typedef void (*WGPUPopErrorScopeCallback)(WGPUPopErrorScopeStatus status, WGPUErrorType type,
                                          WGPUStringView message, void *userdata1, void *userdata2);
typedef void (*WGPUBufferMapCallback)(WGPUMapAsyncStatus status, WGPUStringView message,
                                      void *userdata1, void *userdata2);
typedef void (*WGPUQueueWorkDoneCallback)(WGPUQueueWorkDoneStatus status, WGPUStringView message,
                                          void *userdata1, void *userdata2);
typedef void (*WGPUCreateComputePipelineAsyncCallback)(WGPUCreatePipelineAsyncStatus status,
                                                       WGPUComputePipeline pipeline, WGPUStringView message,
                                                       void *userdata1, void *userdata2);

typedef struct WGPURequestAdapterCallbackInfo {
    WGPUChainedStruct *nextInChain;
    WGPUCallbackMode mode;
    WGPURequestAdapterCallback callback;
    void *userdata1;
    void *userdata2;
} WGPURequestAdapterCallbackInfo;

typedef struct WGPURequestDeviceCallbackInfo {
    WGPUChainedStruct *nextInChain;
    WGPUCallbackMode mode;
    WGPURequestDeviceCallback callback;
    void *userdata1;
    void *userdata2;
} WGPURequestDeviceCallbackInfo;

typedef struct WGPUDeviceLostCallbackInfo {
    WGPUChainedStruct *nextInChain;
    WGPUCallbackMode mode;
    WGPUDeviceLostCallback callback;
    void *userdata1;
    void *userdata2;
} WGPUDeviceLostCallbackInfo;

typedef struct WGPUUncapturedErrorCallbackInfo {
    WGPUChainedStruct *nextInChain;
    WGPUUncapturedErrorCallback callback;
    void *userdata1;
    void *userdata2;
} WGPUUncapturedErrorCallbackInfo;

typedef struct WGPUPopErrorScopeCallbackInfo {
    WGPUChainedStruct *nextInChain;
    WGPUCallbackMode mode;
    WGPUPopErrorScopeCallback callback;
    void *userdata1;
    void *userdata2;
} WGPUPopErrorScopeCallbackInfo;

typedef struct WGPUBufferMapCallbackInfo {
    WGPUChainedStruct *nextInChain;
    WGPUCallbackMode mode;
    WGPUBufferMapCallback callback;
    void *userdata1;
    void *userdata2;
} WGPUBufferMapCallbackInfo;

typedef struct WGPUQueueWorkDoneCallbackInfo {
    WGPUChainedStruct *nextInChain;
    WGPUCallbackMode mode;
    WGPUQueueWorkDoneCallback callback;
    void *userdata1;
    void *userdata2;
} WGPUQueueWorkDoneCallbackInfo;

typedef struct WGPUCreateComputePipelineAsyncCallbackInfo {
    WGPUChainedStruct *nextInChain;
    WGPUCallbackMode mode;
    WGPUCreateComputePipelineAsyncCallback callback;
    void *userdata1;
    void *userdata2;
} WGPUCreateComputePipelineAsyncCallbackInfo;

typedef struct WGPUInstanceLimits {
    WGPUChainedStruct *nextInChain;
    size_t timedWaitAnyMaxCount;
} WGPUInstanceLimits;

typedef struct WGPUInstanceDescriptor {
    WGPUChainedStruct *nextInChain;
    size_t requiredFeatureCount;
    WGPUInstanceFeatureName const *requiredFeatures;
    WGPUInstanceLimits const *requiredLimits;
} WGPUInstanceDescriptor;

/* Dawn extension, chained to instance, adapter-request or device descriptors. */
typedef struct WGPUDawnTogglesDescriptor {
    WGPUChainedStruct chain;
    size_t enabledToggleCount;
    const char *const *enabledToggles;
    size_t disabledToggleCount;
    const char *const *disabledToggles;
} WGPUDawnTogglesDescriptor;

typedef struct WGPURequestAdapterOptions {
    WGPUChainedStruct *nextInChain;
    WGPUFeatureLevel featureLevel;
    WGPUPowerPreference powerPreference;
    WGPUBool forceFallbackAdapter;
    WGPUBackendType backendType;
    WGPUSurface compatibleSurface;
} WGPURequestAdapterOptions;

typedef struct WGPUAdapterInfo {
    WGPUChainedStruct *nextInChain;
    WGPUStringView vendor;
    WGPUStringView architecture;
    WGPUStringView device;
    WGPUStringView description;
    WGPUBackendType backendType;
    WGPUAdapterType adapterType;
    uint32_t vendorID;
    uint32_t deviceID;
    uint32_t subgroupMinSize;
    uint32_t subgroupMaxSize;
} WGPUAdapterInfo;

typedef struct WGPULimits {
    WGPUChainedStruct *nextInChain;
    uint32_t maxTextureDimension1D;
    uint32_t maxTextureDimension2D;
    uint32_t maxTextureDimension3D;
    uint32_t maxTextureArrayLayers;
    uint32_t maxBindGroups;
    uint32_t maxBindGroupsPlusVertexBuffers;
    uint32_t maxBindingsPerBindGroup;
    uint32_t maxDynamicUniformBuffersPerPipelineLayout;
    uint32_t maxDynamicStorageBuffersPerPipelineLayout;
    uint32_t maxSampledTexturesPerShaderStage;
    uint32_t maxSamplersPerShaderStage;
    uint32_t maxStorageBuffersPerShaderStage;
    uint32_t maxStorageTexturesPerShaderStage;
    uint32_t maxUniformBuffersPerShaderStage;
    uint64_t maxUniformBufferBindingSize;
    uint64_t maxStorageBufferBindingSize;
    uint32_t minUniformBufferOffsetAlignment;
    uint32_t minStorageBufferOffsetAlignment;
    uint32_t maxVertexBuffers;
    uint64_t maxBufferSize;
    uint32_t maxVertexAttributes;
    uint32_t maxVertexBufferArrayStride;
    uint32_t maxInterStageShaderVariables;
    uint32_t maxColorAttachments;
    uint32_t maxColorAttachmentBytesPerSample;
    uint32_t maxComputeWorkgroupStorageSize;
    uint32_t maxComputeInvocationsPerWorkgroup;
    uint32_t maxComputeWorkgroupSizeX;
    uint32_t maxComputeWorkgroupSizeY;
    uint32_t maxComputeWorkgroupSizeZ;
    uint32_t maxComputeWorkgroupsPerDimension;
    uint32_t maxImmediateSize;
} WGPULimits;

typedef struct WGPUSupportedFeatures {
    size_t featureCount;
    WGPUFeatureName const *features;
} WGPUSupportedFeatures;

typedef struct WGPUQueueDescriptor {
    WGPUChainedStruct *nextInChain;
    WGPUStringView label;
} WGPUQueueDescriptor;

typedef struct WGPUDeviceDescriptor {
    WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    size_t requiredFeatureCount;
    WGPUFeatureName const *requiredFeatures;
    WGPULimits const *requiredLimits;
    WGPUQueueDescriptor defaultQueue;
    WGPUDeviceLostCallbackInfo deviceLostCallbackInfo;
    WGPUUncapturedErrorCallbackInfo uncapturedErrorCallbackInfo;
} WGPUDeviceDescriptor;

typedef struct WGPUBufferDescriptor {
    WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    WGPUBufferUsage usage;
    uint64_t size;
    WGPUBool mappedAtCreation;
} WGPUBufferDescriptor;

typedef struct WGPUShaderSourceWGSL {
    WGPUChainedStruct chain;
    WGPUStringView code;
} WGPUShaderSourceWGSL;

typedef struct WGPUShaderModuleDescriptor {
    WGPUChainedStruct *nextInChain;
    WGPUStringView label;
} WGPUShaderModuleDescriptor;

typedef struct WGPUConstantEntry {
    WGPUChainedStruct *nextInChain;
    WGPUStringView key;
    double value;
} WGPUConstantEntry;

typedef struct WGPUComputeState {
    WGPUChainedStruct *nextInChain;
    WGPUShaderModule module;
    WGPUStringView entryPoint;
    size_t constantCount;
    WGPUConstantEntry const *constants;
} WGPUComputeState;

typedef struct WGPUComputePipelineDescriptor {
    WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    WGPUPipelineLayout layout;
    WGPUComputeState compute;
} WGPUComputePipelineDescriptor;

typedef struct WGPUBindGroupEntry {
    WGPUChainedStruct *nextInChain;
    uint32_t binding;
    WGPUBuffer buffer;
    uint64_t offset;
    uint64_t size;
    WGPUSampler sampler;
    WGPUTextureView textureView;
} WGPUBindGroupEntry;

typedef struct WGPUBindGroupDescriptor {
    WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    WGPUBindGroupLayout layout;
    size_t entryCount;
    WGPUBindGroupEntry const *entries;
} WGPUBindGroupDescriptor;

typedef struct WGPUPassTimestampWrites {
    WGPUChainedStruct *nextInChain;
    WGPUQuerySet querySet;
    uint32_t beginningOfPassWriteIndex;
    uint32_t endOfPassWriteIndex;
} WGPUPassTimestampWrites;

typedef struct WGPUComputePassDescriptor {
    WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    WGPUPassTimestampWrites const *timestampWrites;
} WGPUComputePassDescriptor;

typedef struct WGPUQuerySetDescriptor {
    WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    WGPUQueryType type;
    uint32_t count;
} WGPUQuerySetDescriptor;

typedef struct WGPUCommandEncoderDescriptor {
    WGPUChainedStruct *nextInChain;
    WGPUStringView label;
} WGPUCommandEncoderDescriptor;

typedef struct WGPUCommandBufferDescriptor {
    WGPUChainedStruct *nextInChain;
    WGPUStringView label;
} WGPUCommandBufferDescriptor;

#ifdef __cplusplus
}
#endif

#endif /* WEBGPU_H_ */
#endif /* WGSCAN_WEBGPU_H */
