/* SPDX-License-Identifier: MIT */
/*
 * wgscan segmented-sort: random keys (and their indices or random values) sorted within
 * segments of fixed or random lengths (or the CSR offsets of a file), timed on the GPU
 * (median of timestamp pairs, wall clock beside), checked with --verify against
 * reference/segmented_sort.c.
 */
#include "cli.h"
#include "reference.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct segsort_run {
    wgs_context *ctx;
    const segsort_options *o;
    uint64_t n_segments, key_bytes;
    uint32_t value_bytes; /* of what values_out holds: 4 for indices, --value-bytes for --pairs */
    uint32_t *offsets;
    void *keys, *keys_got;
    void *values, *values_got; /* --pairs: the random values; the indices or values back */
    wgs_segmented_sort_plan *plan;
    WGPUBuffer keys_in, keys_out, values_in, values_out, offsets_buf, status;
} segsort_run;

static void run_free(segsort_run *t) {
    wgs_segmented_sort_plan_destroy(t->plan);
    WGPUBuffer all[] = {t->keys_in, t->keys_out, t->values_in, t->values_out, t->offsets_buf, t->status};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(t->ctx, all[i]);
    free(t->offsets), free(t->keys), free(t->keys_got), free(t->values), free(t->values_got);
}

/* --segments L or random:L: CSR offsets of segments of L keys (the last one shorter),
 * or of random lengths 0..2L (seeded); --segments FILE: raw or .npy u32 offsets, as
 * they are (the GPU checks them). Returns an exit status. */
static int make_offsets(segsort_run *t) {
    const segsort_options *o = t->o;
    if (o->seg_path) {
        cli_array a;
        if (cli_array_open(o->seg_path, "--segments", "<u4", 4, &a) != 0) return EXIT_USAGE;
        if (a.count < 1 || a.count - 1 >= (1ull << 31))
            return cli_usage_error("'%s' holds %" PRIu64 " offsets: not 1 to 2^31 u32 offsets (n_segments + 1)",
                                   o->seg_path, a.count);
        if (!(t->offsets = malloc(a.count * 4))) return cli_usage_error("cannot allocate %" PRIu64 " bytes", a.count * 4);
        if (cli_array_read(o->seg_path, &a, 4, t->offsets) != 0) return EXIT_USAGE;
        t->n_segments = a.count - 1;
        return EXIT_OK;
    }
    const uint64_t L = o->seg_len, cap = o->seg_random ? o->n + 1 : o->n / L + 2;
    if (!(t->offsets = malloc((cap + 1) * 4))) return cli_usage_error("out of host memory");
    uint64_t pos = 0, k = 0, state = o->seed * 0x9E3779B97F4A7C15ull + 1;
    t->offsets[0] = 0;
    while (pos < o->n) {
        uint64_t len = L;
        if (o->seg_random) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            len = (state >> 33) % (2 * L + 1);
        }
        if (k + 1 >= cap) len = o->n - pos; /* random: more empties than keys; the rest in one */
        pos = pos + len > o->n ? o->n : pos + len;
        t->offsets[++k] = (uint32_t)pos;
    }
    t->n_segments = k;
    return EXIT_OK;
}

/* One segmented sort into enc (cli_time_runs submits and times it). */
static wgs_result segsort_encode(void *state, WGPUCommandEncoder enc, WGPUQuerySet qs, uint32_t pair) {
    const segsort_run *t = state;
    wgs_segmented_sort_args a = {.keys_in = t->keys_in, .keys_out = t->keys_out, .values_in = t->values_in,
                                 .values_out = t->values_out,
                                 .n = t->o->n, .offsets = t->offsets_buf, .n_segments = t->n_segments,
                                 .status = t->status, .timestamp_query_set = qs,
                                 .timestamp_begin_index = 2u * pair, .timestamp_end_index = 2u * pair + 1u};
    return wgs_segmented_sort_encode(t->plan, enc, &a);
}

/* Every place's key (and index or value) against the reference; prints the first
 * difference. 1 when all match. */
