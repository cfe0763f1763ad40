/* SPDX-License-Identifier: MIT */
/*
 * tuning.h: tile shapes and algorithm choices as data, one row per device class (as
 * CUB's tuning policies and zstd's level table). Primitives ask for their row's shape,
 * fitted to the device's limits, or for the shape an experiment forces; nothing else
 * in the library decides a shape or asks whether a device is a CPU driver.
 */
#ifndef WGS_TUNING_H
#define WGS_TUNING_H

#include "internal.h"

typedef enum wgs__device_class {
    /* CPU drivers (SwiftShader) and devices of fewer than 256 invocations a workgroup:
     * a workgroup runs as a few SIMD lanes switching at every barrier, so few
     * invocations doing long serial runs. */
    WGS__CLASS_CPU = 0,
    /* GPUs whose subgroups are at most 32 lanes (NVIDIA, Intel, AMD in wave32). */
    WGS__CLASS_GPU_SG32 = 1,
    /* Other GPUs: no subgroups, or wider ones. */
    WGS__CLASS_GPU = 2,
    WGS__CLASS_COUNT
} wgs__device_class;

typedef struct wgs__tuning {
    const char *name;
    wgs_tile_shape scan_single_pass, scan_multilevel;
    /* The single pass's persistent workgroups (row tiles): the grid, at most; 0: one
     * workgroup a tile. */
    uint32_t scan_single_pass_groups;
    wgs_tile_shape select;             /* three passes */
    wgs_tile_shape select_single_pass; /* where it fits, else `select` */
    uint32_t select_group_tiles;       /* tiles per group of the scatter, at most */
    uint64_t select_single_pass_auto;  /* DEFAULT takes the single pass up to this n */
    wgs_tile_shape reduce;             /* reduce and count */
    uint32_t reduce_groups;            /* their grid, at most */
    wgs_tile_shape segmented;          /* segmented reduce: tiles taken in turn */
    uint32_t segmented_groups;         /* its grid, at most */
    wgs_tile_shape scan_by_key;        /* scan by key: one tile a workgroup, chained */
    wgs_tile_shape histogram;
    uint32_t histogram_groups;
    wgs_tile_shape sort;          /* with subgroups: a subgroup ranks, and counts for the tile */
    wgs_tile_shape sort_keys;     /* the same for 32-bit keys without values */
    wgs_tile_shape sort_portable; /* without: every invocation keeps 256 counters */
    uint32_t sort_group_tiles;    /* tiles a workgroup takes in turn, at most */
    uint32_t sort_keys_group_tiles; /* the same for 32-bit keys without values */
    uint32_t sort_count_groups;   /* groups a workgroup of the reduce-then-scan count pass */
    /* With the count on the GPU, the reduce-then-scan's count and scatter grids up to
     * this many workgroups are dispatched as the bound's, not indirect (sort.c). */
    uint32_t sort_direct_max;
    /* The one-sweep sort: one tile a workgroup (with and without subgroups: their
     * ranking as above), the largest capacity for which DEFAULT takes it (0: none),
     * fruitless look-back reads before a fallback. */
    wgs_tile_shape sort_onesweep, sort_onesweep_keys, sort_onesweep_portable;
    uint64_t sort_onesweep_max;
    uint64_t sort_onesweep_values_max; /* the same for sorts with one-word values or indices */
    uint32_t sort_spins;
    uint32_t sort_lookback; /* predecessor states a digit reads at once (1..8) */
    uint32_t sort_histogram_workgroups; /* one-sweep's histogram: tiles a workgroup doubled while this many are left */
    wgs_tile_shape topk;    /* top-k: the tile of its passes */
    uint32_t topk_hist_tiles; /* the passes over the keys (histogram, filter): tiles a workgroup */
    uint32_t topk_write_tiles; /* and the write: this many tiles a workgroup (1..32) */
    wgs_tile_shape topk_rows; /* top-k of short rows: a workgroup a row, keys an invocation a step */
    int topk_rows_auto;       /* whether plans take that kernel by themselves where it applies */
    wgs_tile_shape segmented_sort; /* its tile: the longest segment one workgroup sorts */
    wgs_tile_shape segmented_sort_medium; /* the smaller workgroups of shorter segments */
    wgs_tile_shape segmented_sort_block; /* the block path's tile (a workgroup a segment, a pass a digit) */
    uint32_t segmented_sort_block_max; /* past the tile up to this, a workgroup a segment through global memory */
} wgs__tuning;

wgs__device_class wgs__device_class_of(const wgs_context_info *ci);
/* The row of the context's device class. */
const wgs__tuning *wgs__tuning_of(const wgs_context *ctx);

/* Workgroup memory in bytes that a shape needs (the primitive's own formula). */
typedef uint64_t (*wgs__storage_fn)(uint32_t wg, uint32_t items, const void *arg);

/* The shape a primitive runs with: `forced` (from the experiments) when it is set,
 * checked against the device (WGS_ERROR_INVALID_ARGUMENT, naming `what`, when it cannot
 * run), else `tuned` with the workgroup halved to the device's invocation limit and the
 * items halved (not below min_items) until `storage` fits. */
wgs_result wgs__shape(wgs_context *ctx, const char *what, wgs_tile_shape forced, wgs_tile_shape tuned,
                      uint32_t min_items, uint32_t max_items, wgs__storage_fn storage, const void *arg,
                      wgs_tile_shape *out);
/* `tuned` with its workgroup halved (not below 4) until one item an invocation fits
 * `storage` in `limit` bytes: for tiles whose every invocation keeps a row of counters
 * (no subgroups), where fewer invocations, not only fewer items, make room. */
wgs_tile_shape wgs__rows_fit(wgs_tile_shape tuned, wgs__storage_fn storage, const void *arg, uint64_t limit);
/* A count an experiment may force (tiles a group and the like): `forced` where it is
 * set, refused unless a power of two up to `max`, else the tuning row's `tuned`. */
wgs_result wgs__tuned_pow2(wgs_context *ctx, const char *what, uint32_t forced, uint32_t tuned, uint32_t max,
                           uint32_t *out);
/* The same, for a kernel that takes any workgroup of whole 32-invocation groups and any
 * number of items (the sort's tile): a forced shape is checked against that instead of
 * powers of two. */
wgs_result wgs__shape_any(wgs_context *ctx, const char *what, wgs_tile_shape forced, wgs_tile_shape tuned,
                          uint32_t min_items, uint32_t max_items, wgs__storage_fn storage, const void *arg,
                          wgs_tile_shape *out);

#endif
