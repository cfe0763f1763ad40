/* SPDX-License-Identifier: MIT */
/*
 * scan.c: device-wide prefix scan. Two algorithms share the plan and the chunking of
 * long arrays:
 *
 * Multi-level (reduce, then scan; in place, deterministic):
 *   level 0   reduce_tiles        tile totals to sums[0] (the data is read once)
 *   level l   scan_tiles          sums[l] scanned in place (exclusive); its totals to
 *                                 sums[l+1], until one tile holds a whole level
 *   back down add_prefix          sums[l+1] combined into sums[l]
 *   level 0   scan_tiles          every tile scanned from its prefix in sums[0] and
 *                                 stored: two reads and one write of the data in all
 *
 * Single pass (chained scan, decoupled look-back with decoupled fallback):
 *   reset_state        tile counter and tile states zeroed (stale flags must not survive)
 *   scan_single_pass   per tile: aggregate, look back, publish, scan, store
 *
 * Arrays longer than one storage binding are cut into chunks of whole tiles, each bound
 * separately, dispatched in order; the tile sums (multi-level) or tile states (single
 * pass) are indexed globally through a tile_base parameter, so only the level-0 passes
 * know about chunks. Grids wider than the workgroups-per-dimension limit are folded
 * into two dimensions.
 */
#include "chain.h"
#include "tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEVELS 8


/* How one algorithm cuts the data. */
typedef struct tiling {
    uint32_t wg, items, tile;
    uint64_t chunk_elems; /* elements per binding: a multiple of tile */
    int rows;             /* row tiles (subgroups): data bound as words + scalar tail */
} tiling;

struct wgs_scan_plan {
    wgs_context *ctx;
    wgs__operator *custom; /* a user's operator, or NULL for type and op */
    wgs_type type;
    wgs_op op;
    wgs_scan_kind kind;
    wgs_scan_algorithm algorithm; /* as asked: DEFAULT lets each encode choose */
    int deterministic;
    uint64_t capacity;
    uint32_t es; /* element size in bytes */
    uint32_t word_align; /* bytes: the word view of row tiles is a multiple of this */
    uint32_t max_dim;
    /* multi-level */
    tiling ml;
    /* level 0: tile totals, then seeded tile scans (the plan's kind), out of place and
     * in place; the levels above: exclusive scans in place, then prefixes added */
    WGPUComputePipeline ml_reduce_copy, ml_reduce_in_place, ml_seeded_copy, ml_seeded_in_place;
    WGPUComputePipeline ml_scan_levels, ml_add;
    int levels; /* number of sums arrays for `capacity` */
    WGPUBuffer sums[MAX_LEVELS];
    WGPUBuffer dummy; /* aux binding of dispatches that write no totals */
    /* single pass (absent when the plan can never use it) */
    int has_sp;
    tiling sp;
    uint32_t sp_groups; /* persistent single pass: the grid at most (0: a tile each) */
    WGPUComputePipeline sp_scan;
    wgs__chain chain;
    uint32_t stride; /* bytes between two dispatches' parameters in the context's ring */
    uint64_t scratch_bytes;
};

/* A scan's carry-in as its records hold it: FLAG_CARRY (and FLAG_CARRY_BUFFER) and the
 * value's bits (element/scan_carry.wgsl). */
typedef struct carry_in {
    uint32_t flags, bits;
} carry_in;

/* How one n is laid out by the multi-level algorithm. */
typedef struct ml_layout {
    uint64_t n;
    carry_in carry;
    uint64_t chunks;
    uint64_t tiles0;
    int levels;
    uint64_t count[MAX_LEVELS]; /* elements in sums[l] */
} ml_layout;

static ml_layout ml_layout_for(const wgs_scan_plan *p, uint64_t n) {
    ml_layout L;
    memset(&L, 0, sizeof L);
    L.n = n;
    L.chunks = wgs__div_up(n, p->ml.chunk_elems);
    L.tiles0 = wgs__div_up(n, p->ml.tile);
    if (L.tiles0 > 1) {
        uint64_t c = L.tiles0;
        for (;;) {
            L.count[L.levels++] = c;
            if (c <= p->ml.tile || L.levels == MAX_LEVELS) break;
            c = wgs__div_up(c, p->ml.tile);
        }
    }
    return L;
}

