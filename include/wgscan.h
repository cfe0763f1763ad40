/* SPDX-License-Identifier: MIT */
/*
 * wgscan.h: GPU data-parallel primitives on WebGPU. The one public header.
 *
 * ============================================================================
 * MANUAL
 * ============================================================================
 *
 * What it does
 *   Prefix scan (inclusive and exclusive) of u32, i32, f32 and f16 arrays on any
 *   WebGPU device, with the operators add, min, max, and for integers and, or, xor.
 *   Any length from 0 up to what the device's memory holds: arrays longer than one
 *   storage binding are split over several bindings, and grids beyond 65535
 *   workgroups are folded into two dimensions.
 *   Built on scan and atomics, with the same plan / encode shape: reduce and count,
 *   the segmented reduce (one reduction per segment), the scan by key and the segmented
 *   scan (a scan that starts again at every segment: of runs of keys, of head flags or
 *   of offsets), the reduce by key, select (compaction, partition, unique, run-length),
 *   histogram, a bump allocator, a radix sort and top-k (sections below).
 *
 * What it does NOT do
 *   - It never submits, waits or reads back in the encode path: wgs_scan_encode
 *     records passes into YOUR command encoder, on YOUR buffers. Only the
 *     convenience call wgs_scan_host() uploads, runs and downloads.
 *   - It does not own your buffers and does not keep references to them.
 *   - It does not make f32/f16 addition associative: a GPU sum is a tree sum and
 *     differs from a sequential CPU sum within rounding (see wgs_scan_plan_desc).
 *
 * Step by step
 *   1. wgs_context_create(&(wgs_context_desc){0}, &ctx)
 *        loads the WebGPU runtime (WGSCAN_WEBGPU_LIB if set, else the pinned Dawn the
 *        build installed, else the usual system names), picks an adapter (a discrete
 *        GPU, then an integrated one, else the SwiftShader CPU driver of Debian's
 *        chromium package, found automatically), creates a device with subgroups,
 *        timestamp-query and shader-f16 when offered and the adapter's largest
 *        buffer, binding, workgroup-storage and invocation limits.
 *      Or wgs_context_create_from_device() to work on a device you already have.
 *   2. wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.type = WGS_TYPE_F32,
 *        .op = WGS_OP_ADD, .kind = WGS_SCAN_INCLUSIVE, .capacity = n}, &plan)
 *        compiles the pipelines (cached in the context) and allocates the plan's
 *        scratch memory for up to `capacity` elements. To compile ahead instead, the
 *        pipelines of several plans at once, wgs_prepare() them first (section
 *        "Compiling ahead"): the creation then only allocates.
 *   3. wgs_scan_encode(plan, encoder, &(wgs_scan_args){.input = buf, .output = buf2,
 *        .n = n}) records the scan into your encoder; submit it when you like.
 *   4. wgs_scan_plan_destroy(plan); wgs_context_destroy(ctx).
 *   For simple use, wgs_scan_host() does 2-4 with host arrays in and out.
 *
 * Host-array calls (wgs_*_host)
 *   Each primitive has one; they create a plan and buffers, upload, run, download and
 *   wait. All thirteen take their arguments in one order: the context, the plan's
 *   description, the input arrays, the sizes (n first, then n_segments or arena_size),
 *   then what they write (arrays, and counts written back):
 *     wgs_scan_host(ctx, desc, input, n, output)
 *     wgs_reduce_host(ctx, desc, input, n, result)
 *     wgs_count_host(ctx, desc, input, n, count)
 *     wgs_segmented_reduce_host(ctx, desc, input, offsets, end_offsets, n, n_segments, output)
 *     wgs_scan_by_key_host(ctx, desc, heads, input, n, output)
 *     wgs_segmented_scan_host(ctx, desc, input, offsets, end_offsets, n, n_segments, output)
 *     wgs_reduce_by_key_host(ctx, desc, keys, input, n, unique_keys, aggregates, num_runs)
 *     wgs_select_host(ctx, desc, input, flags, payload_in, n, output, payload_out, count)
 *     wgs_histogram_host(ctx, desc, input, n, counts)
 *     wgs_alloc_host(ctx, desc, sizes, n, arena_size, top, offsets)   (top: in and out)
 *     wgs_sort_host(ctx, desc, keys, values, n, keys_out, values_out)
 *     wgs_topk_host(ctx, desc, keys, values, n, rows, k, keys_out, values_out)
 *     wgs_segmented_sort_host(ctx, desc, keys, values, offsets, end_offsets, n, n_segments,
 *                             keys_out, values_out)
 *
 * Errors
 *   Every fallible call returns a wgs_result: WGS_OK (0) or a numbered error. Numbers
 *   are never reused. wgs_result_name() gives the symbol, wgs_context_last_error()
 *   the full message of the last failure on a context (with the WebGPU message when
 *   WebGPU reported one), and the optional log callback receives each message.
 *   WebGPU validation, out-of-memory and internal errors raised by wgscan's own calls
 *   are captured with error scopes and returned as results; a lost device is reported
 *   as WGS_ERROR_DEVICE_LOST by every later call. Nothing aborts the process.
 *   WebGPU cannot be asked which device made a buffer: a buffer of another context
 *   (device) is reported as WGS_ERROR_WRONG_CONTEXT where the runtime's validation
 *   message says so (Dawn's does), else as WGS_ERROR_GPU_VALIDATION.
 *   Out-parameters are set to NULL on failure. Destroy functions accept NULL.
 *
 * Ownership
 *   A context created by wgs_context_create owns its instance, adapter and device.
 *   A context made from your device takes a reference (AddRef) on the device and
 *   instance and releases it on destroy. Plans hold a reference on their context's
 *   device objects and must be destroyed before their context. wgscan keeps a
 *   reference on every WebGPU object it holds and releases it on destroy.
 *
 * Thread safety
 *   A context and everything made from it must be used by one thread at a time
 *   (external synchronisation). Different contexts are independent.
 *   wgs_result_name() is thread-safe.
 *
 * Buffers passed to wgs_scan_encode
 *   - usage must include WGPUBufferUsage_Storage;
 *   - offsets must be multiples of the device's minStorageBufferOffsetAlignment
 *     (wgs_context_info.min_storage_offset_alignment, usually 256);
 *   - the range [offset, offset + n * element size) must lie inside the buffer; for
 *     f16 the range is rounded up to a multiple of 4 bytes, which must also fit
 *     (elements past n are never written);
 *   - input and output may be the same buffer at the same offset (in place); the same
 *     buffer at different offsets is refused with WGS_ERROR_ALIASING.
 *
 * Parameter records
 *   Every primitive writes each dispatch's parameters (n, offsets) into a ring of the
 *   context with wgpuQueueWriteBuffer. Each record is written once and never
 *   rewritten: a full ring (WGS_PARAM_RING_RECORDS records) is replaced by a fresh
 *   one, kept alive by the command buffers that use it. So any number of encodes, of
 *   one plan or several, with any n, may be recorded before a submit, in any order of
 *   submits. A record equal to one already in the ring is not written again.
 *
 * Bind groups
 *   The context keeps the bind groups its encodes create (the last 256), so an
 *   encode repeated with the same plan, buffers and arguments creates none and
 *   writes nothing: per pass it sets a pipeline and a bind group and dispatches. A
 *   kept bind group holds a reference on the buffers it binds, yours included: a
 *   buffer you release stays allocated until its group is replaced, a plan is
 *   destroyed or the context is (wgpuBufferDestroy frees its memory at once, as
 *   ever). Buffers are told apart by identity, never by handle value, so a new
 *   buffer is never taken for one released.
 *
 * Counts on the GPU
 *   An args.n_buffer (one u32 at args.n_offset, Storage usage) gives the element
 *   count of an encode from the GPU, read when its passes run: the primitive works
 *   on min(that count, args.n) elements, and args.n is the bound that sizes every
 *   check, as without n_buffer. Everything the host decides from n (algorithm, tile
 *   groups, chunks) it decides for the bound; each pass then starts with one small
 *   dispatch that reads the count and writes the pass's parameter records and grids
 *   into a ring of the context (written once each, as the parameter records), and its
 *   dispatches run with dispatchWorkgroupsIndirect. Outputs past the count are not
 *   written. Each args struct says what its primitive writes for a count.
 *
 * Floats: NaN, -0, infinities, subnormals (f32; f16 in scans)
 *   WGSL lets a device flush subnormals to zero and assume that no infinity or NaN
 *   occurs (SwiftShader flushes). So wgscan decides on the bit patterns what it can,
 *   where no device may change the answer, and the CPU references (reference/) follow
 *   the same rules:
 *   - min, max, argmin, argmax (scan and reduce, every algorithm) order values by
 *     their bits: -inf < negative numbers < -0 < +0 < positive numbers < +inf, the
 *     subnormals in their place, never flushed. A NaN (any sign or payload) wins: min
 *     and max give a NaN where the elements hold one (which NaN is not defined);
 *     argmin and argmax give the smallest index holding a NaN. Ties go to the smallest
 *     index, and arg ops return that element's own bits (-0 and +0 told apart). The
 *     identities stay +inf (min) and -inf (max): for n = 0, and at an exclusive scan's
 *     start.
 *   - Predicates (count, select IF) compare as IEEE 754 does: a NaN element or operand
 *     makes EQUAL, LESS, GREATER and IN_RANGE false and NOT_EQUAL true; -0 equals +0;
 *     a subnormal is the number it is, not 0. NONZERO holds for all but -0 and +0
 *     (NaN included). Operands are rounded to f32 (beyond its range: an infinity).
 *   - UNIQUE and RUN_LENGTH start a run where x[i] != x[i - 1] in IEEE 754's sense:
 *     each NaN is a run of its own, -0 and +0 are one run, different subnormals are
 *     different runs. What select, partition, min and max move keeps its bits.
 *   - Sums (scan, reduce) are the device's arithmetic. With finite elements, the
 *     bounds of those sections hold plus what flushing costs: each flush moves a value
 *     by less than the smallest normal m (2^-126 for f32, 2^-14 for f16), and a sum
 *     of k elements is a tree of k inputs and k - 1 additions, so 2 k m at most.
 *     Infinities and NaN give what IEEE 754 gives (a NaN where the elements hold a NaN
 *     or both infinities, else the infinity) on devices that keep them, as SwiftShader
 *     and NVIDIA's Vulkan driver do in the tests; WGSL does not promise it. A sum
 *     whose partial sums overflow may be an infinity or NaN where the exact sum is
 *     finite. FIXED_POINT sums need finite elements (see its range).
 *   - Histogram: the range test is exact and NaN and the infinities are in no bin;
 *     the bounds are checked so that the bin arithmetic stays exact and finite (see
 *     its section).
 *   - The radix sort (wgs_sort_*) orders f32 by the same bits as a total order: every bit
 *     of a negative value flipped, the sign bit of a positive one set, so negative
 *     NaNs come first and positive NaNs last.
 */
#ifndef WGSCAN_H
#define WGSCAN_H

#include <stddef.h>
#include <stdint.h>

/* The WebGPU types: a real webgpu.h where the program has one, included before or after
 * this header (no macro needed), else our declarations of the runtime's ABI, webgpu.h
 * of June 2025 (webgpu-headers c13888a). wgscan_webgpu.h says how. */
#include "wgscan_webgpu.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WGSCAN_VERSION_MAJOR 0
#define WGSCAN_VERSION_MINOR 2
#define WGSCAN_VERSION_PATCH 0
/* MAJOR*10000 + MINOR*100 + PATCH, what wgs_version() returns (as ZSTD_VERSION_NUMBER). */
#define WGSCAN_VERSION_NUMBER \
    (WGSCAN_VERSION_MAJOR * 10000 + WGSCAN_VERSION_MINOR * 100 + WGSCAN_VERSION_PATCH)

#if defined(_WIN32) && defined(WGSCAN_SHARED)
#ifdef WGSCAN_BUILDING
#define WGS_API __declspec(dllexport)
#else
#define WGS_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define WGS_API __attribute__((visibility("default")))
#else
#define WGS_API
#endif

/* ---------------------------------------------------------------------------
 * Results. One list yields the enum, the names and the default messages, so a
 * test can assert exactly which error fired. Numbers are never reused.
 * ------------------------------------------------------------------------- */
#define WGS_RESULT_LIST(X)                                                                       \
    X(WGS_OK, 0, "success")                                                                      \
    X(WGS_ERROR_INVALID_ARGUMENT, 1, "invalid argument (NULL pointer or out-of-range field)")    \
    X(WGS_ERROR_UNSUPPORTED_TYPE, 2, "element type not supported")                               \
    X(WGS_ERROR_UNSUPPORTED_OPERATOR, 3, "operator not supported for this element type")        \
    X(WGS_ERROR_FEATURE_MISSING, 4, "the device lacks a WebGPU feature this needs")              \
    X(WGS_ERROR_CAPACITY_EXCEEDED, 5, "n is larger than the plan's capacity")                     \
    X(WGS_ERROR_BUFFER_TOO_SMALL, 6, "buffer range extends past the end of the buffer")          \
    X(WGS_ERROR_MISALIGNED_OFFSET, 7, "buffer offset is not a multiple of the required alignment") \
    X(WGS_ERROR_BUFFER_USAGE, 8, "buffer lacks a required usage flag")                           \
    X(WGS_ERROR_ALIASING, 9, "input and output share a buffer at different offsets")             \
    X(WGS_ERROR_TOO_LARGE, 10, "size exceeds what this device can hold")                        \
    X(WGS_ERROR_OUT_OF_HOST_MEMORY, 11, "host memory allocation failed")                         \
    X(WGS_ERROR_RUNTIME_NOT_FOUND, 12, "no WebGPU runtime library could be loaded")              \
    X(WGS_ERROR_NO_ADAPTER, 13, "no WebGPU adapter found")                                       \
    X(WGS_ERROR_DEVICE_REQUEST_FAILED, 14, "the adapter refused to create a device")             \
    X(WGS_ERROR_GPU_VALIDATION, 15, "WebGPU validation error")                                   \
    X(WGS_ERROR_GPU_OUT_OF_MEMORY, 16, "WebGPU out-of-memory error")                             \
    X(WGS_ERROR_GPU_INTERNAL, 17, "WebGPU internal error")                                       \
    X(WGS_ERROR_DEVICE_LOST, 18, "the WebGPU device was lost")                                   \
    X(WGS_ERROR_MAP_FAILED, 19, "mapping a buffer for reading failed")                           \
    X(WGS_ERROR_TIMEOUT, 20, "the GPU did not finish in time")                                   \
    X(WGS_ERROR_WRONG_CONTEXT, 21, "object belongs to another context")                          \
    X(WGS_ERROR_SEGMENTS_UNORDERED, 22, "segment offsets are out of order")                        \
    X(WGS_ERROR_SEGMENT_OUT_OF_RANGE, 23, "a segment offset lies past the end of the values")      \
    X(WGS_ERROR_OPERATOR_TYPE, 24, "the operator's element type is not a 32-bit scalar, a vector of them or a struct of such fields") \
    X(WGS_ERROR_OPERATOR_TOO_LARGE, 25, "the operator's element type is larger than 16 bytes")     \
    X(WGS_ERROR_OPERATOR_IDENTITY, 26, "the operator's identity is not the element type's size")   \
    X(WGS_ERROR_OPERATOR_RESERVED_NAME, 27, "the operator's WGSL uses a name or construct reserved to wgscan") \
    X(WGS_ERROR_OPERATOR_COMPILE, 28, "the operator's WGSL does not compile")

typedef enum wgs_result {
#define WGS_RESULT_ENUM_(sym, num, msg) sym = num,
    WGS_RESULT_LIST(WGS_RESULT_ENUM_)
#undef WGS_RESULT_ENUM_
    WGS_RESULT_FORCE32 = 0x7FFFFFFF
} wgs_result;

/* "WGS_ERROR_BUFFER_TOO_SMALL" for WGS_ERROR_BUFFER_TOO_SMALL; "WGS_UNKNOWN_RESULT" for
 * numbers not in the list. Never NULL; thread-safe. */
WGS_API const char *wgs_result_name(wgs_result result);
/* The default one-line description of a result. Never NULL; thread-safe. */
WGS_API const char *wgs_result_description(wgs_result result);

/* The version of the library linked (which may differ from the header's WGSCAN_VERSION_*
 * when linking a shared library): MAJOR*10000 + MINOR*100 + PATCH, and "MAJOR.MINOR.PATCH".
 * Never fail; thread-safe. */
WGS_API unsigned wgs_version(void);
WGS_API const char *wgs_version_string(void);

/* ---------------------------------------------------------------------------
 * Element types and operators. 0 always means "default".
 * ------------------------------------------------------------------------- */
