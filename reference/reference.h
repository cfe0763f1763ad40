/* SPDX-License-Identifier: MIT */
/*
 * reference.h: CPU references shared by the CLI and the tests: test data, sequential
 * and multi-threaded scans, and the verification rule for each type and operator.
 * Correctness of the GPU library is judged here, so this code stays simple.
 */
#ifndef WGS_REFERENCE_H
#define WGS_REFERENCE_H

#include "wgscan.h"

#include <stddef.h>
#include <stdint.h>

/* IEEE binary16 <-> binary32, round to nearest even (no dependence on compiler _Float16). */
uint16_t ref_f32_to_f16(float f);
float ref_f16_to_f32(uint16_t h);

/* Fills n elements of `type` with seeded random data suited to `op`: full-range
 * integers for add/xor, mostly-set bits for and, mostly-clear bits for or, floats in
 * [-1, 1] (f32) or multiples of 1/8 in [-1, 1] (f16, exact in half precision). */
void ref_fill_random(void *data, wgs_type type, wgs_op op, uint64_t n, uint64_t seed);

/* f32 test data for the float rules of wgscan.h ("Floats"), as bit patterns: small
 * normal numbers (multiples of 1/4 in [-4, 4], with runs of repeats) mixed with about
 * 3 in 8 special values of the kinds asked for: quiet NaNs of both signs and several
 * payloads, +-inf, +-0, subnormals of both signs (from the smallest to the largest).
 * REF_EDGE_ONLY leaves the normal numbers out. */
enum {
    REF_EDGE_NAN = 1,
    REF_EDGE_INF = 2,
    REF_EDGE_ZERO = 4,
    REF_EDGE_SUBNORMAL = 8,
    REF_EDGE_ALL = 15,
    REF_EDGE_ONLY = 16,
};
void ref_fill_f32_edges(uint32_t *bits, uint64_t n, uint64_t seed, unsigned kinds);

/* Sequential scan on the CPU in the element type's own arithmetic (wrapping integers,
 * float sums accumulated in the type's precision, f16 through f32). out may equal in. */
void ref_scan(const void *in, void *out, wgs_type type, wgs_op op, int inclusive, uint64_t n);

/* The same with `threads` threads (0: one per online core): reduce blocks, scan the
 * block totals, rescan blocks. */
void ref_scan_parallel(const void *in, void *out, wgs_type type, wgs_op op, int inclusive,
                       uint64_t n, int threads);

/* A u32 that orders as the element's values for min and max (wgscan.h "Floats"): u32 as
 * is, i32 with the sign flipped, f32 by the bit patterns' order (-0 < +0, subnormals as
 * they are) with NaN below every number for min/argmin and above for max/argmax, so that
 * it wins. f16 callers pass the value converted to f32. */
uint32_t ref_order_key(wgs_type type, wgs_op op, uint32_t bits);

typedef struct ref_check {
    uint64_t mismatches;
    uint64_t first_bad; /* index of the first mismatch, valid when mismatches > 0 */
    double got, want;   /* values at first_bad */
    double worst_ratio; /* largest |error| / tolerance seen (floats), <= 1 when passing */
} ref_check;

/* Checks a GPU scan result against the input.
 * Integers, and min/max of floats: exact equality with the sequential scan (floats: the
 * same bits, or both NaN: a NaN's payload is not defined).
 * Float sums: |got - exact| <= 128 u S + u |exact| + 2 (i + 1) m, exact from a
 * double-precision prefix sum, S the running sum of |x| up to the element, u the unit
 * roundoff of the type (2^-24 for f32, 2^-11 for f16), m its smallest normal (2^-126,
 * 2^-14). A tree sum whose elements pass through at most d additions is off by at most
 * d u S to first order; the multi-level scan has d < 128 (per level: 8 serial + 2*8 tree
 * + 8 rescan steps, up to 3 levels, plus the adds). The last term is what a device that
 * flushes subnormals to zero (WGSL allows it) may add: less than m per flush, and out[i]
 * is a tree of i + 1 inputs and i additions. Where the exact sum is an infinity or NaN
 * (such inputs), the output must be the same infinity, or a NaN. */
ref_check ref_verify(const void *in, const void *got, wgs_type type, wgs_op op, int inclusive,
                     uint64_t n);


/* ---- primitives beyond scan --------------------------------------------------------- */

