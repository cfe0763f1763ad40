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
 * others log "rank R failed" with the code. The first agreement of each call also
 * compares the fields of the description the ranks must share (type, operator, kind or
 * order, bins and bounds, predicate, mode, payload and value size, bit range,
 * rebalance; defaults applied): where they differ, every rank logs which field and
 * returns WGS_ERROR_INVALID_ARGUMENT (or a larger code a rank met) before anything moves
 * between the ranks. Slice lengths and capacities may differ.
 *
 * The calls upload nothing: the slices are the caller's buffers. They submit GPU work
 * and wait for it (the global step between the ranks goes through host memory), so
 * they are not recorded into an encoder as the single-GPU plans are.
 *
 * Costs, for P ranks: scan: a local reduce, one MPI_Exscan of one element, a local
 * scan with that carry-in (two reads and one write of the slice, 2 submits); reduce and
 * count: a local reduce and one MPI_Allreduce of one element; histogram: a local
 * histogram and one MPI_Allreduce of the bins; select and sort: see their sections.
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

/* ---- compaction ------------------------------------------------------------------------
 *
 * Each rank keeps the elements of its slice that pass the test (wgs_select_plan_desc:
 * mode FLAGGED or IF; payload NONE or BUFFER, 4 bytes an element; UNIQUE, RUN_LENGTH,
 * partition and INDEX are refused with WGS_ERROR_INVALID_ARGUMENT; types u32, i32, f32,
 * else WGS_ERROR_UNSUPPORTED_TYPE), in order, into the front of its output. The kept
 * elements of all ranks, in rank order, form the global result: rank r's first kept
 * element stands at global position `first` (the MPI_Exscan of the kept counts), and
 * every rank learns the `total`.
 * With `rebalance`, the kept elements then move between the ranks (through host memory,
 * one MPI_Alltoallv; payloads a second) so that rank q holds the q-th share of the
 * global result: floor(total / P) elements, one more for the first total mod P ranks
 * (wgs_mpi_select_share), still in global order.
 * Buffers: as wgs_select_args; output and payload_out hold output_capacity elements
 * (0: n_local), at least n_local (the select may write that many) and, with rebalance,
 * at least the rank's share, else every rank returns WGS_ERROR_BUFFER_TOO_SMALL.
 * Rebalancing needs slices and shares below 2^31 elements (WGS_ERROR_TOO_LARGE).
 * Costs: the local select (2 submits: the select, the count's read-back), one
 * MPI_Exscan and one MPI_Allreduce of 8 bytes; rebalance: the kept elements down, an
 * MPI_Alltoall of the counts, the Alltoallv of what moves, the share up. */
typedef struct wgs_mpi_select_args {
    WGPUBuffer input;
    uint64_t input_offset;
    WGPUBuffer flags; /* FLAGGED: one byte an element */
    uint64_t flags_offset;
    WGPUBuffer payload_in; /* payload BUFFER */
    uint64_t payload_in_offset;
    WGPUBuffer output; /* another buffer than input; CopySrc and CopyDst with rebalance */
    uint64_t output_offset;
    WGPUBuffer payload_out; /* payload BUFFER; CopySrc and CopyDst with rebalance */
    uint64_t payload_out_offset;
    uint64_t n_local;
    uint64_t output_capacity; /* elements output and payload_out hold; 0: n_local */
    int rebalance;
} wgs_mpi_select_args;

typedef struct wgs_mpi_select_result {
    uint64_t count; /* elements this rank holds in output (its share with rebalance) */
    uint64_t first; /* the global position of its first one */
    uint64_t total; /* kept on all ranks */
} wgs_mpi_select_result;

WGS_API wgs_result wgs_mpi_select(wgs_mpi *m, const wgs_select_plan_desc *desc, const wgs_mpi_select_args *args,
                                  wgs_mpi_select_result *result);
/* Rank `rank`'s share of `total` elements over `size` ranks under rebalance. */
WGS_API uint64_t wgs_mpi_select_share(uint64_t total, int size, int rank);

/* ---- sort ------------------------------------------------------------------------------
 *
 * The stable sort of the global array (a sample sort): afterwards rank 0 holds the
 * first *n_out keys of the sorted array, rank 1 the next, and so on, each rank's part
 * sorted; equal keys keep their global input order. desc: as wgs_sort_plan_desc (key
 * types u32, i32, f32, u64, i64, else WGS_ERROR_UNSUPPORTED_TYPE; either order; a bit
 * range; payload NONE or BUFFER with values of 4 or 8 bytes; INDEX is refused with
 * WGS_ERROR_INVALID_ARGUMENT: local indices mean nothing globally, pass the indices you
 * want as values).
 * How: each rank sorts its slice on the GPU and reads it back; it contributes
 * 4P - 1 regular samples of its sorted keys (MPI_Allgather); every rank picks the same
 * P - 1 splitters from them, each sample weighed by the elements it stands for, and cuts
 * its sorted keys at them by binary search; the pieces travel with MPI_Alltoall of the
 * counts and MPI_Alltoallv of keys and of values; each rank uploads what arrived and
 * sorts it on the GPU. Elements are ordered by (key, rank, position) in the splitting,
 * so runs of equal keys are cut like distinct keys. A rank that neither holds nor
 * receives keys makes no sort plan (so compiles nothing, and its plan's checks of the
 * description, such as the bit range, do not run there).
 * Balance: no rank ends with more than wgs_mpi_sort_bound(N, L, P) keys, N the global
 * count and L the largest slice, whatever the keys (all equal included): about
 * (1 + 1/4) N/P + L/(4P) keys, so 1.5 N/P for equal slices.
 * Buffers: keys (and values) are the slice on entry and the rank's part on return, in
 * place; they hold `capacity` keys (values) (0: n_local; CopySrc, CopyDst and Storage
 * usage). A rank whose part passes its capacity makes every rank return
 * WGS_ERROR_BUFFER_TOO_SMALL; size them with wgs_mpi_sort_bound. Slices and capacities
 * stay below 2^31 keys (WGS_ERROR_TOO_LARGE).
 * Costs, per rank with a slice of n keys of k bytes (values v bytes), part m: two GPU
 * sorts (n, m; with one rank the local sort is all), n (k + v) bytes down and m (k + v) up, host memory for both, an
 * MPI_Allgather of 32 (4P - 1) bytes a rank, an MPI_Alltoall of P counts, the Alltoallv
 * of n (k + v) bytes out and m (k + v) in (all but the rank's own piece over the
 * network), host work of a sort of 4P^2 samples and P binary searches. */
typedef struct wgs_mpi_sort_args {
    WGPUBuffer keys; /* in: the slice; out: the rank's part of the sorted array */
    uint64_t keys_offset;
    WGPUBuffer values; /* payload BUFFER: moved with their keys */
    uint64_t values_offset;
    uint64_t n_local;
    uint64_t capacity; /* keys (and values) the buffers hold from their offsets; 0: n_local */
} wgs_mpi_sort_args;

WGS_API wgs_result wgs_mpi_sort(wgs_mpi *m, const wgs_sort_plan_desc *desc, const wgs_mpi_sort_args *args,
                                uint64_t *n_out);
/* The most keys wgs_mpi_sort leaves on one rank, for `total` keys over `size` ranks
 * whose largest slice holds `largest_slice`: ceil(N/P) + ceil(N/4P) + ceil(L/4P) - 1, at
 * most N. */
WGS_API uint64_t wgs_mpi_sort_bound(uint64_t total, uint64_t largest_slice, int size);

#ifdef __cplusplus
}
#endif
#endif
