/* SPDX-License-Identifier: MIT */
/*
 * wgscan_web.c: the WebAssembly module's exports, called by web/package/wgscan.js.
 * Scalar arguments only (64-bit sizes and offsets as doubles, exact up to 2^53), so the
 * JavaScript side never depends on C struct layouts. Results come back as wgs_result
 * numbers; the message of the last failure is wgs_web_last_error().
 *
 * Every primitive has the same three exports: wgs_web_<p>_plan_create (the plan goes
 * to wgs_web_plan_take), wgs_web_<p>_plan_destroy and wgs_web_<p>_encode. WebGPU
 * objects arrive as handles of wgscan.js's table (0: none), never as pointers.
 */
#include "wgscan.h"

#include <stdlib.h>
#include <string.h>

#define EXPORT(name) __attribute__((export_name(#name)))
#define BUF(h) ((WGPUBuffer)(uintptr_t)(h))

static wgs_context *ctx;
static char early_error[512];

static void log_early(wgs_log_level level, wgs_result r, const char *m, void *u) {
    (void)level;
    (void)r;
    (void)u;
    strncpy(early_error, m, sizeof early_error - 1);
}

/* Opens the context on the device wgscan.js registered. One per module instance. */
EXPORT(wgs_web_open) int wgs_web_open(void) {
    if (ctx) return WGS_OK;
    wgs_context_desc d;
    memset(&d, 0, sizeof d);
    d.log = log_early;
    return wgs_context_create(&d, &ctx);
}

/* Destroys the context (the caller destroyed its plans first). */
EXPORT(wgs_web_close) void wgs_web_close(void) {
    wgs_context_destroy(ctx);
    ctx = NULL;
}

EXPORT(wgs_web_last_error) const char *wgs_web_last_error(void) {
    return ctx ? wgs_context_last_error(ctx) : early_error;
}

EXPORT(wgs_web_result_name) const char *wgs_web_result_name(int r) { return wgs_result_name((wgs_result)r); }

/* The plan of the last create call, until wgscan.js takes it. */
static void *last_plan;
EXPORT(wgs_web_plan_take) void *wgs_web_plan_take(void) {
    void *p = last_plan;
    last_plan = NULL;
    return p;
}

static wgs_predicate predicate(int kind, double a, double b) {
    wgs_predicate p;
    memset(&p, 0, sizeof p);
    p.kind = (wgs_predicate_kind)kind;
    p.a = a;
    p.b = b;
    return p;
}

/* ---- a user's operator (wgs_operator_desc) ---------------------------------------- */
/* wgscan.js writes the operator's strings and identity into memory of the module's own
 * (wgs_web_alloc, NUL-terminated strings), names them with wgs_web_operator_set, and the
 * next plan create (scan, reduce, segmented reduce and scan, scan and reduce by key)
 * takes it instead of type and op; the create copies it and clears it, so it never
 * outlives one create. */
static wgs_operator_desc pending_operator;
static int has_operator;

EXPORT(wgs_web_alloc) void *wgs_web_alloc(uint32_t size) { return malloc(size ? size : 1); }
EXPORT(wgs_web_free) void wgs_web_free(void *p) { free(p); }

EXPORT(wgs_web_operator_set)
void wgs_web_operator_set(const char *source, const char *element, const char *combine, const void *identity,
                          uint32_t identity_size, int commutative) {
    pending_operator = (wgs_operator_desc){source, element, combine, identity, identity_size, commutative};
    has_operator = 1;
}

/* The operator for one create, then none. */
static const wgs_operator_desc *take_operator(void) {
    if (!has_operator) return NULL;
    has_operator = 0;
    return &pending_operator;
}

/* ---- scan ------------------------------------------------------------------------ */
EXPORT(wgs_web_scan_plan_create)
int wgs_web_scan_plan_create(int type, int op, int kind, int algorithm, double capacity, int deterministic) {
    wgs_scan_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.op = (wgs_op)op;
    d.kind = (wgs_scan_kind)kind;
    d.algorithm = (wgs_scan_algorithm)algorithm;
    d.capacity = (uint64_t)capacity;
    d.deterministic = deterministic;
    d.custom = take_operator();
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_scan_plan_create(ctx, &d, (wgs_scan_plan **)&last_plan);
}

EXPORT(wgs_web_scan_plan_destroy) void wgs_web_scan_plan_destroy(wgs_scan_plan *p) { wgs_scan_plan_destroy(p); }

