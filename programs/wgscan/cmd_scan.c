/* SPDX-License-Identifier: MIT */
/* `wgscan scan`: one scan configuration, timed on the GPU and the CPU. */
#include "cli.h"
#include "reference.h"

#include <stdlib.h>
#include <string.h>

#define MAX_REPEAT CLI_MAX_REPEAT

typedef struct scan_run {
    wgs_context *ctx;
    const scan_options *o;
    wgs_scan_plan *plan;
    WGPUBuffer in, out, count; /* count: --gpu-count's buffer */
    void *host_in, *host_out;
} scan_run;

static void run_free(scan_run *s) {
    wgs_buffer_release(s->ctx, s->in);
    wgs_buffer_release(s->ctx, s->out);
    wgs_buffer_release(s->ctx, s->count);
    wgs_scan_plan_destroy(s->plan);
    free(s->host_in);
    free(s->host_out);
}

/* One scan into enc (cli_time_runs submits and times it). */
static wgs_result scan_encode(void *state, WGPUCommandEncoder enc, WGPUQuerySet qs, uint32_t pair) {
    const scan_run *s = state;
    wgs_scan_args a = {.input = s->in, .output = s->out, .n = s->o->n, .n_buffer = s->count,
                       .timestamp_query_set = qs, .timestamp_begin_index = 2u * pair,
                       .timestamp_end_index = 2u * pair + 1u};
    return wgs_scan_encode(s->plan, enc, &a);
}

