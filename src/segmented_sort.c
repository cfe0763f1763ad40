/* SPDX-License-Identifier: MIT */
/*
 * segmented_sort.c: segmented sort plans (kernels in wgsl/device/segmented_sort.wgsl,
 * which describes them). Per encode: a compute pass of the status's zeroing, the
 * offsets' check (which lists the segments a workgroup sorts) and the tiny segments'
 * sort, a few invocations a segment; a compute pass of the listed segments' sort, a
 * workgroup a segment, dispatched for their count on the GPU; where a segment can
 * be longer than the tile, a compute pass of a dispatch a digit, a workgroup a segment
 * up to the block bound. Where a segment can be longer than that, the large path
 * follows: the plan's scan plan places the
 * large segments, a gather compacts their keys, the plan's two sort plans order them
 * by key then by segment, and a relabel between them and a scatter after them follow
 * the compacted count on the GPU (the dispatch layer's count rule). Nothing is read
 * back.
 */
#include "chain.h"
#include "tuning.h"

#include <stdlib.h>
#include <string.h>

struct wgs_segmented_sort_plan {
    wgs_context *ctx;
    wgs_type type;
    wgs_payload payload;
    uint32_t key_bytes, value_bytes; /* value_bytes: 0 for NONE, 4 for INDEX */
    int csr, small, block, large;    /* the form; which paths the plan records */
    uint64_t capacity, segment_capacity;
    uint32_t wg, tile, small_max, medium_max;
    uint64_t scratch_bytes;
    WGPUComputePipeline clear, check, tiny, sort_medium, sort_small, sort_block, gather, relabel, scatter;
    /* The counts of the segments the medium and the full workgroups sort, of the large
     * ones and of those ss_block sorts, then their numbers (segment_capacity words
     * each). */
    WGPUBuffer small_list;
    /* ss_block's digit passes: the keys and values between them (n each). */
    WGPUBuffer block_keys[2], block_values[2];
    /* The large path: per segment its length past the tile and their inclusive scan;
     * per compacted key its segment, position, key, the first sort's index and the
     * second sort's segment and position. */
    WGPUBuffer large_len, large_end, cseg, cpos, ckeys, idx, seg2, pos2;
    wgs_scan_plan *scan;
    wgs_sort_plan *by_key, *by_segment;
};

static void plan_release(wgs_segmented_sort_plan *p) {
    wgs_sort_plan_destroy(p->by_segment);
    wgs_sort_plan_destroy(p->by_key);
    wgs_scan_plan_destroy(p->scan);
    WGPUBuffer bufs[] = {p->small_list, p->block_keys[0], p->block_keys[1], p->block_values[0], p->block_values[1],
                         p->large_len, p->large_end, p->cseg, p->cpos, p->ckeys, p->idx, p->seg2, p->pos2};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) wgs__gpu_buffer_release(p->ctx->gpu, bufs[i]);
}

/* Workgroup memory of ss_small: sort_tile.wgsl's room (the owners' counter rows, then
 * the tile's keys), its three digit tables and the workgroup scan's room, as the
 * radix sort's scatter takes them, then a place a key where the plan moves values
 * (SS_PLACES; one word for keys alone) and the range and key bits. */
typedef struct small_room {
    uint32_t sg_min, key_words, places;
} small_room;

static uint64_t small_storage(uint32_t wg, uint32_t items, const void *arg) {
    const small_room *a = arg;
    const uint64_t tile = (uint64_t)wg * items, rows = (uint64_t)(wg / a->sg_min) * 256;
    const uint64_t exchange = tile * a->key_words;
    return 4ull * ((rows > exchange ? rows : exchange) + 3 * 256 + wg + 64 + (a->places ? tile : 1) + 8);
}

/* Workgroup memory of ss_block: the same room, wide enough for the values, its digit
 * tables and the segment's digit counts, the workgroup scan's room. */
typedef struct block_room {
    uint32_t sg_min, words; /* the wider of a key and a value */
} block_room;

static uint64_t block_storage(uint32_t wg, uint32_t items, const void *arg) {
    const block_room *a = arg;
    const uint64_t rows = (uint64_t)(wg / a->sg_min) * 256, exchange = (uint64_t)wg * items * a->words;
    return 4ull * ((rows > exchange ? rows : exchange) + 4 * 256 + wg + 64 + 8);
}

static uint32_t key_kind(wgs_type t, wgs_sort_order order) {
    uint32_t k = t == WGS_TYPE_I32 ? 1 : t == WGS_TYPE_F32 ? 2 : t == WGS_TYPE_U64 ? 3 : t == WGS_TYPE_I64 ? 4 : 0;
    return k + (order == WGS_SORT_DESCENDING ? 16u : 0u);
}

