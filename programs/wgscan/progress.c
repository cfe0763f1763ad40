/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
/*
 * Progress on stderr for long runs: a thread redraws one line ("wgscan: sort: timed run
 * 3 of 10, 14 s") twice a second once a command has run for CLI_PROGRESS_AFTER seconds,
 * and only when stderr is a terminal (WGSCAN_PROGRESS=1 draws anyway, =0 never). The
 * line is cleared whenever the command prints, so it never mixes with the results.
 */
#include "cli.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CLI_PROGRESS_AFTER 1.5 /* seconds: shorter runs stay quiet */

static struct {
    pthread_mutex_t lock;
    pthread_t thread;
    int running, stop, drawn;
    const char *command, *stage; /* stage NULL: nothing to draw (the command is printing) */
    int index, count;
    double start;
} progress = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int wanted(void) {
    const char *v = getenv("WGSCAN_PROGRESS");
    if (v && *v) return strcmp(v, "0") != 0;
    return isatty(STDERR_FILENO);
}

/* With the lock held. */
static void clear_line(void) {
    if (!progress.drawn) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    progress.drawn = 0;
}

static void *ticker(void *unused) {
    (void)unused;
    const struct timespec step = {0, 100 * 1000 * 1000};
    for (int tick = 0;; tick++) {
        nanosleep(&step, NULL);
        pthread_mutex_lock(&progress.lock);
        if (progress.stop) break;
        double elapsed = cli_now() - progress.start;
        if (progress.stage && elapsed >= CLI_PROGRESS_AFTER && tick % 5 == 0) {
            fprintf(stderr, "\r\033[Kwgscan: %s: %s", progress.command, progress.stage);
            if (progress.count) fprintf(stderr, " %d of %d", progress.index, progress.count);
            fprintf(stderr, ", %.0f s", elapsed);
            fflush(stderr);
            progress.drawn = 1;
        }
        pthread_mutex_unlock(&progress.lock);
    }
    clear_line();
    pthread_mutex_unlock(&progress.lock);
    return NULL;
}

void cli_progress_start(const char *command) {
    if (progress.running || !wanted()) return;
    progress.command = command;
    progress.stage = "starting";
    progress.index = progress.count = 0;
    progress.stop = progress.drawn = 0;
    progress.start = cli_now();
    progress.running = pthread_create(&progress.thread, NULL, ticker, NULL) == 0;
}

void cli_progress_stage(const char *stage, int index, int count) {
    if (!progress.running) return;
    pthread_mutex_lock(&progress.lock);
    progress.stage = stage;
    progress.index = index, progress.count = count;
    if (!stage) clear_line();
    pthread_mutex_unlock(&progress.lock);
}

void cli_progress_stop(void) {
    if (!progress.running) return;
    pthread_mutex_lock(&progress.lock);
    progress.stop = 1;
    pthread_mutex_unlock(&progress.lock);
    pthread_join(progress.thread, NULL);
    progress.running = 0;
}
