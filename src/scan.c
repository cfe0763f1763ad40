/*
 * scan.c: device-wide prefix scan, multi-level (the seed article's algorithm).
 *
 *   level 0   scan_tiles   every tile of TILE elements scanned in workgroup memory;
 *                          tile totals go to sums[0]
 *   level l   scan_tiles   sums[l] scanned in place (exclusive); its tile totals go to
 *                          sums[l+1], until one tile holds a whole level
 *   back down add_prefix   sums[l+1] combined into sums[l], then sums[0] into the output
 *
 * Arrays longer than one storage binding are cut into chunks of whole tiles, each bound
 * separately; all chunks share the sums hierarchy through a tile_base offset, so only
 * level 0 and the final add know about chunks. Grids wider than the device's
 * workgroups-per-dimension limit are folded into two dimensions.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LEVELS 8

typedef struct scan_params { /* matches Params in common.wgsl */
    uint32_t n, tile_base, identity_bits, flags;
} scan_params;
#define FLAG_INCLUSIVE 1u
#define FLAG_WRITE_TOTALS 2u

struct wgs_scan_plan {
    wgs_context *ctx;
    wgs_type type;
    wgs_op op;
    wgs_scan_kind kind;
    uint64_t capacity;
    uint32_t es; /* element size in bytes */
    uint32_t wg, items, tile;
    uint64_t chunk_elems; /* level-0 elements per binding: a multiple of tile */
    uint32_t max_dim;
    WGPUComputePipeline scan_copy, scan_in_place, add;
    int levels; /* number of sums arrays for `capacity` */
    WGPUBuffer sums[MAX_LEVELS];
    WGPUBuffer dummy; /* aux binding of dispatches that write no totals */
    /* parameter slots (see "Parameter slots" in wgscan.h) */
    WGPUBuffer params;
    uint32_t stride;         /* bytes between two dispatches' parameters */
    uint32_t dispatches_max; /* parameter records per slot */
    uint64_t slot_n[WGS_SCAN_PARAM_SLOTS];
    uint64_t slot_age[WGS_SCAN_PARAM_SLOTS];
    uint64_t clock;
    uint64_t scratch_bytes;
};

/* How one n is laid out. */
typedef struct scan_layout {
    uint64_t n;
    uint64_t chunks;
    uint64_t tiles0;
    int levels;
    uint64_t count[MAX_LEVELS]; /* elements in sums[l] */
} scan_layout;

static scan_layout layout_for(const wgs_scan_plan *p, uint64_t n) {
    scan_layout L;
    memset(&L, 0, sizeof L);
    L.n = n;
    L.chunks = wgs__div_up(n, p->chunk_elems);
    L.tiles0 = wgs__div_up(n, p->tile);
    if (L.tiles0 > 1) {
        uint64_t c = L.tiles0;
        for (;;) {
            L.count[L.levels++] = c;
            if (c <= p->tile || L.levels == MAX_LEVELS) break;
            c = wgs__div_up(c, p->tile);
        }
    }
    return L;
}

static void grid_for(const wgs_scan_plan *p, uint64_t tiles, uint32_t *x, uint32_t *y) {
    if (tiles <= p->max_dim) {
        *x = (uint32_t)tiles;
        *y = 1;
        return;
    }
    uint64_t rows = wgs__div_up(tiles, p->max_dim);
    *y = (uint32_t)rows;
    *x = (uint32_t)wgs__div_up(tiles, rows);
}

/* Workgroup size and items per invocation. GPUs hide latency with many invocations
 * per workgroup. CPU drivers (SwiftShader) run a workgroup's invocations as a few SIMD
 * lanes switching at every barrier, so they want few invocations doing long serial
 * runs: on SwiftShader 32 x 64 scanned 4M u32 ten times faster than 256 x 4. Both
 * tiles hold 2048 elements, and fit the 16 KiB of workgroup memory WebGPU guarantees. */
