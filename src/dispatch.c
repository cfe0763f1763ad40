/* SPDX-License-Identifier: MIT */
/*
 * dispatch.c: what every primitive does around a kernel launch: parameter records in
 * a uniform ring, bind groups with the parameters at binding 2, grids folded into two
 * dimensions, the count rule of each dispatch, and the checks of the buffers users
 * hand in.
 *
 * A primitive describes each dispatch once (pipeline, bindings, record, grid, and how
 * record and grid follow an element count on the GPU) and brackets a pass's dispatches
 * with wgs__dispatch_begin and wgs__dispatch_end. Without a count buffer a dispatch is
 * recorded at once; with one it goes to counts.c, the layer below, which records the
 * pass at its end. counts.c never calls back here.
 *
 * The ring: records are written with wgpuQueueWriteBuffer as dispatches are recorded,
 * and queue writes land before the next submit executes. So a record must not be
 * rewritten before the command buffer that reads it has run, and wgscan never sees
 * when that is (the caller submits its own encoders). Hence each record is written
 * once: a full ring is dropped (the command buffers that bind it keep it alive until
 * they have run) and a fresh one takes its place. No limit per submit, one buffer
 * creation per WGS_PARAM_RING records.
 *
 * An encode may record another one inside it (an allocation's, a select's or a sort's
 * scan), whose reserve can replace the ring after the outer encode wrote records it
 * has yet to bind. So a record's offset counts on from ring to ring, the last
 * WGS_PARAM_OLD_RINGS rings replaced stay held, and wgs__dispatch binds the ring that
 * holds the offset.
 *
 * Written once, a record never changes, so a record equal to one already in the
 * current ring is not written again: wgs__param_push returns the earlier one's offset
 * (a small table by content, emptied when the ring is replaced). An encode repeated
 * with the same arguments thus writes nothing and binds the offsets it bound before,
 * and its bind groups come from the cache (bindings.c).
 */
#include "internal.h"

#include <assert.h>
#include <string.h>

wgs_result wgs__params_reserve(wgs_context *ctx, uint64_t count) {
    if (ctx->param_ring && ctx->param_cap - ctx->param_used >= count) return WGS_OK;
    uint64_t records = count > WGS_PARAM_RING ? count : WGS_PARAM_RING;
    WGPUBufferUsage usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;
    /* The tests' fault injection: a usage WebGPU refuses, so the real error path runs. */
    if (ctx->exp.fail_param_ring) usage |= WGPUBufferUsage_MapRead;
    wgs__gpu_scope_push(ctx->gpu);
    WGPUBuffer ring = wgs__gpu_buffer_create(ctx->gpu, wgs__mul_sat(records, wgs__param_stride(ctx)), usage,
                                        "wgscan parameter ring");
    wgs_result r = wgs__scope_end(ctx, "creating the parameter ring");
    if (r != WGS_OK) {
        wgs__gpu_buffer_release(ctx->gpu, ring);
        return r;
    }
    if (ctx->param_ring) {
        const int last = WGS_PARAM_OLD_RINGS - 1;
        wgs__gpu_buffer_release(ctx->gpu, ctx->param_old[last]);
        memmove(ctx->param_old + 1, ctx->param_old, last * sizeof ctx->param_old[0]);
        memmove(ctx->param_old_base + 1, ctx->param_old_base, last * sizeof ctx->param_old_base[0]);
        memmove(ctx->param_old_cap + 1, ctx->param_old_cap, last * sizeof ctx->param_old_cap[0]);
        ctx->param_old[0] = ctx->param_ring;
        ctx->param_old_base[0] = ctx->param_base;
        ctx->param_old_cap[0] = ctx->param_cap;
        ctx->param_base += ctx->param_cap * wgs__param_stride(ctx);
    }
    ctx->param_ring = ring;
    ctx->param_used = 0;
    ctx->param_cap = records;
    memset(ctx->param_seen, 0, sizeof ctx->param_seen);
    return WGS_OK;
}