static int verify(const segsort_run *t, double *cpu_seconds) {
    const segsort_options *o = t->o;
    const uint64_t n = o->n, kb = t->key_bytes, vb = t->value_bytes;
    const int pairs = o->payload == WGS_PAYLOAD_BUFFER;
    /* Places in no segment keep what the outputs held: the input's keys and values
     * (uploaded to the outputs too) and zero indices (a new buffer). */
    char *want = malloc(n * kb + 8), *want_v = calloc(n + 1, 8);
    int ok = want && want_v;
    if (want) memcpy(want, t->keys, n * kb);
    if (want_v && pairs) memcpy(want_v, t->values, n * vb);
    double t0 = cli_now();
    if (ok)
        ok = ref_segmented_sort(o->type, o->descending, t->keys, pairs ? t->values : NULL, pairs ? vb : 0,
                                o->payload == WGS_PAYLOAD_INDEX, t->offsets, NULL, n, t->n_segments, want,
                                want_v) == 0;
    *cpu_seconds = cli_now() - t0;
    if (!ok) printf("  verify: FAILED, no host memory for the CPU reference\n");
    for (uint64_t i = 0; ok && i < n; i++) {
        const char *got_k = (const char *)t->keys_got + i * kb;
        const char *got_v = t->values_got ? (const char *)t->values_got + i * vb : NULL;
        int key_bad = memcmp(got_k, want + i * kb, kb) != 0;
        if (key_bad || (got_v && memcmp(got_v, want_v + i * vb, vb) != 0)) {
            uint64_t g = 0, w = 0;
            memcpy(&g, key_bad ? got_k : got_v, key_bad ? kb : vb);
            memcpy(&w, key_bad ? want + i * kb : want_v + i * vb, key_bad ? kb : vb);
            printf("  verify: FAILED, place %" PRIu64 ": got %s 0x%" PRIx64 ", want 0x%" PRIx64 "\n", i,
                   key_bad ? "key" : pairs ? "value" : "index", g, w);
            ok = 0;
        }
    }
    free(want), free(want_v);
    return ok;
}

