/* SPDX-License-Identifier: MIT */
/*
 * runtime.c: loading the WebGPU runtime. The runtime (Dawn from npm, or any
 * implementation of the same ABI) is loaded with dlopen and every function is resolved
 * into a wgs_procs table, so the library has no link-time dependency on WebGPU and the
 * same binary works with a caller's device.
 */
#include "gpu/native/native.h"

#include <dlfcn.h>
#include <string.h>

#ifndef WGSCAN_BIN_TO_RUNTIME
#define WGSCAN_BIN_TO_RUNTIME "../lib/wgscan"
#endif

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
static const char own_anchor; /* an object of this module: ISO C has no function-to-data cast */
static int own_dir(char *dir, size_t cap) {
    Dl_info info;
    if (!dladdr(&own_anchor, &info) || !info.dli_fname) return 0;
    fmt(dir, cap, "%s", info.dli_fname);
    char *slash = strrchr(dir, '/');
    if (!slash) return 0;
    *slash = 0;
    return 1;
}

void *wgs__native_open_runtime(const char *explicit_path, char *loaded, size_t cap, char *err,
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
    void *h = NULL;
    char dir[1024], path[1200];
    if (own_dir(dir, sizeof dir)) {
        static const char *rel[] = {"wgscan/libwebgpu_wrapper.so",
                                    WGSCAN_BIN_TO_RUNTIME "/libwebgpu_wrapper.so"};
        for (size_t i = 0; !h && i < sizeof rel / sizeof rel[0]; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, rel[i]);
            h = try_open(path, loaded, cap, NULL, 0);
        }
    }
    if (!h) {
        h = try_open("libwebgpu_wrapper.so", loaded, cap, NULL, 0);
        Dl_info info;
        void *sym = h ? dlsym(h, "wgpuGetProcAddress") : NULL;
        if (sym && dladdr(sym, &info) && info.dli_fname) fmt(loaded, cap, "%s", info.dli_fname);
    }
    static const char *sys[] = {"libwebgpu_dawn.so", "libwgpu_native.so", "libwebgpu.so"};
    for (size_t i = 0; !h && i < sizeof sys / sizeof sys[0]; i++) h = try_open(sys[i], loaded, cap, NULL, 0);
    if (!h)
        fmt(err, errlen,
            "no WebGPU runtime found (tried $WGSCAN_WEBGPU_LIB, the pinned Dawn %s, and "
            "libwebgpu_dawn.so, libwgpu_native.so, libwebgpu.so); run 'make deps' or set "
            "WGSCAN_WEBGPU_LIB",
            "libwebgpu_wrapper.so");
    return h;
}

WGPUProc wgs__native_lookup_dlsym(void *user, const char *name) {
    void *sym = dlsym(user, name);
    WGPUProc proc; /* POSIX's promise that the two have one representation, without ISO C's cast */
    _Static_assert(sizeof proc == sizeof sym, "function and data pointers of one size");
    memcpy(&proc, &sym, sizeof proc);
    return proc;
}

WGPUProc wgs__native_lookup_gpa(void *user, const char *name) {
    WGPUProcGetProcAddress gpa = *(WGPUProcGetProcAddress *)user;
    if (strcmp(name, "wgpuGetProcAddress") == 0) return (WGPUProc)gpa;
    return gpa(sv(name));
}

int wgs__native_resolve_procs(wgs_procs *p, proc_lookup lookup, void *user, char *err,
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
