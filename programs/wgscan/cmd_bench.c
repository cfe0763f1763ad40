/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* strtok_r, gmtime */
/*
 * `wgscan bench`: a benchmark, not a test. Sweeps n over powers of two for each series
 * (type and operator) and algorithm; GPU time from timestamp queries (Dawn's
 * quantization is off), the median of many runs after warm-up, inputs and outputs
 * rotated through pools larger than the GPU's caches so no run finds its data cached,
 * and a WGSL copy of the same bytes timed in the same run as the ceiling.
 * Writes a table, JSON, CSV and an SVG chart (chart.c) of each series' speed against a
 * copy of as many bytes.
 */
#include "chart.h"
#include "cli.h"
#include "wgscan_commit.h" /* WGSCAN_GIT_DESCRIBE, written at each build */
#include "reference.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#define MAX_RUNS CLI_BENCH_MAX_RUNS
#define BATCH 10                   /* runs recorded per submit */
#define POOL_BYTES (512ull << 20)  /* the largest rotation pool: ten times an H200's 50 MB L2 */

typedef bench_series series;

typedef struct point {
    series s;
    wgs_scan_algorithm algo;
    char label[24]; /* the algorithm column: a scan algorithm or a primitive */
    char title[80]; /* what it is, for the chart's legend: "sort u32 keys + u32 values" */
    const char *op; /* the op column: the operator, or "none" where the primitive has none */
    uint64_t n;
    double bytes; /* what the operation must move at least: GB/s counts these */
    double median, min, max, copy_median;
    uint64_t copy_bytes;    /* what the copy beside it copied (it reads and writes them) */
    double copy_over_first; /* the copy beside it against the run's first copy of about those bytes, a byte's time */
    int pace_changed;       /* that ratio off by more than a quarter: the device changed pace */
} point;

typedef struct bench {
    wgs_context *ctx;
    wgs_context_info info;
    int runs, warmup;
    double point_warm_s; /* time_runs' warm-up of each point's own work */
    WGPUBuffer in_pool, out_pool;
    uint64_t pool_bytes;
    wgs_timer *timer;
    /* The run's first copy medians, one for each size no earlier one lay within an eighth
     * of (copy_check compares later copies with them). */
    struct {
        uint64_t bytes;
        double median;
    } copy_first[256];
    int copy_firsts;
} bench;

/* Records run i (timestamp pair i) into enc. */
typedef wgs_result (*record_fn)(bench *b, void *user, WGPUCommandEncoder enc, int run);

/* Runs 0 .. total - 1, BATCH a submit; their GPU times into t. */
static wgs_result run_batches(bench *b, record_fn record, void *user, int total, double *t) {
    for (int first = 0; first < total; first += BATCH) {
        WGPUCommandEncoder enc;
        wgs_result r = wgs_encoder_create(b->ctx, &enc);
        for (int i = first; r == WGS_OK && i < total && i < first + BATCH; i++) r = record(b, user, enc, i);
        if (r == WGS_OK && first + BATCH >= total) r = wgs_timer_resolve(b->timer, enc);
        wgs_result s = wgs_submit(b->ctx, enc);
        if (r == WGS_OK) r = s;
        if (r != WGS_OK) return r;
    }
    return wgs_timer_read(b->timer, t, (uint32_t)total);
}

/* Times `runs + warmup` recordings of `record`; returns the median, minimum and maximum
 * of the timed runs in seconds (max may be NULL). A point's own work first runs for
 * `warm_s` (point_warm_s; 0 for the copy timed right after it, and for warm_up's
 * calls, which keep the GPU busy anyway): a GPU lowers its clocks in the host's pauses
 * between points (making data, compiling plans), and compute-bound points came out up
 * to five times slow (H100, 2^24, two runs of one bench in one process: a segmented
 * sort 7.3 and 1.5 ms, a sort of pairs 2.66 and 1.29; memory-bound points within 1%). */
static wgs_result time_runs(bench *b, record_fn record, void *user, double warm_s, double *median,
                            double *min, double *max) {
    int total = b->runs + b->warmup;
    double t[MAX_RUNS + 64];
    wgs_result r = WGS_OK;
    for (double t0 = cli_now(); r == WGS_OK && cli_now() - t0 < warm_s;)
        r = run_batches(b, record, user, total, t);
    if (r == WGS_OK) r = run_batches(b, record, user, total, t);
    if (r != WGS_OK) return r;
    double lo = 1e30, hi = 0;
    for (int i = b->warmup; i < total; i++) {
        lo = t[i] < lo ? t[i] : lo;
        hi = t[i] > hi ? t[i] : hi;
    }
    *min = lo;
    if (max) *max = hi;
    *median = cli_median(t + b->warmup, b->runs);
    return WGS_OK;
}

typedef struct scan_job {
    wgs_scan_plan *plan;
    uint64_t n, slot_bytes, slots;
    size_t es;
} scan_job;

/* Run i reads slot i and writes slot i + 1 of the pools: consecutive runs touch
 * different memory, and the pools are far larger than any cache. */
static wgs_result record_scan(bench *b, void *user, WGPUCommandEncoder enc, int run) {
    scan_job *j = user;
    uint64_t in_slot = (uint64_t)run % j->slots, out_slot = ((uint64_t)run + 1) % j->slots;
    wgs_scan_args a = {.input = b->in_pool, .input_offset = in_slot * j->slot_bytes, .output = b->out_pool,
                       .output_offset = out_slot * j->slot_bytes, .n = j->n,
                       .timestamp_query_set = wgs_timer_query_set(b->timer),
                       .timestamp_begin_index = 2u * (uint32_t)run,
                       .timestamp_end_index = 2u * (uint32_t)run + 1u};
    return wgs_scan_encode(j->plan, enc, &a);
}

/* The bytes record_copy copies: whole 16-byte words. */
static uint64_t copy_size(const scan_job *j) { return (j->n * j->es + 15) & ~15ull; }

static wgs_result record_copy(bench *b, void *user, WGPUCommandEncoder enc, int run) {
    scan_job *j = user;
    uint64_t in_slot = (uint64_t)run % j->slots, out_slot = ((uint64_t)run + 1) % j->slots;
    uint64_t bytes = copy_size(j);
    wgs_copy_args a = {.src = b->in_pool, .src_offset = in_slot * j->slot_bytes, .dst = b->out_pool,
                       .dst_offset = out_slot * j->slot_bytes, .bytes = bytes,
                       .timestamp_query_set = wgs_timer_query_set(b->timer),
                       .timestamp_begin_index = 2u * (uint32_t)run,
                       .timestamp_end_index = 2u * (uint32_t)run + 1u};
    return wgs_copy_encode(b->ctx, enc, &a);
}

static void job_layout(const bench *b, uint64_t n, size_t es, scan_job *j) {
    uint64_t align = b->info.min_storage_offset_alignment < 256 ? 256 : b->info.min_storage_offset_alignment;
    j->n = n;
    j->es = es;
    j->slot_bytes = ((n * (es < 4 ? 4 : es) + 15) / align + 1) * align;
    j->slots = b->pool_bytes / j->slot_bytes;
    if (j->slots < 2) j->slots = 1;
}

/* An output file: opened for writing (reason printed when it cannot be). */
static FILE *open_out(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) cli_usage_error("cannot write '%s': %s", path, strerror(errno));
    return f;
}

/* Closes an output file; 0 when every byte reached it, else -1 with the reason printed
 * (a full disk shows only here). Prints "wrote" for the files written. */
static int close_out(FILE *f, const char *path) {
    int bad = ferror(f) || fflush(f) != 0;
    int e = errno;
    if (fclose(f) != 0 && !bad) bad = 1, e = errno;
    if (bad) return cli_usage_error("cannot write '%s': %s", path, e ? strerror(e) : "write error"), -1;
    printf("wrote %s\n", path);
    return 0;
}