int run_scan(wgs_context *ctx, const scan_options *o) {
    scan_run s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.o = o;
    const size_t es = wgs_type_size(o->type);
    const uint64_t n = o->n, bytes = n * es, padded = (bytes + 3) & ~3ull;
    /* --gpu-count: the scan works on the first m elements, the count read on the GPU. */
    const uint64_t m = o->have_gpu_count && o->gpu_count < n ? o->gpu_count : n;
    const int repeat = o->repeat < 1 ? 1 : o->repeat > MAX_REPEAT ? MAX_REPEAT : o->repeat;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    wgs_scan_plan_desc pd = {.type = o->type, .op = o->op,
                             .kind = o->inclusive ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                             .algorithm = o->algorithm, .capacity = n, .label = "wgscan cli",
                             .deterministic = o->deterministic};
    cli_progress_stage("compiling the pipelines", 0, 0);
    wgs_result r = wgs_scan_plan_create(ctx, &pd, &s.plan);
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "creating the scan plan");
    cli_progress_stage(NULL, 0, 0);
    printf("scan: n = %llu, %s %s, %s, %s, on %s\n", (unsigned long long)n,
           wgs_type_name(o->type), wgs_op_name(o->op), o->inclusive ? "inclusive" : "exclusive",
           cli_algorithm_name(wgs_scan_plan_algorithm(s.plan, n, 0)), info.device);
    if (o->have_gpu_count)
        printf("  the count from a GPU buffer: %llu (the first %llu elements)\n", (unsigned long long)o->gpu_count,
               (unsigned long long)m);

    /* The input is read only now that the plan holds n: a file too large for the device
     * is refused by the plan before a byte of it is read. The padded tail of an odd f16
     * array is zero. */
    cli_progress_stage("preparing the input", 0, 0);
    s.host_in = calloc(1, padded + 4);
    if (!s.host_in) return run_free(&s), cli_usage_error("cannot allocate %llu bytes", (unsigned long long)padded);
    if (o->in_path) {
        if (cli_read_input_at(o->in_path, o->in_offset, s.host_in, bytes) != 0) return run_free(&s), EXIT_USAGE;
    } else if (o->uniform.on) {
        cli_fill_uniform(s.host_in, o->type, n, o->seed, &o->uniform);
    } else {
        ref_fill_random(s.host_in, o->type, o->op, n, o->seed);
    }
    s.host_out = calloc(1, padded + 4);
    if (!s.host_out) return run_free(&s), cli_usage_error("cannot allocate %llu bytes", (unsigned long long)padded);
    if (n == 0) {
        cli_progress_stage(NULL, 0, 0);
        printf("  n = 0: nothing to scan\n");
        int rc = o->out_path && cli_array_write(o->out_path, cli_npy_dtype(o->type), es, s.host_out, 0) ? EXIT_USAGE
                                                                                                            : EXIT_OK;
        cli_report rep = {.command = "scan", .type_name = wgs_type_name(o->type), .gpu_s = -1, .wall_s = -1,
                          .upload_s = -1, .download_s = -1, .cpu_s = -1, .verified = o->verify ? 1 : -1};
        if (o->json_path && cli_write_report(o->json_path, &rep, &info) != 0) rc = EXIT_USAGE;
        run_free(&s);
        return rc;
    }

    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    r = wgs_buffer_create(ctx, padded, usage, &s.in);
    if (r == WGS_OK) r = wgs_buffer_create(ctx, padded, usage, &s.out);
    if (r == WGS_OK && o->have_gpu_count) {
        /* The output starts as 0xA5 bytes, so that --verify sees what the scan wrote. */
        const uint32_t c = (uint32_t)o->gpu_count;
        memset(s.host_out, 0xA5, padded);
        r = wgs_buffer_create(ctx, 4, usage, &s.count);
        if (r == WGS_OK) r = wgs_buffer_write(ctx, s.count, 0, &c, 4);
        if (r == WGS_OK) r = wgs_buffer_write(ctx, s.out, 0, s.host_out, padded);
    }
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "allocating GPU buffers");

    /* Upload: write then wait, so the time is the transfer's. The padded tail of an
     * f16 array is host memory we own (allocated with room). */
    cli_progress_stage("uploading", 0, 0);
    double t0 = cli_now();
    r = wgs_buffer_write(ctx, s.in, 0, s.host_in, padded);
    if (r == WGS_OK) r = wgs_wait(ctx);
    double upload = cli_now() - t0;
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "uploading the input");

    cli_timing tm;
    r = cli_time_runs(ctx, repeat, scan_encode, &s, &tm);
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "running the scan");
    double *wall = tm.wall, *gpu = tm.gpu;
    const int warmups = tm.warmups, have_gpu = tm.have_gpu;

    cli_progress_stage("downloading", 0, 0);
    t0 = cli_now();
    r = wgs_buffer_read(ctx, s.out, 0, s.host_out, bytes);
    double download = cli_now() - t0;
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "downloading the result");

    /* CPU baselines on the same data; their output is thrown away. */
    cli_progress_stage("timing the CPU", 0, 0);
    void *cpu_out = malloc(padded + 4);
    double cpu1 = 0, cpuN = 0;
    if (cpu_out) {
        memset(cpu_out, 0, padded); /* fault the pages in before timing */
        t0 = cli_now();
        ref_scan(s.host_in, cpu_out, o->type, o->op, o->inclusive, n);
        cpu1 = cli_now() - t0;
        t0 = cli_now();
        ref_scan_parallel(s.host_in, cpu_out, o->type, o->op, o->inclusive, n, 0);
        cpuN = cli_now() - t0;
        free(cpu_out);
    }

    double scan_wall = cli_median(wall, repeat), gpu_median = have_gpu ? cli_median(gpu, repeat) : -1;
    cli_progress_stage(NULL, 0, 0);
    printf("  median of %d runs after %d warm-up run%s; rates count n elements per second\n", repeat, warmups,
           warmups == 1 ? "" : "s");
    if (have_gpu) {
        double g = gpu_median;
        cli_print_time("GPU time (timestamp queries)", g, n);
        char rate[32];
        printf("  %-34s %s (n read + n written)\n", "effective bandwidth",
               cli_format_rate(rate, sizeof rate, 2.0 * (double)bytes / g, "B/s"));
    } else {
        printf("  GPU time                           (no timestamp-query feature)\n");
    }
    cli_print_time("wall, scan only (submit + wait)", scan_wall, n);
    cli_print_time("wall, upload", upload, n);
    cli_print_time("wall, download", download, n);
    cli_print_time("wall, with transfers (sum)", upload + scan_wall + download, n);
    cli_print_time("CPU, 1 thread", cpu1, n);
    cli_print_time("CPU, all threads", cpuN, n);

    int rc = EXIT_OK;
    uint64_t past = 0; /* bytes past the GPU count that were written */
    for (uint64_t i = m * es; o->verify && o->have_gpu_count && i < bytes; i++) past += ((unsigned char *)s.host_out)[i] != 0xA5;
    if (o->verify && past) {
        printf("  verify: FAILED, %llu bytes past the count of %llu were written\n", (unsigned long long)past,
               (unsigned long long)m);
        rc = EXIT_VERIFY_FAILED;
    } else if (o->verify) {
        ref_check c = ref_verify(s.host_in, s.host_out, o->type, o->op, o->inclusive, m);
        if (c.mismatches) {
            printf("  verify: FAILED, %llu of %llu elements differ; first at %llu: got %.9g, want %.9g\n",
                   (unsigned long long)c.mismatches, (unsigned long long)m,
                   (unsigned long long)c.first_bad, c.got, c.want);
            rc = EXIT_VERIFY_FAILED;
        } else if ((o->type == WGS_TYPE_F32 || o->type == WGS_TYPE_F16) && o->op == WGS_OP_ADD) {
            printf("  verify: OK, all %llu elements within the float bound (worst error %.3f of it)\n",
                   (unsigned long long)m, c.worst_ratio);
        } else {
            printf("  verify: OK, all %llu elements equal the CPU reference\n", (unsigned long long)m);
        }
        if (o->have_gpu_count) printf("  verify: nothing written past the count\n");
    }
    const int verdict = o->verify ? rc == EXIT_OK : -1;
    if (o->out_path && cli_array_write(o->out_path, cli_npy_dtype(o->type), es, s.host_out, n) != 0) rc = EXIT_USAGE;
    if (o->json_path) {
        cli_report rep = {.command = "scan", .type_name = wgs_type_name(o->type), .n = n, .repeat = repeat,
                          .warmups = warmups, .gpu_s = gpu_median, .wall_s = scan_wall, .upload_s = upload,
                          .download_s = download, .cpu_s = cpu1, .verified = verdict};
        cli_report_value(&rep, "cpu_all_threads_ms", cpuN * 1e3);
        if (cli_write_report(o->json_path, &rep, &info) != 0) rc = EXIT_USAGE;
    }
    run_free(&s);
    return rc;
}