EXPORT(wgs_web_scan_plan_algorithm) int wgs_web_scan_plan_algorithm(wgs_scan_plan *p, double n, int in_place) {
    return wgs_scan_plan_algorithm(p, (uint64_t)n, in_place);
}

EXPORT(wgs_web_scan_plan_tile) int wgs_web_scan_plan_tile(wgs_scan_plan *p, int algorithm) {
    return (int)wgs_scan_plan_tile_size(p, (wgs_scan_algorithm)algorithm);
}

EXPORT(wgs_web_scan_encode)
int wgs_web_scan_encode(wgs_scan_plan *p, uint32_t encoder, uint32_t input, double input_offset,
                        uint32_t output, double output_offset, double n,
                        uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                        uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_scan_args a;
    memset(&a, 0, sizeof a);
    a.input = BUF(input);
    a.input_offset = (uint64_t)input_offset;
    a.output = BUF(output);
    a.output_offset = (uint64_t)output_offset;
    a.n = (uint64_t)n;
    a.n_buffer = BUF(n_buffer);
    a.n_offset = (uint64_t)n_offset;
    (void)n_segments_buffer, (void)n_segments_offset; /* (segmented primitives only) */
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_scan_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}

/* ---- reduce and count (one plan type) -------------------------------------------- */
EXPORT(wgs_web_reduce_plan_create)
int wgs_web_reduce_plan_create(int type, int op, int algorithm, int float_sum, int fixed_point_bits,
                               double capacity) {
    wgs_reduce_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.op = (wgs_op)op;
    d.algorithm = (wgs_reduce_algorithm)algorithm;
    d.float_sum = (wgs_float_sum)float_sum;
    d.fixed_point_bits = (uint32_t)fixed_point_bits;
    d.capacity = (uint64_t)capacity;
    d.custom = take_operator();
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_reduce_plan_create(ctx, &d, (wgs_reduce_plan **)&last_plan);
}

EXPORT(wgs_web_count_plan_create)
int wgs_web_count_plan_create(int type, int kind, double a, double b, int algorithm, double capacity) {
    wgs_count_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.predicate = predicate(kind, a, b);
    d.algorithm = (wgs_reduce_algorithm)algorithm;
    d.capacity = (uint64_t)capacity;
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_count_plan_create(ctx, &d, (wgs_reduce_plan **)&last_plan);
}

EXPORT(wgs_web_reduce_plan_destroy) void wgs_web_reduce_plan_destroy(wgs_reduce_plan *p) {
    wgs_reduce_plan_destroy(p);
}

/* has_predicate: count plans' per-encode operands (kind, a, b), as wgs_reduce_args. */
EXPORT(wgs_web_reduce_encode)
int wgs_web_reduce_encode(wgs_reduce_plan *p, uint32_t encoder, uint32_t input, double input_offset, double n,
                          uint32_t output, double output_offset, int has_predicate, int kind, double pa,
                          double pb,
                          uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                          uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_reduce_args a;
    memset(&a, 0, sizeof a);
    wgs_predicate pred = predicate(kind, pa, pb);
    a.input = BUF(input);
    a.input_offset = (uint64_t)input_offset;
    a.n = (uint64_t)n;
    a.output = BUF(output);
    a.output_offset = (uint64_t)output_offset;
    a.predicate = has_predicate ? &pred : NULL;
    a.n_buffer = BUF(n_buffer);
    a.n_offset = (uint64_t)n_offset;
    (void)n_segments_buffer, (void)n_segments_offset; /* (segmented primitives only) */
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_reduce_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}

/* ---- select, partition, unique, run-length ---------------------------------------- */
EXPORT(wgs_web_select_plan_create)
int wgs_web_select_plan_create(int type, int mode, int kind, double a, double b, int partition, int payload,
                               int algorithm, double capacity) {
    wgs_select_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.mode = (wgs_select_mode)mode;
    d.predicate = predicate(kind, a, b);
    d.partition = partition;
    d.payload = (wgs_payload)payload;
    d.algorithm = (wgs_select_algorithm)algorithm;
    d.capacity = (uint64_t)capacity;
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_select_plan_create(ctx, &d, (wgs_select_plan **)&last_plan);
}

EXPORT(wgs_web_select_plan_destroy) void wgs_web_select_plan_destroy(wgs_select_plan *p) {
    wgs_select_plan_destroy(p);
}

