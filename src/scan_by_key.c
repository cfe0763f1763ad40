/* SPDX-License-Identifier: MIT */
/*
 * scan_by_key.c: the scan by key and the segmented scan, one plan and one kernel
 * (wgsl/device/scan_by_key.wgsl) with three sources of segment heads: runs of equal
 * keys, byte flags (element/heads_keys.wgsl), or offsets (workgroup/heads_offsets.wgsl,
 * the segmented scan's). One chained pass, the chain of the single-pass scan (chain.h):
 * per encode
 *   reset_state       the tile counter and states zeroed
 *   seg_status_reset  offsets with a status word: the status zeroed
 *   scan_by_key       per tile: values and heads loaded, the tile's segmented scan, the
 *                     look-back (closed tiles, those holding a segment start, published
 *                     inclusive at once), the tile stored
 * The values, heads and output each fit one binding, so there are no chunks.
 */
#include "chain.h"
#include "tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SOURCE_KEYS, SOURCE_FLAGS, SOURCE_OFFSETS };

struct wgs_scan_by_key_plan {
    wgs_context *ctx;
    wgs__operator *custom; /* a user's operator, or NULL for type and op */
    wgs_type type;
    int source; /* SOURCE_* */
    int csr;    /* offsets: CSR (1) or begin and end arrays (0) */
    uint64_t capacity, segment_capacity;
    uint32_t es;         /* value bytes */
    uint32_t word_elems; /* the output's word view ends at a multiple of this many elements */
    uint32_t wg, items;
    WGPUComputePipeline scan, status_reset, status_check; /* the last two: offsets only */
    /* Offsets: where the status goes when the caller gives none (the context's writable
     * placeholder may already stand for an empty part of the output). */
    WGPUBuffer no_status;
    wgs__chain chain;
};

/* The segmented scan is the same plan; its own type keeps the two APIs apart. */
struct wgs_segmented_scan_plan {
    wgs_scan_by_key_plan p;
};

/* What either description comes to, defaults applied. */
typedef struct plan_core {
    wgs_type type;
    wgs_op op;
    wgs_scan_kind kind;
    int source, csr;
    uint64_t capacity, segment_capacity;
    const wgs_operator_desc *custom;
} plan_core;

typedef struct storage_arg {
    const wgs_context_info *ci;
    int offsets;
    uint32_t es; /* bytes of a value (at least 4) */
    int custom;
} storage_arg;

/* Workgroup memory: the segmented scan's tables (es + 8 bytes an entry: per (row,
 * subgroup of 4 lanes or more) with subgroups, per invocation and per row without), the
 * workgroup scan's of the look-back (a user's operator: its ordered fold's LOOKBACK
 * values too), a few words; with offsets a head bit and a gap bit an element. */
static uint64_t tile_storage(uint32_t wg, uint32_t items, const void *arg) {
    const storage_arg *s = arg;
    uint64_t rows = items / 4, entry = s->es + 8ull;
    uint64_t scan = !s->custom && wgs__chain_subgroups(s->ci, wg) ? entry * rows * ((wg + 3) / 4) + 16
                                                                  : entry * wg + 16 * rows;
    uint64_t marks = s->offsets ? (uint64_t)wg * items / 4 + 16 : 0;
    uint64_t fold = s->custom ? 36ull * s->es : 0;
    return scan + (uint64_t)s->es * (wg + wg / 32 + 64) + 64 + marks + fold;
}

/* es: the bytes of a value (a user's element's size, else 4 for the bound's checks). */
static wgs_result core_validate(wgs_context *ctx, const plan_core *c, uint32_t es) {
    WGS_FAIL_IF(ctx, c->custom && (c->type || c->op), WGS_ERROR_INVALID_ARGUMENT,
                "a scan with its own operator (custom) takes no type or op; leave them 0");
    wgs_result r = c->custom ? WGS_OK : wgs__check_type_op(ctx, c->type, c->op);
    if (r != WGS_OK) return r;
    WGS_FAIL_IF(ctx, (unsigned)c->kind > WGS_SCAN_INCLUSIVE, WGS_ERROR_INVALID_ARGUMENT, "unknown scan kind %d",
                (int)c->kind);
    uint64_t bind = ctx->caps.info.max_storage_binding_size;
    WGS_FAIL_IF(ctx, c->capacity >= (1ull << 31) || wgs__mul_sat(c->capacity, es) > bind, WGS_ERROR_TOO_LARGE,
                "capacity %llu: the values, keys and output must each fit one binding of %llu bytes, and n "
                "stays below 2^31",
                (unsigned long long)c->capacity, (unsigned long long)bind);
    WGS_FAIL_IF(ctx, c->segment_capacity >= (1ull << 31) || wgs__mul_sat(c->segment_capacity + 1, 4) > bind,
                WGS_ERROR_TOO_LARGE,
                "segment_capacity %llu: the offsets must fit one binding of %llu bytes, and n_segments stays "
                "below 2^31",
                (unsigned long long)c->segment_capacity, (unsigned long long)bind);
    return WGS_OK;
}