static uint32_t gcd_u32(uint32_t a, uint32_t b) {
    while (b) {
        uint32_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Workgroup memory a tile kernel needs: the padded tile (workgroup-memory tiles) or
 * the two segment tables of subgroups of 4 (row tiles, whose tables a user's element
 * of 16 bytes makes the largest part), plus the scan's scratch. */
static uint64_t tile_storage(uint32_t wg, uint32_t items, uint32_t es, int rows) {
    uint64_t tile = (uint64_t)wg * items;
    uint64_t es4 = es < 4 ? 4 : es;
    uint64_t data = rows ? 2 * ((uint64_t)items / 4) * (wg / 4) * es4 : (tile + tile / 32) * es;
    return data + (wg + wg / 32 + 64) * es4 + 64;
}

typedef struct storage_arg {
    const wgs_context_info *ci;
    uint32_t es;
} storage_arg;

static uint64_t shape_storage(uint32_t wg, uint32_t items, const void *arg) {
    const storage_arg *a = arg;
    return tile_storage(wg, items, a->es, wgs__chain_subgroups(a->ci, wg));
}

/* Row tiles (16-byte words) take 4 items or more; the tuning table's shape otherwise. */
static wgs_result choose_tiling(wgs_context *ctx, uint32_t es, int single_pass, tiling *t) {
    const wgs_context_info *ci = &ctx->caps.info;
    const wgs__tuning *tu = wgs__tuning_of(ctx);
    storage_arg arg = {ci, es};
    wgs_tile_shape s;
    wgs_result r = single_pass ? wgs__shape(ctx, "scan_single_pass", ctx->exp.scan_single_pass,
                                            tu->scan_single_pass, 4, 256, shape_storage, &arg, &s)
                               : wgs__shape(ctx, "scan_multilevel", ctx->exp.scan_multilevel,
                                            tu->scan_multilevel, 4, 256, shape_storage, &arg, &s);
    if (r != WGS_OK) return r;
    t->wg = s.wg;
    t->items = s.items;
    t->tile = t->wg * t->items;
    t->rows = wgs__chain_subgroups(ci, t->wg);
    return WGS_OK;
}

/* Chunk of whole tiles: the most one binding and one two-dimensional grid hold. Whole
 * tiles keep chunk offsets multiples of tile * es bytes, which satisfies WebGPU's
 * offset alignment. 0 when not even one tile fits. */
static uint64_t chunk_for(const wgs_context_info *ci, const tiling *t, uint32_t es) {
    uint64_t tile_bytes = (uint64_t)t->tile * es;
    if (tile_bytes % ci->min_storage_offset_alignment) return 0;
    uint64_t per_binding = ci->max_storage_binding_size / tile_bytes;
    uint64_t per_grid = (uint64_t)ci->max_workgroups_per_dimension * ci->max_workgroups_per_dimension;
    return (per_binding < per_grid ? per_binding : per_grid) * t->tile;
}

static void plan_release(wgs_scan_plan *p) {
    gpu_device *g = p->ctx->gpu;
    for (int l = 0; l < MAX_LEVELS; l++) wgs__gpu_buffer_release(g, p->sums[l]);
    wgs__gpu_buffer_release(g, p->dummy);
    wgs__chain_release(p->ctx, &p->chain);
    wgs__operator_destroy(p->custom);
    p->custom = NULL;
}

static wgs_result make_pipelines(wgs_scan_plan *p) {
    wgs_context *ctx = p->ctx;
    wgs_kernel_spec spec = {.file = "device/scan_tiles.wgsl", .entry = "reduce_tiles", .type = p->type,
                            .op = p->op, .wg = p->ml.wg, .items = p->ml.items,
                            .helper = "element/scan_carry.wgsl", .custom = p->custom};
    spec.subgroups = p->ml.rows;
    wgs_result r = wgs__pipeline(ctx, &spec, &p->ml_reduce_copy);
    spec.in_place = 1;
    if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->ml_reduce_in_place);
    spec.entry = "scan_tiles";
    spec.inclusive = p->kind == WGS_SCAN_INCLUSIVE;
    if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->ml_seeded_in_place);
    spec.in_place = 0;
    if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->ml_seeded_copy);
    spec.in_place = 1;
    spec.inclusive = 0;
    if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->ml_scan_levels);
    spec.entry = "add_prefix";
    if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->ml_add);
    if (r != WGS_OK || !p->has_sp) return r;
    /* Row tiles: persistent workgroups one tile ahead; else a workgroup a tile. */
    wgs_kernel_spec sp = {.file = p->sp.rows ? "device/scan_persistent.wgsl" : "device/scan_single_pass.wgsl",
                          .entry = p->sp.rows ? "scan_persistent" : "scan_single_pass",
                          .type = p->type, .op = p->op, .wg = p->sp.wg, .items = p->sp.items,
                          .helper = "element/scan_carry.wgsl",
                          .inclusive = p->kind == WGS_SCAN_INCLUSIVE, .custom = p->custom};
    wgs__chain_spec(ctx, &sp);
    sp.subgroups = p->sp.rows; /* a user's operator too (wgs__chain_spec leaves it portable) */
    r = wgs__pipeline(ctx, &sp, &p->sp_scan);
    if (r == WGS_OK)
        r = wgs__chain_create(ctx, &sp, wgs__div_up(p->capacity, p->sp.tile), "wgscan scan tile states", &p->chain);
    if (r == WGS_OK) p->scratch_bytes += wgs__chain_state_bytes(p->chain.max_tiles, p->chain.value_words);
    return r;
}

/* Zero fields take their defaults here, once; then the description is checked as a
 * whole (sokol's desc_defaults and validate steps). */
static wgs_scan_plan_desc desc_defaults(const wgs_scan_plan_desc *d) {
    wgs_scan_plan_desc r = *d;
    if (r.type == WGS_TYPE_DEFAULT && !r.custom) r.type = WGS_TYPE_U32;
    if (r.op == WGS_OP_DEFAULT && !r.custom) r.op = WGS_OP_ADD;
    if (r.kind == WGS_SCAN_DEFAULT) r.kind = WGS_SCAN_EXCLUSIVE;
    if (r.capacity == 0) r.capacity = 1;
    return r;
}

