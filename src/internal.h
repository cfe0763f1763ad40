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
    char *custom_key; /* a user operator's whole key (its hash is in key), or NULL */
    WGPUComputePipeline pipeline; /* NULL while its request compiles */
    struct gpu_pipeline_request *request; /* wgs_prepare's, until wgs__pipelines_collect */
} wgs_pipeline_entry;

/* How wgs__pipeline compiles what the cache lacks (wgs_prepare sets the other two). */
typedef enum wgs__compile_mode {
    WGS__COMPILE_NOW = 0, /* synchronously: the plan gets its pipeline */
    WGS__COMPILE_NONE,    /* not at all: the WGSL is built and checked, the plan gets NULL */
    WGS__COMPILE_LATER,   /* requested asynchronously, in the cache once collected; NULL */
} wgs__compile_mode;

/* ---- how a dispatch follows a count on the GPU ------------------------------------ */

/* How a dispatch of an encode whose element count c is in a GPU buffer follows c. The
 * host records every dispatch for the bound (args.n) as without a count buffer; the
 * rule says what changes: its n becomes
 *     n' = min(div_up(sat_sub(c, first), unit), recorded n), 0 where n' < lo
 * (unit 0: n stays as recorded), then the ops rewrite fields from n' (each clamped to
 * the recorded value where it says so), and its grid becomes min(max(div_up(n', per),
 * grid_min), recorded grid) (per 0: the recorded grid). A dispatch with no rule keeps
 * its record and grid: resets and final steps that always run. Of the rule of a
 * dispatch without a record, only only_counted is read. */
typedef enum wgs__count_op_kind {
    WGS_COUNT_OP_NONE = 0,
    WGS_COUNT_OP_DIV_UP,           /* field = min(max(div_up(n', a), b), recorded) */
    WGS_COUNT_OP_WORDS,            /* field = min(n' / a * b, recorded) */
    WGS_COUNT_OP_SUM,              /* field = sum of field a of the b dispatches of the pass just before this one */
    WGS_COUNT_OP_CLEAR_IF_LE,      /* field = recorded & ~b where n' <= a */
    WGS_COUNT_OP_CLEAR_IF_COUNT_LE, /* field = recorded & ~b where c <= a */
    WGS_COUNT_OP_SECOND            /* field = min(the pass's second count, recorded) */
} wgs__count_op_kind;

typedef struct wgs__count_op {
    wgs__count_op_kind op;
    uint32_t field; /* word of the record, 0..7 */
    uint32_t a, b;
} wgs__count_op;

typedef struct wgs__count_rule {
    uint64_t first, unit; /* saturated to 32 bits */
    uint32_t lo;
    uint64_t per;
    uint32_t grid_min; /* with per: at least this many workgroups (at most the recorded grid) */
    /* With per: a recorded grid of at most this many workgroups is dispatched as
     * recorded, not through dispatchWorkgroupsIndirect, its workgroups past the count
     * returning by the record's fields. For kernels whose every workgroup first tests
     * a field that follows the count: an idle workgroup costs the GPU a few ns, an
     * indirect dispatch cost Dawn 0.24 ms of host time on an H100 (BENCHMARKS.md,
     * 2026-12-06, ninth session). 0: always indirect. */
    uint32_t direct_max;
    wgs__count_op ops[4];
    /* 1: the dispatch is recorded only in a pass whose count is on the GPU (select's
     * zeroing of its count output, which the passes leave unwritten for a count of 0). */
    int only_counted;
} wgs__count_rule;

/* The rule most data dispatches take: n' = min(sat_sub(c, first), n), grid
 * div_up(n', per). */
static inline wgs__count_rule wgs__count_follow(uint64_t first, uint64_t per) {
    return (wgs__count_rule){.first = first, .unit = 1, .per = per};
}

/* Regions a pass whose count is on the GPU may take again (counts.c). */
#define WGS_COUNT_MEMO 64

/* The state of a pass whose count is on the GPU (counts.c, which only dispatch.c calls). */
typedef struct wgs__deferred wgs__deferred;

