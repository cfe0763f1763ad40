/* SPDX-License-Identifier: MIT */
/*
 * particles: the first seed article's stream compaction, frame after frame.
 *
 * A million particles, each with a lifetime. Every frame the clock advances and the
 * particles whose lifetime has run out die: the live ones are compacted (lifetime as
 * key, particle id as payload) into the other of two buffers and counted, and the next
 * frame works on the survivors only. The count is read back each frame, as a renderer
 * would to size its draw. A CPU simulation of the same frames checks every count and,
 * at the end, every surviving particle.
 *
 *   particles [--n N] [--frames F]
 */
#include "example.h"

static const char *example_name = "particles";

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    uint64_t n = 1u << 20, frames_opt = 60;
    const example_option opts[] = {{"--n", &n, 1, 1ull << 30}, {"--frames", &frames_opt, 1, 1000}};
    int rc = example_options(argc, argv,
                             "usage: particles [--n N (particles, default 2^20)] [--frames F (1..1000, default 60)]\n",
                             opts, 2);
    if (rc >= 0) return rc;
    const int frames = (int)frames_opt;
    wgs_context *ctx = NULL;
    if (wgs_context_create(&(wgs_context_desc){0}, &ctx) != WGS_OK) {
        fprintf(stderr, "particles: no WebGPU device\n");
        return 3;
    }
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);

    /* Lifetimes in (0, 6] seconds; frames of 1/10 s: all die within 60 frames. */
    float *life = malloc(n * 4), *cpu_life = malloc(n * 4), *tmp_life = malloc(n * 4);
    uint32_t *id = malloc(n * 4), *cpu_id = malloc(n * 4), *tmp_id = malloc(n * 4);
    double *gpu_ms = malloc(frames * sizeof *gpu_ms), *wall_ms = malloc(frames * sizeof *wall_ms);
    if (!life || !cpu_life || !tmp_life || !id || !cpu_id || !tmp_id || !gpu_ms || !wall_ms) return 2;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (uint64_t i = 0; i < n; i++) {
        life[i] = (float)((example_random(&s) >> 40) % 60000 + 1) * 1e-4f;
        id[i] = (uint32_t)i;
    }
    memcpy(cpu_life, life, n * 4);
    memcpy(cpu_id, id, n * 4);

    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer lives[2], ids[2], count, counted;
    for (int k = 0; k < 2; k++) {
        CHECKED(wgs_buffer_create(ctx, n * 4, usage, &lives[k]));
        CHECKED(wgs_buffer_create(ctx, n * 4, usage, &ids[k]));
    }
    CHECKED(wgs_buffer_create(ctx, 4, usage, &count));
    CHECKED(wgs_buffer_create(ctx, 4, usage, &counted));
    CHECKED(wgs_buffer_write(ctx, lives[0], 0, life, n * 4));
    CHECKED(wgs_buffer_write(ctx, ids[0], 0, id, n * 4));

    wgs_timer *timer = NULL;
    if (info.has_timestamp_query) CHECKED(wgs_timer_create(ctx, (uint32_t)frames, &timer));
    /* One plan for all frames: each encode passes its frame's clock as the predicate's
     * operand. */
    wgs_predicate alive = {.kind = WGS_PREDICATE_GREATER};
    wgs_select_plan_desc sd = {.type = WGS_TYPE_F32, .mode = WGS_SELECT_IF, .predicate = alive,
                               .payload = WGS_PAYLOAD_BUFFER, .capacity = n, .label = "particles"};
    wgs_count_plan_desc cd = {.type = WGS_TYPE_F32, .predicate = alive,
                              .algorithm = WGS_REDUCE_ALGORITHM_ATOMIC, .capacity = n, .label = "particles"};
    wgs_select_plan *sel = NULL;
    wgs_reduce_plan *cnt = NULL;
    CHECKED(wgs_select_plan_create(ctx, &sd, &sel));
    CHECKED(wgs_count_plan_create(ctx, &cd, &cnt));
    uint64_t live = n, cpu_live = n;
    int cur = 0, bad = 0;
    double t_all = example_now();
    for (int f = 0; f < frames && !bad; f++) {
        double clock = 0.1 * (f + 1);
        alive.a = clock;
        double t0 = example_now();
        WGPUCommandEncoder enc;
        CHECKED(wgs_encoder_create(ctx, &enc));
        /* The seed's active-particle counter (two-level atomic count) on this frame's
         * input, then the compaction, which counts too: the two must agree. */
        wgs_reduce_args ca = {.input = lives[cur], .n = live, .output = counted, .predicate = &alive};
        CHECKED(wgs_reduce_encode(cnt, enc, &ca));
        wgs_select_args a = {.input = lives[cur], .payload_in = ids[cur], .output = lives[1 - cur],
                             .payload_out = ids[1 - cur], .count = count, .n = live, .predicate = &alive,
                             .timestamp_query_set = timer ? wgs_timer_query_set(timer) : NULL,
                             .timestamp_begin_index = 2u * (uint32_t)f, .timestamp_end_index = 2u * (uint32_t)f + 1u};
        CHECKED(wgs_select_encode(sel, enc, &a));
        if (f == frames - 1 && timer) CHECKED(wgs_timer_resolve(timer, enc));
        CHECKED(wgs_submit(ctx, enc));
        uint32_t got = 0, got_counter = 0;
        CHECKED(wgs_buffer_read(ctx, count, 0, &got, 4));
        CHECKED(wgs_buffer_read(ctx, counted, 0, &got_counter, 4));
        wall_ms[f] = (example_now() - t0) * 1e3;

        /* The CPU frame: the same test in f32. */
        uint64_t k = 0;
        float c = (float)clock;
        for (uint64_t i = 0; i < cpu_live; i++) {
            if (cpu_life[i] > c) {
                tmp_life[k] = cpu_life[i];
                tmp_id[k++] = cpu_id[i];
            }
        }
        memcpy(cpu_life, tmp_life, k * 4);
        memcpy(cpu_id, tmp_id, k * 4);
        cpu_live = k;
        if (got != cpu_live || got_counter != cpu_live) {
            fprintf(stderr, "particles: frame %d: GPU kept %u (counter %u), CPU %llu\n", f, got, got_counter,
                    (unsigned long long)cpu_live);
            bad = 1;
        }
        live = got;
        cur = 1 - cur;
    }
    t_all = example_now() - t_all;
    wgs_select_plan_destroy(sel);
    wgs_reduce_plan_destroy(cnt);
    if (!bad && live) { /* the survivors, particle by particle */
        CHECKED(wgs_buffer_read(ctx, lives[cur], 0, life, live * 4));
        CHECKED(wgs_buffer_read(ctx, ids[cur], 0, id, live * 4));
        bad = memcmp(life, cpu_life, live * 4) != 0 || memcmp(id, cpu_id, live * 4) != 0;
        if (bad) fprintf(stderr, "particles: the survivors differ from the CPU's\n");
    }
    if (timer && !bad) CHECKED(wgs_timer_read(timer, gpu_ms, (uint32_t)frames));
    printf("particles: %llu particles, %d frames on %s; %llu alive at the end\n", (unsigned long long)n, frames,
           info.device, (unsigned long long)live);
    if (!bad) {
        for (int f = 0; timer && f < frames; f++) gpu_ms[f] *= 1e3;
        printf("  first frame: GPU %.3f ms (compaction of %llu), with counts read back %.3f ms\n",
               timer ? gpu_ms[0] : 0.0, (unsigned long long)n, wall_ms[0]);
        if (timer) qsort(gpu_ms, frames, sizeof *gpu_ms, cmp_double);
        qsort(wall_ms, frames, sizeof *wall_ms, cmp_double);
        printf("  median frame: GPU %.3f ms, with transfers %.3f ms; all frames %.1f ms\n",
               timer ? gpu_ms[frames / 2] : 0.0, wall_ms[frames / 2], t_all * 1e3);
        printf("  verified: every frame's count and the survivors equal the CPU simulation\n");
    }
    wgs_timer_destroy(timer);
    for (int k = 0; k < 2; k++) {
        wgs_buffer_release(ctx, lives[k]);
        wgs_buffer_release(ctx, ids[k]);
    }
    wgs_buffer_release(ctx, count);
    wgs_buffer_release(ctx, counted);
    wgs_context_destroy(ctx);
    free(life), free(cpu_life), free(tmp_life), free(id), free(cpu_id), free(tmp_id), free(gpu_ms), free(wall_ms);
    return bad ? 1 : 0;
}