uint64_t wgs__param_push(wgs_context *ctx, const wgs_params *rec) {
    assert(ctx->param_ring && ctx->param_used < ctx->param_cap); /* reserved first */
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < sizeof rec->words / sizeof rec->words[0]; i++) h = (h ^ rec->words[i]) * 1099511628211ull;
    wgs__param_seen *set = &ctx->param_seen[(h ^ h >> 32) % WGS_PARAM_SEEN_SETS * WGS_PARAM_SEEN_WAYS];
    wgs__param_seen *victim = set;
    ++ctx->param_clock;
    for (int w = 0; w < WGS_PARAM_SEEN_WAYS; w++) {
        if (set[w].used && memcmp(&set[w].rec, rec, sizeof *rec) == 0) {
            set[w].used = ctx->param_clock;
            return set[w].offset;
        }
        if (set[w].used < victim->used) victim = &set[w]; /* an empty way, else the least recently used */
    }
    uint64_t offset = ctx->param_used++ * wgs__param_stride(ctx);
    wgs__gpu_queue_write(ctx->gpu, ctx->param_ring, offset, rec, sizeof *rec);
    ctx->records_written++;
    *victim = (wgs__param_seen){*rec, ctx->param_base + offset, ctx->param_clock};
    return ctx->param_base + offset;
}

/* The ring holding the record at `offset` (wgs__param_push's), and the offset in it;
 * NULL for one older than the rings held, which leaves binding 2 out: the bind group
 * fails validation, so the encode returns an error rather than read another record. */
static WGPUBuffer ring_of(const wgs_context *ctx, uint64_t *offset) {
    uint64_t stride = wgs__param_stride(ctx);
    if (*offset >= ctx->param_base) {
        *offset -= ctx->param_base;
        return ctx->param_ring;
    }
    for (int i = 0; i < WGS_PARAM_OLD_RINGS && ctx->param_old[i]; i++)
        if (*offset >= ctx->param_old_base[i] && *offset - ctx->param_old_base[i] < ctx->param_old_cap[i] * stride) {
            *offset -= ctx->param_old_base[i];
            return ctx->param_old[i];
        }
    return NULL;
}

gpu_binding wgs__param_binding(wgs_context *ctx, uint32_t slot, uint64_t offset) {
    WGPUBuffer ring = ring_of(ctx, &offset);
    return (gpu_binding){slot, ring, offset, sizeof(wgs_params)};
}

WGPUBuffer wgs__dummy(wgs_context *ctx) {
    if (!ctx->dummy)
        ctx->dummy = wgs__gpu_buffer_create(ctx->gpu, 256, WGPUBufferUsage_Storage, "wgscan placeholder");
    return ctx->dummy;
}

/* Binding slot takes range slot + 1 (range 0 is unused), so that two unused writable
 * bindings of one dispatch (a segmented reduce of no segments without a status word)
 * never alias, which WebGPU refuses. 256 bytes a range: minStorageBufferOffsetAlignment
 * is at most 256. */
#define WGS_DUMMY_RW_RANGES 17u

static WGPUBuffer dummy_rw(wgs_context *ctx) {
    if (!ctx->dummy_rw)
        ctx->dummy_rw = wgs__gpu_buffer_create(ctx->gpu, 256u * WGS_DUMMY_RW_RANGES, WGPUBufferUsage_Storage,
                                               "wgscan placeholder (rw)");
    return ctx->dummy_rw;
}

gpu_binding wgs__binding_or_dummy(wgs_context *ctx, uint32_t slot, WGPUBuffer b, uint64_t offset, uint64_t bytes,
                                  int writable) {
    if (!bytes && writable) {
        assert(slot + 1 < WGS_DUMMY_RW_RANGES);
        return (gpu_binding){slot, dummy_rw(ctx), 256u * (slot + 1u), 256};
    }
    if (!bytes) return (gpu_binding){slot, wgs__dummy(ctx), 0, 256};
    return (gpu_binding){slot, b, offset, bytes};
}

void wgs__dispatch_begin(wgs_context *ctx, WGPUBuffer n_buffer, uint64_t n_offset, uint64_t bound) {
    wgs__counts_begin(ctx, n_buffer, n_offset, bound, NULL, 0, 0);
}

void wgs__dispatch_begin2(wgs_context *ctx, WGPUBuffer n_buffer, uint64_t n_offset, uint64_t bound,
                          WGPUBuffer second, uint64_t second_offset, uint64_t second_bound) {
    wgs__counts_begin(ctx, n_buffer, n_offset, bound, second, second_offset, second_bound);
}

