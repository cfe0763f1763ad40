/*
 * wgscan_web.c: the WebAssembly module's exports, called by web/wgscan.js. Scalar
 * arguments only (64-bit sizes as doubles, exact up to 2^53), so the JavaScript side
 * never depends on C struct layouts. Results come back as wgs_result numbers; the
 * message of the last failure is wgs_web_last_error().
 */
#include "wgscan.h"

#include <string.h>

#define EXPORT(name) __attribute__((export_name(#name)))

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

EXPORT(wgs_web_last_error) const char *wgs_web_last_error(void) {
    return ctx ? wgs_context_last_error(ctx) : early_error;
}

EXPORT(wgs_web_result_name) const char *wgs_web_result_name(int r) { return wgs_result_name((wgs_result)r); }

/* Out-parameters live here between a call and the JavaScript that reads them. */
static wgs_scan_plan *last_plan;
EXPORT(wgs_web_plan_create)
int wgs_web_plan_create(int type, int op, int kind, int algorithm, double capacity, int deterministic) {
    wgs_scan_plan_desc d;
    memset(&d, 0, sizeof d);
    d.type = (wgs_type)type;
    d.op = (wgs_op)op;
    d.kind = (wgs_scan_kind)kind;
    d.algorithm = (wgs_scan_algorithm)algorithm;
    d.capacity = (uint64_t)capacity;
    d.deterministic = deterministic;
    last_plan = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    return wgs_scan_plan_create(ctx, &d, &last_plan);
}

EXPORT(wgs_web_plan_take) wgs_scan_plan *wgs_web_plan_take(void) {
    wgs_scan_plan *p = last_plan;
    last_plan = NULL;
    return p;
}

EXPORT(wgs_web_plan_destroy) void wgs_web_plan_destroy(wgs_scan_plan *p) { wgs_scan_plan_destroy(p); }

EXPORT(wgs_web_plan_algorithm) int wgs_web_plan_algorithm(wgs_scan_plan *p, double n, int in_place) {
    return wgs_scan_plan_algorithm(p, (uint64_t)n, in_place);
}

EXPORT(wgs_web_plan_tile) int wgs_web_plan_tile(wgs_scan_plan *p, int algorithm) {
    return (int)wgs_scan_plan_tile_size(p, (wgs_scan_algorithm)algorithm);
}

/* Handles are wgscan.js table indices standing in for the WebGPU objects. */
EXPORT(wgs_web_scan_encode)
int wgs_web_scan_encode(wgs_scan_plan *p, uint32_t encoder, uint32_t input, double input_offset,
                        uint32_t output, double output_offset, double n, uint32_t query_set,
                        uint32_t begin_index, uint32_t end_index) {
    wgs_scan_args a;
    memset(&a, 0, sizeof a);
    a.input = (WGPUBuffer)(uintptr_t)input;
    a.input_offset = (uint64_t)input_offset;
    a.output = (WGPUBuffer)(uintptr_t)output;
    a.output_offset = (uint64_t)output_offset;
    a.n = (uint64_t)n;
    a.timestamp_query_set = (WGPUQuerySet)(uintptr_t)query_set;
    a.timestamp_begin_index = begin_index;
    a.timestamp_end_index = end_index;
    return wgs_scan_encode(p, (WGPUCommandEncoder)(uintptr_t)encoder, &a);
}