/* Returns 0 when all three files were written. */
static int write_outputs(const bench *b, const point *pts, int np, const char *json, const char *csv,
                         const char *svg, const char *command) {
    int failed = 0;
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now)); /* ISO 8601, UTC */
    FILE *f;
    if (!(f = open_out(csv))) failed = 1;
    else {
        fprintf(f, "type,op,algorithm,n,median_us,min_us,gelem_per_s,gb_per_s,copy_us,time_over_copy,max_us,"
                   "copy_over_first,pace_changed,copy_bytes\n");
        for (int i = 0; i < np; i++) {
            const point *p = &pts[i];
            double bytes = p->bytes;
            fprintf(f, "%s,%s,%s,%llu,%.3f,%.3f,%.4f,%.2f,%.3f,%.4f,%.3f,%.3f,%d,%llu\n", wgs_type_name(p->s.type),
                    p->op, p->label, (unsigned long long)p->n,
                    p->median * 1e6, p->min * 1e6, (double)p->n / p->median * 1e-9, bytes / p->median * 1e-9,
                    p->copy_median * 1e6, p->median / p->copy_median, p->max * 1e6, p->copy_over_first,
                    p->pace_changed, (unsigned long long)p->copy_bytes);
        }
        if (close_out(f, csv)) failed = 1;
    }
    if (!(f = open_out(json))) failed = 1;
    else {
        /* Strings from the command line and the driver go through cli_json_string. */
        /* Provenance: what ran (version, commit, command line), where (adapter, driver
         * backend, the runtime loaded) and when. */
        const char *keys[] = {"date", "command", "wgscan_version", "commit", "device", "vendor", "architecture",
                              "description", "backend", "adapter_type", "runtime"};
        const char *values[] = {date, command ? command : "", wgs_version_string(), WGSCAN_GIT_DESCRIBE,
                                b->info.device, b->info.vendor, b->info.architecture, b->info.description,
                                b->info.backend, b->info.adapter_type, b->info.runtime_path};
        fputs("{\n", f);
        for (int k = 0; k < (int)(sizeof keys / sizeof *keys); k++) {
            fprintf(f, "  \"%s\": ", keys[k]);
            cli_json_string(f, values[k]);
            fputs(",\n", f);
        }
        fprintf(f, "  \"runs\": %d,\n  \"warmup\": %d,\n  \"results\": [\n", b->runs, b->warmup);
        for (int i = 0; i < np; i++) {
            const point *p = &pts[i];
            double bytes = p->bytes;
            fprintf(f, "    {\"type\": \"%s\", \"op\": \"%s\", \"algorithm\": \"%s\", \"n\": %llu, "
                       "\"median_us\": %.3f, \"min_us\": %.3f, \"gelem_per_s\": %.4f, \"gb_per_s\": %.2f, "
                       "\"copy_us\": %.3f, \"time_over_copy\": %.4f, \"max_us\": %.3f, "
                       "\"copy_over_first\": %.3f, \"pace_changed\": %s, \"copy_bytes\": %llu, \"title\": ",
                    wgs_type_name(p->s.type), p->op, p->label,
                    (unsigned long long)p->n, p->median * 1e6, p->min * 1e6, (double)p->n / p->median * 1e-9,
                    bytes / p->median * 1e-9, p->copy_median * 1e6, p->median / p->copy_median,
                    p->max * 1e6, p->copy_over_first, p->pace_changed ? "true" : "false",
                    (unsigned long long)p->copy_bytes);
            cli_json_string(f, p->title);
            fprintf(f, "}%s\n", i + 1 < np ? "," : "");
        }
        fprintf(f, "  ]\n}\n");
        if (close_out(f, json)) failed = 1;
    }
    if (!(f = open_out(svg))) failed = 1;
    else {
        /* One line per run of points of one series (consecutive, as the sweep made them). */
        chart_line *lines = calloc((size_t)np, sizeof *lines);
        chart_point *cp = calloc((size_t)np, sizeof *cp);
        int nl = 0;
        for (int i = 0; lines && cp && i < np;) {
            int j = i;
            while (j < np && !strcmp(pts[j].title, pts[i].title)) {
                cp[j] = (chart_point){pts[j].n, pts[j].copy_median / pts[j].median, pts[j].pace_changed};
                j++;
            }
            lines[nl++] = (chart_line){pts[i].title, cp + i, j - i};
            i = j;
        }
        char title[256], subtitle[256];
        snprintf(title, sizeof title, "wgscan %s (%s) on %s", wgs_version_string(), WGSCAN_GIT_DESCRIBE, b->info.device);
        snprintf(subtitle, sizeof subtitle, "%s, %s adapter; median of %d runs; each against a copy of the bytes it "
                 "moves (open circles: the device changed pace); %s", b->info.backend, b->info.adapter_type, b->runs, date);
        if (!lines || !cp) failed = 1, cli_usage_error("out of host memory for the chart");
        else chart_write_svg(f, title, subtitle, lines, nl);
        free(lines);
        free(cp);
        if (close_out(f, svg)) failed = 1;
    }
    return failed ? -1 : 0;
}

/* Brings the GPU to its working clocks: a cold GPU (or one idle for the seconds it takes
 * to fill the pools) ran the first sizes of a sweep at a third of its copy speed. About
 * a second of copies over the whole pool. */
static wgs_result warm_up(bench *b) {
    scan_job j = {NULL, b->pool_bytes / 4 / 2, 0, 0, 0};
    job_layout(b, j.n, 4, &j);
    double t0 = cli_now(), med, mn;
    wgs_result r = WGS_OK;
    while (r == WGS_OK && cli_now() - t0 < 1.0) r = time_runs(b, record_copy, &j, 0, &med, &mn, NULL);
    return r;
}

/* The copy beside a point against the run's first copy of about as many bytes, time per
 * byte: where the two differ by more than a quarter (copies of 50 µs and more, below
 * which launches vary), the device itself changed pace during the run (its clocks,
 * another load on it), so the point is not comparable with the others; said on stderr
 * and in the files' pace_changed column, the point kept. */
static void copy_check(bench *b, point *p, uint64_t copy_bytes) {
    p->copy_over_first = 1, p->pace_changed = 0;
    /* Within an eighth: primitives copy n words times 1, 1.5, 2.008 ... and a bucket of
     * the next power of two compared 541 MB with 1 GiB, a false alarm, while exactly
     * as many bytes left the segmented sort's rows (n words plus their offsets, a few
     * percent apart) each with none to compare: rows of 3x their time went unflagged
     * on an H100 (BENCHMARKS.md, seventeenth session). */
    const double near = 1.125;
    int first = -1;
    for (int i = 0; i < b->copy_firsts && first < 0; i++) {
        const double r = (double)copy_bytes / (double)b->copy_first[i].bytes;
        if (r <= near && r >= 1 / near) first = i;
    }
    if (first < 0) {
        if (b->copy_firsts < (int)(sizeof b->copy_first / sizeof b->copy_first[0])) {
            b->copy_first[b->copy_firsts].bytes = copy_bytes;
            b->copy_first[b->copy_firsts++].median = p->copy_median;
        }
        return;
    }
    const double f = b->copy_first[first].median, fb = (double)b->copy_first[first].bytes;
    const double q = (p->copy_median / (double)copy_bytes) / (f / fb);
    p->copy_over_first = q;
    p->pace_changed = (q > 1.25 || q < 0.8) && p->copy_median >= 50e-6 && f >= 50e-6;
    if (p->pace_changed)
        fprintf(stderr,
                "bench: warning: %s n=%llu: the copy beside it took %.1f us, %.2f times the time a byte of this "
                "run's first copy of about these bytes (%.1f us): the device changed pace, so this point is not "
                "comparable\n",
                p->label, (unsigned long long)p->n, p->copy_median * 1e6, q, f * 1e6);
}

static void print_point(const point *p) {
    printf("%-5s %-4s %-18s %12llu %12.2f %10.3f %10.1f %12.2f %8.3f\n", wgs_type_name(p->s.type),
           wgs_op_name(p->s.op), p->label, (unsigned long long)p->n, p->median * 1e6,
           (double)p->n / p->median * 1e-9, p->bytes / p->median * 1e-9, p->copy_median * 1e6,
           p->median / p->copy_median);
    fflush(stdout);
}

/* ---- the primitives ----------------------------------------------------------------
 * Each on u32 data: uniform random words (so histogram bins and atomics see realistic,
 * spread-out traffic), flags one byte per element with half of them set. The sorts read
 * the same words as their keys (sort-u64: two words a key; sort-f32: any bit pattern,
 * NaN and inf included) and sort-pairs u32 values from pools of their own. */
#define prim_names cli_bench_primitive_names
static uint64_t div_up_u64(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }
#define NPRIMS CLI_BENCH_PRIMITIVES
enum { PRIM_SORT_KEYS = 9, PRIM_SORT_PAIRS, PRIM_SORT_U64, PRIM_SORT_F32, PRIM_SEG_16, PRIM_SEG_256, PRIM_SEG_4096,
       PRIM_SSC_16, PRIM_SSC_256, PRIM_SSC_4096, PRIM_SBK_16, PRIM_SBK_256, PRIM_SBK_4096, PRIM_RBK_256,
       PRIM_TOPK_1024, PRIM_TOPK_ROWS, PRIM_SSORT_16, PRIM_SSORT_256, PRIM_SSORT_4096, PRIM_SSORT_65536 };
/* The segmented sorts: u32 keys, ascending, no values, back-to-back segments of 16, 256,
 * 4096, 65536 keys as CSR offsets (issue 36's figures beside CUB's DeviceSegmentedSort). */
#define IS_SSORT(prim) ((prim) >= PRIM_SSORT_16 && (prim) <= PRIM_SSORT_65536)
#define SSORT_LEN(prim) (16ull << (4 * ((prim) - PRIM_SSORT_16)))
/* Top-k: topk-1024 one row, k 1024, u32, input order; topk-rows-50 rows of TOPK_ROW (one
 * row of n below it), k 50, f32 with indices, best first (issue 36's two figures). */
#define IS_TOPK(prim) ((prim) == PRIM_TOPK_1024 || (prim) == PRIM_TOPK_ROWS)
#define TOPK_ROW 131072ull
#define IS_SORT(prim) ((prim) >= PRIM_SORT_KEYS && (prim) <= PRIM_SORT_F32)
/* The segmented reduces and scans (exclusive): u32 add over back-to-back segments of 16,
 * 256, 4096 elements as CSR offsets. */
#define IS_SEG(prim) ((prim) >= PRIM_SEG_16 && (prim) <= PRIM_SEG_4096)
#define IS_SSC(prim) ((prim) >= PRIM_SSC_16 && (prim) <= PRIM_SSC_4096)
#define SEG_LEN(prim) (16ull << (4 * ((prim) - (IS_SSC(prim) ? PRIM_SSC_16 : PRIM_SEG_16))))
/* The scans by key: u32 add, exclusive, over runs of 16, 256, 4096 equal keys. */
#define IS_SBK(prim) ((prim) >= PRIM_SBK_16 && (prim) <= PRIM_SBK_4096)
#define SBK_LEN(prim) ((prim) == PRIM_RBK_256 ? 256ull : 16ull << (4 * ((prim) - PRIM_SBK_16)))
/* The reduce by key: u32 add over runs of 256 equal keys (keys as the scans by key's). */
#define HAS_KEYS(prim) (IS_SBK(prim) || (prim) == PRIM_RBK_256)

