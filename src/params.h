/* SPDX-License-Identifier: MIT */
/*
 * params.h: each kernel family's interface, written once. A dispatch's parameter record
 * (binding 2, a uniform) is a list of named u32 fields; C declares a struct from the
 * list and kernels.c writes the same struct into the WGSL prelude, so the two cannot
 * drift. The constants that kernels and host share (modes, flags, tiles a workgroup
 * takes) are lists too, turned into C enums here and WGSL constants in the prelude.
 * Every record begins with n; chained kernels' continue with tile_base, which the
 * chain's WGSL reads.
 */
#ifndef WGS_PARAMS_H
#define WGS_PARAMS_H

#include <stdint.h>

/* Scans (scan_tiles.wgsl, scan_single_pass.wgsl, scan_persistent.wgsl, the tile files;
 * scan_by_key.wgsl). words: row tiles' 16-byte view, in words of 4 elements; carry_bits:
 * the carry-in (element/scan_carry.wgsl); claim_base: the tile counter at the persistent
 * single pass's chunk start; segments: the segmented scan's count
 * (workgroup/heads_offsets.wgsl). */
#define WGS_PARAMS_SCAN(X) X(n) X(tile_base) X(flags) X(words) X(carry_bits) X(claim_base) X(segments)
#define WGS_CONSTS_SCAN(X)                                                                    \
    X(FLAG_WRITE_TOTALS, 2u) X(FLAG_SEEDED, 4u) X(FLAG_CARRY, 8u) X(FLAG_CARRY_BUFFER, 16u)   \
    X(FLAG_EMPTY_IDENTITY, 32u)

/* Reduce and count (reduce.wgsl): tile_base is the first partial this dispatch writes,
 * first the index of its first element, groups its grid; the predicate's kind is in
 * flags bits 8..11, the fixed-point fraction bits in 16..23. */
#define WGS_PARAMS_REDUCE(X) X(n) X(tile_base) X(identity_bits) X(flags) X(pred_a) X(pred_b) X(first) X(groups)
#define WGS_CONSTS_REDUCE(X) X(FLAG_FIXED_POINT, 4u)

/* Segmented reduce (segmented_reduce.wgsl): segments in all, tiles of the values,
 * bounds_base the first word of the tiles' segment bounds in the scratch (after the
 * tiles' partials). The forms of the segments and the result codes of the status word
 * (from the public enum). */
#define WGS_PARAMS_SEGMENTED(X) X(n) X(segments) X(tiles) X(bounds_base)
#define WGS_CONSTS_SEGMENTED(X)                                                               \
    X(SEG_OFFSETS, 1u) X(SEG_BEGIN_END, 2u) X(SEG_RUNS, 3u) X(PARTIAL_WORDS, 6u)              \
    X(STATUS_UNORDERED, WGS_ERROR_SEGMENTS_UNORDERED) X(STATUS_OUT_OF_RANGE, WGS_ERROR_SEGMENT_OUT_OF_RANGE)

/* Select (select.wgsl): group_tiles tiles a group, tiles in all. */
#define WGS_PARAMS_SELECT(X) X(n) X(tile_base) X(flags) X(pred_a) X(pred_b) X(group_tiles) X(tiles)
#define WGS_CONSTS_SELECT(X)                                                                  \
    X(MODE_FLAGGED, 1u) X(MODE_IF, 2u) X(MODE_HEADS, 3u) X(FLAG_PARTITION, 16u) X(FLAG_PAYLOAD, 32u) \
    X(FLAG_PAYLOAD_INDEX, 64u) X(COUNT_TILES, 4u) X(FLAG_TILES, 16u)

/* Histogram (histogram.wgsl; the bin modes are described there): groups is the grid;
 * rule is the shift,
 * the width or the f32 scale's bits; lower the lower bound's bits; upper R - 1
 * (integers) or the upper bound's bits (f32); span R's low 32 bits (integers, flags
 * bit 8 holds bit 32) or lower's bits with a subnormal as 0 (f32). */
