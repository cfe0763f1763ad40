/*
 * `wgscan reduce | count | compact | histogram`: one configuration of a primitive on
 * random data or a raw file, timed on the GPU (timestamp queries, median after a
 * warm-up), with transfers and a CPU reference, verified on request. The commands
 * share everything but the plan, the encode and the check, which the `prim` table holds.
 */
#include "cli.h"
#include "reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPEAT 2048

typedef struct prim_options {
    const char *cmd;
    uint64_t n, seed;
    wgs_type type;
    int verify, repeat, have_n;
    const char *in_path, *out_path, *flags_path;
    wgs_op op;
    wgs_reduce_algorithm algorithm;
    wgs_select_algorithm select_algorithm;
    wgs_float_sum float_sum;
    wgs_predicate pred;
    wgs_select_mode mode;
    int mode_given;
    int partition;
    wgs_payload payload;
    double density;
    uint32_t bins;
    double lower, upper;
    int have_range;
} prim_options;

typedef struct prim_run {
    wgs_context *ctx;
    const prim_options *o;
    void *host_in;
    int own_in; /* host_in is ours (random data), not the caller's file */
    uint8_t *flags;
    WGPUBuffer in, flags_buf, out, pay_out, count;
    wgs_reduce_plan *reduce;
    wgs_select_plan *select;
    wgs_histogram_plan *hist;
    uint64_t out_bytes; /* what --out and the check read back */
    void *result;
    uint32_t *pay_result, selected;
} prim_run;

static void run_free(prim_run *s) {
    wgs_reduce_plan_destroy(s->reduce);
    wgs_select_plan_destroy(s->select);
    wgs_histogram_plan_destroy(s->hist);
    wgs_buffer_release(s->ctx, s->in);
    wgs_buffer_release(s->ctx, s->flags_buf);
    wgs_buffer_release(s->ctx, s->out);
    wgs_buffer_release(s->ctx, s->pay_out);
    wgs_buffer_release(s->ctx, s->count);
    if (s->own_in) free(s->host_in);
    free(s->flags);
    free(s->result);
    free(s->pay_result);
}

/* Random input: what each command exercises. Reduce: the scan data of the operator.
 * Count and compact: small values (integers 0..99, i32 -50..49, f32 in [-1, 1)) so
 * predicates such as lt:50 split them, runs of equal values for unique and rle.
 * Histogram: full-range bits for integers, [-1, 1) for f32. */
static void fill_input(const prim_options *o, void *data) {
    uint32_t *w = data;
    int arg = o->op == WGS_OP_ARGMIN || o->op == WGS_OP_ARGMAX;
    if (!strcmp(o->cmd, "reduce")) {
        ref_fill_random(data, o->type, arg ? WGS_OP_MIN : o->op, o->n, o->seed);
        return;
    }
    ref_fill_random(data, o->type == WGS_TYPE_F32 ? WGS_TYPE_F32 : WGS_TYPE_U32, WGS_OP_ADD, o->n, o->seed);
    if (!strcmp(o->cmd, "histogram") || o->type == WGS_TYPE_F32) return;
    for (uint64_t i = 0; i < o->n; i++) {
        uint32_t v = w[i] % 100u;
        if (o->mode >= WGS_SELECT_UNIQUE && i > 0 && (w[i] >> 28) < 12) v = w[i - 1]; /* runs */
        else if (o->type == WGS_TYPE_I32) v = (uint32_t)((int32_t)v - 50);
        w[i] = v;
    }
}

