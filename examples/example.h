/* SPDX-License-Identifier: MIT */
/*
 * example.h: what the example programs share: failing loudly on a wgscan error, a
 * clock and a small random generator. Each example is otherwise a plain user of
 * wgscan.h.
 */
#ifndef WGSCAN_EXAMPLE_H
#define WGSCAN_EXAMPLE_H

#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "wgscan.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Evaluates a wgscan call; on failure prints the call and the context's message and
 * returns 3 (GPU error) from the enclosing function. Needs `ctx` in scope. */
#define CHECKED(call)                                                                         \
    do {                                                                                      \
        wgs_result r_ = (call);                                                               \
        if (r_ != WGS_OK) {                                                                   \
            fprintf(stderr, "%s: %s failed: %s\n", example_name, #call, wgs_context_last_error(ctx)); \
            return 3;                                                                         \
        }                                                                                     \
    } while (0)

static inline double example_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* xorshift64: reproducible inputs without libc's rand. */
static inline uint64_t example_random(uint64_t *state) {
    uint64_t s = *state;
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return *state = s;
}

/* The examples' options: `--name value` with a whole number in [min, max], and --help.
 * Anything else (an unknown option, a missing or malformed value) is refused, so a
 * mistyped option never runs the full workload. Returns -1 to go on, else the exit
 * status: 0 after --help, 2 after a refusal (the usage printed). */
typedef struct example_option {
    const char *name; /* "--n" */
    uint64_t *value;
    uint64_t min, max;
} example_option;

static inline int example_options(int argc, char **argv, const char *usage, const example_option *opts,
                                  int count) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return printf("%s", usage), 0;
        const example_option *o = NULL;
        for (int k = 0; k < count; k++)
            if (!strcmp(argv[i], opts[k].name)) o = &opts[k];
        if (!o) return fprintf(stderr, "unknown option '%s'\n%s", argv[i], usage), 2;
        const char *v = i + 1 < argc ? argv[++i] : "";
        uint64_t x = 0;
        int ok = *v != 0;
        for (const char *c = v; ok && *c; c++) {
            ok = *c >= '0' && *c <= '9' && x <= (UINT64_MAX - (uint64_t)(*c - '0')) / 10;
            x = x * 10 + (uint64_t)(*c - '0');
        }
        if (!ok || x < o->min || x > o->max)
            return fprintf(stderr, "bad %s '%s' (%llu..%llu)\n%s", o->name, v, (unsigned long long)o->min,
                           (unsigned long long)o->max, usage), 2;
        *o->value = x;
    }
    return -1;
}

/* A compute kernel of the example's own, recorded into the same command encoder as
 * wgscan's passes. Its WebGPU calls go through the context's proc table
 * (wgs_context_get_proc), so an example links no WebGPU runtime. One pipeline from WGSL
 * whose entry point is `main` and whose bindings 0 .. count - 1 of group 0 are whole
 * storage buffers, dispatched as `groups` workgroups. */
typedef WGPUShaderModule (*example_pfn_create_shader)(WGPUDevice, const WGPUShaderModuleDescriptor *);
typedef WGPUComputePipeline (*example_pfn_create_pipeline)(WGPUDevice, const WGPUComputePipelineDescriptor *);
typedef WGPUBindGroupLayout (*example_pfn_get_layout)(WGPUComputePipeline, uint32_t);
typedef WGPUBindGroup (*example_pfn_create_bind_group)(WGPUDevice, const WGPUBindGroupDescriptor *);
typedef WGPUComputePassEncoder (*example_pfn_begin_pass)(WGPUCommandEncoder, const WGPUComputePassDescriptor *);
typedef void (*example_pfn_set_pipeline)(WGPUComputePassEncoder, WGPUComputePipeline);
typedef void (*example_pfn_set_bind_group)(WGPUComputePassEncoder, uint32_t, WGPUBindGroup, size_t,
                                           const uint32_t *);
typedef void (*example_pfn_dispatch)(WGPUComputePassEncoder, uint32_t, uint32_t, uint32_t);
typedef void (*example_pfn_pass_end)(WGPUComputePassEncoder);
typedef void (*example_pfn_release)(void *);

#define EXAMPLE_KERNEL_BUFFERS_MAX 8

typedef struct example_kernel {
    const char *label;
    WGPUComputePipeline pipeline;
    WGPUBindGroup bind_group;
    uint32_t groups;
    example_pfn_begin_pass begin_pass;
    example_pfn_set_pipeline set_pipeline;
    example_pfn_set_bind_group set_bind_group;
    example_pfn_dispatch dispatch;
    example_pfn_pass_end pass_end;
    example_pfn_release release_pass, release_bind_group, release_pipeline;
} example_kernel;

#define EXAMPLE_PROC(type, name) ((type)wgs_context_get_proc(ctx, name))