typedef struct prim_job {
    scan_job j; /* layout of the value pool */
    scan_job copy; /* the copy beside it: n u32, whatever the primitive's element size */
    int prim;
    wgs_reduce_plan *reduce;
    wgs_select_plan *select;
    wgs_histogram_plan *hist;
    wgs_sort_plan *sort;
    wgs_segmented_reduce_plan *seg;
    wgs_segmented_scan_plan *ssc;
    WGPUBuffer seg_offsets; /* the point's CSR offsets */
    wgs_scan_by_key_plan *sbk;
    wgs_reduce_by_key_plan *rbk;
    WGPUBuffer sbk_keys; /* the point's keys: i / run length */
    WGPUBuffer rbk_unique; /* reduce-by-key's unique keys (its aggregates go to the output pool) */
    wgs_topk_plan *topk;
    wgs_segmented_sort_plan *ssort;
    WGPUBuffer topk_ids; /* topk-rows-50's indices (the keys go to the output pool) */
    uint64_t segs;
    WGPUBuffer flags_pool, small; /* flags: n bytes a slot; small: results */
    WGPUBuffer values_in, values_out; /* sort-pairs: value pools laid out as the keys' */
    uint64_t flag_slot_bytes;
} prim_job;

/* The key type of a sort primitive. */
static wgs_type sort_key_type(int prim) {
    return prim == PRIM_SORT_U64 ? WGS_TYPE_U64 : prim == PRIM_SORT_F32 ? WGS_TYPE_F32 : WGS_TYPE_U32;
}

static wgs_result record_prim(bench *b, void *user, WGPUCommandEncoder enc, int run) {
    prim_job *pj = user;
    scan_job *j = &pj->j;
    uint64_t in_off = (uint64_t)(run % (int)j->slots) * j->slot_bytes;
    uint64_t out_off = (uint64_t)((run + 1) % (int)j->slots) * j->slot_bytes;
    WGPUQuerySet qs = wgs_timer_query_set(b->timer);
    uint32_t tb = 2u * (uint32_t)run, te = tb + 1u;
    if (pj->sort) {
        wgs_sort_args a = {.keys_in = b->in_pool, .keys_in_offset = in_off, .keys_out = b->out_pool,
                           .keys_out_offset = out_off, .n = j->n, .timestamp_query_set = qs,
                           .timestamp_begin_index = tb, .timestamp_end_index = te};
        if (pj->prim == PRIM_SORT_PAIRS) {
            a.values_in = pj->values_in, a.values_in_offset = in_off;
            a.values_out = pj->values_out, a.values_out_offset = out_off;
        }
        return wgs_sort_encode(pj->sort, enc, &a);
    }
    if (pj->ssort) {
        wgs_segmented_sort_args a = {.keys_in = b->in_pool, .keys_in_offset = in_off, .keys_out = b->out_pool,
                                     .keys_out_offset = out_off, .n = j->n, .offsets = pj->seg_offsets,
                                     .n_segments = pj->segs, .timestamp_query_set = qs,
                                     .timestamp_begin_index = tb, .timestamp_end_index = te};
        return wgs_segmented_sort_encode(pj->ssort, enc, &a);
    }
    if (pj->topk) {
        const int rows = pj->prim == PRIM_TOPK_ROWS;
        uint64_t row_n = rows && j->n >= TOPK_ROW ? TOPK_ROW : j->n;
        wgs_topk_args a = {.keys_in = b->in_pool, .keys_in_offset = in_off, .keys_out = b->out_pool,
                           .keys_out_offset = out_off, .values_out = rows ? pj->topk_ids : NULL, .n = row_n,
                           .rows = (uint32_t)(j->n / row_n), .k = (uint32_t)(row_n < (rows ? 50 : 1024) ? row_n
                                                                              : rows ? 50 : 1024),
                           .timestamp_query_set = qs, .timestamp_begin_index = tb, .timestamp_end_index = te};
        return wgs_topk_encode(pj->topk, enc, &a);
    }
    if (pj->rbk) {
        wgs_reduce_by_key_args a = {.keys = pj->sbk_keys, .input = b->in_pool, .input_offset = in_off, .n = j->n,
                                    .unique_keys = pj->rbk_unique, .aggregates = b->out_pool,
                                    .aggregates_offset = out_off, .num_runs = pj->small, .timestamp_query_set = qs,
                                    .timestamp_begin_index = tb, .timestamp_end_index = te};
        return wgs_reduce_by_key_encode(pj->rbk, enc, &a);
    }
    if (pj->sbk) {
        wgs_scan_by_key_args a = {.keys = pj->sbk_keys, .input = b->in_pool, .input_offset = in_off,
                                  .output = b->out_pool, .output_offset = out_off, .n = j->n,
                                  .timestamp_query_set = qs, .timestamp_begin_index = tb, .timestamp_end_index = te};
        return wgs_scan_by_key_encode(pj->sbk, enc, &a);
    }
    if (pj->ssc) {
        wgs_segmented_scan_args a = {.input = b->in_pool, .input_offset = in_off, .output = b->out_pool,
                                     .output_offset = out_off, .n = j->n, .offsets = pj->seg_offsets,
                                     .n_segments = pj->segs, .timestamp_query_set = qs,
                                     .timestamp_begin_index = tb, .timestamp_end_index = te};
        return wgs_segmented_scan_encode(pj->ssc, enc, &a);
    }
    if (pj->seg) {
        wgs_segmented_reduce_args a = {.input = b->in_pool, .input_offset = in_off, .n = j->n,
                                       .offsets = pj->seg_offsets, .n_segments = pj->segs, .output = b->out_pool,
                                       .output_offset = out_off, .timestamp_query_set = qs,
                                       .timestamp_begin_index = tb, .timestamp_end_index = te};
        return wgs_segmented_reduce_encode(pj->seg, enc, &a);
    }
    if (pj->reduce) {
        wgs_reduce_args a = {.input = b->in_pool, .input_offset = in_off, .n = j->n, .output = pj->small,
                             .timestamp_query_set = qs, .timestamp_begin_index = tb, .timestamp_end_index = te};
        return wgs_reduce_encode(pj->reduce, enc, &a);
    }
    if (pj->hist) {
        wgs_histogram_args a = {.input = b->in_pool, .input_offset = in_off, .n = j->n, .output = b->out_pool,
                                .output_offset = out_off, .timestamp_query_set = qs,
                                .timestamp_begin_index = tb, .timestamp_end_index = te};
        return wgs_histogram_encode(pj->hist, enc, &a);
    }
    uint64_t flag_slots = b->pool_bytes / 4 / pj->flag_slot_bytes; /* the flags pool's slots */
    uint64_t flags_off = (uint64_t)run % (flag_slots ? flag_slots : 1) * pj->flag_slot_bytes;
    wgs_select_args a = {.input = b->in_pool, .input_offset = in_off, .flags = pj->flags_pool,
                         .flags_offset = flags_off, .output = b->out_pool, .output_offset = out_off,
                         .count = pj->small, .n = j->n, .timestamp_query_set = qs,
                         .timestamp_begin_index = tb, .timestamp_end_index = te};
    return wgs_select_encode(pj->select, enc, &a);
}

static wgs_result prim_plan(bench *b, prim_job *pj, uint64_t cap) {
    wgs_predicate every = {.kind = WGS_PREDICATE_NONZERO}; /* uniform words: all but ~2^-32 count */
    switch (pj->prim) {
    case 0:
    case 1: {
        wgs_reduce_plan_desc d = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD,
                                  .algorithm = pj->prim ? WGS_REDUCE_ALGORITHM_ATOMIC : WGS_REDUCE_ALGORITHM_TREE,
                                  .capacity = cap, .label = "bench"};
        return wgs_reduce_plan_create(b->ctx, &d, &pj->reduce);
    }
    case 2:
    case 3:
    case 4: {
        wgs_reduce_algorithm a = pj->prim == 2 ? WGS_REDUCE_ALGORITHM_TREE
                                 : pj->prim == 3 ? WGS_REDUCE_ALGORITHM_ATOMIC
                                                 : WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT;
        wgs_count_plan_desc d = {.type = WGS_TYPE_U32, .predicate = every, .algorithm = a, .capacity = cap,
                                 .label = "bench"};
        return wgs_count_plan_create(b->ctx, &d, &pj->reduce);
    }
    case 5:
    case 6:
    case 8: { /* 8: select-flagged forced to the single pass, beside the default (5) */
        wgs_predicate half = {.kind = WGS_PREDICATE_LESS, .a = 2147483648.0};
        wgs_select_plan_desc d = {.type = WGS_TYPE_U32,
                                  .mode = pj->prim == 6 ? WGS_SELECT_IF : WGS_SELECT_FLAGGED,
                                  .predicate = half, .capacity = cap, .label = "bench",
                                  .algorithm = pj->prim == 8 ? WGS_SELECT_ALGORITHM_SINGLE_PASS : 0};
        return wgs_select_plan_create(b->ctx, &d, &pj->select);
    }
    case PRIM_SORT_KEYS:
    case PRIM_SORT_PAIRS:
    case PRIM_SORT_U64:
    case PRIM_SORT_F32: {
        wgs_sort_plan_desc d = {.type = sort_key_type(pj->prim),
                                .payload = pj->prim == PRIM_SORT_PAIRS ? WGS_PAYLOAD_BUFFER : WGS_PAYLOAD_NONE,
                                .value_bytes = pj->prim == PRIM_SORT_PAIRS ? 4 : 0, .capacity = cap, .label = "bench"};
        return wgs_sort_plan_create(b->ctx, &d, &pj->sort);
    }
    case PRIM_SEG_16:
    case PRIM_SEG_256:
    case PRIM_SEG_4096: {
        wgs_segmented_reduce_plan_desc d = {.capacity = cap, .segment_capacity = cap / SEG_LEN(pj->prim) + 1,
                                            .label = "bench"};
        return wgs_segmented_reduce_plan_create(b->ctx, &d, &pj->seg);
    }
    case PRIM_SSC_16:
    case PRIM_SSC_256:
    case PRIM_SSC_4096: {
        wgs_segmented_scan_plan_desc d = {.capacity = cap, .segment_capacity = cap / SEG_LEN(pj->prim) + 1,
                                          .label = "bench"};
        return wgs_segmented_scan_plan_create(b->ctx, &d, &pj->ssc);
    }
    case PRIM_SBK_16:
    case PRIM_SBK_256:
    case PRIM_SBK_4096: {
        wgs_scan_by_key_plan_desc d = {.capacity = cap, .label = "bench"};
        return wgs_scan_by_key_plan_create(b->ctx, &d, &pj->sbk);
    }
    case PRIM_RBK_256: {
        wgs_reduce_by_key_plan_desc d = {.capacity = cap, .label = "bench"};
        return wgs_reduce_by_key_plan_create(b->ctx, &d, &pj->rbk);
    }
    case PRIM_TOPK_1024:
    case PRIM_TOPK_ROWS: {
        const int rows = pj->prim == PRIM_TOPK_ROWS;
        uint64_t row_n = rows && cap > TOPK_ROW ? TOPK_ROW : cap;
        wgs_topk_plan_desc d = {.type = rows ? WGS_TYPE_F32 : WGS_TYPE_U32,
                                .output = rows ? WGS_TOPK_SORTED : WGS_TOPK_INPUT_ORDER,
                                .payload = rows ? WGS_PAYLOAD_INDEX : WGS_PAYLOAD_NONE, .capacity = row_n,
                                .k_capacity = (uint32_t)(row_n < 1024 ? row_n : 1024),
                                .row_capacity = (uint32_t)(cap / row_n), .label = "bench"};
        return wgs_topk_plan_create(b->ctx, &d, &pj->topk);
    }
    case PRIM_SSORT_16:
    case PRIM_SSORT_256:
    case PRIM_SSORT_4096:
    case PRIM_SSORT_65536: {
        wgs_segmented_sort_plan_desc d = {.capacity = cap, .segment_capacity = cap / SSORT_LEN(pj->prim) + 1,
                                          .label = "bench"};
        return wgs_segmented_sort_plan_create(b->ctx, &d, &pj->ssort);
    }
    default: {
        wgs_histogram_plan_desc d = {.type = WGS_TYPE_U32, .bins = 256, .upper = 4294967296.0,
                                     .capacity = cap, .label = "bench"};
        return wgs_histogram_plan_create(b->ctx, &d, &pj->hist);
    }
    }
}