void wgs__dispatch(wgs_context *ctx, WGPUComputePassEncoder pass, WGPUComputePipeline pipe,
                   const gpu_binding *b, uint32_t nb, const wgs_params *record, uint64_t record_at,
                   uint64_t groups, const wgs__count_rule *rule) {
    if (wgs__counts_active(ctx)) {
        wgs__counts_defer(ctx, pipe, b, nb, record, groups, rule);
        return;
    }
    if (rule && rule->only_counted) return;
    gpu_binding all[12];
    memcpy(all, b, nb * sizeof *b);
    WGPUBuffer ring = record ? ring_of(ctx, &record_at) : NULL;
    if (ring) all[nb++] = (gpu_binding){2, ring, record_at, sizeof(wgs_params)};
    uint32_t x, y;
    wgs__grid_fold(ctx, groups, &x, &y);
    if (record && !ring) { /* the invalid group ring_of means: made, refused, never kept */
        WGPUBindGroup group = wgs__gpu_bind_group_create(ctx->gpu, pipe, all, nb);
        wgs__gpu_pass_dispatch(ctx->gpu, pass, pipe, group, x, y);
        wgs__gpu_bind_group_release(ctx->gpu, group);
        return;
    }
    wgs__gpu_pass_dispatch(ctx->gpu, pass, pipe, wgs__bind_group(ctx, pipe, all, nb), x, y);
}

wgs_result wgs__dispatch_end(wgs_context *ctx, WGPUComputePassEncoder pass) { return wgs__counts_end(ctx, pass); }

void wgs__dispatch_release(wgs_context *ctx) {
    wgs__bind_cache_clear(ctx);
    wgs__gpu_buffer_release(ctx->gpu, ctx->param_ring);
    for (int i = 0; i < WGS_PARAM_OLD_RINGS; i++) wgs__gpu_buffer_release(ctx->gpu, ctx->param_old[i]);
    wgs__counts_release(ctx);
    wgs__gpu_buffer_release(ctx->gpu, ctx->dummy);
    wgs__gpu_buffer_release(ctx->gpu, ctx->dummy_rw);
}

wgs_result wgs__check_count(wgs_context *ctx, WGPUBuffer n_buffer, uint64_t n_offset, const char *name) {
    if (!n_buffer) return WGS_OK;
    WGS_FAIL_IF(ctx, n_offset % 4 != 0, WGS_ERROR_MISALIGNED_OFFSET, "%s offset %llu is not a multiple of 4",
                name, (unsigned long long)n_offset);
    WGS_FAIL_IF(ctx, !(wgs__gpu_buffer_usage(ctx->gpu, n_buffer) & WGPUBufferUsage_Storage),
                WGS_ERROR_BUFFER_USAGE, "%s buffer lacks WGPUBufferUsage_Storage", name);
    uint64_t size = wgs__gpu_buffer_size(ctx->gpu, n_buffer);
    WGS_FAIL_IF(ctx, n_offset > size || size - n_offset < 4, WGS_ERROR_BUFFER_TOO_SMALL,
                "%s buffer holds %llu bytes; offset %llu + 4 bytes needed", name, (unsigned long long)size,
                (unsigned long long)n_offset);
    return WGS_OK;
}

wgs_result wgs__check_buffer(wgs_context *ctx, WGPUBuffer b, uint64_t offset, uint64_t bytes,
                             const char *name) {
    WGS_FAIL_IF(ctx, !b, WGS_ERROR_INVALID_ARGUMENT, "%s buffer is NULL", name);
    uint32_t align = ctx->caps.info.min_storage_offset_alignment;
    WGS_FAIL_IF(ctx, offset % align != 0, WGS_ERROR_MISALIGNED_OFFSET,
                "%s offset %llu is not a multiple of %u (minStorageBufferOffsetAlignment)", name,
                (unsigned long long)offset, align);
    WGS_FAIL_IF(ctx, !(wgs__gpu_buffer_usage(ctx->gpu, b) & WGPUBufferUsage_Storage),
                WGS_ERROR_BUFFER_USAGE, "%s buffer lacks WGPUBufferUsage_Storage", name);
    uint64_t size = wgs__gpu_buffer_size(ctx->gpu, b);
    WGS_FAIL_IF(ctx, offset > size || size - offset < bytes, WGS_ERROR_BUFFER_TOO_SMALL,
                "%s buffer holds %llu bytes; offset %llu + %llu bytes needed", name,
                (unsigned long long)size, (unsigned long long)offset, (unsigned long long)bytes);
    return WGS_OK;
}