static uint32_t bits_for(uint64_t x) {
    uint32_t b = 1;
    while (b < 32 && (x >> b) != 0) b++;
    return b;
}

wgs_result wgs_segmented_sort_plan_create(wgs_context *ctx, const wgs_segmented_sort_plan_desc *desc,
                                          wgs_segmented_sort_plan **out) {
    WGS_CREATE_BEGIN(ctx, desc, out);
    wgs_segmented_sort_plan_desc d = *desc;
    if (d.type == WGS_TYPE_DEFAULT) d.type = WGS_TYPE_U32;
    if (d.segments == WGS_SEGMENTS_DEFAULT) d.segments = WGS_SEGMENTS_OFFSETS;
    if (d.payload == WGS_PAYLOAD_BUFFER && d.value_bytes == 0) d.value_bytes = 4;
    if (d.capacity == 0) d.capacity = 1;
    if (d.segment_capacity == 0) d.segment_capacity = 1;
    WGS_FAIL_IF(ctx, d.type != WGS_TYPE_U32 && d.type != WGS_TYPE_I32 && d.type != WGS_TYPE_F32 &&
                         d.type != WGS_TYPE_U64 && d.type != WGS_TYPE_I64,
                WGS_ERROR_UNSUPPORTED_TYPE, "segmented sort keys are u32, i32, f32, u64 or i64, not %s",
                wgs_type_name(d.type));
    WGS_FAIL_IF(ctx, (unsigned)d.order > WGS_SORT_DESCENDING, WGS_ERROR_INVALID_ARGUMENT, "unknown sort order %d",
                (int)d.order);
    WGS_FAIL_IF(ctx, (unsigned)d.payload > WGS_PAYLOAD_INDEX, WGS_ERROR_INVALID_ARGUMENT, "unknown payload %d",
                (int)d.payload);
    WGS_FAIL_IF(ctx, d.payload == WGS_PAYLOAD_BUFFER && d.value_bytes != 4 && d.value_bytes != 8,
                WGS_ERROR_INVALID_ARGUMENT, "value_bytes is 4 or 8, not %u", d.value_bytes);
    WGS_FAIL_IF(ctx, (unsigned)d.segments > WGS_SEGMENTS_BEGIN_END, WGS_ERROR_INVALID_ARGUMENT,
                "unknown segments form %d", (int)d.segments);
    WGS_FAIL_IF(ctx, (unsigned)d.path > WGS_SEGMENTED_SORT_PATH_LARGE, WGS_ERROR_INVALID_ARGUMENT,
                "unknown segmented sort path %d", (int)d.path);
    const wgs_context_info *ci = &ctx->caps.info;
    const uint32_t key_bytes = (uint32_t)wgs_type_size(d.type), key_words = key_bytes / 4;
    const uint32_t value_bytes = d.payload == WGS_PAYLOAD_BUFFER ? d.value_bytes
                                 : d.payload == WGS_PAYLOAD_INDEX ? 4u : 0u;
    const uint64_t bind = ci->max_storage_binding_size;
    WGS_FAIL_IF(ctx, d.capacity >= (1ull << 31) || wgs__mul_sat(d.capacity, key_bytes) > bind ||
                         wgs__mul_sat(d.capacity, value_bytes) > bind || d.segment_capacity >= (1ull << 31) ||
                         wgs__mul_sat(d.segment_capacity + 1, 4) > bind,
                WGS_ERROR_TOO_LARGE,
                "capacity %llu and segment_capacity %llu: keys, values and offsets must each fit one binding of "
                "%llu bytes, and both counts stay below 2^31",
                (unsigned long long)d.capacity, (unsigned long long)d.segment_capacity, (unsigned long long)bind);
    /* ss_small ranks as the radix sort does: by subgroups where every subgroup fits
     * both workgroups, else an invocation a counter row, in workgroups made smaller
     * until the rows fit workgroup memory. */
    wgs_tile_shape tuned = wgs__tuning_of(ctx)->segmented_sort;
    wgs_tile_shape tuned_medium = wgs__tuning_of(ctx)->segmented_sort_medium;
    const int subgroups = wgs__chain_subgroups(ci, tuned.wg < tuned_medium.wg ? tuned.wg : tuned_medium.wg) &&
                          ci->subgroup_max_size <= 128;
    const small_room room = {subgroups ? ci->subgroup_min_size : 1, key_words, d.payload != WGS_PAYLOAD_NONE};
    if (!subgroups) {
        tuned = wgs__rows_fit(tuned, small_storage, &room, ci->max_workgroup_storage_size);
        tuned_medium = wgs__rows_fit(tuned_medium, small_storage, &room, ci->max_workgroup_storage_size);
    }
    wgs_tile_shape shape;
    wgs_result r = wgs__shape(ctx, "segmented sort", ctx->exp.segmented_sort, tuned, 1, 64, small_storage, &room,
                              &shape);
    if (r != WGS_OK) return r;
    wgs_tile_shape medium;
    r = wgs__shape(ctx, "segmented sort", (wgs_tile_shape){0, 0}, tuned_medium, 1, 64, small_storage, &room, &medium);
    if (r != WGS_OK) return r;
    WGS_FAIL_IF(ctx, shape.wg > 256 || 256 % shape.wg || medium.wg > 256 || 256 % medium.wg ||
                         (subgroups && shape.wg < ci->subgroup_max_size) ||
                         small_storage(shape.wg, shape.items, &room) > ci->max_workgroup_storage_size ||
                         small_storage(medium.wg, medium.items, &room) > ci->max_workgroup_storage_size,
                WGS_ERROR_TOO_LARGE,
                "the segmented sort's tile does not fit this device (workgroup memory %u bytes; a workgroup "
                "of at most 256 invocations that divides 256 and holds a subgroup)",
                ci->max_workgroup_storage_size);
    wgs_segmented_sort_plan *p = calloc(1, sizeof *p);
    WGS_FAIL_IF(ctx, !p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the segmented sort plan");
    p->ctx = ctx;
    p->type = d.type;
    p->payload = d.payload;
    p->key_bytes = key_bytes;
    p->value_bytes = value_bytes;
    p->csr = d.segments == WGS_SEGMENTS_OFFSETS;
    p->capacity = d.capacity;
    p->segment_capacity = d.segment_capacity;
    p->wg = shape.wg;
    p->tile = shape.wg * shape.items;
    p->small = d.path != WGS_SEGMENTED_SORT_PATH_LARGE;
    /* The bound is the device's, not the plan's, so that plans of one key type share
     * their kernels; SS_FLAG_BLOCK says whether an encode has the path. */
    const uint32_t block_max = ctx->exp.segmented_sort_block_max ? ctx->exp.segmented_sort_block_max
                                                                 : wgs__tuning_of(ctx)->segmented_sort_block_max;
    p->block = d.path == WGS_SEGMENTED_SORT_PATH_DEFAULT && d.capacity > p->tile && block_max > p->tile;
    p->large = d.path == WGS_SEGMENTED_SORT_PATH_LARGE ||
               (d.path == WGS_SEGMENTED_SORT_PATH_DEFAULT && d.capacity > (p->block ? block_max : p->tile));
    p->small_max = p->small ? p->tile : 0;
    const uint32_t medium_tile = medium.wg * medium.items;
    p->medium_max = medium_tile < p->small_max ? medium_tile : p->small_max;
    wgs_kernel_spec spec = {.file = "device/segmented_sort.wgsl",
                            .helper = subgroups ? "element/sort_key.wgsl workgroup/rank_subgroup.wgsl "
                                                  "workgroup/sort_tile.wgsl"
                                                : "element/sort_key.wgsl workgroup/rank_invocation.wgsl "
                                                  "workgroup/sort_tile.wgsl",
                            .primitive = 1, .value_type = WGS_TYPE_U32, .type = WGS_TYPE_U32, .op = WGS_OP_ADD,
                            .subgroups = subgroups, .wg = shape.wg, .items = shape.items,
                            .params = WGS_PARAMS_KIND_SEGSORT,
                            .consts = {{"KEY_KIND", key_kind(d.type, d.order)}, {"VALUE_WORDS", 0}, {"SORT_SKIP", 0},
                                       {"BLOCK_MAX", block_max},
                                       {"SS_PLACES", room.places},
                                       {"SORT_DIGITS", ctx->exp.sort_digits},
                                       {"SORT_STAGE", 0}}};
    struct {
        const char *entry;
        WGPUComputePipeline *pipe;
        int want;
    } entries[] = {{"ss_clear", &p->clear, 1},          {"ss_check", &p->check, 1},
                   {"ss_tiny", &p->tiny, p->small},
                   {"ss_small", &p->sort_small, p->small},
                   {"ss_gather", &p->gather, p->large},
                   {"ss_relabel", &p->relabel, p->large},  {"ss_scatter", &p->scatter, p->large}};
    for (size_t i = 0; i < sizeof entries / sizeof entries[0] && r == WGS_OK; i++) {
        if (!entries[i].want) continue;
        spec.entry = entries[i].entry;
        r = wgs__pipeline(ctx, &spec, entries[i].pipe);
    }
    if (r == WGS_OK && p->small) { /* ss_small again on the medium tile */
        spec.entry = "ss_small";
        spec.wg = medium.wg;
        spec.items = medium.items;
        r = wgs__pipeline(ctx, &spec, &p->sort_medium);
    }
    if (r == WGS_OK && p->block) { /* ss_block: the tile's shape where its values fit */
        const block_room broom = {room.sg_min, key_words > value_bytes / 4 ? key_words : value_bytes / 4};
        wgs_tile_shape btuned = wgs__tuning_of(ctx)->segmented_sort_block, bshape;
        if (!subgroups) btuned = wgs__rows_fit(btuned, block_storage, &broom, ci->max_workgroup_storage_size);
        r = wgs__shape(ctx, "segmented sort block", ctx->exp.segmented_sort_block, btuned, 1, 64, block_storage,
                       &broom, &bshape);
        if (r == WGS_OK && (bshape.wg > 256 || 256 % bshape.wg || (subgroups && bshape.wg < ci->subgroup_max_size) ||
                            block_storage(bshape.wg, bshape.items, &broom) > ci->max_workgroup_storage_size))
            r = wgs__fail(ctx, WGS_ERROR_TOO_LARGE,
                          "the segmented sort's block tile does not fit this device (workgroup memory %u "
                          "bytes; a workgroup of at most 256 invocations that divides 256 and holds a subgroup)",
                          ci->max_workgroup_storage_size);
        spec.entry = "ss_block";
        spec.wg = bshape.wg;
        spec.items = bshape.items;
        spec.consts[1].value = value_bytes / 4;
        if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->sort_block);
    }
    if (r == WGS_OK && p->large) {
        wgs_scan_plan_desc cd = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .kind = WGS_SCAN_INCLUSIVE,
                                 .capacity = d.segment_capacity, .label = "wgscan segmented sort places"};
        r = wgs_scan_plan_create(ctx, &cd, &p->scan);
    }
    /* The large path's sorts follow a count that is 0 wherever no segment is past the
     * block bound, the usual case: one-sweep's passes then dispatch nothing, where the
     * reduce-then-scan's scans of the bound's digit counts cost 0.4-0.55 ms on every
     * sort of 2^26 keys (H100, BENCHMARKS.md, tenth session). */
    if (r == WGS_OK && p->large) {
        wgs_sort_plan_desc sd = {.type = d.type, .order = d.order, .payload = WGS_PAYLOAD_INDEX,
                                 .capacity = d.capacity, .label = "wgscan segmented sort by key"};
        r = wgs__sort_plan_create(ctx, &sd, WGS__SORT_PREFER_ONESWEEP, &p->by_key);
    }
    if (r == WGS_OK && p->large) {
        /* Segment numbers are below segment_capacity: only their bits need sorting. */
        wgs_sort_plan_desc sd = {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_BUFFER, .value_bytes = 4,
                                 .begin_bit = 0, .end_bit = bits_for(d.segment_capacity - 1),
                                 .capacity = d.capacity, .label = "wgscan segmented sort by segment"};
        r = wgs__sort_plan_create(ctx, &sd, WGS__SORT_PREFER_ONESWEEP, &p->by_segment);
    }
    const uint64_t list_bytes = wgs__round_up((3 * d.segment_capacity + 4) * 4, 256);
    if (r == WGS_OK) {
        p->scratch_bytes = list_bytes;
        wgs__gpu_scope_push(ctx->gpu);
        p->small_list = wgs__gpu_buffer_create(ctx->gpu, list_bytes, WGPUBufferUsage_Storage,
                                               "wgscan segmented sort small segments");
        r = wgs__scope_end(ctx, "allocating the segmented sort plan's scratch");
    }
    if (r == WGS_OK && p->block) {
        const uint64_t kbytes = wgs__round_up(d.capacity * key_bytes, 256);
        const uint64_t vbytes = value_bytes ? wgs__round_up(d.capacity * value_bytes, 256) : 0;
        p->scratch_bytes += 2 * (kbytes + vbytes);
        wgs__gpu_scope_push(ctx->gpu);
        for (int i = 0; i < 2; i++) {
            p->block_keys[i] = wgs__gpu_buffer_create(ctx->gpu, kbytes, WGPUBufferUsage_Storage,
                                                      "wgscan segmented sort keys between passes");
            if (vbytes)
                p->block_values[i] = wgs__gpu_buffer_create(ctx->gpu, vbytes, WGPUBufferUsage_Storage,
                                                            "wgscan segmented sort values between passes");
        }
        r = wgs__scope_end(ctx, "allocating the segmented sort plan's scratch");
    }
    if (r == WGS_OK && p->large) {
        const uint64_t seg_bytes = wgs__round_up(d.segment_capacity * 4, 256);
        const uint64_t elem_bytes = wgs__round_up(d.capacity * 4, 256);
        const uint64_t key_bytes_all = wgs__round_up(d.capacity * key_bytes, 256);
        p->scratch_bytes += 2 * seg_bytes + 5 * elem_bytes + key_bytes_all + wgs_scan_plan_scratch_size(p->scan) +
                           wgs_sort_plan_scratch_size(p->by_key) + wgs_sort_plan_scratch_size(p->by_segment);
        wgs__gpu_scope_push(ctx->gpu);
        const WGPUBufferUsage u = WGPUBufferUsage_Storage;
        p->large_len = wgs__gpu_buffer_create(ctx->gpu, seg_bytes, u, "wgscan segmented sort large lengths");
        p->large_end = wgs__gpu_buffer_create(ctx->gpu, seg_bytes, u, "wgscan segmented sort large places");
        p->cseg = wgs__gpu_buffer_create(ctx->gpu, elem_bytes, u, "wgscan segmented sort segments");
        p->cpos = wgs__gpu_buffer_create(ctx->gpu, elem_bytes, u, "wgscan segmented sort positions");
        p->ckeys = wgs__gpu_buffer_create(ctx->gpu, key_bytes_all, u, "wgscan segmented sort keys");
        p->idx = wgs__gpu_buffer_create(ctx->gpu, elem_bytes, u, "wgscan segmented sort key order");
        p->seg2 = wgs__gpu_buffer_create(ctx->gpu, elem_bytes, u, "wgscan segmented sort segments by key");
        p->pos2 = wgs__gpu_buffer_create(ctx->gpu, elem_bytes, u, "wgscan segmented sort positions by key");
        r = wgs__scope_end(ctx, "allocating the segmented sort plan's scratch");
    }
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