static void choose_tuning(const wgs_context_info *ci, uint32_t *wg, uint32_t *items) {
    if (strcmp(ci->adapter_type, "cpu") == 0 || ci->max_invocations_per_workgroup < 256) {
        *wg = 32;
        *items = 64;
    } else {
        *wg = 256;
        *items = 8;
    }
}

static void plan_release(wgs_scan_plan *p) {
    gpu_device *g = p->ctx->gpu;
    for (int l = 0; l < MAX_LEVELS; l++) gpu_buffer_release(g, p->sums[l]);
    gpu_buffer_release(g, p->dummy);
    gpu_buffer_release(g, p->params);
}

wgs_result wgs_scan_plan_create(wgs_context *ctx, const wgs_scan_plan_desc *desc,
                                wgs_scan_plan **out) {
    if (out) *out = NULL;
    if (!ctx) return WGS_ERROR_INVALID_ARGUMENT;
    WGS_FAIL_IF(ctx, !desc || !out, WGS_ERROR_INVALID_ARGUMENT, "desc and out are required");
    wgs_result r = wgs__check_device(ctx);
    if (r != WGS_OK) return r;
    wgs_type type = desc->type;
    wgs_op op = desc->op;
    r = wgs__check_type_op(ctx, &type, &op);
    if (r != WGS_OK) return r;
    wgs_scan_kind kind = desc->kind == WGS_SCAN_DEFAULT ? WGS_SCAN_EXCLUSIVE : desc->kind;
    WGS_FAIL_IF(ctx, (unsigned)kind > WGS_SCAN_INCLUSIVE, WGS_ERROR_INVALID_ARGUMENT,
                "unknown scan kind %d", (int)desc->kind);
    WGS_FAIL_IF(ctx, (unsigned)desc->algorithm > WGS_SCAN_ALGORITHM_MULTILEVEL,
                WGS_ERROR_INVALID_ARGUMENT, "unknown scan algorithm %d", (int)desc->algorithm);

    const wgs_context_info *ci = &ctx->caps.info;
    wgs_scan_plan *p = calloc(1, sizeof *p);
    WGS_FAIL_IF(ctx, !p, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the scan plan");
    p->ctx = ctx;
    p->type = type;
    p->op = op;
    p->kind = kind;
    p->capacity = desc->capacity ? desc->capacity : 1;
    p->es = (uint32_t)wgs_type_size(type);
    choose_tuning(ci, &p->wg, &p->items);
    p->tile = p->wg * p->items;
    p->max_dim = ci->max_workgroups_per_dimension;

    /* Level-0 chunk: the most whole tiles one binding and one (two-dimensional) grid
     * can hold. Whole tiles keep every chunk offset a multiple of TILE * es bytes,
     * which satisfies the offset alignment WebGPU asks for. */
    uint64_t tiles_per_binding = ci->max_storage_binding_size / ((uint64_t)p->tile * p->es);
    uint64_t tiles_per_grid = (uint64_t)p->max_dim * p->max_dim;
    uint64_t chunk_tiles = tiles_per_binding < tiles_per_grid ? tiles_per_binding : tiles_per_grid;
    p->chunk_elems = chunk_tiles * p->tile;
    uint64_t bytes = p->capacity * p->es;
    if (chunk_tiles == 0 || ((uint64_t)p->tile * p->es) % ci->min_storage_offset_alignment != 0 ||
        bytes / p->es != p->capacity || bytes > ci->max_buffer_size) {
        free(p);
        return wgs__fail(ctx, WGS_ERROR_TOO_LARGE,
                         "capacity %llu of %s does not fit this device (max buffer %llu bytes, "
                         "max binding %llu bytes)",
                         (unsigned long long)desc->capacity, wgs_type_name(type),
                         (unsigned long long)ci->max_buffer_size,
                         (unsigned long long)ci->max_storage_binding_size);
    }
    scan_layout L = layout_for(p, p->capacity);
    if (L.levels == MAX_LEVELS ||
        (L.levels && (L.count[0] * p->es > ci->max_storage_binding_size ||
                      wgs__div_up(L.count[0], p->tile) > tiles_per_grid))) {
        uint64_t cap = p->capacity;
        free(p);
        return wgs__fail(ctx, WGS_ERROR_TOO_LARGE, "capacity %llu needs too many scan levels",
                         (unsigned long long)cap);
    }
    p->levels = L.levels;

    wgs_kernel_spec spec = {"device/scan_tiles.wgsl", "scan_tiles", type, op, 0, p->wg, p->items};
    r = wgs__pipeline(ctx, &spec, &p->scan_copy);
    spec.in_place = 1;
    if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->scan_in_place);
    spec.file = "device/add_prefix.wgsl";
    spec.entry = "add_prefix";
    if (r == WGS_OK) r = wgs__pipeline(ctx, &spec, &p->add);
    if (r != WGS_OK) {
        free(p);
        return r;
    }

    gpu_device *g = ctx->gpu;
    p->stride = ci->min_uniform_offset_alignment > sizeof(scan_params)
                    ? ci->min_uniform_offset_alignment
                    : (uint32_t)sizeof(scan_params);
    p->dispatches_max = (uint32_t)(L.chunks + (uint64_t)L.levels);
    gpu_scope_push(g);
    for (int l = 0; l < L.levels; l++) {
        uint64_t sz = wgs__round_up(L.count[l] * p->es, 4);
        p->sums[l] = gpu_buffer_create(g, sz, WGPUBufferUsage_Storage, "wgscan scan sums");
        p->scratch_bytes += sz;
    }
    p->dummy = gpu_buffer_create(g, 16, WGPUBufferUsage_Storage, "wgscan scan dummy");
    uint64_t param_bytes = (uint64_t)WGS_SCAN_PARAM_SLOTS * p->dispatches_max * p->stride;
    p->params = gpu_buffer_create(g, param_bytes, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst,
                                  "wgscan scan params");
    p->scratch_bytes += 16 + param_bytes;
    r = wgs__scope_end(ctx, "allocating the scan plan's scratch");
    if (r != WGS_OK) {
        plan_release(p);
        free(p);
        return r;
    }
    ctx->live_plans++;
    *out = p;
    return WGS_OK;
}