/* Least traffic of each primitive: reads once, writes once (select: half the elements;
 * sort: keys and values in and out; segmented reduce: values and offsets in, a result
 * a segment out; segmented scan: values and offsets in, values out; scan by key: keys
 * and values in, values out, 12 bytes an element,
 * against the copy's 8, so its copies of traffic are its time / copy / 1.5; reduce by
 * key: keys and values in, a key and a value a run out). */
static double prim_bytes(int prim, uint64_t n) {
    if (IS_TOPK(prim)) return 4.0 * n; /* the keys read once; so copies of traffic = time / (copy / 2) */
    if (IS_SSORT(prim)) return 8.0 * n + 4.0 * (double)div_up_u64(n, SSORT_LEN(prim)); /* keys in and out, offsets */
    if (IS_SBK(prim)) return 12.0 * n;
    if (prim == PRIM_RBK_256) return 8.0 * n + 8.0 * (double)div_up_u64(n, 256); /* keys, values in; a key and a value a run out */
    if (IS_SEG(prim)) return 4.0 * n + 8.0 * (double)div_up_u64(n, SEG_LEN(prim));
    if (IS_SSC(prim)) return 8.0 * n + 4.0 * (double)div_up_u64(n, SEG_LEN(prim));
    if (IS_SORT(prim)) return 2.0 * n * (double)(wgs_type_size(sort_key_type(prim)) + (prim == PRIM_SORT_PAIRS ? 4 : 0));
    if (prim == 5 || prim == 8) return 4.0 * n + n + 2.0 * n;
    if (prim == 6) return 4.0 * n + 2.0 * n;
    return 4.0 * n;
}

/* What a primitive is, for the chart's legend, and its operator (NULL: none). */
static void prim_title(int prim, char *title, size_t size, const char **op) {
    static const char *const what[] = {
        [0] = "reduce u32 add (tree)", [1] = "reduce u32 add (atomic)", [2] = "count u32 (tree)",
        [3] = "count u32 (atomic)", [4] = "count u32 (atomic per element)", [5] = "select u32 by flags",
        [6] = "select u32 if < 2^31", [7] = "histogram u32, 256 bins", [8] = "select u32 by flags (one pass)",
        [PRIM_SORT_KEYS] = "sort u32 keys", [PRIM_SORT_PAIRS] = "sort u32 keys + u32 values",
        [PRIM_SORT_U64] = "sort u64 keys", [PRIM_SORT_F32] = "sort f32 keys", [PRIM_RBK_256] = "reduce by key u32 add, runs of 256",
        [PRIM_TOPK_1024] = "top 1024 of u32 keys (input order)",
        [PRIM_TOPK_ROWS] = "top 50 f32 with indices, rows of 128K"};
    *op = prim <= 1 || IS_SEG(prim) || IS_SSC(prim) || HAS_KEYS(prim) ? "add" : NULL;
    if (IS_SEG(prim) || IS_SSC(prim))
        snprintf(title, size, "segmented %s u32 add, segments of %llu", IS_SEG(prim) ? "reduce" : "scan",
                 (unsigned long long)SEG_LEN(prim));
    else if (IS_SSORT(prim))
        snprintf(title, size, "segmented sort u32 keys, segments of %llu", (unsigned long long)SSORT_LEN(prim));
    else if (IS_SBK(prim))
        snprintf(title, size, "scan by key u32 add, runs of %llu", (unsigned long long)SBK_LEN(prim));
    else
        snprintf(title, size, "%s", what[prim]);
}

/* A copy that moves `bytes` (read and written): half of them copied, in whole u32. */
static uint64_t copy_bytes_of(double bytes) { return ((uint64_t)ceil(bytes / 2) + 3) / 4 * 4; }

/* The CSR offsets of back-to-back segments of `len` elements over n (the last one cut at
 * n), in a new buffer; *segs receives their number. */
static wgs_result seg_offsets(bench *b, uint64_t n, uint64_t len, WGPUBuffer *out, uint64_t *segs) {
    *segs = div_up_u64(n, len);
    uint32_t *o = malloc((*segs + 1) * 4);
    if (!o) return WGS_ERROR_OUT_OF_HOST_MEMORY;
    for (uint64_t k = 0; k <= *segs; k++) o[k] = (uint32_t)(k * len < n ? k * len : n);
    wgs_result r = wgs_buffer_create(b->ctx, (*segs + 1) * 4, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst, out);
    if (r == WGS_OK) r = wgs_buffer_write(b->ctx, *out, 0, o, (*segs + 1) * 4);
    free(o);
    return r;
}

/* Keys i / len for i < n (runs of len equal keys), in a new buffer, written in pieces. */
static wgs_result sbk_keys(bench *b, uint64_t n, uint64_t len, WGPUBuffer *out) {
    const uint64_t piece = 1ull << 24;
    uint32_t *k = malloc(piece * 4);
    if (!k) return WGS_ERROR_OUT_OF_HOST_MEMORY;
    wgs_result r = wgs_buffer_create(b->ctx, n * 4, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst, out);
    for (uint64_t first = 0; r == WGS_OK && first < n; first += piece) {
        uint64_t m = n - first < piece ? n - first : piece;
        for (uint64_t i = 0; i < m; i++) k[i] = (uint32_t)((first + i) / len);
        r = wgs_buffer_write(b->ctx, *out, first * 4, k, m * 4);
    }
    free(k);
    return r;
}