EXPORT(wgs_web_select_encode)
int wgs_web_select_encode(wgs_select_plan *p, uint32_t encoder, uint32_t input, double input_offset, uint32_t flags,
                          double flags_offset, uint32_t payload_in, double payload_in_offset, uint32_t output,
                          double output_offset, uint32_t payload_out, double payload_out_offset, uint32_t count,
                          double count_offset, double n, int has_predicate, int kind, double pa, double pb,

                          uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                          uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_select_args a;
    memset(&a, 0, sizeof a);
    wgs_predicate pred = predicate(kind, pa, pb);
    a.input = BUF(input);
    a.input_offset = (uint64_t)input_offset;
    a.flags = BUF(flags);
    a.flags_offset = (uint64_t)flags_offset;
    a.payload_in = BUF(payload_in);
    a.payload_in_offset = (uint64_t)payload_in_offset;
    a.output = BUF(output);
    a.output_offset = (uint64_t)output_offset;
    a.payload_out = BUF(payload_out);
    a.payload_out_offset = (uint64_t)payload_out_offset;
    a.count = BUF(count);
    a.count_offset = (uint64_t)count_offset;
    a.n = (uint64_t)n;
    a.predicate = has_predicate ? &pred : NULL;
    a.n_buffer = BUF(n_buffer);
    a.n_offset = (uint64_t)n_offset;
    (void)n_segments_buffer, (void)n_segments_offset; /* (segmented primitives only) */
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_select_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}

/* ---- histogram ---------------------------------------------------------------------- */
EXPORT(wgs_web_histogram_plan_create)
int wgs_web_histogram_plan_create(int type, double bins, double lower, double upper, double capacity) {
    wgs_histogram_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    /* Out-of-range bin counts reach the library as 0 (refused), never wrapped. */
    d.bins = bins >= 1 && bins <= 4294967295.0 ? (uint32_t)bins : 0;
    d.lower = lower;
    d.upper = upper;
    d.capacity = (uint64_t)capacity;
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_histogram_plan_create(ctx, &d, (wgs_histogram_plan **)&last_plan);
}

EXPORT(wgs_web_histogram_plan_destroy) void wgs_web_histogram_plan_destroy(wgs_histogram_plan *p) {
    wgs_histogram_plan_destroy(p);
}

EXPORT(wgs_web_histogram_encode)
int wgs_web_histogram_encode(wgs_histogram_plan *p, uint32_t encoder, uint32_t input, double input_offset, double n,
                             uint32_t output, double output_offset,
                             uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                             uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_histogram_args a;
    memset(&a, 0, sizeof a);
    a.input = BUF(input);
    a.input_offset = (uint64_t)input_offset;
    a.n = (uint64_t)n;
    a.output = BUF(output);
    a.output_offset = (uint64_t)output_offset;
    a.n_buffer = BUF(n_buffer);
    a.n_offset = (uint64_t)n_offset;
    (void)n_segments_buffer, (void)n_segments_offset; /* (segmented primitives only) */
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_histogram_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}

/* ---- segmented reduce ------------------------------------------------------------------ */
EXPORT(wgs_web_segmented_reduce_plan_create)
int wgs_web_segmented_reduce_plan_create(int type, int op, int segments, double capacity, double segment_capacity) {
    wgs_segmented_reduce_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.op = (wgs_op)op;
    d.segments = (wgs_segments_form)segments;
    d.capacity = (uint64_t)capacity;
    d.segment_capacity = (uint64_t)segment_capacity;
    d.custom = take_operator();
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_segmented_reduce_plan_create(ctx, &d, (wgs_segmented_reduce_plan **)&last_plan);
}

EXPORT(wgs_web_segmented_reduce_plan_destroy)
void wgs_web_segmented_reduce_plan_destroy(wgs_segmented_reduce_plan *p) {
    wgs_segmented_reduce_plan_destroy(p);
}

