/* SPDX-License-Identifier: MIT */
/*
 * internal.h: what the library's source files share and users never see: the context
 * object, error reporting and the kernel cache.
 */
#ifndef WGS_INTERNAL_H
#define WGS_INTERNAL_H

/* The library sees the experimental door (wgs_experimental) that users open only on request. */
#ifndef WGSCAN_EXPERIMENTAL_API
#define WGSCAN_EXPERIMENTAL_API
#endif
#include "wgscan.h"
#include "gpu/gpu.h"
#include "params.h"

#include <stdint.h>

#define WGS_PIPELINE_KEY_MAX 512 /* every field of a kernel spec, the helper files' names included */

typedef struct wgs_pipeline_entry {
    char key[WGS_PIPELINE_KEY_MAX];
    WGPUComputePipeline pipeline;
} wgs_pipeline_entry;

struct wgs_context {
    gpu_device *gpu;
    gpu_caps caps;
    wgs_log_fn log;
    void *log_user;
    char last_error[1024];
    wgs_pipeline_entry *pipelines; /* compiled kernels, by specialisation key */
    size_t pipeline_count, pipeline_cap;
    int live_plans; /* destroy order is checked, not trusted */
    wgs_experimental exp; /* the description's experiments (zero: none), defaults applied */
    /* Parameter ring of the primitives that have no plan-owned slots (copy, reduce,
     * select, histogram, allocate): records written once each, as dispatches are
     * recorded; a full ring is replaced by a fresh one (dispatch.c says why). */
    WGPUBuffer param_ring;
    uint64_t param_used, param_cap; /* records written, records the ring holds */
    WGPUBuffer dummy, dummy_rw; /* 256-byte placeholders for unused optional bindings
                                 * (two: one dispatch may not read and write one buffer) */
};

/* ---- dispatch --------------------------------------------------------------------- */

#define WGS_PARAM_RING WGS_PARAM_RING_RECORDS

/* The smallest storage binding an experiment may cap the device to: a tile of every
 * primitive's largest shape fits (1024 x 16 elements of 4 bytes). */
#define WGS_MIN_BINDING_CAP 65536u

/* Bytes between two parameter records: the uniform offset alignment. */
uint32_t wgs__param_stride(const wgs_context *ctx);
/* Makes room for `count` records in one ring (a fresh ring when the current one is too
 * full). Call it before the encode's own error scope: on failure nothing is recorded
 * and the error (recorded) is what the encode returns. */
wgs_result wgs__params_reserve(wgs_context *ctx, uint64_t count);
/* Writes `rec` into the next reserved record of ctx->param_ring (queue write) and
 * returns its byte offset. Never more records than reserved. */
uint64_t wgs__param_push(wgs_context *ctx, const wgs_params *rec);
/* The context's 256-byte placeholders for unused read-only and read-write bindings
 * (created on first use). */
WGPUBuffer wgs__dummy(wgs_context *ctx);
WGPUBuffer wgs__dummy_rw(wgs_context *ctx);
/* Slot `slot` bound to `bytes` of `b` at `offset`, or to a placeholder when bytes is 0
 * (WebGPU refuses empty bindings). */
gpu_binding wgs__binding_or_dummy(wgs_context *ctx, uint32_t slot, WGPUBuffer b, uint64_t offset, uint64_t bytes,
                                  int writable);
/* Binds `b` plus the parameter record at binding 2 (none when params is NULL: kernels
 * that read no parameters) and dispatches `groups` workgroups,
 * folded into two dimensions past the per-dimension limit. */
void wgs__dispatch(wgs_context *ctx, WGPUComputePassEncoder pass, WGPUComputePipeline pipe,
                   const gpu_binding *b, uint32_t nb, WGPUBuffer params, uint64_t param_offset,
                   uint64_t groups);