/* Runs the primitive sweep; returns the points added or -1 (error printed). */
static int bench_primitives(bench *b, const int *prims, int nprims, int kmin, int kmax, point *pts, int np,
                            int total) {
    /* Uniform random words over the value pool; half-set byte flags in their own pool. */
    wgs_result r = WGS_OK;
    const uint64_t piece = 64ull << 20;
    uint32_t *host = malloc(piece);
    WGPUBuffer flags_pool = NULL, small = NULL, values_in = NULL, values_out = NULL;
    uint64_t flag_bytes = b->pool_bytes / 4;
    if (!host) return cli_usage_error("out of memory"), -1;
    int pairs = 0;
    for (int pi = 0; pi < nprims; pi++) pairs |= prims[pi] == PRIM_SORT_PAIRS;
    for (uint64_t off = 0; r == WGS_OK && off < b->pool_bytes; off += piece) {
        uint64_t len = b->pool_bytes - off < piece ? b->pool_bytes - off : piece;
        ref_fill_random(host, WGS_TYPE_U32, WGS_OP_ADD, len / 4, off + 17);
        r = wgs_buffer_write(b->ctx, b->in_pool, off, host, len & ~3ull);
    }
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst;
    if (r == WGS_OK) r = wgs_buffer_create(b->ctx, flag_bytes, usage, &flags_pool);
    if (r == WGS_OK) r = wgs_buffer_create(b->ctx, 256, usage, &small);
    /* sort-pairs' values: pools as large as the keys' (their contents do not matter) */
    if (r == WGS_OK && pairs) r = wgs_buffer_create(b->ctx, b->pool_bytes, usage, &values_in);
    if (r == WGS_OK && pairs) r = wgs_buffer_create(b->ctx, b->pool_bytes, usage, &values_out);
    for (uint64_t off = 0; r == WGS_OK && off < flag_bytes; off += piece) {
        uint64_t len = flag_bytes - off < piece ? flag_bytes - off : piece;
        ref_fill_random(host, WGS_TYPE_U32, WGS_OP_ADD, len / 4, off + 99);
        unsigned char *f = (unsigned char *)host;
        for (uint64_t i = 0; i < len; i++) f[i] = (unsigned char)(f[i] & 1);
        r = wgs_buffer_write(b->ctx, flags_pool, off, host, len & ~3ull);
    }
    free(host);
    if (r == WGS_OK) r = wgs_wait(b->ctx);
    if (r == WGS_OK) r = warm_up(b);
    for (int pi = 0; r == WGS_OK && pi < nprims; pi++) {
        prim_job pj;
        memset(&pj, 0, sizeof pj);
        pj.prim = prims[pi];
        pj.flags_pool = flags_pool;
        pj.small = small;
        pj.values_in = values_in;
        pj.values_out = values_out;
        const int sort = IS_SORT(pj.prim);
        const size_t es = sort ? wgs_type_size(sort_key_type(pj.prim)) : 4;
        /* A sort takes n < 2^32 keys that fit one binding: past what the device holds,
         * the sizes it cannot sort are left out (said on stderr), not the whole run. */
        const int seg = IS_SEG(pj.prim) || IS_SSC(pj.prim) || HAS_KEYS(pj.prim) || IS_TOPK(pj.prim) || IS_SSORT(pj.prim);
        int kcap = sort && kmax > 31 ? 31 : seg && kmax > 30 ? 30 : kmax;
        r = prim_plan(b, &pj, 1ull << kcap);
        while ((sort || seg) && r == WGS_ERROR_TOO_LARGE && kcap > kmin) r = prim_plan(b, &pj, 1ull << --kcap);
        if (kcap < kmax && r == WGS_OK)
            fprintf(stderr, "bench: %s stops at n = 2^%d (the largest the device takes)\n", prim_names[pj.prim], kcap);
        for (int k = kmin; r == WGS_OK && k <= kcap; k++) {
            point *p = &pts[np];
            p->s = (series){sort ? sort_key_type(pj.prim) : pj.prim == PRIM_TOPK_ROWS ? WGS_TYPE_F32 : WGS_TYPE_U32,
                            WGS_OP_ADD};
            snprintf(p->label, sizeof p->label, "%s", prim_names[pj.prim]);
            prim_title(pj.prim, p->title, sizeof p->title, &p->op);
            if (!p->op) p->op = "none";
            p->n = 1ull << k;
            p->bytes = prim_bytes(pj.prim, p->n);
            fprintf(stderr, "bench: [%d/%d] %s n=2^%d\n", np + 1, total, p->label, k);
            job_layout(b, p->n, es, &pj.j);
            /* the copy beside it reads and writes as many bytes as the primitive must move */
            const uint64_t copy_bytes = copy_bytes_of(p->bytes);
            job_layout(b, copy_bytes / 4, 4, &pj.copy);
            pj.flag_slot_bytes = (p->n + 255) / 256 * 256;
            if (pj.flag_slot_bytes > flag_bytes || pj.j.slot_bytes > b->pool_bytes || pj.copy.slot_bytes > b->pool_bytes) {
                fprintf(stderr, "bench: %s stops before n = 2^%d (its data or its copy of %llu bytes does not fit "
                        "the %llu-byte pool)\n", p->label, k, (unsigned long long)copy_bytes,
                        (unsigned long long)b->pool_bytes);
                break;
            }
            double cmin;
            wgs_buffer_release(b->ctx, pj.seg_offsets);
            pj.seg_offsets = NULL;
            wgs_buffer_release(b->ctx, pj.sbk_keys);
            pj.sbk_keys = NULL;
            if (IS_SEG(pj.prim) || IS_SSC(pj.prim))
                r = seg_offsets(b, p->n, SEG_LEN(pj.prim), &pj.seg_offsets, &pj.segs);
            if (IS_SSORT(pj.prim)) r = seg_offsets(b, p->n, SSORT_LEN(pj.prim), &pj.seg_offsets, &pj.segs);
            if (HAS_KEYS(pj.prim)) r = sbk_keys(b, p->n, SBK_LEN(pj.prim), &pj.sbk_keys);
            wgs_buffer_release(b->ctx, pj.rbk_unique);
            pj.rbk_unique = NULL;
            if (r == WGS_OK && pj.rbk)
                r = wgs_buffer_create(b->ctx, p->n * 4, WGPUBufferUsage_Storage, &pj.rbk_unique);
            wgs_buffer_release(b->ctx, pj.topk_ids);
            pj.topk_ids = NULL;
            if (r == WGS_OK && pj.prim == PRIM_TOPK_ROWS) /* 50 of each row (rows of 128K, or one) */
                r = wgs_buffer_create(b->ctx, (p->n / TOPK_ROW + 1) * 50 * 4, WGPUBufferUsage_Storage, &pj.topk_ids);
            if (r == WGS_OK) r = time_runs(b, record_prim, &pj, b->point_warm_s, &p->median, &p->min, &p->max);
            if (r == WGS_OK) r = time_runs(b, record_copy, &pj.copy, 0, &p->copy_median, &cmin, NULL);
            p->copy_bytes = copy_size(&pj.copy);
            if (r == WGS_OK) copy_check(b, p, copy_bytes), print_point(p), np++;
        }
        wgs_reduce_plan_destroy(pj.reduce);
        wgs_select_plan_destroy(pj.select);
        wgs_histogram_plan_destroy(pj.hist);
        wgs_sort_plan_destroy(pj.sort);
        wgs_segmented_reduce_plan_destroy(pj.seg);
        wgs_segmented_scan_plan_destroy(pj.ssc);
        wgs_buffer_release(b->ctx, pj.seg_offsets);
        wgs_scan_by_key_plan_destroy(pj.sbk);
        wgs_reduce_by_key_plan_destroy(pj.rbk);
        wgs_buffer_release(b->ctx, pj.sbk_keys);
        wgs_buffer_release(b->ctx, pj.rbk_unique);
        wgs_topk_plan_destroy(pj.topk);
        wgs_buffer_release(b->ctx, pj.topk_ids);
        wgs_segmented_sort_plan_destroy(pj.ssort);
    }
    wgs_buffer_release(b->ctx, flags_pool);
    wgs_buffer_release(b->ctx, small);
    wgs_buffer_release(b->ctx, values_in);
    wgs_buffer_release(b->ctx, values_out);
    if (r != WGS_OK) return cli_gpu_error(b->ctx, r, "a primitive benchmark"), -1;
    return np;
}

/* ---- host transfers ------------------------------------------------------------
 * wgs_buffer_write followed by wgs_wait (the bytes are on the GPU), and wgs_buffer_read,
 * timed on the wall clock, size by size: 2 warm-up runs (the staging buffers made, the
 * host pages touched), then the median of up to --runs runs (fewer past 512 MiB, at least
 * 5). Each size writes a pattern of its own and checks what came back. */
#define XFER_WARMUP 2

typedef struct xfer_point {
    uint64_t bytes;
    int runs;
    double t[2][3]; /* [up, down][median, min, max], seconds */
} xfer_point;

/* Words that differ from size to size, so that a copy that did nothing cannot pass. */
static void xfer_pattern(uint32_t *p, uint64_t words, uint64_t seed) {
    uint32_t x = (uint32_t)(seed * 2654435761u) | 1u;
    for (uint64_t i = 0; i < words; i++) p[i] = (uint32_t)i * 2246822519u ^ x;
}

static int xfer_outputs(const bench_options *o, const wgs_context_info *info, const xfer_point *pts, int np,
                        const char *staging) {
    static const char *dir[2] = {"up", "down"};
    int failed = 0;
    FILE *f = open_out(o->csv);
    if (!f) failed = 1;
    else {
        fprintf(f, "direction,bytes,runs,median_ms,min_ms,max_ms,gb_per_s\n");
        for (int d = 0; d < 2; d++)
            for (int i = 0; i < np; i++)
                fprintf(f, "%s,%llu,%d,%.4f,%.4f,%.4f,%.3f\n", dir[d], (unsigned long long)pts[i].bytes, pts[i].runs,
                        pts[i].t[d][0] * 1e3, pts[i].t[d][1] * 1e3, pts[i].t[d][2] * 1e3,
                        (double)pts[i].bytes / pts[i].t[d][0] * 1e-9);
        if (close_out(f, o->csv)) failed = 1;
    }
    if (!(f = open_out(o->json))) return -1;
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    const char *keys[] = {"date", "command", "wgscan_version", "commit", "device", "backend", "adapter_type",
                          "runtime", "staging"};
    const char *values[] = {date, o->command, wgs_version_string(), WGSCAN_GIT_DESCRIBE, info->device,
                            info->backend, info->adapter_type, info->runtime_path, staging};
    fputs("{\n", f);
    for (int k = 0; k < (int)(sizeof keys / sizeof *keys); k++) {
        fprintf(f, "  \"%s\": ", keys[k]);
        cli_json_string(f, values[k]);
        fputs(",\n", f);
    }
    fprintf(f, "  \"warmup\": %d,\n  \"results\": [\n", XFER_WARMUP);
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < np; i++)
            fprintf(f, "    {\"direction\": \"%s\", \"bytes\": %llu, \"runs\": %d, \"median_ms\": %.4f, "
                       "\"min_ms\": %.4f, \"max_ms\": %.4f, \"gb_per_s\": %.3f}%s\n",
                    dir[d], (unsigned long long)pts[i].bytes, pts[i].runs, pts[i].t[d][0] * 1e3,
                    pts[i].t[d][1] * 1e3, pts[i].t[d][2] * 1e3, (double)pts[i].bytes / pts[i].t[d][0] * 1e-9,
                    d == 1 && i + 1 == np ? "" : ",");
    fprintf(f, "  ]\n}\n");
    if (close_out(f, o->json)) failed = 1;
    return failed ? -1 : 0;
}