static wgs_result desc_validate(wgs_context *ctx, const wgs_scan_plan_desc *d) {
    WGS_FAIL_IF(ctx, d->custom && (d->type || d->op), WGS_ERROR_INVALID_ARGUMENT,
                "a scan with its own operator (custom) takes no type or op; leave them 0");
    wgs_result r = d->custom ? WGS_OK : wgs__check_type_op(ctx, d->type, d->op);
    if (r != WGS_OK) return r;
    WGS_FAIL_IF(ctx, (unsigned)d->kind > WGS_SCAN_INCLUSIVE, WGS_ERROR_INVALID_ARGUMENT, "unknown scan kind %d",
                (int)d->kind);
    WGS_FAIL_IF(ctx, (unsigned)d->algorithm > WGS_SCAN_ALGORITHM_SINGLE_PASS, WGS_ERROR_INVALID_ARGUMENT,
                "unknown scan algorithm %d", (int)d->algorithm);
    WGS_FAIL_IF(ctx, d->deterministic && d->algorithm == WGS_SCAN_ALGORITHM_SINGLE_PASS,
                WGS_ERROR_INVALID_ARGUMENT,
                "the single-pass scan is not deterministic for floats; leave the algorithm "
                "to the plan or ask for MULTILEVEL");
    return WGS_OK;
}

