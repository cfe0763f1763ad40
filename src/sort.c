/* SPDX-License-Identifier: MIT */
/*
 * sort.c: radix sort plans (kernels in wgsl/device/sort_onesweep.wgsl and
 * wgsl/device/sort.wgsl, a tile's ranking and moves in wgsl/workgroup/sort_tile.wgsl).
 * Digits of at most 8 bits. ONESWEEP: a reset, one histogram pass for every digit, then
 * one chained pass per digit. REDUCE_SCAN: per digit a counting pass, the scan of the
 * digit-major counts (a scan plan of the plan's own) and a scatter pass. The keys go
 * back and forth between the caller's output and the plan's second copy so that the
 * last pass writes the output; the input is only read.
 */
#include "chain.h"
#include "tuning.h"

#include <stdlib.h>
#include <string.h>

#define RADIX 256u
/* The chained pass's states hold 30-bit counts. */
#define ONESWEEP_MAX_N ((1ull << 30) - 1)

struct wgs_sort_plan {
    wgs_context *ctx;
    uint64_t scratch_bytes; /* the GPU memory it holds, inner plans' included */
    wgs_type type;
    uint32_t key_words, value_words; /* 4-byte words a key, a value (0: no values) */
    int descending;
    uint32_t begin_bit, end_bit;
    wgs_payload payload;
    uint64_t capacity;
    int onesweep;
    uint32_t tile, group_tiles_max;
    uint32_t count_groups; /* groups a workgroup of the count kernel */
    uint32_t direct_max;   /* the tuning row's sort_direct_max, or the experiment's */
    uint32_t phases; /* WGS_EXPERIMENTAL_PHASE_* recorded (all but in experiments) */
    WGPUComputePipeline count, scatter;           /* REDUCE_SCAN */
    WGPUComputePipeline reset, histogram, sweep;  /* ONESWEEP */
    wgs_scan_plan *scan; /* REDUCE_SCAN: the digit-major counts into their places */
    WGPUBuffer keys_alt, values_alt, counts, offsets;
    WGPUBuffer state; /* ONESWEEP: histograms, tile counters, two regions of tile states */
    /* DEFAULT's reduce-then-scan plan past the one-sweep bound: a one-sweep plan of the
     * bound, for the encodes whose n the host knows to be within it (NULL: none). */
    wgs_sort_plan *small;
};

static void plan_release(wgs_sort_plan *p) {
    wgs_sort_plan_destroy(p->small);
    wgs_scan_plan_destroy(p->scan);
    WGPUBuffer bufs[] = {p->keys_alt, p->values_alt, p->counts, p->offsets, p->state};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) wgs__gpu_buffer_release(p->ctx->gpu, bufs[i]);
}

/* Bytes of the one-sweep state buffer for `tiles` tiles (sort_onesweep.wgsl): the
 * histograms and counters, then two regions of a word per (tile, digit). */
static uint64_t onesweep_state_bytes(uint64_t tiles) { return 4 * (WGS_STATE_TILES + 2 * RADIX * tiles); }

static int key_kind(wgs_type t) {
    switch (t) {
    case WGS_TYPE_I32: return 1;
    case WGS_TYPE_F32: return 2;
    case WGS_TYPE_U64: return 3;
    case WGS_TYPE_I64: return 4;
    default: return 0;
    }
}

/* Digit passes over `bits` bits: digits of at most 8 bits, as even as they come. In
 * place, an odd count would make the first pass read and write the one buffer: one
 * more (narrower) digit instead. */
static uint32_t digit_passes(uint32_t bits, int in_place) {
    uint32_t passes = bits ? (bits + 7) / 8 : 1;
    return passes + (in_place && passes % 2);
}

/* Workgroup memory of a scatter (sort_tile.wgsl and its kernel): one room for the
 * owners' counter rows and then the tile's keys or values (the largest of the three),
 * the digit table (digit_place), the one-sweep's fallback counts, the count kernel's digits,
 * the workgroup scan's room; the one-sweep's histogram kernel needs less. */
typedef struct scatter_room {
    uint32_t sg_min, key_words, value_words;
    uint32_t stage; /* wgs_experimental.sort_stage */
} scatter_room;

/* The tile's staging (sort_tile.wgsl's SORT_STAGE): halves need an even count of rows. */
static uint32_t stage_of(uint32_t stage, uint32_t items) { return stage == 2 && items % 2 ? 0 : stage; }

