/* SPDX-License-Identifier: MIT */
/*
 * test_main.h: a minimal test harness. Each test file registers plain functions with
 * TEST(name); a failing CHECK records the failure and the test goes on. The binary
 * prints one line per test (its seconds and the pipelines it compiled) and finishes with
 * "N passed, N failed, N skipped; N pipelines compiled".
 *   test_<area> [name-substring]    runs the tests whose names contain the substring
 */
#ifndef WGS_TEST_MAIN_H
#define WGS_TEST_MAIN_H

#include "experiment_env.h" /* wgscan.h with its experimental API */

#include <stdint.h>
#include <stdio.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);

#define TEST(name)                                                               \
    static void test_##name(void);                                               \
    __attribute__((constructor)) static void register_##name(void) {             \
        test_register(#name, test_##name);                                       \
    }                                                                            \
    static void test_##name(void)

extern int test_failed_checks;
void test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void test_skip(const char *why);

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);         \
    } while (0)

/* Asserts an exact wgs_result. */
#define CHECK_RESULT(got, want)                                                  \
    do {                                                                         \
        wgs_result got_ = (got), want_ = (want);                                 \
        if (got_ != want_)                                                       \
            test_fail(__FILE__, __LINE__, "%s returned %s, expected %s", #got,  \
                      wgs_result_name(got_), wgs_result_name(want_));           \
    } while (0)

/* 1 under WGSCAN_TEST_LONG=1 (make test-long): the whole cross products, which the
 * default run trims where a case repeats another's code path at a cost (each trim says
 * what stays covered). */
int test_long(void);
/* 1 in the ASan/UBSan build (WGSCAN_SANITIZE), which is there for the host code. */
int test_sanitized(void);

/* The shared default context, created on first use (NULL: test_fail already said why). */
wgs_context *test_context(void);
/* A context whose planning limits are capped (see wgs_context_desc debug fields). */
wgs_context *test_context_capped(uint32_t max_workgroups_per_dimension,
                                 uint64_t max_storage_binding_size);
/* A context whose single passes fall back after one fruitless look-back step, with or
 * without subgroups. Each of these two calls replaces the context the last one made. */
wgs_context *test_context_forced_fallback(int without_subgroups);
/* A debug context with these experiments (replacing the previous debug context).
 * Debug contexts with subgroups whose experiment leaves the sort's tile unset take
 * WGSCAN_TUNE_SORT's from the environment, as the shared context does. */
wgs_context *test_context_experimental(const wgs_experimental *e);

#endif
