/* SPDX-License-Identifier: MIT */
/*
 * wgscan_mpi.h: wgscan's primitives over MPI, for arrays spread over the ranks of a
 * communicator (library wgscan_mpi, built where CMake finds MPI).
 *
 * Each rank runs its own wgscan context and holds a slice of the global array in a GPU
 * buffer of its own: rank 0 the first n_0 elements, rank 1 the next n_1, and so on.
 * Slices may differ in length and be empty. Every call here is collective: all ranks of
 * the communicator make it, with the same description, in the same order.
 *
 * Errors: each step of a call ends by agreeing on one result across the ranks (the
 * largest code any rank met), so a rank that fails makes every rank return that error
 * instead of leaving the others waiting in a collective that never completes. The
 * failing rank's message goes to its context's log (and wgs_context_last_error); the
 * others log "rank R failed" with the code.
 *
 * The calls upload nothing: the slices are the caller's buffers. They submit GPU work
 * and wait for it (the global step between the ranks goes through host memory), so
 * they are not recorded into an encoder as the single-GPU plans are.
 *
 * Costs, for P ranks: scan: a local reduce, one MPI_Exscan of one element, a local
 * scan with that carry-in (two reads and one write of the slice, 2 submits); reduce and
 * count: a local reduce and one MPI_Allreduce of one element; histogram: a local
 * histogram and one MPI_Allreduce of the bins.
 */
#ifndef WGSCAN_MPI_H
#define WGSCAN_MPI_H

#include <mpi.h>

#include "wgscan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wgs_mpi wgs_mpi;

/* Creates this rank's context (from `desc`, NULL for defaults) over `comm` (which is
 * duplicated, so the library's messages never meet the caller's). Adapters: with
 * desc->adapter_index 0 the ranks of a node spread over the adapters the runtime offers
 * (node-local rank i takes adapter i mod wgs_context_info.adapter_count; with one
 * adapter, as on Dawn and SwiftShader, they share it); another index is taken as given.
 * Collective (MPI_Comm_split_type among the ranks): when any rank fails, every rank gets
 * an error and *out NULL. */
WGS_API wgs_result wgs_mpi_create(MPI_Comm comm, const wgs_context_desc *desc, wgs_mpi **out);
/* Collective; accepts NULL. */
WGS_API void wgs_mpi_destroy(wgs_mpi *m);
/* The rank's own context: buffers for the slices are made with it. */
WGS_API wgs_context *wgs_mpi_context(wgs_mpi *m);
WGS_API int wgs_mpi_rank(const wgs_mpi *m);
WGS_API int wgs_mpi_size(const wgs_mpi *m);

/* Phase times of the last call on this rank, in seconds: the GPU work with its waits,
 * the host transfers (the results' read-backs), the MPI collectives. */
typedef struct wgs_mpi_timing {
    double local_s, transfer_s, comm_s;
} wgs_mpi_timing;
WGS_API wgs_mpi_timing wgs_mpi_last_timing(const wgs_mpi *m);

/* The scan of the global array: rank r's output is the global scan at its slice. desc:
 * type u32, i32 or f32 (f16 is refused), any operator and kind of the scan, capacity at
 * least n_local (0: n_local). input and output may be one buffer at one offset (in
 * place). Floats: the carry of rank r is the MPI_Exscan, in rank order, of the ranks'
 * totals (each the local reduce's), then each element is carry + (local prefix +
 * element): a different association than a single-GPU scan of the same array. */
WGS_API wgs_result wgs_mpi_scan(wgs_mpi *m, const wgs_scan_plan_desc *desc, WGPUBuffer input,
                                uint64_t input_offset, WGPUBuffer output, uint64_t output_offset,
                                uint64_t n_local);

/* The reduction of the global array, on every rank: `result` receives 4 bytes, or 8 for
 * arg ops (the value's bits, then the global index as u32; the global array must then
 * hold fewer than 2^32 elements). Operators and types as wgs_reduce_plan. */
WGS_API wgs_result wgs_mpi_reduce(wgs_mpi *m, const wgs_reduce_plan_desc *desc, WGPUBuffer input,
                                  uint64_t input_offset, uint64_t n_local, void *result);

/* The count of the global array's elements that satisfy desc->predicate, on every rank. */
WGS_API wgs_result wgs_mpi_count(wgs_mpi *m, const wgs_count_plan_desc *desc, WGPUBuffer input,
                                 uint64_t input_offset, uint64_t n_local, uint64_t *count);

/* The histogram of the global array, on every rank: counts[desc->bins], 64-bit (the sum
 * over the ranks may pass 2^32). */
WGS_API wgs_result wgs_mpi_histogram(wgs_mpi *m, const wgs_histogram_plan_desc *desc, WGPUBuffer input,
                                     uint64_t input_offset, uint64_t n_local, uint64_t *counts);

#ifdef __cplusplus
}
#endif
#endif
