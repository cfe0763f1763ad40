/*
 * gpu_native.c: the native backend of gpu.h, on the WebGPU C API.
 *
 * The runtime (Dawn from npm, or any implementation of the same ABI) is loaded with
 * dlopen and every function is resolved into a wgs_procs table, so the library has no
 * link-time dependency on WebGPU and the same binary works with a caller's device.
 */
#define _GNU_SOURCE /* dladdr, setenv */
#ifndef WGSCAN_EXPERIMENTAL_API
#define WGSCAN_EXPERIMENTAL_API
#endif
#include "gpu/gpu.h"
#include "gpu/procs.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef WGSCAN_DAWN_BUILD_PATH
#define WGSCAN_DAWN_BUILD_PATH ""
#endif
#ifndef WGSCAN_DAWN_INSTALL_PATH
#define WGSCAN_DAWN_INSTALL_PATH ""
#endif

#define SWIFTSHADER_ICD "/usr/lib/chromium/vk_swiftshader_icd.json"

struct gpu_device {
    wgs_procs p;
    WGPUInstance instance;
    WGPUAdapter adapter; /* NULL for an external device */
    WGPUDevice device;
    WGPUQueue queue;
    int timed_wait; /* instance was created with TimedWaitAny */
    int lost;
    char lost_msg[256];
    int scope_depth;
    double wait_limit_s; /* a wait longer than this fails with WGS_ERROR_TIMEOUT */
    gpu_caps caps;
};

/* ------------------------------------------------------------------------- */
/* small helpers                                                               */

static WGPUStringView sv(const char *s) {
    WGPUStringView v = {s, s ? WGPU_STRLEN : 0};
    return v;
}

static void sv_copy(char *dst, size_t cap, WGPUStringView v) {
    size_t n = 0;
    if (v.data) n = v.length == WGPU_STRLEN ? strlen(v.data) : v.length;
    if (n >= cap) n = cap - 1;
    if (n) memcpy(dst, v.data, n);
    dst[n] = 0;
}

static void fmt(char *dst, size_t cap, const char *f, ...) {
    if (!dst || !cap) return;
    va_list ap;
    va_start(ap, f);
    vsnprintf(dst, cap, f, ap);
    va_end(ap);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* How long a wait on the GPU may take before we give up instead of hanging, unless the
 * description says otherwise. Large on purpose: a CPU driver moving gigabytes is slow,
 * but never this slow. */
#define DEFAULT_WAIT_LIMIT_S 900.0

/* The description's limit is for waits on GPU work; the adapter and device requests of
 * the creation keep the default (a tiny limit must not make creation fail). */
static void set_wait_limit(gpu_device *d, const wgs_context_desc *desc) {
    d->wait_limit_s = desc && desc->wait_timeout_s > 0 ? desc->wait_timeout_s : DEFAULT_WAIT_LIMIT_S;
}

/* Waits for one future whose callback sets *done. With TimedWaitAny the wait blocks in
 * WebGPU; without it (a caller's instance) we pump events. */
static wgs_result wait_future(gpu_device *d, WGPUFuture f, volatile int *done) {
    double deadline = now_s() + d->wait_limit_s;
    while (!*done) {
        if (d->timed_wait) {
            WGPUFutureWaitInfo info = {f, 0};
            WGPUWaitStatus st = d->p.InstanceWaitAny(d->instance, 1, &info, 100000000ull);
            if (st == WGPUWaitStatus_Error) return WGS_ERROR_GPU_INTERNAL;
        } else {
            d->p.InstanceProcessEvents(d->instance);
            if (!*done) {
                struct timespec ts = {0, 20000};
                nanosleep(&ts, NULL);
            }
        }
        if (!*done && now_s() > deadline) return WGS_ERROR_TIMEOUT;
    }
    return WGS_OK;
}

static WGPUCallbackMode wait_mode(const gpu_device *d) {
    return d->timed_wait ? WGPUCallbackMode_WaitAnyOnly : WGPUCallbackMode_AllowProcessEvents;
}

/* What a callback writes lives on the heap, never in the waiting frame: a wait that
 * gives up (WGS_ERROR_TIMEOUT) returns while WebGPU still holds the userdata, and
 * WebGPU calls it later (at the latest when the device or instance goes). The waiter
 * then marks the request abandoned and the callback frees it; otherwise the waiter
 * frees it. Callbacks run inside our waits or releases, on the caller's thread, so the
 * two sides never race. Every request struct starts with this header. */
typedef struct pending {
    volatile int done;
    int abandoned;
} pending;

static void *pending_new(size_t size) { return calloc(1, size); }

/* First thing every callback does: 1 when nobody waits for it any more (freed). */
static int pending_orphan(void *req) {
    pending *p = req;
    if (!p->abandoned) return 0;
    free(p);
    return 1;
}

/* The waiter is done with the request: frees it, or leaves it to its callback. */
static void pending_end(void *req) {
    pending *p = req;
    if (!p) return;
    if (p->done)
        free(p);
    else
        p->abandoned = 1;
}

/* ------------------------------------------------------------------------- */
/* runtime loading                                                             */

/* why (may be NULL) receives dlopen's reason at once: a later dlerror() may be stale
 * or NULL. */
static void *try_open(const char *path, char *loaded, size_t cap, char *why, size_t whylen) {
    if (!path || !*path) {
        fmt(why, whylen, "no path given");
        return NULL;
    }
    dlerror(); /* clear what an earlier failure left */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h) {
        fmt(loaded, cap, "%s", path);
    } else {
        const char *e = dlerror();
        fmt(why, whylen, "%s", e ? e : "unknown reason");
    }
    return h;
}

