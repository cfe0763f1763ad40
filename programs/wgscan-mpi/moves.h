/* SPDX-License-Identifier: MIT */
/* wgscan-mpi's options, the helpers of every command and the commands of moves.c
 * (compact, sort). */
#ifndef WGSCAN_MPI_MOVES_H
#define WGSCAN_MPI_MOVES_H

#include "wgscan_mpi.h"

typedef enum key_kind { KEYS_RANDOM = 0, KEYS_EQUAL = 1, KEYS_FEW = 2 } key_kind;

typedef struct options {
    const char *command;
    uint64_t n;
    wgs_type type;
    wgs_op op;
    int inclusive, uneven, empty, verify, repeat, fail_rank, cpu;
    uint32_t bins;
    /* compact */
    int predicate, payload, rebalance, unique;
    /* sort */
    int descending;
    key_kind keys;
    uint32_t value_bytes;
    int index_payload;
    int tight; /* this rank's output holds only its own slice (-1: none) */
} options;

/* What every command shares (moves.c defines it; main.c uses moves.c, never the other
 * way). Elements rank q holds: n, plus q * n / 7 with --uneven, none for the --empty
 * rank. */
uint64_t slice_length(const options *o, int q);
double now_s(void);
/* Collectives over MPI_COMM_WORLD: the largest x of any rank; the number of ranks
 * with bad set. */
double max_of(double x);
int faults_of(int bad);
/* After a setup step: 1 on every rank when any rank's r is an error (rank 0 says
 * which), else 0. */
int setup_failed(wgs_mpi *m, wgs_result r);
/* --fail-rank and --tight: 0 when every rank returned the same error, else 1. */
int agreed_failure(wgs_mpi *m, wgs_result r);
/* Prints (rank 0) the median wall time of the runs after the warm-up and the slowest
 * rank's phase times of the last; `what` (or NULL) says more of the run. Sorts wall. */
void report(wgs_mpi *m, const options *o, double *wall, int runs, uint64_t total, const char *what);
/* A GPU buffer of at least `bytes` for a slice, unless *r is already an error. */
WGPUBuffer make_buffer(wgs_context *ctx, uint64_t bytes, wgs_result *r);

/* The commands: every rank calls them; they return the process's exit code. */
int cmd_compact(wgs_mpi *m, const options *o);
int cmd_sort(wgs_mpi *m, const options *o);

#endif
