/*
 * example.h: what the example programs share: failing loudly on a wgscan error, a
 * clock and a small random generator. Each example is otherwise a plain user of
 * wgscan.h.
 */
#ifndef WGSCAN_EXAMPLE_H
#define WGSCAN_EXAMPLE_H

#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "wgscan.h"

#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* Evaluates a wgscan call; on failure prints the call and the context's message and
 * returns 3 (GPU error) from the enclosing function. Needs `ctx` in scope. */
#define CHECKED(call)                                                                         \
    do {                                                                                      \
        wgs_result r_ = (call);                                                               \
        if (r_ != WGS_OK) {                                                                   \
            fprintf(stderr, "%s: %s failed: %s\n", example_name, #call, wgs_context_last_error(ctx)); \
            return 3;                                                                         \
        }                                                                                     \
    } while (0)

static inline double example_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* xorshift64: reproducible inputs without libc's rand. */
static inline uint64_t example_random(uint64_t *state) {
    uint64_t s = *state;
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return *state = s;
}

#endif
