#define _POSIX_C_SOURCE 200809L /* strtok_r, gmtime */
/*
 * `wgscan bench`: a benchmark, not a test. Sweeps n over powers of two for each series
 * (type and operator) and algorithm; GPU time from timestamp queries (Dawn's
 * quantization is off), the median of many runs after warm-up, inputs and outputs
 * rotated through pools larger than the GPU's caches so no run finds its data cached,
 * and a WGSL copy of the same bytes timed in the same run as the ceiling.
 * Writes a table, JSON, CSV and an SVG chart of Gelem/s against n.
 */
#include "cli.h"
#include "reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RUNS 1000
#define BATCH 10                   /* runs recorded per submit */
#define POOL_BYTES (512ull << 20)  /* rotation pool: ten times an H200's 50 MB L2 */

typedef struct series {
    wgs_type type;
    wgs_op op;
} series;

typedef struct point {
    series s;
    wgs_scan_algorithm algo;
    uint64_t n;
    double median, min, copy_median;
} point;

typedef struct bench {
    wgs_context *ctx;
    wgs_context_info info;
    int runs, warmup;
    WGPUBuffer in_pool, out_pool;
    uint64_t pool_bytes;
    wgs_timer *timer;
} bench;

static int parse_series(const char *s, series *out, int cap) {
    int k = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(tok, ':');
        if (!colon || k == cap) return -1;
        *colon = 0;
        if (cli_parse_type(tok, &out[k].type) || cli_parse_op(colon + 1, &out[k].op)) return -1;
        k++;
    }
    return k;
}

/* Times `runs + warmup` recordings of `record` (which writes timestamp pair i); returns
 * the median and minimum of the timed runs in seconds. */
typedef wgs_result (*record_fn)(bench *b, void *user, WGPUCommandEncoder enc, int run);

static wgs_result time_runs(bench *b, record_fn record, void *user, double *median, double *min) {
    int total = b->runs + b->warmup;
    for (int first = 0; first < total; first += BATCH) {
        WGPUCommandEncoder enc;
        wgs_result r = wgs_encoder_create(b->ctx, &enc);
        for (int i = first; r == WGS_OK && i < total && i < first + BATCH; i++) r = record(b, user, enc, i);
        if (r == WGS_OK && first + BATCH >= total) r = wgs_timer_resolve(b->timer, enc);
        wgs_result s = wgs_submit(b->ctx, enc);
        if (r == WGS_OK) r = s;
        if (r != WGS_OK) return r;
    }
    double t[MAX_RUNS + 64];
    wgs_result r = wgs_timer_read(b->timer, t, (uint32_t)total);
    if (r != WGS_OK) return r;
    *min = 1e30;
    for (int i = b->warmup; i < total; i++) *min = t[i] < *min ? t[i] : *min;
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
    wgs_scan_args a = {b->in_pool, in_slot * j->slot_bytes, b->out_pool, out_slot * j->slot_bytes,
                       j->n, wgs_timer_query_set(b->timer), 2u * (uint32_t)run, 2u * (uint32_t)run + 1u};
    return wgs_scan_encode(j->plan, enc, &a);
}

static wgs_result record_copy(bench *b, void *user, WGPUCommandEncoder enc, int run) {
    scan_job *j = user;
    uint64_t in_slot = (uint64_t)run % j->slots, out_slot = ((uint64_t)run + 1) % j->slots;
    uint64_t bytes = (j->n * j->es + 15) & ~15ull; /* the copy moves whole 16-byte words */
    wgs_copy_args a = {b->in_pool, in_slot * j->slot_bytes, b->out_pool, out_slot * j->slot_bytes,
                       bytes, wgs_timer_query_set(b->timer), 2u * (uint32_t)run, 2u * (uint32_t)run + 1u};
    return wgs_copy_encode(b->ctx, enc, &a);
}

static void job_layout(bench *b, uint64_t n, size_t es, scan_job *j) {
    uint64_t align = b->info.min_storage_offset_alignment < 256 ? 256 : b->info.min_storage_offset_alignment;
    j->n = n;
    j->es = es;
    j->slot_bytes = ((n * (es < 4 ? 4 : es) + 15) / align + 1) * align;
    j->slots = b->pool_bytes / j->slot_bytes;
    if (j->slots < 2) j->slots = 1;
}

