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