void wgs_scan_plan_destroy(wgs_scan_plan *p) {
    if (!p) return;
    plan_release(p);
    p->ctx->live_plans--;
    free(p);
}

uint64_t wgs_scan_plan_scratch_size(const wgs_scan_plan *p) { return p ? p->scratch_bytes : 0; }
uint32_t wgs_scan_plan_tile_size(const wgs_scan_plan *p) { return p ? p->tile : 0; }

/* The parameter slot holding the records for layout L; written on first use. */
static uint64_t param_slot(wgs_scan_plan *p, const scan_layout *L) {
    int found = -1, oldest = 0;
    for (int s = 0; s < WGS_SCAN_PARAM_SLOTS; s++) {
        if (p->slot_age[s] && p->slot_n[s] == L->n) found = s;
        if (p->slot_age[s] < p->slot_age[oldest]) oldest = s;
    }
    int s = found >= 0 ? found : oldest;
    p->slot_age[s] = ++p->clock;
    uint64_t base = (uint64_t)s * p->dispatches_max * p->stride;
    if (found >= 0) return base;

    p->slot_n[s] = L->n;
    size_t count = (size_t)(L->chunks + (uint64_t)L->levels);
    unsigned char *buf = calloc(count, p->stride);
    if (!buf) return UINT64_MAX;
    uint32_t ident = wgs__identity_bits(p->type, p->op);
    uint32_t tiles_per_chunk = (uint32_t)(p->chunk_elems / p->tile);
    for (uint64_t c = 0; c < L->chunks; c++) {
        uint64_t first = c * p->chunk_elems;
        uint64_t len = L->n - first < p->chunk_elems ? L->n - first : p->chunk_elems;
        scan_params sp = {(uint32_t)len, (uint32_t)(c * tiles_per_chunk), ident,
                          (p->kind == WGS_SCAN_INCLUSIVE ? FLAG_INCLUSIVE : 0u) |
                              (L->tiles0 > 1 ? FLAG_WRITE_TOTALS : 0u)};
        memcpy(buf + c * p->stride, &sp, sizeof sp);
    }
    for (int l = 0; l < L->levels; l++) {
        scan_params sp = {(uint32_t)L->count[l], 0, ident,
                          L->count[l] > p->tile ? FLAG_WRITE_TOTALS : 0u};
        memcpy(buf + (L->chunks + (uint64_t)l) * p->stride, &sp, sizeof sp);
    }
    gpu_queue_write(p->ctx->gpu, p->params, base, buf, count * p->stride);
    free(buf);
    return base;
}