/* The segmented reduce over runs (segmented.c; the reduce by key's second pass): run s
 * spans starts[s] .. starts[s + 1] - 1 (the last one to n - 1), the starts strictly
 * increasing from 0 as select's UNIQUE mode writes them, and the kernels read the
 * number of runs from one u32 at count_offset in `count` (at most n). The args'
 * input, n, output and timestamps are used; the plan is destroyed as any segmented
 * reduce plan. */
wgs_result wgs__segmented_runs_plan_create(wgs_context *ctx, wgs_type type, wgs_op op, uint64_t capacity,
                                           const char *label, wgs_segmented_reduce_plan **out);
wgs_result wgs__segmented_runs_encode(wgs_segmented_reduce_plan *p, WGPUCommandEncoder encoder,
                                      const wgs_segmented_reduce_args *a, WGPUBuffer starts, WGPUBuffer count,
                                      uint64_t count_offset);
/* Input bindings of the primitives' kernels: binding 0 the elements (4 bytes each),
 * binding 4 the same range as vec4 (the placeholder when fewer than 4). */
void wgs__bind_vec4_input(wgs_context *ctx, gpu_binding *b, WGPUBuffer buffer, uint64_t offset,
                          uint64_t elems);
/* Elements of 4 bytes per chunk when an array is cut over several bindings: a multiple
 * of `multiple` and of 256 bytes. */
uint64_t wgs__chunk_elems(const wgs_context *ctx, uint64_t multiple);
/* A predicate as (kind, operand bits) for the kernels; refuses operands the type cannot hold. */
wgs_result wgs__predicate_bits(wgs_context *ctx, wgs_type type, const wgs_predicate *pred,
                               uint32_t *kind, uint32_t *a, uint32_t *b);
/* An encode's predicate operands in place of the plan's; the kind must match. */
wgs_result wgs__predicate_override(wgs_context *ctx, wgs_type type, uint32_t kind, const wgs_predicate *pred,
                                   uint32_t *a, uint32_t *b);
/* The checks every encode starts with: encoder and args given, the device alive, n
 * within the plan's capacity, the timestamp feature when a query set is passed. */
wgs_result wgs__encode_begin(wgs_context *ctx, WGPUCommandEncoder encoder, const void *args, uint64_t n,
                             uint64_t capacity, WGPUQuerySet timestamps);
/* Checks a buffer argument: non-NULL, Storage usage, aligned offset, `bytes` in range. */
wgs_result wgs__check_buffer(wgs_context *ctx, WGPUBuffer b, uint64_t offset, uint64_t bytes,
                             const char *name);

/* Records a failure: formats "WGS_ERROR_X: message" into ctx->last_error, sends it to
 * the log callback and returns `result`, so call sites read
 *     return wgs__fail(ctx, WGS_ERROR_BUFFER_TOO_SMALL, "input needs %llu bytes", ...); */