typedef enum wgs_type {
    WGS_TYPE_DEFAULT = 0, /* u32 */
    WGS_TYPE_U32 = 1,
    WGS_TYPE_I32 = 2,
    WGS_TYPE_F32 = 3,
    WGS_TYPE_F16 = 4, /* needs the device feature shader-f16 */
    WGS_TYPE_U64 = 5, /* sort keys only: two little-endian words */
    WGS_TYPE_I64 = 6, /* sort keys only */
    WGS_TYPE_FORCE32 = 0x7FFFFFFF
} wgs_type;

typedef enum wgs_op {
    WGS_OP_DEFAULT = 0, /* add */
    WGS_OP_ADD = 1,
    WGS_OP_MIN = 2,
    WGS_OP_MAX = 3,
    WGS_OP_AND = 4, /* integers only */
    WGS_OP_OR = 5,  /* integers only */
    WGS_OP_XOR = 6, /* integers only */
    /* Reduce only: the smallest (largest) value and the smallest index holding it. */
    WGS_OP_ARGMIN = 7,
    WGS_OP_ARGMAX = 8,
    WGS_OP_FORCE32 = 0x7FFFFFFF
} wgs_op;

/* Bytes per element of a type (2 for f16), 0 for an unknown type. */
WGS_API size_t wgs_type_size(wgs_type type);
/* "u32", "add", ... for messages and file names; "?" when unknown. */
WGS_API const char *wgs_type_name(wgs_type type);
WGS_API const char *wgs_op_name(wgs_op op);

/* ---------------------------------------------------------------------------
 * Context
 * ------------------------------------------------------------------------- */
typedef struct wgs_context wgs_context;

typedef enum wgs_adapter_preference {
    WGS_ADAPTER_DEFAULT = 0, /* a discrete GPU, then integrated, else a CPU driver */
    WGS_ADAPTER_GPU = 1,     /* fail with WGS_ERROR_NO_ADAPTER unless a real GPU is found */
    WGS_ADAPTER_CPU = 2,     /* the CPU (SwiftShader) driver even where a GPU exists */
    WGS_ADAPTER_FORCE32 = 0x7FFFFFFF
} wgs_adapter_preference;

typedef enum wgs_log_level {
    WGS_LOG_ERROR = 0,
    WGS_LOG_WARNING = 1,
    WGS_LOG_INFO = 2,
    WGS_LOG_FORCE32 = 0x7FFFFFFF
} wgs_log_level;

/* Receives every error message (and warnings); called on the thread that made the call. */
typedef void (*wgs_log_fn)(wgs_log_level level, wgs_result result, const char *message,
                           void *user);

typedef enum wgs_driver_output {
    WGS_DRIVER_OUTPUT_LOG = 0,
    WGS_DRIVER_OUTPUT_STDERR = 1,
    WGS_DRIVER_OUTPUT_FORCE32 = 0x7FFFFFFF
} wgs_driver_output;

typedef struct wgs_context_desc {
    /* Path of the WebGPU runtime library. NULL: $WGSCAN_WEBGPU_LIB; else the pinned Dawn
     * beside the library (<libdir>/wgscan/libwebgpu_wrapper.so, for libwgscan.so), or
     * beside the program (../lib/wgscan from its folder, for programs linked with the
     * static library), or by name through the program's run path (which the build tree's
     * programs and pkg-config --static give); then libwebgpu_dawn.so, libwgpu_native.so,
     * libwebgpu.so. `wgscan info` prints the one loaded. Ignored by create_from_device. */
    const char *runtime_library;
    wgs_adapter_preference adapter;
    wgs_log_fn log;
    void *log_user;
    /* Vulkan drivers and the runtime print to the process's stderr while the adapters
     * are probed (Mesa, for instance, on every start). LOG (default): wgs_context_create
     * routes file descriptor 2 into a temporary file while it probes and passes each
     * captured line to `log` at WGS_LOG_INFO (nowhere without `log`); whatever another
     * thread writes to stderr in that moment goes the same way. STDERR: stderr is left
     * alone. Ignored by create_from_device and in the browser. */
    wgs_driver_output driver_output;
    /* How long a wait on the GPU (wgs_wait, wgs_buffer_read, the host helpers) may
     * take before it fails with WGS_ERROR_TIMEOUT; 0: 900 s. Kept to within the
     * scheduler's delay (about a millisecond), per wait. (Not the adapter and device
     * requests of the creation, which keep 900 s.) */
    double wait_timeout_s;
    /* Experiments and testing aids (forced tile shapes, forced fallbacks, lowered
     * limits): NULL for normal use. The struct is declared only where
     * WGSCAN_EXPERIMENTAL_API is defined before including this header; its fields may
     * change between versions. */
    const struct wgs_experimental *experimental;
    /* Which of the adapters that match `adapter` to take, counted from 0 (the default
     * choice): a program with one process a GPU (wgscan_mpi's ranks) gives each its
     * own. wgs_context_info.adapter_count says how many there are to choose from; an
     * index at or past it fails with WGS_ERROR_NO_ADAPTER. Dawn and the browser offer
     * no enumeration through webgpu.h, only the one adapter wgpuInstanceRequestAdapter
     * picks: there the count is 1. Ignored by create_from_device. */
    uint32_t adapter_index;
} wgs_context_desc;

#ifdef WGSCAN_EXPERIMENTAL_API
/* The experimental door (see wgs_context_desc.experimental): for the tests, the
 * benchmarks and the kernel laboratory. Zero in any field keeps the library's choice;
 * values the device cannot run are refused with WGS_ERROR_INVALID_ARGUMENT. */
typedef struct wgs_tile_shape {
    uint32_t wg;    /* invocations per workgroup: a power of two */
    uint32_t items; /* elements per invocation: a power of two */
} wgs_tile_shape;

enum {
    WGS_EXPERIMENTAL_PHASE_COUNT = 1u,   /* select's (or sort's) count pass */
    WGS_EXPERIMENTAL_PHASE_SCAN = 2u,    /* the scan of the group counts */
    WGS_EXPERIMENTAL_PHASE_SCATTER = 4u, /* the scatter */
    /* The sort's passes without a part of their work (timing only): the look-back, the
     * ranking, the writes. */
    WGS_EXPERIMENTAL_PHASE_SKIP_LOOKBACK = 8u,
    WGS_EXPERIMENTAL_PHASE_SKIP_RANK = 16u,
    WGS_EXPERIMENTAL_PHASE_SKIP_WRITE = 32u,
};

/* The top-k's multi-pass phases (wgs_experimental.topk_phases). */
enum {
    WGS_EXPERIMENTAL_TOPK_HISTOGRAM = 1u,  /* the first read: the top digit's counts, its pick */
    WGS_EXPERIMENTAL_TOPK_FILTER = 2u,     /* the second read: the candidates, the second pick */
    WGS_EXPERIMENTAL_TOPK_CANDIDATES = 4u, /* the candidates' digits and tile counts */
    WGS_EXPERIMENTAL_TOPK_SCAN = 8u,       /* the scan of the tile counts */
    WGS_EXPERIMENTAL_TOPK_WRITE = 16u,     /* the write, and the ranking or sort of the k */
};

typedef struct wgs_experimental {
    /* Lower (never raise) the limits the algorithms plan with, so that the
     * multi-binding and two-dimensional grid paths run on small inputs. The binding
     * size must hold at least one tile of every primitive: 64 KiB or more. */
    uint32_t max_workgroups_per_dimension;
    uint64_t max_storage_binding_size;
    int disable_subgroups; /* the portable workgroup-memory kernels even with subgroups */
    /* Chained passes: fruitless look-back steps before a fallback (0: 16, the one-sweep
     * sort the tuning table's; 1 makes fallbacks common), and predecessor states read
     * per lane and step (1..8; 0: 1, the one-sweep sort the tuning table's). */
    uint32_t lookback_spins;
    uint32_t lookback_per_lane;
    /* Chained passes publish no inclusive prefix but tile 0's and closed tiles' (a tile
     * with a segment start), so that every look-back walks back to one of those: a test
     * of the walk and of the order it folds in. Slow (each walk is long). */
    int chain_withhold_inclusive;
    /* Tile 0 of the chained passes (the scan by key, the segmented scan, select's
     * single pass, the scan with and without subgroups) publishes nothing, so that the
     * first look-back to reach it rebuilds it (a fallback, after its spins): a test of
     * that rebuild, where the scan by key's carry-in lives. A look-back cannot rebuild
     * a tile of an earlier chunk, so the first chunk must hold two tiles or more. */
    int chain_withhold_first;
    /* Tile shapes instead of the tuning table's. */
    wgs_tile_shape scan_single_pass, scan_multilevel, select, reduce;
    /* The single pass's persistent workgroups (with subgroups): the grid, at most; 0:
     * the tuning table's. */
    uint32_t scan_single_pass_groups;
    uint32_t select_group_tiles; /* select's tiles per group: 1..16, a power of two */
    uint32_t reduce_groups;      /* reduce's grid: workgroups at most */
    wgs_tile_shape segmented;    /* the segmented reduce's tile (items a multiple of 4) */
    uint32_t segmented_groups;   /* and its grid: workgroups at most */
    wgs_tile_shape scan_by_key;  /* the scan by key's tile (items a multiple of 4) */
    int copy_scalar;             /* wgs_copy_encode with 4-byte loads */
    /* Host transfers (wgs_buffer_write, wgs_buffer_read): bytes per staging buffer and
     * GPU copy (a multiple of 64 KiB up to 1 GiB), staging buffers per direction
     * (1..16), host threads per memcpy (1..16), the largest upload that goes through
     * wgpuQueueWriteBuffer instead (1: none), or the path before the staging rings
     * (transfer_legacy: QueueWriteBuffer up, one staging buffer at a time down), for
     * comparison. */
    uint64_t transfer_chunk_bytes;
    uint32_t transfer_slots;
    uint32_t transfer_threads;
    uint64_t transfer_direct_max;
    int transfer_legacy;
    /* Select records only these phases (WGS_EXPERIMENTAL_PHASE_*; 0: all), so that a
     * benchmark can time each: the output is then wrong. */
    uint32_t select_phases;
    /* The sort's tile (the reduce-then-scan sort with subgroups: any workgroup of
     * whole subgroups and 32-invocation groups, any items up to 64; else a workgroup
     * dividing 256) and tiles per group (1..64, a power of two), groups a workgroup of
     * its count kernel (1..16, a power of two), and the phases it records (the same
     * bits: count, the scan of the counts, scatter; 0: all; the output is then wrong). */
    wgs_tile_shape sort;
    uint32_t sort_group_tiles;
    uint32_t sort_count_groups;
    uint32_t sort_phases;
    /* With the count on the GPU, the reduce-then-scan's count and scatter grids of at
     * most this many workgroups are dispatched as the bound's (their spare workgroups
     * return), larger ones indirect; 0: the tuning table's (CPU drivers: always
     * indirect), 1: indirect past a workgroup. */
    uint32_t sort_direct_max;
    /* A tile's digit of each key (the sorts' and the segmented sort's tiles): 0 the
     * plan's choice (held in a register for keys alone and 64-bit keys, else computed
     * again where it is used), 1 always held, 2 always computed again. */
    uint32_t sort_digits;
    /* DEFAULT's one-sweep bound instead of the tuning row's sort_onesweep_max (and of its
     * sort_onesweep_values_max too, unless the next field is set): a plan of that many
     * keys or fewer sorts by one-sweep; a larger plan keeps a one-sweep plan of the bound
     * beside it for sorts of n at most the bound known on the host. */
    uint32_t sort_onesweep_max;
    /* The same for one-word values and indices ranked by subgroups, instead of the
     * tuning row's sort_onesweep_values_max; past 2^30 - 1 the companion plan takes the
     * keys' bound. */
    uint32_t sort_onesweep_values_max;
    /* Where a sort tile stages its keys and values between ranking and writing: 0 in
     * its counters' room of atomic words (the default: one room, less workgroup
     * memory), 1 in plain words of their own beside the counters, 2 in the room half
     * a tile at a time (tiles of an even count of rows; others stage as 0). */
    uint32_t sort_stage;
    /* The top-k's tile, the tiles each workgroup of its passes over the keys (the top
     * digit's histogram, the filter) takes before it adds to the row's counts (1..64, a
     * power of two), and the tiles each workgroup of its write takes (1..32, a power of
     * two; at most the workgroup's invocations). */
    wgs_tile_shape topk;
    uint32_t topk_hist_tiles;
    uint32_t topk_write_tiles;
    /* The multi-pass top-k records only these phases (WGS_EXPERIMENTAL_TOPK_*; 0: all),
     * so that a benchmark can time each: the output is then wrong. */
    uint32_t topk_phases;
    /* The top-k's path: 0 the plan's choice, 1 always the multi-pass radix select, 2
     * always one workgroup a row (a plan of capacity or k_capacity past what that path
     * takes is then refused). The row kernel's shape (its workgroup, and keys an
     * invocation loads at once: 1..16, a power of two), and its candidates' room in
     * workgroup memory (0: what the device's limit leaves, up to 4096; a small room
     * sends most rows through the kernel's passes over global memory). */
    uint32_t topk_path;
    wgs_tile_shape topk_rows;
    uint32_t topk_rows_candidates;
    /* The segmented sort's tile (the longest segment one workgroup sorts in its memory;
     * its workgroup at most 256), the tile of its passes a workgroup a segment through
     * global memory, and the longest segment those take (0: the tuning table's; one at
     * most the tile: none, the radix sorts take every segment past the tile). */
    wgs_tile_shape segmented_sort, segmented_sort_block;
    uint32_t segmented_sort_block_max;
    /* Dawn device toggles to enable, comma-separated (NULL: none). */
    const char *dawn_toggles;
    /* Fault injection for the tests: the parameter ring's creation fails. */
    int fail_param_ring;
} wgs_experimental;

/* Bytes of GPU buffers the context has created so far (plans, parameter rings, host
 * buffers: a running total that releases do not lower). The tests hold each plan's
 * scratch size to what its creation added. */
WGS_API uint64_t wgs_experimental_buffer_bytes_created(const wgs_context *ctx);

/* Pipelines the context compiled into its cache so far: created by plan creation (one
 * at a time, as it went) and prepared by wgs_prepare (asynchronously). Plans share
 * cached pipelines, so counts that stay put across a plan's creation mean that it
 * compiled nothing (the JavaScript package's wg.pipelines). */
typedef struct wgs_experimental_pipeline_counts {
    uint64_t created;
    uint64_t prepared;
} wgs_experimental_pipeline_counts;
WGS_API wgs_experimental_pipeline_counts wgs_experimental_pipelines(const wgs_context *ctx);

/* What encodes have asked of WebGPU so far (running totals): bind groups created, and
 * parameter records and count rules written to the GPU. An encode repeated with the
 * same plan, buffers and arguments reuses both (its bind groups are cached, its
 * records already written), so these stay put across it. */
typedef struct wgs_experimental_encode_counts {
    uint64_t bind_groups_created;
    uint64_t records_written;
} wgs_experimental_encode_counts;
WGS_API wgs_experimental_encode_counts wgs_experimental_encodes(const wgs_context *ctx);
#endif

/* Loads the runtime, picks an adapter and creates a device (see the manual).
 * Cost: loads a shared library, creates a device; seconds on a CPU driver.
 * On failure *out is NULL and the result says why (the message goes to desc->log). */
WGS_API wgs_result wgs_context_create(const wgs_context_desc *desc, wgs_context **out);

typedef struct wgs_external_device {
    WGPUInstance instance; /* required: wgscan waits on futures with it */
    WGPUDevice device;     /* required */
    /* How to find the WebGPU functions: wgpuGetProcAddress of the implementation that
     * made the device. Required. */
    WGPUProcGetProcAddress get_proc_address;
} wgs_external_device;

/* Wraps a device the caller already has. wgscan adds a reference to the instance and
 * device and releases them on destroy. Errors of wgscan's own calls are caught with
 * error scopes; device loss is seen only through failing calls (the device's lost
 * callback belongs to whoever created it). */
WGS_API wgs_result wgs_context_create_from_device(const wgs_external_device *device,
                                                  const wgs_context_desc *desc,
                                                  wgs_context **out);

/* Releases everything the context holds. Accepts NULL. Plans must be destroyed first.
 * Two things stay for the life of the process, whatever is destroyed: the WebGPU runtime
 * once loaded, and the first context's adapter with its instance, which keeps the GPU's
 * driver loaded (some drivers crash when unloaded and loaded again while other contexts
 * work). */
WGS_API void wgs_context_destroy(wgs_context *ctx);

/* The message of the last failure on this context ("" when none). Valid until the next
 * call on the context. */