static uint64_t scatter_storage(uint32_t wg, uint32_t items, const void *arg) {
    const scatter_room *a = arg;
    uint32_t stage = stage_of(a->stage, items);
    uint64_t staged = (uint64_t)wg * items / (stage == 2 ? 2 : 1);
    uint64_t exchange = staged * (a->key_words > a->value_words ? a->key_words : a->value_words);
    uint64_t rows = (uint64_t)(wg / a->sg_min) * RADIX;
    return 4ull * ((stage == 1 ? rows + exchange : rows > exchange ? rows : exchange) + 3 * RADIX + wg + 64);
}

static wgs_result desc_check(wgs_context *ctx, const wgs_sort_plan_desc *d, wgs_type *type, uint32_t *begin,
                             uint32_t *end, uint32_t *value_bytes) {
    *type = d->type ? d->type : WGS_TYPE_U32;
    WGS_FAIL_IF(ctx, *type != WGS_TYPE_U32 && *type != WGS_TYPE_I32 && *type != WGS_TYPE_F32 &&
                         *type != WGS_TYPE_U64 && *type != WGS_TYPE_I64,
                WGS_ERROR_UNSUPPORTED_TYPE, "sort keys are u32, i32, f32, u64 or i64, not %s",
                wgs_type_name(*type));
    WGS_FAIL_IF(ctx, (unsigned)d->order > WGS_SORT_DESCENDING, WGS_ERROR_INVALID_ARGUMENT, "unknown sort order %d",
                (int)d->order);
    uint32_t width = (uint32_t)wgs_type_size(*type) * 8;
    *begin = d->begin_bit;
    *end = d->begin_bit == 0 && d->end_bit == 0 ? width : d->end_bit;
    WGS_FAIL_IF(ctx, *begin > *end || *end > width, WGS_ERROR_INVALID_ARGUMENT,
                "bit range [%u, %u) must have begin <= end <= %u (the %s key's bits)", d->begin_bit, d->end_bit,
                width, wgs_type_name(*type));
    WGS_FAIL_IF(ctx, (unsigned)d->payload > WGS_PAYLOAD_INDEX, WGS_ERROR_INVALID_ARGUMENT, "unknown payload %d",
                (int)d->payload);
    *value_bytes = d->payload == WGS_PAYLOAD_INDEX ? 4 : d->payload == WGS_PAYLOAD_BUFFER && !d->value_bytes ? 4
                                                                                                     : d->value_bytes;
    WGS_FAIL_IF(ctx, d->payload == WGS_PAYLOAD_BUFFER && *value_bytes != 4 && *value_bytes != 8,
                WGS_ERROR_INVALID_ARGUMENT, "sort values are 4 or 8 bytes, not %u", d->value_bytes);
    WGS_FAIL_IF(ctx, d->payload != WGS_PAYLOAD_BUFFER && d->value_bytes && !(d->payload == WGS_PAYLOAD_INDEX &&
                                                                            d->value_bytes == 4),
                WGS_ERROR_INVALID_ARGUMENT, "value_bytes %u without payload BUFFER", d->value_bytes);
    return WGS_OK;
}

wgs_result wgs_sort_plan_create(wgs_context *ctx, const wgs_sort_plan_desc *desc, wgs_sort_plan **out) {
    return wgs__sort_plan_create(ctx, desc, 0, out);
}

