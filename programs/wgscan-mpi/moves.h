/* SPDX-License-Identifier: MIT */
/* wgscan-mpi's options, and the commands of moves.c (compact, sort). */
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

/* Elements rank q holds: n, plus q * n / 7 with --uneven, none for the --empty rank. */
uint64_t slice_length(const options *o, int q);
double now_s(void);
int cmp_double(const void *a, const void *b);

/* The commands: every rank calls them; they return the process's exit code. */
int cmd_compact(wgs_mpi *m, const options *o);
int cmd_sort(wgs_mpi *m, const options *o);

#endif