static void plan_release(wgs_scan_by_key_plan *p) {
    wgs__chain_release(p->ctx, &p->chain);
    wgs__gpu_buffer_release(p->ctx->gpu, p->no_status);
    p->no_status = NULL;
    wgs__operator_destroy(p->custom);
    p->custom = NULL;
}

/* The smallest count of elements, a multiple of 4, whose bytes are a multiple of `align`
 * (where the output's word view may end). */
static uint32_t word_view_elems(uint32_t align, uint32_t es) {
    uint32_t e = 4;
    while ((uint64_t)e * es % align) e += 4;
    return e;
}

/* Fills the plan (allocated by the caller) from its core: the operator (checked with
 * its element's size), shape, pipelines, states. */
static wgs_result plan_build(wgs_context *ctx, wgs_scan_by_key_plan *p, const plan_core *c) {
    const int offsets = c->source == SOURCE_OFFSETS;
    p->ctx = ctx;
    wgs_result r = WGS_OK;
    if (c->custom && !c->type && !c->op && (r = wgs__operator_create(ctx, c->custom, &p->custom)) != WGS_OK)
        return r;
    p->es = p->custom ? p->custom->size : c->type == WGS_TYPE_F16 ? 2 : 4;
    if ((r = core_validate(ctx, c, p->es < 4 ? 4 : p->es)) != WGS_OK) return r;
    const storage_arg sa = {&ctx->caps.info, offsets, p->es < 4 ? 4 : p->es, p->custom != NULL};
    wgs_tile_shape s;
    r = wgs__shape(ctx, "scan_by_key", ctx->exp.scan_by_key, wgs__tuning_of(ctx)->scan_by_key, 4, 64, tile_storage,
                   &sa, &s);
    if (r != WGS_OK) return r;
    p->type = c->type;
    p->source = c->source;
    p->csr = c->csr;
    p->capacity = c->capacity;
    p->segment_capacity = c->segment_capacity;
    p->wg = s.wg;
    p->items = s.items;
    /* The output's tail binding starts where its word view ends: at an offset aligned
     * for both the values and the 4-byte keys. */
    uint32_t align = ctx->caps.info.min_storage_offset_alignment < 16 ? 16 : ctx->caps.info.min_storage_offset_alignment;
    p->word_elems = word_view_elems(align, p->es);

    wgs_kernel_spec spec = {.file = "device/scan_by_key.wgsl", .entry = "scan_by_key",
                            .primitive = 1, .value_type = c->type, .params = WGS_PARAMS_KIND_SCAN,
                            .type = c->type, .op = c->op, .inclusive = c->kind == WGS_SCAN_INCLUSIVE,
                            .wg = p->wg, .items = p->items, .custom = p->custom};
    spec.consts[0].name = "ARG";
    if (offsets) {
        spec.consts[1].name = "SEG_CSR", spec.consts[1].value = (uint32_t)c->csr;
        spec.consts[2].name = "STATUS_UNORDERED", spec.consts[2].value = WGS_ERROR_SEGMENTS_UNORDERED;
        spec.consts[3].name = "STATUS_OUT_OF_RANGE", spec.consts[3].value = WGS_ERROR_SEGMENT_OUT_OF_RANGE;
    } else {
        spec.consts[1].name = "BYKEY_FLAGS", spec.consts[1].value = c->source == SOURCE_FLAGS;
    }
    wgs__chain_spec(ctx, &spec);
    spec.ordered_lookback = 1; /* float results bit-identical run to run */
    /* The head source goes before the chain hooks, which call the kernel's seg_word_at. */
    const char *heads = offsets ? "workgroup/heads_offsets.wgsl " : "element/scan_carry.wgsl element/heads_keys.wgsl ";
    char helper[320];
    snprintf(helper, sizeof helper, "element/acc.wgsl element/acc_value.wgsl element/segment_entry.wgsl %s%s", heads,
             spec.subgroups ? "workgroup/segmented_scan_subgroup.wgsl workgroup/segmented_chain_subgroup.wgsl"
                            : "workgroup/segmented_scan_workgroup.wgsl workgroup/segmented_chain_workgroup.wgsl");
    spec.helper = helper;
    r = wgs__pipeline(ctx, &spec, &p->scan);
    if (r == WGS_OK && offsets) {
        wgs_kernel_spec st = spec;
        st.entry = "seg_status_reset";
        r = wgs__pipeline(ctx, &st, &p->status_reset);
        st.entry = "seg_check_empty";
        if (r == WGS_OK) r = wgs__pipeline(ctx, &st, &p->status_check);
    }
    if (r == WGS_OK)
        r = wgs__chain_create(ctx, &spec, wgs__div_up(p->capacity, (uint64_t)p->wg * p->items),
                              offsets ? "wgscan segmented scan tile states" : "wgscan scan by key tile states",
                              &p->chain);
    if (r == WGS_OK && offsets) {
        wgs__gpu_scope_push(ctx->gpu);
        p->no_status = wgs__gpu_buffer_create(ctx->gpu, 256, WGPUBufferUsage_Storage, "wgscan segmented scan status");
        r = wgs__scope_end(ctx, "allocating the segmented scan's status");
    }
    return r;
}

