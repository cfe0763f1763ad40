/* SPDX-License-Identifier: MIT */
/*
 * dawn_log_shim.c: a laboratory stand-in for the WebGPU runtime that lets Dawn's device
 * log out (bench/lab/dump-spirv.sh builds and uses it).
 *
 * Dawn writes what its toggle dump_shaders produces (the generated SPIR-V, as
 * disassembly) only to a device logging callback, and the library sets none. The library
 * loads its runtime from $WGSCAN_WEBGPU_LIB and resolves every function by dlsym on that
 * handle, which searches the loaded object first and then its dependencies. So this
 * library, linked against Dawn's, defines the one function it needs to change and lets
 * the lookup of every other one fall through to Dawn.
 *
 * Before each compute pipeline it sets the device's logging callback and writes a line
 * "// wgscan-dump pipeline LABEL entry ENTRY": the pipeline is compiled during the
 * call, so the dump that follows is that pipeline's. Output: the file named by
 * $WGSCAN_DAWN_LOG (appended), else stderr.
 */
#define _GNU_SOURCE
#include "wgscan_webgpu.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Not in wgscan_webgpu.h (the library never logs through Dawn): Dawn's declarations of
 * the same webgpu.h generation. */
typedef enum WGPULoggingType {
    WGPULoggingType_Verbose = 1,
    WGPULoggingType_Info = 2,
    WGPULoggingType_Warning = 3,
    WGPULoggingType_Error = 4,
    WGPULoggingType_Force32 = 0x7FFFFFFF
} WGPULoggingType;
typedef void (*WGPULoggingCallback)(WGPULoggingType type, WGPUStringView message, void *userdata1,
                                    void *userdata2);
typedef struct WGPULoggingCallbackInfo {
    WGPUChainedStruct *nextInChain;
    WGPULoggingCallback callback;
    void *userdata1;
    void *userdata2;
} WGPULoggingCallbackInfo;

typedef WGPUComputePipeline (*create_pipeline_fn)(WGPUDevice, WGPUComputePipelineDescriptor const *);
typedef void (*set_logging_fn)(WGPUDevice, WGPULoggingCallbackInfo);

static FILE *out(void) {
    static FILE *f;
    if (!f) {
        const char *path = getenv("WGSCAN_DAWN_LOG");
        f = path && *path ? fopen(path, "a") : NULL;
        if (!f) f = stderr;
    }
    return f;
}

static void on_log(WGPULoggingType type, WGPUStringView message, void *u1, void *u2) {
    (void)u1;
    (void)u2;
    static const char *names[] = {"?", "verbose", "info", "warning", "error"};
    size_t len = message.length == WGPU_STRLEN && message.data ? strlen(message.data) : message.length;
    FILE *f = out();
    fprintf(f, "// dawn %s\n%.*s\n", (unsigned)type <= 4 ? names[type] : "?", (int)len,
            message.data ? message.data : "");
    fflush(f);
}

/* The real functions, from Dawn's library: already loaded as this one's dependency. */
static void *real(const char *name) {
    static void *dawn;
    if (!dawn) dawn = dlopen("libwebgpu_wrapper.so", RTLD_NOW | RTLD_NOLOAD);
    return dawn ? dlsym(dawn, name) : NULL;
}

WGPUComputePipeline wgpuDeviceCreateComputePipeline(WGPUDevice device,
                                                    WGPUComputePipelineDescriptor const *desc) {
    create_pipeline_fn create = (create_pipeline_fn)real("wgpuDeviceCreateComputePipeline");
    set_logging_fn set_logging = (set_logging_fn)real("wgpuDeviceSetLoggingCallback");
    if (!create) {
        fprintf(stderr, "dawn_log_shim: libwebgpu_wrapper.so not loaded\n");
        return NULL;
    }
    if (set_logging) {
        WGPULoggingCallbackInfo info = {NULL, on_log, NULL, NULL};
        set_logging(device, info);
    }
    WGPUStringView l = desc->label, e = desc->compute.entryPoint;
    size_t ll = l.length == WGPU_STRLEN && l.data ? strlen(l.data) : l.data ? l.length : 0;
    size_t el = e.length == WGPU_STRLEN && e.data ? strlen(e.data) : e.data ? e.length : 0;
    fprintf(out(), "// wgscan-dump pipeline %.*s entry %.*s\n", (int)ll, ll ? l.data : "",
            (int)el, el ? e.data : "");
    fflush(out());
    return create(device, desc);
}
