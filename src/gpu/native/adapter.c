/* SPDX-License-Identifier: MIT */
/*
 * adapter.c: the native backend's device: choosing an adapter (a GPU, else the
 * SwiftShader CPU driver), creating the device with the features and limits wgscan
 * uses, its lost and uncaptured-error callbacks, and the device's accessors.
 */
#include "gpu/native/native.h"

#include <dirent.h>
#include <pthread.h>
#include <unistd.h>
#include <stdatomic.h>

#define SWIFTSHADER_ICD "/usr/lib/chromium/vk_swiftshader_icd.json"

/* ------------------------------------------------------------------------- */
/* callbacks                                                                   */

typedef struct adapter_req {
    pending head;
    void (*release)(WGPUAdapter); /* for an adapter that arrives after its wait gave up */
    WGPURequestAdapterStatus status;
    WGPUAdapter adapter;
    char msg[256];
} adapter_req;

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message,
                       void *u1, void *u2) {
    (void)u2;
    adapter_req *r = u1;
    if (r->head.abandoned) {
        if (adapter) r->release(adapter);
        wgs__pending_orphan(r);
        return;
    }
    r->status = status;
    r->adapter = adapter;
    sv_copy(r->msg, sizeof r->msg, message);
    r->head.done = 1;
}

typedef struct device_req {
    pending head;
    void (*release)(WGPUDevice); /* for a device that arrives after its wait gave up */
    WGPURequestDeviceStatus status;
    WGPUDevice device;
    char msg[256];
} device_req;

static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message,
                      void *u1, void *u2) {
    (void)u2;
    device_req *r = u1;
    if (r->head.abandoned) {
        if (device) r->release(device);
        wgs__pending_orphan(r);
        return;
    }
    r->status = status;
    r->device = device;
    sv_copy(r->msg, sizeof r->msg, message);
    r->head.done = 1;
}

static void on_device_lost(WGPUDevice const *device, WGPUDeviceLostReason reason,
                           WGPUStringView message, void *u1, void *u2) {
    (void)device;
    (void)u2;
    gpu_device *d = u1;
    /* Cancelled: the instance went away at close. wgscan never destroys a device, so
     * Destroyed means someone else did and counts as a loss. */
    if (reason == WGPUDeviceLostReason_CallbackCancelled) return;
    d->lost = 1;
    sv_copy(d->lost_msg, sizeof d->lost_msg, message);
}

static void on_uncaptured(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message,
                          void *u1, void *u2) {
    (void)device;
    (void)u1;
    (void)u2;
    char buf[512];
    sv_copy(buf, sizeof buf, message);
    /* Only errors outside wgscan's scopes land here (the caller's own encoder work). */
    fprintf(stderr, "wgscan: uncaptured WebGPU error (type %d): %s\n", (int)type, buf);
}

/* ------------------------------------------------------------------------- */
/* device setup                                                                */

static const char *backend_name(WGPUBackendType t) {
    switch (t) {
    case WGPUBackendType_Null: return "null";
    case WGPUBackendType_WebGPU: return "webgpu";
    case WGPUBackendType_D3D11: return "d3d11";
    case WGPUBackendType_D3D12: return "d3d12";
    case WGPUBackendType_Metal: return "metal";
    case WGPUBackendType_Vulkan: return "vulkan";
    case WGPUBackendType_OpenGL: return "opengl";
    case WGPUBackendType_OpenGLES: return "opengles";
    default: return "unknown";
    }
}

static const char *adapter_type_name(WGPUAdapterType t) {
    switch (t) {
    case WGPUAdapterType_DiscreteGPU: return "discrete";
    case WGPUAdapterType_IntegratedGPU: return "integrated";
    case WGPUAdapterType_CPU: return "cpu";
    default: return "unknown";
    }
}