#define WGS_PARAMS_HISTOGRAM(X) X(n) X(groups) X(rule) X(flags) X(lower) X(upper) X(bins) X(span)
#define WGS_CONSTS_HISTOGRAM(X) X(BIN_F32, 0u) X(BIN_SHIFT, 1u) X(BIN_DIVIDE, 2u) X(BIN_ESTIMATE, 3u)

/* Sort (sort.wgsl, sort_onesweep.wgsl: each file says what its kernels take): groups
 * of group_tiles tiles; this digit's shift and bits; the pass and the range's end. The
 * one-sweep state buffer: SORT_PASSES_MAX histograms, the tile counters, the tiles. */
#define WGS_PARAMS_SORT(X) X(n) X(groups) X(group_tiles) X(shift) X(bits) X(flags) X(digit_pass) X(end_bit)
#define WGS_CONSTS_SORT(X)                                                                    \
    X(FLAG_INDEX_VALUES, 1u) X(FLAG_LAST_PASS, 2u) X(SORT_PASSES_MAX, 8u) X(STATE_COUNTERS, 2048u) \
    X(STATE_TILES, 2056u)

/* Top-k (topk.wgsl): n the candidates (a count the GPU may set), row_n keys a row, rows,
 * k a row; shift: the digit's lowest bit; tiles: tiles a row (topk_rank: groups a row).
 * ROW_WORDS: a row's state (256 digit counts, the prefix, want, two spare words). */
#define WGS_PARAMS_TOPK(X) X(n) X(row_n) X(rows) X(k) X(shift) X(tiles)
#define WGS_CONSTS_TOPK(X) X(ROW_WORDS, 260u)

/* Segmented sort (segmented_sort.wgsl): n the keys (the large path's gather, relabel and
 * scatter: the compacted keys, a count the GPU may set), segments, flags (the SS_FLAG_
 * constants), small_max (the longest segment a workgroup sorts; longer ones go to the
 * large path, or are refused in the status without it), segment_bound (n_segments of
 * the host: segments may be a count from the GPU), medium_max (the longest segment the
 * medium workgroups sort), list_base (ss_small, ss_block: where its list's numbers
 * begin), shift (ss_block: the pass's digit). SS_FLAG_BLOCK: the plan sorts segments
 * past the tile up to BLOCK_MAX keys a workgroup each (ss_block); SS_FLAG_INDEX_FIRST:
 * ss_block's first pass, whose values are the keys' indices.
 * SS_TINY_MAX: the longest segment SS_TINY_LANES invocations sort alone (a workgroup
 * holds WG / SS_TINY_LANES of them), each invocation holding 4 keys at most (ss_tiny's
 * x0..x3: SS_TINY_MAX <= 4 * SS_TINY_LANES). */
#define WGS_PARAMS_SEGSORT(X)                                                                  \
    X(n) X(segments) X(flags) X(small_max) X(segment_bound) X(medium_max) X(list_base) X(shift)
#define WGS_CONSTS_SEGSORT(X)                                                                 \
    X(SS_FLAG_CSR, 1u) X(SS_FLAG_LARGE, 2u) X(SS_FLAG_VALUES, 4u) X(SS_FLAG_VALUES8, 8u)      \
    X(SS_FLAG_INDEX, 16u) X(SS_FLAG_BLOCK, 32u) X(SS_FLAG_INDEX_FIRST, 64u)                   \
    X(SS_STATUS_UNORDERED, WGS_ERROR_SEGMENTS_UNORDERED)                                      \
    X(SS_STATUS_OUT_OF_RANGE, WGS_ERROR_SEGMENT_OUT_OF_RANGE) X(SS_STATUS_TOO_LARGE, WGS_ERROR_TOO_LARGE)   \
    X(SS_TINY_MAX, 32u) X(SS_TINY_LANES, 8u)

/* Allocate (alloc.wgsl). */
#define WGS_PARAMS_ALLOC(X) X(n) X(arena)
/* Copy (copy.wgsl): n in 16-byte words. */
#define WGS_PARAMS_COPY(X) X(n)