static wgs_result make_plan(prim_run *s) {
    const prim_options *o = s->o;
    if (!strcmp(o->cmd, "reduce")) {
        wgs_reduce_plan_desc d = {o->type, o->op, o->algorithm, o->float_sum, 0, o->n, "wgscan cli"};
        s->out_bytes = o->op == WGS_OP_ARGMIN || o->op == WGS_OP_ARGMAX ? 8 : 4;
        return wgs_reduce_plan_create(s->ctx, &d, &s->reduce);
    }
    if (!strcmp(o->cmd, "count")) {
        wgs_count_plan_desc d = {o->type, o->pred, o->algorithm, o->n, "wgscan cli"};
        s->out_bytes = 4;
        return wgs_count_plan_create(s->ctx, &d, &s->reduce);
    }
    if (!strcmp(o->cmd, "compact")) {
        wgs_select_plan_desc d = {o->type, o->mode, o->pred, o->partition, o->payload, o->n, "wgscan cli", o->select_algorithm};
        s->out_bytes = o->n * 4;
        return wgs_select_plan_create(s->ctx, &d, &s->select);
    }
    wgs_histogram_plan_desc d = {o->type, o->bins, o->lower, o->upper, o->n, "wgscan cli"};
    s->out_bytes = (uint64_t)o->bins * 4;
    return wgs_histogram_plan_create(s->ctx, &d, &s->hist);
}

static wgs_result encode(prim_run *s, WGPUCommandEncoder enc, WGPUQuerySet qs, uint32_t pair) {
    uint64_t n = s->o->n;
    if (s->reduce) {
        wgs_reduce_args a = {.input = s->in, .n = n, .output = s->out, .timestamp_query_set = qs,
                             .timestamp_begin_index = 2 * pair, .timestamp_end_index = 2 * pair + 1};
        return wgs_reduce_encode(s->reduce, enc, &a);
    }
    if (s->select) {
        wgs_select_args a = {.input = s->in, .flags = s->flags_buf, .output = s->out, .payload_out = s->pay_out,
                             .count = s->count, .n = n, .timestamp_query_set = qs,
                             .timestamp_begin_index = 2 * pair, .timestamp_end_index = 2 * pair + 1};
        return wgs_select_encode(s->select, enc, &a);
    }
    wgs_histogram_args a = {s->in, 0, n, s->out, 0, qs, 2 * pair, 2 * pair + 1};
    return wgs_histogram_encode(s->hist, enc, &a);
}