/* ---- the scan by key ---------------------------------------------------------------- */

static plan_core by_key_core(const wgs_scan_by_key_plan_desc *d) {
    plan_core c = {d->type, d->op, d->kind, d->heads == WGS_HEADS_FLAGS ? SOURCE_FLAGS : SOURCE_KEYS, 0,
                   d->capacity, 0, d->custom};
    if (c.type == WGS_TYPE_DEFAULT && !c.custom) c.type = WGS_TYPE_U32;
    if (c.op == WGS_OP_DEFAULT && !c.custom) c.op = WGS_OP_ADD;
    if (c.kind == WGS_SCAN_DEFAULT) c.kind = WGS_SCAN_EXCLUSIVE;
    if (c.capacity == 0) c.capacity = 1;
    return c;
}

wgs_result wgs_scan_by_key_plan_create(wgs_context *ctx, const wgs_scan_by_key_plan_desc *d,
                                       wgs_scan_by_key_plan **out) {
    WGS_CREATE_BEGIN(ctx, d, out);
    const plan_core c = by_key_core(d);
    wgs_result r;
    WGS_FAIL_IF(ctx, (unsigned)d->heads > WGS_HEADS_FLAGS, WGS_ERROR_INVALID_ARGUMENT, "unknown segment heads %d",
                (int)d->heads);
    WGS_FAIL_IF(ctx, d->key_type != WGS_TYPE_DEFAULT && d->key_type != WGS_TYPE_U32 && d->key_type != WGS_TYPE_I32,
                WGS_ERROR_UNSUPPORTED_TYPE, "keys are u32 or i32, not type %d", (int)d->key_type);
    wgs_scan_by_key_plan *p = calloc(1, sizeof *p);
    WGS_FAIL_IF(ctx, !p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the plan");
    p->ctx = ctx;
    r = plan_build(ctx, p, &c);
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

void wgs_scan_by_key_plan_destroy(wgs_scan_by_key_plan *p) {
    if (!p) return;
    plan_release(p);
    wgs__plan_gone(p->ctx);
    free(p);
}

uint64_t wgs_scan_by_key_plan_scratch_size(const wgs_scan_by_key_plan *p) {
    return p ? wgs__chain_state_bytes(p->chain.max_tiles, p->chain.value_words) + (p->source == SOURCE_OFFSETS ? 256 : 0) : 0;
}

uint32_t wgs_scan_by_key_plan_tile_size(const wgs_scan_by_key_plan *p) { return p ? p->wg * p->items : 0; }

uint32_t wgs__scan_by_key_plan_element_size(const wgs_scan_by_key_plan *p) { return p->es; }

uint32_t wgs__segmented_scan_plan_element_size(const wgs_segmented_scan_plan *sp) { return sp->p.es; }

/* Bytes of `count` values (f16 bindings are whole 4-byte words). */
static uint64_t value_bytes(const wgs_scan_by_key_plan *p, uint64_t count) {
    return wgs__round_up(count * p->es, 4);
}

/* The buffers of one encode, either API's. */
typedef struct encode_args {
    WGPUBuffer input, output, heads, ends, status, init;
    uint64_t input_offset, output_offset, heads_offset, ends_offset, status_offset, init_offset;
    WGPUBuffer n_buffer, segments_buffer; /* the counts on the GPU (either may be NULL) */
    uint64_t n_offset, segments_offset;
    uint64_t n, segments, heads_bytes;
    const void *init_value;
    WGPUQuerySet qs;
    uint32_t ts_begin, ts_end;
} encode_args;

/* Records the scan of one encode, its arguments checked. */
static wgs_result encode(wgs_scan_by_key_plan *p, WGPUCommandEncoder encoder, const encode_args *a) {
    wgs_context *ctx = p->ctx;
    const uint64_t n = a->n;
    const int offsets = p->source == SOURCE_OFFSETS;
    if (n == 0 && !(offsets && a->status)) return WGS_OK; /* nothing to write, nothing to report */
    const uint64_t tiles = wgs__div_up(n, (uint64_t)p->wg * p->items);
    const uint64_t words = n / p->word_elems * p->word_elems / 4; /* the output's word view */
    wgs_params rec = {.scan = {.n = (uint32_t)n, .words = (uint32_t)words, .segments = (uint32_t)a->segments}};
    gpu_binding carry = {6, wgs__dummy(ctx), 0, 16};
    if (a->init) {
        carry = (gpu_binding){6, a->init, a->init_offset, p->es < 4 ? 4 : p->es};
        rec.scan.flags = WGS_FLAG_CARRY | WGS_FLAG_CARRY_BUFFER;
    } else if (a->init_value) {
        rec.scan.flags = WGS_FLAG_CARRY;
        /* f16 in the low half (little-endian); an element of several words goes in a
         * record of its own (below) */
        memcpy(&rec.scan.carry_bits, a->init_value, p->es < 4 ? p->es : 4);
    }
    /* The keys' and flags' kernels take a carry: a user's element of several words in
     * its own record at binding 7 (element/scan_carry.wgsl), bound whenever they run. */
    const int carry_record = !offsets && p->custom && p->custom->words > 1;
    wgs_result r = wgs__params_reserve(ctx, 1 + (size_t)carry_record);
    if (r != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    WGPUComputePassEncoder pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->qs, a->ts_begin, a->ts_end);
    uint64_t po = wgs__param_push(ctx, &rec);
    gpu_binding carry_rec_b = {0};
    if (carry_record) {
        wgs_params cr;
        memset(&cr, 0, sizeof cr);
        if (a->init_value && !a->init) memcpy(cr.words, a->init_value, p->es);
        carry_rec_b = wgs__param_binding(ctx, 7, wgs__param_push(ctx, &cr));
    }
    /* Counts on the GPU: n and the grid follow the values' count, the segments the
     * second count; the word view stays the bound's (scan_by_key.wgsl stores a word the
     * count cuts by elements). */
    wgs__dispatch_begin2(ctx, a->n_buffer, a->n_offset, n, a->segments_buffer, a->segments_offset, a->segments);
    wgs__count_rule rule = wgs__count_follow(0, (uint64_t)p->wg * p->items);
    rule.ops[0] = (wgs__count_op){offsets ? WGS_COUNT_OP_SECOND : WGS_COUNT_OP_NONE, 6, 0, 0};
    gpu_binding seg[3];
    if (offsets) {
        seg[0] = wgs__binding_or_dummy(ctx, 10, a->heads, a->heads_offset, a->heads_bytes, 0);
        seg[1] = wgs__binding_or_dummy(ctx, 11, a->ends, a->ends_offset, p->csr ? 0 : a->segments * 4, 0);
        seg[2] = a->status ? (gpu_binding){12, a->status, a->status_offset, 4}
                           : (gpu_binding){12, p->no_status, 0, 256};
        if (a->status) wgs__dispatch(ctx, pass, p->status_reset, &seg[2], 1, NULL, 0, 1, NULL);
    }
    if (n == 0) { /* every offset must be 0: one check of them all */
        rule.per = 0;
        wgs__dispatch(ctx, pass, p->status_check, seg, 3, &rec, po, wgs__div_up(a->segments + 1, p->wg), &rule);
    } else {
        wgs__chain_reset(ctx, pass, &p->chain, tiles);
        const uint64_t word_bytes = words * 4 * p->es;
        gpu_binding b[11];
        uint32_t nb = 0;
        b[nb++] = wgs__binding_or_dummy(ctx, 0, a->input, a->input_offset, n / 4 * 4 * p->es, 0);
        b[nb++] = (gpu_binding){4, a->input, a->input_offset, value_bytes(p, n)};
        b[nb++] = wgs__binding_or_dummy(ctx, 1, a->output, a->output_offset, word_bytes, 1);
        b[nb++] = wgs__binding_or_dummy(ctx, 5, a->output, a->output_offset + word_bytes,
                                        value_bytes(p, n) - word_bytes, 1);
        b[nb++] = wgs__chain_binding(&p->chain, tiles);
        if (offsets) {
            memcpy(b + nb, seg, sizeof seg);
            nb += 3;
        } else {
            /* With flags the kernel reads 9 alone; 8 still belongs to its layout. */
            const int flags = p->source == SOURCE_FLAGS;
            b[nb++] = wgs__binding_or_dummy(ctx, 8, a->heads, a->heads_offset, flags ? 0 : n / 4 * 16, 0);
            b[nb++] = (gpu_binding){9, a->heads, a->heads_offset, a->heads_bytes};
            b[nb++] = carry;
            if (carry_record) b[nb++] = carry_rec_b;
        }
        wgs__dispatch(ctx, pass, p->scan, b, nb, &rec, po, tiles, &rule);
    }
    r = wgs__dispatch_end(ctx, pass);
    wgs__gpu_pass_end(ctx->gpu, pass);
    wgs_result rs = wgs__scope_end(ctx, offsets ? "recording the segmented scan" : "recording the scan by key");
    return r != WGS_OK ? r : rs;
}

wgs_result wgs_scan_by_key_encode(wgs_scan_by_key_plan *p, WGPUCommandEncoder encoder,
                                  const wgs_scan_by_key_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK) return r;
    const uint64_t n = a->n;
    const int flags = p->source == SOURCE_FLAGS;
    encode_args e = {.input = a->input, .output = a->output, .heads = flags ? a->flags : a->keys,
                     .init = a->init_buffer, .input_offset = a->input_offset, .output_offset = a->output_offset,
                     .heads_offset = flags ? a->flags_offset : a->keys_offset, .init_offset = a->init_offset,
                     .n = n, .heads_bytes = flags ? wgs__round_up(n, 4) : n * 4, .init_value = a->init_value,
                     .qs = a->timestamp_query_set, .ts_begin = a->timestamp_begin_index,
                     .ts_end = a->timestamp_end_index, .n_buffer = a->n_buffer, .n_offset = a->n_offset};
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, e.input, e.input_offset, value_bytes(p, n), "input")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, e.heads, e.heads_offset, e.heads_bytes, flags ? "flags" : "keys")) != WGS_OK)
        return r;
    if ((r = wgs__check_buffer(ctx, e.output, e.output_offset, value_bytes(p, n), "output")) != WGS_OK) return r;
    if (e.init && (r = wgs__check_buffer(ctx, e.init, e.init_offset, p->es < 4 ? 4 : p->es, "init")) != WGS_OK)
        return r;
    WGS_FAIL_IF(ctx, e.output == e.input || e.output == e.heads, WGS_ERROR_ALIASING,
                "the output needs a buffer of its own (the fallback rereads the values and the %s)",
                flags ? "flags" : "keys");
    WGS_FAIL_IF(ctx, e.init && e.init == e.output, WGS_ERROR_ALIASING,
                "the carry-in's buffer is read while the output is written: another buffer than the output");
    return encode(p, encoder, &e);
}

