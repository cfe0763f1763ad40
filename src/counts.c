/* SPDX-License-Identifier: MIT */
/*
 * counts.c: element counts that stay on the GPU (args.n_buffer), below the dispatch
 * layer: only dispatch.c calls in here, and nothing here calls dispatch.c. While a
 * pass with a count buffer is open, wgs__dispatch hands each dispatch to
 * wgs__counts_defer: pipeline, bindings, the record the host computed for the bound
 * args.n, and the rule saying how record and grid follow from the count c
 * (internal.h). At the pass's end:
 *
 *   prep       one invocation (device/counts.wgsl) reads c, clamps it to the bound,
 *              and writes each dispatch's record and grid into a region of the
 *              context's count ring (Storage | Uniform | Indirect)
 *   dispatches in order, each with its record (binding 2, a uniform range of the
 *              region) and its grid read from the region (dispatchWorkgroupsIndirect);
 *              dispatches without a rule, and those whose rule's direct_max takes
 *              their grid, keep the recorded grid and dispatch directly
 *
 * What the host decides from n (algorithms, tile groups, chunks over bindings, the
 * buffer checks) it decides for the bound, so every binding is as without a count
 * buffer; only n, the fields that follow it and the grids change on the GPU.
 *
 * A region is [header | a rule per dispatch | the records | the grids]; the host
 * writes the first two with wgpuQueueWriteBuffer, once, as the parameter ring's
 * records are written (dispatch.c says why never twice); the GPU writes the rest.
 * A later pass whose header and rules are the same words (the same plan, bound and
 * arguments: an encode repeated) takes the same region: the host writes nothing, and
 * its prep rewrites the records and grids from its own count, in queue order after
 * the earlier pass's dispatches have read theirs. Its bind groups are then the ones
 * cached (bindings.c).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define COUNT_HEADER_WORDS 16u
#define COUNT_RING_BYTES (256u * 1024u)
#define COUNT_RULE_WORDS 32u /* counts.wgsl's RULE_WORDS */

struct wgs__deferred {
    WGPUComputePipeline pipe;
    gpu_binding b[12];
    uint32_t nb;
    int has_record;
    int fixed; /* no rule, or a grid within its direct_max: the recorded grid, dispatched directly */
    uint64_t groups;
    uint32_t rule[COUNT_RULE_WORDS];
};

static uint32_t sat32(uint64_t v) { return v > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)v; }

void wgs__counts_begin(wgs_context *ctx, WGPUBuffer n_buffer, uint64_t n_offset, uint64_t bound,
                       WGPUBuffer second, uint64_t second_offset, uint64_t second_bound) {
    wgs__counts *k = &ctx->counts;
    k->active = 0; /* a pass an encode left on failure ends here */
    if (!n_buffer && !second) return;
    k->active = 1;
    k->n_buffer = n_buffer;
    k->n_offset = n_offset;
    k->bound = sat32(bound);
    k->second = second;
    k->second_offset = second_offset;
    k->second_bound = sat32(second_bound);
    k->count = 0;
    k->failed = WGS_OK;
}

int wgs__counts_active(const wgs_context *ctx) { return ctx->counts.active; }

/* The rule's words as counts.wgsl reads them: the record, then the rule (the grid at
 * word 12 is the caller's). */
static wgs_result rule_words(wgs_context *ctx, uint32_t *w, const wgs_params *record, const wgs__count_rule *rule,
                             size_t index) {
    if (record) memcpy(w, record->words, sizeof record->words);
    if (!rule) return WGS_OK;
    w[8] = sat32(rule->first);
    w[9] = sat32(rule->unit);
    w[10] = rule->lo;
    w[11] = sat32(rule->per);
    w[13] = rule->grid_min;
    for (int i = 0; i < 4; i++) {
        const wgs__count_op *o = &rule->ops[i];
        uint32_t b = o->b;
        if (o->op == WGS_COUNT_OP_SUM) { /* the kernel sums from a dispatch's index in the pass */
            if (b > index)
                return wgs__fail(ctx, WGS_ERROR_GPU_INTERNAL, "a count rule sums %u dispatches of %zu", b, index);
            b = (uint32_t)(index - b);
        }
        w[16 + 4 * i] = (uint32_t)o->op | o->field << 8;
        w[17 + 4 * i] = o->a;
        w[18 + 4 * i] = b;
    }
    return WGS_OK;
}