WGS_API const char *wgs_context_last_error(const wgs_context *ctx);

typedef struct wgs_context_info {
    char vendor[64];
    char architecture[64];
    char device[128];
    char description[128];
    char backend[16];      /* "vulkan", "metal", ... */
    char adapter_type[16]; /* "discrete", "integrated", "cpu", "unknown" */
    char runtime_path[512]; /* the WebGPU library loaded; "" for an external device */
    char adapter_features[256]; /* the adapter's WebGPU feature numbers, "0x3 0x11 ..." */
    uint32_t vendor_id, device_id;
    uint32_t subgroup_min_size, subgroup_max_size;
    int has_subgroups, has_timestamp_query, has_shader_f16;
    uint64_t max_buffer_size;
    uint64_t max_storage_binding_size; /* after any debug cap */
    uint32_t max_workgroups_per_dimension; /* after any debug cap */
    uint32_t max_workgroup_storage_size;
    uint32_t max_invocations_per_workgroup;
    uint32_t max_workgroup_size_x;
    uint32_t min_storage_offset_alignment;
    uint32_t min_uniform_offset_alignment;
    uint32_t max_storage_buffers_per_stage;
    /* Adapters matching the preference that wgs_context_desc.adapter_index could pick
     * (1 on Dawn and in the browser; 0 for a native create_from_device). */
    uint32_t adapter_count;
} wgs_context_info;

WGS_API wgs_result wgs_context_get_info(const wgs_context *ctx, wgs_context_info *info);

/* The context's objects, borrowed (no reference added): use them to create buffers and
 * encoders for wgs_scan_encode. */
WGS_API WGPUDevice wgs_context_device(const wgs_context *ctx);
WGS_API WGPUQueue wgs_context_queue(const wgs_context *ctx);
WGS_API WGPUInstance wgs_context_instance(const wgs_context *ctx);
/* The WebGPU function table wgscan resolved: pass names like "wgpuDeviceCreateBuffer". */
WGS_API WGPUProc wgs_context_get_proc(const wgs_context *ctx, const char *name);

/* ---------------------------------------------------------------------------
 * Scan
 * ------------------------------------------------------------------------- */
typedef struct wgs_scan_plan wgs_scan_plan;

typedef enum wgs_scan_kind {
    WGS_SCAN_DEFAULT = 0, /* exclusive */
    WGS_SCAN_EXCLUSIVE = 1, /* out[i] = x[0] op ... op x[i-1]; out[0] = identity */
    WGS_SCAN_INCLUSIVE = 2, /* out[i] = x[0] op ... op x[i] */
    WGS_SCAN_KIND_FORCE32 = 0x7FFFFFFF
} wgs_scan_kind;

typedef enum wgs_scan_algorithm {
    /* The plan chooses per encode (see wgs_scan_plan_algorithm): the single pass for
     * out-of-place scans up to 2^24 elements, else multi-level; always multi-level in
     * place or when `deterministic` is set. */
    WGS_SCAN_ALGORITHM_DEFAULT = 0,
    /* Reduce, then scan: tile totals from one read of the data, the totals scanned
     * level by level, then every tile scanned from its prefix and stored. Reads the data
     * twice and writes it once; runs in place. */
    WGS_SCAN_ALGORITHM_MULTILEVEL = 1,
    /* Chained scan with decoupled look-back and decoupled fallback: one pass, the data
     * read once and written once. Safe without forward-progress guarantees between
     * workgroups (a waiting workgroup reduces a stalled predecessor's tile itself).
     * Cannot run in place (the fallback rereads predecessors' input): an in-place
     * encode with this algorithm forced fails with WGS_ERROR_ALIASING. Float sums vary
     * in their last bits from run to run (the look-back splits the sum differently). */
    WGS_SCAN_ALGORITHM_SINGLE_PASS = 2,
    WGS_SCAN_ALGORITHM_FORCE32 = 0x7FFFFFFF
} wgs_scan_algorithm;

/* Float results: the identity of min is +inf, of max -inf; min and max are exact and a
 * NaN wins (manual, "Floats"); sums are computed in a tree, so each output differs
 * from the exact sum by at most 128 rounding steps of the type times the sum of
 * magnitudes up to it, plus 2 (i + 1) smallest normals on devices that flush
 * subnormals (the tests check this bound against a double-precision reference). */
/* ---------------------------------------------------------------------------
 * Your own operator: an element type and an associative combining function, in WGSL
 * ------------------------------------------------------------------------- */
/* The scans, the reduce, the segmented reduce and scan, the scan by key and the reduce
 * by key take it (their descriptions' `custom`) instead of type and op,
 * which are then left 0. wgscan composes it into its kernels through the prelude, as
 * it does the built-in operators: `source` comes first in every kernel, unchanged (so
 * a compiler's message names your own line numbers), then the prelude makes
 * `element` the kernels' element type and calls `combine` wherever a built-in
 * operator would combine.
 *
 * element: u32, i32, f32; vec2 or vec4 of them (vec2<f32>, vec4u, ...); or the name
 *   of a struct declared in `source` whose fields are 1 to 4 of u32, i32, f32 with no
 *   attributes. Buffers hold elements as WGSL lays out array<element>: 4 bytes a field,
 *   no padding. vec3 (stride 16 for 12 bytes) and f16 are refused
 *   (WGS_ERROR_OPERATOR_TYPE); more than 16 bytes: WGS_ERROR_OPERATOR_TOO_LARGE.
 * combine: the name of a function in `source`, fn (a: element, b: element) -> element,
 *   associative: combine(combine(a, b), c) == combine(a, combine(b, c)) for the
 *   values you scan. `a` is the earlier part of the input. wgscan never assumes it
 *   commutes unless `commutative` says so, and keeps the input's order everywhere.
 * identity: identity_size bytes, the element's size (else WGS_ERROR_OPERATOR_IDENTITY):
 *   combine(identity, x) == combine(x, identity) == x.
 * commutative: non-zero lets a primitive combine in another order. Results are the
 *   same bits run to run either way (custom operators always fold the look-back in
 *   tile order).
 *
 * What `source` may use: its own structs, constants, aliases and functions, WGSL's
 * built-in value functions, and nothing of wgscan's. It may not declare module-scope
 * `var` or `override`, bindings, entry points or directives (enable, requires,
 * diagnostic), nor call barriers, atomics, subgroup or quad operations or textures;
 * and it may not use a name that any wgscan kernel declares at module scope (T, WG,
 * combine, params, tile, ...) or any ALL_CAPS name a kernel uses, nor any name
 * beginning with "wgs". Such text is refused
 * with WGS_ERROR_OPERATOR_RESERVED_NAME naming the word and its line. So the
 * function sees only its arguments: it cannot reach wgscan's bindings or state.
 * Text that does not compile is refused at plan creation with
 * WGS_ERROR_OPERATOR_COMPILE, the log carrying the compiler's message with the line
 * in your `source`. All of these are found before any GPU work is recorded.
 *
 * The scan and reduce of a custom operator run the built-in operators' scan kernels
 * (row tiles and subgroup scans where the device has subgroups; a vector or struct
 * element is shuffled as its 32-bit words), in input order unless `commutative` says
 * otherwise; without subgroups, the portable tiles (workgroup memory). The other
 * primitives run a custom operator on their portable kernels. The description and its
 * strings are read during the call that takes it and need not outlive it. */
typedef struct wgs_operator_desc {
    const char *source;
    const char *element;
    const char *combine;
    const void *identity;
    size_t identity_size;
    int commutative;
} wgs_operator_desc;

typedef struct wgs_scan_plan_desc {
    wgs_type type;
    wgs_op op;
    wgs_scan_kind kind;
    wgs_scan_algorithm algorithm;
    /* Non-zero: the same input gives bit-identical output on every run (a fixed
     * combination tree: the multi-level algorithm). Matters for f32/f16 sums only;
     * with an algorithm forced to SINGLE_PASS it is refused (WGS_ERROR_INVALID_ARGUMENT). */
    int deterministic;
    uint64_t capacity; /* largest n this plan will encode; 0 means 1 */
    const char *label; /* for WebGPU object labels; may be NULL */
    /* Your own operator (above) instead of type and op (both then 0; else
     * WGS_ERROR_INVALID_ARGUMENT). Buffers, n and the carry-in are then in elements of
     * its type (init_value: the element's bytes; init_buffer: one element). A count
     * from the GPU (args.n_buffer) works as for the built-ins. */
    const wgs_operator_desc *custom;
} wgs_scan_plan_desc;

#define WGS_PARAM_RING_RECORDS 1024

/* Creates a plan: validates the description, compiles (or takes from the context's
 * cache) the pipelines and allocates scratch for `capacity` elements (about
 * capacity / 2048 elements). */
WGS_API wgs_result wgs_scan_plan_create(wgs_context *ctx, const wgs_scan_plan_desc *desc,
                                        wgs_scan_plan **out);
/* Accepts NULL. */
WGS_API void wgs_scan_plan_destroy(wgs_scan_plan *plan);

/* Bytes of GPU memory the plan holds (for memory budgeting; 0 for NULL). Every plan kind
 * has this query (wgs_<kind>_plan_scratch_size), each the sum of the buffers its
 * creation made, inner plans' included; wgs_<kind>_plan_desc_scratch_size gives it
 * before creation (see "GPU memory before creation"). */
WGS_API uint64_t wgs_scan_plan_scratch_size(const wgs_scan_plan *plan);
/* The algorithm an encode of n elements with this plan uses (in_place: input = output).
 * By default: the single pass up to WGS_SCAN_SINGLE_PASS_MAX_N elements out of place,
 * else the multi-level scan (faster above that size on the GPUs measured so far, see
 * BENCHMARKS.md). */
WGS_API wgs_scan_algorithm wgs_scan_plan_algorithm(const wgs_scan_plan *plan, uint64_t n, int in_place);
#define WGS_SCAN_SINGLE_PASS_MAX_N (1ull << 24)
/* Elements one workgroup of `algorithm` scans (its tile) in this plan; 0 when the plan
 * never uses that algorithm. Sizes around multiples of it and of its
 * square are where the algorithm changes shape: useful for tests. */
WGS_API uint32_t wgs_scan_plan_tile_size(const wgs_scan_plan *plan, wgs_scan_algorithm algorithm);

typedef struct wgs_scan_args {
    WGPUBuffer input;
    uint64_t input_offset; /* bytes */
    WGPUBuffer output;     /* may equal input with the same offset: in place */
    uint64_t output_offset;
    uint64_t n; /* elements; 0 records nothing */
    /* Optional carry-in (CUB's initial value), so that a scan can continue another one:
     * the scan runs as if this value stood before the input. An exclusive scan's first
     * output is the carry, an inclusive scan's the carry combined with the first
     * element. From init_buffer (one element at init_offset, which is aligned as every
     * offset; f16 in the low half of the word there; Storage usage), read when the scan
     * runs, else from *init_value (one element of the plan's type, copied while
     * encoding); neither: the operator's identity. Floats: each tile's prefix is
     * combined with the carry, carry + (prefix + element). */
    const void *init_value;
    WGPUBuffer init_buffer;
    uint64_t init_offset;
    /* Optional: a timestamp query set; the begin index is written when the scan's
     * first pass starts and the end index when its last pass ends. Requires the
     * timestamp-query feature. Leave query_set NULL for none. */
    WGPUQuerySet timestamp_query_set;
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
    /* Optional: the element count from the GPU, so that a count another pass wrote
     * (a select's, a reduce by key's number of runs) needs no read-back. From n_buffer
     * (one u32 at n_offset, a multiple of 4; Storage usage), read when the scan runs:
     * the scan then works on the first min(that count, n) elements, as a scan of that
     * n would, and writes nothing past them (a count of 0 writes nothing). n is the
     * bound: the buffer checks and the capacity check take it as without n_buffer,
     * and so do the algorithm's choice and the chunking. Costs one more small
     * dispatch, and the scan's dispatches become indirect ("Counts on the GPU"). */
    WGPUBuffer n_buffer;
    uint64_t n_offset;
} wgs_scan_args;

/* Records the scan into `encoder` (one compute pass). Never submits or waits; creates
 * bind groups for the given buffers and releases its own references at once (the
 * command buffer keeps them alive). Its parameters go to the context's parameter ring
 * with wgpuQueueWriteBuffer (see "Parameter records"; a full ring is replaced by a new
 * buffer).
 * Preconditions: see "Buffers passed to wgs_scan_encode". */
WGS_API wgs_result wgs_scan_encode(wgs_scan_plan *plan, WGPUCommandEncoder encoder,
                                   const wgs_scan_args *args);

/* Convenience: scans n elements of host memory `input` into host memory `output`
 * (which may equal input). Creates a plan and buffers, uploads, runs, downloads and
 * waits. Cost: allocates n elements of GPU memory (the scan runs in place), twice that
 * with the single-pass algorithm forced (it cannot run in place); blocks until done. */
WGS_API wgs_result wgs_scan_host(wgs_context *ctx, const wgs_scan_plan_desc *desc,
                                 const void *input, uint64_t n, void *output);


/* ---------------------------------------------------------------------------
 * Predicates: what count and select test each element against. Operands are given as
 * doubles and converted to the element type (exactly for integers: an operand that
 * the type cannot hold is refused with WGS_ERROR_INVALID_ARGUMENT).
 * ------------------------------------------------------------------------- */
typedef enum wgs_predicate_kind {
    WGS_PREDICATE_DEFAULT = 0,   /* non-zero */
    WGS_PREDICATE_NONZERO = 1,   /* v != 0 (f32: -0 is zero, NaN is not; manual "Floats") */
    WGS_PREDICATE_EQUAL = 2,     /* v == a */
    WGS_PREDICATE_NOT_EQUAL = 3, /* v != a */
    WGS_PREDICATE_LESS = 4,      /* v < a */
    WGS_PREDICATE_GREATER = 5,   /* v > a */
    WGS_PREDICATE_IN_RANGE = 6,  /* a <= v < b */
    WGS_PREDICATE_FORCE32 = 0x7FFFFFFF
} wgs_predicate_kind;

typedef struct wgs_predicate {
    wgs_predicate_kind kind;
    double a, b;
} wgs_predicate;

/* ---------------------------------------------------------------------------
 * Reduce and count
 *
 * A reduce plan folds n elements into one value with an operator; a count plan counts
 * the elements that satisfy a predicate. Both are wgs_reduce_plan and are encoded with
 * wgs_reduce_encode. Types: u32, i32, f32 (f16 is refused with
 * WGS_ERROR_UNSUPPORTED_TYPE). n may be 0: the result is then the identity (count 0;
 * arg index 0xFFFFFFFF).
 *
 * Algorithms:
 *   TREE (default)  each workgroup folds a fixed share of the array and writes a
 *                   partial; one more workgroup reduces the partials in a fixed order.
 *                   Deterministic: the same n and input give the same bits every run.
 *   ATOMIC          the two-level scheme: each workgroup reduces in workgroup memory,
 *                   then merges into one global accumulator with one atomic. For f32
 *                   sums the merge is a compare-exchange loop on the bit pattern
 *                   (float_sum CAS: the order of merges varies, so the last bits may
 *                   vary from run to run) or a 64-bit fixed-point integer add
 *                   (FIXED_POINT: integer addition is associative, so the result is
 *                   deterministic; each workgroup's sum is rounded to a multiple of
 *                   2^-fixed_point_bits and the total must stay below
 *                   2^(63 - fixed_point_bits) in magnitude). Arg-min/arg-max have no
 *                   atomic form (they need 64-bit atomics): refused with
 *                   WGS_ERROR_UNSUPPORTED_OPERATOR.
 *   ATOMIC_PER_ELEMENT  count plans only: one global atomic per counted element, the
 *                   naive counter, kept to measure what contention costs.
 *
 * Float sums differ from the exact sum by at most (n / 1024 + 64) rounding steps of
 * f32 times the sum of magnitudes (tree and CAS; the chain of additions any one value
 * goes through is that long at most), plus for FIXED_POINT one 2^-(fixed_point_bits+1)
 * per workgroup and the final rounding to f32, plus 2n 2^-126 on devices that flush
 * subnormals. NaN, infinities, -0 and subnormals: see "Floats" in the manual (min and
 * max exact and NaN-propagating; argmin and argmax the first NaN if any).
 *
 * Results are written to args.output at args.output_offset: the value's 4 bytes
 * (the count as u32), then for arg ops the index as u32 (8 bytes in all).
 * Indices and counts are 32-bit: arg plans and count plans hold at most 2^32 - 1
 * elements (WGS_ERROR_TOO_LARGE beyond).
 * ------------------------------------------------------------------------- */
typedef struct wgs_reduce_plan wgs_reduce_plan;