static int bench_transfers(const bench_options *o) {
    const char *outputs[] = {o->json, o->csv}, *options[] = {"--json", "--csv"};
    if (cli_check_outputs(outputs, options, 2)) return EXIT_USAGE;
    wgs_context *ctx = NULL;
    if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    uint64_t nmin = o->nmin, nmax = o->nmax;
    while (nmax > nmin && nmax > info.max_buffer_size) nmax /= 2;
    if (nmax > info.max_buffer_size)
        return wgs_context_destroy(ctx), cli_usage_error("--min is above the device's largest buffer");
    const char *env = getenv("WGSCAN_TRANSFER");
    const char *staging = env && *env ? env : "default";
    int np = 0, got = 0, rc = EXIT_OK; /* sizes, sizes measured */
    while ((nmin << np) <= nmax && np < 63) np++;
    xfer_point *pts = calloc((size_t)np, sizeof *pts);
    uint32_t *src = malloc(nmax), *dst = malloc(nmax);
    WGPUBuffer buf = NULL;
    wgs_result r = WGS_OK;
    if (!pts || !src || !dst) {
        rc = cli_usage_error("out of host memory for %llu-byte transfers", (unsigned long long)nmax);
        goto done;
    }
    r = wgs_buffer_create(ctx, nmax, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc,
                          &buf);
    if (r != WGS_OK) {
        rc = cli_gpu_error(ctx, r, "allocating the transfer buffer");
        goto done;
    }
    printf("transfers on %s (%s, %s), staging %s: wall-clock GB/s (10^9 bytes), median after %d warm-up\n",
           info.device, info.backend, info.adapter_type, staging, XFER_WARMUP);
    printf("%14s %5s %12s %10s %12s %10s\n", "bytes", "runs", "up_ms", "up_GB/s", "down_ms", "down_GB/s");
    for (int i = 0; i < np && rc == EXIT_OK; i++) {
        xfer_point *p = &pts[i];
        p->bytes = nmin << i;
        uint64_t share = (uint64_t)o->runs * (512ull << 20) / p->bytes;
        p->runs = p->bytes <= (512ull << 20) ? o->runs : share < 5 ? 5 : (int)share;
        fprintf(stderr, "bench: [%d/%d] transfers of %llu bytes\n", i + 1, np, (unsigned long long)p->bytes);
        xfer_pattern(src, p->bytes / 4, p->bytes);
        memset(dst, 0xEE, p->bytes);
        double t[2][MAX_RUNS + XFER_WARMUP];
        for (int k = 0; r == WGS_OK && k < p->runs + XFER_WARMUP; k++) {
            double t0 = cli_now();
            r = wgs_buffer_write(ctx, buf, 0, src, p->bytes);
            if (r == WGS_OK) r = wgs_wait(ctx);
            double t1 = cli_now();
            if (r == WGS_OK) r = wgs_buffer_read(ctx, buf, 0, dst, p->bytes);
            double t2 = cli_now();
            t[0][k] = t1 - t0;
            t[1][k] = t2 - t1;
        }
        if (r != WGS_OK) {
            rc = cli_gpu_error(ctx, r, "a transfer");
            break;
        }
        for (int d = 0; d < 2; d++) {
            double lo = 1e30, hi = 0, *v = t[d] + XFER_WARMUP;
            for (int k = 0; k < p->runs; k++) lo = v[k] < lo ? v[k] : lo, hi = v[k] > hi ? v[k] : hi;
            p->t[d][0] = cli_median(v, p->runs);
            p->t[d][1] = lo;
            p->t[d][2] = hi;
        }
        if (memcmp(src, dst, p->bytes) != 0) {
            fprintf(stderr, "wgscan: the %llu bytes read back differ from those written\n", (unsigned long long)p->bytes);
            rc = EXIT_VERIFY_FAILED;
            break;
        }
        got = i + 1;
        printf("%14llu %5d %12.3f %10.2f %12.3f %10.2f\n", (unsigned long long)p->bytes, p->runs, p->t[0][0] * 1e3,
               (double)p->bytes / p->t[0][0] * 1e-9, p->t[1][0] * 1e3, (double)p->bytes / p->t[1][0] * 1e-9);
        fflush(stdout);
    }
    if (got > 0 && xfer_outputs(o, &info, pts, got, staging) != 0 && rc == EXIT_OK) rc = EXIT_USAGE;
done:
    free(pts);
    free(src);
    free(dst);
    wgs_buffer_release(ctx, buf);
    wgs_context_destroy(ctx);
    return rc;
}

/* ---- plan creation ---------------------------------------------------------------
 * Each primitive's default plan for up to --max elements (u32, add where there is an
 * operator): cold, on a fresh context whose pipeline cache is empty (the pipelines
 * compiled one after another, as creation does), and warm, the median of --runs
 * creations once the cache holds them (scratch allocation and host work only). Then
 * every primitive created in turn on one fresh context (the pipelines they share
 * compiled once), and one wgs_prepare of all of them on another, and each plan's
 * creation after it (which must compile nothing). Wall clock; one cold creation a
 * primitive (each costs a context). */
#define CREATION_KINDS 12

typedef struct creation_point {
    const char *name;
    uint64_t pipelines; /* compiled by the cold creation */
    double cold, warm, after_prepare;
} creation_point;

typedef union creation_desc {
    wgs_scan_plan_desc scan;
    wgs_reduce_plan_desc reduce;
    wgs_count_plan_desc count;
    wgs_segmented_reduce_plan_desc segmented_reduce;
    wgs_scan_by_key_plan_desc scan_by_key;
    wgs_segmented_scan_plan_desc segmented_scan;
    wgs_reduce_by_key_plan_desc reduce_by_key;
    wgs_select_plan_desc select;
    wgs_histogram_plan_desc histogram;
    wgs_alloc_plan_desc alloc;
    wgs_sort_plan_desc sort;
    wgs_topk_plan_desc topk;
} creation_desc;

/* The default description of kind k (0 .. CREATION_KINDS - 1) for up to cap elements in
 * *d, and the wgs_prepare item pointing to it; returns the primitive's name. */
static const char *creation_item(int k, uint64_t cap, creation_desc *d, wgs_prepare_desc *item) {
    memset(d, 0, sizeof *d);
    memset(item, 0, sizeof *item);
    item->kind = (wgs_plan_kind)(k + 1); /* WGS_PLAN_SCAN .. WGS_PLAN_TOPK */
    switch (item->kind) {
    case WGS_PLAN_SCAN: d->scan.capacity = cap, item->scan = &d->scan; return "scan";
    case WGS_PLAN_REDUCE: d->reduce.capacity = cap, item->reduce = &d->reduce; return "reduce";
    case WGS_PLAN_COUNT: d->count.capacity = cap, item->count = &d->count; return "count";
    case WGS_PLAN_SEGMENTED_REDUCE:
        d->segmented_reduce.capacity = cap, d->segmented_reduce.segment_capacity = cap / 16 + 1;
        item->segmented_reduce = &d->segmented_reduce;
        return "segmented-reduce";
    case WGS_PLAN_SCAN_BY_KEY:
        d->scan_by_key.capacity = cap, item->scan_by_key = &d->scan_by_key;
        return "scan-by-key";
    case WGS_PLAN_SEGMENTED_SCAN:
        d->segmented_scan.capacity = cap, d->segmented_scan.segment_capacity = cap / 16 + 1;
        item->segmented_scan = &d->segmented_scan;
        return "segmented-scan";
    case WGS_PLAN_REDUCE_BY_KEY:
        d->reduce_by_key.capacity = cap, item->reduce_by_key = &d->reduce_by_key;
        return "reduce-by-key";
    case WGS_PLAN_SELECT: d->select.capacity = cap, item->select = &d->select; return "select";
    case WGS_PLAN_HISTOGRAM:
        d->histogram = (wgs_histogram_plan_desc){.bins = 256, .upper = 4294967296.0, .capacity = cap};
        item->histogram = &d->histogram;
        return "histogram";
    case WGS_PLAN_ALLOC: d->alloc.capacity = cap, item->alloc = &d->alloc; return "alloc";
    case WGS_PLAN_SORT: d->sort.capacity = cap, item->sort = &d->sort; return "sort";
    default: d->topk.capacity = cap, item->topk = &d->topk; return "topk";
    }
}