void wgs_segmented_sort_plan_destroy(wgs_segmented_sort_plan *p) {
    if (!p) return;
    plan_release(p);
    wgs__plan_gone(p->ctx);
    free(p);
}

uint64_t wgs_segmented_sort_plan_scratch_size(const wgs_segmented_sort_plan *p) { return p ? p->scratch_bytes : 0; }

uint32_t wgs_segmented_sort_plan_tile_size(const wgs_segmented_sort_plan *p) { return p ? p->tile : 0; }

static wgs_result check_args(wgs_segmented_sort_plan *p, const wgs_segmented_sort_args *a) {
    wgs_context *ctx = p->ctx;
    const uint64_t n = a->n, segs = a->n_segments;
    WGS_FAIL_IF(ctx, segs > p->segment_capacity, WGS_ERROR_CAPACITY_EXCEEDED,
                "n_segments = %llu exceeds the plan's segment_capacity %llu", (unsigned long long)segs,
                (unsigned long long)p->segment_capacity);
    WGPUBuffer begins = p->csr ? a->offsets : a->begin_offsets;
    uint64_t begins_offset = p->csr ? a->offsets_offset : a->begin_offsets_offset;
    wgs_result r;
    if ((r = wgs__check_buffer(ctx, a->keys_in, a->keys_in_offset, n * p->key_bytes, "keys_in")) != WGS_OK ||
        (r = wgs__check_buffer(ctx, a->keys_out, a->keys_out_offset, n * p->key_bytes, "keys_out")) != WGS_OK ||
        (r = wgs__check_buffer(ctx, begins, begins_offset, (p->csr ? segs + 1 : segs) * 4,
                               p->csr ? "offsets" : "begin_offsets")) != WGS_OK)
        return r;
    if (!p->csr && (r = wgs__check_buffer(ctx, a->end_offsets, a->end_offsets_offset, segs * 4, "end_offsets")) != WGS_OK)
        return r;
    if (p->payload == WGS_PAYLOAD_BUFFER &&
        (r = wgs__check_buffer(ctx, a->values_in, a->values_in_offset, n * p->value_bytes, "values_in")) != WGS_OK)
        return r;
    if (p->payload != WGS_PAYLOAD_NONE &&
        (r = wgs__check_buffer(ctx, a->values_out, a->values_out_offset, n * p->value_bytes, "values_out")) != WGS_OK)
        return r;
    if (a->status && (r = wgs__check_buffer(ctx, a->status, a->status_offset, 4, "status")) != WGS_OK) return r;
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK ||
        (r = wgs__check_count(ctx, a->n_segments_buffer, a->n_segments_offset, "n_segments")) != WGS_OK)
        return r;
    WGPUBuffer vin = p->payload == WGS_PAYLOAD_BUFFER ? a->values_in : NULL;
    WGPUBuffer vout = p->payload != WGS_PAYLOAD_NONE ? a->values_out : NULL;
    WGPUBuffer ends = p->csr ? NULL : a->end_offsets;
    WGPUBuffer outs[3] = {a->keys_out, vout, a->status};
    WGPUBuffer ins[4] = {a->keys_in, vin, begins, ends};
    for (int o = 0; o < 3; o++) {
        if (!outs[o]) continue;
        for (int i = 0; i < 4; i++)
            WGS_FAIL_IF(ctx, outs[o] == ins[i], WGS_ERROR_ALIASING,
                        "the segmented sort's outputs and status need buffers of their own, apart from the inputs");
        for (int q = o + 1; q < 3; q++)
            WGS_FAIL_IF(ctx, outs[o] == outs[q], WGS_ERROR_ALIASING,
                        "the segmented sort's outputs and status need buffers of their own");
    }
    return WGS_OK;
}