typedef enum wgs_reduce_algorithm {
    WGS_REDUCE_ALGORITHM_DEFAULT = 0, /* TREE */
    WGS_REDUCE_ALGORITHM_TREE = 1,
    WGS_REDUCE_ALGORITHM_ATOMIC = 2,
    WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT = 3, /* count plans only */
    WGS_REDUCE_ALGORITHM_FORCE32 = 0x7FFFFFFF
} wgs_reduce_algorithm;

typedef enum wgs_float_sum {
    WGS_FLOAT_SUM_DEFAULT = 0, /* CAS */
    WGS_FLOAT_SUM_CAS = 1,
    WGS_FLOAT_SUM_FIXED_POINT = 2,
    WGS_FLOAT_SUM_FORCE32 = 0x7FFFFFFF
} wgs_float_sum;

typedef struct wgs_reduce_plan_desc {
    wgs_type type;
    wgs_op op; /* add, min, max, and/or/xor (integers), argmin, argmax */
    wgs_reduce_algorithm algorithm;
    wgs_float_sum float_sum;     /* f32 add with the ATOMIC algorithm */
    uint32_t fixed_point_bits;   /* FIXED_POINT fraction bits, 1..40; 0 means 24 */
    uint64_t capacity;           /* largest n; 0 means 1 */
    const char *label;
    /* Your own operator ("Your own operator") instead of type and op (both 0, as
     * algorithm, float_sum and fixed_point_bits; else WGS_ERROR_INVALID_ARGUMENT). The
     * input holds its elements and the result is one element (n = 0: the identity),
     * combined in the input's order by tiles, level after level: the same bits on
     * every run; a count from the GPU (args.n_buffer) as for the built-ins (a count
     * of 0: the identity). */
    const wgs_operator_desc *custom;
} wgs_reduce_plan_desc;

typedef struct wgs_count_plan_desc {
    wgs_type type;
    wgs_predicate predicate;
    wgs_reduce_algorithm algorithm; /* TREE, ATOMIC or ATOMIC_PER_ELEMENT */
    uint64_t capacity;
    const char *label;
} wgs_count_plan_desc;

typedef struct wgs_reduce_args {
    WGPUBuffer input;
    uint64_t input_offset;
    uint64_t n;
    WGPUBuffer output; /* another buffer than input */
    uint64_t output_offset;
    /* Optional (count plans): this encode's predicate operands, as in wgs_select_args. */
    const wgs_predicate *predicate;
    WGPUQuerySet timestamp_query_set; /* optional, as in wgs_scan_args */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
    /* Optional: the element count from the GPU, as in wgs_scan_args (n the bound): the
     * result is that of the first min(count, n) elements, the identity (a count: 0)
     * for a count of 0, and the same bits as an encode of that n. */
    WGPUBuffer n_buffer;
    uint64_t n_offset;
} wgs_reduce_args;

WGS_API wgs_result wgs_reduce_plan_create(wgs_context *ctx, const wgs_reduce_plan_desc *desc,
                                          wgs_reduce_plan **out);
WGS_API wgs_result wgs_count_plan_create(wgs_context *ctx, const wgs_count_plan_desc *desc,
                                         wgs_reduce_plan **out);
/* Accepts NULL. */
WGS_API void wgs_reduce_plan_destroy(wgs_reduce_plan *plan);
/* Bytes of GPU memory the plan holds (0 for NULL): TREE 8 bytes a partial (a few per
 * workgroup of the grid), ATOMIC 256. */
WGS_API uint64_t wgs_reduce_plan_scratch_size(const wgs_reduce_plan *plan);
/* Records the reduction (one compute pass). Its parameters go to the context's
 * parameter ring (see "Parameter records"). */
WGS_API wgs_result wgs_reduce_encode(wgs_reduce_plan *plan, WGPUCommandEncoder encoder,
                                     const wgs_reduce_args *args);
/* Convenience: reduces host memory; `result` receives 4 bytes (8 for arg ops). Waits. */
WGS_API wgs_result wgs_reduce_host(wgs_context *ctx, const wgs_reduce_plan_desc *desc,
                                   const void *input, uint64_t n, void *result);
WGS_API wgs_result wgs_count_host(wgs_context *ctx, const wgs_count_plan_desc *desc,
                                  const void *input, uint64_t n, uint32_t *count);

/* ---------------------------------------------------------------------------
 * Segmented reduce: one reduction per segment of an array
 *
 * out[s] = the reduction of values[begin_s .. end_s) for each of n_segments segments,
 * with the operators and types of reduce (add, min, max, and/or/xor for integers,
 * argmin, argmax; u32, i32, f32). An empty segment gives the operator's identity
 * (argmin/argmax: the identity and the index 0xFFFFFFFF). Arg ops give the value and the
 * index of the element in the values (counted from args.input_offset, not from the
 * segment's begin), 8 bytes per segment; the others 4 bytes per segment.
 *
 * The segments (wgs_segments_form):
 *   OFFSETS (default)  CSR: n_segments + 1 u32 offsets; segment s is [offsets[s],
 *                      offsets[s + 1]).
 *   BEGIN_END          two arrays of n_segments u32, as CUB's DeviceSegmentedReduce:
 *                      segment s is [begin_offsets[s], end_offsets[s]). Gaps between
 *                      segments are allowed (their elements are in no segment).
 * Either way the segments must be in order and must not overlap:
 *   begin_s <= end_s <= begin_(s+1), and every offset <= n.
 * The GPU checks this as it reduces and writes the status word (args.status, optional):
 * 0, or WGS_ERROR_SEGMENTS_UNORDERED where a rule is broken, or
 * WGS_ERROR_SEGMENT_OUT_OF_RANGE where an offset lies past n (the larger number where
 * both happen). With a bad status the results are undefined, but nothing is written
 * outside the output's n_segments results and the kernels finish. The encode checks
 * only what the host knows (buffers, n, n_segments); wgs_segmented_reduce_host returns
 * the status as its result.
 *
 * How: the work is split by elements, never by segments, so the time depends on n
 * and hardly on the segments' lengths. Workgroups take tiles of the values (tile =
 * wgs_segmented_reduce_plan_tile_size) in turn, each invocation a run of consecutive
 * values in registers; a tile's segments are found in the offsets (a search per tile in
 * a first short dispatch) and mark where they begin in workgroup memory; each run is
 * reduced alone into pieces, one segmented scan over the runs links them, the result of
 * every segment that ends in the tile is written and a partial kept for a segment that
 * goes on past it. A third dispatch combines the partials of the segments that span
 * tiles (in a fixed order). Records 3 dispatches in one compute pass.
 * Deterministic: the order of combination depends only on n, the offsets and the
 * tile, so float sums have the same bits on every run (on one device: the subgroup size
 * takes part). A float sum of a segment of k elements differs from the exact sum by at
 * most d rounding steps of f32 times the sum of its magnitudes (plus 2k 2^-126 on
 * devices that flush subnormals), d being the longest chain of additions a value goes
 * through: items + 2 log2(sg) + WG / sg + 20 + log2(WG) + k / (tile x WG) for a tile of
 * WG invocations of `items` values and subgroups of sg lanes (without subgroups log2(WG)
 * in place of the second and third terms): 57 + k / 2^18 for 128 x 16 on 32-lane
 * subgroups, and below k / 1024 + 128 for the CPU drivers' 32 x 32 on subgroups of 4.
 *
 * Limits: n values fit one storage binding and n < 2^31; the offsets and the results fit
 * one binding each. Scratch: 24 bytes per tile of capacity plus 4 per tile boundary
 * (wgs_segmented_reduce_plan_scratch_size). The output is another buffer than the
 * values, the offsets and the status.
 * ------------------------------------------------------------------------- */
typedef struct wgs_segmented_reduce_plan wgs_segmented_reduce_plan;

typedef enum wgs_segments_form {
    WGS_SEGMENTS_DEFAULT = 0, /* OFFSETS */
    WGS_SEGMENTS_OFFSETS = 1,
    WGS_SEGMENTS_BEGIN_END = 2,
    WGS_SEGMENTS_FORCE32 = 0x7FFFFFFF
} wgs_segments_form;

typedef struct wgs_segmented_reduce_plan_desc {
    wgs_type type;              /* u32 (default), i32, f32 */
    wgs_op op;                  /* add (default), min, max, and/or/xor (integers), argmin, argmax */
    wgs_segments_form segments; /* OFFSETS (default) or BEGIN_END */
    uint64_t capacity;          /* largest n, in elements; 0 means 1 */
    uint64_t segment_capacity;  /* largest n_segments; 0 means 1 */
    const char *label;
    /* Your own operator ("Your own operator") instead of type and op (both 0; else
     * WGS_ERROR_INVALID_ARGUMENT): the values are its elements and each result is one
     * element (an empty segment: the identity), the segment's values combined in input
     * order; the scratch grows by 8 bytes a tile for each word past the first. */
    const wgs_operator_desc *custom;
} wgs_segmented_reduce_plan_desc;

typedef struct wgs_segmented_reduce_args {
    WGPUBuffer input; /* n values */
    uint64_t input_offset;
    uint64_t n;
    WGPUBuffer offsets; /* OFFSETS: n_segments + 1 u32 */
    uint64_t offsets_offset;
    WGPUBuffer begin_offsets; /* BEGIN_END: n_segments u32 each */
    uint64_t begin_offsets_offset;
    WGPUBuffer end_offsets;
    uint64_t end_offsets_offset;
    uint64_t n_segments;
    WGPUBuffer output; /* n_segments results of 4 bytes (8 for arg ops: value, index) */
    uint64_t output_offset;
    WGPUBuffer status; /* optional: one u32, 0 or the result code of bad offsets */
    uint64_t status_offset;
    WGPUQuerySet timestamp_query_set; /* optional: begin of the first dispatch, end of the last */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
    /* Optional: the value count from the GPU, as in wgs_scan_args (n the bound): the
     * values are the first min(count, n); an offset past them is out of range. */
    WGPUBuffer n_buffer;
    uint64_t n_offset;
    /* Optional: the segment count from the GPU (one u32 at n_segments_offset, a
     * multiple of 4; Storage usage), read when the reduction runs, so that a reduce
     * by key's num_runs or a select's count can give it: the first min(count,
     * n_segments) segments are reduced, and output receives that many results,
     * nothing past them. n_segments is the bound, checked and sized as without it. */
    WGPUBuffer n_segments_buffer;
    uint64_t n_segments_offset;
} wgs_segmented_reduce_args;

/* Checks the description (WGS_ERROR_UNSUPPORTED_TYPE, _UNSUPPORTED_OPERATOR,
 * _INVALID_ARGUMENT for an unknown form, _TOO_LARGE past the limits above), compiles
 * three pipelines and allocates the scratch. */
WGS_API wgs_result wgs_segmented_reduce_plan_create(wgs_context *ctx, const wgs_segmented_reduce_plan_desc *desc,
                                                    wgs_segmented_reduce_plan **out);
/* Accepts NULL. */
WGS_API void wgs_segmented_reduce_plan_destroy(wgs_segmented_reduce_plan *plan);
/* Bytes of scratch the plan holds (0 for NULL). */
WGS_API uint64_t wgs_segmented_reduce_plan_scratch_size(const wgs_segmented_reduce_plan *plan);
/* Elements a workgroup takes (0 for NULL). */
WGS_API uint32_t wgs_segmented_reduce_plan_tile_size(const wgs_segmented_reduce_plan *plan);
/* Records the segmented reduction (3 dispatches, one compute pass) into `encoder`;
 * never submits. n above capacity or n_segments above segment_capacity:
 * WGS_ERROR_CAPACITY_EXCEEDED; a missing buffer: WGS_ERROR_INVALID_ARGUMENT. Its
 * parameters go to the context's parameter ring (see "Parameter records"). */
WGS_API wgs_result wgs_segmented_reduce_encode(wgs_segmented_reduce_plan *plan, WGPUCommandEncoder encoder,
                                               const wgs_segmented_reduce_args *args);
/* Convenience: reduces host arrays. offsets: n_segments + 1 u32 (OFFSETS) or the
 * n_segments begins (BEGIN_END, with end_offsets the ends; NULL for OFFSETS); output
 * receives n_segments results of 4 bytes (8 for arg ops). Returns the GPU's status
 * (WGS_ERROR_SEGMENTS_UNORDERED, WGS_ERROR_SEGMENT_OUT_OF_RANGE) for bad offsets, and
 * then leaves output unwritten. Waits. */
WGS_API wgs_result wgs_segmented_reduce_host(wgs_context *ctx, const wgs_segmented_reduce_plan_desc *desc,
                                             const void *input, const uint32_t *offsets,
                                             const uint32_t *end_offsets, uint64_t n, uint64_t n_segments,
                                             void *output);

/* ---------------------------------------------------------------------------
 * Scan by key: a scan that starts again at every segment
 *
 * out[i] = the scan (inclusive or exclusive, the types and operators of the scan: u32,
 * i32, f32, f16; add, min, max, and/or/xor for integers) of the values of i's segment
 * up to i: values[s] + ... + values[i] (inclusive) or values[s] + ... + values[i - 1]
 * (exclusive; the operator's identity at each segment's first element), s being the
 * first element of the segment that holds i. The segments (wgs_segment_heads):
 *   KEYS (default)  runs of equal adjacent keys: n 4-byte keys (key_type u32 or i32,
 *                   compared bit for bit), as CUB's DeviceScan::*ScanByKey.
 *   FLAGS           head flags: one byte an element, a segment starts where it is not
 *                   zero (the bytes of select's FLAGGED mode).
 * Element 0 always starts a segment.
 *
 * Carry-in (args.init_value or args.init_buffer, as the scan's): a value that stands
 * before element 0 in the first segment, so that a scan by key can continue another
 * one on the next chunk of its input. It joins the first segment only (the run that
 * element 0 begins, up to the next segment start), whatever the keys or flags say about
 * element 0: inclusive out[i] = carry + values[0] + ... + values[i] and exclusive out[0]
 * = carry, out[i] = carry + values[0] + ... + values[i - 1] there (for floats in that
 * order: (carry + values[0]) first); later segments start from the identity as before.
 * To continue a chunked scan by key, pass the previous chunk's last inclusive output
 * (init_buffer: without a trip to the host, copied by the GPU to an aligned offset of
 * another buffer than the output) when the chunk's first element continues the
 * previous chunk's last run (its key equals the last one, or its flag is 0), and no
 * carry when it starts a run. Without a carry the first output is as before.
 * This is not CUB's init of ExclusiveScanByKey, which is the value every segment's
 * exclusive scan starts from; that one is not offered (with it out[i] = init + out'[i]
 * of the scan without it, which the caller can add in its own pass where it needs it).
 *
 * How: one chained pass (the single-pass scan's chain: tiles in claim order, decoupled
 * look-back with decoupled fallback, so it finishes on devices that give workgroups
 * no forward-progress guarantee). The values and keys are read once and the output
 * written once; a tile that holds a segment start publishes what it hands on at once,
 * needing nothing from before it, so its successors' look-backs stop there (it still
 * looks back for its own elements before that start). Records 2 dispatches in one
 * compute pass (the tile states' reset, the scan).
 * Deterministic: inside a tile the combination order depends only on n, the tile and
 * the subgroup size, and across tiles the look-back folds the tiles' aggregates in tile
 * order from the nearest tile that holds a segment start, whatever it found ready when,
 * so float results have the same bits on every run (on one device). Each output is a
 * sum of its k = i - s + 1 (inclusive) or i - s (exclusive) values in some grouping,
 * so it differs from the exact sum by at most k rounding steps of its type times the
 * sum of their magnitudes (plus 2k 2^-126 on devices that flush subnormals); sums
 * whose partial sums are all representable (small integers, say) are exact.
 *
 * Limits: n < 2^31, and the values, keys (or flags) and output each fit one storage
 * binding. The output is another buffer than the values and the keys or flags (the
 * fallback rereads them). Scratch: 8 bytes a tile of capacity
 * (wgs_scan_by_key_plan_scratch_size).
 * ------------------------------------------------------------------------- */
typedef struct wgs_scan_by_key_plan wgs_scan_by_key_plan;

typedef enum wgs_segment_heads {
    WGS_HEADS_DEFAULT = 0, /* KEYS */
    WGS_HEADS_KEYS = 1,
    WGS_HEADS_FLAGS = 2,
    WGS_HEADS_FORCE32 = 0x7FFFFFFF
} wgs_segment_heads;

