/* SPDX-License-Identifier: MIT */
/*
 * topk.c: top-k plans (kernels in wgsl/device/topk.wgsl, which describes the passes).
 * Per encode: a compute pass of an init; the top digit's histogram and pick; a filter
 * that keeps the candidates (the keys of the picked digit) and counts their next digit;
 * two digits over the candidates alone, whose number the GPU counted, so those
 * dispatches follow it through the dispatch layer's count rule; each tile's counts of
 * keys below and equal to the k-th. Then the plan's scan plan turns the counts of all
 * rows into offsets, and a second compute pass writes the k (and for sorted output
 * ranks each row's k, or the plan's sort plan sorts them). Nothing is read back.
 * Rows of at most ROWS_MAX_N keys and k up to ROWS_MAX_K take one dispatch instead, a
 * workgroup a row (wgsl/device/topk_rows.wgsl), where the device's workgroup memory
 * has room for its candidates.
 */
#include "tuning.h"

#include <stdlib.h>
#include <string.h>

#define ROW_BYTES (4u * WGS_ROW_WORDS)
#define DIGITS 4u
/* The row path: one workgroup reads its row at least twice, so past this the
 * multi-pass path's many workgroups a row win (to be measured on GPUs). */
#define ROWS_MAX_N (1u << 18)
/* Each of the k counts the k in workgroup memory to find its rank: k^2 / WG an
 * invocation. */
#define ROWS_MAX_K 1024u
/* The candidates' room: uniform keys of ROWS_MAX_N put 1024 in a top digit's bucket,
 * and more room only lowers occupancy. */
#define ROWS_CAND_MAX 4096u
/* Below it most rows would take the row kernel's passes over global memory. */
#define ROWS_CAND_MIN 256u

enum { PATH_AUTO, PATH_MULTI, PATH_ROWS };

struct wgs_topk_plan {
    wgs_context *ctx;
    uint64_t scratch_bytes;
    wgs_payload payload;
    int sorted;
    uint64_t capacity;
    uint32_t k_capacity, row_capacity;
    uint32_t wg, tile, hist_tiles, write_tiles;
    WGPUComputePipeline init, histogram, pick, filter, cand_histogram, cand_tiles, write, rank;
    WGPUComputePipeline row; /* the row path's kernel, or NULL */
    uint32_t row_k;          /* the largest k it takes */
    WGPUBuffer state, tile_counts, tile_offsets, candidates, keys_tmp, values_tmp;
    wgs_scan_plan *scan; /* the tiles' counts of every row into their offsets */
    wgs_sort_plan *sort; /* SORTED past WGS_TOPK_SORTED_MAX_K (one row): the k sorted */
};

static void plan_release(wgs_topk_plan *p) {
    wgs_sort_plan_destroy(p->sort);
    wgs_scan_plan_destroy(p->scan);
    WGPUBuffer bufs[] = {p->state, p->tile_counts, p->tile_offsets, p->candidates, p->keys_tmp, p->values_tmp};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) wgs__gpu_buffer_release(p->ctx->gpu, bufs[i]);
}

/* Workgroup memory of the kernels (topk.wgsl declares it all in one module): the digit
 * counts, the workgroup prefix's pairs, the ranking's keys, three counters. */
static uint64_t topk_storage(uint32_t wg, uint32_t items, const void *arg) {
    (void)items;
    (void)arg;
    return 4ull * (256 + 2 * wg + wg + 3);
}

/* The row kernel's workgroup memory but the candidates': digit counts, the pick's lanes,
 * the k (key and index), counters. */
static uint64_t rows_fixed_storage(uint32_t wg, uint32_t k_room) {
    return 4ull * (256 + (wg < 256 ? wg : 256)) + 8ull * k_room + 64; /* counters, aligned */
}

static uint64_t rows_storage(uint32_t wg, uint32_t items, const void *arg) {
    (void)items;
    return rows_fixed_storage(wg, *(const uint32_t *)arg) + 8ull * ROWS_CAND_MIN;
}

static int key_kind(wgs_type t) { return t == WGS_TYPE_I32 ? 1 : t == WGS_TYPE_F32 ? 2 : 0; }