wgs_result wgs__sort_plan_create(wgs_context *ctx, const wgs_sort_plan_desc *desc, unsigned flags,
                                 wgs_sort_plan **out) {
    WGS_CREATE_BEGIN(ctx, desc, out);
    wgs_type type = WGS_TYPE_U32;
    uint32_t begin = 0, end = 0, value_bytes = 0;
    wgs_result r = desc_check(ctx, desc, &type, &begin, &end, &value_bytes);
    if (r != WGS_OK) return r;
    const wgs_context_info *ci = &ctx->caps.info;
    uint64_t capacity = desc->capacity ? desc->capacity : 1;
    uint32_t key_words = (uint32_t)wgs_type_size(type) / 4, value_words = value_bytes / 4;
    uint64_t widest = 4ull * (key_words > value_words ? key_words : value_words);
    WGS_FAIL_IF(ctx, capacity >= (1ull << 32) || wgs__mul_sat(capacity, widest) > ci->max_storage_binding_size,
                WGS_ERROR_TOO_LARGE,
                "capacity %llu: the keys and values must fit one storage binding (%llu bytes) and n < 2^32",
                (unsigned long long)capacity, (unsigned long long)ci->max_storage_binding_size);
    const wgs__tuning *tu = wgs__tuning_of(ctx);
    WGS_FAIL_IF(ctx, (unsigned)desc->algorithm > WGS_SORT_ALGORITHM_REDUCE_SCAN, WGS_ERROR_INVALID_ARGUMENT,
                "unknown sort algorithm %d", (int)desc->algorithm);
    WGS_FAIL_IF(ctx, desc->algorithm == WGS_SORT_ALGORITHM_ONESWEEP && capacity > ONESWEEP_MAX_N,
                WGS_ERROR_TOO_LARGE, "capacity %llu: the one-sweep sort takes n < 2^30",
                (unsigned long long)capacity);
    /* Subgroups rank where every subgroup fits the workgroup; else each invocation. */
    int subgroups = wgs__chain_subgroups(ci, tu->sort.wg) && ci->subgroup_max_size <= 128;
    /* DEFAULT's one-sweep bound: the keys' (an experiment's for both unless it names the
     * values' too), or, for one-word values ranked by subgroups, the values' (measured
     * there only). A plan past it keeps a one-sweep plan of small_max beside it: the
     * bound, or the keys' where the bound is past what one-sweep takes. */
    const uint64_t keys_max = ctx->exp.sort_onesweep_max ? ctx->exp.sort_onesweep_max : tu->sort_onesweep_max;
    const uint64_t values_max = ctx->exp.sort_onesweep_values_max ? ctx->exp.sort_onesweep_values_max
                                : ctx->exp.sort_onesweep_max      ? ctx->exp.sort_onesweep_max
                                                                  : tu->sort_onesweep_values_max;
    const uint64_t onesweep_max = value_words == 1 && subgroups ? values_max : keys_max;
    const uint64_t small_max = onesweep_max <= ONESWEEP_MAX_N ? onesweep_max : keys_max;
    int onesweep = desc->algorithm == WGS_SORT_ALGORITHM_ONESWEEP ||
                   (desc->algorithm == WGS_SORT_ALGORITHM_DEFAULT &&
                    (capacity <= onesweep_max || (flags & WGS__SORT_PREFER_ONESWEEP)) &&
                    capacity <= ONESWEEP_MAX_N);
    uint32_t sg_min = subgroups ? ci->subgroup_min_size : 1;
    const scatter_room room = {sg_min, key_words, value_words, ctx->exp.sort_stage};
    uint32_t group_tiles, count_groups;
    int keys_only = key_words == 1 && !value_words;
    r = wgs__tuned_pow2(ctx, "sort_group_tiles", ctx->exp.sort_group_tiles,
                        keys_only ? tu->sort_keys_group_tiles : tu->sort_group_tiles, 64, &group_tiles);
    if (r == WGS_OK)
        r = wgs__tuned_pow2(ctx, "sort_count_groups", ctx->exp.sort_count_groups, tu->sort_count_groups, 16,
                            &count_groups);
    if (r != WGS_OK) return r;
    while (count_groups > 1 && count_groups * RADIX * 4 > ci->max_workgroup_storage_size) count_groups /= 2;
    /* DEFAULT's one-sweep gives way to reduce-then-scan where it cannot run: its tile
     * states past one storage binding (two words a key at small tiles: WebGPU's default
     * 128 MiB binding holds a few million keys' states), or an experiment's tile shape
     * that it does not take. */
    wgs_tile_shape shape;
    uint64_t max_tiles, state_bytes;
    for (;;) {
        wgs_tile_shape tuned = onesweep ? (!subgroups ? tu->sort_onesweep_portable
                                           : keys_only ? tu->sort_onesweep_keys
                                                       : tu->sort_onesweep)
                                        : (!subgroups ? tu->sort_portable : keys_only ? tu->sort_keys : tu->sort);
        /* Without subgroups every invocation keeps a row of counters: on a device of little
         * workgroup memory (WebGPU's default 16 KiB) fewer invocations, not only fewer items. */
        if (!subgroups) tuned = wgs__rows_fit(tuned, scatter_storage, &room, ci->max_workgroup_storage_size);
        r = wgs__shape_any(ctx, "sort", ctx->exp.sort, tuned, 1, 64, scatter_storage, &room, &shape);
        if (r != WGS_OK) return r;
        /* The one-sweep pass and the portable ranking (a Blelloch scan of the digits) take a
         * workgroup that divides the radix; the subgroups' reduce-then-scan any workgroup of
         * whole subgroups (sort_tile.wgsl's slot_digit). Ranking by subgroups, one-sweep
         * too needs whole subgroups: a subgroup wider than the workgroup owns nothing. */
        int any_wg = subgroups && !onesweep;
        int whole_subgroups = !subgroups || shape.wg % ci->subgroup_max_size == 0;
        int wg_bad = !whole_subgroups || (!any_wg && (shape.wg > RADIX || RADIX % shape.wg));
        int room_bad = scatter_storage(shape.wg, shape.items, &room) > ci->max_workgroup_storage_size;
        max_tiles = wgs__div_up(capacity, (uint64_t)shape.wg * shape.items);
        state_bytes = onesweep_state_bytes(max_tiles);
        /* An experiment's shape that one-sweep cannot take, or states past a binding. */
        if (onesweep && desc->algorithm == WGS_SORT_ALGORITHM_DEFAULT &&
            (wg_bad || room_bad || state_bytes > ci->max_storage_binding_size)) {
            if (flags & WGS__SORT_ONESWEEP_ONLY) return WGS_OK; /* *out is NULL */
            onesweep = 0;
            continue;
        }
        WGS_FAIL_IF(ctx, wg_bad, WGS_ERROR_INVALID_ARGUMENT,
                    "a sort workgroup of %u invocations cannot run here (%s)", shape.wg,
                    any_wg      ? "a multiple of the largest subgroup"
                    : subgroups ? "one dividing 256, a multiple of the largest subgroup"
                                : "one dividing 256");
        WGS_FAIL_IF(ctx, room_bad, WGS_ERROR_TOO_LARGE,
                    "the sort's tile does not fit this device's workgroup memory (%u bytes)",
                    ci->max_workgroup_storage_size);
        break;
    }
    WGS_FAIL_IF(ctx, onesweep && state_bytes > ci->max_storage_binding_size, WGS_ERROR_TOO_LARGE,
                "the one-sweep sort's tile states (%llu bytes) do not fit one storage binding",
                (unsigned long long)state_bytes);
    wgs_sort_plan *p = calloc(1, sizeof *p);
    WGS_FAIL_IF(ctx, !p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the sort plan");
    p->ctx = ctx;
    p->type = type;
    p->key_words = key_words;
    p->value_words = value_words;
    p->descending = desc->order == WGS_SORT_DESCENDING;
    p->begin_bit = begin;
    p->end_bit = end;
    p->payload = desc->payload;
    p->capacity = capacity;
    p->onesweep = onesweep;
    p->tile = shape.wg * shape.items;
    p->group_tiles_max = group_tiles;
    p->count_groups = onesweep ? 1 : count_groups;
    p->direct_max = ctx->exp.sort_direct_max ? ctx->exp.sort_direct_max : tu->sort_direct_max;
    p->phases = ctx->exp.sort_phases & 7u ? ctx->exp.sort_phases & 7u : 7u;
    /* The most digit passes an encode of this plan makes, which bounds the one-sweep
     * histogram's loop. */
    uint32_t hist_passes = digit_passes(end - begin, 1);
    wgs_kernel_spec spec = {.file = onesweep ? "device/sort_onesweep.wgsl" : "device/sort.wgsl",
                            .helper = subgroups ? "element/sort_key.wgsl workgroup/rank_subgroup.wgsl "
                                                  "workgroup/sort_tile.wgsl"
                                                : "element/sort_key.wgsl workgroup/rank_invocation.wgsl "
                                                  "workgroup/sort_tile.wgsl",
                            .primitive = 1, .value_type = WGS_TYPE_U32, .type = WGS_TYPE_U32, .op = WGS_OP_ADD,
                            .subgroups = subgroups, .wg = shape.wg, .items = shape.items,
                            .params = WGS_PARAMS_KIND_SORT,
                            .max_spins = ctx->exp.lookback_spins ? ctx->exp.lookback_spins : tu->sort_spins,
                            .lookback_per_lane = ctx->exp.lookback_per_lane ? ctx->exp.lookback_per_lane
                                                                            : tu->sort_lookback,
                            .consts = {{"KEY_KIND", (uint32_t)key_kind(type) + (p->descending ? 16u : 0u)},
                                       {"VALUE_WORDS", value_words},
                                       {"SORT_SKIP", ctx->exp.sort_phases >> 3},
                                       {"HIST_PASSES", hist_passes},
                                       {"COUNT_GROUPS", p->count_groups},
                                       {"SORT_DIGITS", ctx->exp.sort_digits},
                                       {"SORT_STAGE", stage_of(ctx->exp.sort_stage, shape.items)}}};
    if (onesweep) {
        spec.entry = "sort_reset";
        r = wgs__pipeline(ctx, &spec, &p->reset);
        spec.entry = "sort_histogram";
        if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->histogram);
        spec.entry = "sort_onesweep";
        if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->sweep);
    } else {
        spec.entry = "sort_count";
        r = wgs__pipeline(ctx, &spec, &p->count);
        spec.entry = "sort_scatter";
        if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->scatter);
        /* The most groups: one tile each (small inputs). */
        wgs_scan_plan_desc sd = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .kind = WGS_SCAN_EXCLUSIVE,
                                 .capacity = RADIX * max_tiles, .label = "wgscan sort digit counts"};
        if (r == WGS_OK) r = wgs_scan_plan_create(ctx, &sd, &p->scan);
    }
    if (r == WGS_OK) {
        const uint64_t keys_bytes = wgs__round_up(capacity * key_words * 4, 256);
        const uint64_t values_bytes = value_words ? wgs__round_up(capacity * value_words * 4, 256) : 0;
        p->scratch_bytes = keys_bytes + values_bytes +
                           (onesweep ? state_bytes : RADIX * max_tiles * 8 + wgs_scan_plan_scratch_size(p->scan));
        wgs__gpu_scope_push(ctx->gpu);
        const WGPUBufferUsage u = WGPUBufferUsage_Storage;
        p->keys_alt = wgs__gpu_buffer_create(ctx->gpu, keys_bytes, u, "wgscan sort keys (second copy)");
        if (value_words)
            p->values_alt = wgs__gpu_buffer_create(ctx->gpu, values_bytes, u, "wgscan sort values (second copy)");
        if (onesweep) {
            p->state = wgs__gpu_buffer_create(ctx->gpu, state_bytes, u, "wgscan sort tile states");
        } else {
            p->counts = wgs__gpu_buffer_create(ctx->gpu, RADIX * max_tiles * 4, u, "wgscan sort digit counts");
            p->offsets = wgs__gpu_buffer_create(ctx->gpu, RADIX * max_tiles * 4, u, "wgscan sort digit offsets");
        }
        r = wgs__scope_end(ctx, "allocating the sort plan's scratch");
    }
    /* CUB chooses its sort by n at each call; a plan chooses by its capacity, so one of
     * many keys would sort few by reduce-then-scan (2^20 keys on an H200: 128 µs against
     * one-sweep's 95). It keeps a one-sweep plan of the bound beside it; the GPU memory
     * that costs is the bound's keys, values and states. */
    if (r == WGS_OK && !onesweep && desc->algorithm == WGS_SORT_ALGORITHM_DEFAULT &&
        !(flags & (WGS__SORT_PREFER_ONESWEEP | WGS__SORT_N_IS_CAPACITY)) && small_max && capacity > small_max &&
        small_max <= ONESWEEP_MAX_N) {
        wgs_sort_plan_desc sd = *desc;
        sd.capacity = small_max;
        r = wgs__sort_plan_create(ctx, &sd, WGS__SORT_ONESWEEP_ONLY, &p->small);
        if (p->small) p->scratch_bytes += p->small->scratch_bytes;
    }
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