static void fill_caps(gpu_device *d, const char *runtime_path) {
    wgs_context_info *ci = &d->caps.info;
    memset(ci, 0, sizeof *ci);
    WGPUAdapterInfo ai;
    memset(&ai, 0, sizeof ai);
    if (d->p.DeviceGetAdapterInfo(d->device, &ai) == WGPUStatus_Success) {
        sv_copy(ci->vendor, sizeof ci->vendor, ai.vendor);
        sv_copy(ci->architecture, sizeof ci->architecture, ai.architecture);
        sv_copy(ci->device, sizeof ci->device, ai.device);
        sv_copy(ci->description, sizeof ci->description, ai.description);
        fmt(ci->backend, sizeof ci->backend, "%s", backend_name(ai.backendType));
        fmt(ci->adapter_type, sizeof ci->adapter_type, "%s", adapter_type_name(ai.adapterType));
        ci->vendor_id = ai.vendorID;
        ci->device_id = ai.deviceID;
        ci->subgroup_min_size = ai.subgroupMinSize;
        ci->subgroup_max_size = ai.subgroupMaxSize;
        d->p.AdapterInfoFreeMembers(ai);
    }
    fmt(ci->runtime_path, sizeof ci->runtime_path, "%s", runtime_path ? runtime_path : "");
    if (d->adapter) {
        WGPUSupportedFeatures sf;
        memset(&sf, 0, sizeof sf);
        d->p.AdapterGetFeatures(d->adapter, &sf);
        size_t len = 0;
        for (size_t i = 0; i < sf.featureCount && len + 12 < sizeof ci->adapter_features; i++)
            len += (size_t)snprintf(ci->adapter_features + len, sizeof ci->adapter_features - len,
                                    "%s0x%x", i ? " " : "", (unsigned)sf.features[i]);
        d->p.SupportedFeaturesFreeMembers(sf);
    }
    /* Room past the declared struct: an implementation with a longer WGPULimits must
     * not write over our stack. */
    struct {
        WGPULimits l;
        unsigned char spare[512];
    } lim;
    memset(&lim, 0, sizeof lim);
    d->p.DeviceGetLimits(d->device, &lim.l);
    ci->max_buffer_size = lim.l.maxBufferSize;
    ci->max_storage_binding_size = lim.l.maxStorageBufferBindingSize;
    ci->max_workgroups_per_dimension = lim.l.maxComputeWorkgroupsPerDimension;
    ci->max_workgroup_storage_size = lim.l.maxComputeWorkgroupStorageSize;
    ci->max_invocations_per_workgroup = lim.l.maxComputeInvocationsPerWorkgroup;
    ci->max_workgroup_size_x = lim.l.maxComputeWorkgroupSizeX;
    ci->min_storage_offset_alignment = lim.l.minStorageBufferOffsetAlignment;
    ci->min_uniform_offset_alignment = lim.l.minUniformBufferOffsetAlignment;
    ci->max_storage_buffers_per_stage = lim.l.maxStorageBuffersPerShaderStage;
    ci->has_subgroups = d->p.DeviceHasFeature(d->device, WGPUFeatureName_Subgroups) != 0;
    ci->has_timestamp_query = d->p.DeviceHasFeature(d->device, WGPUFeatureName_TimestampQuery) != 0;
    ci->has_shader_f16 = d->p.DeviceHasFeature(d->device, WGPUFeatureName_ShaderF16) != 0;
}

/* A Dawn toggles descriptor to chain to instance, adapter-request or device
 * descriptors; implementations without Dawn toggles ignore the chain. */
static WGPUDawnTogglesDescriptor dawn_toggles(const char *const *enable, size_t n_enable,
                                              const char *const *disable, size_t n_disable) {
    WGPUDawnTogglesDescriptor t;
    memset(&t, 0, sizeof t);
    t.chain.sType = WGPUSType_DawnTogglesDescriptor;
    t.enabledToggleCount = n_enable;
    t.enabledToggles = enable;
    t.disabledToggleCount = n_disable;
    t.disabledToggles = disable;
    return t;
}