void wgs__counts_defer(wgs_context *ctx, WGPUComputePipeline pipe, const gpu_binding *b, uint32_t nb,
                       const wgs_params *record, uint64_t groups, const wgs__count_rule *rule) {
    wgs__counts *k = &ctx->counts;
    if (k->failed != WGS_OK) return;
    if (k->count == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 16;
        wgs__deferred *l = realloc(k->list, cap * sizeof *l);
        if (!l) {
            k->failed = wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "deferring dispatches");
            return;
        }
        k->list = l;
        k->cap = cap;
    }
    wgs__deferred *d = &k->list[k->count];
    memset(d, 0, sizeof *d);
    if ((k->failed = rule_words(ctx, d->rule, record, record ? rule : NULL, k->count)) != WGS_OK) return;
    k->count++;
    d->pipe = pipe;
    memcpy(d->b, b, nb * sizeof *b);
    d->nb = nb;
    d->has_record = record != NULL;
    d->groups = groups;
    d->fixed = !record || !rule || (rule->direct_max && groups <= rule->direct_max);
    d->rule[12] = (uint32_t)groups; /* at most max_dim^2 < 2^32 */
}

static void memo_clear(wgs__counts *k) {
    for (unsigned i = 0; i < WGS_COUNT_MEMO; i++) {
        free(k->memo[i]);
        k->memo[i] = NULL;
        k->memo_bytes[i] = 0;
    }
    k->memo_next = 0;
}

/* The base of the current ring's region written with `words`, or -1 for none. */
static int64_t memo_find(const wgs__counts *k, const uint32_t *words, uint64_t bytes) {
    for (unsigned i = 0; i < WGS_COUNT_MEMO; i++)
        if (k->memo[i] && k->memo_bytes[i] == bytes && memcmp(k->memo[i], words, (size_t)bytes) == 0)
            return (int64_t)k->memo_base[i];
    return -1;
}

/* Keeps `words` (the caller's, now the memo's) as the region's at `base`. */
static void memo_keep(wgs__counts *k, uint32_t *words, uint64_t bytes, uint64_t base) {
    unsigned i = k->memo_next++ % WGS_COUNT_MEMO;
    free(k->memo[i]);
    k->memo[i] = words;
    k->memo_bytes[i] = bytes;
    k->memo_base[i] = base;
}

/* A region of `bytes` in the count ring (a fresh ring when the current one is full);
 * its offset in *offset. */
static wgs_result region_reserve(wgs_context *ctx, uint64_t bytes, uint64_t align, uint64_t *offset) {
    wgs__counts *k = &ctx->counts;
    uint64_t at = wgs__round_up(k->ring_used, align);
    if (!k->ring || at + bytes > k->ring_cap) {
        uint64_t cap = bytes > COUNT_RING_BYTES ? bytes : COUNT_RING_BYTES;
        wgs__gpu_scope_push(ctx->gpu);
        WGPUBuffer ring = wgs__gpu_buffer_create(ctx->gpu, cap,
                                                 WGPUBufferUsage_Storage | WGPUBufferUsage_Uniform |
                                                     WGPUBufferUsage_Indirect | WGPUBufferUsage_CopyDst,
                                                 "wgscan count ring");
        wgs_result r = wgs__scope_end(ctx, "creating the count ring");
        if (r != WGS_OK) {
            wgs__gpu_buffer_release(ctx->gpu, ring);
            return r;
        }
        wgs__gpu_buffer_release(ctx->gpu, k->ring);
        k->ring = ring;
        k->ring_cap = cap;
        at = 0;
        memo_clear(k);
    }
    *offset = at;
    k->ring_used = at + bytes;
    return WGS_OK;
}

static wgs_result prep_pipeline(wgs_context *ctx) {
    if (ctx->counts.prep) return WGS_OK;
    wgs_kernel_spec spec = {.file = "device/counts.wgsl", .entry = "counts_prep", .primitive = 1,
                            .value_type = WGS_TYPE_U32, .type = WGS_TYPE_U32, .op = WGS_OP_ADD,
                            .params = WGS_PARAMS_KIND_COPY, .wg = 64, .items = 1};
    return wgs__pipeline(ctx, &spec, &ctx->counts.prep);
}