typedef struct wgs__counts {
    int active;            /* a pass with a count buffer is between begin and end */
    WGPUBuffer n_buffer;   /* the count: one u32 at n_offset (NULL: the bound) */
    uint64_t n_offset;
    uint32_t bound;        /* min(args.n, 2^32 - 1) */
    WGPUBuffer second;     /* a second count (the segments'), or NULL: its bound */
    uint64_t second_offset;
    uint32_t second_bound;
    wgs__deferred *list;   /* the pass's dispatches, in order */
    size_t count, cap;
    wgs_result failed;     /* the first failure while deferring, returned by end */
    /* Regions (header, rules, records, grids), one per pass, each written once: a full
     * ring is dropped as the parameter ring is (dispatch.c). */
    WGPUBuffer ring;
    uint64_t ring_used, ring_cap;
    WGPUComputePipeline prep;
    /* The regions of the current ring whose host words (header and rules) are these:
     * a pass with the same words takes the same region again (counts.c). */
    uint32_t *memo[WGS_COUNT_MEMO];
    uint64_t memo_bytes[WGS_COUNT_MEMO], memo_base[WGS_COUNT_MEMO];
    unsigned memo_next;
} wgs__counts;

/* Replaced parameter rings still held (see wgs_context.param_old). */
#define WGS_PARAM_OLD_RINGS 4

/* The bind group cache (bindings.c): sets of ways, a group of up to WGS_BIND_MAX
 * bindings in each. Few sets of many ways: a frame's plans bind about a hundred groups
 * (the segmented sort alone some 60), and at 64 sets of 4 ways a set that five of them
 * shared missed on every encode (the package under Node: 5 bind groups created an
 * encode of a reused segmented sort plan, 10 in web/test.js's repeats); 16 x 16 holds
 * them in the same 256 entries. The parameter records' table (below) is built alike. */
#define WGS_BIND_SETS 16
#define WGS_BIND_WAYS 16
#define WGS_BIND_MAX 12
typedef struct wgs__bind_entry {
    uint64_t hash;
    WGPUComputePipeline pipe;
    uint32_t nb;
    gpu_binding b[WGS_BIND_MAX]; /* as bound; their buffers held */
    uint64_t id[WGS_BIND_MAX];   /* the buffers' identities */
    WGPUBindGroup group;         /* NULL: an empty way */
    uint64_t used;               /* the clock at its last use */
} wgs__bind_entry;

/* Parameter records already in the current ring, by content (dispatch.c): sets of
 * ways, as the bind groups'. */
#define WGS_PARAM_SEEN_SETS 16
#define WGS_PARAM_SEEN_WAYS 16
typedef struct wgs__param_seen {
    wgs_params rec;
    uint64_t offset; /* as wgs__param_push returns it */
    uint64_t used;   /* the clock at its last use; 0: an empty way */
} wgs__param_seen;

struct wgs_context {
    gpu_device *gpu;
    gpu_caps caps;
    wgs_log_fn log;
    void *log_user;
    char last_error[1024];
    wgs_pipeline_entry *pipelines; /* compiled kernels, by specialisation key */
    size_t pipeline_count, pipeline_cap;
    wgs__compile_mode compile;
    uint64_t pipelines_created, pipelines_prepared; /* wgs_experimental_pipelines */
    int live_plans; /* destroy order is checked, not trusted */
    wgs_experimental exp; /* the description's experiments (zero: none), defaults applied */
    /* Parameter ring of the primitives that have no plan-owned slots (copy, reduce,
     * select, histogram, allocate): records written once each, as dispatches are
     * recorded; a full ring is replaced by a fresh one (dispatch.c says why). */
    WGPUBuffer param_ring;
    uint64_t param_used, param_cap; /* records written, records the ring holds */
    /* Offsets count on across rings (a ring starts where the last one ended), and the
     * last few replaced rings stay held: an encode that records another's (a scan
     * inside an allocation, a select or a sort) may see the ring replaced under it and
     * still binds its own records where they are (dispatch.c). */
    uint64_t param_base;
    WGPUBuffer param_old[WGS_PARAM_OLD_RINGS];
    uint64_t param_old_base[WGS_PARAM_OLD_RINGS], param_old_cap[WGS_PARAM_OLD_RINGS];
    WGPUBuffer dummy, dummy_rw; /* placeholders for unused optional bindings (two: one
                                 * dispatch may not read and write one buffer); dummy_rw
                                 * holds a 256-byte range per binding slot (dispatch.c) */
    wgs__counts counts; /* the deferral of a pass whose n is on the GPU (counts.c) */
    wgs__param_seen param_seen[WGS_PARAM_SEEN_SETS * WGS_PARAM_SEEN_WAYS];
    uint64_t param_clock;
    wgs__bind_entry bind_cache[WGS_BIND_SETS * WGS_BIND_WAYS];
    uint64_t bind_clock;
    /* wgs_experimental_encode_counts */
    uint64_t bind_groups_created, records_written;
};