/* One of the large path's passes over the compacted keys (the gather, the relabel, the
 * scatter): a dispatch that follows their count, large_end's word at count_at, with a
 * record of its own, in a compute pass of its own; end_index (in qs) where it is the
 * segmented sort's last pass. */
static wgs_result large_pass(wgs_segmented_sort_plan *p, WGPUCommandEncoder encoder, WGPUComputePipeline pipe,
                             const gpu_binding *b, uint32_t nb, const wgs_params *rec, uint64_t count_at,
                             uint64_t n, WGPUQuerySet qs, uint32_t end_index) {
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__params_reserve(ctx, 1);
    if (r != WGS_OK) return r;
    const uint64_t rec_at = wgs__param_push(ctx, rec);
    const wgs__count_rule follow = wgs__count_follow(0, p->wg);
    wgs__gpu_scope_push(ctx->gpu);
    WGPUComputePassEncoder cp =
        wgs__gpu_pass_begin(ctx->gpu, encoder, qs, WGPU_QUERY_SET_INDEX_UNDEFINED, end_index);
    wgs__dispatch_begin(ctx, p->large_end, count_at, n);
    wgs__dispatch(ctx, cp, pipe, b, nb, rec, rec_at, wgs__div_up(n, p->wg), &follow);
    r = wgs__dispatch_end(ctx, cp);
    wgs__gpu_pass_end(ctx->gpu, cp);
    wgs_result rs = wgs__scope_end(ctx, "recording the segmented sort");
    return r != WGS_OK ? r : rs;
}