static WGPUInstance make_instance(gpu_device *d) {
    /* allow_unsafe_apis lets the device turn off timestamp quantization (below). */
    static const char *enable[] = {"allow_unsafe_apis"};
    WGPUDawnTogglesDescriptor toggles = dawn_toggles(enable, 1, NULL, 0);
    WGPUInstanceFeatureName feats[] = {WGPUInstanceFeatureName_TimedWaitAny};
    WGPUInstanceDescriptor desc;
    memset(&desc, 0, sizeof desc);
    desc.nextInChain = &toggles.chain;
    desc.requiredFeatureCount = 1;
    desc.requiredFeatures = feats;
    WGPUInstance inst = d->p.CreateInstance(&desc);
    d->timed_wait = inst != NULL;
    if (!inst) { /* an implementation without Dawn toggles or timed waits */
        inst = d->p.CreateInstance(NULL);
        d->timed_wait = 0;
    }
    return inst;
}

static WGPUAdapter request_adapter(gpu_device *d, int force_fallback, char *err, size_t errlen) {
    adapter_req *r = wgs__pending_new(sizeof *r);
    if (!r) {
        fmt(err, errlen, "out of host memory");
        return NULL;
    }
    r->release = d->p.AdapterRelease;
    /* Dawn hides shader-f16 on NVIDIA's Vulkan driver unless asked. (On the H200 with
     * driver 580 it still did not offer it, 2026-11-30.) */
    static const char *enable[] = {"vulkan_enable_f16_on_nvidia"};
    WGPUDawnTogglesDescriptor toggles = dawn_toggles(enable, 1, NULL, 0);
    WGPURequestAdapterOptions opt;
    memset(&opt, 0, sizeof opt);
    opt.nextInChain = &toggles.chain;
    opt.featureLevel = WGPUFeatureLevel_Core;
    opt.powerPreference = WGPUPowerPreference_HighPerformance;
    opt.forceFallbackAdapter = force_fallback;
    WGPURequestAdapterCallbackInfo cb;
    memset(&cb, 0, sizeof cb);
    cb.mode = wait_mode(d);
    cb.callback = on_adapter;
    cb.userdata1 = r;
    WGPUFuture f = d->p.InstanceRequestAdapter(d->instance, &opt, cb);
    WGPUAdapter a = NULL;
    if (wgs__native_wait(d, f, &r->head.done) != WGS_OK)
        fmt(err, errlen, "timed out waiting for a WebGPU adapter");
    else if (r->status != WGPURequestAdapterStatus_Success || !r->adapter)
        fmt(err, errlen, "no WebGPU adapter: %s", r->msg[0] ? r->msg : "none offered");
    else
        a = r->adapter;
    wgs__pending_end(r);
    return a;
}

static WGPUAdapterType adapter_type(gpu_device *d, WGPUAdapter a) {
    WGPUAdapterInfo ai;
    memset(&ai, 0, sizeof ai);
    WGPUAdapterType t = WGPUAdapterType_Unknown;
    if (d->p.AdapterGetInfo(a, &ai) == WGPUStatus_Success) {
        t = ai.adapterType;
        d->p.AdapterInfoFreeMembers(ai);
    }
    return t;
}

/* Whether the Vulkan loader has any driver manifest to find, in the places it looks by
 * default. Without one, asking for a GPU only makes Dawn print loader warnings. */
static int dir_has_json(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        found = n > 5 && strcmp(e->d_name + n - 5, ".json") == 0;
    }
    closedir(d);
    return found;
}

