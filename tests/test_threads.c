/* SPDX-License-Identifier: MIT */
/*
 * test_threads.c: contexts created and destroyed on several threads at once. The header
 * promises that different contexts are independent; creation is where the library
 * touches process-wide state (fd 2 while drivers are probed, the driver list in the
 * environment), so threads meet at a barrier and create together. Run under ASan
 * (make asan) and TSan (make tsan).
 */
#define _POSIX_C_SOURCE 200809L /* pthread barriers, fstat, dirent: the build is plain C11 */

#include "test_main.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define THREADS 4
#define ROUNDS 3

typedef struct worker {
    pthread_barrier_t *barrier;
    wgs_result created[ROUNDS];
    int used[ROUNDS]; /* a buffer of the context written and read back */
} worker;

static void *work(void *arg) {
    worker *w = arg;
    for (int round = 0; round < ROUNDS; round++) {
        pthread_barrier_wait(w->barrier);
        wgs_context *ctx = NULL;
        w->created[round] = wgs_context_create(NULL, &ctx);
        WGPUBuffer b = NULL;
        /* Used, not only opened (no kernel: compiling one takes seconds on a CPU driver). */
        if (ctx && wgs_buffer_create(ctx, 16, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst |
                                                  WGPUBufferUsage_CopySrc, &b) == WGS_OK) {
            uint32_t v[4] = {1u, 2u, 3u, (uint32_t)round}, got[4] = {0};
            w->used[round] = wgs_buffer_write(ctx, b, 0, v, sizeof v) == WGS_OK &&
                             wgs_buffer_read(ctx, b, 0, got, sizeof got) == WGS_OK && memcmp(v, got, sizeof v) == 0;
            wgs_buffer_release(ctx, b);
        }
        wgs_context_destroy(ctx);
    }
    return NULL;
}

static int open_fds(void) {
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Four threads, three rounds of create, use, destroy. Afterwards fd 2 is the file it
 * was before (not a temporary file of an overlapping probe) and no descriptor is left
 * open. */
TEST(threads_contexts_at_once) {
    /* The runtime's first load opens descriptors for the life of the process: one
     * context first, so that the count compares like with like. */
    wgs_context *first = NULL;
    CHECK_RESULT(wgs_context_create(NULL, &first), WGS_OK);
    wgs_context_destroy(first);
    /* stderr into a file of ours for the threads: whatever reaches it is driver output
     * that escaped the probes' capture (the contexts have no log: it goes nowhere). */
    fflush(stderr);
    int saved = dup(2);
    FILE *mine = tmpfile();
    if (saved < 0 || !mine || dup2(fileno(mine), 2) < 0) {
        test_fail(__FILE__, __LINE__, "cannot point stderr at a file");
        return;
    }
    struct stat before, after;
    CHECK(fstat(2, &before) == 0);
    int fds_before = open_fds();

    pthread_barrier_t barrier;
    CHECK(pthread_barrier_init(&barrier, NULL, THREADS) == 0);
    worker w[THREADS];
    pthread_t tid[THREADS];
    int started = 0;
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){.barrier = &barrier};
        if (pthread_create(&tid[i], NULL, work, &w[i]) != 0) break;
        started++;
    }
    if (started < THREADS) { /* the others wait at the barrier for ever */
        test_fail(__FILE__, __LINE__, "only %d threads started", started);
        _Exit(1);
    }
    for (int i = 0; i < THREADS; i++) pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&barrier);

    for (int i = 0; i < THREADS; i++)
        for (int round = 0; round < ROUNDS; round++) {
            CHECK_RESULT(w[i].created[round], WGS_OK);
            CHECK(w[i].used[round]);
        }
    CHECK(fstat(2, &after) == 0);
    int fds_after = open_fds();
    struct stat leaked;
    CHECK(fstat(fileno(mine), &leaked) == 0);
    dup2(saved, 2); /* the test's own messages go to the real stderr */
    close(saved);
    fclose(mine);
    if (after.st_dev != before.st_dev || after.st_ino != before.st_ino)
        test_fail(__FILE__, __LINE__, "fd 2 is another file after the threads (%s)",
                  after.st_nlink == 0 ? "a deleted one: a probe's temporary file" : "not the original");
    if (leaked.st_size != 0)
        test_fail(__FILE__, __LINE__, "%lld bytes of driver output reached stderr", (long long)leaked.st_size);
    if (fds_after != fds_before)
        test_fail(__FILE__, __LINE__, "%d descriptors open before the threads, %d after", fds_before, fds_after);
}