uint64_t wgs_sort_plan_scratch_size(const wgs_sort_plan *p) { return p ? p->scratch_bytes : 0; }

void wgs_sort_plan_destroy(wgs_sort_plan *p) {
    if (!p) return;
    plan_release(p);
    wgs__plan_gone(p->ctx);
    free(p);
}

static wgs_result check_args(wgs_sort_plan *p, const wgs_sort_args *a) {
    wgs_context *ctx = p->ctx;
    uint64_t kb = a->n * p->key_words * 4, vb = a->n * p->value_words * 4;
    wgs_result r;
    if ((r = wgs__check_buffer(ctx, a->keys_in, a->keys_in_offset, kb, "keys_in")) != WGS_OK) return r;
    if ((r = wgs__check_buffer(ctx, a->keys_out, a->keys_out_offset, kb, "keys_out")) != WGS_OK) return r;
    if (p->payload == WGS_PAYLOAD_BUFFER &&
        (r = wgs__check_buffer(ctx, a->values_in, a->values_in_offset, vb, "values_in")) != WGS_OK)
        return r;
    if (p->payload != WGS_PAYLOAD_NONE &&
        (r = wgs__check_buffer(ctx, a->values_out, a->values_out_offset, vb, "values_out")) != WGS_OK)
        return r;
    WGS_FAIL_IF(ctx, a->keys_in == a->keys_out && a->keys_in_offset != a->keys_out_offset, WGS_ERROR_ALIASING,
                "keys_out is keys_in at another offset (in place needs the same offset)");
    if (p->payload == WGS_PAYLOAD_NONE) return WGS_OK;
    WGS_FAIL_IF(ctx, p->payload == WGS_PAYLOAD_BUFFER && a->values_in == a->values_out &&
                         a->values_in_offset != a->values_out_offset,
                WGS_ERROR_ALIASING, "values_out is values_in at another offset (in place needs the same offset)");
    WGPUBuffer vin = p->payload == WGS_PAYLOAD_BUFFER ? a->values_in : NULL;
    WGS_FAIL_IF(ctx, a->values_out == a->keys_in || a->values_out == a->keys_out || vin == a->keys_in ||
                         vin == a->keys_out,
                WGS_ERROR_ALIASING, "the keys and the values must be in separate buffers");
    return WGS_OK;
}