static double f32_of(uint32_t bits) {
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Compares the downloaded result with the CPU reference; returns 1 when it matches. */
static int check(prim_run *s, double *cpu_seconds) {
    const prim_options *o = s->o;
    uint32_t *got = s->result;
    double t0 = cli_now();
    int ok = 1;
    if (!strcmp(o->cmd, "reduce")) {
        ref_reduction want = ref_reduce(s->host_in, o->type, o->op, o->n);
        *cpu_seconds = cli_now() - t0;
        int arg = o->op == WGS_OP_ARGMIN || o->op == WGS_OP_ARGMAX;
        if (o->type == WGS_TYPE_F32 && o->op == WGS_OP_ADD) {
            /* wgscan.h's bound, plus the fixed-point steps when asked for */
            double tol = ((double)o->n / 1024 + 64) * ldexp(1, -24) * want.abs_sum;
            if (o->float_sum == WGS_FLOAT_SUM_FIXED_POINT)
                tol += ((double)o->n / 128 + 1) * ldexp(1, -25) + ldexp(1, -23) * fabs(want.exact);
            double err = fabs(f32_of(got[0]) - want.exact);
            printf("  result: %.9g (exact %.17g, error %.3g, bound %.3g)\n", f32_of(got[0]), want.exact, err, tol);
            ok = err <= tol;
        } else {
            if (o->type == WGS_TYPE_F32) printf("  result: %.9g", f32_of(got[0]));
            else if (o->type == WGS_TYPE_I32) printf("  result: %d", (int32_t)got[0]);
            else printf("  result: %u", got[0]);
            if (arg) printf(" at index %u", got[1]);
            printf("\n");
            ok = got[0] == want.bits && (!arg || got[1] == want.index);
        }
    } else if (!strcmp(o->cmd, "count")) {
        uint64_t want = ref_count(s->host_in, o->type, &o->pred, o->n);
        *cpu_seconds = cli_now() - t0;
        printf("  count: %u of %llu\n", got[0], (unsigned long long)o->n);
        ok = got[0] == want;
    } else if (!strcmp(o->cmd, "compact")) {
        uint32_t *want = malloc(o->n * 4 + 4), *want_pay = malloc(o->n * 4 + 4);
        if (!want || !want_pay) {
            free(want), free(want_pay);
            return 0;
        }
        uint64_t k = ref_select(s->host_in, o->type, o->mode, &o->pred, s->flags, o->partition, o->payload,
                                NULL, o->n, want, want_pay);
        *cpu_seconds = cli_now() - t0;
        printf("  selected: %u of %llu\n", s->selected, (unsigned long long)o->n);
        uint64_t written = o->partition ? o->n : k;
        int has_pay = o->payload != WGS_PAYLOAD_NONE || o->mode == WGS_SELECT_RUN_LENGTH;
        ok = s->selected == k && memcmp(got, want, written * 4) == 0 &&
             (!has_pay || memcmp(s->pay_result, want_pay, written * 4) == 0);
        free(want), free(want_pay);
    } else {
        uint32_t *want = malloc((size_t)o->bins * 4);
        if (!want) return 0;
        ref_histogram(s->host_in, o->type, o->bins, o->lower, o->upper, o->n, want);
        *cpu_seconds = cli_now() - t0;
        ok = memcmp(got, want, (size_t)o->bins * 4) == 0;
        free(want);
    }
    return ok;
}

static void print_time(const char *label, double seconds, uint64_t n) {
    printf("  %-34s %10.3f ms   %8.3f Gelem/s\n", label, seconds * 1e3,
           seconds > 0 ? (double)n / seconds * 1e-9 : 0.0);
}

static int run_prim(wgs_context *ctx, prim_options *o, void *file_data) {
    prim_run s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.o = o;
    int repeat = o->repeat;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    wgs_result r = make_plan(&s);
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "creating the plan");
    printf("%s: n = %llu, %s, on %s\n", o->cmd, (unsigned long long)o->n, wgs_type_name(o->type), info.device);
    uint64_t bytes = o->n * 4;
    s.host_in = file_data ? file_data : malloc(bytes + 4);
    s.own_in = !file_data;
    s.flags = malloc(o->n + 8);
    s.result = calloc(1, s.out_bytes + 8);
    s.pay_result = calloc(1, s.out_bytes + 8);
    if (!s.host_in || !s.flags || !s.result || !s.pay_result)
        return run_free(&s), cli_usage_error("cannot allocate %llu bytes", (unsigned long long)bytes);
    if (!file_data) fill_input(o, s.host_in);
    memset(s.flags, 0, o->n + 8);
    if (!strcmp(o->cmd, "compact") && o->mode == WGS_SELECT_FLAGGED) {
        if (o->flags_path) {
            void *f = NULL;
            int64_t size = cli_read_file(o->flags_path, &f);
            if (size < 0) return run_free(&s), EXIT_USAGE;
            if ((uint64_t)size != o->n) {
                free(f);
                return run_free(&s), cli_usage_error("'%s' holds %lld flag bytes, not n = %llu", o->flags_path,
                                                     (long long)size, (unsigned long long)o->n);
            }
            memcpy(s.flags, f, o->n);
            free(f);
        } else {
            uint32_t *rnd = malloc(o->n * 4 + 4);
            if (!rnd) return run_free(&s), cli_usage_error("cannot allocate flags");
            ref_fill_random(rnd, WGS_TYPE_U32, WGS_OP_ADD, o->n, o->seed ^ 0x5EEDu);
            for (uint64_t i = 0; i < o->n; i++) s.flags[i] = (double)rnd[i] < o->density * 4294967296.0;
            free(rnd);
        }
    }
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    r = wgs_buffer_create(ctx, bytes ? bytes : 4, usage, &s.in);
    if (r == WGS_OK) r = wgs_buffer_create(ctx, (o->n + 3) / 4 * 4 + 4, usage, &s.flags_buf);
    if (r == WGS_OK) r = wgs_buffer_create(ctx, s.out_bytes ? s.out_bytes : 4, usage, &s.out);
    if (r == WGS_OK) r = wgs_buffer_create(ctx, bytes ? bytes : 4, usage, &s.pay_out);
    if (r == WGS_OK) r = wgs_buffer_create(ctx, 4, usage, &s.count);
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "allocating GPU buffers");
    double t0 = cli_now();
    if (bytes) r = wgs_buffer_write(ctx, s.in, 0, s.host_in, bytes);
    if (r == WGS_OK) r = wgs_buffer_write(ctx, s.flags_buf, 0, s.flags, (o->n + 3) / 4 * 4 + 4);
    if (r == WGS_OK) r = wgs_wait(ctx);
    double upload = cli_now() - t0;
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "uploading the input");

    wgs_timer *timer = NULL;
    if (info.has_timestamp_query && wgs_timer_create(ctx, (uint32_t)repeat, &timer) != WGS_OK) timer = NULL;
    double wall[MAX_REPEAT], gpu[MAX_REPEAT];
    /* Runs below 0 warm up (pipelines, first-use costs, the GPU's clocks): as many as
     * fit in cli_warmup_seconds, at least one. */
    int warmups = 0;
    double warm_start = cli_now();
    for (int i = -1; r == WGS_OK && i < repeat; i++) {
        if (i == 0 && warmups < 1000 && cli_now() - warm_start < cli_warmup_seconds(&info)) i = -1;
        if (i < 0) warmups++;
        WGPUCommandEncoder enc;
        t0 = cli_now();
        r = wgs_encoder_create(ctx, &enc);
        if (r != WGS_OK) break;
        r = encode(&s, enc, i >= 0 && timer ? wgs_timer_query_set(timer) : NULL, (uint32_t)(i < 0 ? 0 : i));
        wgs_result sr = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = sr;
        if (r == WGS_OK) r = wgs_wait(ctx);
        if (i >= 0) wall[i] = cli_now() - t0;
    }
    if (r == WGS_OK && timer) {
        WGPUCommandEncoder enc;
        r = wgs_encoder_create(ctx, &enc);
        if (r == WGS_OK) r = wgs_timer_resolve(timer, enc);
        if (r == WGS_OK) r = wgs_submit(ctx, enc);
        if (r == WGS_OK) r = wgs_timer_read(timer, gpu, (uint32_t)repeat);
    }
    wgs_timer_destroy(timer);
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "running");

    t0 = cli_now();
    if (s.select) r = wgs_buffer_read(ctx, s.count, 0, &s.selected, 4);
    uint64_t keep = s.out_bytes;
    if (s.select && !o->partition) keep = (uint64_t)s.selected * 4;
    if (r == WGS_OK && keep) r = wgs_buffer_read(ctx, s.out, 0, s.result, keep);
    if (r == WGS_OK && s.select && keep && (o->payload || o->mode == WGS_SELECT_RUN_LENGTH))
        r = wgs_buffer_read(ctx, s.pay_out, 0, s.pay_result, keep);
    double download = cli_now() - t0;
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "downloading the result");

    double cpu = 0;
    int ok = check(&s, &cpu);
    printf("  median of %d runs after %d warm-up run%s; rates count n elements per second\n", repeat, warmups,
           warmups == 1 ? "" : "s");
    if (timer) print_time("GPU time (timestamp queries)", cli_median(gpu, repeat), o->n);
    else printf("  GPU time                           (no timestamp-query feature)\n");
    print_time("wall, run only (submit + wait)", cli_median(wall, repeat), o->n);
    print_time("wall, upload", upload, o->n);
    print_time("wall, download", download, o->n);
    print_time("CPU reference, 1 thread", cpu, o->n);
    int rc = EXIT_OK;
    if (o->verify) {
        printf("  verify: %s\n", ok ? "OK, equal to the CPU reference (floats: within the documented bound)"
                                    : "FAILED");
        if (!ok) rc = EXIT_VERIFY_FAILED;
    }
    if (o->out_path && cli_write_file(o->out_path, s.result, keep) != 0) rc = EXIT_USAGE;
    run_free(&s);
    return rc;
}