wgs_result wgs_scan_plan_create(wgs_context *ctx, const wgs_scan_plan_desc *user_desc, wgs_scan_plan **out) {
    WGS_CREATE_BEGIN(ctx, user_desc, out);
    const wgs_scan_plan_desc d = desc_defaults(user_desc), *desc = &d;
    wgs_result r = desc_validate(ctx, desc);
    if (r != WGS_OK) return r;
    wgs_type type = desc->type;

    const wgs_context_info *ci = &ctx->caps.info;
    wgs__operator *custom = NULL;
    if (desc->custom && (r = wgs__operator_create(ctx, desc->custom, &custom)) != WGS_OK) return r;
    wgs_scan_plan *p = calloc(1, sizeof *p);
    if (!p) wgs__operator_destroy(custom);
    WGS_FAIL_IF(ctx, !p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the scan plan");
    p->ctx = ctx;
    p->custom = custom;
    p->type = type;
    p->op = desc->op;
    p->kind = desc->kind;
    p->algorithm = desc->algorithm;
    p->deterministic = desc->deterministic != 0;
    p->capacity = desc->capacity;
    p->es = custom ? custom->size : (uint32_t)wgs_type_size(type);
    p->max_dim = ci->max_workgroups_per_dimension;
    /* The word view holds whole groups of four elements (16 * words bytes) and ends
     * where the tail binding may start: at a multiple of the offset alignment. */
    uint32_t align = ci->min_storage_offset_alignment < 16 ? 16 : ci->min_storage_offset_alignment;
    p->word_align = align / gcd_u32(align, 4 * p->es) * 4 * p->es;
    p->has_sp = p->algorithm != WGS_SCAN_ALGORITHM_MULTILEVEL && !p->deterministic;
    if ((r = choose_tiling(ctx, p->es, 0, &p->ml)) != WGS_OK ||
        (p->has_sp && (r = choose_tiling(ctx, p->es, 1, &p->sp)) != WGS_OK)) {
        wgs__operator_destroy(custom);
        free(p);
        return r;
    }
    p->ml.chunk_elems = chunk_for(ci, &p->ml, p->es);
    if (p->has_sp) p->sp.chunk_elems = chunk_for(ci, &p->sp, p->es);
    p->sp_groups = ctx->exp.scan_single_pass_groups ? ctx->exp.scan_single_pass_groups
                                                    : wgs__tuning_of(ctx)->scan_single_pass_groups;

    uint64_t bytes = p->capacity * p->es;
    /* A chunk of no tile (a binding smaller than a tile) fails before anything divides by it. */
    int too_large = p->ml.chunk_elems == 0 || (p->has_sp && p->sp.chunk_elems == 0) ||
                    bytes / p->es != p->capacity || bytes > ci->max_buffer_size;
    ml_layout L = {0};
    if (!too_large) {
        L = ml_layout_for(p, p->capacity);
        uint64_t sp_tiles = p->has_sp ? wgs__div_up(p->capacity, p->sp.tile) : 0;
        uint64_t per_grid = (uint64_t)p->max_dim * p->max_dim;
        too_large = L.levels == MAX_LEVELS ||
                    (L.levels && (L.count[0] * p->es > ci->max_storage_binding_size ||
                                  wgs__div_up(L.count[0], p->ml.tile) > per_grid)) ||
                    wgs__chain_state_bytes(sp_tiles, custom ? custom->words : 1) > ci->max_storage_binding_size;
    }
    if (too_large) {
        wgs__operator_destroy(custom);
        free(p);
        return wgs__fail(ctx, WGS_ERROR_TOO_LARGE,
                         "capacity %llu of %s does not fit this device (max buffer %llu bytes, "
                         "max binding %llu bytes, %u workgroups per dimension)",
                         (unsigned long long)desc->capacity, custom ? "the operator's element" : wgs_type_name(type),
                         (unsigned long long)ci->max_buffer_size,
                         (unsigned long long)ci->max_storage_binding_size, ci->max_workgroups_per_dimension);
    }
    p->levels = L.levels;

    r = make_pipelines(p);
    if (r != WGS_OK) {
        plan_release(p);
        free(p);
        return r;
    }

    gpu_device *g = ctx->gpu;
    p->stride = wgs__param_stride(ctx);
    wgs__gpu_scope_push(g);
    for (int l = 0; l < L.levels; l++) {
        uint64_t sz = wgs__round_up(L.count[l] * p->es, 4);
        p->sums[l] = wgs__gpu_buffer_create(g, sz, WGPUBufferUsage_Storage, "wgscan scan sums");
        p->scratch_bytes += sz;
    }
    p->dummy = wgs__gpu_buffer_create(g, 16, WGPUBufferUsage_Storage, "wgscan scan dummy");
    p->scratch_bytes += 16;
    r = wgs__scope_end(ctx, "allocating the scan plan's scratch");
    WGS_CREATE_END(ctx, r, p, plan_release(p), out);
}

void wgs_scan_plan_destroy(wgs_scan_plan *p) {
    if (!p) return;
    plan_release(p);
    wgs__plan_gone(p->ctx);
    free(p);
}

uint32_t wgs__scan_plan_element_size(const wgs_scan_plan *p) { return p->es; }

uint64_t wgs_scan_plan_scratch_size(const wgs_scan_plan *p) { return p ? p->scratch_bytes : 0; }

wgs_scan_algorithm wgs_scan_plan_algorithm(const wgs_scan_plan *p, uint64_t n, int in_place) {
    if (!p) return WGS_SCAN_ALGORITHM_DEFAULT;
    if (p->algorithm != WGS_SCAN_ALGORITHM_DEFAULT) return p->algorithm;
    return p->has_sp && !in_place && n <= WGS_SCAN_SINGLE_PASS_MAX_N ? WGS_SCAN_ALGORITHM_SINGLE_PASS
                                                                     : WGS_SCAN_ALGORITHM_MULTILEVEL;
}

uint32_t wgs_scan_plan_tile_size(const wgs_scan_plan *p, wgs_scan_algorithm algorithm) {
    if (!p) return 0;
    if (algorithm == WGS_SCAN_ALGORITHM_SINGLE_PASS) return p->has_sp ? p->sp.tile : 0;
    if (algorithm == WGS_SCAN_ALGORITHM_MULTILEVEL) return p->ml.tile;
    return 0;
}

/* ------------------------------------------------------------------------- */
/* parameters                                                                  */

/* Writes an encode's records, laid out `stride` apart as they are in the ring. */
typedef void (*fill_fn)(const wgs_scan_plan *p, const void *layout, unsigned char *records);

/* Row tiles see `len` elements as 16-byte words up to the last offset that is a
 * multiple of word_align (a tail binding must start at such an offset), then as
 * scalars: the elements in the word view. */
static uint64_t word_elems(const wgs_scan_plan *p, const tiling *t, uint64_t len) {
    if (!t->rows) return 0;
    return len * p->es / p->word_align * p->word_align / p->es;
}

/* Params.c: the words of the word view. (The identity is a constant of the kernels.) */
static void put_record(const wgs_scan_plan *p, const tiling *t, unsigned char *records, uint64_t index,
                       uint32_t n, uint32_t tile_base, uint32_t flags, uint32_t carry_bits, uint32_t claim_base) {
    wgs_params sp = {.scan = {.n = n, .tile_base = tile_base, .flags = flags,
                              .words = (uint32_t)(word_elems(p, t, n) / 4), .carry_bits = carry_bits,
                              .claim_base = claim_base}};
    memcpy(records + index * p->stride, &sp, sizeof sp);
}

static uint64_t chunk_len(uint64_t n, uint64_t chunk_elems, uint64_t c) {
    uint64_t first = c * chunk_elems;
    return n - first < chunk_elems ? n - first : chunk_elems;
}

/* Multi-level records: [chunk 0 .. chunks-1][level 0 .. levels-1]. */
static void fill_ml(const wgs_scan_plan *p, const void *layout, unsigned char *records) {
    const ml_layout *L = layout;
    uint32_t tiles_per_chunk = (uint32_t)(p->ml.chunk_elems / p->ml.tile);
    uint32_t flags = (L->tiles0 > 1 ? WGS_FLAG_SEEDED : 0u) | L->carry.flags;
    for (uint64_t c = 0; c < L->chunks; c++)
        put_record(p, &p->ml, records, c, (uint32_t)chunk_len(L->n, p->ml.chunk_elems, c),
                   (uint32_t)(c * tiles_per_chunk), flags, L->carry.bits, 0);
    for (int l = 0; l < L->levels; l++)
        put_record(p, &p->ml, records, L->chunks + (uint64_t)l, (uint32_t)L->count[l], 0,
                   L->count[l] > p->ml.tile ? WGS_FLAG_WRITE_TOTALS : 0u, 0, 0);
}

/* Single-pass records: [chunk 0 .. chunks-1]. */
typedef struct sp_layout {
    uint64_t n;
    carry_in carry;
} sp_layout;

/* Workgroups of a chunk's single pass of chunk_tiles tiles: one a tile, or (row tiles)
 * persistent ones in one row of the grid, at most sp_groups (0: a tile each), each of
 * which claims one tile past the chunk's end. */
static uint64_t sp_groups_of(const wgs_scan_plan *p, uint64_t chunk_tiles) {
    if (!p->sp.rows) return chunk_tiles;
    uint64_t g = p->sp_groups && p->sp_groups < chunk_tiles ? p->sp_groups : chunk_tiles;
    return g < p->max_dim ? g : p->max_dim;
}

static void fill_sp(const wgs_scan_plan *p, const void *layout, unsigned char *records) {
    const sp_layout *L = layout;
    uint64_t n = L->n;
    uint64_t chunks = wgs__div_up(n, p->sp.chunk_elems);
    uint32_t tiles_per_chunk = (uint32_t)(p->sp.chunk_elems / p->sp.tile);
    uint64_t claims = 0; /* the tile counter at the chunk's start (persistent kernel) */
    for (uint64_t c = 0; c < chunks; c++) {
        uint64_t len = chunk_len(n, p->sp.chunk_elems, c), tiles = wgs__div_up(len, p->sp.tile);
        put_record(p, &p->sp, records, c, (uint32_t)len, (uint32_t)(c * tiles_per_chunk), L->carry.flags,
                   L->carry.bits, (uint32_t)claims);
        claims += tiles + sp_groups_of(p, tiles);
    }
}

/* ------------------------------------------------------------------------- */
/* recording                                                                   */

typedef struct recorder {
    wgs_scan_plan *p;
    WGPUComputePassEncoder pass;
    const uint64_t *at; /* each record's offset in the context's ring (equal records share one) */
    gpu_binding carry; /* binding 6 of the kernels that take a carry-in */
    /* binding 7 of those kernels for a user's element of several words: the carry's
     * own record (nb_carry 2), else none (1) */
    gpu_binding carry_record;
    uint32_t nb_carry;
    const unsigned char *records; /* the encode's records, as the ring holds them */
} recorder;

static void dispatch(recorder *rc, WGPUComputePipeline pipe, const gpu_binding *b, uint32_t nb,
                     uint64_t param_index, uint64_t groups, const wgs__count_rule *rule) {
    wgs_scan_plan *p = rc->p;
    wgs__dispatch(p->ctx, rc->pass, pipe, b, nb, (const wgs_params *)(rc->records + param_index * p->stride),
                  rc->at[param_index], groups, rule);
}

/* A level's rule: sums[l] holds div_up(c, tile^(l+1)) totals, and exists only where
 * that is 2 or more (as ml_layout_for lays out c); it writes totals for the level
 * above only where it holds more than a tile. */
static wgs__count_rule level_rule(const wgs_scan_plan *p, int l) {
    uint64_t unit = p->ml.tile;
    for (int i = 0; i < l; i++) unit = wgs__mul_sat(unit, p->ml.tile);
    wgs__count_rule r = wgs__count_follow(0, p->ml.tile);
    r.unit = unit;
    r.lo = 2;
    r.ops[0] = (wgs__count_op){WGS_COUNT_OP_CLEAR_IF_LE, 2, p->ml.tile, WGS_FLAG_WRITE_TOTALS};
    return r;
}

static uint64_t bytes_of(const wgs_scan_plan *p, uint64_t count) {
    return wgs__round_up(count * p->es, 4); /* f16 bindings are whole 4-byte words */
}

/* Binds `len` elements of `buf` at `offset`: one binding, or for row tiles the word
 * view at word_binding and the scalar rest at tail_binding (a placeholder where a view
 * is empty). Returns the number of bindings written. */
static uint32_t bind_data(const wgs_scan_plan *p, const tiling *t, gpu_binding *b, uint32_t word_binding,
                          uint32_t tail_binding, WGPUBuffer buf, uint64_t offset, uint64_t len, int writable) {
    uint64_t all = bytes_of(p, len);
    if (!t->rows) {
        b[0] = wgs__binding_or_dummy(p->ctx, word_binding, buf, offset, all, writable);
        return 1;
    }
    uint64_t words = word_elems(p, t, len) * p->es;
    b[0] = wgs__binding_or_dummy(p->ctx, word_binding, buf, offset, words, writable);
    b[1] = wgs__binding_or_dummy(p->ctx, tail_binding, buf, offset + words, all > words ? all - words : 0, writable);
    return 2;
}

/* Scans sums[l] in place (exclusive) and everything above it. */
static void record_level(recorder *rc, const ml_layout *L, int l) {
    wgs_scan_plan *p = rc->p;
    uint64_t count = L->count[l];
    int has_next = l + 1 < L->levels;
    gpu_binding b[5];
    uint32_t nb = bind_data(p, &p->ml, b, 1, 5, p->sums[l], 0, count, 1);
    b[nb++] = (gpu_binding){3, has_next ? p->sums[l + 1] : p->dummy, 0,
                            has_next ? bytes_of(p, L->count[l + 1]) : 16};
    uint64_t param_index = L->chunks + (uint64_t)l;
    uint64_t groups = wgs__div_up(count, p->ml.tile);
    wgs__count_rule rule = level_rule(p, l);
    b[nb] = rc->carry; /* scan_tiles' bindings; add_prefix has none */
    b[nb + 1] = rc->carry_record;
    dispatch(rc, p->ml_scan_levels, b, nb + rc->nb_carry, param_index, groups, &rule);
    if (!has_next) return;
    record_level(rc, L, l + 1);
    dispatch(rc, p->ml_add, b, nb, param_index, groups, &rule);
}

static void record_multilevel(recorder *rc, const wgs_scan_args *a, const ml_layout *L) {
    wgs_scan_plan *p = rc->p;
    int in_place = a->input == a->output;
    WGPUBuffer aux0 = L->levels ? p->sums[0] : p->dummy;
    uint64_t aux0_size = L->levels ? bytes_of(p, L->count[0]) : 16;
    /* seeded = 0: the tile totals (only with levels); 1: the seeded scans. The data is
     * input for both, and output (binding 1) for the second, or both when in place. */
    for (int seeded = !L->levels; seeded < 2; seeded++) {
        for (uint64_t c = 0; c < L->chunks; c++) {
            uint64_t off = c * p->ml.chunk_elems * p->es, len = chunk_len(a->n, p->ml.chunk_elems, c);
            gpu_binding b[7];
            uint32_t nb = 0;
            if (in_place)
                nb += bind_data(p, &p->ml, b, 1, 5, a->output, a->output_offset + off, len, 1);
            else
                nb += bind_data(p, &p->ml, b, 0, 4, a->input, a->input_offset + off, len, 0);
            if (seeded && !in_place)
                nb += bind_data(p, &p->ml, b + nb, 1, 5, a->output, a->output_offset + off, len, 1);
            b[nb++] = (gpu_binding){3, aux0, 0, aux0_size};
            if (seeded) b[nb++] = rc->carry;
            if (seeded && rc->nb_carry == 2) b[nb++] = rc->carry_record;
            WGPUComputePipeline pipe = seeded ? (in_place ? p->ml_seeded_in_place : p->ml_seeded_copy)
                                              : (in_place ? p->ml_reduce_in_place : p->ml_reduce_copy);
            /* A count of one tile or less has no levels: its tiles are not seeded. */
            wgs__count_rule rule = wgs__count_follow(c * p->ml.chunk_elems, p->ml.tile);
            rule.ops[0] = (wgs__count_op){WGS_COUNT_OP_CLEAR_IF_COUNT_LE, 2, p->ml.tile, WGS_FLAG_SEEDED};
            dispatch(rc, pipe, b, nb, c, wgs__div_up(len, p->ml.tile), &rule);
        }
        if (!seeded) record_level(rc, L, 0);
    }
}

static void record_single_pass(recorder *rc, const wgs_scan_args *a) {
    wgs_scan_plan *p = rc->p;
    uint64_t tiles = wgs__div_up(a->n, p->sp.tile);
    wgs__chain_reset(p->ctx, rc->pass, &p->chain, tiles);
    uint64_t chunks = wgs__div_up(a->n, p->sp.chunk_elems);
    for (uint64_t c = 0; c < chunks; c++) {
        uint64_t off = c * p->sp.chunk_elems * p->es, len = chunk_len(a->n, p->sp.chunk_elems, c);
        gpu_binding b[7];
        uint32_t nb = bind_data(p, &p->sp, b, 0, 4, a->input, a->input_offset + off, len, 0);
        nb += bind_data(p, &p->sp, b + nb, 1, 5, a->output, a->output_offset + off, len, 1);
        b[nb++] = wgs__chain_binding(&p->chain, tiles);
        b[nb++] = rc->carry;
        if (rc->nb_carry == 2) b[nb++] = rc->carry_record;
        /* Chunks before the count's last are whole, so claim_base is the bound's. */
        wgs__count_rule rule = wgs__count_follow(c * p->sp.chunk_elems, p->sp.tile);
        dispatch(rc, p->sp_scan, b, nb, c, sp_groups_of(p, wgs__div_up(len, p->sp.tile)), &rule);
    }
}

static wgs_result check_buffer(wgs_scan_plan *p, WGPUBuffer b, uint64_t offset, uint64_t n, const char *name);

/* A reduction by the multi-level's first passes (a user's operator's reduce): tile
 * totals level after level, each level's into the next one's sums, the last (one tile)
 * into the output. Records: the chunks of level 0, then one per level. A count on the
 * GPU: level 0's chunks follow it, level l holds div_up(count, tile^(l + 1)) totals,
 * and the first chunk and every level keep a workgroup, which writes the identity
 * where its n is 0 (FLAG_EMPTY_IDENTITY), so a count of 0 reduces to the identity. */
static void record_reduction(recorder *rc, WGPUBuffer input, uint64_t input_offset, const ml_layout *L,
                             WGPUBuffer output, uint64_t output_offset) {
    wgs_scan_plan *p = rc->p;
    gpu_binding out = {3, output, output_offset, bytes_of(p, 1)};
    for (uint64_t c = 0; c < L->chunks || c == 0; c++) {
        uint64_t off = c * p->ml.chunk_elems * p->es, len = L->n ? chunk_len(L->n, p->ml.chunk_elems, c) : 0;
        gpu_binding b[3];
        uint32_t nb = bind_data(p, &p->ml, b, 0, 4, input, input_offset + off, len, 0);
        b[nb++] = L->levels ? (gpu_binding){3, p->sums[0], 0, bytes_of(p, L->count[0])} : out;
        wgs__count_rule rule = wgs__count_follow(c * p->ml.chunk_elems, p->ml.tile);
        rule.grid_min = c == 0;
        dispatch(rc, p->ml_reduce_copy, b, nb, c, len ? wgs__div_up(len, p->ml.tile) : 1, &rule);
    }
    uint64_t unit = p->ml.tile;
    for (int l = 0; l < L->levels; l++, unit = wgs__mul_sat(unit, p->ml.tile)) {
        gpu_binding b[3];
        uint32_t nb = bind_data(p, &p->ml, b, 0, 4, p->sums[l], 0, L->count[l], 0);
        b[nb++] = l + 1 < L->levels ? (gpu_binding){3, p->sums[l + 1], 0, bytes_of(p, L->count[l + 1])} : out;
        wgs__count_rule rule = wgs__count_follow(0, p->ml.tile);
        rule.unit = unit;
        rule.grid_min = 1;
        dispatch(rc, p->ml_reduce_copy, b, nb, (L->chunks ? L->chunks : 1) + (uint64_t)l,
                 wgs__div_up(L->count[l], p->ml.tile), &rule);
    }
}

static void fill_reduction(const wgs_scan_plan *p, const void *layout, unsigned char *records) {
    const ml_layout *L = layout;
    uint32_t tiles_per_chunk = (uint32_t)(p->ml.chunk_elems / p->ml.tile);
    if (L->n == 0) put_record(p, &p->ml, records, 0, 0, 0, WGS_FLAG_EMPTY_IDENTITY, 0, 0);
    for (uint64_t c = 0; c < L->chunks; c++)
        put_record(p, &p->ml, records, c, (uint32_t)chunk_len(L->n, p->ml.chunk_elems, c),
                   (uint32_t)(c * tiles_per_chunk), c == 0 ? WGS_FLAG_EMPTY_IDENTITY : 0, 0, 0);
    for (int l = 0; l < L->levels; l++)
        put_record(p, &p->ml, records, (L->chunks ? L->chunks : 1) + (uint64_t)l, (uint32_t)L->count[l], 0,
                   WGS_FLAG_EMPTY_IDENTITY, 0, 0);
}

wgs_result wgs__scan_reduce_encode(wgs_scan_plan *p, WGPUCommandEncoder encoder, const wgs_reduce_args *a) {
    wgs_context *ctx = p->ctx;
    wgs_result r;
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK) return r;
    if ((r = check_buffer(p, a->input, a->input_offset, a->n, "input")) != WGS_OK) return r;
    if ((r = check_buffer(p, a->output, a->output_offset, 1, "output")) != WGS_OK) return r;
    WGS_FAIL_IF(ctx, a->input == a->output, WGS_ERROR_ALIASING, "the result must go to another buffer than the input");
    ml_layout L = ml_layout_for(p, a->n);
    size_t records = (size_t)((L.chunks ? L.chunks : 1) + (uint64_t)L.levels);
    unsigned char *buf = calloc(records, p->stride + sizeof(uint64_t));
    WGS_FAIL_IF(ctx, !buf, WGS_ERROR_OUT_OF_HOST_MEMORY, "writing parameters");
    uint64_t *at = (uint64_t *)(void *)(buf + records * p->stride);
    fill_reduction(p, &L, buf);
    if ((r = wgs__params_reserve(ctx, records)) != WGS_OK) {
        free(buf);
        return r;
    }
    for (size_t i = 0; i < records; i++) at[i] = wgs__param_push(ctx, (const wgs_params *)(buf + i * p->stride));
    wgs__gpu_scope_push(ctx->gpu);
    recorder rc = {p, NULL, at, {0}, {0}, 1, buf};
    rc.pass = wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set, a->timestamp_begin_index,
                                  a->timestamp_end_index);
    wgs__dispatch_begin(ctx, a->n_buffer, a->n_offset, a->n);
    record_reduction(&rc, a->input, a->input_offset, &L, a->output, a->output_offset);
    r = wgs__dispatch_end(ctx, rc.pass);
    free(buf);
    wgs__gpu_pass_end(ctx->gpu, rc.pass);
    wgs_result rs = wgs__scope_end(ctx, "recording the reduction");
    return r != WGS_OK ? r : rs;
}