/* The buffers of one digit pass: pass `pass` of `passes` writes the output when an even
 * number of passes follows it, the second copy otherwise. */
typedef struct pass_buffers {
    gpu_binding kin, kout, vin, vout;
} pass_buffers;

static pass_buffers pass_bindings(wgs_sort_plan *p, const wgs_sort_args *a, uint32_t pass, uint32_t passes) {
    wgs_context *ctx = p->ctx;
    const uint64_t kb = a->n * p->key_words * 4, vb = a->n * p->value_words * 4;
    int to_out = (passes - 1 - pass) % 2 == 0;
    pass_buffers b;
    b.kin = pass == 0 ? (gpu_binding){0, a->keys_in, a->keys_in_offset, kb}
            : to_out  ? (gpu_binding){0, p->keys_alt, 0, kb}
                      : (gpu_binding){0, a->keys_out, a->keys_out_offset, kb};
    b.kout = to_out ? (gpu_binding){1, a->keys_out, a->keys_out_offset, kb} : (gpu_binding){1, p->keys_alt, 0, kb};
    b.vin = wgs__binding_or_dummy(ctx, 5, NULL, 0, 0, 0);
    b.vout = wgs__binding_or_dummy(ctx, 6, NULL, 0, 0, 1);
    if (p->value_words) {
        if (pass > 0)
            b.vin = to_out ? (gpu_binding){5, p->values_alt, 0, vb}
                           : (gpu_binding){5, a->values_out, a->values_out_offset, vb};
        else if (p->payload == WGS_PAYLOAD_BUFFER)
            b.vin = (gpu_binding){5, a->values_in, a->values_in_offset, vb};
        b.vout = to_out ? (gpu_binding){6, a->values_out, a->values_out_offset, vb}
                        : (gpu_binding){6, p->values_alt, 0, vb};
    }
    return b;
}

