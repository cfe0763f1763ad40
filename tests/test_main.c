/* SPDX-License-Identifier: MIT */
#include "test_main.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A crash names its test and prints the stack's modules and offsets (glibc's backtrace):
 * on the GPU machine, where there is no debugger, that tells a driver's fault from
 * Dawn's or ours. Not under the sanitizers, whose own handlers report better. */
#if defined(__GLIBC__) && !defined(WGSCAN_TEST_SANITIZED) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#include <execinfo.h>
#include <unistd.h>
#define TEST_BACKTRACE 1
#endif

typedef struct test_entry {
    const char *name;
    test_fn fn;
} test_entry;

static test_entry tests[256];
static int test_count;
int test_failed_checks;
static int skipped;

void test_register(const char *name, test_fn fn) {
    if (test_count < (int)(sizeof tests / sizeof tests[0])) tests[test_count++] = (test_entry){name, fn};
}

void test_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "    %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    test_failed_checks++;
}

void test_skip(const char *why) {
    printf("    skipped: %s\n", why);
    skipped = 1;
}

int test_long(void) {
    const char *e = getenv("WGSCAN_TEST_LONG");
    return e && *e && strcmp(e, "0") != 0;
}

int test_sanitized(void) {
#ifdef WGSCAN_TEST_SANITIZED
    return 1;
#else
    return 0;
#endif
}

static wgs_context *shared_ctx;
static wgs_context *capped_ctx;
/* Pipelines compiled by the debug contexts already destroyed. */
static uint64_t retired_pipelines;

/* Pipelines compiled so far by the harness's contexts: on a CPU driver (and more so
 * under ASan, whose allocator the shader compiler runs on) the measure of a test's cost
 * that does not depend on the machine's load. */
static uint64_t pipelines_compiled(void) {
    wgs_experimental_pipeline_counts s = wgs_experimental_pipelines(shared_ctx);
    wgs_experimental_pipeline_counts c = wgs_experimental_pipelines(capped_ctx);
    return retired_pipelines + s.created + s.prepared + c.created + c.prepared;
}

static void log_msg(wgs_log_level level, wgs_result r, const char *m, void *u) {
    (void)level;
    (void)r;
    (void)u;
    /* tests read wgs_context_last_error when they need the message;
     * WGSCAN_TEST_VERBOSE=1 prints every one while debugging */
    if (getenv("WGSCAN_TEST_VERBOSE")) fprintf(stderr, "    log: %s\n", m);
}

wgs_context *test_context(void) {
    if (!shared_ctx) {
        /* The shared context takes the WGSCAN_* experiments of the environment (ctest
         * runs select again with small forced tiles that way). */
        static wgs_experimental exp;
        char err[256];
        wgs_context_desc d = {.log = log_msg};
        if (wgs_experiment_from_env(&d, &exp, err, sizeof err) != 0) test_fail(__FILE__, __LINE__, "%s", err);
        wgs_result r = wgs_context_create(&d, &shared_ctx);
        if (r != WGS_OK) test_fail(__FILE__, __LINE__, "no context: %s", wgs_result_name(r));
    }
    return shared_ctx;
}

/* A debug context's sort tile, where its experiment leaves it to the device: the
 * environment's WGSCAN_TUNE_SORT (the sanitized build's ctest sets it, tests/CMakeLists.txt
 * says why), as the shared context takes it. Not without subgroups: the portable
 * ranking keeps a row of counters an invocation and takes its own tile (a shape it
 * cannot hold is refused). Its other variables stay the shared context's alone: a debug
 * context is the experiment its test describes. */
static void env_sort_tile(wgs_experimental *e) {
    static wgs_experimental env;
    static int parsed;
    if (!parsed) { /* a value that does not parse: the shared context's test reports it */
        char err[256];
        wgs_context_desc d = {0};
        if (wgs_experiment_from_env(&d, &env, err, sizeof err) != 0) env = (wgs_experimental){0};
        parsed = 1;
    }
    if (!e->disable_subgroups && !e->sort.wg) e->sort = env.sort;
}