EXPORT(wgs_web_segmented_reduce_encode)
int wgs_web_segmented_reduce_encode(wgs_segmented_reduce_plan *p, uint32_t encoder, uint32_t input,
                                    double input_offset, double n, uint32_t offsets, double offsets_offset,
                                    uint32_t begin_offsets, double begin_offsets_offset, uint32_t end_offsets,
                                    double end_offsets_offset, double n_segments, uint32_t output,
                                    double output_offset, uint32_t status, double status_offset,

                                    uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                                    uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_segmented_reduce_args a;
    memset(&a, 0, sizeof a);
    a.input = BUF(input);
    a.input_offset = (uint64_t)input_offset;
    a.n = (uint64_t)n;
    a.offsets = BUF(offsets);
    a.offsets_offset = (uint64_t)offsets_offset;
    a.begin_offsets = BUF(begin_offsets);
    a.begin_offsets_offset = (uint64_t)begin_offsets_offset;
    a.end_offsets = BUF(end_offsets);
    a.end_offsets_offset = (uint64_t)end_offsets_offset;
    a.n_segments = (uint64_t)n_segments;
    a.output = BUF(output);
    a.output_offset = (uint64_t)output_offset;
    a.status = BUF(status);
    a.status_offset = (uint64_t)status_offset;
    a.n_buffer = BUF(n_buffer);
    a.n_offset = (uint64_t)n_offset;
    a.n_segments_buffer = BUF(n_segments_buffer);
    a.n_segments_offset = (uint64_t)n_segments_offset;
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_segmented_reduce_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}

/* ---- scan by key and reduce by key ------------------------------------------------------ */
EXPORT(wgs_web_scan_by_key_plan_create)
int wgs_web_scan_by_key_plan_create(int type, int op, int kind, int heads, int key_type, double capacity) {
    wgs_scan_by_key_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.op = (wgs_op)op;
    d.kind = (wgs_scan_kind)kind;
    d.heads = (wgs_segment_heads)heads;
    d.key_type = (wgs_type)key_type;
    d.capacity = (uint64_t)capacity;
    d.custom = take_operator();
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_scan_by_key_plan_create(ctx, &d, (wgs_scan_by_key_plan **)&last_plan);
}

EXPORT(wgs_web_scan_by_key_plan_destroy)
void wgs_web_scan_by_key_plan_destroy(wgs_scan_by_key_plan *p) { wgs_scan_by_key_plan_destroy(p); }

/* The carry-in: init_buffer, or (has_init) the value's bits (f16 in the low half). */
EXPORT(wgs_web_scan_by_key_encode)
int wgs_web_scan_by_key_encode(wgs_scan_by_key_plan *p, uint32_t encoder, uint32_t keys, double keys_offset,
                               uint32_t flags, double flags_offset, uint32_t input, double input_offset,
                               uint32_t output, double output_offset, double n, uint32_t init_buffer,
                               double init_offset, int has_init, uint32_t init_bits,
                               uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                               uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_scan_by_key_args a;
    memset(&a, 0, sizeof a);
    a.init_buffer = BUF(init_buffer);
    a.init_offset = (uint64_t)init_offset;
    a.init_value = has_init ? &init_bits : NULL;
    a.keys = BUF(keys);
    a.keys_offset = (uint64_t)keys_offset;
    a.flags = BUF(flags);
    a.flags_offset = (uint64_t)flags_offset;
    a.input = BUF(input);
    a.input_offset = (uint64_t)input_offset;
    a.output = BUF(output);
    a.output_offset = (uint64_t)output_offset;
    a.n = (uint64_t)n;
    a.n_buffer = BUF(n_buffer);
    a.n_offset = (uint64_t)n_offset;
    (void)n_segments_buffer, (void)n_segments_offset; /* (segmented primitives only) */
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_scan_by_key_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}

/* ---- segmented scan -------------------------------------------------------------------- */
EXPORT(wgs_web_segmented_scan_plan_create)
int wgs_web_segmented_scan_plan_create(int type, int op, int kind, int segments, double capacity,
                                       double segment_capacity) {
    wgs_segmented_scan_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.op = (wgs_op)op;
    d.kind = (wgs_scan_kind)kind;
    d.segments = (wgs_segments_form)segments;
    d.capacity = (uint64_t)capacity;
    d.segment_capacity = (uint64_t)segment_capacity;
    d.custom = take_operator();
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_segmented_scan_plan_create(ctx, &d, (wgs_segmented_scan_plan **)&last_plan);
}

EXPORT(wgs_web_segmented_scan_plan_destroy)
void wgs_web_segmented_scan_plan_destroy(wgs_segmented_scan_plan *p) { wgs_segmented_scan_plan_destroy(p); }