wgs_result wgs_topk_plan_create(wgs_context *ctx, const wgs_topk_plan_desc *desc, wgs_topk_plan **out) {
    WGS_CREATE_BEGIN(ctx, desc, out);
    wgs_type type = desc->type ? desc->type : WGS_TYPE_U32;
    WGS_FAIL_IF(ctx, type != WGS_TYPE_U32 && type != WGS_TYPE_I32 && type != WGS_TYPE_F32,
                WGS_ERROR_UNSUPPORTED_TYPE, "top-k keys are u32, i32 or f32, not %s", wgs_type_name(type));
    WGS_FAIL_IF(ctx, (unsigned)desc->select > WGS_TOPK_SMALLEST, WGS_ERROR_INVALID_ARGUMENT,
                "unknown top-k select %d", (int)desc->select);
    WGS_FAIL_IF(ctx, (unsigned)desc->output > WGS_TOPK_INPUT_ORDER, WGS_ERROR_INVALID_ARGUMENT,
                "unknown top-k output %d", (int)desc->output);
    WGS_FAIL_IF(ctx, (unsigned)desc->payload > WGS_PAYLOAD_INDEX, WGS_ERROR_INVALID_ARGUMENT,
                "unknown payload %d", (int)desc->payload);
    const wgs_context_info *ci = &ctx->caps.info;
    uint64_t capacity = desc->capacity ? desc->capacity : 1;
    uint32_t rows = desc->row_capacity ? desc->row_capacity : 1;
    uint64_t k_cap = desc->k_capacity ? desc->k_capacity
                                      : capacity < WGS_TOPK_SORTED_MAX_K ? capacity : WGS_TOPK_SORTED_MAX_K;
    WGS_FAIL_IF(ctx, k_cap > capacity, WGS_ERROR_INVALID_ARGUMENT, "k_capacity %llu is past capacity %llu",
                (unsigned long long)k_cap, (unsigned long long)capacity);
    int sorted = desc->output == WGS_TOPK_SORTED;
    WGS_FAIL_IF(ctx, sorted && k_cap > WGS_TOPK_SORTED_MAX_K && rows > 1, WGS_ERROR_TOO_LARGE,
                "sorted top-k of more rows than one takes k <= %u, not %llu (INPUT_ORDER takes any k)",
                WGS_TOPK_SORTED_MAX_K, (unsigned long long)k_cap);
    uint64_t keys = wgs__mul_sat(capacity, rows);
    WGS_FAIL_IF(ctx, keys >= (1ull << 32) || wgs__mul_sat(keys, 4) > ci->max_storage_binding_size,
                WGS_ERROR_TOO_LARGE,
                "capacity %llu x %u rows: the keys must fit one storage binding (%llu bytes) and number < 2^32",
                (unsigned long long)capacity, rows, (unsigned long long)ci->max_storage_binding_size);
    wgs_tile_shape shape;
    const wgs__tuning *tu = wgs__tuning_of(ctx);
    wgs_result r = wgs__shape(ctx, "topk", ctx->exp.topk, tu->topk, 1, 64, topk_storage, NULL, &shape);
    if (r != WGS_OK) return r;
    uint32_t hist_tiles;
    r = wgs__tuned_pow2(ctx, "topk_hist_tiles", ctx->exp.topk_hist_tiles, tu->topk_hist_tiles, 64, &hist_tiles);
    if (r != WGS_OK) return r;
    /* The write's tiles a workgroup: a bit each in a word, an invocation each to test. */
    uint32_t write_tiles;
    r = wgs__tuned_pow2(ctx, "topk_write_tiles", ctx->exp.topk_write_tiles, tu->topk_write_tiles, 32, &write_tiles);
    if (r != WGS_OK) return r;
    if (write_tiles > shape.wg) write_tiles = shape.wg;
    const uint32_t path = ctx->exp.topk_path;
    WGS_FAIL_IF(ctx, path > PATH_ROWS, WGS_ERROR_INVALID_ARGUMENT,
                "experimental topk_path %u is not 0 (auto), 1 (multi-pass) or 2 (rows)", path);
    WGS_FAIL_IF(ctx, path == PATH_ROWS && (capacity > ROWS_MAX_N || k_cap > ROWS_MAX_K), WGS_ERROR_INVALID_ARGUMENT,
                "experimental topk_path rows takes capacity <= %u and k_capacity <= %u, not %llu and %llu",
                ROWS_MAX_N, ROWS_MAX_K, (unsigned long long)capacity, (unsigned long long)k_cap);
    /* The row kernel's room for the k: a power of two, so that plans share pipelines. */
    uint32_t row_k = 64;
    while (row_k < k_cap && row_k < ROWS_MAX_K) row_k *= 2;
    wgs_tile_shape rshape = {0, 0};
    uint32_t cand = 0;
    /* The tuning row says whether auto takes the row kernel where it can. */
    const int rows_allowed = path == PATH_ROWS || (path == PATH_AUTO && tu->topk_rows_auto);
    if (rows_allowed) {
        r = wgs__shape(ctx, "topk_rows", ctx->exp.topk_rows, tu->topk_rows, 1, 16, rows_storage, &row_k, &rshape);
        if (r != WGS_OK) return r;
        uint64_t fixed = rows_fixed_storage(rshape.wg, row_k), room = ci->max_workgroup_storage_size;
        uint64_t left = room > fixed ? (room - fixed) / 8 : 0;
        WGS_FAIL_IF(ctx, ctx->exp.topk_rows_candidates > left, WGS_ERROR_INVALID_ARGUMENT,
                    "experimental topk_rows_candidates %u is past the %llu that workgroup memory holds",
                    ctx->exp.topk_rows_candidates, (unsigned long long)left);
        cand = ctx->exp.topk_rows_candidates ? ctx->exp.topk_rows_candidates
               : left >= ROWS_CAND_MIN        ? (uint32_t)(left < ROWS_CAND_MAX ? left : ROWS_CAND_MAX)
                                              : 0;
        WGS_FAIL_IF(ctx, path == PATH_ROWS && !cand, WGS_ERROR_INVALID_ARGUMENT,
                    "experimental topk_path rows: %u bytes of workgroup memory leave too little room",
                    ci->max_workgroup_storage_size);
    }
    /* The multi-pass path, unless the row kernel takes every n and k the plan allows. */
    const int multi = !rows_allowed || !cand || capacity > ROWS_MAX_N || k_cap > ROWS_MAX_K;
    uint64_t tiles = wgs__div_up(capacity, (uint64_t)shape.wg * shape.items);
    uint64_t counts_bytes = wgs__round_up(rows * tiles * 8, 256);
    /* The rows' states, then the candidates' counter. */
    uint64_t state_bytes = wgs__round_up(((uint64_t)rows + 1) * ROW_BYTES, 256);
    uint64_t candidates_bytes = wgs__round_up(keys * 4, 256);
    WGS_FAIL_IF(ctx, multi && (counts_bytes > ci->max_storage_binding_size || state_bytes > ci->max_storage_binding_size),
                WGS_ERROR_TOO_LARGE, "the top-k's row states do not fit one storage binding");
    wgs_topk_plan *p = calloc(1, sizeof *p);
    WGS_FAIL_IF(ctx, !p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the top-k plan");
    p->ctx = ctx;
    p->payload = desc->payload;
    p->sorted = sorted;
    p->capacity = capacity;
    p->k_capacity = (uint32_t)k_cap;
    p->row_capacity = rows;
    p->wg = shape.wg;
    p->tile = shape.wg * shape.items;
    p->hist_tiles = hist_tiles;
    p->write_tiles = write_tiles;
    p->row_k = cand ? row_k : 0;
    uint32_t value_mode = desc->payload == WGS_PAYLOAD_BUFFER ? 1u : desc->payload == WGS_PAYLOAD_INDEX ? 2u : 0u;
    wgs_kernel_spec spec = {.file = "device/topk.wgsl", .helper = "element/sort_key.wgsl", .primitive = 1,
                            .value_type = WGS_TYPE_U32, .type = WGS_TYPE_U32, .op = WGS_OP_ADD, .wg = shape.wg,
                            .items = shape.items, .params = WGS_PARAMS_KIND_TOPK,
                            .consts = {{"KEY_KIND", (uint32_t)key_kind(type) +
                                                        (desc->select == WGS_TOPK_LARGEST ? 16u : 0u)},
                                       {"VALUE_MODE", value_mode},
                                       {"HIST_TILES", hist_tiles},
                                       {"WRITE_TILES", write_tiles}}};
    struct {
        const char *entry;
        WGPUComputePipeline *pipe;
    } entries[] = {{"topk_init", &p->init},
                   {"topk_histogram", &p->histogram},
                   {"topk_pick", &p->pick},
                   {"topk_filter", &p->filter},
                   {"topk_cand_histogram", &p->cand_histogram},
                   {"topk_cand_tiles", &p->cand_tiles},
                   {"topk_write", &p->write},
                   {"topk_rank", &p->rank}};
    size_t n_entries = multi ? sizeof entries / sizeof entries[0] - (sorted ? 0 : 1) : 0;
    for (size_t i = 0; i < n_entries && r == WGS_OK; i++) {
        spec.entry = entries[i].entry;
        r = wgs__pipeline(ctx, &spec, entries[i].pipe);
    }
    if (r == WGS_OK && cand) {
        wgs_kernel_spec rs = {.file = "device/topk_rows.wgsl", .helper = "element/sort_key.wgsl", .primitive = 1,
                              .value_type = WGS_TYPE_U32, .type = WGS_TYPE_U32, .op = WGS_OP_ADD, .wg = rshape.wg,
                              .items = rshape.items, .params = WGS_PARAMS_KIND_TOPK, .entry = "topk_rows",
                              .consts = {spec.consts[0], spec.consts[1], {"SORTED_OUT", (uint32_t)sorted},
                                         {"K_MAX", row_k}, {"CAND", cand}}};
        r = wgs__pipeline(ctx, &rs, &p->row);
    }
    if (r == WGS_OK && multi) {
        wgs_scan_plan_desc cd = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .kind = WGS_SCAN_EXCLUSIVE,
                                 .capacity = 2 * rows * tiles, .label = "wgscan top-k tile counts"};
        r = wgs_scan_plan_create(ctx, &cd, &p->scan);
    }
    if (r == WGS_OK && multi && sorted && k_cap > WGS_TOPK_SORTED_MAX_K) {
        wgs_sort_plan_desc sd = {.type = type,
                                 .order = desc->select == WGS_TOPK_LARGEST ? WGS_SORT_DESCENDING : WGS_SORT_ASCENDING,
                                 .payload = value_mode ? WGS_PAYLOAD_BUFFER : WGS_PAYLOAD_NONE,
                                 .capacity = k_cap, .label = "wgscan top-k sort"};
        r = wgs_sort_plan_create(ctx, &sd, &p->sort);
    }
    if (r == WGS_OK && multi) {
        uint64_t tmp_bytes = sorted ? wgs__round_up((uint64_t)rows * k_cap * 4, 256) : 0;
        p->scratch_bytes = state_bytes + 2 * counts_bytes + candidates_bytes + tmp_bytes * (value_mode ? 2 : 1) +
                           wgs_scan_plan_scratch_size(p->scan) + wgs_sort_plan_scratch_size(p->sort);
        wgs__gpu_scope_push(ctx->gpu);
        const WGPUBufferUsage u = WGPUBufferUsage_Storage;
        p->state = wgs__gpu_buffer_create(ctx->gpu, state_bytes, u, "wgscan top-k row states");
        p->tile_counts = wgs__gpu_buffer_create(ctx->gpu, counts_bytes, u, "wgscan top-k tile counts");
        p->tile_offsets = wgs__gpu_buffer_create(ctx->gpu, counts_bytes, u, "wgscan top-k tile offsets");
        p->candidates = wgs__gpu_buffer_create(ctx->gpu, candidates_bytes, u, "wgscan top-k candidates");
        if (sorted) p->keys_tmp = wgs__gpu_buffer_create(ctx->gpu, tmp_bytes, u, "wgscan top-k unsorted keys");
        if (sorted && value_mode)
            p->values_tmp = wgs__gpu_buffer_create(ctx->gpu, tmp_bytes, u, "wgscan top-k unsorted values");
        r = wgs__scope_end(ctx, "allocating the top-k plan's scratch");
    }
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

uint64_t wgs_topk_plan_scratch_size(const wgs_topk_plan *p) { return p ? p->scratch_bytes : 0; }

void wgs_topk_plan_destroy(wgs_topk_plan *p) {
    if (!p) return;
    plan_release(p);
    wgs__plan_gone(p->ctx);
    free(p);
}

static wgs_result check_args(wgs_topk_plan *p, const wgs_topk_args *a) {
    wgs_context *ctx = p->ctx;
    WGS_FAIL_IF(ctx, a->n == 0, WGS_ERROR_INVALID_ARGUMENT, "top-k needs n >= 1 keys a row");
    WGS_FAIL_IF(ctx, a->rows == 0, WGS_ERROR_INVALID_ARGUMENT, "top-k needs rows >= 1");
    WGS_FAIL_IF(ctx, a->rows > p->row_capacity, WGS_ERROR_CAPACITY_EXCEEDED, "rows %u is past the plan's %u",
                a->rows, p->row_capacity);
    WGS_FAIL_IF(ctx, a->k == 0 || a->k > a->n, WGS_ERROR_INVALID_ARGUMENT, "k must be 1..n (n = %llu), not %u",
                (unsigned long long)a->n, a->k);
    WGS_FAIL_IF(ctx, a->k > p->k_capacity, WGS_ERROR_CAPACITY_EXCEEDED, "k %u is past the plan's k_capacity %u",
                a->k, p->k_capacity);
    uint64_t in_bytes = a->n * a->rows * 4, out_bytes = (uint64_t)a->k * a->rows * 4;
    wgs_result r;
    if ((r = wgs__check_buffer(ctx, a->keys_in, a->keys_in_offset, in_bytes, "keys_in")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->keys_out, a->keys_out_offset, out_bytes, "keys_out")) != WGS_OK) return r;
    if (p->payload == WGS_PAYLOAD_BUFFER &&
        (r = wgs__check_buffer(ctx, a->values_in, a->values_in_offset, in_bytes, "values_in")) != WGS_OK)
        return r;
    if (p->payload != WGS_PAYLOAD_NONE &&
        (r = wgs__check_buffer(ctx, a->values_out, a->values_out_offset, out_bytes, "values_out")) != WGS_OK)
        return r;
    WGPUBuffer vin = p->payload == WGS_PAYLOAD_BUFFER ? a->values_in : NULL;
    WGPUBuffer vout = p->payload != WGS_PAYLOAD_NONE ? a->values_out : NULL;
    WGS_FAIL_IF(ctx, a->keys_out == a->keys_in || a->keys_out == vin || (vout && (vout == a->keys_in ||
                                                                                  vout == vin || vout == a->keys_out)),
                WGS_ERROR_ALIASING, "the top-k's outputs must be buffers of their own, apart from the inputs");
    return WGS_OK;
}