static wgs_result check_buffer(wgs_scan_plan *p, WGPUBuffer b, uint64_t offset, uint64_t n,
                               const char *name) {
    return wgs__check_buffer(p->ctx, b, offset, bytes_of(p, n), name);
}

wgs_result wgs_scan_encode(wgs_scan_plan *p, WGPUCommandEncoder encoder, const wgs_scan_args *a) {
    return wgs__scan_encode_in(p, encoder, NULL, a);
}

wgs_result wgs__scan_encode_in(wgs_scan_plan *p, WGPUCommandEncoder encoder, WGPUComputePassEncoder pass,
                               const wgs_scan_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    wgs_result r = wgs__encode_begin(ctx, encoder, a, a ? a->n : 0, p->capacity, a ? a->timestamp_query_set : NULL);
    if (r != WGS_OK) return r;
    if ((r = check_buffer(p, a->input, a->input_offset, a->n, "input")) != WGS_OK) return r;
    if ((r = check_buffer(p, a->output, a->output_offset, a->n, "output")) != WGS_OK) return r;
    int in_place = a->input == a->output;
    WGS_FAIL_IF(ctx, in_place && a->input_offset != a->output_offset, WGS_ERROR_ALIASING,
                "input and output are one buffer at offsets %llu and %llu; use the same offset "
                "(in place) or separate buffers",
                (unsigned long long)a->input_offset, (unsigned long long)a->output_offset);
    wgs_scan_algorithm algo = wgs_scan_plan_algorithm(p, a->n, in_place);
    WGS_FAIL_IF(ctx, in_place && algo == WGS_SCAN_ALGORITHM_SINGLE_PASS, WGS_ERROR_ALIASING,
                "the single-pass scan cannot run in place (its fallback rereads earlier tiles' "
                "input); use separate buffers or the multi-level algorithm");
    carry_in carry = {0, 0};
    gpu_binding carry_b = {6, wgs__dummy(ctx), 0, 16}; /* not p->dummy: that one is bound writable */
    if (a->init_buffer) {
        if ((r = check_buffer(p, a->init_buffer, a->init_offset, 1, "init")) != WGS_OK) return r;
        carry = (carry_in){WGS_FLAG_CARRY | WGS_FLAG_CARRY_BUFFER, 0};
        carry_b = (gpu_binding){6, a->init_buffer, a->init_offset, p->es < 4 ? 4 : p->es};
    } else if (a->init_value) {
        carry.flags = WGS_FLAG_CARRY;
        /* f16 in the low half (little-endian); an element of several words goes in a
         * record of its own (below) */
        memcpy(&carry.bits, a->init_value, p->es < 4 ? p->es : 4);
    }
    int carry_record = p->custom && p->custom->words > 1;
    if ((r = wgs__check_count(ctx, a->n_buffer, a->n_offset, "n")) != WGS_OK) return r;
    if (a->n == 0) return WGS_OK;

    ml_layout L;
    sp_layout S = {a->n, carry};
    size_t records = 0;
    fill_fn fill = fill_sp;
    const void *layout = &S;
    if (algo == WGS_SCAN_ALGORITHM_SINGLE_PASS) {
        records = (size_t)wgs__div_up(a->n, p->sp.chunk_elems);
    } else {
        L = ml_layout_for(p, a->n);
        L.carry = carry;
        records = (size_t)(L.chunks + (uint64_t)L.levels);
        fill = fill_ml;
        layout = &L;
    }
    /* The records go into the context's ring, written once each (dispatch.c), so any
     * number of encodes may wait for one submit.
     * A count on the GPU: the count's rules start from these, the bound's records. */
    unsigned char *buf = calloc(records, p->stride + sizeof(uint64_t));
    WGS_FAIL_IF(ctx, !buf, WGS_ERROR_OUT_OF_HOST_MEMORY, "writing parameters");
    uint64_t *at = (uint64_t *)(void *)(buf + records * p->stride);
    fill(p, layout, buf);
    if ((r = wgs__params_reserve(ctx, records + (size_t)carry_record)) != WGS_OK) {
        free(buf);
        return r;
    }
    for (size_t i = 0; i < records; i++) at[i] = wgs__param_push(ctx, (const wgs_params *)(buf + i * p->stride));
    gpu_binding carry_rec_b = {0};
    if (carry_record) { /* (without a carry the kernels never read it, but it is bound) */
        wgs_params rec;
        memset(&rec, 0, sizeof rec);
        if (a->init_value && !a->init_buffer) memcpy(rec.words, a->init_value, p->es);
        carry_rec_b = wgs__param_binding(ctx, 7, wgs__param_push(ctx, &rec));
    }

    wgs__gpu_scope_push(ctx->gpu);
    recorder rc = {p, NULL, at, carry_b, carry_rec_b, carry_record ? 2u : 1u, buf};
    rc.pass = pass ? pass
                   : wgs__gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set, a->timestamp_begin_index,
                                         a->timestamp_end_index);
    wgs__dispatch_begin(ctx, a->n_buffer, a->n_offset, a->n);
    if (algo == WGS_SCAN_ALGORITHM_SINGLE_PASS)
        record_single_pass(&rc, a);
    else
        record_multilevel(&rc, a, &L);
    r = wgs__dispatch_end(ctx, rc.pass);
    free(buf);
    if (!pass) wgs__gpu_pass_end(ctx->gpu, rc.pass);
    wgs_result rs = wgs__scope_end(ctx, "recording the scan");
    return r != WGS_OK ? r : rs;
}
