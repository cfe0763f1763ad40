/* SPDX-License-Identifier: MIT */
/*
 * mpi_internal.h: what the distributed layer's files share: the object, the agreement
 * that ends every step, and the timed local steps (wgscan_mpi.c defines them).
 */
#ifndef WGS_MPI_INTERNAL_H
#define WGS_MPI_INTERNAL_H

#include "wgscan_mpi.h"

struct wgs_mpi {
    MPI_Comm comm;
    int rank, size;
    wgs_context *ctx;
    wgs_log_fn log;
    void *log_user;
    wgs_mpi_timing timing;
    MPI_Op ops[WGS_OP_ARGMAX + 1]; /* user operations with the library's semantics */
};

double wgs_mpi__now(void);
/* An error message to the rank's log: fmt takes an int and a string. */
void wgs_mpi__say(wgs_mpi *m, wgs_result r, const char *fmt, int a, const char *b);
/* Every rank's result in, the largest code out (the same on every rank); a collective. */
wgs_result wgs_mpi__agree(wgs_mpi *m, wgs_result mine);
/* A field of a call's description that every rank must give alike (defaults applied),
 * and its name for the message. */
typedef struct wgs_mpi_word {
    uint64_t value;
    const char *name;
} wgs_mpi_word;
#define WGS_MPI_MAX_WORDS 8
/* As wgs_mpi__agree, and the description's words compared across the ranks (each call's
 * first agreement, before anything moves between them): where any differs, every rank
 * logs which and returns WGS_ERROR_INVALID_ARGUMENT (or a larger code a rank met), the
 * same everywhere. `words` is the same on every rank: the call fixes it. */
wgs_result wgs_mpi__agree_on(wgs_mpi *m, wgs_result mine, const wgs_mpi_word *desc, int words);
/* Bits of a double, for a word. */
uint64_t wgs_mpi__bits(double x);
/* Submits the encoder and waits (timed as local GPU work). */
wgs_result wgs_mpi__submit_wait(wgs_mpi *m, WGPUCommandEncoder enc);
/* Host transfers, timed as such. */
wgs_result wgs_mpi__read(wgs_mpi *m, WGPUBuffer b, uint64_t offset, void *dst, uint64_t bytes);
wgs_result wgs_mpi__write(wgs_mpi *m, WGPUBuffer b, uint64_t offset, const void *src, uint64_t bytes);
/* The global index of this rank's first element and the global count, for n_local here. */
wgs_result wgs_mpi__global_offset(wgs_mpi *m, uint64_t n_local, uint64_t *first, uint64_t *total);
/* MPI_Alltoallv of `elem` bytes an element, counts and displacements in elements (each
 * below 2^31), timed as communication. */
wgs_result wgs_mpi__exchange(wgs_mpi *m, const void *send, const int *send_counts, const int *send_displs,
                             void *recv, const int *recv_counts, const int *recv_displs, int elem);

#endif