/* ---- the segmented scan ---------------------------------------------------------------- */

wgs_result wgs_segmented_scan_plan_create(wgs_context *ctx, const wgs_segmented_scan_plan_desc *d,
                                          wgs_segmented_scan_plan **out) {
    WGS_CREATE_BEGIN(ctx, d, out);
    plan_core c = {d->type, d->op, d->kind, SOURCE_OFFSETS, d->segments != WGS_SEGMENTS_BEGIN_END,
                   d->capacity, d->segment_capacity, d->custom};
    if (c.type == WGS_TYPE_DEFAULT && !c.custom) c.type = WGS_TYPE_U32;
    if (c.op == WGS_OP_DEFAULT && !c.custom) c.op = WGS_OP_ADD;
    if (c.kind == WGS_SCAN_DEFAULT) c.kind = WGS_SCAN_EXCLUSIVE;
    if (c.capacity == 0) c.capacity = 1;
    if (c.segment_capacity == 0) c.segment_capacity = 1;
    wgs_result r;
    WGS_FAIL_IF(ctx, (unsigned)d->segments > WGS_SEGMENTS_BEGIN_END, WGS_ERROR_INVALID_ARGUMENT,
                "unknown segments form %d", (int)d->segments);
    wgs_segmented_scan_plan *sp = calloc(1, sizeof *sp);
    WGS_FAIL_IF(ctx, !sp, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the plan");
    sp->p.ctx = ctx;
    r = plan_build(ctx, &sp->p, &c);
    WGS_CREATE_END(ctx, r, sp, plan_release(&sp->p), out);
}

void wgs_segmented_scan_plan_destroy(wgs_segmented_scan_plan *sp) {
    if (!sp) return;
    plan_release(&sp->p);
    wgs__plan_gone(sp->p.ctx);
    free(sp);
}

uint64_t wgs_segmented_scan_plan_scratch_size(const wgs_segmented_scan_plan *sp) {
    return sp ? wgs_scan_by_key_plan_scratch_size(&sp->p) : 0;
}

uint32_t wgs_segmented_scan_plan_tile_size(const wgs_segmented_scan_plan *sp) {
    return sp ? wgs_scan_by_key_plan_tile_size(&sp->p) : 0;
}

wgs_result wgs_segmented_scan_encode(wgs_segmented_scan_plan *sp, WGPUCommandEncoder encoder,
                                     const wgs_segmented_scan_args *a) {
    if (!sp) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_scan_by_key_plan *p = &sp->p;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK) return r;
    const uint64_t n = a->n, segs = a->n_segments;
    WGS_FAIL_IF(ctx, segs > p->segment_capacity, WGS_ERROR_CAPACITY_EXCEEDED,
                "n_segments = %llu exceeds the plan's segment_capacity %llu", (unsigned long long)segs,
                (unsigned long long)p->segment_capacity);
    const int csr = p->csr;
    encode_args e = {.input = a->input, .output = a->output, .heads = csr ? a->offsets : a->begin_offsets,
                     .ends = csr ? NULL : a->end_offsets, .status = a->status, .input_offset = a->input_offset,
                     .output_offset = a->output_offset,
                     .heads_offset = csr ? a->offsets_offset : a->begin_offsets_offset,
                     .ends_offset = csr ? 0 : a->end_offsets_offset, .status_offset = a->status_offset,
                     .n = n, .segments = segs, .heads_bytes = (csr ? segs + 1 : segs) * 4,
                     .qs = a->timestamp_query_set, .ts_begin = a->timestamp_begin_index,
                     .ts_end = a->timestamp_end_index, .n_buffer = a->n_buffer, .n_offset = a->n_offset,
                     .segments_buffer = a->n_segments_buffer, .segments_offset = a->n_segments_offset};
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK ||
        (r = wgs__check_count(ctx, a->n_segments_buffer, a->n_segments_offset, "n_segments")) != WGS_OK)
        return r;
    if (n && (r = wgs__check_buffer(ctx, e.input, e.input_offset, value_bytes(p, n), "input")) != WGS_OK) return r;
    if (n && (r = wgs__check_buffer(ctx, e.output, e.output_offset, value_bytes(p, n), "output")) != WGS_OK) return r;
    if (e.heads_bytes &&
        (r = wgs__check_buffer(ctx, e.heads, e.heads_offset, e.heads_bytes, csr ? "offsets" : "begin_offsets")) != WGS_OK)
        return r;
    if (!csr && segs && (r = wgs__check_buffer(ctx, e.ends, e.ends_offset, segs * 4, "end_offsets")) != WGS_OK)
        return r;
    if (e.status && (r = wgs__check_buffer(ctx, e.status, e.status_offset, 4, "status")) != WGS_OK) return r;
    WGS_FAIL_IF(ctx, n && (e.output == e.input || e.output == e.heads || (e.ends && e.output == e.ends)),
                WGS_ERROR_ALIASING, "the output needs a buffer of its own (the fallback rereads the values and "
                                    "the offsets)");
    WGS_FAIL_IF(ctx, e.status && (e.status == e.output || e.status == e.input || e.status == e.heads ||
                                  (e.ends && e.status == e.ends)),
                WGS_ERROR_ALIASING, "the status needs a buffer of its own");
    return encode(p, encoder, &e);
}