/* The row path: one dispatch, a workgroup a row. */
static wgs_result encode_rows(wgs_topk_plan *p, WGPUCommandEncoder encoder, const wgs_topk_args *a) {
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__params_reserve(ctx, 1);
    if (r != WGS_OK) return r;
    const uint64_t in_bytes = a->n * a->rows * 4, out_bytes = (uint64_t)a->k * a->rows * 4;
    wgs_params rec = {.topk = {.n = (uint32_t)(a->n * a->rows), .row_n = (uint32_t)a->n, .rows = a->rows,
                               .k = a->k}};
    uint64_t at = wgs__param_push(ctx, &rec);
    const int vals = p->payload != WGS_PAYLOAD_NONE;
    gpu_binding b[4] = {{0, a->keys_in, a->keys_in_offset, in_bytes},
                        {1, a->keys_out, a->keys_out_offset, out_bytes},
                        wgs__binding_or_dummy(ctx, 5, p->payload == WGS_PAYLOAD_BUFFER ? a->values_in : NULL,
                                              a->values_in_offset, p->payload == WGS_PAYLOAD_BUFFER ? in_bytes : 0, 0),
                        vals ? (gpu_binding){6, a->values_out, a->values_out_offset, out_bytes}
                             : wgs__binding_or_dummy(ctx, 6, NULL, 0, 0, 1)};
    wgs__gpu_scope_push(ctx->gpu);
    WGPUComputePassEncoder cp = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                    a->timestamp_begin_index, a->timestamp_end_index);
    wgs__dispatch(ctx, cp, p->row, b, 4, &rec, at, a->rows, NULL);
    wgs__gpu_pass_end(ctx->gpu, cp);
    return wgs__scope_end(ctx, "recording the top-k");
}