EXPORT(wgs_web_segmented_scan_encode)
int wgs_web_segmented_scan_encode(wgs_segmented_scan_plan *p, uint32_t encoder, uint32_t input, double input_offset,
                                  uint32_t output, double output_offset, double n, uint32_t offsets,
                                  double offsets_offset, uint32_t begin_offsets, double begin_offsets_offset,
                                  uint32_t end_offsets, double end_offsets_offset, double n_segments,
                                  uint32_t status, double status_offset,
                                  uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                                  uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_segmented_scan_args a;
    memset(&a, 0, sizeof a);
    a.input = BUF(input);
    a.input_offset = (uint64_t)input_offset;
    a.output = BUF(output);
    a.output_offset = (uint64_t)output_offset;
    a.n = (uint64_t)n;
    a.offsets = BUF(offsets);
    a.offsets_offset = (uint64_t)offsets_offset;
    a.begin_offsets = BUF(begin_offsets);
    a.begin_offsets_offset = (uint64_t)begin_offsets_offset;
    a.end_offsets = BUF(end_offsets);
    a.end_offsets_offset = (uint64_t)end_offsets_offset;
    a.n_segments = (uint64_t)n_segments;
    a.status = BUF(status);
    a.status_offset = (uint64_t)status_offset;
    a.n_buffer = BUF(n_buffer);
    a.n_offset = (uint64_t)n_offset;
    a.n_segments_buffer = BUF(n_segments_buffer);
    a.n_segments_offset = (uint64_t)n_segments_offset;
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_segmented_scan_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}

EXPORT(wgs_web_reduce_by_key_plan_create)
int wgs_web_reduce_by_key_plan_create(int type, int op, int key_type, double capacity) {
    wgs_reduce_by_key_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.op = (wgs_op)op;
    d.key_type = (wgs_type)key_type;
    d.capacity = (uint64_t)capacity;
    d.custom = take_operator();
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_reduce_by_key_plan_create(ctx, &d, (wgs_reduce_by_key_plan **)&last_plan);
}

EXPORT(wgs_web_reduce_by_key_plan_destroy)
void wgs_web_reduce_by_key_plan_destroy(wgs_reduce_by_key_plan *p) { wgs_reduce_by_key_plan_destroy(p); }

EXPORT(wgs_web_reduce_by_key_encode)
int wgs_web_reduce_by_key_encode(wgs_reduce_by_key_plan *p, uint32_t encoder, uint32_t keys, double keys_offset,
                                 uint32_t input, double input_offset, double n, uint32_t unique_keys,
                                 double unique_keys_offset, uint32_t aggregates, double aggregates_offset,
                                 uint32_t num_runs, double num_runs_offset,
                                 uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                                 uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_reduce_by_key_args a;
    memset(&a, 0, sizeof a);
    a.keys = BUF(keys);
    a.keys_offset = (uint64_t)keys_offset;
    a.input = BUF(input);
    a.input_offset = (uint64_t)input_offset;
    a.n = (uint64_t)n;
    a.unique_keys = BUF(unique_keys);
    a.unique_keys_offset = (uint64_t)unique_keys_offset;
    a.aggregates = BUF(aggregates);
    a.aggregates_offset = (uint64_t)aggregates_offset;
    a.num_runs = BUF(num_runs);
    a.num_runs_offset = (uint64_t)num_runs_offset;
    a.n_buffer = BUF(n_buffer);
    a.n_offset = (uint64_t)n_offset;
    (void)n_segments_buffer, (void)n_segments_offset; /* (segmented primitives only) */
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_reduce_by_key_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}

/* ---- allocator ------------------------------------------------------------------------ */
EXPORT(wgs_web_alloc_plan_create) int wgs_web_alloc_plan_create(int algorithm, double capacity) {
    wgs_alloc_plan_desc d;
    memset(&d, 0, sizeof d);
    d.algorithm = (wgs_alloc_algorithm)algorithm;
    d.capacity = (uint64_t)capacity;
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_alloc_plan_create(ctx, &d, (wgs_alloc_plan **)&last_plan);
}

EXPORT(wgs_web_alloc_plan_destroy) void wgs_web_alloc_plan_destroy(wgs_alloc_plan *p) { wgs_alloc_plan_destroy(p); }