static int vulkan_drivers_installed(void) {
    if (getenv("VK_DRIVER_FILES") || getenv("VK_ICD_FILENAMES") || getenv("VK_ADD_DRIVER_FILES"))
        return 1;
    static const char *dirs[] = {"/etc/vulkan/icd.d", "/etc/xdg/vulkan/icd.d",
                                 "/usr/local/share/vulkan/icd.d", "/usr/share/vulkan/icd.d",
                                 "/usr/local/nvidia/share/vulkan/icd.d"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (dir_has_json(dirs[i])) return 1;
    char buf[1024];
    const char *xdg[] = {getenv("XDG_DATA_DIRS"), getenv("XDG_CONFIG_DIRS")};
    for (int k = 0; k < 2; k++) {
        if (!xdg[k]) continue;
        snprintf(buf, sizeof buf, "%s", xdg[k]);
        for (char *save = NULL, *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
            char path[1200];
            snprintf(path, sizeof path, "%s/vulkan/icd.d", tok);
            if (dir_has_json(path)) return 1;
        }
    }
    return 0;
}

/* Makes SwiftShader visible to the Vulkan loader, unless the user chose drivers. */
static int add_swiftshader_icd(void) {
    if (getenv("VK_DRIVER_FILES") || getenv("VK_ICD_FILENAMES")) return 0;
    FILE *f = fopen(SWIFTSHADER_ICD, "r");
    if (!f) return 0;
    fclose(f);
    const char *prev = getenv("VK_ADD_DRIVER_FILES");
    if (prev && strstr(prev, SWIFTSHADER_ICD)) return 1;
    char buf[2048];
    if (prev && *prev)
        snprintf(buf, sizeof buf, "%s:%s", prev, SWIFTSHADER_ICD);
    else
        snprintf(buf, sizeof buf, "%s", SWIFTSHADER_ICD);
    /* setenv is not thread-safe: it runs under probe_lock (so never beside another
     * context's creation), before any device exists, and only where no GPU was found. */
    setenv("VK_ADD_DRIVER_FILES", buf, 1);
    return 1;
}

static wgs_result choose_adapter(gpu_device *d, wgs_adapter_preference pref, char *err,
                                 size_t errlen) {
    char first_err[256] = "";
    /* Without any Vulkan driver manifest there is no GPU to find, and asking only makes
     * Dawn print loader warnings: go straight to the CPU driver. */
    if (pref != WGS_ADAPTER_CPU && (pref == WGS_ADAPTER_GPU || vulkan_drivers_installed())) {
        d->instance = make_instance(d);
        if (!d->instance) {
            fmt(err, errlen, "wgpuCreateInstance failed");
            return WGS_ERROR_NO_ADAPTER;
        }
        WGPUAdapter a = request_adapter(d, 0, first_err, sizeof first_err);
        if (a && adapter_type(d, a) != WGPUAdapterType_CPU) {
            d->adapter = a;
            return WGS_OK;
        }
        if (a) d->p.AdapterRelease(a); /* a CPU driver: found again below, deliberately */
        if (pref == WGS_ADAPTER_GPU) {
            fmt(err, errlen, "no GPU adapter found (%s)", first_err[0] ? first_err : "only a CPU driver");
            return WGS_ERROR_NO_ADAPTER;
        }
        d->p.InstanceRelease(d->instance);
        d->instance = NULL;
    }
    /* No GPU: use the CPU driver. A fresh instance makes the Vulkan loader read the
     * driver list again, now with SwiftShader in it. */
    int have_ss = add_swiftshader_icd();
    d->instance = make_instance(d);
    if (!d->instance) {
        fmt(err, errlen, "wgpuCreateInstance failed");
        return WGS_ERROR_NO_ADAPTER;
    }
    char e2[256] = "";
    WGPUAdapter a = request_adapter(d, 1, e2, sizeof e2);
    if (!a) a = request_adapter(d, 0, e2, sizeof e2);
    if (a && pref == WGS_ADAPTER_CPU && adapter_type(d, a) != WGPUAdapterType_CPU) {
        d->p.AdapterRelease(a); /* a CPU driver was asked for, not this GPU */
        a = NULL;
        fmt(e2, sizeof e2, "no CPU driver among the adapters");
    }
    if (!a) {
        fmt(err, errlen, "no WebGPU adapter found: %s%s", e2,
            have_ss ? "" : " (the CPU driver needs Debian's chromium package: " SWIFTSHADER_ICD ")");
        return WGS_ERROR_NO_ADAPTER;
    }
    d->adapter = a;
    return WGS_OK;
}

static wgs_result create_device(gpu_device *d, const char *extra_toggles, char *err, size_t errlen) {
    WGPUFeatureName want[] = {WGPUFeatureName_Subgroups, WGPUFeatureName_TimestampQuery,
                              WGPUFeatureName_ShaderF16};
    WGPUFeatureName feats[3];
    size_t nf = 0;
    for (size_t i = 0; i < 3; i++)
        if (d->p.AdapterHasFeature(d->adapter, want[i])) feats[nf++] = want[i];
    /* The adapter's limits as required limits: the largest buffers, bindings,
     * workgroup storage and invocations it offers. */
    struct {
        WGPULimits l;
        unsigned char spare[512];
    } lim;
    memset(&lim, 0, sizeof lim);
    if (d->p.AdapterGetLimits(d->adapter, &lim.l) != WGPUStatus_Success) {
        fmt(err, errlen, "wgpuAdapterGetLimits failed");
        return WGS_ERROR_DEVICE_REQUEST_FAILED;
    }
    lim.l.nextInChain = NULL;

    static const char *disable[] = {"timestamp_quantization"};
    /* Experiments may enable Dawn device toggles ("a,b"). */
    char toggle_buf[256];
    const char *enable[8];
    size_t n_enable = 0;
    if (extra_toggles && *extra_toggles) {
        snprintf(toggle_buf, sizeof toggle_buf, "%s", extra_toggles);
        for (char *save = NULL, *tok = strtok_r(toggle_buf, ",", &save); tok && n_enable < 8;
             tok = strtok_r(NULL, ",", &save))
            enable[n_enable++] = tok;
    }
    WGPUDawnTogglesDescriptor toggles = dawn_toggles(enable, n_enable, disable, 1);

    WGPUDeviceDescriptor dd;
    memset(&dd, 0, sizeof dd);
    dd.nextInChain = &toggles.chain;
    /* Numbered, so that a message naming two devices tells them apart. */
    static atomic_uint devices;
    char label[64];
    snprintf(label, sizeof label, "wgscan device %u", atomic_fetch_add(&devices, 1) + 1);
    dd.label = sv(label);
    dd.requiredFeatureCount = nf;
    dd.requiredFeatures = feats;
    dd.requiredLimits = &lim.l;
    dd.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
    dd.deviceLostCallbackInfo.callback = on_device_lost;
    dd.deviceLostCallbackInfo.userdata1 = d;
    dd.uncapturedErrorCallbackInfo.callback = on_uncaptured;
    dd.uncapturedErrorCallbackInfo.userdata1 = d;

    device_req *r = wgs__pending_new(sizeof *r);
    if (!r) {
        fmt(err, errlen, "out of host memory");
        return WGS_ERROR_OUT_OF_HOST_MEMORY;
    }
    r->release = d->p.DeviceRelease;
    WGPURequestDeviceCallbackInfo cb;
    memset(&cb, 0, sizeof cb);
    cb.mode = wait_mode(d);
    cb.callback = on_device;
    cb.userdata1 = r;
    WGPUFuture f = d->p.AdapterRequestDevice(d->adapter, &dd, cb);
    wgs_result res = WGS_OK;
    if (wgs__native_wait(d, f, &r->head.done) != WGS_OK) {
        fmt(err, errlen, "timed out waiting for a WebGPU device");
        res = WGS_ERROR_TIMEOUT;
    } else if (r->status != WGPURequestDeviceStatus_Success || !r->device) {
        fmt(err, errlen, "device request failed: %s", r->msg);
        res = WGS_ERROR_DEVICE_REQUEST_FAILED;
    }
    WGPUDevice device = res == WGS_OK ? r->device : NULL;
    wgs__pending_end(r);
    if (res != WGS_OK) return res;
    d->device = device;
    d->queue = d->p.DeviceGetQueue(d->device);
    return WGS_OK;
}

/* Drivers print to stderr while they are probed (wgs_context_desc.driver_output says
 * why this is caught). fd 2 is pointed at a temporary file for the probe and restored
 * after; the lines go to the log. No temporary file or no dup: nothing is caught.
 * fd 2 and the driver list in the environment belong to the process, so one probe (or
 * closing) runs at a time, whole: two that overlapped would each restore the other's
 * temporary file as stderr. */
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

/* The process's first adapter and its instance, one reference each never given back:
 * they keep the Vulkan instance, and with it the driver, loaded for the life of the
 * process, as runtime.c keeps Dawn. The Vulkan loader unloads a driver when the last
 * instance that uses it goes; NVIDIA's (and others', by public reports) can crash when
 * that happens while threads of its own still run, or when it is loaded again while
 * other contexts work. The H200 crashed so twice in test_threads, whose threads close
 * every context between rounds. Set under probe_lock. */
static WGPUInstance resident_instance;
static WGPUAdapter resident_adapter;

typedef struct stderr_catch {
    FILE *sink;
    int saved;
} stderr_catch;

/* Takes probe_lock; catch_end releases it. */
static void catch_begin(stderr_catch *c, const gpu_device *d) {
    pthread_mutex_lock(&probe_lock);
    c->sink = NULL;
    c->saved = -1;
    if (d->driver_output != WGS_DRIVER_OUTPUT_LOG) return;
    fflush(stderr);
    c->sink = tmpfile();
    if (c->sink) c->saved = dup(2);
    if (c->saved < 0 || dup2(fileno(c->sink), 2) < 0) {
        if (c->saved >= 0) close(c->saved);
        if (c->sink) fclose(c->sink);
        c->sink = NULL;
    }
}

static void catch_end(stderr_catch *c, const gpu_device *d) {
    if (c->sink) {
        fflush(stderr);
        dup2(c->saved, 2);
        close(c->saved);
    }
    pthread_mutex_unlock(&probe_lock);
    if (!c->sink) return;
    /* (The log is the caller's: called outside the lock.) */
    rewind(c->sink);
    char line[1024];
    while (d->log && fgets(line, sizeof line, c->sink)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0]) d->log(WGS_LOG_INFO, WGS_OK, line, d->log_user);
    }
    fclose(c->sink);
}