/* "nonzero", "eq:A", "ne:A", "lt:A", "gt:A", "range:A:B" */
static int parse_predicate(const char *v, wgs_predicate *p) {
    static const struct { const char *name; wgs_predicate_kind k; } kinds[] = {
        {"nonzero", WGS_PREDICATE_NONZERO}, {"eq", WGS_PREDICATE_EQUAL}, {"ne", WGS_PREDICATE_NOT_EQUAL},
        {"lt", WGS_PREDICATE_LESS}, {"gt", WGS_PREDICATE_GREATER}, {"range", WGS_PREDICATE_IN_RANGE}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t len = strlen(kinds[i].name);
        if (strncmp(v, kinds[i].name, len) != 0) continue;
        const char *rest = v + len;
        p->kind = kinds[i].k;
        if (p->kind == WGS_PREDICATE_NONZERO) return *rest ? -1 : 0;
        char *end;
        if (*rest != ':') return -1;
        p->a = strtod(rest + 1, &end);
        if (p->kind != WGS_PREDICATE_IN_RANGE) return *end ? -1 : 0;
        if (*end != ':') return -1;
        p->b = strtod(end + 1, &end);
        return *end ? -1 : 0;
    }
    return -1;
}

static int parse_option(prim_options *o, const char *a, const char *v) {
    uint64_t u;
    char *end;
    if (!strcmp(a, "--n")) {
        if (cli_parse_u64(v, &o->n)) return cli_usage_error("bad --n '%s'", v);
        o->have_n = 1;
    } else if (!strcmp(a, "--type")) {
        if (cli_parse_type(v, &o->type) || o->type == WGS_TYPE_F16)
            return cli_usage_error("bad --type '%s' (u32, i32, f32)", v);
    } else if (!strcmp(a, "--repeat")) {
        if (cli_parse_u64(v, &u) || u < 1 || u > MAX_REPEAT) return cli_usage_error("bad --repeat '%s'", v);
        o->repeat = (int)u;
    } else if (!strcmp(a, "--seed")) {
        if (cli_parse_u64(v, &o->seed)) return cli_usage_error("bad --seed '%s'", v);
    } else if (!strcmp(a, "--in")) {
        o->in_path = v;
    } else if (!strcmp(a, "--out")) {
        o->out_path = v;
    } else if (!strcmp(a, "--op") && !strcmp(o->cmd, "reduce")) {
        if (cli_parse_op(v, &o->op)) return cli_usage_error("bad --op '%s'", v);
    } else if (!strcmp(a, "--algorithm") && (!strcmp(o->cmd, "reduce") || !strcmp(o->cmd, "count"))) {
        if (!strcmp(v, "tree")) o->algorithm = WGS_REDUCE_ALGORITHM_TREE;
        else if (!strcmp(v, "atomic")) o->algorithm = WGS_REDUCE_ALGORITHM_ATOMIC;
        else if (!strcmp(v, "per-element") && !strcmp(o->cmd, "count")) o->algorithm = WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT;
        else return cli_usage_error("bad --algorithm '%s' (tree, atomic; count also per-element)", v);
    } else if (!strcmp(a, "--algorithm") && !strcmp(o->cmd, "compact")) {
        if (!strcmp(v, "auto")) o->select_algorithm = WGS_SELECT_ALGORITHM_DEFAULT;
        else if (!strcmp(v, "single-pass")) o->select_algorithm = WGS_SELECT_ALGORITHM_SINGLE_PASS;
        else if (!strcmp(v, "three-pass")) o->select_algorithm = WGS_SELECT_ALGORITHM_THREE_PASS;
        else return cli_usage_error("bad --algorithm '%s' (auto, single-pass, three-pass)", v);
    } else if (!strcmp(a, "--float-sum") && !strcmp(o->cmd, "reduce")) {
        if (!strcmp(v, "cas")) o->float_sum = WGS_FLOAT_SUM_CAS;
        else if (!strcmp(v, "fixed")) o->float_sum = WGS_FLOAT_SUM_FIXED_POINT;
        else return cli_usage_error("bad --float-sum '%s' (cas, fixed)", v);
    } else if (!strcmp(a, "--predicate") && (!strcmp(o->cmd, "count") || !strcmp(o->cmd, "compact"))) {
        if (parse_predicate(v, &o->pred)) return cli_usage_error("bad --predicate '%s'", v);
        if (!strcmp(o->cmd, "compact") && !o->mode_given) o->mode = WGS_SELECT_IF;
    } else if (!strcmp(a, "--mode") && !strcmp(o->cmd, "compact")) {
        o->mode_given = 1;
        if (!strcmp(v, "flagged")) o->mode = WGS_SELECT_FLAGGED;
        else if (!strcmp(v, "if")) o->mode = WGS_SELECT_IF;
        else if (!strcmp(v, "unique")) o->mode = WGS_SELECT_UNIQUE;
        else if (!strcmp(v, "rle")) o->mode = WGS_SELECT_RUN_LENGTH;
        else return cli_usage_error("bad --mode '%s' (flagged, if, unique, rle)", v);
    } else if (!strcmp(a, "--payload") && !strcmp(o->cmd, "compact")) {
        if (!strcmp(v, "none")) o->payload = WGS_PAYLOAD_NONE;
        else if (!strcmp(v, "index")) o->payload = WGS_PAYLOAD_INDEX;
        else return cli_usage_error("bad --payload '%s' (none, index)", v);
    } else if (!strcmp(a, "--flags") && !strcmp(o->cmd, "compact")) {
        o->flags_path = v;
    } else if (!strcmp(a, "--density") && !strcmp(o->cmd, "compact")) {
        o->density = strtod(v, &end);
        if (*end || !(o->density >= 0 && o->density <= 1)) return cli_usage_error("bad --density '%s' (0..1)", v);
    } else if (!strcmp(a, "--bins") && !strcmp(o->cmd, "histogram")) {
        if (cli_parse_u64(v, &u) || u < 1 || u > WGS_HISTOGRAM_MAX_BINS) return cli_usage_error("bad --bins '%s'", v);
        o->bins = (uint32_t)u;
    } else if ((!strcmp(a, "--lower") || !strcmp(a, "--upper")) && !strcmp(o->cmd, "histogram")) {
        double d = strtod(v, &end);
        if (*end) return cli_usage_error("bad %s '%s'", a, v);
        *(a[2] == 'l' ? &o->lower : &o->upper) = d;
        o->have_range |= a[2] == 'l' ? 1 : 2;
    } else {
        return cli_usage_error("unknown option '%s' for %s", a, o->cmd);
    }
    return 0;
}