static void write_outputs(const bench *b, const point *pts, int np, const char *json, const char *csv,
                          const char *svg, const char *command) {
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    FILE *f;
    if (csv && (f = fopen(csv, "w"))) {
        fprintf(f, "type,op,algorithm,n,median_us,min_us,gelem_per_s,gb_per_s,copy_us,time_over_copy\n");
        for (int i = 0; i < np; i++) {
            const point *p = &pts[i];
            double bytes = 2.0 * (double)p->n * (double)wgs_type_size(p->s.type);
            fprintf(f, "%s,%s,%s,%llu,%.3f,%.3f,%.4f,%.2f,%.3f,%.4f\n", wgs_type_name(p->s.type),
                    wgs_op_name(p->s.op), cli_algorithm_name(p->algo), (unsigned long long)p->n,
                    p->median * 1e6, p->min * 1e6, (double)p->n / p->median * 1e-9, bytes / p->median * 1e-9,
                    p->copy_median * 1e6, p->median / p->copy_median);
        }
        fclose(f);
    }
    if (json && (f = fopen(json, "w"))) {
        fprintf(f, "{\n  \"date\": \"%s\",\n  \"command\": \"%s\",\n  \"device\": \"%s\",\n"
                   "  \"vendor\": \"%s\",\n  \"backend\": \"%s\",\n  \"adapter_type\": \"%s\",\n"
                   "  \"runs\": %d,\n  \"warmup\": %d,\n  \"results\": [\n",
                date, command, b->info.device, b->info.vendor, b->info.backend, b->info.adapter_type,
                b->runs, b->warmup);
        for (int i = 0; i < np; i++) {
            const point *p = &pts[i];
            double bytes = 2.0 * (double)p->n * (double)wgs_type_size(p->s.type);
            fprintf(f, "    {\"type\": \"%s\", \"op\": \"%s\", \"algorithm\": \"%s\", \"n\": %llu, "
                       "\"median_us\": %.3f, \"min_us\": %.3f, \"gelem_per_s\": %.4f, \"gb_per_s\": %.2f, "
                       "\"copy_us\": %.3f, \"time_over_copy\": %.4f}%s\n",
                    wgs_type_name(p->s.type), wgs_op_name(p->s.op), cli_algorithm_name(p->algo),
                    (unsigned long long)p->n, p->median * 1e6, p->min * 1e6, (double)p->n / p->median * 1e-9,
                    bytes / p->median * 1e-9, p->copy_median * 1e6, p->median / p->copy_median,
                    i + 1 < np ? "," : "");
        }
        fprintf(f, "  ]\n}\n");
        fclose(f);
    }
    if (svg && (f = fopen(svg, "w"))) {
        /* log2(n) across, Gelem/s up; one line per series and algorithm, dashed copy. */
        const double W = 900, H = 520, L = 70, R = 220, T = 40, B = 50;
        double kmin = 1e9, kmax = 0, ymax = 0;
        for (int i = 0; i < np; i++) {
            double k = log2((double)pts[i].n), g = (double)pts[i].n / pts[i].median * 1e-9;
            double gc = (double)pts[i].n / pts[i].copy_median * 1e-9;
            kmin = k < kmin ? k : kmin;
            kmax = k > kmax ? k : kmax;
            ymax = g > ymax ? g : ymax;
            ymax = gc > ymax ? gc : ymax;
        }
        if (kmax <= kmin) kmax = kmin + 1;
        ymax = ymax > 0 ? ymax * 1.1 : 1;
#define SX(k) (L + ((k) - kmin) / (kmax - kmin) * (W - L - R))
#define SY(y) (H - B - (y) / ymax * (H - T - B))
        fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' font-family='sans-serif' font-size='12'>\n"
                   "<rect width='100%%' height='100%%' fill='white'/>\n"
                   "<text x='%.0f' y='22' font-size='15'>wgscan scan throughput, %s (%s)</text>\n",
                W, H, L, b->info.device, date);
        for (int i = 0; i <= 5; i++) {
            double y = ymax * i / 5;
            fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='#ddd'/><text x='%.1f' y='%.1f' text-anchor='end'>%.3g</text>\n",
                    L, W - R, SY(y), SY(y), L - 6, SY(y) + 4, y);
        }
        for (int k = (int)kmin; k <= (int)kmax; k += 2)
            fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='middle'>2^%d</text>\n", SX(k), H - B + 18, k);
        fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='middle'>n (elements)</text>\n", (L + W - R) / 2, H - 8);
        fprintf(f, "<text x='16' y='%.1f' transform='rotate(-90 16 %.1f)' text-anchor='middle'>Gelem/s</text>\n",
                (T + H - B) / 2, (T + H - B) / 2);
        static const char *colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
        int line = 0;
        for (int i = 0; i < np;) {
            int j = i;
            while (j < np && pts[j].s.type == pts[i].s.type && pts[j].s.op == pts[i].s.op && pts[j].algo == pts[i].algo) j++;
            const char *c = colors[line % 8];
            for (int pass = 0; pass < 2; pass++) { /* the scan, then its copy ceiling */
                if (pass == 1 && line > 0) break; /* one copy line is enough: same bytes for 4-byte types */
                fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2'%s points='", pass ? "#777" : c,
                        pass ? " stroke-dasharray='6 4'" : "");
                for (int k = i; k < j; k++) {
                    double t = pass ? pts[k].copy_median : pts[k].median;
                    fprintf(f, "%.1f,%.1f ", SX(log2((double)pts[k].n)), SY((double)pts[k].n / t * 1e-9));
                }
                fprintf(f, "'/>\n");
                double ly = T + 20 + 18.0 * (pass ? 0 : line + 1);
                fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='%s' stroke-width='2'%s/>"
                           "<text x='%.1f' y='%.1f'>%s</text>\n",
                        W - R + 10, W - R + 40, ly, ly, pass ? "#777" : c, pass ? " stroke-dasharray='6 4'" : "",
                        W - R + 46, ly + 4,
                        pass ? "copy (same bytes)" : "");
                if (!pass)
                    fprintf(f, "<text x='%.1f' y='%.1f'>%s %s %s</text>\n", W - R + 46, ly + 4,
                            wgs_type_name(pts[i].s.type), wgs_op_name(pts[i].s.op), cli_algorithm_name(pts[i].algo));
            }
            line++;
            i = j;
        }
        fprintf(f, "</svg>\n");