static int run_segsort(wgs_context *ctx, const segsort_options *o) {
    segsort_run t;
    memset(&t, 0, sizeof t);
    t.ctx = ctx;
    t.o = o;
    t.key_bytes = wgs_type_size(o->type);
    t.value_bytes = o->payload == WGS_PAYLOAD_BUFFER ? o->value_bytes : o->payload == WGS_PAYLOAD_INDEX ? 4 : 0;
    const uint64_t n = o->n, kb = n * t.key_bytes, vb = n * t.value_bytes;
    const int repeat = o->repeat < 1 ? 1 : o->repeat > CLI_MAX_REPEAT ? CLI_MAX_REPEAT : o->repeat;
    int rc = make_offsets(&t);
    if (rc != EXIT_OK) return run_free(&t), rc;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    wgs_segmented_sort_plan_desc pd = {.type = o->type, .order = o->descending ? WGS_SORT_DESCENDING : WGS_SORT_ASCENDING,
                                       .payload = o->payload, .value_bytes = o->value_bytes, .capacity = n,
                                       .segment_capacity = t.n_segments, .path = o->path,
                                       .label = "wgscan cli"};
    cli_progress_stage("compiling the pipelines", 0, 0);
    wgs_result r = wgs_segmented_sort_plan_create(ctx, &pd, &t.plan);
    if (r != WGS_OK) return run_free(&t), cli_gpu_error(ctx, r, "creating the segmented sort plan");
    cli_progress_stage(NULL, 0, 0);
    printf("segmented-sort: n = %" PRIu64 " %s keys%s in %" PRIu64 " segments, %s%s, on %s\n", n,
           wgs_type_name(o->type),
           o->payload == WGS_PAYLOAD_INDEX    ? " with indices"
           : o->payload == WGS_PAYLOAD_BUFFER ? (o->value_bytes == 8 ? " with 8-byte values" : " with u32 values")
                                              : "",
           t.n_segments, o->descending ? "descending" : "ascending",
           o->path == WGS_SEGMENTED_SORT_PATH_SMALL   ? ", the small path alone"
           : o->path == WGS_SEGMENTED_SORT_PATH_LARGE ? ", every segment by the large path"
                                                      : "",
           info.device);
    cli_progress_stage("preparing the input", 0, 0);
    t.keys = malloc(kb + 8);
    t.keys_got = calloc(1, kb + 8);
    t.values = o->payload == WGS_PAYLOAD_BUFFER ? malloc(vb + 8) : NULL;
    t.values_got = vb ? calloc(1, vb + 8) : NULL;
    if (!t.keys || !t.keys_got || (o->payload == WGS_PAYLOAD_BUFFER && !t.values) || (vb && !t.values_got))
        return run_free(&t), cli_usage_error("cannot allocate %" PRIu64 " bytes", 2 * kb + 3 * vb);
    uint64_t state = o->seed * 0x9E3779B97F4A7C15ull + 7;
    for (uint64_t i = 0; i < kb / 4; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        ((uint32_t *)t.keys)[i] = (uint32_t)(state >> 32);
    }
    for (uint64_t i = 0; t.values && i < vb / 4; i++) { /* the same stream, after the keys */
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        ((uint32_t *)t.values)[i] = (uint32_t)(state >> 32);
    }
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    r = wgs_buffer_create(ctx, kb ? kb : 4, usage, &t.keys_in);
    if (r == WGS_OK) r = wgs_buffer_create(ctx, kb ? kb : 4, usage, &t.keys_out);
    if (r == WGS_OK && t.values) r = wgs_buffer_create(ctx, vb ? vb : 4, usage, &t.values_in);
    if (r == WGS_OK && t.values_got) r = wgs_buffer_create(ctx, vb ? vb : 4, usage, &t.values_out);
    if (r == WGS_OK) r = wgs_buffer_create(ctx, (t.n_segments + 1) * 4, usage, &t.offsets_buf);
    if (r == WGS_OK) r = wgs_buffer_create(ctx, 4, usage, &t.status);
    if (r != WGS_OK) return run_free(&t), cli_gpu_error(ctx, r, "allocating GPU buffers");
    cli_progress_stage("uploading", 0, 0);
    if (kb) r = wgs_buffer_write(ctx, t.keys_in, 0, t.keys, kb);
    if (r == WGS_OK && kb) r = wgs_buffer_write(ctx, t.keys_out, 0, t.keys, kb);
    if (r == WGS_OK && t.values && vb) r = wgs_buffer_write(ctx, t.values_in, 0, t.values, vb);
    if (r == WGS_OK && t.values && vb) r = wgs_buffer_write(ctx, t.values_out, 0, t.values, vb);
    if (r == WGS_OK) r = wgs_buffer_write(ctx, t.offsets_buf, 0, t.offsets, (t.n_segments + 1) * 4);
    if (r == WGS_OK) r = wgs_wait(ctx);
    if (r != WGS_OK) return run_free(&t), cli_gpu_error(ctx, r, "uploading the input");

    cli_timing tm;
    r = cli_time_runs(ctx, repeat, segsort_encode, &t, &tm);
    double *wall = tm.wall, *gpu = tm.gpu;
    const int warmups = tm.warmups, have_gpu = tm.have_gpu;
    if (r != WGS_OK) return run_free(&t), cli_gpu_error(ctx, r, "running the segmented sort");
    cli_progress_stage("downloading", 0, 0);
    uint32_t status = 0;
    r = wgs_buffer_read(ctx, t.status, 0, &status, 4);
    if (r == WGS_OK && kb) r = wgs_buffer_read(ctx, t.keys_out, 0, t.keys_got, kb);
    if (r == WGS_OK && t.values_got && vb) r = wgs_buffer_read(ctx, t.values_out, 0, t.values_got, vb);
    if (r != WGS_OK) return run_free(&t), cli_gpu_error(ctx, r, "downloading the result");
    cli_progress_stage(NULL, 0, 0);
    if (status == WGS_ERROR_TOO_LARGE && o->path == WGS_SEGMENTED_SORT_PATH_SMALL) {
        rc = cli_usage_error("--path small: a segment of the offsets is longer than a workgroup's tile of %u keys "
                             "(the GPU's status is %s)", wgs_segmented_sort_plan_tile_size(t.plan),
                             wgs_result_name((wgs_result)status));
        return run_free(&t), rc;
    }
    if (status) {
        rc = cli_usage_error("the offsets of '%s' break the rules of wgscan.h (segmented sort): the GPU's status is %s",
                             o->seg_path ? o->seg_path : "--segments", wgs_result_name((wgs_result)status));
        return run_free(&t), rc;
    }
    printf("  median of %d runs after %d warm-up run%s; rates count n keys per second\n", repeat, warmups,
           warmups == 1 ? "" : "s");
    if (have_gpu) cli_print_time("GPU time (timestamp queries)", cli_median(gpu, repeat), n);
    else printf("  GPU time                           (no timestamp-query feature)\n");
    cli_print_time("wall, run only (submit + wait)", cli_median(wall, repeat), n);
    double cpu = -1;
    int verdict = -1;
    if (o->verify) {
        cli_progress_stage("sorting on the CPU to check", 0, 0);
        int ok = verify(&t, &cpu);
        cli_progress_stage(NULL, 0, 0);
        cli_print_time("CPU reference (qsort), 1 thread", cpu, n);
        if (ok)
            printf("  verify: OK, every segment's keys%s equal a stable CPU sort's\n",
                   o->payload == WGS_PAYLOAD_INDEX ? " and indices" : t.values ? " and values" : "");
        else rc = EXIT_VERIFY_FAILED;
        verdict = ok;
    }
    if (o->out_path && cli_write_file(o->out_path, t.keys_got, kb) != 0) rc = EXIT_USAGE;
    if (o->json_path) {
        cli_report rep = {.command = cli_command_name(CLI_SEGMENTED_SORT), .type_name = wgs_type_name(o->type),
                          .n = n, .repeat = repeat, .warmups = warmups,
                          .gpu_s = have_gpu ? cli_median(gpu, repeat) : -1, .wall_s = cli_median(wall, repeat),
                          .upload_s = -1, .download_s = -1, .cpu_s = cpu, .verified = verdict};
        cli_report_value(&rep, "segments", (double)t.n_segments);
        if (cli_write_report(o->json_path, &rep, &info) != 0) rc = EXIT_USAGE;
    }
    run_free(&t);
    return rc;
}

int cmd_segmented_sort(const segsort_options *o) {
    const char *outputs[] = {o->out_path, o->json_path}, *names[] = {"--out", "--json"};
    if (cli_check_outputs(outputs, names, 2) != 0) return EXIT_USAGE;
    wgs_context *ctx = NULL;
    if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
    int rc = run_segsort(ctx, o);
    wgs_context_destroy(ctx);
    return rc;
}