typedef struct wgs_scan_by_key_plan_desc {
    wgs_type type;           /* the values': u32 (default), i32, f32, f16 */
    wgs_op op;               /* add (default), min, max, and/or/xor (integers) */
    wgs_scan_kind kind;      /* EXCLUSIVE (default) or INCLUSIVE */
    wgs_segment_heads heads; /* KEYS (default) or FLAGS */
    wgs_type key_type;       /* KEYS: u32 (default) or i32 */
    uint64_t capacity;       /* largest n; 0 means 1 */
    const char *label;
    /* Your own operator ("Your own operator") instead of type and op (both 0; else
     * WGS_ERROR_INVALID_ARGUMENT): values, output and the carry-in (init_value: the
     * element's bytes; init_buffer: one element) are in its elements, each segment
     * scanned in input order, look-back included; tile states take 8 bytes a tile for
     * each word of the element. */
    const wgs_operator_desc *custom;
} wgs_scan_by_key_plan_desc;

typedef struct wgs_scan_by_key_args {
    WGPUBuffer keys; /* KEYS: n keys of 4 bytes */
    uint64_t keys_offset;
    WGPUBuffer flags; /* FLAGS: n bytes (the binding rounded up to 4) */
    uint64_t flags_offset;
    WGPUBuffer input; /* n values */
    uint64_t input_offset;
    WGPUBuffer output; /* n values; another buffer than input, keys and flags */
    uint64_t output_offset;
    uint64_t n; /* elements; 0 records nothing */
    /* Optional carry-in into the first segment (see above): from init_buffer (one
     * element at init_offset, aligned as every offset; f16 in the low half of the word;
     * Storage usage; another buffer than the output), read when the scan runs, else from
     * *init_value (one element of the plan's type, copied while encoding); neither:
     * none. */
    const void *init_value;
    WGPUBuffer init_buffer;
    uint64_t init_offset;
    WGPUQuerySet timestamp_query_set; /* optional, as in wgs_scan_args */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
    /* Optional: the element count from the GPU, as in wgs_scan_args (n the bound): the
     * first min(count, n) elements are scanned by their keys (or flags), as an encode
     * of that n would; nothing past them is written. */
    WGPUBuffer n_buffer;
    uint64_t n_offset;
} wgs_scan_by_key_args;

/* Checks the description (WGS_ERROR_UNSUPPORTED_TYPE for another value or key type,
 * _UNSUPPORTED_OPERATOR, _FEATURE_MISSING for f16 without shader-f16,
 * _INVALID_ARGUMENT for an unknown kind or heads, _TOO_LARGE past the limits above),
 * compiles two pipelines and allocates the tile states. */
WGS_API wgs_result wgs_scan_by_key_plan_create(wgs_context *ctx, const wgs_scan_by_key_plan_desc *desc,
                                               wgs_scan_by_key_plan **out);
/* Accepts NULL. */
WGS_API void wgs_scan_by_key_plan_destroy(wgs_scan_by_key_plan *plan);
/* Bytes of scratch the plan holds (0 for NULL). */
WGS_API uint64_t wgs_scan_by_key_plan_scratch_size(const wgs_scan_by_key_plan *plan);
/* Elements a workgroup takes (0 for NULL). */
WGS_API uint32_t wgs_scan_by_key_plan_tile_size(const wgs_scan_by_key_plan *plan);
/* Records the scan by key into `encoder`; never submits. n above capacity:
 * WGS_ERROR_CAPACITY_EXCEEDED; a missing buffer: WGS_ERROR_INVALID_ARGUMENT; the output
 * sharing a buffer with an input or the carry-in: WGS_ERROR_ALIASING; the buffer checks of
 * "Buffers passed to wgs_scan_encode". Its parameters go to the context's parameter
 * ring (see "Parameter records"). */
WGS_API wgs_result wgs_scan_by_key_encode(wgs_scan_by_key_plan *plan, WGPUCommandEncoder encoder,
                                          const wgs_scan_by_key_args *args);
/* Convenience: scans host arrays. heads: n keys of 4 bytes (KEYS) or n flag bytes
 * (FLAGS); input and output n values of the plan's type (output another array). Waits. */
WGS_API wgs_result wgs_scan_by_key_host(wgs_context *ctx, const wgs_scan_by_key_plan_desc *desc,
                                        const void *heads, const void *input, uint64_t n, void *output);

/* ---------------------------------------------------------------------------
 * Segmented scan: a scan that starts again at every segment given by offsets
 *
 * For each of n_segments segments [begin_s, end_s), out[i] for begin_s <= i < end_s is
 * the scan of values[begin_s .. i] (inclusive) or values[begin_s .. i - 1] (exclusive;
 * the identity at begin_s), with the types, operators and kinds of the scan by key
 * (u32, i32, f32, f16; add, min, max, and/or/xor for integers). The segments come as
 * the segmented reduce's (wgs_segments_form): OFFSETS (default), n_segments + 1 CSR
 * offsets; or BEGIN_END, begin and end arrays of n_segments each (as CUB's), gaps
 * allowed. The same rules: begin_s <= end_s <= begin_(s+1), every offset <= n.
 *
 * Elements in no segment (before the first segment's begin, in a gap between an end and
 * the next begin, after the last segment's end; with OFFSETS before offsets[0] and at or
 * after offsets[n_segments]) are written too, with the operator's identity, for either
 * kind: every one of the n outputs is written, in one coalesced store per 16 bytes (to
 * leave them untouched, the kernel would need scalar stores to a view of the output
 * that overlaps its word view, which WebGPU does not allow for two writable bindings).
 * An empty segment writes nothing. So out[] is the scan of values with a head at every
 * segment's begin and every element in no segment counted as the identity.
 *
 * The GPU checks the offsets as the segmented reduce does and writes the status word
 * (args.status, optional): 0, or WGS_ERROR_SEGMENTS_UNORDERED where a rule is broken,
 * or WGS_ERROR_SEGMENT_OUT_OF_RANGE where an offset lies past n (the larger where both
 * happen). With a bad status the output is undefined, but nothing is written outside
 * the output's n elements and the kernels finish. With n = 0 every offset must be 0;
 * the encode then records only the check (nothing at all without a status word).
 * wgs_segmented_scan_host returns the status as its result.
 *
 * How: the scan by key's plan and kernel (one mechanism) with the offsets as a third
 * source of segment heads: each tile finds its first and its last segment by a search
 * in the begins (a guess from the mean segment length, doubling steps, halving), marks
 * in workgroup memory where its segments begin and where gaps lie (a head bit and a
 * gap bit an element), checks the segments that begin in it, then goes on as the scan
 * by key: the same chain, closed tiles, decoupled look-back with fallback (a helper
 * that rebuilds a stalled predecessor finds each element's segment by a search of its
 * own). The time depends on n and the number of segments, hardly on their lengths.
 * Records 3 dispatches in one compute pass (the tile states' reset, the status' reset
 * when there is a status word, the scan). Deterministic as the scan by key, floats
 * included, with its bound for sums (k rounding steps for an output of k terms).
 * No carry-in (a segment starts where its offsets say).
 *
 * Why its own API beside wgs_scan_by_key: the segments come with their own arguments
 * (two forms, n_segments and segment_capacity, the status word) and their own rules
 * (gaps, validation), the segmented reduce's; the plan underneath is the scan by
 * key's.
 *
 * Limits: n < 2^31 and n_segments < 2^31; the values, the output and the offsets each
 * fit one storage binding. The output is another buffer than the values, the offsets
 * and the status. Scratch: 8 bytes a tile of capacity and 256 bytes (where the status
 * goes without a status word; wgs_segmented_scan_plan_scratch_size).
 * ------------------------------------------------------------------------- */
typedef struct wgs_segmented_scan_plan wgs_segmented_scan_plan;

typedef struct wgs_segmented_scan_plan_desc {
    wgs_type type;              /* u32 (default), i32, f32, f16 */
    wgs_op op;                  /* add (default), min, max, and/or/xor (integers) */
    wgs_scan_kind kind;         /* EXCLUSIVE (default) or INCLUSIVE */
    wgs_segments_form segments; /* OFFSETS (default) or BEGIN_END */
    uint64_t capacity;          /* largest n, in elements; 0 means 1 */
    uint64_t segment_capacity;  /* largest n_segments; 0 means 1 */
    const char *label;
    /* Your own operator ("Your own operator") instead of type and op (both 0; else
     * WGS_ERROR_INVALID_ARGUMENT): values and output in its elements (gaps: the
     * identity), each segment scanned in input order, look-back included; tile states
     * take 8 bytes a tile for each word of the element. */
    const wgs_operator_desc *custom;
} wgs_segmented_scan_plan_desc;

typedef struct wgs_segmented_scan_args {
    WGPUBuffer input; /* n values */
    uint64_t input_offset;
    WGPUBuffer output; /* n values; another buffer than the input, offsets and status */
    uint64_t output_offset;
    uint64_t n;
    WGPUBuffer offsets; /* OFFSETS: n_segments + 1 u32 */
    uint64_t offsets_offset;
    WGPUBuffer begin_offsets; /* BEGIN_END: n_segments u32 each */
    uint64_t begin_offsets_offset;
    WGPUBuffer end_offsets;
    uint64_t end_offsets_offset;
    uint64_t n_segments;
    WGPUBuffer status; /* optional: one u32, 0 or the result code of bad offsets */
    uint64_t status_offset;
    WGPUQuerySet timestamp_query_set; /* optional: begin of the first dispatch, end of the last */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
    /* Optional: the counts from the GPU, as in wgs_segmented_reduce_args (n and
     * n_segments the bounds): the first min(count, n) values in the first min(count,
     * n_segments) segments are scanned, as an encode of those counts would (elements
     * in no segment, up to the values' count, get the identity); nothing past the
     * values' count is written. With a values count of 0, the status is 0 and the
     * offsets are not checked. */
    WGPUBuffer n_buffer;
    uint64_t n_offset;
    WGPUBuffer n_segments_buffer;
    uint64_t n_segments_offset;
} wgs_segmented_scan_args;

/* Checks the description (WGS_ERROR_UNSUPPORTED_TYPE, _UNSUPPORTED_OPERATOR,
 * _FEATURE_MISSING for f16 without shader-f16, _INVALID_ARGUMENT for an unknown kind or
 * form, _TOO_LARGE past the limits above), compiles four pipelines (the scan, the tile
 * states' reset, the status' reset and the check of n = 0) and allocates the tile
 * states. */
WGS_API wgs_result wgs_segmented_scan_plan_create(wgs_context *ctx, const wgs_segmented_scan_plan_desc *desc,
                                                  wgs_segmented_scan_plan **out);
/* Accepts NULL. */
WGS_API void wgs_segmented_scan_plan_destroy(wgs_segmented_scan_plan *plan);
/* Bytes of scratch the plan holds (0 for NULL). */
WGS_API uint64_t wgs_segmented_scan_plan_scratch_size(const wgs_segmented_scan_plan *plan);
/* Elements a workgroup takes (0 for NULL). */
WGS_API uint32_t wgs_segmented_scan_plan_tile_size(const wgs_segmented_scan_plan *plan);
/* Records the segmented scan into `encoder`; never submits. n above capacity or
 * n_segments above segment_capacity: WGS_ERROR_CAPACITY_EXCEEDED; a missing buffer:
 * WGS_ERROR_INVALID_ARGUMENT; the output or the status sharing a buffer with another
 * argument: WGS_ERROR_ALIASING; the buffer checks of "Buffers passed to
 * wgs_scan_encode". Its parameters go to the context's parameter ring (see "Parameter
 * records"). */
WGS_API wgs_result wgs_segmented_scan_encode(wgs_segmented_scan_plan *plan, WGPUCommandEncoder encoder,
                                             const wgs_segmented_scan_args *args);
/* Convenience: scans host arrays. offsets: n_segments + 1 u32 (OFFSETS) or the
 * n_segments begins (BEGIN_END, with end_offsets the ends; NULL for OFFSETS); input and
 * output n values of the plan's type (output another array). Returns the GPU's status
 * (WGS_ERROR_SEGMENTS_UNORDERED, WGS_ERROR_SEGMENT_OUT_OF_RANGE) for bad offsets, and
 * then leaves output unwritten. Waits. */
WGS_API wgs_result wgs_segmented_scan_host(wgs_context *ctx, const wgs_segmented_scan_plan_desc *desc,
                                           const void *input, const uint32_t *offsets,
                                           const uint32_t *end_offsets, uint64_t n, uint64_t n_segments,
                                           void *output);

/* ---------------------------------------------------------------------------
 * Reduce by key: one reduction per run of equal keys
 *
 * For the runs of equal adjacent keys (as in the scan by key) writes, in order, each
 * run's key to unique_keys, the reduction of its values to aggregates, and the number
 * of runs to num_runs (a u32 in a GPU buffer, so that the next pass can read it without
 * a trip to the host), as CUB's DeviceReduce::ReduceByKey. The segmented reduce's types
 * and operators (u32, i32, f32; add, min, max, and/or/xor for integers, arg-min and
 * arg-max: then each aggregate is 8 bytes, the value's bits and the index in the input
 * of its first extreme element, as the segmented reduce writes them); keys u32 or i32,
 * compared bit for bit. n = 0 writes num_runs = 0.
 *
 * How: select's UNIQUE mode on the keys with each run's first index as the payload
 * (the unique keys and the count), then the segmented reduce over those runs, its
 * kernels reading the count from num_runs. Records 2 compute passes; the keys and the
 * values are each read once. Deterministic as the segmented reduce, floats included,
 * with its bound for f32 sums (a run is a segment).
 *
 * Limits as the segmented reduce's (n below 2^31, the values and the aggregates each in
 * one binding). unique_keys holds up to n keys and aggregates up to n results; they,
 * num_runs, the keys and the values are distinct buffers. Scratch: n u32 of capacity
 * and the segmented reduce's (wgs_reduce_by_key_plan_scratch_size).
 * ------------------------------------------------------------------------- */
typedef struct wgs_reduce_by_key_plan wgs_reduce_by_key_plan;

typedef struct wgs_reduce_by_key_plan_desc {
    wgs_type type;     /* the values': u32 (default), i32, f32 */
    wgs_op op;         /* add (default), min, max, and/or/xor (integers), argmin, argmax */
    wgs_type key_type; /* u32 (default) or i32 */
    uint64_t capacity; /* largest n; 0 means 1 */
    const char *label;
    /* Your own operator ("Your own operator") instead of type and op (both 0; else
     * WGS_ERROR_INVALID_ARGUMENT): values and aggregates in its elements, each run
     * combined in input order (the segmented reduce's). */
    const wgs_operator_desc *custom;
} wgs_reduce_by_key_plan_desc;

typedef struct wgs_reduce_by_key_args {
    WGPUBuffer keys; /* n keys of 4 bytes */
    uint64_t keys_offset;
    WGPUBuffer input; /* n values */
    uint64_t input_offset;
    uint64_t n;
    WGPUBuffer unique_keys; /* up to n keys: the first key of each run */
    uint64_t unique_keys_offset;
    WGPUBuffer aggregates; /* up to n results: each run's reduction (8 bytes for arg ops) */
    uint64_t aggregates_offset;
    WGPUBuffer num_runs; /* one u32 */
    uint64_t num_runs_offset;
    WGPUQuerySet timestamp_query_set; /* optional: begin of the first pass, end of the last */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
    /* Optional: the element count from the GPU, as in wgs_scan_args (n the bound): the
     * runs of the first min(count, n) keys and values are reduced, as an encode of that
     * n would; num_runs is written in any case (0 for a count of 0), unique_keys and
     * aggregates receive num_runs entries, nothing past them. A sort's or a select's
     * output and count can so feed it without a read-back. */
    WGPUBuffer n_buffer;
    uint64_t n_offset;
} wgs_reduce_by_key_args;

/* Checks the description (WGS_ERROR_UNSUPPORTED_TYPE, _UNSUPPORTED_OPERATOR, _TOO_LARGE
 * as the segmented reduce), creates the select and segmented reduce plans it runs and
 * allocates their scratch. */
WGS_API wgs_result wgs_reduce_by_key_plan_create(wgs_context *ctx, const wgs_reduce_by_key_plan_desc *desc,
                                                 wgs_reduce_by_key_plan **out);
/* Accepts NULL. */
WGS_API void wgs_reduce_by_key_plan_destroy(wgs_reduce_by_key_plan *plan);
/* Bytes of scratch the plan holds, its inner plans' included (0 for NULL). */
WGS_API uint64_t wgs_reduce_by_key_plan_scratch_size(const wgs_reduce_by_key_plan *plan);
/* Records the reduction by key into `encoder`; never submits. n above capacity:
 * WGS_ERROR_CAPACITY_EXCEEDED; a missing buffer: WGS_ERROR_INVALID_ARGUMENT; outputs
 * sharing a buffer with each other or an input: WGS_ERROR_ALIASING. */