wgs_result wgs__gpu_open_default(const wgs_context_desc *desc, gpu_device **out, char *err,
                            size_t errlen) {
    *out = NULL;
    gpu_device *d = calloc(1, sizeof *d);
    if (!d) return WGS_ERROR_OUT_OF_HOST_MEMORY;
    d->wait_limit_s = DEFAULT_WAIT_LIMIT_S;
    d->driver_output = desc->driver_output;
    d->log = desc->log;
    d->log_user = desc->log_user;
    stderr_catch caught;
    catch_begin(&caught, d);
    char loaded[512] = "";
    void *lib = wgs__native_open_runtime(desc->runtime_library, loaded, sizeof loaded, err, errlen);
    /* The runtime stays loaded for the life of the process: Dawn keeps threads and
     * static state that do not survive dlclose. */
    int resolved = lib && wgs__native_resolve_procs(&d->p, wgs__native_lookup_dlsym, lib, err, errlen);
    wgs_result r = resolved ? choose_adapter(d, desc->adapter, err, errlen) : WGS_ERROR_RUNTIME_NOT_FOUND;
    /* The C API lists no adapters: wgpuInstanceRequestAdapter's choice is the one there
     * is to take (Dawn enumerates only in its C++ API). */
    uint32_t count = r == WGS_OK ? 1 : 0;
    if (r == WGS_OK && desc->adapter_index >= count) {
        fmt(err, errlen, "adapter_index %u is past the %u adapter(s) this runtime offers for the preference",
            desc->adapter_index, count);
        r = WGS_ERROR_NO_ADAPTER;
    }
    if (r == WGS_OK && !resident_adapter) {
        d->p.InstanceAddRef(d->instance);
        d->p.AdapterAddRef(d->adapter);
        resident_instance = d->instance;
        resident_adapter = d->adapter;
    }
    if (r == WGS_OK)
        r = create_device(d, desc->experimental ? desc->experimental->dawn_toggles : NULL, err, errlen);
    catch_end(&caught, d);
    if (!resolved) {
        free(d); /* nothing of the runtime's to release */
        return r;
    }
    if (r != WGS_OK) {
        wgs__gpu_close(d);
        return r;
    }
    fill_caps(d, loaded);
    d->caps.info.adapter_count = count;
    wgs__native_set_wait_limit(d, desc);
    *out = d;
    return WGS_OK;
}