/* A bind group of `pipe` with bindings b[0..nb): the cached one of these exact
 * bindings, else a new one, cached (bindings.c). The cache owns it: never release it. */
WGPUBindGroup wgs__bind_group(wgs_context *ctx, WGPUComputePipeline pipe, const gpu_binding *b, uint32_t nb);
/* Releases every cached bind group and the buffers they hold. */
void wgs__bind_cache_clear(wgs_context *ctx);
/* What every plan's destroy does last: the context's count of live plans, and the
 * bind groups that may hold the plan's scratch. */
void wgs__plan_gone(wgs_context *ctx);

/* ---- dispatch --------------------------------------------------------------------- */

#define WGS_PARAM_RING WGS_PARAM_RING_RECORDS

/* The smallest storage binding an experiment may cap the device to: a tile of every
 * primitive's largest shape fits (1024 x 16 elements of 4 bytes). */
#define WGS_MIN_BINDING_CAP 65536u

/* Bytes between two parameter records: the uniform offset alignment. */
static inline uint32_t wgs__param_stride(const wgs_context *ctx) {
    uint32_t align = ctx->caps.info.min_uniform_offset_alignment;
    return align > sizeof(wgs_params) ? align : (uint32_t)sizeof(wgs_params);
}
/* Makes room for `count` records in one ring (a fresh ring when the current one is too
 * full). Call it before the encode's own error scope: on failure nothing is recorded
 * and the error (recorded) is what the encode returns. */
wgs_result wgs__params_reserve(wgs_context *ctx, uint64_t count);
/* Writes `rec` into the next reserved record of ctx->param_ring (queue write) and
 * returns its offset, for wgs__dispatch with ctx->param_ring (which finds the ring
 * that holds it, should the ring have been replaced since). Never more records than
 * reserved. */
uint64_t wgs__param_push(wgs_context *ctx, const wgs_params *rec);
/* A binding (at `slot`) of the record that wgs__param_push placed at `offset`, in the
 * ring that holds it: a record read by a kernel as a uniform of its own. */
gpu_binding wgs__param_binding(wgs_context *ctx, uint32_t slot, uint64_t offset);
/* The context's 256-byte placeholder for unused read-only bindings (created on first
 * use). */
WGPUBuffer wgs__dummy(wgs_context *ctx);
/* Slot `slot` bound to `bytes` of `b` at `offset`, or to a placeholder when bytes is 0
 * (WebGPU refuses empty bindings): every unused writable binding comes from here. */
gpu_binding wgs__binding_or_dummy(wgs_context *ctx, uint32_t slot, WGPUBuffer b, uint64_t offset, uint64_t bytes,
                                  int writable);
/* Checks an optional count buffer (args.n_buffer, n_offset): NULL passes; else Storage
 * usage, an offset that is a multiple of 4, and 4 bytes in range. */
wgs_result wgs__check_count(wgs_context *ctx, WGPUBuffer n_buffer, uint64_t n_offset, const char *name);
/* Begins the dispatches of one compute pass whose element count is one u32 at n_offset
 * in `n_buffer`, at most `bound` (args.n); nothing changes when n_buffer is NULL. Until
 * wgs__dispatch_end, each dispatch follows the count by its rule. Passes with a count
 * do not nest: end one before another primitive's encode runs. */
void wgs__dispatch_begin(wgs_context *ctx, WGPUBuffer n_buffer, uint64_t n_offset, uint64_t bound);
/* The same with a second count (the segments of the segmented primitives), read by
 * WGS_COUNT_OP_SECOND; either buffer may be NULL (that count is then its bound). */
void wgs__dispatch_begin2(wgs_context *ctx, WGPUBuffer n_buffer, uint64_t n_offset, uint64_t bound,
                          WGPUBuffer second, uint64_t second_offset, uint64_t second_bound);