WGS_API wgs_result wgs_reduce_by_key_encode(wgs_reduce_by_key_plan *plan, WGPUCommandEncoder encoder,
                                            const wgs_reduce_by_key_args *args);
/* Convenience: reduces host arrays (n keys of 4 bytes, n values); unique_keys and
 * aggregates receive *num_runs keys and results each (room for n). Waits. */
WGS_API wgs_result wgs_reduce_by_key_host(wgs_context *ctx, const wgs_reduce_by_key_plan_desc *desc,
                                          const uint32_t *keys, const void *input, uint64_t n,
                                          uint32_t *unique_keys, void *aggregates, uint32_t *num_runs);

/* ---------------------------------------------------------------------------
 * Select: stream compaction and its relatives
 *
 * Keeps the elements that pass a test, in their original order, and says how many:
 *   FLAGGED     x[i] where flags[i] != 0; flags are one byte per element (the flags
 *               range is rounded up to whole 4-byte words, which must fit the buffer)
 *   IF          x[i] where the plan's predicate holds
 *   UNIQUE      the first element of each run of equal consecutive elements
 *   RUN_LENGTH  as UNIQUE, and payload_out[j] = the length of run j (u32)
 * Options:
 *   partition   the rejected elements follow the selected ones, also in their original
 *               order (a stable partition): the output holds all n elements
 *   payload     BUFFER: a 4-byte payload per element (payload_in) moves along to
 *               payload_out (key-value select); INDEX: payload_out receives each kept
 *               element's index in the input
 * count receives the number selected (runs for RUN_LENGTH) as a u32.
 *
 * How (algorithm):
 *   SINGLE_PASS  one kernel: each tile ranks its elements in workgroup memory, gets the
 *                count of the tiles before it by decoupled look-back (the single-pass
 *                scan's, with its fallback: a workgroup that waits too long counts the
 *                tile it waits on itself, so it cannot hang) and writes its elements out
 *                in one coalesced run. The data is read once. Not with partition (the
 *                rejected elements need the total first).
 *   THREE_PASS   groups of tiles count their selected elements (FLAGGED: reading
 *                only the flags, which it also writes as bits); the counts are scanned;
 *                each group's tiles rank and write as above (FLAGGED: reading the bits,
 *                not the flags again). No workgroup waits for another.
 *   DEFAULT      SINGLE_PASS on GPUs for plans without partition of capacity 2^21 or
 *                less, where the three passes' boundaries cost more than the chain;
 *                else THREE_PASS, faster for large inputs (the single pass's chained
 *                look-back over many small tiles sets its pace) and on CPU drivers.
 *                The measurements: docs/design.md.
 * Both are deterministic (the output is defined by the input).
 * Limits: types u32, i32, f32; n fits one storage binding (wgs_context_info
 * max_storage_binding_size / 4 elements) and 2^32 - 1. Scratch: capacity / 128 bytes
 * or less of counts; three-pass FLAGGED plans also capacity / 8 bytes (the bits),
 * RUN_LENGTH plans capacity * 4 bytes (the run starts). Outputs are other buffers than the inputs.
 * ------------------------------------------------------------------------- */
typedef struct wgs_select_plan wgs_select_plan;

typedef enum wgs_select_mode {
    WGS_SELECT_DEFAULT = 0, /* FLAGGED */
    WGS_SELECT_FLAGGED = 1,
    WGS_SELECT_IF = 2,
    WGS_SELECT_UNIQUE = 3,
    WGS_SELECT_RUN_LENGTH = 4,
    WGS_SELECT_FORCE32 = 0x7FFFFFFF
} wgs_select_mode;

typedef enum wgs_payload {
    WGS_PAYLOAD_NONE = 0,
    WGS_PAYLOAD_BUFFER = 1,
    WGS_PAYLOAD_INDEX = 2,
    WGS_PAYLOAD_FORCE32 = 0x7FFFFFFF
} wgs_payload;

typedef enum wgs_select_algorithm {
    WGS_SELECT_ALGORITHM_DEFAULT = 0,
    WGS_SELECT_ALGORITHM_SINGLE_PASS = 1,
    WGS_SELECT_ALGORITHM_THREE_PASS = 2,
    WGS_SELECT_ALGORITHM_FORCE32 = 0x7FFFFFFF
} wgs_select_algorithm;

typedef struct wgs_select_plan_desc {
    wgs_type type;
    wgs_select_mode mode;
    wgs_predicate predicate; /* IF */
    int partition;           /* not with UNIQUE or RUN_LENGTH */
    wgs_payload payload;     /* not with RUN_LENGTH (its payload_out is the lengths) */
    wgs_select_algorithm algorithm; /* SINGLE_PASS with partition: INVALID_ARGUMENT */
    uint64_t capacity;
    const char *label;
} wgs_select_plan_desc;

typedef struct wgs_select_args {
    WGPUBuffer input;
    uint64_t input_offset;
    WGPUBuffer flags; /* FLAGGED */
    uint64_t flags_offset;
    WGPUBuffer payload_in; /* payload BUFFER */
    uint64_t payload_in_offset;
    WGPUBuffer output; /* selected elements (n elements for a partition) */
    uint64_t output_offset;
    WGPUBuffer payload_out; /* payload plans and RUN_LENGTH */
    uint64_t payload_out_offset;
    WGPUBuffer count; /* u32 */
    uint64_t count_offset;
    uint64_t n;
    /* Optional (IF plans): this encode's predicate operands, instead of the plan's; the
     * kind must be the plan's. A moving threshold needs no new plan. */
    const wgs_predicate *predicate;
    WGPUQuerySet timestamp_query_set; /* optional: begin of the first pass, end of the last */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
    /* Optional: the element count from the GPU, as in wgs_scan_args (n the bound): the
     * select works on the first min(count, n) elements, as an encode of that n would
     * (unique and run-length: runs end at the count). count is written in any case (0
     * for a count of 0), so it can feed the next primitive's n_buffer; output and
     * payload_out receive that many elements (a partition: the count's), nothing past
     * them. Each of the select's passes starts with its small count dispatch. */
    WGPUBuffer n_buffer;
    uint64_t n_offset;
} wgs_select_args;

WGS_API wgs_result wgs_select_plan_create(wgs_context *ctx, const wgs_select_plan_desc *desc,
                                          wgs_select_plan **out);
WGS_API void wgs_select_plan_destroy(wgs_select_plan *plan);
/* Bytes of GPU memory the plan holds, its scan's included (0 for NULL); see Limits. */
WGS_API uint64_t wgs_select_plan_scratch_size(const wgs_select_plan *plan);
/* Records three compute passes and a scan. Output buffers must hold n elements (the
 * count is not known when recording). */
WGS_API wgs_result wgs_select_encode(wgs_select_plan *plan, WGPUCommandEncoder encoder,
                                     const wgs_select_args *args);

/* Convenience: selects from host arrays: input n 4-byte elements, flags n bytes
 * (FLAGGED), payload_in n 4-byte payloads (payload BUFFER). output (room for n
 * elements) receives `count` elements (n for a partition); payload_out (room for n u32)
 * receives them for payload plans and the run lengths for RUN_LENGTH. Arrays the plan
 * does not use may be NULL. Waits. */
WGS_API wgs_result wgs_select_host(wgs_context *ctx, const wgs_select_plan_desc *desc,
                                   const void *input, const uint8_t *flags, const void *payload_in,
                                   uint64_t n, void *output, void *payload_out, uint32_t *count);

/* ---------------------------------------------------------------------------
 * Histogram: counts of values in `bins` even bins over [lower, upper)
 *
 * Integers (u32, i32): bin = floor((v - lower) * bins / (upper - lower)), exact; lower
 * and upper are integers with lower < upper <= the type's maximum + 1 (so the whole u32
 * range is lower 0, upper 4294967296). f32: bin = floor((v - lower) * scale) in f32
 * arithmetic, with lower and upper rounded to f32, subnormal v and lower taken as 0 in
 * this arithmetic, and scale = bins / (upper - lower) computed in double and rounded to
 * f32; a value that rounds to `bins` just below upper goes to the last bin. Values
 * outside [lower, upper) are not counted: the test is exact (-1e-45 is below a lower
 * of 0), and NaN and the infinities are outside every range. The f32 bounds must be
 * finite with lower < upper, upper - lower must not overflow f32, and the scale must
 * lie in [2^-126, 2^126] (no bin narrower than the smallest normal f32 nor wider than
 * 2^126), so that a device that flushes subnormals bins alike;
 * others are refused with WGS_ERROR_INVALID_ARGUMENT, as are integer bounds that are
 * not integers of the type's range (NaN, infinities).
 * Up to WGS_HISTOGRAM_MAX_BINS bins. Up to WGS_HISTOGRAM_LOCAL_BINS bins, each workgroup
 * counts in workgroup memory and adds its non-zero bins to the output once; beyond, it
 * counts with one global atomic per element. The output (bins u32 counts) is zeroed by
 * the encode first. Counts are exact (integer atomics): deterministic.
 * ------------------------------------------------------------------------- */
typedef struct wgs_histogram_plan wgs_histogram_plan;

#define WGS_HISTOGRAM_MAX_BINS (1u << 20)
#define WGS_HISTOGRAM_LOCAL_BINS 4096u

typedef struct wgs_histogram_plan_desc {
    wgs_type type;
    uint32_t bins;
    double lower, upper;
    uint64_t capacity;
    const char *label;
} wgs_histogram_plan_desc;

typedef struct wgs_histogram_args {
    WGPUBuffer input;
    uint64_t input_offset;
    uint64_t n;
    WGPUBuffer output; /* bins u32 counts; another buffer than input */
    uint64_t output_offset;
    WGPUQuerySet timestamp_query_set; /* optional, as in wgs_scan_args */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
    /* Optional: the element count from the GPU, as in wgs_scan_args (n the bound): the
     * histogram of the first min(count, n) elements (every bin 0 for a count of 0). */
    WGPUBuffer n_buffer;
    uint64_t n_offset;
} wgs_histogram_args;

WGS_API wgs_result wgs_histogram_plan_create(wgs_context *ctx, const wgs_histogram_plan_desc *desc,
                                             wgs_histogram_plan **out);
WGS_API void wgs_histogram_plan_destroy(wgs_histogram_plan *plan);
/* Bytes of GPU memory the plan holds: 0 (it counts in workgroup memory and the output). */
WGS_API uint64_t wgs_histogram_plan_scratch_size(const wgs_histogram_plan *plan);
WGS_API wgs_result wgs_histogram_encode(wgs_histogram_plan *plan, WGPUCommandEncoder encoder,
                                        const wgs_histogram_args *args);
/* Convenience: the histogram of n host values into counts[desc->bins]. Waits. */
WGS_API wgs_result wgs_histogram_host(wgs_context *ctx, const wgs_histogram_plan_desc *desc,
                                      const void *input, uint64_t n, uint32_t *counts);

/* ---------------------------------------------------------------------------
 * Allocate: a GPU bump allocator for many requests at once
 *
 * An arena of `arena_size` units (bytes, slots: the caller's choice) and a state buffer
 * of two u32: the first is the arena's top, kept across calls (zero it to empty the
 * arena), the second is the atomic version's scratch.
 * Each call serves n requests (sizes[i] units each) and writes offsets[i], the start of
 * request i's block, or WGS_ALLOC_FAILED when it did not fit; the top moves past what
 * was served. Blocks never overlap and stay below arena_size.
 *   SCAN (default)  offsets in request order: request i's block follows request i - 1's.
 *                   Requests are served up to the first that does not fit; it and every
 *                   later one fail. Deterministic. The sizes of one call must sum below
 *                   2^32.
 *   ATOMIC          each request takes its block with one fetch-add on the top: blocks
 *                   land in no particular order and differ from run to run. Requests
 *                   are served in the order their adds happen, up to the first that
 *                   does not fit; it and all later ones fail. The sizes of one call
 *                   must sum below 2^32 - arena_size.
 * ------------------------------------------------------------------------- */
typedef struct wgs_alloc_plan wgs_alloc_plan;

#define WGS_ALLOC_FAILED 0xFFFFFFFFu

typedef enum wgs_alloc_algorithm {
    WGS_ALLOC_DEFAULT = 0, /* SCAN */
    WGS_ALLOC_SCAN = 1,
    WGS_ALLOC_ATOMIC = 2,
    WGS_ALLOC_FORCE32 = 0x7FFFFFFF
} wgs_alloc_algorithm;

typedef struct wgs_alloc_plan_desc {
    wgs_alloc_algorithm algorithm;
    uint64_t capacity; /* most requests per call */
    const char *label;
} wgs_alloc_plan_desc;

typedef struct wgs_alloc_args {
    WGPUBuffer sizes; /* n u32 */
    uint64_t sizes_offset;
    WGPUBuffer offsets; /* n u32, another buffer */
    uint64_t offsets_offset;
    WGPUBuffer state; /* two u32 (top, scratch); a third buffer */
    uint64_t state_offset;
    uint64_t n;
    uint32_t arena_size;
    WGPUQuerySet timestamp_query_set; /* optional: begin of the first pass, end of the last */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
    /* Optional: the number of requests from the GPU, as in wgs_scan_args (n the bound):
     * the first min(count, n) requests are served, as an encode of that n would;
     * offsets past them are not written. */
    WGPUBuffer n_buffer;
    uint64_t n_offset;
} wgs_alloc_args;

WGS_API wgs_result wgs_alloc_plan_create(wgs_context *ctx, const wgs_alloc_plan_desc *desc,
                                         wgs_alloc_plan **out);
WGS_API void wgs_alloc_plan_destroy(wgs_alloc_plan *plan);
/* Bytes of GPU memory the plan holds (0 for NULL): SCAN a scan plan's of capacity, ATOMIC
 * none. */
WGS_API uint64_t wgs_alloc_plan_scratch_size(const wgs_alloc_plan *plan);
WGS_API wgs_result wgs_alloc_encode(wgs_alloc_plan *plan, WGPUCommandEncoder encoder,
                                    const wgs_alloc_args *args);
/* Convenience: serves n host requests from an arena whose top is *top; *top receives
 * the new top and offsets[i] each block's start (or WGS_ALLOC_FAILED). Waits. */
WGS_API wgs_result wgs_alloc_host(wgs_context *ctx, const wgs_alloc_plan_desc *desc,
                                  const uint32_t *sizes, uint64_t n, uint32_t arena_size,
                                  uint32_t *top, uint32_t *offsets);

/* ---------------------------------------------------------------------------
 * Sort: a stable radix sort of keys, or of keys with values
 *
 * Keys: u32, i32, f32, u64, i64 (64-bit keys are two little-endian words). Order:
 * ascending (default) or descending, stable either way (equal keys keep their input
 * order). Integers by value; f32 by the total order of its bits with the sign flipped:
 * -NaN (by bits) < -inf < negative numbers < -0 < +0 < positive numbers < +inf <
 * +NaN (by bits); subnormals are ordered exactly.
 * Bits: only bits [begin_bit, end_bit) of the (order-transformed) key decide; 0, 0 means
 * the whole key (32 or 64 bits). A range of no bits leaves the order as it is.
 * Values (payload): NONE (keys only); BUFFER: a value of value_bytes (4 or 8) per key
 * moves with it; INDEX: values_out receives each key's input index (u32).
 * The input is left intact unless keys_out is keys_in (then the sort is in place);
 * values likewise. Scratch (wgs_sort_plan_scratch_size): a second copy of capacity keys
 * (and values) and a few KiB of digit counts or tile states per tile.
 *
 * How: least-significant-digit radix sort, digits of at most 8 bits. Two algorithms,
 * the same result:
 *   ONESWEEP     one pass over the keys counts the digits of every digit pass; then
 *                each digit pass reads and writes the keys once: each tile ranks its
 *                keys stably (subgroup ballots where the device has subgroups,
 *                per-invocation counters where it has not) and learns where its keys
 *                of each digit go from its predecessors through a decoupled look-back
 *                with fallback (a tile whose predecessor stalls counts that tile's
 *                digits itself, so no workgroup waits for ever). n < 2^30.
 *   REDUCE_SCAN  per digit pass a counting pass, a scan of the counts and a scatter;
 *                no workgroup waits for another; n < 2^32.
 * DEFAULT takes ONESWEEP for n up to the tuning table's bound for the device class
 * (GPUs of 32-lane subgroups: one-word values and indices at every n < 2^30, an H100
 * sorting 2^28 u32 pairs in 15.88 ms so, 17.24 by REDUCE_SCAN; other sorts up to 2^21
 * keys, 2^21 u32 keys in 138 µs so, 168 by REDUCE_SCAN), REDUCE_SCAN past it (2^28 u32
 * keys 9.13 ms, ONESWEEP 11.32), on CPU drivers, and where ONESWEEP's tile states
 * would not fit one storage binding. It
 * chooses by n at each encode where the host knows n: a plan past the bound holds a
 * ONESWEEP plan of the bound too (of the keys' bound where its own has none; its
 * scratch counts it) for n up to that bound, and
 * sorts a count on the GPU by REDUCE_SCAN; a plan within the bound is ONESWEEP
 * throughout.
 * Both are deterministic. Records 1 + 2 x digits (ONESWEEP) or 4 x digits dispatches.
 * Limits: n keys (and values) fit one storage binding; n < 2^32 (ONESWEEP: 2^30).
 * ------------------------------------------------------------------------- */
