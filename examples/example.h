/* SPDX-License-Identifier: MIT */
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
#include <string.h>
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

/* The examples' options: `--name value` with a whole number in [min, max], and --help.
 * Anything else (an unknown option, a missing or malformed value) is refused, so a
 * mistyped option never runs the full workload. Returns -1 to go on, else the exit
 * status: 0 after --help, 2 after a refusal (the usage printed). */
typedef struct example_option {
    const char *name; /* "--n" */
    uint64_t *value;
    uint64_t min, max;
} example_option;

static inline int example_options(int argc, char **argv, const char *usage, const example_option *opts,
                                  int count) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return printf("%s", usage), 0;
        const example_option *o = NULL;
        for (int k = 0; k < count; k++)
            if (!strcmp(argv[i], opts[k].name)) o = &opts[k];
        if (!o) return fprintf(stderr, "unknown option '%s'\n%s", argv[i], usage), 2;
        const char *v = i + 1 < argc ? argv[++i] : "";
        uint64_t x = 0;
        int ok = *v != 0;
        for (const char *c = v; ok && *c; c++) {
            ok = *c >= '0' && *c <= '9' && x <= (UINT64_MAX - (uint64_t)(*c - '0')) / 10;
            x = x * 10 + (uint64_t)(*c - '0');
        }
        if (!ok || x < o->min || x > o->max)
            return fprintf(stderr, "bad %s '%s' (%llu..%llu)\n%s", o->name, v, (unsigned long long)o->min,
                           (unsigned long long)o->max, usage), 2;
        *o->value = x;
    }
    return -1;
}

#endif