/* One creation of the item's plan, timed (seconds in *t), and its destruction. */
static wgs_result creation_once(wgs_context *ctx, const wgs_prepare_desc *item, double *t) {
    wgs_result r;
    double t0 = cli_now();
#define CREATE_(member, create, type, destroy)     \
    do {                                           \
        type *plan_ = NULL;                        \
        r = create(ctx, item->member, &plan_);     \
        *t = cli_now() - t0;                       \
        destroy(plan_);                            \
    } while (0)
    switch (item->kind) {
    case WGS_PLAN_SCAN: CREATE_(scan, wgs_scan_plan_create, wgs_scan_plan, wgs_scan_plan_destroy); break;
    case WGS_PLAN_REDUCE: CREATE_(reduce, wgs_reduce_plan_create, wgs_reduce_plan, wgs_reduce_plan_destroy); break;
    case WGS_PLAN_COUNT: CREATE_(count, wgs_count_plan_create, wgs_reduce_plan, wgs_reduce_plan_destroy); break;
    case WGS_PLAN_SEGMENTED_REDUCE:
        CREATE_(segmented_reduce, wgs_segmented_reduce_plan_create, wgs_segmented_reduce_plan,
                wgs_segmented_reduce_plan_destroy);
        break;
    case WGS_PLAN_SCAN_BY_KEY:
        CREATE_(scan_by_key, wgs_scan_by_key_plan_create, wgs_scan_by_key_plan, wgs_scan_by_key_plan_destroy);
        break;
    case WGS_PLAN_SEGMENTED_SCAN:
        CREATE_(segmented_scan, wgs_segmented_scan_plan_create, wgs_segmented_scan_plan,
                wgs_segmented_scan_plan_destroy);
        break;
    case WGS_PLAN_REDUCE_BY_KEY:
        CREATE_(reduce_by_key, wgs_reduce_by_key_plan_create, wgs_reduce_by_key_plan,
                wgs_reduce_by_key_plan_destroy);
        break;
    case WGS_PLAN_SELECT: CREATE_(select, wgs_select_plan_create, wgs_select_plan, wgs_select_plan_destroy); break;
    case WGS_PLAN_HISTOGRAM:
        CREATE_(histogram, wgs_histogram_plan_create, wgs_histogram_plan, wgs_histogram_plan_destroy);
        break;
    case WGS_PLAN_ALLOC: CREATE_(alloc, wgs_alloc_plan_create, wgs_alloc_plan, wgs_alloc_plan_destroy); break;
    case WGS_PLAN_SORT: CREATE_(sort, wgs_sort_plan_create, wgs_sort_plan, wgs_sort_plan_destroy); break;
    default: CREATE_(topk, wgs_topk_plan_create, wgs_topk_plan, wgs_topk_plan_destroy); break;
    }
#undef CREATE_
    return r;
}

static int creation_outputs(const bench_options *o, const wgs_context_info *info, const creation_point *pts,
                            uint64_t cap, double prepare_all, uint64_t prepared, double sum_cold,
                            double in_turn) {
    int failed = 0;
    FILE *f = open_out(o->csv);
    if (!f) failed = 1;
    else {
        fprintf(f, "primitive,capacity,pipelines,cold_ms,warm_ms,after_prepare_ms\n");
        for (int k = 0; k < CREATION_KINDS; k++)
            fprintf(f, "%s,%llu,%llu,%.3f,%.4f,%.4f\n", pts[k].name, (unsigned long long)cap,
                    (unsigned long long)pts[k].pipelines, pts[k].cold * 1e3, pts[k].warm * 1e3,
                    pts[k].after_prepare * 1e3);
        fprintf(f, "all-in-turn,%llu,%llu,%.3f,,\n", (unsigned long long)cap, (unsigned long long)prepared,
                in_turn * 1e3);
        fprintf(f, "prepare-all,%llu,%llu,%.3f,,\n", (unsigned long long)cap, (unsigned long long)prepared,
                prepare_all * 1e3);
        if (close_out(f, o->csv)) failed = 1;
    }
    if (!(f = open_out(o->json))) return -1;
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    const char *keys[] = {"date", "command", "wgscan_version", "commit", "device", "backend", "adapter_type", "runtime"};
    const char *values[] = {date, o->command, wgs_version_string(), WGSCAN_GIT_DESCRIBE, info->device,
                            info->backend, info->adapter_type, info->runtime_path};
    fputs("{\n", f);
    for (int k = 0; k < (int)(sizeof keys / sizeof *keys); k++) {
        fprintf(f, "  \"%s\": ", keys[k]);
        cli_json_string(f, values[k]);
        fputs(",\n", f);
    }
    fprintf(f, "  \"capacity\": %llu,\n  \"warm_runs\": %d,\n  \"prepare_all_ms\": %.3f,\n"
               "  \"prepared_pipelines\": %llu,\n  \"all_in_turn_ms\": %.3f,\n  \"sum_cold_ms\": %.3f,\n"
               "  \"results\": [\n",
            (unsigned long long)cap, o->runs, prepare_all * 1e3, (unsigned long long)prepared, in_turn * 1e3,
            sum_cold * 1e3);
    for (int k = 0; k < CREATION_KINDS; k++)
        fprintf(f, "    {\"primitive\": \"%s\", \"pipelines\": %llu, \"cold_ms\": %.3f, \"warm_ms\": %.4f, "
                   "\"after_prepare_ms\": %.4f}%s\n",
                pts[k].name, (unsigned long long)pts[k].pipelines, pts[k].cold * 1e3, pts[k].warm * 1e3,
                pts[k].after_prepare * 1e3, k + 1 < CREATION_KINDS ? "," : "");
    fprintf(f, "  ]\n}\n");
    if (close_out(f, o->json)) failed = 1;
    return failed ? -1 : 0;
}

/* A GPU error on ctx: said, the context destroyed. */
static int creation_failed(wgs_context *ctx, wgs_result r, const char *what) {
    int rc = cli_gpu_error(ctx, r, what);
    wgs_context_destroy(ctx);
    return rc;
}

static int bench_creation(const bench_options *o) {
    const char *outputs[] = {o->json, o->csv}, *options[] = {"--json", "--csv"};
    if (cli_check_outputs(outputs, options, 2)) return EXIT_USAGE;
    const uint64_t cap = o->nmax;
    creation_point pts[CREATION_KINDS];
    creation_desc descs[CREATION_KINDS];
    wgs_prepare_desc items[CREATION_KINDS];
    double t[MAX_RUNS];
    wgs_context *ctx = NULL;
    wgs_context_info info;
    /* The process's start-up costs (the runtime loaded, the compiler's first use) fall
     * on a plan of another kind, on a context of its own, not on the first primitive. */
    if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
    wgs_context_get_info(ctx, &info);
    wgs_reduce_plan *first = NULL;
    wgs_result r = wgs_reduce_plan_create(
        ctx, &(wgs_reduce_plan_desc){.type = WGS_TYPE_F32, .op = WGS_OP_MAX, .capacity = 1024}, &first);
    wgs_reduce_plan_destroy(first);
    if (r != WGS_OK) return creation_failed(ctx, r, "warming up");
    wgs_context_destroy(ctx);
    printf("plan creation on %s (%s, %s), capacity %llu: cold on a fresh context (1 run), warm the median of %d\n",
           info.device, info.backend, info.adapter_type, (unsigned long long)cap, o->runs);
    printf("%-18s %9s %12s %12s\n", "primitive", "pipelines", "cold_ms", "warm_ms");
    double sum_cold = 0;
    for (int k = 0; k < CREATION_KINDS; k++) {
        creation_point *p = &pts[k];
        memset(p, 0, sizeof *p);
        p->name = creation_item(k, cap, &descs[k], &items[k]);
        fprintf(stderr, "bench: [%d/%d] creating %s\n", k + 1, CREATION_KINDS, p->name);
        if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
        r = creation_once(ctx, &items[k], &p->cold);
        p->pipelines = wgs_experimental_pipelines(ctx).created;
        for (int i = 0; r == WGS_OK && i < o->runs; i++) r = creation_once(ctx, &items[k], &t[i]);
        if (r != WGS_OK) return creation_failed(ctx, r, p->name);
        p->warm = cli_median(t, o->runs);
        wgs_context_destroy(ctx);
        sum_cold += p->cold;
        printf("%-18s %9llu %12.1f %12.3f\n", p->name, (unsigned long long)p->pipelines, p->cold * 1e3,
               p->warm * 1e3);
        fflush(stdout);
    }
    /* All of them created in turn on one fresh context: the pipelines they share are
     * compiled once, as wgs_prepare compiles them, so the two differ by the waits alone. */
    fprintf(stderr, "bench: creating all %d in turn\n", CREATION_KINDS);
    if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
    double in_turn = 0;
    for (int k = 0; r == WGS_OK && k < CREATION_KINDS; k++) {
        double tk;
        r = creation_once(ctx, &items[k], &tk);
        in_turn += tk;
    }
    uint64_t in_turn_pipelines = wgs_experimental_pipelines(ctx).created;
    if (r != WGS_OK) return creation_failed(ctx, r, "creating all in turn");
    wgs_context_destroy(ctx);
    fprintf(stderr, "bench: preparing all %d at once\n", CREATION_KINDS);
    if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
    double t0 = cli_now();
    r = wgs_prepare(ctx, items, CREATION_KINDS);
    double prepare_all = cli_now() - t0;
    wgs_experimental_pipeline_counts before = wgs_experimental_pipelines(ctx);
    for (int k = 0; r == WGS_OK && k < CREATION_KINDS; k++) r = creation_once(ctx, &items[k], &pts[k].after_prepare);
    if (r != WGS_OK) return creation_failed(ctx, r, "wgs_prepare and the creations after it");
    wgs_experimental_pipeline_counts after = wgs_experimental_pipelines(ctx);
    wgs_context_destroy(ctx);
    printf("all %d created in turn on one context: %.1f ms for %llu pipelines\n", CREATION_KINDS, in_turn * 1e3,
           (unsigned long long)in_turn_pipelines);
    printf("wgs_prepare of all %d: %.1f ms for %llu pipelines (%.2f times faster; the cold creations' sum: "
           "%.1f ms, %.2f times)\n",
           CREATION_KINDS, prepare_all * 1e3, (unsigned long long)before.prepared, in_turn / prepare_all,
           sum_cold * 1e3, sum_cold / prepare_all);
    if (after.created != before.created) {
        fprintf(stderr, "wgscan: creating the prepared plans compiled %llu pipelines\n",
                (unsigned long long)(after.created - before.created));
        return EXIT_VERIFY_FAILED;
    }
    return creation_outputs(o, &info, pts, cap, prepare_all, before.prepared, sum_cold, in_turn) ? EXIT_USAGE
                                                                                                 : EXIT_OK;
}

