/* SPDX-License-Identifier: MIT */
/*
 * native.h: what the files of the native backend share: the device object, small
 * helpers, and waits whose callback state outlives a timeout.
 *   runtime.c  loading the WebGPU runtime and resolving its functions
 *   adapter.c  choosing the adapter, creating the device, the device's callbacks
 *   calls.c    the wrappers gpu.h declares: scopes, objects, recording, waits, reads
 */
#ifndef WGS_GPU_NATIVE_H
#define WGS_GPU_NATIVE_H

/* dladdr, setenv, clock_gettime, nanosleep: every file includes this header first. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#ifndef WGSCAN_EXPERIMENTAL_API
#define WGSCAN_EXPERIMENTAL_API
#endif
#include "gpu/gpu.h"
#include "gpu/procs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Host transfers (calls.c): each direction keeps a small ring of staging buffers,
 * reused from call to call, so that the host's copy of one chunk overlaps the GPU's copy
 * of another. An upload slot waits mapped for writing (its MapAsync was issued when its
 * last copy was submitted); a download slot is idle between calls. */
#define WGS_XFER_MAX_SLOTS 16
struct map_req;
typedef struct xfer_slot {
    WGPUBuffer buffer;
    uint64_t cap;          /* bytes */
    struct map_req *req;   /* a map in flight (its future below), or NULL */
    WGPUFuture future;
} xfer_slot;

typedef struct xfer_ring {
    xfer_slot slot[WGS_XFER_MAX_SLOTS];
    uint32_t next; /* uploads: the slot the next chunk takes */
} xfer_ring;

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
    uint64_t buffer_bytes_created; /* wgs__gpu_buffer_bytes_created */
    int measuring;                 /* wgs__gpu_set_measuring */
    /* Where driver lines go while the device is opened and closed (the loader prints
     * as it unloads layers too); the log callback of the context's desc. */
    wgs_driver_output driver_output;
    wgs_log_fn log;
    void *log_user;
    gpu_transfer_shape xfer; /* as set (zero fields: calls.c's defaults) */
    xfer_ring up, down;
};

static inline WGPUStringView sv(const char *s) {
    WGPUStringView v = {s, s ? WGPU_STRLEN : 0};
    return v;
}

static inline void sv_copy(char *dst, size_t cap, WGPUStringView v) {
    size_t n = 0;
    if (v.data) n = v.length == WGPU_STRLEN ? strlen(v.data) : v.length;
    if (n >= cap) n = cap - 1;
    if (n) memcpy(dst, v.data, n);
    dst[n] = 0;
}

static inline void fmt(char *dst, size_t cap, const char *f, ...) {
    if (!dst || !cap) return;
    va_list ap;
    va_start(ap, f);
    vsnprintf(dst, cap, f, ap);
    va_end(ap);
}

static inline double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline WGPUCallbackMode wait_mode(const gpu_device *d) {
    return d->timed_wait ? WGPUCallbackMode_WaitAnyOnly : WGPUCallbackMode_AllowProcessEvents;
}

/* How long a wait on the GPU may take before we give up instead of hanging, unless the
 * description says otherwise. Large on purpose: a CPU driver moving gigabytes is slow,
 * but never this slow. */
#define DEFAULT_WAIT_LIMIT_S 900.0

/* The description's limit for waits on GPU work (creation keeps the default). */
void wgs__native_set_wait_limit(gpu_device *d, const wgs_context_desc *desc);
/* Waits for one future whose callback sets *done: WGS_OK, WGS_ERROR_TIMEOUT after the
 * device's limit, or WGS_ERROR_GPU_INTERNAL. */
wgs_result wgs__native_wait(gpu_device *d, WGPUFuture f, volatile int *done);

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

void *wgs__pending_new(size_t size);
/* First thing every callback does: 1 when nobody waits for it any more (freed). */
int wgs__pending_orphan(void *req);
/* The waiter is done with the request: frees it, or leaves it to its callback. */
void wgs__pending_end(void *req);

/* calls.c: destroys the staging rings (before the device goes, and after a failed
 * transfer, whose slots are then in an unknown state). */
void wgs__native_transfer_release(gpu_device *d);

/* runtime.c: the runtime library (explicit path, $WGSCAN_WEBGPU_LIB, beside wgscan, by
 * name); `loaded` receives its path. NULL with a message in err when none loads. */
void *wgs__native_open_runtime(const char *explicit_path, char *loaded, size_t cap, char *err, size_t errlen);
typedef WGPUProc (*proc_lookup)(void *user, const char *name);
WGPUProc wgs__native_lookup_dlsym(void *user, const char *name);
WGPUProc wgs__native_lookup_gpa(void *user, const char *name);
/* Fills the function table; 0 with a message when a function is missing. */
int wgs__native_resolve_procs(wgs_procs *p, proc_lookup lookup, void *user, char *err, size_t errlen);

#endif
