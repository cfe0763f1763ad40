/* SPDX-License-Identifier: MIT */
/*
 * wgscan topk: the k best keys of each row of random keys, timed on the GPU (median of
 * timestamp pairs, wall clock beside), checked with --verify against reference/topk.c.
 */
#include "cli.h"
#include "reference.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct topk_run {
    wgs_context *ctx;
    const topk_options *o;
    wgs_topk_plan *plan;
    WGPUBuffer keys_in, keys_out, values_out;
    uint32_t *keys, *keys_got, *values_got;
} topk_run;

static void run_free(topk_run *t) {
    wgs_topk_plan_destroy(t->plan);
    wgs_buffer_release(t->ctx, t->keys_in);
    wgs_buffer_release(t->ctx, t->keys_out);
    wgs_buffer_release(t->ctx, t->values_out);
    free(t->keys), free(t->keys_got), free(t->values_got);
}

static wgs_result topk_encode(void *state, WGPUCommandEncoder enc, WGPUQuerySet qs, uint32_t pair) {
    const topk_run *t = state;
    wgs_topk_args a = {.keys_in = t->keys_in, .keys_out = t->keys_out, .values_out = t->values_out,
                       .n = t->o->n, .rows = (uint32_t)t->o->rows, .k = (uint32_t)t->o->k,
                       .timestamp_query_set = qs, .timestamp_begin_index = 2u * pair,
                       .timestamp_end_index = 2u * pair + 1u};
    return wgs_topk_encode(t->plan, enc, &a);
}

/* Every row against the reference; prints the first difference. 1 when all match. */
static int verify(const topk_run *t, double *cpu_seconds) {
    const topk_options *o = t->o;
    const uint64_t out = o->k * o->rows;
    uint32_t *want = malloc(out * 4), *want_i = malloc(out * 4);
    int ok = want && want_i;
    double t0 = cli_now();
    if (ok)
        ok = ref_topk(o->type, !o->smallest, !o->input_order, t->keys, NULL, 1, o->n, (uint32_t)o->rows,
                      (uint32_t)o->k, want, want_i) == 0;
    *cpu_seconds = cli_now() - t0;
    cli_progress_stage(NULL, 0, 0);
    if (!ok) printf("  verify: FAILED, no host memory for the CPU reference\n");
    for (uint64_t i = 0; ok && i < out; i++) {
        int key_bad = t->keys_got[i] != want[i];
        if (key_bad || (t->values_got && t->values_got[i] != want_i[i])) {
            printf("  verify: FAILED, row %" PRIu64 " place %" PRIu64 ": got %s 0x%08x, want 0x%08x\n", i / o->k,
                   i % o->k, key_bad ? "key" : "index", key_bad ? t->keys_got[i] : t->values_got[i],
                   key_bad ? want[i] : want_i[i]);
            ok = 0;
        }
    }
    free(want), free(want_i);
    return ok;
}