/* The pools' size: run i of a point reads slot i and writes slot i + 1 of pools cut into
 * slots of the point's size, so a point touches at most runs + warm-up + 1 slots and a
 * pool larger than that many slots of the sweep's largest point is memory never used (a
 * 2^10..2^14 sweep held 1.36 GB for pools of 512 MiB). The widest slot: 4 bytes an element
 * for the scans, a sort's key, or the copy beside a primitive (half the bytes it moves). */
static uint64_t pool_for_sweep(const bench *b, uint64_t nmax, const int *prims, int nprims) {
    uint64_t widest = 4 * nmax;
    for (int i = 0; i < nprims; i++) {
        uint64_t key = IS_SORT(prims[i]) ? nmax * wgs_type_size(sort_key_type(prims[i])) : 4 * nmax;
        uint64_t copy = copy_bytes_of(prim_bytes(prims[i], nmax));
        widest = key > widest ? key : widest;
        widest = copy > widest ? copy : widest;
    }
    scan_job j;
    job_layout(b, widest / 4, 4, &j);
    uint64_t need = (uint64_t)(b->runs + b->warmup + 1) * j.slot_bytes;
    return need < POOL_BYTES ? need : POOL_BYTES;
}

int cmd_bench(const bench_options *o) {
    if (o->transfers) return bench_transfers(o);
    if (o->creation) return bench_creation(o);
    uint64_t nmin = o->nmin, nmax = o->nmax;
    const int runs = o->runs, nser = o->nseries, nalgo = o->nalgo, nprims = o->nprims;
    const series *ser = o->series;
    const wgs_scan_algorithm *algos = o->algos;
    const int *prims = o->prims;
    const char *json = o->json, *csv = o->csv, *svg = o->svg, *command = o->command;
    /* Experiments: WGSCAN_BENCH_POOL_MIB, the pool's size (how the slots' placement moves
     * the timings; a small one spares the CLI test the set-up of 512 MiB, most of a
     * minute on a CPU driver); WGSCAN_BENCH_PLAN_MAX, plans for more than --max. */
    uint64_t pool_mib = 0, plan_max = 0;
    const char *env = getenv("WGSCAN_BENCH_POOL_MIB");
    if (env && (cli_parse_u64(env, &pool_mib) || pool_mib > (1u << 20)))
        return cli_usage_error("bad WGSCAN_BENCH_POOL_MIB '%s' (0..2^20)", env);
    env = getenv("WGSCAN_BENCH_PLAN_MAX");
    if (env && (cli_parse_u64(env, &plan_max) || plan_max > CLI_MAX_N))
        return cli_usage_error("bad WGSCAN_BENCH_PLAN_MAX '%s' (0..2^40)", env);
    /* A sweep takes minutes: find out now, not after it, that a file cannot be written. */
    const char *outputs[] = {json, csv, svg}, *options[] = {"--json", "--csv", "--svg"};
    if (cli_check_outputs(outputs, options, 3)) return EXIT_USAGE;
    bench b;
    memset(&b, 0, sizeof b);
    b.runs = runs;
    b.warmup = 5;
    if (cli_context(&b.ctx) != WGS_OK) return EXIT_GPU_ERROR;
    wgs_context_get_info(b.ctx, &b.info);
    b.point_warm_s = cli_warmup_seconds(&b.info) / 4;
    if (!b.info.has_timestamp_query) {
        wgs_context_destroy(b.ctx);
        fprintf(stderr, "wgscan: bench needs the timestamp-query feature, which %s lacks\n", b.info.device);
        return EXIT_GPU_ERROR;
    }
    int cpu = strcmp(b.info.adapter_type, "cpu") == 0;
    if (!nmax) {
        /* The two pools must fit the device: up to 2^30 on GPUs; CPU drivers are slow. */
        nmax = cpu ? 1u << 22 : 1u << 30;
        while (nmax > nmin && 4 * nmax > b.info.max_buffer_size / 2) nmax /= 2;
    }
    if (nmax < nmin) return wgs_context_destroy(b.ctx), cli_usage_error("--max is below --min");
    b.pool_bytes = pool_mib ? pool_mib << 20 : pool_for_sweep(&b, nmax, prims, nprims);
    uint64_t slot_max = 4 * nmax + 512;
    if (b.pool_bytes < 2 * slot_max) b.pool_bytes = 2 * slot_max;
    if (b.pool_bytes > b.info.max_buffer_size) b.pool_bytes = b.info.max_buffer_size;
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst;
    wgs_result r = wgs_buffer_create(b.ctx, b.pool_bytes, usage, &b.in_pool);
    if (r == WGS_OK) r = wgs_buffer_create(b.ctx, b.pool_bytes, usage, &b.out_pool);
    if (r == WGS_OK) r = wgs_timer_create(b.ctx, (uint32_t)(runs + b.warmup), &b.timer);
    int rc = EXIT_OK;
    point *pts = NULL;
    int np = 0;
    if (r != WGS_OK) {
        rc = cli_gpu_error(b.ctx, r, "allocating benchmark buffers");
        goto done;
    }
    /* Random input, written in pieces of host memory. Floats in [-1, 1], integers over
     * the full range: the kind of data the tests check. */
    {
        const uint64_t piece = 64ull << 20;
        void *host = malloc(piece);
        for (uint64_t off = 0; host && r == WGS_OK && off < b.pool_bytes; off += piece) {
            uint64_t len = b.pool_bytes - off < piece ? b.pool_bytes - off : piece;
            ref_fill_random(host, WGS_TYPE_F32, WGS_OP_ADD, len / 4, off);
            r = wgs_buffer_write(b.ctx, b.in_pool, off, host, len & ~3ull);
        }
        free(host);
        if (r == WGS_OK) r = wgs_wait(b.ctx);
        if (r != WGS_OK) {
            rc = cli_gpu_error(b.ctx, r, "filling the input pool");
            goto done;
        }
    }
    if ((r = warm_up(&b)) != WGS_OK) {
        rc = cli_gpu_error(b.ctx, r, "warming up");
        goto done;
    }
    int kmin = 0, kmax = 0;
    while ((1ull << kmin) < nmin) kmin++;
    while ((1ull << kmax) < nmax) kmax++;
    int total = (kmax - kmin + 1) * (nser * nalgo + nprims);
    pts = calloc((size_t)total, sizeof *pts);
    printf("bench on %s (%s, %s): median of %d runs after %d warm-up, inputs rotated over %.1f MiB\n",
           b.info.device, b.info.backend, b.info.adapter_type, runs, b.warmup, (double)b.pool_bytes / (1 << 20));
    printf("%-5s %-4s %-18s %12s %12s %10s %10s %12s %8s\n", "type", "op", "algorithm", "n", "time_us",
           "Gelem/s", "GB/s", "copy_us", "t/copy");
    for (int si = 0; si < nser && rc == EXIT_OK; si++) {
        for (int ai = 0; ai < nalgo && rc == EXIT_OK; ai++) {
            uint64_t cap = plan_max > nmax ? plan_max : nmax;
            wgs_scan_plan_desc pd = {.type = ser[si].type, .op = ser[si].op, .kind = WGS_SCAN_EXCLUSIVE,
                                     .algorithm = algos[ai], .capacity = cap, .label = "bench"};
            wgs_scan_plan *plan = NULL;
            r = wgs_scan_plan_create(b.ctx, &pd, &plan);
            if (r != WGS_OK) {
                rc = cli_gpu_error(b.ctx, r, "creating a scan plan");
                break;
            }
            for (int k = kmin; k <= kmax && rc == EXIT_OK; k++) {
                point *p = &pts[np];
                p->s = ser[si];
                p->algo = algos[ai];
                snprintf(p->label, sizeof p->label, "%s", cli_algorithm_name(algos[ai]));
                snprintf(p->title, sizeof p->title, "scan %s %s (%s)", wgs_type_name(p->s.type), wgs_op_name(p->s.op),
                         cli_algorithm_name(algos[ai]));
                p->op = wgs_op_name(p->s.op);
                p->n = 1ull << k;
                p->bytes = 2.0 * (double)p->n * (double)wgs_type_size(p->s.type);
                fprintf(stderr, "bench: [%d/%d] %s %s %s n=2^%d\n", np + 1, total, wgs_type_name(p->s.type),
                        wgs_op_name(p->s.op), cli_algorithm_name(p->algo), k);
                scan_job j = {plan, p->n, 0, 0, 0};
                job_layout(&b, p->n, wgs_type_size(p->s.type), &j);
                double cmin;
                r = time_runs(&b, record_scan, &j, b.point_warm_s, &p->median, &p->min, &p->max);
                if (r == WGS_OK) r = time_runs(&b, record_copy, &j, 0, &p->copy_median, &cmin, NULL);
                if (r != WGS_OK) {
                    rc = cli_gpu_error(b.ctx, r, "a benchmark run");
                    break;
                }
                p->copy_bytes = copy_size(&j);
                copy_check(&b, p, p->n * wgs_type_size(p->s.type));
                print_point(p);
                np++;
            }
            wgs_scan_plan_destroy(plan);
        }
    }
    if (rc == EXIT_OK && nprims) {
        int got = bench_primitives(&b, prims, nprims, kmin, kmax, pts, np, total);
        if (got < 0) rc = EXIT_GPU_ERROR;
        else np = got;
    }
    if (np && write_outputs(&b, pts, np, json, csv, svg, command) != 0 && rc == EXIT_OK) rc = EXIT_USAGE;
done:
    free(pts);
    wgs_timer_destroy(b.timer);
    wgs_buffer_release(b.ctx, b.in_pool);
    wgs_buffer_release(b.ctx, b.out_pool);
    wgs_context_destroy(b.ctx);
    return rc;
}