wgs_result wgs__counts_end(wgs_context *ctx, WGPUComputePassEncoder pass) {
    wgs__counts *k = &ctx->counts;
    if (!k->active) return WGS_OK;
    k->active = 0;
    if (k->failed != WGS_OK) return k->failed;
    size_t count = k->count;
    if (count == 0) return WGS_OK;
    const wgs_context_info *ci = &ctx->caps.info;
    uint64_t align = ci->min_storage_offset_alignment > ci->min_uniform_offset_alignment
                         ? ci->min_storage_offset_alignment
                         : ci->min_uniform_offset_alignment;
    if (align < 256) align = 256;
    uint32_t stride = wgs__param_stride(ctx);
    uint64_t rules_bytes = (COUNT_HEADER_WORDS + (uint64_t)count * COUNT_RULE_WORDS) * 4;
    uint64_t rec_off = wgs__round_up(rules_bytes, align);
    uint64_t grid_off = rec_off + (uint64_t)count * stride;
    uint64_t bytes = wgs__round_up(grid_off + 12 * (uint64_t)count, align);
    uint64_t base = 0;
    wgs_result r = prep_pipeline(ctx);
    uint32_t *words = r == WGS_OK ? calloc(1, rules_bytes) : NULL;
    if (r == WGS_OK && !words) r = wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "writing count rules");
    if (r != WGS_OK) return r;
    /* Each count bound from the aligned offset below it; a missing one reads the other
     * buffer (some binding is needed) and is ignored. */
    const uint64_t salign = ci->min_storage_offset_alignment;
    WGPUBuffer first_b = k->n_buffer ? k->n_buffer : k->second, second_b = k->second ? k->second : k->n_buffer;
    uint64_t first_off = k->n_buffer ? k->n_offset : k->second_offset;
    uint64_t second_off = k->second ? k->second_offset : k->n_offset;
    uint64_t count_at = first_off / salign * salign, second_at = second_off / salign * salign;
    words[0] = (uint32_t)count;
    words[1] = k->bound;
    words[2] = (uint32_t)(rec_off / 4);
    words[3] = (uint32_t)(grid_off / 4);
    words[4] = stride / 4;
    words[5] = ci->max_workgroups_per_dimension;
    words[6] = (uint32_t)((first_off - count_at) / 4);
    words[7] = (uint32_t)((second_off - second_at) / 4);
    words[8] = k->second_bound;
    words[9] = (k->n_buffer ? 1u : 0u) | (k->second ? 2u : 0u);
    for (size_t d = 0; d < count; d++)
        memcpy(words + COUNT_HEADER_WORDS + d * COUNT_RULE_WORDS, k->list[d].rule, sizeof k->list[d].rule);
    int64_t found = k->ring ? memo_find(k, words, rules_bytes) : -1;
    if (found >= 0) {
        base = (uint64_t)found;
        free(words);
    } else {
        if ((r = region_reserve(ctx, bytes, align, &base)) != WGS_OK) {
            free(words);
            return r;
        }
        wgs__gpu_queue_write(ctx->gpu, k->ring, base, words, (size_t)rules_bytes);
        ctx->records_written++;
        memo_keep(k, words, rules_bytes, base);
    }

    gpu_binding pb[3] = {{0, first_b, count_at, first_off + 4 - count_at},
                         {1, k->ring, base, bytes},
                         {3, second_b, second_at, second_off + 4 - second_at}};
    wgs__gpu_pass_dispatch(ctx->gpu, pass, ctx->counts.prep, wgs__bind_group(ctx, ctx->counts.prep, pb, 3), 1, 1);
    for (size_t d = 0; d < count; d++) {
        wgs__deferred *e = &k->list[d];
        if (e->has_record) e->b[e->nb++] = (gpu_binding){2, k->ring, base + rec_off + d * stride, sizeof(wgs_params)};
        WGPUBindGroup group = wgs__bind_group(ctx, e->pipe, e->b, e->nb);
        if (!e->fixed) {
            wgs__gpu_pass_dispatch_indirect(ctx->gpu, pass, e->pipe, group, k->ring, base + grid_off + 12 * d);
        } else if (e->groups) {
            uint32_t x, y;
            wgs__grid_fold(ctx, e->groups, &x, &y);
            wgs__gpu_pass_dispatch(ctx->gpu, pass, e->pipe, group, x, y);
        }
    }
    k->count = 0;
    return WGS_OK;
}

void wgs__counts_release(wgs_context *ctx) {
    memo_clear(&ctx->counts);
    wgs__gpu_buffer_release(ctx->gpu, ctx->counts.ring);
    free(ctx->counts.list);
    memset(&ctx->counts, 0, sizeof ctx->counts);
}