EXPORT(wgs_web_alloc_encode)
int wgs_web_alloc_encode(wgs_alloc_plan *p, uint32_t encoder, uint32_t sizes, double sizes_offset, uint32_t offsets,
                         double offsets_offset, uint32_t state, double state_offset, double n, double arena_size,
                         uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                         uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_alloc_args a;
    memset(&a, 0, sizeof a);
    a.sizes = BUF(sizes);
    a.sizes_offset = (uint64_t)sizes_offset;
    a.offsets = BUF(offsets);
    a.offsets_offset = (uint64_t)offsets_offset;
    a.state = BUF(state);
    a.state_offset = (uint64_t)state_offset;
    a.n = (uint64_t)n;
    if (!(arena_size >= 0 && arena_size <= 4294967295.0)) return WGS_ERROR_INVALID_ARGUMENT;
    a.arena_size = (uint32_t)arena_size;
    a.n_buffer = BUF(n_buffer);
    a.n_offset = (uint64_t)n_offset;
    (void)n_segments_buffer, (void)n_segments_offset; /* (segmented primitives only) */
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_alloc_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}

/* ---- sort ------------------------------------------------------------------------------ */
/* A count field the JavaScript side passes as a double: values past 32 bits (or not
 * whole) reach the library as UINT32_MAX, which every such field refuses, never wrapped
 * onto a valid one (a value_bytes of 0 would mean the default 4). */
static uint32_t u32_field(double v) {
    return v >= 0 && v <= 4294967295.0 && v == (double)(uint32_t)v ? (uint32_t)v : UINT32_MAX;
}

EXPORT(wgs_web_sort_plan_create)
int wgs_web_sort_plan_create(int type, int order, double begin_bit, double end_bit, int payload, double value_bytes,
                             int algorithm, double capacity) {
    wgs_sort_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.order = (wgs_sort_order)order;
    d.begin_bit = u32_field(begin_bit);
    d.end_bit = u32_field(end_bit);
    d.payload = (wgs_payload)payload;
    d.value_bytes = u32_field(value_bytes);
    d.algorithm = (wgs_sort_algorithm)algorithm;
    d.capacity = (uint64_t)capacity;
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_sort_plan_create(ctx, &d, (wgs_sort_plan **)&last_plan);
}

EXPORT(wgs_web_sort_plan_destroy) void wgs_web_sort_plan_destroy(wgs_sort_plan *p) { wgs_sort_plan_destroy(p); }

EXPORT(wgs_web_sort_encode)
int wgs_web_sort_encode(wgs_sort_plan *p, uint32_t encoder, uint32_t keys_in, double keys_in_offset, uint32_t keys_out,
                        double keys_out_offset, uint32_t values_in, double values_in_offset, uint32_t values_out,
                        double values_out_offset, double n,
                        uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                        uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_sort_args a;
    memset(&a, 0, sizeof a);
    a.keys_in = BUF(keys_in);
    a.keys_in_offset = (uint64_t)keys_in_offset;
    a.keys_out = BUF(keys_out);
    a.keys_out_offset = (uint64_t)keys_out_offset;
    a.values_in = BUF(values_in);
    a.values_in_offset = (uint64_t)values_in_offset;
    a.values_out = BUF(values_out);
    a.values_out_offset = (uint64_t)values_out_offset;
    a.n = (uint64_t)n;
    a.n_buffer = BUF(n_buffer);
    a.n_offset = (uint64_t)n_offset;
    (void)n_segments_buffer, (void)n_segments_offset; /* (segmented primitives only) */
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_sort_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}

/* ---- top-k ------------------------------------------------------------------------------ */
/* k_capacity and row_capacity as the sort's count fields: 0 the default, past 32 bits
 * refused by the library (never wrapped). */
EXPORT(wgs_web_topk_plan_create)
int wgs_web_topk_plan_create(int type, int select, int output, int payload, double capacity, double k_capacity,
                             double row_capacity) {
    wgs_topk_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.select = (wgs_topk_select)select;
    d.output = (wgs_topk_output)output;
    d.payload = (wgs_payload)payload;
    d.capacity = (uint64_t)capacity;
    d.k_capacity = u32_field(k_capacity);
    d.row_capacity = u32_field(row_capacity);
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_topk_plan_create(ctx, &d, (wgs_topk_plan **)&last_plan);
}

EXPORT(wgs_web_topk_plan_destroy) void wgs_web_topk_plan_destroy(wgs_topk_plan *p) { wgs_topk_plan_destroy(p); }