void wgs__bind_vec4_input(wgs_context *ctx, gpu_binding *b, WGPUBuffer buffer, uint64_t offset,
                          uint64_t elems) {
    b[0] = (gpu_binding){0, buffer, offset, elems * 4};
    if (elems >= 4)
        b[1] = (gpu_binding){4, buffer, offset, elems / 4 * 16};
    else
        b[1] = (gpu_binding){4, wgs__dummy(ctx), 0, 256};
}

uint64_t wgs__chunk_elems(const wgs_context *ctx, uint64_t multiple) {
    /* Whole multiples of 256 bytes (offset alignment) and of `multiple` elements, below
     * 2^31 elements so that in-kernel u32 indices (4 * vec4 index + 3) never wrap. */
    uint64_t unit = 64 * multiple; /* 4-byte elements: 64 per 256 bytes */
    uint64_t max = ctx->caps.info.max_storage_binding_size / 4;
    if (max > (1ull << 31)) max = 1ull << 31;
    return max / unit * unit;
}

wgs_result wgs__predicate_bits(wgs_context *ctx, wgs_type type, const wgs_predicate *pred,
                               uint32_t *kind, uint32_t *a, uint32_t *b) {
    wgs_predicate_kind k = pred->kind == WGS_PREDICATE_DEFAULT ? WGS_PREDICATE_NONZERO : pred->kind;
    WGS_FAIL_IF(ctx, (unsigned)k > WGS_PREDICATE_IN_RANGE, WGS_ERROR_INVALID_ARGUMENT,
                "unknown predicate %d", (int)pred->kind);
    double ops[2] = {pred->a, pred->b};
    uint32_t bits[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        double v = ops[i];
        if (type == WGS_TYPE_F32) {
            float f = (float)v;
            memcpy(&bits[i], &f, 4);
            continue;
        }
        int used = (i == 0 && k >= WGS_PREDICATE_EQUAL) || (i == 1 && k == WGS_PREDICATE_IN_RANGE);
        double lo = type == WGS_TYPE_I32 ? -2147483648.0 : 0.0;
        double hi = type == WGS_TYPE_I32 ? 2147483647.0 : 4294967295.0;
        WGS_FAIL_IF(ctx, used && !(v >= lo && v <= hi && v == (double)(int64_t)v),
                    WGS_ERROR_INVALID_ARGUMENT, "predicate operand %g is not a %s value", v,
                    wgs_type_name(type));
        if (!used) continue;
        bits[i] = type == WGS_TYPE_I32 ? (uint32_t)(int32_t)v : (uint32_t)v;
    }
    *kind = (uint32_t)k;
    *a = bits[0];
    *b = bits[1];
    return WGS_OK;
}

wgs_result wgs__predicate_override(wgs_context *ctx, wgs_type type, uint32_t kind, const wgs_predicate *pred,
                                   uint32_t *a, uint32_t *b) {
    uint32_t k = 0;
    wgs_result r = wgs__predicate_bits(ctx, type, pred, &k, a, b);
    if (r != WGS_OK) return r;
    WGS_FAIL_IF(ctx, k != kind, WGS_ERROR_INVALID_ARGUMENT,
                "an encode's predicate may change the operands, not the kind (plan %u, encode %u)", kind, k);
    return WGS_OK;
}

wgs_result wgs__encode_begin(wgs_context *ctx, WGPUCommandEncoder encoder, const void *args, uint64_t n,
                             uint64_t capacity, WGPUQuerySet timestamps) {
    WGS_FAIL_IF(ctx, !encoder || !args, WGS_ERROR_INVALID_ARGUMENT, "encoder and args are required");
    wgs_result r = wgs__check_device(ctx);
    if (r != WGS_OK) return r;
    WGS_FAIL_IF(ctx, n > capacity, WGS_ERROR_CAPACITY_EXCEEDED, "n = %llu exceeds the plan's capacity %llu",
                (unsigned long long)n, (unsigned long long)capacity);
    WGS_FAIL_IF(ctx, timestamps && !ctx->caps.info.has_timestamp_query, WGS_ERROR_FEATURE_MISSING,
                "timestamps need the timestamp-query feature");
    return WGS_OK;
}