typedef struct wgs_sort_plan wgs_sort_plan;

typedef enum wgs_sort_order {
    WGS_SORT_ASCENDING = 0,
    WGS_SORT_DESCENDING = 1,
    WGS_SORT_ORDER_FORCE32 = 0x7FFFFFFF
} wgs_sort_order;

typedef enum wgs_sort_algorithm {
    WGS_SORT_ALGORITHM_DEFAULT = 0,     /* by n: the section's comment above */
    WGS_SORT_ALGORITHM_ONESWEEP = 1,    /* capacity < 2^30, else TOO_LARGE */
    WGS_SORT_ALGORITHM_REDUCE_SCAN = 2,
    WGS_SORT_ALGORITHM_FORCE32 = 0x7FFFFFFF
} wgs_sort_algorithm;

typedef struct wgs_sort_plan_desc {
    wgs_type type;           /* the key type (default u32) */
    wgs_sort_order order;
    uint32_t begin_bit, end_bit; /* 0, 0: all bits; else begin <= end <= the key's bits */
    wgs_payload payload;     /* NONE, BUFFER or INDEX */
    uint32_t value_bytes;    /* BUFFER: 4 (default) or 8 */
    wgs_sort_algorithm algorithm;
    uint64_t capacity;       /* largest n; 0 means 1 */
    const char *label;
} wgs_sort_plan_desc;

typedef struct wgs_sort_args {
    WGPUBuffer keys_in;
    uint64_t keys_in_offset;
    WGPUBuffer keys_out; /* keys_in itself (same offset): in place */
    uint64_t keys_out_offset;
    WGPUBuffer values_in; /* payload BUFFER */
    uint64_t values_in_offset;
    WGPUBuffer values_out; /* payload BUFFER and INDEX */
    uint64_t values_out_offset;
    uint64_t n;
    WGPUQuerySet timestamp_query_set; /* optional: begin of the first pass, end of the last */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
    /* Optional: the key count from the GPU, as in wgs_scan_args (n the bound): the first
     * min(count, n) keys (and values) are sorted into keys_out and values_out, as an
     * encode of that n would; nothing past them is written (a count of 0: nothing).
     * The digit passes are the bound's; each count and each scatter starts with its
     * small count dispatch. */
    WGPUBuffer n_buffer;
    uint64_t n_offset;
} wgs_sort_args;

WGS_API wgs_result wgs_sort_plan_create(wgs_context *ctx, const wgs_sort_plan_desc *desc,
                                        wgs_sort_plan **out);
WGS_API void wgs_sort_plan_destroy(wgs_sort_plan *plan);
/* Bytes of GPU memory the plan holds (0 for NULL): the second copy of capacity keys and
 * values (each rounded up to 256 bytes), and ONESWEEP's tile states or REDUCE_SCAN's
 * digit counts and offsets (2 KiB a tile each way; REDUCE_SCAN adds its scan plan's). */
WGS_API uint64_t wgs_sort_plan_scratch_size(const wgs_sort_plan *plan);
/* Records the sort (see How above) in one compute pass: a reset, a histogram and a
 * pass per digit (ONESWEEP), or per digit a count, a scan and a scatter (REDUCE_SCAN). */
WGS_API wgs_result wgs_sort_encode(wgs_sort_plan *plan, WGPUCommandEncoder encoder,
                                   const wgs_sort_args *args);
/* Convenience: sorts host arrays (keys: n of the key type; values: n of value_bytes for
 * BUFFER, NULL otherwise; values_out: n values or indices, NULL for NONE). keys_out and
 * values_out may be the inputs. Waits. */
WGS_API wgs_result wgs_sort_host(wgs_context *ctx, const wgs_sort_plan_desc *desc, const void *keys,
                                 const void *values, uint64_t n, void *keys_out, void *values_out);

/* ---------------------------------------------------------------------------
 * Top-k: the k largest (default) or smallest keys of each row of a rows x n matrix
 *
 * Keys: u32, i32, f32, in the radix sort's order (f32 by its bits' total order: see
 * Sort; largest takes +NaN first, smallest -NaN). The result of a row is the first k
 * keys of the row's stable sort (descending for LARGEST, ascending for SMALLEST), so
 * among equal keys the lower index wins: the result is fully determined.
 * Output: SORTED (default): row r's k keys best first at keys_out[r * k ..], ties in
 * index order; INPUT_ORDER: the same k keys in their input order (cheaper: no ranking).
 * SORTED ranks each row's k in a workgroup for k <= WGS_TOPK_SORTED_MAX_K; past it
 * the plan's own radix sort orders them (one row only: a k_capacity past it with
 * row_capacity > 1 is WGS_ERROR_TOO_LARGE; take INPUT_ORDER).
 * Payload: NONE; BUFFER: a 4-byte value per key (values_in, rows x n) moves with it;
 * INDEX: values_out receives each key's index within its row (u32). rows x k of them.
 * Layout: row r's keys at keys_in[r * n ..], contiguous rows; outputs rows x k.
 *
 * How (radix select, every count on the GPU, nothing read back): per row, a histogram
 * of the top 8-bit digit of the mapped keys and a pick of the digit whose bucket holds
 * the k-th; a filter that keeps that bucket's keys as candidates and counts their next
 * digit; two more digits over the candidates alone (dispatched for their number, which
 * the GPU counted); each tile's keys below the k-th and its ties counted, and the
 * counts of all rows scanned by a scan plan of the plan's own; the chosen keys written
 * in input order. SORTED then ranks each row's k (a
 * workgroup compares each key with all k: k^2 per row), or for k past
 * WGS_TOPK_SORTED_MAX_K sorts them with a sort plan. Reads the keys twice and the
 * tiles that hold the k, and the candidates 3 times. Records a compute pass of 11 dispatches (one of them the
 * dispatch layer's, which sizes the candidate passes from their count), the scan plan's
 * passes, and a compute pass of 1 dispatch (2 for SORTED), then for k past
 * WGS_TOPK_SORTED_MAX_K the sort plan's passes.
 * Short rows (n <= 2^18, k <= 1024, where the device's workgroup memory has room for
 * the candidates: 16 KiB does) on CPU drivers (on GPUs, until it is timed there: not
 * by default) take one dispatch instead, one workgroup a row doing the
 * whole select in workgroup memory, with the same result: a compute pass of 1
 * dispatch, the keys read twice for uniform keys (more where many keys share their top
 * digits), no scratch.
 * Scratch (wgs_topk_plan_scratch_size): none where the plan takes short rows' path
 * for its whole capacity and k_capacity (above), else 1040 bytes a row, 8 bytes a tile
 * of each row (a tile: 512 keys on CPU drivers, 4096 on GPUs), room for every key's place as a
 * candidate (4 bytes a key: all of them are candidates when all keys are equal), and
 * for SORTED the rows' unsorted k keys (and values); the tiles' offsets (8 bytes a
 * tile) and the scan plan's scratch; past WGS_TOPK_SORTED_MAX_K the sort plan's.
 * Limits: 1 <= k <= n; rows x n keys (and values) in one storage binding and below
 * 2^32; n the plan's capacity at most, rows its row_capacity, k its k_capacity.
 * Not yet: n, rows or k from GPU buffers; segments of CSR offsets.
 * ------------------------------------------------------------------------- */
typedef struct wgs_topk_plan wgs_topk_plan;

#define WGS_TOPK_SORTED_MAX_K 4096u

typedef enum wgs_topk_select {
    WGS_TOPK_LARGEST = 0,
    WGS_TOPK_SMALLEST = 1,
    WGS_TOPK_SELECT_FORCE32 = 0x7FFFFFFF
} wgs_topk_select;

typedef enum wgs_topk_output {
    WGS_TOPK_SORTED = 0,      /* best first (default) */
    WGS_TOPK_INPUT_ORDER = 1, /* the k in their input order */
    WGS_TOPK_OUTPUT_FORCE32 = 0x7FFFFFFF
} wgs_topk_output;

typedef struct wgs_topk_plan_desc {
    wgs_type type;          /* the key type: u32 (default), i32, f32 */
    wgs_topk_select select; /* LARGEST (default) or SMALLEST */
    wgs_topk_output output; /* SORTED (default) or INPUT_ORDER */
    wgs_payload payload;    /* NONE, BUFFER (4-byte values) or INDEX */
    uint64_t capacity;      /* largest n (keys a row); 0 means 1 */
    uint32_t k_capacity;    /* largest k; 0 means min(capacity, WGS_TOPK_SORTED_MAX_K) */
    uint32_t row_capacity;  /* most rows; 0 means 1 */
    const char *label;
} wgs_topk_plan_desc;

typedef struct wgs_topk_args {
    WGPUBuffer keys_in; /* rows x n keys */
    uint64_t keys_in_offset;
    WGPUBuffer keys_out; /* rows x k keys; another buffer than the inputs */
    uint64_t keys_out_offset;
    WGPUBuffer values_in; /* payload BUFFER: rows x n values */
    uint64_t values_in_offset;
    WGPUBuffer values_out; /* payload BUFFER and INDEX: rows x k */
    uint64_t values_out_offset;
    uint64_t n;    /* keys a row, 1 .. capacity */
    uint32_t rows; /* 1 .. row_capacity */
    uint32_t k;    /* 1 .. min(n, k_capacity) */
    WGPUQuerySet timestamp_query_set; /* optional: begin and end of its compute pass */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
} wgs_topk_args;

/* Checks the description (WGS_ERROR_UNSUPPORTED_TYPE for another key type,
 * WGS_ERROR_INVALID_ARGUMENT for an unknown select, output or payload, or k_capacity
 * past capacity, WGS_ERROR_TOO_LARGE past the limits above), compiles the pipelines
 * and allocates the scratch. */
WGS_API wgs_result wgs_topk_plan_create(wgs_context *ctx, const wgs_topk_plan_desc *desc, wgs_topk_plan **out);
WGS_API void wgs_topk_plan_destroy(wgs_topk_plan *plan);
/* Bytes of GPU memory the plan holds (0 for NULL): see Scratch above. */
WGS_API uint64_t wgs_topk_plan_scratch_size(const wgs_topk_plan *plan);
/* Records the top-k of every row (see How above) into one compute pass. Refused before
 * any GPU work: n of 0 or past capacity (WGS_ERROR_CAPACITY_EXCEEDED past it), rows
 * of 0 or past row_capacity, k of 0, past n or past k_capacity
 * (WGS_ERROR_INVALID_ARGUMENT, or _CAPACITY_EXCEEDED past a capacity), a missing
 * buffer or one too small (the checks of "Buffers passed to encodes"), an output
 * sharing a buffer with an input (WGS_ERROR_ALIASING). */
WGS_API wgs_result wgs_topk_encode(wgs_topk_plan *plan, WGPUCommandEncoder encoder, const wgs_topk_args *args);
/* Convenience: the top k of each of `rows` rows of n host keys (values: rows x n for
 * BUFFER, else NULL) into keys_out[rows x k] and values_out[rows x k] (NULL for NONE).
 * Waits. */
WGS_API wgs_result wgs_topk_host(wgs_context *ctx, const wgs_topk_plan_desc *desc, const void *keys,
                                 const uint32_t *values, uint64_t n, uint32_t rows, uint32_t k, void *keys_out,
                                 uint32_t *values_out);

/* ---------------------------------------------------------------------------
 * Segmented sort: a stable sort of the keys (and values) within each segment
 *
 * Keys, orders and the float order of the radix sort (see Sort): u32, i32, f32, u64,
 * i64, ascending (default) or descending, stable (equal keys keep their input order
 * within a segment). The segments are given as the segmented reduce's (OFFSETS: CSR,
 * n_segments + 1 offsets; BEGIN_END: two arrays, gaps allowed), in order and apart:
 * begin_s <= end_s <= begin_(s+1), every offset <= n. Any mixture of lengths: empty
 * segments, segments of one key, one segment of all n, millions of tiny ones.
 * Output: keys_out[begin_s .. end_s) holds the segment's keys sorted; keys_out (and
 * values_out) at places in no segment (gaps, before the first, after the last) are not
 * written.
 * Payload: NONE; BUFFER: a value of value_bytes (4 or 8) a key moves with it; INDEX:
 * values_out receives each key's index in the whole input (not within its segment), as
 * the sort's INDEX and the segmented reduce's arg ops count.
 * The GPU checks the offsets and writes the status word (args.status, optional): 0,
 * WGS_ERROR_SEGMENTS_UNORDERED, WGS_ERROR_SEGMENT_OUT_OF_RANGE (the segmented reduce's
 * codes), or WGS_ERROR_TOO_LARGE for a segment longer than the tile under
 * WGS_SEGMENTED_SORT_PATH_SMALL (the larger code where several happen). With a bad
 * status the output is undefined, but nothing is written outside keys_out[0, n) and
 * values_out[0, n), and the kernels finish. wgs_segmented_sort_host returns the status.
 *
 * How (nothing read back; which segment takes which path is decided on the GPU from
 * the offsets): a first compute pass zeroes the status, checks each segment's offsets,
 * lists the segments of 33 keys up to the tile (wgs_segmented_sort_plan_tile_size: 256
 * keys on CPU drivers, 4096 on GPUs) in two lists, those up to a medium tile (64 keys
 * on CPU drivers, 512 on GPUs) and the longer ones, lists those past the tile up to a
 * bound (1024 keys on CPU drivers, 2^20 on GPUs) in a third, and gives each longer
 * segment its length for the large path; in the same pass 8 invocations a segment
 * sort each one of at most 32 keys (each key's rank counted). A pass a list,
 * dispatched for its count on the GPU, sorts each listed segment in the memory of a
 * workgroup of that list's size: an LSD radix sort of 8-bit digits ranked as the radix
 * sort ranks a tile, a pass only for the digits in which the segment's keys differ;
 * the keys leave from workgroup memory and the values are moved from the input to
 * their ranks. Segments of the third list take a workgroup each through global memory,
 * a compute pass of one dispatch a digit (4 for 32-bit keys, 8 for 64-bit ones): the
 * segment's digit counts, then its tiles in order ranked and scattered from the input
 * through two scratch arrays to the output.
 * Segments past the bound take the large path: the plan's scan plan turns their lengths
 * into places, a gather over their keys (dispatched for their count, each key finding
 * its segment by a binary search of the places) copies them to a compacted array with
 * their segment and position, the plan's first radix sort plan sorts them stably by
 * key carrying their compacted index, a relabel gives each its segment and position,
 * the second sort plan sorts them stably by segment (only the bits that segment_capacity
 * needs) carrying the position, and a scatter writes the i-th key of that order to the
 * i-th compacted position. The compacted count stays on the GPU: the sorts take it as
 * their n_buffer, and the relabel and scatter follow it by the dispatch layer's count
 * rule. Records a compute pass of 3 dispatches (2 under PATH_LARGE) and two passes of 2
 * (the count's and a list's sort; not under PATH_LARGE); where capacity is past the
 * tile (PATH_DEFAULT) a pass of the count's dispatch and one a digit; then where large
 * segments can occur (capacity past the bound, or PATH_LARGE) the scan plan's passes,
 * a pass of 2 (the count's and the gather), the first sort's passes, a pass of 2 (the
 * count's and the relabel), the second sort's passes and a pass of 2 (the count's and
 * the scatter).
 * Scratch (wgs_segmented_sort_plan_scratch_size): the lists, 12 bytes a segment and
 * 16 more, rounded up to 256; where capacity is past the tile (PATH_DEFAULT) two
 * copies of capacity keys and values; where a segment can be past the bound also 4
 * bytes a segment twice, the compacted keys (key bytes a key) and five u32 arrays of
 * capacity, the scan plan's and the two sort plans' scratch (each a copy of capacity
 * keys and values).
 * Limits: n keys (and values) in one storage binding and n < 2^31; n_segments <
 * 2^31. The outputs are buffers of their own, apart from every input.
 * Counts from the GPU (n_buffer, n_segments_buffer) are followed by the dispatch layer
 * (docs/design.md, section 12b): the passes are the bounds', each with its small count
 * dispatch first.
 * ------------------------------------------------------------------------- */