/* The bits of the digit that starts at `shift`: `width`, fewer at the range's end, none
 * past it (sort_onesweep.wgsl's histogram computes the same). */
static uint32_t pass_digit_bits(const wgs_sort_plan *p, uint32_t shift, uint32_t width) {
    return shift >= p->end_bit ? 0 : p->end_bit - shift < width ? p->end_bit - shift : width;
}

/* A dispatch of `groups` workgroups with the record `rec` (at po), each workgroup
 * taking `span` of the record's groups. With the count on the GPU, n follows the
 * count, and so do the groups (`per` elements each) of the record, which lays out the
 * digit counts (so the scan of the bound's counts finds the count's first, and the
 * stale rest after them), and the grid; `direct_max` (the reduce-then-scan's kernels,
 * whose workgroups past the record's groups return first): a grid up to that many
 * workgroups stays the bound's, dispatched directly. */
static void dispatch(wgs_context *ctx, WGPUComputePassEncoder cp, WGPUComputePipeline pipe, const gpu_binding *b,
                     uint32_t nb, const wgs_params *rec, uint64_t po, uint64_t groups, uint64_t per,
                     uint32_t span, uint32_t direct_max) {
    wgs__count_rule rule = wgs__count_follow(0, per * span);
    rule.ops[0] = (wgs__count_op){WGS_COUNT_OP_DIV_UP, 1, (uint32_t)per, 0}; /* groups */
    rule.direct_max = direct_max;
    wgs__dispatch(ctx, cp, pipe, b, nb, rec, po, wgs__div_up(groups, span), &rule);
}

/* Tiles a workgroup takes: doubled, up to `most`, while `workgroups` or more are left. */
static uint32_t tiles_a_group(uint64_t tiles, uint32_t most, uint64_t workgroups) {
    uint32_t group = 1;
    while (group < most && group < (1u << 31) && tiles / ((uint64_t)group * 2) >= workgroups) group *= 2;
    return group;
}