#undef SX
#undef SY
        fclose(f);
    }
}

int cmd_bench(int argc, char **argv) {
    uint64_t nmin = 1u << 10, nmax = 0;
    int runs = 30;
    series ser[8] = {{WGS_TYPE_U32, WGS_OP_ADD}, {WGS_TYPE_F32, WGS_OP_ADD}, {WGS_TYPE_I32, WGS_OP_MAX}};
    int nser = 3;
    wgs_scan_algorithm algos[2] = {WGS_SCAN_ALGORITHM_SINGLE_PASS, WGS_SCAN_ALGORITHM_MULTILEVEL};
    int nalgo = 2;
    const char *json = "bench.json", *csv = "bench.csv", *svg = "bench.svg";
    char command[512] = "wgscan bench";
    for (int i = 1; i < argc; i++) {
        size_t len = strlen(command);
        snprintf(command + len, sizeof command - len, " %s", argv[i]);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return cli_usage_error("option '%s' needs a value or is unknown", a);
        uint64_t u;
        if (strcmp(a, "--min") == 0 || strcmp(a, "--max") == 0) {
            if (cli_parse_u64(v, &u) || u == 0 || (u & (u - 1))) return cli_usage_error("bad %s '%s' (a power of two)", a, v);
            *(a[3] == 'i' ? &nmin : &nmax) = u;
        } else if (strcmp(a, "--runs") == 0) {
            if (cli_parse_u64(v, &u) || u < 20 || u > MAX_RUNS) return cli_usage_error("bad --runs '%s' (20..%d)", v, MAX_RUNS);
            runs = (int)u;
        } else if (strcmp(a, "--series") == 0) {
            nser = parse_series(v, ser, 8);
            if (nser <= 0) return cli_usage_error("bad --series '%s' (e.g. u32:add,f32:add,i32:max)", v);
        } else if (strcmp(a, "--algorithms") == 0) {
            nalgo = 0;
            char buf[128];
            snprintf(buf, sizeof buf, "%s", v);
            for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                if (nalgo == 2 || cli_parse_algorithm(tok, &algos[nalgo]) || algos[nalgo] == WGS_SCAN_ALGORITHM_DEFAULT)
                    return cli_usage_error("bad --algorithms '%s' (single-pass,multilevel)", v);
                nalgo++;
            }
        } else if (strcmp(a, "--json") == 0) {
            json = v;
        } else if (strcmp(a, "--csv") == 0) {
            csv = v;
        } else if (strcmp(a, "--svg") == 0) {
            svg = v;
        } else {
            return cli_usage_error("unknown option '%s'", a);
        }
        i++;
    }
    bench b;
    memset(&b, 0, sizeof b);
    b.runs = runs;
    b.warmup = 5;
    if (cli_context(&b.ctx) != WGS_OK) return EXIT_GPU_ERROR;
    wgs_context_get_info(b.ctx, &b.info);
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
    b.pool_bytes = POOL_BYTES;
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
    /* Bring the GPU to its working clocks: a cold GPU ran the first sizes of a sweep at a
     * third of its copy speed. About a second of copies over the whole pool. */
    {
        scan_job j = {NULL, b.pool_bytes / 4 / 2, 0, 0, 0};
        job_layout(&b, j.n, 4, &j);
        double t0 = cli_now(), med, mn;
        while (r == WGS_OK && cli_now() - t0 < 1.0) r = time_runs(&b, record_copy, &j, &med, &mn);
        if (r != WGS_OK) {
            rc = cli_gpu_error(b.ctx, r, "warming up");
            goto done;
        }
    }
    int kmin = 0, kmax = 0;
    while ((1ull << kmin) < nmin) kmin++;
    while ((1ull << kmax) < nmax) kmax++;
    int total = (kmax - kmin + 1) * nser * nalgo;
    pts = calloc((size_t)total, sizeof *pts);
    printf("bench on %s (%s, %s): median of %d runs after %d warm-up, inputs rotated over %llu MiB\n",
           b.info.device, b.info.backend, b.info.adapter_type, runs, b.warmup,
           (unsigned long long)(b.pool_bytes >> 20));
    printf("%-5s %-4s %-12s %12s %12s %10s %10s %12s %8s\n", "type", "op", "algorithm", "n", "time_us",
           "Gelem/s", "GB/s", "copy_us", "t/copy");
    for (int si = 0; si < nser && rc == EXIT_OK; si++) {
        for (int ai = 0; ai < nalgo && rc == EXIT_OK; ai++) {
            wgs_scan_plan_desc pd = {ser[si].type, ser[si].op, WGS_SCAN_EXCLUSIVE, algos[ai], nmax, "bench", 0};
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
                p->n = 1ull << k;
                fprintf(stderr, "bench: [%d/%d] %s %s %s n=2^%d\n", np + 1, total, wgs_type_name(p->s.type),
                        wgs_op_name(p->s.op), cli_algorithm_name(p->algo), k);
                scan_job j = {plan, p->n, 0, 0, 0};
                job_layout(&b, p->n, wgs_type_size(p->s.type), &j);
                double cmin;
                r = time_runs(&b, record_scan, &j, &p->median, &p->min);
                if (r == WGS_OK) r = time_runs(&b, record_copy, &j, &p->copy_median, &cmin);
                if (r != WGS_OK) {
                    rc = cli_gpu_error(b.ctx, r, "a benchmark run");
                    break;
                }
                double bytes = 2.0 * (double)p->n * (double)wgs_type_size(p->s.type);
                printf("%-5s %-4s %-12s %12llu %12.2f %10.3f %10.1f %12.2f %8.3f\n", wgs_type_name(p->s.type),
                       wgs_op_name(p->s.op), cli_algorithm_name(p->algo), (unsigned long long)p->n,
                       p->median * 1e6, (double)p->n / p->median * 1e-9, bytes / p->median * 1e-9,
                       p->copy_median * 1e6, p->median / p->copy_median);
                fflush(stdout);
                np++;
            }
            wgs_scan_plan_destroy(plan);
        }
    }
    write_outputs(&b, pts, np, json, csv, svg, command);
    if (np) printf("wrote %s, %s, %s\n", json, csv, svg);
done:
    free(pts);
    wgs_timer_destroy(b.timer);
    wgs_buffer_release(b.ctx, b.in_pool);
    wgs_buffer_release(b.ctx, b.out_pool);
    wgs_context_destroy(b.ctx);
    return rc;
}