int cmd_primitive(int argc, char **argv) {
    prim_options o = {.cmd = argv[0], .type = WGS_TYPE_U32, .repeat = 10, .seed = 1, .op = WGS_OP_ADD,
                      .mode = WGS_SELECT_FLAGGED, .density = 0.5, .bins = 256};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--verify")) { o.verify = 1; continue; }
        if (!strcmp(a, "--partition") && !strcmp(o.cmd, "compact")) { o.partition = 1; continue; }
        if (i + 1 >= argc) return cli_usage_error("option '%s' needs a value or is unknown", a);
        int rc = parse_option(&o, a, argv[i + 1]);
        if (rc) return rc;
        i++;
    }
    if (!strcmp(o.cmd, "histogram") && o.have_range != 3) {
        if (o.have_range) return cli_usage_error("histogram needs both --lower and --upper, or neither");
        o.lower = o.type == WGS_TYPE_F32 ? -1.0 : o.type == WGS_TYPE_I32 ? -2147483648.0 : 0.0;
        o.upper = o.type == WGS_TYPE_F32 ? 1.0 : o.type == WGS_TYPE_I32 ? 2147483648.0 : 4294967296.0;
    }
    void *file_data = NULL;
    if (o.in_path) {
        int64_t size = cli_read_file(o.in_path, &file_data);
        if (size < 0) return EXIT_USAGE;
        if (size % 4 || (o.have_n && o.n != (uint64_t)size / 4)) {
            free(file_data);
            return cli_usage_error("'%s' holds %lld bytes: not %s n elements of 4 bytes", o.in_path,
                                   (long long)size, o.have_n ? "the given" : "whole");
        }
        o.n = (uint64_t)size / 4;
    } else if (!o.have_n) {
        return cli_usage_error("%s needs --n N or --in FILE", o.cmd);
    }
    wgs_context *ctx = NULL;
    if (cli_context(&ctx) != WGS_OK) {
        free(file_data);
        return EXIT_GPU_ERROR;
    }
    int rc = run_prim(ctx, &o, file_data);
    wgs_context_destroy(ctx);
    free(file_data);
    return rc;
}