wgs_result wgs__fail(wgs_context *ctx, wgs_result result, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A failure before a context exists: to the description's log callback only. */
wgs_result wgs__fail_desc(const wgs_context_desc *desc, wgs_result result, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The checks every plan creation starts with, returning early on failure: *out
 * cleared, a context, a description and an out pointer, a live device. */
#define WGS_CREATE_BEGIN(ctx, desc, out)                                                    \
    do {                                                                                    \
        if (out) *(out) = NULL;                                                             \
        if (!(ctx)) return WGS_ERROR_INVALID_ARGUMENT;                                      \
        WGS_FAIL_IF((ctx), !(desc) || !(out), WGS_ERROR_INVALID_ARGUMENT,                   \
                    "desc and out are required");                                           \
        wgs_result create_r_ = wgs__check_device(ctx);                                      \
        if (create_r_ != WGS_OK) return create_r_;                                          \
    } while (0)

/* The end every plan creation shares: on failure `release` (a statement) undoes what
 * the plan made, the plan is freed and r returned; on success the plan counts as live
 * (wgs_context_destroy checks that every plan went first) and is handed out. */
#define WGS_CREATE_END(ctx, r, plan, release, out)                                          \
    do {                                                                                    \
        if ((r) != WGS_OK) {                                                                \
            release;                                                                        \
            free(plan);                                                                     \
            return (r);                                                                     \
        }                                                                                   \
        (ctx)->live_plans++;                                                                \
        *(out) = (plan);                                                                    \
        return WGS_OK;                                                                      \
    } while (0)

/* Returns early with a recorded failure when `cond` holds. */
#define WGS_FAIL_IF(ctx, cond, result, ...)               \
    do {                                                  \
        if (cond) return wgs__fail((ctx), (result), __VA_ARGS__); \
    } while (0)

/* Fails with WGS_ERROR_DEVICE_LOST once the device is gone. */
wgs_result wgs__check_device(wgs_context *ctx);

/* Pops the error scope opened by wgs__gpu_scope_push and records any WebGPU error with
 * `what` as context ("creating the scan plan's scratch"). */
wgs_result wgs__scope_end(wgs_context *ctx, const char *what);

/* ---- kernels -------------------------------------------------------------------- */

/* How a kernel is specialised. The generated prelude turns this into WGSL. */
typedef struct wgs_kernel_spec {
    const char *file;  /* under src/wgsl/, e.g. "device/scan_tiles.wgsl" */
    const char *entry; /* entry point */
    const char *helper; /* optional files (space-separated) included before `file` */
    /* 1: a primitive other than scan: no data bindings or tile helpers in the prelude
     * (the kernel declares its own), and V is the element type while T stays the
     * type the workgroup scan works on. */
    int primitive;
    wgs_type value_type; /* V (primitives) */
    wgs_params_kind params; /* the dispatch record's fields (params.h) */
    /* Constants the plan fixes, by name (e.g. the select's mode and flags); NULL names
     * end the list. */
    struct {
        const char *name;
        uint32_t value;
    } consts[5];
    wgs_type type;
    wgs_op op;
    int in_place;  /* 1: only binding 1 (read-write) holds the data */
    int inclusive; /* scan kernels: the constant SCAN_INCLUSIVE */
    /* 1: workgroup scans use subgroup operations, and scan tiles are row tiles
     * (workgroup/tile_rows.wgsl: 16-byte words, ITEMS a multiple of 4) */
    int subgroups;
    uint32_t wg, items;
    int chained; /* 1: tile_state.wgsl and a look-back file follow the helpers (chain.h) */
    uint32_t max_spins; /* single pass: fruitless look-back steps before a fallback */
    uint32_t lookback_per_lane; /* single pass with subgroups: states each lane reads per step */
    int ordered_lookback; /* 1: prefixes folded in tile order, bit-identical run to run (chain.h) */
    int withhold_inclusive; /* the experiment chain_withhold_inclusive */
    int withhold_first;     /* the experiment chain_withhold_first */
} wgs_kernel_spec;

/* The compiled pipeline for `spec`, compiled on first use and cached in the context
 * (the context owns it). */
wgs_result wgs__pipeline(wgs_context *ctx, const wgs_kernel_spec *spec, WGPUComputePipeline *out);
void wgs__pipelines_release(wgs_context *ctx);

/* Embedded WGSL by path under src/wgsl (generated at build time). */
const char *wgs_wgsl_source(const char *name);

/* ---- types and operators ------------------------------------------------------- */

/* Validates (type, op), defaults already applied, against each other and the device:
 * WGS_OK, or the error with the message recorded. */
wgs_result wgs__check_type_op(wgs_context *ctx, wgs_type type, wgs_op op);
/* Bit pattern of the identity of `op` on `type` (f16 in the low 16 bits). */
uint32_t wgs__identity_bits(wgs_type type, wgs_op op);

/* Size arithmetic on values a caller gave: saturating, so a result that would wrap
 * reads as UINT64_MAX, larger than any buffer or limit it is then checked against. */
static inline uint64_t wgs__mul_sat(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }
static inline uint64_t wgs__div_up(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }
static inline uint64_t wgs__round_up(uint64_t a, uint64_t b) { return wgs__mul_sat(wgs__div_up(a, b), b); }

#endif