/* Reduce of u32/i32/f32 on the CPU. Integers and float min/max: the exact result's bits
 * (and index for arg ops: the smallest index of the extreme value by ref_order_key, NaN
 * first; 0xFFFFFFFF for n = 0).
 * Float sums: *exact is the double-precision sum and *abs_sum the sum of magnitudes,
 * for the tolerance of wgscan.h ("Reduce and count"). */
typedef struct ref_reduction {
    uint32_t bits, index;
    double exact, abs_sum;
} ref_reduction;
ref_reduction ref_reduce(const void *in, wgs_type type, wgs_op op, uint64_t n);

/* wgscan.h's bound on an f32 reduce sum of n elements (tree and compare-exchange):
 * (n / 1024 + 64) 2^-24 abs_sum, plus 2n 2^-126 for a device that flushes subnormals.
 * (FIXED_POINT adds its own steps.) */
double ref_reduce_sum_tolerance(const ref_reduction *want, uint64_t n);
/* Whether a float sum is right: within tol of a finite exact sum; the same infinity as
 * an infinite one; a NaN for a NaN (inputs with infinities or NaN, wgscan.h "Floats").
 * This and ref_same_value are the one comparison of floats: ref_verify and every
 * command of the CLI judge their results through them. */
int ref_sum_matches(double got, double exact, double tol);
/* Whether two results of min/max are the same: the same bits, or (floats) both NaN. */
int ref_same_value(wgs_type type, uint32_t got, uint32_t want);

/* The predicate of wgscan.h on one element (operands converted as the library does):
 * IEEE 754 comparisons (NaN unordered, -0 == +0, subnormals as they are). */
int ref_predicate(wgs_type type, const wgs_predicate *pred, const void *element);
uint64_t ref_count(const void *in, wgs_type type, const wgs_predicate *pred, uint64_t n);

/* Histogram with the bin rule of wgscan.h ("Histogram"); hist receives bins counts (all
 * zero for bounds the library refuses). */
void ref_histogram(const void *in, wgs_type type, uint32_t bins, double lower, double upper, uint64_t n,
                   uint32_t *hist);

/* Select on the CPU (modes and options of wgscan.h "Select"): writes out (and pay_out
 * when payload != NONE or mode is RUN_LENGTH) and returns the count. flags: one byte
 * per element (FLAGGED); pay_in: 4-byte payloads (BUFFER). */
uint64_t ref_select(const void *in, wgs_type type, wgs_select_mode mode, const wgs_predicate *pred,
                    const uint8_t *flags, int partition, wgs_payload payload, const uint32_t *pay_in,
                    uint64_t n, void *out, uint32_t *pay_out);

/* Sort on the CPU (wgscan.h "Sort"): stable, keys of the type (8 bytes for u64/i64),
 * bits [begin_bit, end_bit) (0, 0: all), descending or not; values of value_bytes move
 * along (0: none), or with index_payload the input indices (u32) are written instead.
 * The outputs may be the inputs. Returns 0, or -1 when host memory ran out. */
int ref_sort(wgs_type type, int descending, uint32_t begin_bit, uint32_t end_bit, const void *keys,
             const void *values, uint32_t value_bytes, int index_payload, uint64_t n, void *keys_out,
             void *values_out);
/* A key as the unsigned number whose order is the sort's ascending order. */
uint64_t ref_sort_order(wgs_type type, const void *key);
/* Top-k of rows x n 32-bit keys (wgscan.h "Top-k"): per row the first k of the stable
 * sort (descending when largest), best first when sorted, else in input order; values:
 * rows x n (or NULL), or the row's indices when index_payload; values_out may be NULL.
 * Returns 0, or -1 for k outside 1..n or no memory. */
int ref_topk(wgs_type type, int largest, int sorted, const uint32_t *keys, const uint32_t *values,
             int index_payload, uint64_t n, uint32_t rows, uint32_t k, uint32_t *keys_out, uint32_t *values_out);
/* Segmented sort on the CPU (wgscan.h "Segmented sort"): each segment [begins[s],
 * ends[s]) (ends NULL: CSR, begins holds n_segments + 1 offsets) sorted stably on its
 * own, keys of the type, values of value_bytes (0: none) or with index_payload each
 * key's index in the whole input. Places in no segment are not written; the outputs
 * must not be the inputs. Returns 0, or -1 for offsets that break the rules (out of
 * order, overlapping, past n) or no memory. */
int ref_segmented_sort(wgs_type type, int descending, const void *keys, const void *values, uint32_t value_bytes,
                       int index_payload, const uint32_t *begins, const uint32_t *ends, uint64_t n,
                       uint64_t n_segments, void *keys_out, void *values_out);

#endif
