/* SPDX-License-Identifier: MIT */
/*
 * bindings.c: the bind groups of a context, kept from encode to encode. A frame loop
 * encodes the same plans on the same buffers again and again; every dispatch's bind
 * group is then the one it had last time, and creating it anew was most of an
 * encode's host time (a WebGPU call of 11-15 us under Node, 16-24 for a sort).
 *
 * A bind group is found by its pipeline and its exact bindings: slot, buffer
 * identity, offset and size. The identity (wgs__gpu_buffer_id) cannot alias: a cached
 * group holds its buffers (wgs__gpu_buffer_hold), so no buffer created later takes a
 * cached one's handle, and in the browser identities are serial numbers of the
 * GPUBuffer objects. Pipelines live as long as the context (kernels.c's cache), so
 * their handles cannot alias either. Parameter records reach the kernels at ring
 * offsets that repeat when the records do (dispatch.c), so a repeated encode binds
 * what it bound before.
 *
 * The cache is bounded (WGS_BIND_SETS sets of WGS_BIND_WAYS groups, the least recently
 * used one replaced) and emptied when a plan is destroyed, so that a destroyed plan's
 * scratch is not kept alive by its groups; a user's buffer stays held until its group
 * is replaced, a plan is destroyed or the context is.
 */
#include "internal.h"

#include <string.h>

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

static void entry_clear(wgs_context *ctx, wgs__bind_entry *e) {
    if (!e->group) return;
    wgs__gpu_bind_group_release(ctx->gpu, e->group);
    for (uint32_t i = 0; i < e->nb; i++) wgs__gpu_buffer_unhold(ctx->gpu, e->b[i].buffer);
    memset(e, 0, sizeof *e);
}

WGPUBindGroup wgs__bind_group(wgs_context *ctx, WGPUComputePipeline pipe, const gpu_binding *b, uint32_t nb) {
    uint64_t id[WGS_BIND_MAX];
    if (nb > WGS_BIND_MAX) return NULL;
    uint64_t h = mix(0, (uint64_t)(uintptr_t)pipe);
    for (uint32_t i = 0; i < nb; i++) {
        id[i] = wgs__gpu_buffer_id(ctx->gpu, b[i].buffer);
        h = mix(mix(mix(mix(h, b[i].binding), id[i]), b[i].offset), b[i].size);
    }
    wgs__bind_entry *set = ctx->bind_cache + (h % WGS_BIND_SETS) * WGS_BIND_WAYS;
    wgs__bind_entry *victim = set;
    ctx->bind_clock++;
    for (int w = 0; w < WGS_BIND_WAYS; w++) {
        wgs__bind_entry *e = &set[w];
        if (e->group && e->hash == h && e->pipe == pipe && e->nb == nb) {
            uint32_t i = 0;
            for (; i < nb; i++)
                if (e->id[i] != id[i] || e->b[i].binding != b[i].binding || e->b[i].offset != b[i].offset ||
                    e->b[i].size != b[i].size)
                    break;
            if (i == nb) {
                e->used = ctx->bind_clock;
                return e->group;
            }
        }
    }
    for (int w = 1; w < WGS_BIND_WAYS && victim->group; w++) /* an empty way, else the least recently used */
        if (!set[w].group || set[w].used < victim->used) victim = &set[w];
    WGPUBindGroup group = wgs__gpu_bind_group_create(ctx->gpu, pipe, b, nb);
    ctx->bind_groups_created++;
    if (!group) return NULL;
    entry_clear(ctx, victim);
    victim->hash = h;
    victim->pipe = pipe;
    victim->nb = nb;
    victim->group = group;
    victim->used = ctx->bind_clock;
    for (uint32_t i = 0; i < nb; i++) {
        victim->b[i] = b[i];
        victim->id[i] = id[i];
        wgs__gpu_buffer_hold(ctx->gpu, b[i].buffer);
    }
    return group;
}

void wgs__bind_cache_clear(wgs_context *ctx) {
    for (size_t i = 0; i < WGS_BIND_SETS * WGS_BIND_WAYS; i++) entry_clear(ctx, &ctx->bind_cache[i]);
}

void wgs__plan_gone(wgs_context *ctx) {
    ctx->live_plans--;
    wgs__bind_cache_clear(ctx);
}