/* Directory of the module that holds this code (the shared library or the program it
 * was linked into), so an installed or relocated tree finds the Dawn copied beside it. */
static int own_dir(char *dir, size_t cap) {
    Dl_info info;
    if (!dladdr((void *)own_dir, &info) || !info.dli_fname) return 0;
    fmt(dir, cap, "%s", info.dli_fname);
    char *slash = strrchr(dir, '/');
    if (!slash) return 0;
    *slash = 0;
    return 1;
}

static void *open_runtime(const char *explicit_path, char *loaded, size_t cap, char *err,
                          size_t errlen) {
    char why[512] = "";
    if (explicit_path) {
        void *h = try_open(explicit_path, loaded, cap, why, sizeof why);
        if (!h) fmt(err, errlen, "cannot load WebGPU runtime '%s': %s", explicit_path, why);
        return h;
    }
    const char *env = getenv("WGSCAN_WEBGPU_LIB");
    if (env && *env) {
        void *h = try_open(env, loaded, cap, why, sizeof why);
        if (!h) fmt(err, errlen, "cannot load WGSCAN_WEBGPU_LIB='%s': %s", env, why);
        return h;
    }
    void *h = try_open(WGSCAN_DAWN_BUILD_PATH, loaded, cap, NULL, 0);
    if (!h) h = try_open(WGSCAN_DAWN_INSTALL_PATH, loaded, cap, NULL, 0);
    char dir[1024], path[1200];
    if (!h && own_dir(dir, sizeof dir)) {
        static const char *rel[] = {"wgscan/libwebgpu_wrapper.so", "dawn/libwebgpu_wrapper.so",
                                    "../dawn/libwebgpu_wrapper.so",
                                    "../lib/wgscan/libwebgpu_wrapper.so"};
        for (size_t i = 0; !h && i < sizeof rel / sizeof rel[0]; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, rel[i]);
            h = try_open(path, loaded, cap, NULL, 0);
        }
    }
    static const char *sys[] = {"libwebgpu_dawn.so", "libwgpu_native.so", "libwebgpu.so"};
    for (size_t i = 0; !h && i < sizeof sys / sizeof sys[0]; i++) h = try_open(sys[i], loaded, cap, NULL, 0);
    if (!h)
        fmt(err, errlen,
            "no WebGPU runtime found (tried $WGSCAN_WEBGPU_LIB, the pinned Dawn '%s', and "
            "libwebgpu_dawn.so, libwgpu_native.so, libwebgpu.so); run 'make deps' or set "
            "WGSCAN_WEBGPU_LIB",
            WGSCAN_DAWN_BUILD_PATH);
    return h;
}

typedef WGPUProc (*proc_lookup)(void *user, const char *name);

static WGPUProc lookup_dlsym(void *user, const char *name) {
    return (WGPUProc)dlsym(user, name);
}

static WGPUProc lookup_gpa(void *user, const char *name) {
    WGPUProcGetProcAddress gpa = *(WGPUProcGetProcAddress *)user;
    if (strcmp(name, "wgpuGetProcAddress") == 0) return (WGPUProc)gpa;
    return gpa(sv(name));
}