typedef struct wgs_segmented_sort_plan wgs_segmented_sort_plan;

typedef enum wgs_segmented_sort_path {
    WGS_SEGMENTED_SORT_PATH_DEFAULT = 0, /* a tile or less: a workgroup; longer: the radix sorts */
    WGS_SEGMENTED_SORT_PATH_SMALL = 1,   /* no large path: longer ones refused (status); little scratch */
    WGS_SEGMENTED_SORT_PATH_LARGE = 2,   /* every segment by the radix sorts (tests, comparisons) */
    WGS_SEGMENTED_SORT_PATH_FORCE32 = 0x7FFFFFFF
} wgs_segmented_sort_path;

typedef struct wgs_segmented_sort_plan_desc {
    wgs_type type;              /* the key type: u32 (default), i32, f32, u64, i64 */
    wgs_sort_order order;       /* ASCENDING (default) or DESCENDING */
    wgs_payload payload;        /* NONE, BUFFER or INDEX */
    uint32_t value_bytes;       /* BUFFER: 4 (default) or 8 */
    wgs_segments_form segments; /* OFFSETS (default) or BEGIN_END */
    wgs_segmented_sort_path path;
    uint64_t capacity;          /* largest n; 0 means 1 */
    uint64_t segment_capacity;  /* largest n_segments; 0 means 1 */
    const char *label;
} wgs_segmented_sort_plan_desc;

typedef struct wgs_segmented_sort_args {
    WGPUBuffer keys_in; /* n keys */
    uint64_t keys_in_offset;
    WGPUBuffer keys_out; /* n keys; a buffer of its own */
    uint64_t keys_out_offset;
    WGPUBuffer values_in; /* payload BUFFER: n values */
    uint64_t values_in_offset;
    WGPUBuffer values_out; /* payload BUFFER and INDEX: n; a buffer of its own */
    uint64_t values_out_offset;
    uint64_t n;
    WGPUBuffer offsets; /* OFFSETS: n_segments + 1 u32 */
    uint64_t offsets_offset;
    WGPUBuffer begin_offsets; /* BEGIN_END: n_segments u32 each */
    uint64_t begin_offsets_offset;
    WGPUBuffer end_offsets;
    uint64_t end_offsets_offset;
    uint64_t n_segments;
    WGPUBuffer status; /* optional: one u32, 0 or the result code of bad offsets */
    uint64_t status_offset;
    WGPUQuerySet timestamp_query_set; /* optional: begin of the first pass, end of the last */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
    /* Optional: the key count from the GPU, as in wgs_scan_args (n the bound): the keys
     * are the first min(count, n); an offset past them is out of range. */
    WGPUBuffer n_buffer;
    uint64_t n_offset;
    /* Optional: the segment count from the GPU (one u32 at n_segments_offset, a
     * multiple of 4; Storage usage), as in wgs_segmented_reduce_args: the first
     * min(count, n_segments) segments are sorted, nothing of the others is written.
     * n_segments is the bound, checked and sized as without it. */
    WGPUBuffer n_segments_buffer;
    uint64_t n_segments_offset;
} wgs_segmented_sort_args;

/* Checks the description (WGS_ERROR_UNSUPPORTED_TYPE for another key type,
 * WGS_ERROR_INVALID_ARGUMENT for an unknown order, payload, form or path or a
 * value_bytes other than 4 or 8, WGS_ERROR_TOO_LARGE past the limits above), compiles
 * the pipelines and, where large segments can occur, creates the scan plan and the two
 * sort plans and allocates the scratch. */
WGS_API wgs_result wgs_segmented_sort_plan_create(wgs_context *ctx, const wgs_segmented_sort_plan_desc *desc,
                                                  wgs_segmented_sort_plan **out);
/* Accepts NULL. */
WGS_API void wgs_segmented_sort_plan_destroy(wgs_segmented_sort_plan *plan);
/* Bytes of GPU memory the plan holds (0 for NULL): see Scratch above. */
WGS_API uint64_t wgs_segmented_sort_plan_scratch_size(const wgs_segmented_sort_plan *plan);
/* The longest segment one workgroup sorts (0 for NULL). */
WGS_API uint32_t wgs_segmented_sort_plan_tile_size(const wgs_segmented_sort_plan *plan);
/* Records the segmented sort (see How above) into `encoder`; never submits. Refused
 * before any GPU work: n past capacity or n_segments past segment_capacity
 * (WGS_ERROR_CAPACITY_EXCEEDED), a missing buffer or one too small (the checks of
 * "Buffers passed to encodes"), an output sharing a buffer with an input or the other
 * output (WGS_ERROR_ALIASING). Bad offsets are the status word's (above). */
WGS_API wgs_result wgs_segmented_sort_encode(wgs_segmented_sort_plan *plan, WGPUCommandEncoder encoder,
                                             const wgs_segmented_sort_args *args);
/* Convenience: sorts the segments of host arrays. keys: n keys; values: n values for
 * BUFFER, else NULL; offsets: n_segments + 1 u32 (OFFSETS) or the n_segments begins
 * (BEGIN_END, with end_offsets the ends; NULL for OFFSETS); keys_out and values_out
 * (NULL for NONE): n each, of which the places in no segment keep what they held.
 * Returns the GPU's status for bad offsets, and then leaves the outputs unwritten. Waits. */
WGS_API wgs_result wgs_segmented_sort_host(wgs_context *ctx, const wgs_segmented_sort_plan_desc *desc,
                                           const void *keys, const void *values, const uint32_t *offsets,
                                           const uint32_t *end_offsets, uint64_t n, uint64_t n_segments,
                                           void *keys_out, void *values_out);

/* ---------------------------------------------------------------------------
 * GPU memory before creation: what a plan of this description would hold, the number
 * its wgs_<kind>_plan_scratch_size would give, without allocating it. The description
 * is checked as by the plan's creation, whose results they return (an unsupported
 * type, a capacity past the device's limits), *bytes 0 then. Cost: the pipelines are
 * compiled (and kept in the context's cache, so the creation that follows is quick);
 * no GPU memory is allocated.
 * ------------------------------------------------------------------------- */
WGS_API wgs_result wgs_scan_plan_desc_scratch_size(wgs_context *ctx, const wgs_scan_plan_desc *desc,
                                                   uint64_t *bytes);
WGS_API wgs_result wgs_reduce_plan_desc_scratch_size(wgs_context *ctx, const wgs_reduce_plan_desc *desc,
                                                     uint64_t *bytes);
WGS_API wgs_result wgs_count_plan_desc_scratch_size(wgs_context *ctx, const wgs_count_plan_desc *desc,
                                                    uint64_t *bytes);
WGS_API wgs_result wgs_segmented_reduce_plan_desc_scratch_size(wgs_context *ctx,
                                                               const wgs_segmented_reduce_plan_desc *desc,
                                                               uint64_t *bytes);
WGS_API wgs_result wgs_scan_by_key_plan_desc_scratch_size(wgs_context *ctx, const wgs_scan_by_key_plan_desc *desc,
                                                          uint64_t *bytes);
WGS_API wgs_result wgs_segmented_scan_plan_desc_scratch_size(wgs_context *ctx,
                                                             const wgs_segmented_scan_plan_desc *desc,
                                                             uint64_t *bytes);
WGS_API wgs_result wgs_reduce_by_key_plan_desc_scratch_size(wgs_context *ctx,
                                                            const wgs_reduce_by_key_plan_desc *desc, uint64_t *bytes);
WGS_API wgs_result wgs_select_plan_desc_scratch_size(wgs_context *ctx, const wgs_select_plan_desc *desc,
                                                     uint64_t *bytes);
WGS_API wgs_result wgs_histogram_plan_desc_scratch_size(wgs_context *ctx, const wgs_histogram_plan_desc *desc,
                                                        uint64_t *bytes);
WGS_API wgs_result wgs_alloc_plan_desc_scratch_size(wgs_context *ctx, const wgs_alloc_plan_desc *desc,
                                                    uint64_t *bytes);
WGS_API wgs_result wgs_sort_plan_desc_scratch_size(wgs_context *ctx, const wgs_sort_plan_desc *desc,
                                                   uint64_t *bytes);
WGS_API wgs_result wgs_topk_plan_desc_scratch_size(wgs_context *ctx, const wgs_topk_plan_desc *desc,
                                                   uint64_t *bytes);
WGS_API wgs_result wgs_segmented_sort_plan_desc_scratch_size(wgs_context *ctx,
                                                             const wgs_segmented_sort_plan_desc *desc,
                                                             uint64_t *bytes);

/* ---------------------------------------------------------------------------
 * Compiling ahead: no stall at the first call. A plan's creation compiles the
 * pipelines the context's cache lacks, one after another (on a CPU driver, seconds a
 * primitive; on a GPU, tens to hundreds of milliseconds). wgs_prepare compiles those of
 * several plan descriptions at once, with WebGPU's asynchronous pipeline creation, so
 * that a program pays for them once, where it chooses (at start-up), and the plans it
 * creates afterwards compile nothing. The cache is the context's: prepare on the
 * context that will create the plans.
 * ------------------------------------------------------------------------- */
typedef enum wgs_plan_kind {
    WGS_PLAN_NONE = 0, /* refused: every item names its kind */
    WGS_PLAN_SCAN = 1,
    WGS_PLAN_REDUCE = 2,
    WGS_PLAN_COUNT = 3,
    WGS_PLAN_SEGMENTED_REDUCE = 4,
    WGS_PLAN_SCAN_BY_KEY = 5,
    WGS_PLAN_SEGMENTED_SCAN = 6,
    WGS_PLAN_REDUCE_BY_KEY = 7,
    WGS_PLAN_SELECT = 8,
    WGS_PLAN_HISTOGRAM = 9,
    WGS_PLAN_ALLOC = 10,
    WGS_PLAN_SORT = 11,
    WGS_PLAN_TOPK = 12,
    WGS_PLAN_SEGMENTED_SORT = 13,
    WGS_PLAN_FORCE32 = 0x7FFFFFFF
} wgs_plan_kind;

/* One plan to prepare: its kind and a pointer to its description (the member of that
 * kind; typed pointers, so the compiler checks what each points to):
 *     {.kind = WGS_PLAN_SORT, .sort = &sort_desc} */
typedef struct wgs_prepare_desc {
    wgs_plan_kind kind;
    union {
        const wgs_scan_plan_desc *scan;
        const wgs_reduce_plan_desc *reduce;
        const wgs_count_plan_desc *count;
        const wgs_segmented_reduce_plan_desc *segmented_reduce;
        const wgs_scan_by_key_plan_desc *scan_by_key;
        const wgs_segmented_scan_plan_desc *segmented_scan;
        const wgs_reduce_by_key_plan_desc *reduce_by_key;
        const wgs_select_plan_desc *select;
        const wgs_histogram_plan_desc *histogram;
        const wgs_alloc_plan_desc *alloc;
        const wgs_sort_plan_desc *sort;
        const wgs_topk_plan_desc *topk;
        const wgs_segmented_sort_plan_desc *segmented_sort;
    };
} wgs_prepare_desc;

/* Compiles the pipelines of the plans that items[0..n) describe, all at once, into the
 * context's cache, and waits for them: a plan created afterwards from one of those
 * descriptions (or any that needs the same pipelines) compiles nothing. The
 * descriptions are those of the plans' creation, capacity included (a plan chooses its
 * algorithm and so its pipelines by it). No plan is kept and no GPU memory allocated.
 * Preconditions: n == 0 (nothing to do) or items points to n items.
 * Errors: a bad item (no kind, no description: WGS_ERROR_INVALID_ARGUMENT) or a
 * description its creation refuses returns that creation's result and message before
 * anything compiles; a pipeline that fails to compile returns the error with the
 * compiler's message, as creation does, after the others were waited for (those stay
 * in the cache).
 * Cost: Dawn compiles the requests on threads of its own, so where the driver's
 * compiler runs in parallel the wait is for the slowest pipeline rather than for their
 * sum (SwiftShader's does not: there it takes as long as creating the plans in turn);
 * pipelines already cached cost nothing, so a second call with the same items returns
 * at once. A user's operator is still checked
 * at each plan creation (a small compilation of its own; see "Your own operator"). In
 * the browser the JavaScript package's wg.prepare(specs) is the way: this call compiles
 * there synchronously. */
WGS_API wgs_result wgs_prepare(wgs_context *ctx, const wgs_prepare_desc *items, size_t n);

/* ---------------------------------------------------------------------------
 * Copy: the yardstick. A WGSL copy at memory speed; a primitive that reads and writes
 * n bytes is measured against a copy of n bytes in the same run.
 * ------------------------------------------------------------------------- */
typedef struct wgs_copy_args {
    WGPUBuffer src;
    uint64_t src_offset;
    WGPUBuffer dst; /* another buffer */
    uint64_t dst_offset;
    uint64_t bytes; /* a multiple of 16 */
    WGPUQuerySet timestamp_query_set; /* optional, as in wgs_scan_args */
    uint32_t timestamp_begin_index;
    uint32_t timestamp_end_index;
} wgs_copy_args;

/* Records the copy (one compute pass) into `encoder`. Its parameters go to the
 * context's parameter ring (see "Parameter records"). */
WGS_API wgs_result wgs_copy_encode(wgs_context *ctx, WGPUCommandEncoder encoder,
                                   const wgs_copy_args *args);

/* ---------------------------------------------------------------------------
 * Host helpers: small conveniences for programs that have no WebGPU code of their
 * own (the CLI, tests, simple users). They wait where they say so.
 * ------------------------------------------------------------------------- */

/* Creates a buffer on the context's device; the caller owns it (wgs_buffer_release). */
WGS_API wgs_result wgs_buffer_create(wgs_context *ctx, uint64_t size, WGPUBufferUsage usage,
                                     WGPUBuffer *out);
/* Drops the caller's reference (the memory goes with the last one). Accepts NULL. */
WGS_API void wgs_buffer_release(wgs_context *ctx, WGPUBuffer buffer);
/* Queues a write of host memory (the buffer needs CopyDst; offset and size multiples of
 * 4). Returns once `data` may be reused; the GPU's copies follow all work submitted
 * before. Up to 2 MiB go through wgpuQueueWriteBuffer; more through the context's
 * staging buffers, 32 MiB at a time, which may wait for a staging buffer's previous copy.
 * A buffer the copy may not touch fails with WGS_ERROR_GPU_VALIDATION. */
WGS_API wgs_result wgs_buffer_write(wgs_context *ctx, WGPUBuffer buffer, uint64_t offset,
                                    const void *data, uint64_t size);
/* Reads back after all submitted work. Waits. The buffer needs CopySrc
 * (WGS_ERROR_BUFFER_USAGE); a destroyed buffer fails with WGS_ERROR_GPU_VALIDATION.
 * Staging: after its first large transfer the context keeps up to 4 staging buffers of
 * 32 MiB for each direction (256 MiB of host-visible memory at most), released with it. */
WGS_API wgs_result wgs_buffer_read(wgs_context *ctx, WGPUBuffer buffer, uint64_t offset,
                                   void *data, uint64_t size);
/* A command encoder to record into; hand it to wgs_submit. */
WGS_API wgs_result wgs_encoder_create(wgs_context *ctx, WGPUCommandEncoder *out);
/* Finishes, submits and releases the encoder. Reports WebGPU validation errors of
 * everything recorded in it. Does not wait for the GPU. */
WGS_API wgs_result wgs_submit(wgs_context *ctx, WGPUCommandEncoder encoder);
/* Waits until the GPU has finished all submitted work. */
WGS_API wgs_result wgs_wait(wgs_context *ctx);

/* GPU timing with timestamp queries (needs the timestamp-query feature). A timer holds
 * `pairs` begin/end pairs: pass wgs_timer_query_set and indices 2*i, 2*i+1 to the
 * timestamp fields of an encode, then wgs_timer_resolve into the same encoder before
 * submitting, and wgs_timer_read after. */
typedef struct wgs_timer wgs_timer;
WGS_API wgs_result wgs_timer_create(wgs_context *ctx, uint32_t pairs, wgs_timer **out);
WGS_API void wgs_timer_destroy(wgs_timer *timer);
WGS_API WGPUQuerySet wgs_timer_query_set(const wgs_timer *timer);
WGS_API wgs_result wgs_timer_resolve(wgs_timer *timer, WGPUCommandEncoder encoder);
/* Waits, then stores end - begin of each pair in seconds. */
WGS_API wgs_result wgs_timer_read(wgs_timer *timer, double *seconds, uint32_t pairs);

#ifdef __cplusplus
}
#endif

#endif /* WGSCAN_H */
