/* SPDX-License-Identifier: MIT */
/*
 * wait.c: waiting on WebGPU futures with a limit, and the callback state that may
 * outlive a wait (native.h).
 */
#include "gpu/native/native.h"

void wgs__native_set_wait_limit(gpu_device *d, const wgs_context_desc *desc) {
    d->wait_limit_s = desc && desc->wait_timeout_s > 0 ? desc->wait_timeout_s : DEFAULT_WAIT_LIMIT_S;
}

wgs_result wgs__native_wait(gpu_device *d, WGPUFuture f, volatile int *done) {
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

void *wgs__pending_new(size_t size) { return calloc(1, size); }

int wgs__pending_orphan(void *req) {
    pending *p = req;
    if (!p->abandoned) return 0;
    free(p);
    return 1;
}

void wgs__pending_end(void *req) {
    pending *p = req;
    if (!p) return;
    if (p->done)
        free(p);
    else
        p->abandoned = 1;
}