wgs_result wgs_topk_encode(wgs_topk_plan *p, WGPUCommandEncoder encoder, const wgs_topk_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK || (r = check_args(p, a)) != WGS_OK) return r;
    if (p->row && a->n <= ROWS_MAX_N && a->k <= p->row_k) return encode_rows(p, encoder, a);
    if ((r = wgs__params_reserve(ctx, DIGITS)) != WGS_OK) return r;
    const uint64_t n = a->n, rows = a->rows, k = a->k;
    const uint64_t tiles = wgs__div_up(n, p->tile), in_bytes = n * rows * 4, out_bytes = k * rows * 4;
    const int vals = p->payload != WGS_PAYLOAD_NONE;
    /* A record a digit (from the top), n the candidates' bound: every key. */
    wgs_params recs[DIGITS];
    uint64_t at[DIGITS];
    for (uint32_t d = 0; d < DIGITS; d++) {
        recs[d] = (wgs_params){.topk = {.n = (uint32_t)(n * rows), .row_n = (uint32_t)n, .rows = (uint32_t)rows,
                                        .k = (uint32_t)k, .shift = 24 - 8 * d, .tiles = (uint32_t)tiles}};
        at[d] = wgs__param_push(ctx, &recs[d]);
    }
    /* Past WGS_TOPK_SORTED_MAX_K the plan's sort orders the k (stable: ties stay in
     * input order), after the write. */
    const int by_sort = p->sorted && k > WGS_TOPK_SORTED_MAX_K;
    const gpu_binding kin = {0, a->keys_in, a->keys_in_offset, in_bytes};
    const gpu_binding state = {3, p->state, 0, (rows * WGS_ROW_WORDS + 1) * 4};
    const gpu_binding counts = {4, p->tile_counts, 0, rows * tiles * 8};
    const gpu_binding offsets = {8, p->tile_offsets, 0, rows * tiles * 8};
    const gpu_binding cands = {7, p->candidates, 0, in_bytes};
    const gpu_binding vin = wgs__binding_or_dummy(ctx, 5, p->payload == WGS_PAYLOAD_BUFFER ? a->values_in : NULL,
                                                  a->values_in_offset, p->payload == WGS_PAYLOAD_BUFFER ? in_bytes : 0,
                                                  0);
    /* Sorted: the write goes to the plan's unsorted copy, which the ranking reads. */
    const gpu_binding kout = p->sorted ? (gpu_binding){1, p->keys_tmp, 0, out_bytes}
                                       : (gpu_binding){1, a->keys_out, a->keys_out_offset, out_bytes};
    const gpu_binding vout = !vals      ? wgs__binding_or_dummy(ctx, 6, NULL, 0, 0, 1)
                             : p->sorted ? (gpu_binding){6, p->values_tmp, 0, out_bytes}
                                         : (gpu_binding){6, a->values_out, a->values_out_offset, out_bytes};
    const uint64_t cand_groups = wgs__div_up(n * rows, p->tile);
    /* An experiment may leave phases out to time the others (the init always runs). */
    const uint32_t ph = ctx->exp.topk_phases ? ctx->exp.topk_phases : 31u;
    wgs__gpu_scope_push(ctx->gpu);
    const uint32_t none = 0xFFFFFFFFu; /* WGPU_QUERY_SET_INDEX_UNDEFINED */
    WGPUComputePassEncoder cp = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                    a->timestamp_begin_index, none);
    wgs__dispatch(ctx, cp, p->init, &state, 1, &recs[3], at[3], rows, NULL);
    gpu_binding hb[2] = {kin, state};
    const uint64_t key_groups = rows * wgs__div_up(tiles, p->hist_tiles); /* the passes over the keys */
    if (ph & WGS_EXPERIMENTAL_TOPK_HISTOGRAM) {
        wgs__dispatch(ctx, cp, p->histogram, hb, 2, &recs[0], at[0], key_groups, NULL);
        wgs__dispatch(ctx, cp, p->pick, &state, 1, &recs[0], at[0], rows, NULL);
    }
    gpu_binding fb[4] = {kin, state, counts, cands};
    if (ph & WGS_EXPERIMENTAL_TOPK_FILTER) {
        wgs__dispatch(ctx, cp, p->filter, fb, 4, &recs[1], at[1], key_groups, NULL);
        wgs__dispatch(ctx, cp, p->pick, &state, 1, &recs[1], at[1], rows, NULL);
    }
    /* The candidates' dispatches follow their count, which the filter left after the
     * rows' states. */
    const wgs__count_rule follow = wgs__count_follow(0, p->tile);
    wgs__dispatch_begin(ctx, p->state, rows * ROW_BYTES, n * rows);
    gpu_binding cb[3] = {kin, state, cands};
    if (ph & WGS_EXPERIMENTAL_TOPK_CANDIDATES) {
        for (uint32_t d = 2; d < DIGITS; d++) {
            wgs__dispatch(ctx, cp, p->cand_histogram, cb, 3, &recs[d], at[d], cand_groups, &follow);
            wgs__dispatch(ctx, cp, p->pick, &state, 1, &recs[d], at[d], rows, NULL);
        }
        wgs__dispatch(ctx, cp, p->cand_tiles, fb, 4, &recs[3], at[3], cand_groups, &follow);
    }
    r = wgs__dispatch_end(ctx, cp);
    wgs__gpu_pass_end(ctx->gpu, cp);
    wgs_result rs = wgs__scope_end(ctx, "recording the top-k");
    if (r == WGS_OK) r = rs;
    wgs_scan_args sa = {.input = p->tile_counts, .output = p->tile_offsets, .n = 2 * rows * tiles};
    if (r == WGS_OK && (ph & WGS_EXPERIMENTAL_TOPK_SCAN)) r = wgs_scan_encode(p->scan, encoder, &sa);
    /* The write's and the ranking's records now: the scan wrote its own into the ring. */
    if (r == WGS_OK) r = wgs__params_reserve(ctx, 2);
    if (r != WGS_OK) return r;
    uint64_t write_at = wgs__param_push(ctx, &recs[3]);
    wgs_params rank = recs[3]; /* its groups a row in place of the tiles */
    rank.topk.tiles = (uint32_t)wgs__div_up(k, p->wg);
    uint64_t rank_at = wgs__param_push(ctx, &rank);
    wgs__gpu_scope_push(ctx->gpu);
    cp = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set, none,
                             by_sort ? none : a->timestamp_end_index);
    gpu_binding wb[7] = {kin, kout, state, counts, offsets, vin, vout};
    const int write = (ph & WGS_EXPERIMENTAL_TOPK_WRITE) != 0;
    if (write)
        wgs__dispatch(ctx, cp, p->write, wb, 7, &recs[3], write_at, rows * wgs__div_up(tiles, p->write_tiles), NULL);
    if (write && p->sorted && !by_sort) {
        gpu_binding rb[4] = {{0, p->keys_tmp, 0, out_bytes}, {1, a->keys_out, a->keys_out_offset, out_bytes},
                             vals ? (gpu_binding){5, p->values_tmp, 0, out_bytes} : wgs__binding_or_dummy(ctx, 5, NULL, 0, 0, 0),
                             vals ? (gpu_binding){6, a->values_out, a->values_out_offset, out_bytes}
                                  : wgs__binding_or_dummy(ctx, 6, NULL, 0, 0, 1)};
        wgs__dispatch(ctx, cp, p->rank, rb, 4, &rank, rank_at, rows * rank.topk.tiles, NULL);
    }
    wgs__gpu_pass_end(ctx->gpu, cp);
    r = wgs__scope_end(ctx, "recording the top-k");
    if (r == WGS_OK && by_sort && write) {
        wgs_sort_args so = {.keys_in = p->keys_tmp, .keys_out = a->keys_out, .keys_out_offset = a->keys_out_offset,
                            .values_in = p->values_tmp, .values_out = vals ? a->values_out : NULL,
                            .values_out_offset = a->values_out_offset, .n = k,
                            .timestamp_query_set = a->timestamp_query_set, .timestamp_begin_index = none,
                            .timestamp_end_index = a->timestamp_end_index};
        r = wgs_sort_encode(p->sort, encoder, &so);
    }
    return r;
}