wgs_result wgs__gpu_open_external(const wgs_external_device *ext, const wgs_context_desc *desc, gpu_device **out,
                             char *err, size_t errlen) {
    *out = NULL;
    gpu_device *d = calloc(1, sizeof *d);
    if (!d) return WGS_ERROR_OUT_OF_HOST_MEMORY;
    wgs__native_set_wait_limit(d, desc);
    d->driver_output = WGS_DRIVER_OUTPUT_STDERR; /* the caller's device: nothing of ours to catch */
    WGPUProcGetProcAddress gpa = ext->get_proc_address;
    if (!wgs__native_resolve_procs(&d->p, wgs__native_lookup_gpa, &gpa, err, errlen)) {
        free(d);
        return WGS_ERROR_RUNTIME_NOT_FOUND;
    }
    /* We cannot know whether the caller's instance has TimedWaitAny: pump events. */
    d->timed_wait = 0;
    d->instance = ext->instance;
    d->device = ext->device;
    d->p.InstanceAddRef(d->instance);
    d->p.DeviceAddRef(d->device);
    d->queue = d->p.DeviceGetQueue(d->device);
    fill_caps(d, "");
    *out = d;
    return WGS_OK;
}

void wgs__gpu_close(gpu_device *d) {
    if (!d) return;
    stderr_catch caught;
    catch_begin(&caught, d);
    if (d->device) wgs__native_transfer_release(d);
    if (d->queue) d->p.QueueRelease(d->queue);
    if (d->device) d->p.DeviceRelease(d->device);
    if (d->adapter) d->p.AdapterRelease(d->adapter);
    if (d->instance) {
        /* Let callbacks of the released device run before the instance goes. */
        d->p.InstanceProcessEvents(d->instance);
        d->p.InstanceRelease(d->instance);
    }
    catch_end(&caught, d);
    free(d);
}

void wgs__gpu_get_caps(const gpu_device *d, gpu_caps *caps) { *caps = d->caps; }
WGPUDevice wgs__gpu_wgpu_device(const gpu_device *d) { return d->device; }
WGPUQueue wgs__gpu_wgpu_queue(const gpu_device *d) { return d->queue; }
WGPUInstance wgs__gpu_wgpu_instance(const gpu_device *d) { return d->instance; }

WGPUProc wgs__gpu_get_proc(const gpu_device *d, const char *name) {
    if (!name || strncmp(name, "wgpu", 4) != 0) return NULL;
#define WGS_GET_(n, ret, params) \
    if (strcmp(name + 4, #n) == 0) return (WGPUProc)d->p.n;
    WGS_PROC_LIST(WGS_GET_)
#undef WGS_GET_
    return NULL;
}

int wgs__gpu_is_lost(const gpu_device *d, char *msg, size_t msglen) {
    /* Lets a pending device-lost callback run (it is spontaneous, but Dawn delivers some
     * events only when the instance is pumped). */
    if (!d->lost) d->p.InstanceProcessEvents(d->instance);
    if (d->lost && msg) fmt(msg, msglen, "%s", d->lost_msg);
    return d->lost;
}