/* The one-sweep passes (sort_onesweep.wgsl) into one compute pass. */
static wgs_result encode_onesweep(wgs_sort_plan *p, WGPUCommandEncoder encoder, const wgs_sort_args *a,
                            uint32_t passes, uint32_t width, uint64_t tiles) {
    wgs_context *ctx = p->ctx;
    uint64_t max_dim = ctx->caps.info.max_workgroups_per_dimension;
    /* The histograms, counters and the first pass's region: zeroed before the histogram. */
    uint64_t reset_words = WGS_STATE_TILES + RADIX * tiles;
    gpu_binding state = {3, p->state, 0, onesweep_state_bytes(tiles)};
    gpu_binding reset_state = {3, p->state, 0, 4 * reset_words};
    WGPUComputePassEncoder cp = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                    a->timestamp_begin_index, a->timestamp_end_index);
    uint64_t reset_groups = wgs__div_up(reset_words, 1024); /* a grid-stride loop: any grid covers it */
    /* The histogram's own group, not the passes': each workgroup adds its 256 counts a
     * pass to the same few words with device atomics, so one tile a workgroup (keys'
     * tuning) queued 2^28 / 3072 x 1024 of them on 1024 words (H100, 2^28 u32 at 256 x
     * 12: 1.017 ms; BENCHMARKS.md, sixteenth session). */
    uint32_t hist_group = tiles_a_group(tiles, UINT32_MAX, wgs__tuning_of(ctx)->sort_histogram_workgroups);
    wgs__dispatch_begin(ctx, a->n_buffer, a->n_offset, a->n);
    wgs__dispatch(ctx, cp, p->reset, &reset_state, 1, NULL, 0, reset_groups < max_dim ? reset_groups : max_dim, NULL);
    pass_buffers first = pass_bindings(p, a, 0, passes);
    wgs_params hist = {.sort = {.n = (uint32_t)a->n, .groups = (uint32_t)wgs__div_up(tiles, hist_group),
                                .group_tiles = hist_group, .shift = p->begin_bit, .bits = width, .digit_pass = passes,
                                .end_bit = p->end_bit}};
    gpu_binding hb[2] = {first.kin, state};
    if (p->phases & WGS_EXPERIMENTAL_PHASE_COUNT)
        dispatch(ctx, cp, p->histogram, hb, 2, &hist, wgs__param_push(ctx, &hist), hist.sort.groups,
                 (uint64_t)p->tile * hist_group, 1, 0);
    for (uint32_t pass = 0; pass < passes && (p->phases & WGS_EXPERIMENTAL_PHASE_SCATTER); pass++) {
        pass_buffers b = pass_bindings(p, a, pass, passes);
        uint32_t shift = p->begin_bit + pass * width, digit_bits = pass_digit_bits(p, shift, width);
        uint32_t flags = (pass == 0 && p->payload == WGS_PAYLOAD_INDEX ? WGS_FLAG_INDEX_VALUES : 0) |
                         (pass == passes - 1 ? WGS_FLAG_LAST_PASS : 0);
        wgs_params rec = {.sort = {.n = (uint32_t)a->n, .groups = (uint32_t)tiles, .shift = shift >= 64 ? 0 : shift,
                                   .bits = digit_bits, .flags = flags, .digit_pass = pass, .end_bit = p->end_bit}};
        gpu_binding sb[5] = {b.kin, b.kout, state, b.vin, b.vout};
        dispatch(ctx, cp, p->sweep, sb, 5, &rec, wgs__param_push(ctx, &rec), tiles, p->tile, 1, 0);
    }
    wgs_result r = wgs__dispatch_end(ctx, cp);
    wgs__gpu_pass_end(ctx->gpu, cp);
    return r;
}

/* The reduce-then-scan passes, each digit's count, scan (the scan plan's dispatches)
 * and scatter, all in one compute pass: dispatches of a pass run in order, each
 * seeing the writes of those before it, and each compute pass is two more WebGPU
 * calls of the encode's host time (12 passes a u32 sort, when each had its own). */