typedef struct recorder {
    wgs_scan_plan *p;
    WGPUComputePassEncoder pass;
    uint64_t param_base;
} recorder;

static void dispatch(recorder *rc, WGPUComputePipeline pipe, const gpu_binding *b, uint32_t nb,
                     uint64_t param_index, uint64_t elems) {
    wgs_scan_plan *p = rc->p;
    gpu_binding all[4];
    memcpy(all, b, nb * sizeof *b);
    all[nb].binding = 2;
    all[nb].buffer = p->params;
    all[nb].offset = rc->param_base + param_index * p->stride;
    all[nb].size = sizeof(scan_params);
    WGPUBindGroup group = gpu_bind_group_create(p->ctx->gpu, pipe, all, nb + 1);
    uint32_t x, y;
    grid_for(p, wgs__div_up(elems, p->tile), &x, &y);
    gpu_pass_dispatch(p->ctx->gpu, rc->pass, pipe, group, x, y);
    gpu_bind_group_release(p->ctx->gpu, group);
}

static uint64_t sums_bytes(const wgs_scan_plan *p, uint64_t count) {
    return wgs__round_up(count * p->es, 4);
}

/* Scans sums[l] in place (exclusive) and everything above it. */
static void record_level(recorder *rc, const scan_layout *L, int l) {
    wgs_scan_plan *p = rc->p;
    uint64_t count = L->count[l];
    int has_next = l + 1 < L->levels;
    gpu_binding b[2] = {
        {1, p->sums[l], 0, sums_bytes(p, count)},
        {3, has_next ? p->sums[l + 1] : p->dummy, 0,
         has_next ? sums_bytes(p, L->count[l + 1]) : 16},
    };
    uint64_t param_index = L->chunks + (uint64_t)l;
    dispatch(rc, p->scan_in_place, b, 2, param_index, count);
    if (!has_next) return;
    record_level(rc, L, l + 1);
    dispatch(rc, p->add, b, 2, param_index, count);
}

static uint64_t data_bytes(const wgs_scan_plan *p, uint64_t n) {
    return wgs__round_up(n * p->es, 4); /* f16 bindings are whole 4-byte words */
}

static wgs_result check_buffer(wgs_scan_plan *p, WGPUBuffer b, uint64_t offset, uint64_t n,
                               const char *name) {
    wgs_context *ctx = p->ctx;
    WGS_FAIL_IF(ctx, !b, WGS_ERROR_INVALID_ARGUMENT, "%s buffer is NULL", name);
    uint32_t align = ctx->caps.info.min_storage_offset_alignment;
    WGS_FAIL_IF(ctx, offset % align != 0, WGS_ERROR_MISALIGNED_OFFSET,
                "%s offset %llu is not a multiple of %u (minStorageBufferOffsetAlignment)", name,
                (unsigned long long)offset, align);
    WGS_FAIL_IF(ctx, !(gpu_buffer_usage(ctx->gpu, b) & WGPUBufferUsage_Storage),
                WGS_ERROR_BUFFER_USAGE, "%s buffer lacks WGPUBufferUsage_Storage", name);
    uint64_t size = gpu_buffer_size(ctx->gpu, b);
    uint64_t need = data_bytes(p, n);
    WGS_FAIL_IF(ctx, offset > size || size - offset < need, WGS_ERROR_BUFFER_TOO_SMALL,
                "%s buffer holds %llu bytes; offset %llu + %llu elements of %s need %llu", name,
                (unsigned long long)size, (unsigned long long)offset, (unsigned long long)n,
                wgs_type_name(p->type), (unsigned long long)(offset + need));
    return WGS_OK;
}