int cmd_scan(const scan_options *opt) {
    scan_options o = *opt;
    if (o.operator_path) {
        if (o.out_path && cli_check_writable(o.out_path) != 0) return EXIT_USAGE;
        wgs_context *ctx = NULL;
        if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
        int rc = run_scan_operator(ctx, &o);
        wgs_context_destroy(ctx);
        return rc;
    }
    if (o.in_path) {
        /* The size only: the contents are read once the plan is made for them. */
        cli_array a;
        if (cli_array_open(o.in_path, "--in", cli_npy_dtype(o.type), wgs_type_size(o.type), &a) != 0) return EXIT_USAGE;
        if (a.count > CLI_MAX_N)
            return cli_usage_error("'%s' is too large: %llu elements, at most 2^40", o.in_path,
                                   (unsigned long long)a.count);
        if (o.have_n && o.n != a.count)
            return cli_usage_error("--n %llu disagrees with '%s' (%llu elements)", (unsigned long long)o.n,
                                   o.in_path, (unsigned long long)a.count);
        o.n = a.count, o.in_offset = a.offset;
    }
    const char *outputs[] = {o.out_path, o.json_path}, *names[] = {"--out", "--json"};
    if (cli_check_outputs(outputs, names, 2) != 0) return EXIT_USAGE;
    wgs_context *ctx = NULL;
    if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
    int rc = run_scan(ctx, &o);
    wgs_context_destroy(ctx);
    return rc;
}