wgs_result wgs_segmented_sort_encode(wgs_segmented_sort_plan *p, WGPUCommandEncoder encoder,
                                     const wgs_segmented_sort_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK || (r = check_args(p, a)) != WGS_OK) return r;
    const uint64_t n = a->n, segs = a->n_segments;
    const int large = p->large && segs > 0 && n > 0;
    const int block = p->block && segs > 0 && n > 0;
    uint32_t flags = (p->csr ? WGS_SS_FLAG_CSR : 0u) | (large ? WGS_SS_FLAG_LARGE : 0u) |
                     (block ? WGS_SS_FLAG_BLOCK : 0u);
    if (p->payload == WGS_PAYLOAD_BUFFER) flags |= p->value_bytes == 8 ? WGS_SS_FLAG_VALUES8 : WGS_SS_FLAG_VALUES;
    if (p->payload == WGS_PAYLOAD_INDEX) flags |= WGS_SS_FLAG_INDEX;
    const wgs_params rec = {.segsort = {.n = (uint32_t)n, .segments = (uint32_t)segs, .flags = flags,
                                        .small_max = p->small_max, .segment_bound = (uint32_t)segs,
                                        .medium_max = p->medium_max}};
    /* ss_small's records: n is the bound of a list's segments, which its count
     * replaces; the medium list's numbers begin after the three counts and a spare
     * word, the small list's after the medium list. */
    wgs_params rec_list[2] = {rec, rec};
    rec_list[0].segsort.n = rec_list[1].segsort.n = (uint32_t)segs;
    rec_list[0].segsort.list_base = 4;
    rec_list[1].segsort.list_base = 4 + (uint32_t)segs;
    if ((r = wgs__params_reserve(ctx, 3)) != WGS_OK) return r;
    const uint64_t rec_at = wgs__param_push(ctx, &rec);
    const uint64_t rec_list_at[2] = {wgs__param_push(ctx, &rec_list[0]), wgs__param_push(ctx, &rec_list[1])};
    const uint32_t none = 0xFFFFFFFFu; /* WGPU_QUERY_SET_INDEX_UNDEFINED */
    const uint64_t kb = n * p->key_bytes, vb = n * p->value_bytes;
    WGPUBuffer begins = p->csr ? a->offsets : a->begin_offsets;
    const uint64_t begins_offset = p->csr ? a->offsets_offset : a->begin_offsets_offset;
    const gpu_binding kin = wgs__binding_or_dummy(ctx, 0, a->keys_in, a->keys_in_offset, kb, 0);
    const gpu_binding kout = wgs__binding_or_dummy(ctx, 1, a->keys_out, a->keys_out_offset, kb, 1);
    const gpu_binding status = wgs__binding_or_dummy(ctx, 3, a->status, a->status_offset, a->status ? 4 : 0, 1);
    const gpu_binding bb = wgs__binding_or_dummy(ctx, 4, begins, begins_offset, (p->csr ? segs + 1 : segs) * 4, 0);
    const gpu_binding eb = wgs__binding_or_dummy(ctx, 5, a->end_offsets, a->end_offsets_offset, p->csr ? 0 : segs * 4, 0);
    const gpu_binding vin = wgs__binding_or_dummy(ctx, 6, a->values_in, a->values_in_offset,
                                                  p->payload == WGS_PAYLOAD_BUFFER ? vb : 0, 0);
    const gpu_binding vout = wgs__binding_or_dummy(ctx, 7, a->values_out, a->values_out_offset,
                                                   p->payload != WGS_PAYLOAD_NONE ? vb : 0, 1);
    const gpu_binding llen = wgs__binding_or_dummy(ctx, 8, p->large_len, 0, large ? segs * 4 : 0, 1);
    const gpu_binding list = {16, p->small_list, 0, (3 * segs + 4) * 4};

    const int listed = p->small && segs > 0;
    wgs__gpu_scope_push(ctx->gpu);
    WGPUComputePassEncoder cp = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                    a->timestamp_begin_index,
                                                    large || block || listed ? none : a->timestamp_end_index);
    /* Counts on the GPU: n follows the key count, segments the segment count; the
     * grids stay the bound's (spare invocations return, or zero their lengths). */
    wgs__count_rule counted = wgs__count_follow(0, 0);
    counted.ops[0] = (wgs__count_op){WGS_COUNT_OP_SECOND, 1, 0, 0};
    wgs__dispatch_begin2(ctx, a->n_buffer, a->n_offset, n, a->n_segments_buffer, a->n_segments_offset, segs);
    gpu_binding clb[2] = {status, list};
    wgs__dispatch(ctx, cp, p->clear, clb, 2, NULL, 0, 1, NULL);
    if (segs > 0) {
        gpu_binding cb[5] = {status, bb, eb, llen, list};
        wgs__dispatch(ctx, cp, p->check, cb, 5, &rec, rec_at, wgs__div_up(segs, p->wg), &counted);
    }
    if (listed) {
        gpu_binding tb[6] = {kin, kout, bb, eb, vin, vout};
        wgs__dispatch(ctx, cp, p->tiny, tb, 6, &rec, rec_at, wgs__div_up(segs, p->wg / WGS_SS_TINY_LANES), &counted);
    }
    r = wgs__dispatch_end(ctx, cp);
    wgs__gpu_pass_end(ctx->gpu, cp);
    wgs_result rs0 = wgs__scope_end(ctx, "recording the segmented sort");
    if (r == WGS_OK) r = rs0;
    /* A workgroup a listed segment, a pass a list: the check counted each list at the
     * buffer's head. */
    const WGPUComputePipeline list_pipes[2] = {p->sort_medium, p->sort_small};
    for (int l = 0; r == WGS_OK && listed && l < 2; l++) {
        const wgs__count_rule one_each = wgs__count_follow(0, 1);
        wgs__gpu_scope_push(ctx->gpu);
        cp = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set, none,
                                 large || block || l == 0 ? none : a->timestamp_end_index);
        wgs__dispatch_begin(ctx, p->small_list, 4u * (uint32_t)l, segs);
        gpu_binding sb[7] = {kin, kout, bb, eb, vin, vout, list};
        wgs__dispatch(ctx, cp, list_pipes[l], sb, 7, &rec_list[l], rec_list_at[l], segs, &one_each);
        r = wgs__dispatch_end(ctx, cp);
        wgs__gpu_pass_end(ctx->gpu, cp);
        wgs_result rs = wgs__scope_end(ctx, "recording the segmented sort");
        if (r == WGS_OK) r = rs;
    }
    /* ss_block, a workgroup a listed segment, a pass a digit: from the input through
     * the two scratch arrays (in to 0, then 0 and 1 in turn, the last pass from 0 to
     * the output: an even count of passes). */
    const uint32_t passes = p->key_bytes; /* 8-bit digits */
    if (r == WGS_OK && block) {
        if ((r = wgs__params_reserve(ctx, passes)) != WGS_OK) return r;
        const uint64_t vw = p->value_bytes;
        wgs__gpu_scope_push(ctx->gpu);
        cp = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set, none,
                                 large ? none : a->timestamp_end_index);
        const wgs__count_rule one_each = wgs__count_follow(0, 1);
        wgs__dispatch_begin(ctx, p->small_list, 8, segs);
        for (uint32_t pass = 0; pass < passes; pass++) {
            wgs_params rb = rec_list[0];
            rb.segsort.list_base = 4 + 2 * (uint32_t)segs;
            rb.segsort.shift = 8 * pass;
            if (pass == 0 && p->payload == WGS_PAYLOAD_INDEX) rb.segsort.flags |= WGS_SS_FLAG_INDEX_FIRST;
            const uint64_t rb_at = wgs__param_push(ctx, &rb);
            const int from = pass == 0 ? -1 : (int)(pass % 2 == 1 ? 0 : 1);
            const int to = pass + 1 == passes ? -1 : (int)(pass % 2 == 0 ? 0 : 1);
            const gpu_binding src = from < 0 ? kin : (gpu_binding){0, p->block_keys[from], 0, kb};
            const gpu_binding dst = to < 0 ? kout : (gpu_binding){1, p->block_keys[to], 0, kb};
            const gpu_binding vsrc =
                from < 0 ? vin : wgs__binding_or_dummy(ctx, 6, p->block_values[from], 0, vw ? vb : 0, 0);
            const gpu_binding vdst =
                to < 0 ? vout : wgs__binding_or_dummy(ctx, 7, p->block_values[to], 0, vw ? vb : 0, 1);
            gpu_binding bb2[7] = {src, dst, bb, eb, vsrc, vdst, list};
            wgs__dispatch(ctx, cp, p->sort_block, bb2, 7, &rb, rb_at, segs, &one_each);
        }
        r = wgs__dispatch_end(ctx, cp);
        wgs__gpu_pass_end(ctx->gpu, cp);
        wgs_result rs = wgs__scope_end(ctx, "recording the segmented sort");
        if (r == WGS_OK) r = rs;
    }
    if (r != WGS_OK || !large) return r;

    /* The large path. The compacted count is large_end's last word. */
    const uint64_t count_at = (segs - 1) * 4;
    wgs_scan_args sa = {.input = p->large_len, .output = p->large_end, .n = segs};
    if ((r = wgs_scan_encode(p->scan, encoder, &sa)) != WGS_OK) return r;
    const uint64_t eb_bytes = n * 4;
    const gpu_binding lend = {9, p->large_end, 0, segs * 4};
    const gpu_binding cseg = wgs__binding_or_dummy(ctx, 10, p->cseg, 0, eb_bytes, 1);
    const gpu_binding cpos = wgs__binding_or_dummy(ctx, 11, p->cpos, 0, eb_bytes, 1);
    const gpu_binding ckeys = wgs__binding_or_dummy(ctx, 12, p->ckeys, 0, kb, 1);
    const gpu_binding idx = wgs__binding_or_dummy(ctx, 13, p->idx, 0, eb_bytes, 0);
    const gpu_binding seg2 = wgs__binding_or_dummy(ctx, 14, p->seg2, 0, eb_bytes, 1);
    const gpu_binding pos2 = wgs__binding_or_dummy(ctx, 15, p->pos2, 0, eb_bytes, 1);
    const gpu_binding gb[7] = {kin, bb, llen, lend, ckeys, cseg, cpos};
    if ((r = large_pass(p, encoder, p->gather, gb, 7, &rec, count_at, n, NULL, none)) != WGS_OK) return r;

    wgs_sort_args s1 = {.keys_in = p->ckeys, .keys_out = p->ckeys, .values_out = p->idx, .n = n,
                        .n_buffer = p->large_end, .n_offset = count_at};
    if ((r = wgs_sort_encode(p->by_key, encoder, &s1)) != WGS_OK) return r;

    const gpu_binding rb[5] = {idx, cseg, cpos, seg2, pos2};
    if ((r = large_pass(p, encoder, p->relabel, rb, 5, &rec, count_at, n, NULL, none)) != WGS_OK) return r;

    wgs_sort_args s2 = {.keys_in = p->seg2, .keys_out = p->seg2, .values_in = p->pos2, .values_out = p->pos2,
                        .n = n, .n_buffer = p->large_end, .n_offset = count_at};
    if ((r = wgs_sort_encode(p->by_segment, encoder, &s2)) != WGS_OK) return r;

    const gpu_binding xb[6] = {kin, kout, vin, vout, cpos, pos2};
    return large_pass(p, encoder, p->scatter, xb, 6, &rec, count_at, n, a->timestamp_query_set,
                      a->timestamp_end_index);
}