static int run_topk(wgs_context *ctx, const topk_options *o) {
    topk_run t;
    memset(&t, 0, sizeof t);
    t.ctx = ctx;
    t.o = o;
    const uint64_t in = o->n * o->rows, out = o->k * o->rows;
    const int repeat = o->repeat < 1 ? 1 : o->repeat > CLI_MAX_REPEAT ? CLI_MAX_REPEAT : o->repeat;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    wgs_topk_plan_desc pd = {.type = o->type, .select = o->smallest ? WGS_TOPK_SMALLEST : WGS_TOPK_LARGEST,
                             .output = o->input_order ? WGS_TOPK_INPUT_ORDER : WGS_TOPK_SORTED,
                             .payload = o->payload, .capacity = o->n, .k_capacity = (uint32_t)o->k,
                             .row_capacity = (uint32_t)o->rows, .label = "wgscan cli"};
    cli_progress_stage("compiling the pipelines", 0, 0);
    wgs_result r = wgs_topk_plan_create(ctx, &pd, &t.plan);
    if (r != WGS_OK) return run_free(&t), cli_gpu_error(ctx, r, "creating the top-k plan");
    cli_progress_stage(NULL, 0, 0);
    printf("topk: %" PRIu64 " %s of %" PRIu64 " rows of n = %" PRIu64 " %s keys%s, %s, on %s\n", o->k,
           o->smallest ? "smallest" : "largest", o->rows, o->n, wgs_type_name(o->type),
           o->payload == WGS_PAYLOAD_INDEX ? " with indices" : "", o->input_order ? "in input order" : "best first",
           info.device);
    cli_progress_stage("preparing the input", 0, 0);
    t.keys = malloc(in * 4);
    t.keys_got = calloc(out, 4);
    t.values_got = o->payload == WGS_PAYLOAD_INDEX ? calloc(out, 4) : NULL;
    if (!t.keys || !t.keys_got || (o->payload == WGS_PAYLOAD_INDEX && !t.values_got))
        return run_free(&t), cli_usage_error("cannot allocate %" PRIu64 " bytes", 4 * (in + 2 * out));
    ref_fill_random(t.keys, o->type, WGS_OP_ADD, in, o->seed);
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    r = wgs_buffer_create(ctx, in * 4, usage, &t.keys_in);
    if (r == WGS_OK) r = wgs_buffer_create(ctx, out * 4, usage, &t.keys_out);
    if (r == WGS_OK && t.values_got) r = wgs_buffer_create(ctx, out * 4, usage, &t.values_out);
    if (r != WGS_OK) return run_free(&t), cli_gpu_error(ctx, r, "allocating GPU buffers");
    cli_progress_stage("uploading", 0, 0);
    r = wgs_buffer_write(ctx, t.keys_in, 0, t.keys, in * 4);
    if (r == WGS_OK) r = wgs_wait(ctx);
    if (r != WGS_OK) return run_free(&t), cli_gpu_error(ctx, r, "uploading the input");

    cli_timing tm;
    r = cli_time_runs(ctx, repeat, topk_encode, &t, &tm);
    double *wall = tm.wall, *gpu = tm.gpu;
    const int warmups = tm.warmups, have_gpu = tm.have_gpu;
    if (r != WGS_OK) return run_free(&t), cli_gpu_error(ctx, r, "running the top-k");
    cli_progress_stage("downloading", 0, 0);
    r = wgs_buffer_read(ctx, t.keys_out, 0, t.keys_got, out * 4);
    if (r == WGS_OK && t.values_got) r = wgs_buffer_read(ctx, t.values_out, 0, t.values_got, out * 4);
    if (r != WGS_OK) return run_free(&t), cli_gpu_error(ctx, r, "downloading the result");

    cli_progress_stage(NULL, 0, 0);
    printf("  median of %d runs after %d warm-up run%s; rates count rows x n keys per second\n", repeat, warmups,
           warmups == 1 ? "" : "s");
    if (have_gpu) cli_print_time("GPU time (timestamp queries)", cli_median(gpu, repeat), in);
    else printf("  GPU time                           (no timestamp-query feature)\n");
    cli_print_time("wall, top-k only (submit + wait)", cli_median(wall, repeat), in);
    int rc = EXIT_OK;
    if (o->verify) {
        double cpu = 0;
        cli_progress_stage("sorting on the CPU to check", 0, 0);
        int ok = verify(&t, &cpu);
        cli_print_time("CPU reference (qsort), 1 thread", cpu, in);
        if (ok)
            printf("  verify: OK, every row's keys%s equal the first k of a stable CPU sort's\n",
                   t.values_got ? " and indices" : "");
        else rc = EXIT_VERIFY_FAILED;
    }
    if (o->out_path && cli_write_file(o->out_path, t.keys_got, out * 4) != 0) rc = EXIT_USAGE;
    run_free(&t);
    return rc;
}

int cmd_topk(const topk_options *o) {
    if (o->out_path && cli_check_writable(o->out_path) != 0) return EXIT_USAGE;
    wgs_context *ctx = NULL;
    if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
    int rc = run_topk(ctx, o);
    wgs_context_destroy(ctx);
    return rc;
}