wgs_result wgs_scan_encode(wgs_scan_plan *p, WGPUCommandEncoder encoder, const wgs_scan_args *a) {
    if (!p) return WGS_ERROR_INVALID_ARGUMENT;
    wgs_context *ctx = p->ctx;
    WGS_FAIL_IF(ctx, !encoder || !a, WGS_ERROR_INVALID_ARGUMENT, "encoder and args are required");
    wgs_result r = wgs__check_device(ctx);
    if (r != WGS_OK) return r;
    WGS_FAIL_IF(ctx, a->n > p->capacity, WGS_ERROR_CAPACITY_EXCEEDED,
                "n = %llu exceeds the plan's capacity %llu", (unsigned long long)a->n,
                (unsigned long long)p->capacity);
    if ((r = check_buffer(p, a->input, a->input_offset, a->n, "input")) != WGS_OK) return r;
    if ((r = check_buffer(p, a->output, a->output_offset, a->n, "output")) != WGS_OK) return r;
    int in_place = a->input == a->output;
    WGS_FAIL_IF(ctx, in_place && a->input_offset != a->output_offset, WGS_ERROR_ALIASING,
                "input and output are one buffer at offsets %llu and %llu; use the same offset "
                "(in place) or separate buffers",
                (unsigned long long)a->input_offset, (unsigned long long)a->output_offset);
    WGS_FAIL_IF(ctx, a->timestamp_query_set && !ctx->caps.info.has_timestamp_query,
                WGS_ERROR_FEATURE_MISSING, "timestamps need the timestamp-query feature");
    if (a->n == 0) return WGS_OK;

    scan_layout L = layout_for(p, a->n);
    uint64_t param_base = param_slot(p, &L);
    WGS_FAIL_IF(ctx, param_base == UINT64_MAX, WGS_ERROR_OUT_OF_HOST_MEMORY, "writing parameters");

    gpu_scope_push(ctx->gpu);
    recorder rc = {p, NULL, param_base};
    rc.pass = gpu_pass_begin(ctx->gpu, encoder, a->timestamp_query_set, a->timestamp_begin_index,
                             a->timestamp_end_index);
    WGPUBuffer aux0 = L.levels ? p->sums[0] : p->dummy;
    uint64_t aux0_size = L.levels ? sums_bytes(p, L.count[0]) : 16;
    for (uint64_t c = 0; c < L.chunks; c++) {
        uint64_t first = c * p->chunk_elems;
        uint64_t len = a->n - first < p->chunk_elems ? a->n - first : p->chunk_elems;
        uint64_t off = first * p->es;
        gpu_binding b[3] = {
            {0, a->input, a->input_offset + off, data_bytes(p, len)},
            {1, a->output, a->output_offset + off, data_bytes(p, len)},
            {3, aux0, 0, aux0_size},
        };
        if (in_place)
            dispatch(&rc, p->scan_in_place, b + 1, 2, c, len);
        else
            dispatch(&rc, p->scan_copy, b, 3, c, len);
    }
    if (L.levels) {
        record_level(&rc, &L, 0);
        for (uint64_t c = 0; c < L.chunks; c++) {
            uint64_t first = c * p->chunk_elems;
            uint64_t len = a->n - first < p->chunk_elems ? a->n - first : p->chunk_elems;
            gpu_binding b[2] = {
                {1, a->output, a->output_offset + first * p->es, data_bytes(p, len)},
                {3, aux0, 0, aux0_size},
            };
            dispatch(&rc, p->add, b, 2, c, len);
        }
    }
    gpu_pass_end(ctx->gpu, rc.pass);
    return wgs__scope_end(ctx, "recording the scan");
}