static int resolve_procs(wgs_procs *p, proc_lookup lookup, void *user, char *err,
                         size_t errlen) {
#define WGS_RESOLVE_(name, ret, params)                                           \
    p->name = (ret(*) params)lookup(user, "wgpu" #name);                          \
    if (!p->name) {                                                               \
        fmt(err, errlen, "the WebGPU runtime lacks wgpu%s (wrong ABI?)", #name); \
        return 0;                                                                 \
    }
    WGS_PROC_LIST(WGS_RESOLVE_)
#undef WGS_RESOLVE_
    return 1;
}

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
        pending_orphan(r);
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
        pending_orphan(r);
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
    adapter_req *r = pending_new(sizeof *r);
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
    if (wait_future(d, f, &r->head.done) != WGS_OK)
        fmt(err, errlen, "timed out waiting for a WebGPU adapter");
    else if (r->status != WGPURequestAdapterStatus_Success || !r->adapter)
        fmt(err, errlen, "no WebGPU adapter: %s", r->msg[0] ? r->msg : "none offered");
    else
        a = r->adapter;
    pending_end(r);
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
    /* setenv is not thread-safe; it runs once per context creation, before any device
     * exists, and only where no GPU was found. */
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

    device_req *r = pending_new(sizeof *r);
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
    if (wait_future(d, f, &r->head.done) != WGS_OK) {
        fmt(err, errlen, "timed out waiting for a WebGPU device");
        res = WGS_ERROR_TIMEOUT;
    } else if (r->status != WGPURequestDeviceStatus_Success || !r->device) {
        fmt(err, errlen, "device request failed: %s", r->msg);
        res = WGS_ERROR_DEVICE_REQUEST_FAILED;
    }
    WGPUDevice device = res == WGS_OK ? r->device : NULL;
    pending_end(r);
    if (res != WGS_OK) return res;
    d->device = device;
    d->queue = d->p.DeviceGetQueue(d->device);
    return WGS_OK;
}

wgs_result gpu_open_default(const wgs_context_desc *desc, gpu_device **out, char *err,
                            size_t errlen) {
    *out = NULL;
    gpu_device *d = calloc(1, sizeof *d);
    if (!d) return WGS_ERROR_OUT_OF_HOST_MEMORY;
    char loaded[512] = "";
    void *lib = open_runtime(desc->runtime_library, loaded, sizeof loaded, err, errlen);
    /* The runtime stays loaded for the life of the process: Dawn keeps threads and
     * static state that do not survive dlclose. */
    if (!lib || !resolve_procs(&d->p, lookup_dlsym, lib, err, errlen)) {
        free(d);
        return WGS_ERROR_RUNTIME_NOT_FOUND;
    }
    d->wait_limit_s = DEFAULT_WAIT_LIMIT_S;
    wgs_result r = choose_adapter(d, desc->adapter, err, errlen);
    if (r == WGS_OK)
        r = create_device(d, desc->experimental ? desc->experimental->dawn_toggles : NULL, err, errlen);
    if (r != WGS_OK) {
        gpu_close(d);
        return r;
    }
    fill_caps(d, loaded);
    set_wait_limit(d, desc);
    *out = d;
    return WGS_OK;
}

wgs_result gpu_open_external(const wgs_external_device *ext, const wgs_context_desc *desc, gpu_device **out,
                             char *err, size_t errlen) {
    *out = NULL;
    gpu_device *d = calloc(1, sizeof *d);
    if (!d) return WGS_ERROR_OUT_OF_HOST_MEMORY;
    set_wait_limit(d, desc);
    WGPUProcGetProcAddress gpa = ext->get_proc_address;
    if (!resolve_procs(&d->p, lookup_gpa, &gpa, err, errlen)) {
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

void gpu_close(gpu_device *d) {
    if (!d) return;
    if (d->queue) d->p.QueueRelease(d->queue);
    if (d->device) d->p.DeviceRelease(d->device);
    if (d->adapter) d->p.AdapterRelease(d->adapter);
    if (d->instance) {
        /* Let callbacks of the released device run before the instance goes. */
        d->p.InstanceProcessEvents(d->instance);
        d->p.InstanceRelease(d->instance);
    }
    free(d);
}

void gpu_get_caps(const gpu_device *d, gpu_caps *caps) { *caps = d->caps; }
WGPUDevice gpu_wgpu_device(const gpu_device *d) { return d->device; }
WGPUQueue gpu_wgpu_queue(const gpu_device *d) { return d->queue; }
WGPUInstance gpu_wgpu_instance(const gpu_device *d) { return d->instance; }

WGPUProc gpu_get_proc(const gpu_device *d, const char *name) {
    if (!name || strncmp(name, "wgpu", 4) != 0) return NULL;
#define WGS_GET_(n, ret, params) \
    if (strcmp(name + 4, #n) == 0) return (WGPUProc)d->p.n;
    WGS_PROC_LIST(WGS_GET_)
#undef WGS_GET_
    return NULL;
}

int gpu_is_lost(const gpu_device *d, char *msg, size_t msglen) {
    /* Lets a pending device-lost callback run (it is spontaneous, but Dawn delivers some
     * events only when the instance is pumped). */
    if (!d->lost) d->p.InstanceProcessEvents(d->instance);
    if (d->lost && msg) fmt(msg, msglen, "%s", d->lost_msg);
    return d->lost;
}

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
    if (pending_orphan(r)) return;
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

void gpu_scope_push(gpu_device *d) {
    d->p.DevicePushErrorScope(d->device, WGPUErrorFilter_Internal);
    d->p.DevicePushErrorScope(d->device, WGPUErrorFilter_OutOfMemory);
    d->p.DevicePushErrorScope(d->device, WGPUErrorFilter_Validation);
    d->scope_depth++;
}

wgs_result gpu_scope_pop(gpu_device *d, char *msg, size_t msglen) {
    wgs_result first = WGS_OK;
    if (d->scope_depth <= 0) return WGS_ERROR_GPU_INTERNAL;
    d->scope_depth--;
    /* Pop in reverse order of the pushes: validation, out-of-memory, internal. All three
     * are popped even after an error so the stack stays balanced. */
    for (int i = 0; i < 3; i++) {
        scope_req *r = pending_new(sizeof *r);
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
        wgs_result w = wait_future(d, f, &r->head.done);
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
        pending_end(r);
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

WGPUBuffer gpu_buffer_create(gpu_device *d, uint64_t size, WGPUBufferUsage usage,
                             const char *label) {
    WGPUBufferDescriptor bd;
    memset(&bd, 0, sizeof bd);
    bd.label = sv(label);
    bd.usage = usage;
    bd.size = size;
    return d->p.DeviceCreateBuffer(d->device, &bd);
}

void gpu_buffer_release(gpu_device *d, WGPUBuffer b) {
    if (b) d->p.BufferRelease(b);
}

uint64_t gpu_buffer_size(gpu_device *d, WGPUBuffer b) { return d->p.BufferGetSize(b); }
WGPUBufferUsage gpu_buffer_usage(gpu_device *d, WGPUBuffer b) { return d->p.BufferGetUsage(b); }

void gpu_queue_write(gpu_device *d, WGPUBuffer b, uint64_t offset, const void *data, size_t size) {
    d->p.QueueWriteBuffer(d->queue, b, offset, data, size);
}

WGPUComputePipeline gpu_pipeline_create(gpu_device *d, const char *wgsl, const char *entry,
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

void gpu_pipeline_release(gpu_device *d, WGPUComputePipeline p) {
    if (p) d->p.ComputePipelineRelease(p);
}

WGPUBindGroup gpu_bind_group_create(gpu_device *d, WGPUComputePipeline pipeline,
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

void gpu_bind_group_release(gpu_device *d, WGPUBindGroup g) {
    if (g) d->p.BindGroupRelease(g);
}

WGPUComputePassEncoder gpu_pass_begin(gpu_device *d, WGPUCommandEncoder enc, WGPUQuerySet qs,
                                      uint32_t begin_index, uint32_t end_index) {
    WGPUPassTimestampWrites tw;
    memset(&tw, 0, sizeof tw);
    WGPUComputePassDescriptor pd;
    memset(&pd, 0, sizeof pd);
    pd.label = sv("wgscan");
    if (qs) {
        tw.querySet = qs;
        tw.beginningOfPassWriteIndex = begin_index;
        tw.endOfPassWriteIndex = end_index;
        pd.timestampWrites = &tw;
    }
    return d->p.CommandEncoderBeginComputePass(enc, &pd);
}

void gpu_pass_dispatch(gpu_device *d, WGPUComputePassEncoder pass, WGPUComputePipeline pipeline,
                       WGPUBindGroup group, uint32_t x, uint32_t y) {
    d->p.ComputePassEncoderSetPipeline(pass, pipeline);
    d->p.ComputePassEncoderSetBindGroup(pass, 0, group, 0, NULL);
    d->p.ComputePassEncoderDispatchWorkgroups(pass, x, y, 1);
}

void gpu_pass_end(gpu_device *d, WGPUComputePassEncoder pass) {
    d->p.ComputePassEncoderEnd(pass);
    d->p.ComputePassEncoderRelease(pass);
}

/* ------------------------------------------------------------------------- */
/* host-side helpers                                                           */

WGPUCommandEncoder gpu_encoder_create(gpu_device *d) {
    WGPUCommandEncoderDescriptor ed;
    memset(&ed, 0, sizeof ed);
    return d->p.DeviceCreateCommandEncoder(d->device, &ed);
}

void gpu_copy(gpu_device *d, WGPUCommandEncoder enc, WGPUBuffer src, uint64_t src_offset,
              WGPUBuffer dst, uint64_t dst_offset, uint64_t size) {
    d->p.CommandEncoderCopyBufferToBuffer(enc, src, src_offset, dst, dst_offset, size);
}

void gpu_resolve_queries(gpu_device *d, WGPUCommandEncoder enc, WGPUQuerySet qs, uint32_t first,
                         uint32_t count, WGPUBuffer dst, uint64_t dst_offset) {
    d->p.CommandEncoderResolveQuerySet(enc, qs, first, count, dst, dst_offset);
}

WGPUQuerySet gpu_timestamp_set_create(gpu_device *d, uint32_t count) {
    WGPUQuerySetDescriptor qd;
    memset(&qd, 0, sizeof qd);
    qd.label = sv("wgscan timestamps");
    qd.type = WGPUQueryType_Timestamp;
    qd.count = count;
    return d->p.DeviceCreateQuerySet(d->device, &qd);
}

void gpu_query_set_release(gpu_device *d, WGPUQuerySet qs) {
    if (!qs) return;
    d->p.QuerySetDestroy(qs);
    d->p.QuerySetRelease(qs);
}

void gpu_submit(gpu_device *d, WGPUCommandEncoder enc) {
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
    if (pending_orphan(r)) return;
    r->status = (int)status;
    sv_copy(r->msg, sizeof r->msg, message);
    r->head.done = 1;
}

wgs_result gpu_wait_idle(gpu_device *d, char *msg, size_t msglen) {
    done_req *r = pending_new(sizeof *r);
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
    wgs_result w = wait_future(d, f, &r->head.done);
    if (w != WGS_OK) {
        fmt(msg, msglen, "the GPU did not finish within %g s", d->wait_limit_s);
    } else if (d->lost) {
        fmt(msg, msglen, "%s", d->lost_msg);
        w = WGS_ERROR_DEVICE_LOST;
    } else if (r->status != WGPUQueueWorkDoneStatus_Success) {
        fmt(msg, msglen, "queue work failed: %s", r->msg);
        w = WGS_ERROR_GPU_INTERNAL;
    }
    pending_end(r);
    return w;
}

static void on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
    (void)u2;
    done_req *r = u1;
    if (pending_orphan(r)) return;
    r->status = (int)status;
    sv_copy(r->msg, sizeof r->msg, message);
    r->head.done = 1;
}

wgs_result gpu_buffer_read(gpu_device *d, WGPUBuffer b, uint64_t offset, uint64_t size, void *dst,
                           char *msg, size_t msglen) {
    if (size == 0) return WGS_OK;
    /* Staging in pieces keeps the extra GPU memory small for multi-gigabyte reads. */
    const uint64_t piece_max = 64ull << 20;
    uint64_t piece = size < piece_max ? (size + 3) & ~3ull : piece_max;
    gpu_scope_push(d);
    WGPUBuffer staging = gpu_buffer_create(d, piece, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst,
                                           "wgscan staging");
    wgs_result r = gpu_scope_pop(d, msg, msglen);
    if (r != WGS_OK) {
        gpu_buffer_release(d, staging);
        return r;
    }
    for (uint64_t done = 0; done < size && r == WGS_OK;) {
        uint64_t len = size - done < piece ? size - done : piece;
        uint64_t copy_len = (len + 3) & ~3ull; /* copies move multiples of 4 bytes */
        /* The copy's own errors (a buffer without CopySrc, destroyed, or of another
         * device) surface at finish and submit: caught here, not left to the
         * uncaptured-error handler while zeros are read back. */
        gpu_scope_push(d);
        WGPUCommandEncoder enc = gpu_encoder_create(d);
        gpu_copy(d, enc, b, offset + done, staging, 0, copy_len);
        gpu_submit(d, enc);
        r = gpu_scope_pop(d, msg, msglen);
        if (r != WGS_OK) break;
        done_req *mr = pending_new(sizeof *mr);
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
        r = wait_future(d, f, &mr->head.done);
        if (r != WGS_OK) {
            fmt(msg, msglen, "the GPU did not finish within %g s", d->wait_limit_s);
        } else if (mr->status != WGPUMapAsyncStatus_Success) {
            fmt(msg, msglen, "mapping the staging buffer failed: %s", mr->msg);
            r = d->lost ? WGS_ERROR_DEVICE_LOST : WGS_ERROR_MAP_FAILED;
        }
        pending_end(mr);
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
    gpu_buffer_release(d, staging);
    return r;
}