/* Predicate kinds (element/predicate.wgsl), from the public enum. */
#define WGS_CONSTS_PREDICATE(X)                                                               \
    X(PRED_NONZERO, WGS_PREDICATE_NONZERO) X(PRED_EQUAL, WGS_PREDICATE_EQUAL)                 \
    X(PRED_NOT_EQUAL, WGS_PREDICATE_NOT_EQUAL) X(PRED_LESS, WGS_PREDICATE_LESS)               \
    X(PRED_GREATER, WGS_PREDICATE_GREATER) X(PRED_IN_RANGE, WGS_PREDICATE_IN_RANGE)

#define WGS_PARAM_FIELD_(name) uint32_t name;
#define WGS_CONST_ENUM_(name, value) WGS_##name = value,

typedef struct wgs_scan_params { WGS_PARAMS_SCAN(WGS_PARAM_FIELD_) } wgs_scan_params;
typedef struct wgs_reduce_params { WGS_PARAMS_REDUCE(WGS_PARAM_FIELD_) } wgs_reduce_params;
typedef struct wgs_segmented_params { WGS_PARAMS_SEGMENTED(WGS_PARAM_FIELD_) } wgs_segmented_params;
typedef struct wgs_select_params { WGS_PARAMS_SELECT(WGS_PARAM_FIELD_) } wgs_select_params;
typedef struct wgs_histogram_params { WGS_PARAMS_HISTOGRAM(WGS_PARAM_FIELD_) } wgs_histogram_params;
typedef struct wgs_sort_params { WGS_PARAMS_SORT(WGS_PARAM_FIELD_) } wgs_sort_params;
typedef struct wgs_alloc_params { WGS_PARAMS_ALLOC(WGS_PARAM_FIELD_) } wgs_alloc_params;
typedef struct wgs_copy_params { WGS_PARAMS_COPY(WGS_PARAM_FIELD_) } wgs_copy_params;
typedef struct wgs_topk_params { WGS_PARAMS_TOPK(WGS_PARAM_FIELD_) } wgs_topk_params;
typedef struct wgs_segsort_params { WGS_PARAMS_SEGSORT(WGS_PARAM_FIELD_) } wgs_segsort_params;

/* One record of any family: what the parameter ring and slots hold (32 bytes). */
typedef union wgs_params {
    uint32_t words[8];
    wgs_scan_params scan;
    wgs_reduce_params reduce;
    wgs_segmented_params segmented;
    wgs_select_params select;
    wgs_histogram_params histogram;
    wgs_sort_params sort;
    wgs_alloc_params alloc;
    wgs_copy_params copy;
    wgs_topk_params topk;
    wgs_segsort_params segsort;
} wgs_params;

enum { WGS_CONSTS_SCAN(WGS_CONST_ENUM_) WGS_CONSTS_REDUCE(WGS_CONST_ENUM_) };
enum { WGS_CONSTS_SELECT(WGS_CONST_ENUM_) };
enum { WGS_CONSTS_SEGMENTED(WGS_CONST_ENUM_) };
enum { WGS_CONSTS_HISTOGRAM(WGS_CONST_ENUM_) };
enum { WGS_CONSTS_SORT(WGS_CONST_ENUM_) };
enum { WGS_CONSTS_TOPK(WGS_CONST_ENUM_) };
enum { WGS_CONSTS_SEGSORT(WGS_CONST_ENUM_) };
_Static_assert(WGS_SS_TINY_MAX <= 4 * WGS_SS_TINY_LANES, "ss_tiny holds four keys an invocation");

/* Which interface a kernel has (wgs_kernel_spec.params). */
typedef enum wgs_params_kind {
    WGS_PARAMS_KIND_SCAN = 0,
    WGS_PARAMS_KIND_REDUCE,
    WGS_PARAMS_KIND_SELECT,
    WGS_PARAMS_KIND_HISTOGRAM,
    WGS_PARAMS_KIND_ALLOC,
    WGS_PARAMS_KIND_COPY,
    WGS_PARAMS_KIND_SORT,
    WGS_PARAMS_KIND_SEGMENTED,
    WGS_PARAMS_KIND_TOPK,
    WGS_PARAMS_KIND_SEGSORT,
} wgs_params_kind;

#endif