/* The one debug context alive at a time, of the experiment *e (static: the context
 * keeps the pointer), with the environment's sort tile: each call replaces the
 * previous one. */
static wgs_context *debug_context(wgs_experimental *e, const char *what) {
    if (capped_ctx) {
        wgs_experimental_pipeline_counts c = wgs_experimental_pipelines(capped_ctx);
        retired_pipelines += c.created + c.prepared;
        wgs_context_destroy(capped_ctx);
    }
    capped_ctx = NULL;
    env_sort_tile(e);
    wgs_context_desc d = {.experimental = e, .log = log_msg};
    wgs_result r = wgs_context_create(&d, &capped_ctx);
    if (r != WGS_OK) test_fail(__FILE__, __LINE__, "no %s context: %s", what, wgs_result_name(r));
    return capped_ctx;
}

wgs_context *test_context_capped(uint32_t max_dim, uint64_t max_binding) {
    static wgs_experimental e;
    e = (wgs_experimental){.max_workgroups_per_dimension = max_dim, .max_storage_binding_size = max_binding};
    return debug_context(&e, "capped");
}

/* One fruitless read before each fallback, one state a read (the sorts' tuning rows
 * read more: the shared context runs those). */
wgs_context *test_context_forced_fallback(int without_subgroups) {
    static wgs_experimental e;
    e = (wgs_experimental){.lookback_spins = 1, .lookback_per_lane = 1, .disable_subgroups = without_subgroups};
    return debug_context(&e, "forced-fallback");
}

wgs_context *test_context_experimental(const wgs_experimental *e) {
    static wgs_experimental copy;
    copy = *e;
    return debug_context(&copy, "experimental");
}

static double now_s(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC); /* C11's clock: the build is not POSIX */
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#ifdef TEST_BACKTRACE
static const char *running = "(between tests)";

static void put(const char *text) {
    if (write(2, text, strlen(text)) < 0) return; /* nothing better to do in a handler */
}

static void on_crash(int sig) {
    put("\n[CRASH ] ");
    put(running);
    put(sig == SIGSEGV ? ": SIGSEGV" : sig == SIGBUS ? ": SIGBUS" : sig == SIGFPE ? ": SIGFPE" : ": SIGABRT");
    put(", the stack (module(+offset), innermost first):\n");
    void *frames[64];
    backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Again before each test: a driver may put its own handler in while a context opens. */
static void catch_crashes(void) {
    const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) signal(sigs[i], on_crash);
}
#endif

int main(int argc, char **argv) {
#ifdef TEST_BACKTRACE
    void *warm[1];
    backtrace(warm, 1); /* loads libgcc before any crash: the handler must not */
#endif
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0, nskipped = 0;
    for (int i = 0; i < test_count; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        printf("[ RUN  ] %s\n", tests[i].name);
        fflush(stdout);
#ifdef TEST_BACKTRACE
        running = tests[i].name;
        catch_crashes();
#endif
        int before = test_failed_checks;
        skipped = 0;
        double t0 = now_s();
        uint64_t p0 = pipelines_compiled();
        tests[i].fn();
        /* The seconds and pipelines per test: what to look at when CI grows slow. */
        double secs = now_s() - t0;
        unsigned long long pipes = (unsigned long long)(pipelines_compiled() - p0);
        const char *verdict = "[  OK  ]";
        if (test_failed_checks != before)
            verdict = "[ FAIL ]", failed++;
        else if (skipped)
            verdict = "[ SKIP ]", nskipped++;
        else
            passed++;
        printf("%s %s (%.1f s, %llu pipelines)\n", verdict, tests[i].name, secs, pipes);
        fflush(stdout);
    }
    unsigned long long pipes = (unsigned long long)pipelines_compiled();
    wgs_context_destroy(capped_ctx);
    wgs_context_destroy(shared_ctx);
    printf("%d passed, %d failed, %d skipped; %llu pipelines compiled\n", passed, failed, nskipped, pipes);
    return failed ? 1 : 0;
}
