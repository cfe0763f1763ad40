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
        /* No step outlasts the deadline, so the limit holds to within the scheduler's
         * delay; one step (a poll at least) always runs, so finished work is seen even
         * under a limit already spent. */
        double left = deadline - now_s();
        if (left < 0) left = 0;
        if (d->timed_wait) {
            WGPUFutureWaitInfo info = {f, 0};
            uint64_t ns = left < 0.1 ? (uint64_t)(left * 1e9) : 100000000ull;
            WGPUWaitStatus st = d->p.InstanceWaitAny(d->instance, 1, &info, ns);
            if (st == WGPUWaitStatus_Error) return WGS_ERROR_GPU_INTERNAL;
        } else {
            d->p.InstanceProcessEvents(d->instance);
            if (!*done && left > 0) {
                struct timespec ts = {0, left < 20e-6 ? (long)(left * 1e9) : 20000};
                nanosleep(&ts, NULL);
            }
        }
        if (!*done && now_s() >= deadline) return WGS_ERROR_TIMEOUT;
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