static wgs_result encode_reduce_scan(wgs_sort_plan *p, WGPUCommandEncoder encoder, const wgs_sort_args *a,
                                     uint32_t passes, uint32_t width, uint64_t tiles, uint32_t group) {
    wgs_context *ctx = p->ctx;
    uint64_t groups = wgs__div_up(tiles, group);
    const gpu_binding counts_b = {3, p->counts, 0, groups * RADIX * 4};
    const gpu_binding offsets_b = {4, p->offsets, 0, groups * RADIX * 4};
    WGPUComputePassEncoder cp = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                    a->timestamp_begin_index, a->timestamp_end_index);
    wgs_result r = WGS_OK;
    for (uint32_t pass = 0; pass < passes && r == WGS_OK; pass++) {
        pass_buffers b = pass_bindings(p, a, pass, passes);
        uint32_t shift = p->begin_bit + pass * width, digit_bits = pass_digit_bits(p, shift, width);
        wgs_params rec = {.sort = {.n = (uint32_t)a->n, .groups = (uint32_t)groups, .group_tiles = group,
                                   .shift = shift >= 64 ? 0 : shift, .bits = digit_bits,
                                   .flags = pass == 0 && p->payload == WGS_PAYLOAD_INDEX ? WGS_FLAG_INDEX_VALUES : 0,
                                   .digit_pass = pass, .end_bit = p->end_bit}};
        /* Room for this pass's record now: the last pass's scan wrote its own records
         * into the ring, perhaps into the room reserved before it. */
        if ((r = wgs__params_reserve(ctx, 1)) != WGS_OK) break;
        uint64_t po = wgs__param_push(ctx, &rec);
        gpu_binding b1[2] = {b.kin, counts_b};
        wgs__dispatch_begin(ctx, a->n_buffer, a->n_offset, a->n);
        if (p->phases & WGS_EXPERIMENTAL_PHASE_COUNT)
            dispatch(ctx, cp, p->count, b1, 2, &rec, po, groups, (uint64_t)p->tile * group, p->count_groups,
                     p->direct_max);
        if ((r = wgs__dispatch_end(ctx, cp)) != WGS_OK) break;
        wgs_scan_args sa = {.input = p->counts, .output = p->offsets, .n = groups * RADIX};
        if ((p->phases & WGS_EXPERIMENTAL_PHASE_SCAN) && (r = wgs__scan_encode_in(p->scan, encoder, cp, &sa)) != WGS_OK)
            break;
        gpu_binding b2[5] = {b.kin, b.kout, offsets_b, b.vin, b.vout};
        wgs__dispatch_begin(ctx, a->n_buffer, a->n_offset, a->n);
        if (p->phases & WGS_EXPERIMENTAL_PHASE_SCATTER)
            dispatch(ctx, cp, p->scatter, b2, 5, &rec, po, groups, (uint64_t)p->tile * group, 1, p->direct_max);
        r = wgs__dispatch_end(ctx, cp);
    }
    wgs__gpu_pass_end(ctx->gpu, cp);
    return r;
}

wgs_result wgs_sort_encode(wgs_sort_plan *p, WGPUCommandEncoder encoder, const wgs_sort_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    if (p->small && a && !a->n_buffer && a->n <= p->small->capacity) return wgs_sort_encode(p->small, encoder, a);
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK || (r = check_args(p, a)) != WGS_OK) return r;
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK) return r;
    const uint64_t n = a->n;
    if (n == 0) { /* nothing to move; the timestamps still mark an (empty) pass */
        if (!a->timestamp_query_set) return WGS_OK;
        wgs__gpu_scope_push(ctx->gpu);
        wgs__gpu_pass_end(ctx->gpu, wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set,
                                                        a->timestamp_begin_index, a->timestamp_end_index));
        return wgs__scope_end(ctx, "recording the sort");
    }
    uint32_t bits = p->end_bit - p->begin_bit;
    int in_place = a->keys_in == a->keys_out ||
                   (p->payload == WGS_PAYLOAD_BUFFER && a->values_in == a->values_out);
    uint32_t passes = digit_passes(bits, in_place);
    uint32_t width = (bits + passes - 1) / passes;
    uint64_t tiles = wgs__div_up(n, p->tile);
    /* The reduce-then-scan's: 1024 workgroups or more keep the whole GPU busy. */
    uint32_t group = tiles_a_group(tiles, p->group_tiles_max, 1024);
    /* The one-sweep's records (a histogram's and a pass's each); the reduce-then-scan
     * reserves its own a pass at a time, between its scans. */
    if (p->onesweep && (r = wgs__params_reserve(ctx, passes + 1)) != WGS_OK) return r;
    wgs__gpu_scope_push(ctx->gpu);
    if (p->onesweep)
        r = encode_onesweep(p, encoder, a, passes, width, tiles);
    else
        r = encode_reduce_scan(p, encoder, a, passes, width, tiles, group);
    if (r != WGS_OK) {
        wgs__scope_end(ctx, "recording the sort");
        return r;
    }
    return wgs__scope_end(ctx, "recording the sort");
}