/* One dispatch, described once: `pipe` with the bindings `b`, the parameter record
 * `record` at binding 2 (written by wgs__param_push at `record_at`; NULL for kernels
 * that read none), `groups` workgroups folded into two dimensions past the
 * per-dimension limit, and `rule`: how record and grid follow the pass's count on the
 * GPU (NULL: they stay as recorded). Without a count it is recorded now; with one, at
 * wgs__dispatch_end. */
void wgs__dispatch(wgs_context *ctx, WGPUComputePassEncoder pass, WGPUComputePipeline pipe,
                   const gpu_binding *b, uint32_t nb, const wgs_params *record, uint64_t record_at,
                   uint64_t groups, const wgs__count_rule *rule);
/* Ends the dispatches begun by wgs__dispatch_begin: with a count, records them into
 * `pass` (counts.c). Its result is the first failure since the begin; WGS_OK without a
 * count. */
wgs_result wgs__dispatch_end(wgs_context *ctx, WGPUComputePassEncoder pass);
/* Releases what the dispatch layer holds in the context: the parameter rings, the
 * placeholders and the count's state. */
void wgs__dispatch_release(wgs_context *ctx);
/* The segmented reduce over runs (segmented.c; the reduce by key's second pass): run s
 * spans starts[s] .. starts[s + 1] - 1 (the last one to n - 1), the starts strictly
 * increasing from 0 as select's UNIQUE mode writes them, and the kernels read the
 * number of runs from one u32 at count_offset in `count` (at most n). The args'
 * input, n, output and timestamps are used; the plan is destroyed as any segmented
 * reduce plan. */
wgs_result wgs__segmented_runs_plan_create(wgs_context *ctx, wgs_type type, wgs_op op,
                                           const wgs_operator_desc *custom, uint64_t capacity, const char *label,
                                           wgs_segmented_reduce_plan **out);
/* Bytes of one segment's result: the operator's element, or 4 (8 for the arg ops). */
uint32_t wgs__segmented_reduce_plan_result_size(const wgs_segmented_reduce_plan *p);
/* Bytes of a value of the scan by key's and segmented scan's plans (the host helpers'). */
uint32_t wgs__scan_by_key_plan_element_size(const wgs_scan_by_key_plan *p);
uint32_t wgs__segmented_scan_plan_element_size(const wgs_segmented_scan_plan *p);
/* Bytes of a value and of an aggregate of a reduce by key plan. */
void wgs__reduce_by_key_plan_sizes(const wgs_reduce_by_key_plan *p, uint32_t *element, uint32_t *result);
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

/* ---- counts on the GPU (counts.c, called by dispatch.c only) -------------------- */

/* Starts a pass whose count is in `n_buffer` and/or a second count in `second` (either
 * NULL: that count is its bound); nothing starts when both are NULL. */
void wgs__counts_begin(wgs_context *ctx, WGPUBuffer n_buffer, uint64_t n_offset, uint64_t bound,
                       WGPUBuffer second, uint64_t second_offset, uint64_t second_bound);
int wgs__counts_active(const wgs_context *ctx);
/* Keeps a dispatch of the pass (wgs__dispatch's arguments) for wgs__counts_end. */
void wgs__counts_defer(wgs_context *ctx, WGPUComputePipeline pipe, const gpu_binding *b, uint32_t nb,
                       const wgs_params *record, uint64_t groups, const wgs__count_rule *rule);
/* Records the pass into `pass`: the rules in a region of the context's ring, one small
 * dispatch that reads the count and writes the records and grids, then the deferred
 * dispatches, indirect. Ends the pass (also on failure); WGS_OK outside one. */
wgs_result wgs__counts_end(wgs_context *ctx, WGPUComputePassEncoder pass);
void wgs__counts_release(wgs_context *ctx);

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
    } consts[8];
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
    /* A user's operator (operator.c): its element type and function replace type and op
     * in the prelude (NULL: the built-in type and op). */
    const struct wgs__operator *custom;
} wgs_kernel_spec;

/* The compiled pipeline for `spec`, compiled on first use and cached in the context
 * (the context owns it). */
wgs_result wgs__pipeline(wgs_context *ctx, const wgs_kernel_spec *spec, WGPUComputePipeline *out);
/* Waits for every pipeline requested under WGS__COMPILE_LATER and fills its cache entry;
 * those that failed leave the cache. The first failure, recorded with the compiler's
 * message where `report` (0: an earlier failure is the one the caller returns). */