/* Returns 1, or 0 when a call or the compilation failed. */
static inline int example_kernel_create(wgs_context *ctx, example_kernel *k, const char *label, const char *wgsl,
                                        const WGPUBuffer *buffers, uint32_t count, uint32_t groups) {
    WGPUDevice device = wgs_context_device(ctx);
    example_pfn_release release_shader = EXAMPLE_PROC(example_pfn_release, "wgpuShaderModuleRelease");
    example_pfn_release release_layout = EXAMPLE_PROC(example_pfn_release, "wgpuBindGroupLayoutRelease");
    example_pfn_create_shader create_shader = EXAMPLE_PROC(example_pfn_create_shader, "wgpuDeviceCreateShaderModule");
    example_pfn_create_pipeline create_pipeline =
        EXAMPLE_PROC(example_pfn_create_pipeline, "wgpuDeviceCreateComputePipeline");
    example_pfn_get_layout get_layout = EXAMPLE_PROC(example_pfn_get_layout, "wgpuComputePipelineGetBindGroupLayout");
    example_pfn_create_bind_group create_bind_group =
        EXAMPLE_PROC(example_pfn_create_bind_group, "wgpuDeviceCreateBindGroup");
    k->label = label;
    k->groups = groups;
    k->begin_pass = EXAMPLE_PROC(example_pfn_begin_pass, "wgpuCommandEncoderBeginComputePass");
    k->set_pipeline = EXAMPLE_PROC(example_pfn_set_pipeline, "wgpuComputePassEncoderSetPipeline");
    k->set_bind_group = EXAMPLE_PROC(example_pfn_set_bind_group, "wgpuComputePassEncoderSetBindGroup");
    k->dispatch = EXAMPLE_PROC(example_pfn_dispatch, "wgpuComputePassEncoderDispatchWorkgroups");
    k->pass_end = EXAMPLE_PROC(example_pfn_pass_end, "wgpuComputePassEncoderEnd");
    k->release_pass = EXAMPLE_PROC(example_pfn_release, "wgpuComputePassEncoderRelease");
    k->release_bind_group = EXAMPLE_PROC(example_pfn_release, "wgpuBindGroupRelease");
    k->release_pipeline = EXAMPLE_PROC(example_pfn_release, "wgpuComputePipelineRelease");
    if (!release_shader || !release_layout || !create_shader || !create_pipeline || !get_layout ||
        !create_bind_group || !k->begin_pass || !k->set_pipeline || !k->set_bind_group || !k->dispatch ||
        !k->pass_end || !k->release_pass || !k->release_bind_group || !k->release_pipeline ||
        count > EXAMPLE_KERNEL_BUFFERS_MAX)
        return 0;
    WGPUShaderSourceWGSL source = {.chain = {.sType = WGPUSType_ShaderSourceWGSL}, .code = {wgsl, WGPU_STRLEN}};
    WGPUShaderModuleDescriptor sd = {.nextInChain = &source.chain, .label = {label, WGPU_STRLEN}};
    WGPUShaderModule module = create_shader(device, &sd);
    if (!module) return 0;
    WGPUComputePipelineDescriptor pd = {.label = {label, WGPU_STRLEN},
                                        .compute = {.module = module, .entryPoint = {"main", WGPU_STRLEN}}};
    k->pipeline = create_pipeline(device, &pd);
    release_shader(module);
    if (!k->pipeline) return 0;
    WGPUBindGroupLayout layout = get_layout(k->pipeline, 0);
    if (!layout) return 0;
    WGPUBindGroupEntry e[EXAMPLE_KERNEL_BUFFERS_MAX];
    for (uint32_t i = 0; i < count; i++)
        e[i] = (WGPUBindGroupEntry){.binding = i, .buffer = buffers[i], .size = WGPU_WHOLE_SIZE};
    WGPUBindGroupDescriptor bd = {.label = {label, WGPU_STRLEN}, .layout = layout, .entryCount = count, .entries = e};
    k->bind_group = create_bind_group(device, &bd);
    release_layout(layout);
    return k->bind_group != NULL;
}

/* Records the kernel into the caller's encoder, timed when query_set is given. */
static inline void example_kernel_encode(const example_kernel *k, WGPUCommandEncoder enc, WGPUQuerySet query_set,
                                         uint32_t begin) {
    WGPUPassTimestampWrites tw = {.querySet = query_set, .beginningOfPassWriteIndex = begin,
                                  .endOfPassWriteIndex = begin + 1};
    WGPUComputePassDescriptor d = {.label = {k->label, WGPU_STRLEN}, .timestampWrites = query_set ? &tw : NULL};
    WGPUComputePassEncoder pass = k->begin_pass(enc, &d);
    k->set_pipeline(pass, k->pipeline);
    k->set_bind_group(pass, 0, k->bind_group, 0, NULL);
    k->dispatch(pass, k->groups, 1, 1);
    k->pass_end(pass);
    k->release_pass(pass);
}

static inline void example_kernel_destroy(example_kernel *k) {
    if (k->bind_group) k->release_bind_group(k->bind_group);
    if (k->pipeline) k->release_pipeline(k->pipeline);
}

#endif