/* rows and k past 32 bits reach the library as UINT32_MAX: past row_capacity, past n. */
EXPORT(wgs_web_topk_encode)
int wgs_web_topk_encode(wgs_topk_plan *p, uint32_t encoder, uint32_t keys_in, double keys_in_offset, uint32_t keys_out,
                        double keys_out_offset, uint32_t values_in, double values_in_offset, uint32_t values_out,
                        double values_out_offset, double n, double rows, double k,
                        uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                        uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_topk_args a;
    memset(&a, 0, sizeof a);
    a.keys_in = BUF(keys_in);
    a.keys_in_offset = (uint64_t)keys_in_offset;
    a.keys_out = BUF(keys_out);
    a.keys_out_offset = (uint64_t)keys_out_offset;
    a.values_in = BUF(values_in);
    a.values_in_offset = (uint64_t)values_in_offset;
    a.values_out = BUF(values_out);
    a.values_out_offset = (uint64_t)values_out_offset;
    a.n = (uint64_t)n;
    a.rows = u32_field(rows);
    a.k = u32_field(k);
    /* (no counts from the GPU: wgscan.js refuses them for the top-k) */
    (void)n_buffer, (void)n_offset, (void)n_segments_buffer, (void)n_segments_offset;
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_topk_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}

/* ---- segmented sort -------------------------------------------------------------------- */
EXPORT(wgs_web_segmented_sort_plan_create)
int wgs_web_segmented_sort_plan_create(int type, int order, int payload, double value_bytes, int segments, int path,
                                       double capacity, double segment_capacity) {
    wgs_segmented_sort_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.order = (wgs_sort_order)order;
    d.payload = (wgs_payload)payload;
    d.value_bytes = u32_field(value_bytes);
    d.segments = (wgs_segments_form)segments;
    d.path = (wgs_segmented_sort_path)path;
    d.capacity = (uint64_t)capacity;
    d.segment_capacity = (uint64_t)segment_capacity;
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_segmented_sort_plan_create(ctx, &d, (wgs_segmented_sort_plan **)&last_plan);
}

EXPORT(wgs_web_segmented_sort_plan_destroy)
void wgs_web_segmented_sort_plan_destroy(wgs_segmented_sort_plan *p) { wgs_segmented_sort_plan_destroy(p); }

EXPORT(wgs_web_segmented_sort_plan_tile) int wgs_web_segmented_sort_plan_tile(wgs_segmented_sort_plan *p) {
    return (int)wgs_segmented_sort_plan_tile_size(p);
}

EXPORT(wgs_web_segmented_sort_encode)
int wgs_web_segmented_sort_encode(wgs_segmented_sort_plan *p, uint32_t encoder, uint32_t keys_in,
                                  double keys_in_offset, uint32_t keys_out, double keys_out_offset,
                                  uint32_t values_in, double values_in_offset, uint32_t values_out,
                                  double values_out_offset, double n, uint32_t offsets, double offsets_offset,
                                  uint32_t begin_offsets, double begin_offsets_offset, uint32_t end_offsets,
                                  double end_offsets_offset, double n_segments, uint32_t status,
                                  double status_offset,
                                  uint32_t n_buffer, double n_offset, uint32_t n_segments_buffer, double n_segments_offset,
                                  uint32_t query_set, uint32_t begin_index, uint32_t end_index) {
    wgs_segmented_sort_args a;
    memset(&a, 0, sizeof a);
    a.keys_in = BUF(keys_in);
    a.keys_in_offset = (uint64_t)keys_in_offset;
    a.keys_out = BUF(keys_out);
    a.keys_out_offset = (uint64_t)keys_out_offset;
    a.values_in = BUF(values_in);
    a.values_in_offset = (uint64_t)values_in_offset;
    a.values_out = BUF(values_out);
    a.values_out_offset = (uint64_t)values_out_offset;
    a.n = (uint64_t)n;
    a.offsets = BUF(offsets);
    a.offsets_offset = (uint64_t)offsets_offset;
    a.begin_offsets = BUF(begin_offsets);
    a.begin_offsets_offset = (uint64_t)begin_offsets_offset;
    a.end_offsets = BUF(end_offsets);
    a.end_offsets_offset = (uint64_t)end_offsets_offset;
    a.n_segments = (uint64_t)n_segments;
    a.status = BUF(status);
    a.status_offset = (uint64_t)status_offset;
    a.n_buffer = BUF(n_buffer);
    a.n_offset = (uint64_t)n_offset;
    a.n_segments_buffer = BUF(n_segments_buffer);
    a.n_segments_offset = (uint64_t)n_segments_offset;
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_segmented_sort_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}