wgs_result wgs__pipelines_collect(wgs_context *ctx, int report);
void wgs__pipelines_release(wgs_context *ctx);

/* Embedded WGSL by path under src/wgsl (generated at build time). */
const char *wgs_wgsl_source(const char *name);
/* The i-th embedded file's text, NULL past the last. */
const char *wgs_wgsl_source_at(size_t i);

/* wgs_sort_plan_create with flags for DEFAULT. PREFER_ONESWEEP: the one-sweep sort
 * wherever it can run (n < 2^30, a tile shape it takes, tile states that fit one
 * binding; else reduce-then-scan), for sorts whose count on the GPU is often 0 (the
 * segmented sort's large path), since its passes then dispatch nothing. ONESWEEP_ONLY:
 * one-sweep or no plan at all (WGS_OK, *out NULL), decided before anything is created.
 * N_IS_CAPACITY: every encode sorts the capacity's n (wgs_sort_host), so no one-sweep
 * plan of the bound beside a larger one. */
enum {
    WGS__SORT_PREFER_ONESWEEP = 1,
    WGS__SORT_ONESWEEP_ONLY = 2,
    WGS__SORT_N_IS_CAPACITY = 4,
};
struct wgs_sort_plan;
wgs_result wgs__sort_plan_create(wgs_context *ctx, const wgs_sort_plan_desc *desc, unsigned flags,
                                 struct wgs_sort_plan **out);

/* wgs_scan_encode, recorded into the caller's open compute pass `pass` (the args'
 * timestamps are then the caller's to place), or into a pass of its own (NULL). */
wgs_result wgs__scan_encode_in(struct wgs_scan_plan *p, WGPUCommandEncoder encoder, WGPUComputePassEncoder pass,
                               const wgs_scan_args *args);
/* Bytes of one element of the scan plan's type or operator. */
uint32_t wgs__scan_plan_element_size(const struct wgs_scan_plan *p);
/* A user's operator's reduce (reduce.c), on a multi-level scan plan of that operator:
 * its tile totals level after level, the last into args->output (one element). The
 * encode's common checks (wgs__encode_begin) are the caller's. */
wgs_result wgs__scan_reduce_encode(struct wgs_scan_plan *p, WGPUCommandEncoder encoder,
                                   const wgs_reduce_args *args);
/* Bytes of a reduce plan's input element and of its result. */
void wgs__reduce_plan_sizes(const struct wgs_reduce_plan *p, uint32_t *element, uint32_t *result);

/* ---- user operators (operator.c) ----------------------------------------------- */

/* A checked wgs_operator_desc, with copies of its text: what the prelude writes for it
 * and what tells two operators apart in the pipeline cache. */
typedef struct wgs__operator {
    char *source, *element, *combine;
    char *glue;       /* the prelude's lines for this operator: T, combine, the words */
    char *key;        /* everything that makes the kernels differ, as one string */
    uint32_t size;    /* bytes of an element */
    uint32_t words;   /* 32-bit words of an element (size / 4) */
    uint32_t identity[4];
    int commutative;
    int scalar; /* the element is u32, i32 or f32 itself (no struct, no vector) */
} wgs__operator;

/* Checks `desc` (before any GPU work: the type's form and size, the identity's size,
 * reserved names; then a test compilation of the text on its own, whose errors name
 * the user's lines) and makes the operator. */
wgs_result wgs__operator_create(wgs_context *ctx, const wgs_operator_desc *desc, wgs__operator **out);
void wgs__operator_destroy(wgs__operator *op);
/* The preludes of representative kernels, one after another (kernels.c): with the
 * embedded files, the text whose module-scope names a user's operator may not use.
 * Free it; NULL when out of memory. */
char *wgs__prelude_samples(void);

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

/* A grid of `groups` workgroups as x by y, y > 1 only past the per-dimension limit
 * (common.wgsl's tile_index unfolds it). */
static inline void wgs__grid_fold(const wgs_context *ctx, uint64_t groups, uint32_t *x, uint32_t *y) {
    uint64_t max_dim = ctx->caps.info.max_workgroups_per_dimension;
    *x = (uint32_t)groups;
    *y = 1;
    if (groups > max_dim) {
        *y = (uint32_t)wgs__div_up(groups, max_dim);
        *x = (uint32_t)wgs__div_up(groups, *y);
    }
}

#endif
