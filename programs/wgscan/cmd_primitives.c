/* SPDX-License-Identifier: MIT */
/*
 * `wgscan reduce | count | compact | histogram | segmented-reduce | segmented-scan | scan-by-key |
 * reduce-by-key`: one
 * configuration of a primitive on
 * random data or a raw file, timed on the GPU (timestamp queries, median after a
 * warm-up), with transfers and a CPU reference, verified on request. The commands
 * share everything but the plan, the encode and the check, which the `prim` table holds.
 */
#include "cli.h"
#include "reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPEAT CLI_MAX_REPEAT

typedef struct prim_run {
    wgs_context *ctx;
    const prim_options *o;
    void *host_in;
    uint8_t *flags;
    WGPUBuffer in, flags_buf, out, pay_out, count;
    wgs_reduce_plan *reduce;
    wgs_select_plan *select;
    wgs_histogram_plan *hist;
    wgs_segmented_reduce_plan *seg;
    wgs_segmented_scan_plan *ssc;
    wgs_scan_by_key_plan *sbk;
    wgs_reduce_by_key_plan *rbk;
    cli_segments sg; /* segmented-*, *-by-key: the CSR offsets, by key the keys */
    WGPUBuffer keys_buf;
    WGPUBuffer offsets_buf;
    uint64_t out_bytes; /* what --out and the check read back */
    void *result;
    uint32_t *pay_result, selected;
} prim_run;

static void run_free(prim_run *s) {
    wgs_reduce_plan_destroy(s->reduce);
    wgs_select_plan_destroy(s->select);
    wgs_histogram_plan_destroy(s->hist);
    wgs_segmented_reduce_plan_destroy(s->seg);
    wgs_segmented_scan_plan_destroy(s->ssc);
    wgs_scan_by_key_plan_destroy(s->sbk);
    wgs_reduce_by_key_plan_destroy(s->rbk);
    wgs_buffer_release(s->ctx, s->keys_buf);
    free(s->sg.keys);
    wgs_buffer_release(s->ctx, s->offsets_buf);
    free(s->sg.offsets);
    wgs_buffer_release(s->ctx, s->in);
    wgs_buffer_release(s->ctx, s->flags_buf);
    wgs_buffer_release(s->ctx, s->out);
    wgs_buffer_release(s->ctx, s->pay_out);
    wgs_buffer_release(s->ctx, s->count);
    free(s->host_in);
    free(s->flags);
    free(s->result);
    free(s->pay_result);
}

static int is_arg(wgs_op op) { return op == WGS_OP_ARGMIN || op == WGS_OP_ARGMAX; }

/* Random input: what each command exercises. Reduce: the scan data of the operator.
 * Count and compact: small values (integers 0..99, i32 -50..49, f32 in [-1, 1)) so
 * predicates such as lt:50 split them, runs of equal values for unique and rle.
 * Histogram: full-range bits for integers, [-1, 1) for f32. */
static void fill_input(const prim_options *o, void *data) {
    uint32_t *w = data;
    int arg = o->op == WGS_OP_ARGMIN || o->op == WGS_OP_ARGMAX;
    if (o->uniform.on) {
        cli_fill_uniform(data, o->type, o->n, o->seed, &o->uniform);
        return;
    }
    if (o->cmd == CLI_REDUCE || o->cmd == CLI_SEGMENTED || o->cmd == CLI_SCAN_BY_KEY || o->cmd == CLI_REDUCE_BY_KEY ||
        o->cmd == CLI_SEGMENTED_SCAN) {
        ref_fill_random(data, o->type, arg ? WGS_OP_MIN : o->op, o->n, o->seed);
        return;
    }
    ref_fill_random(data, o->type == WGS_TYPE_F32 ? WGS_TYPE_F32 : WGS_TYPE_U32, WGS_OP_ADD, o->n, o->seed);
    if (o->cmd == CLI_HISTOGRAM || o->type == WGS_TYPE_F32) return;
    for (uint64_t i = 0; i < o->n; i++) {
        uint32_t v = w[i] % 100u;
        if (o->mode >= WGS_SELECT_UNIQUE && i > 0 && (w[i] >> 28) < 12) v = w[i - 1]; /* runs */
        else if (o->type == WGS_TYPE_I32) v = (uint32_t)((int32_t)v - 50);
        w[i] = v;
    }
}

/* --segments FILE: raw u32 CSR offsets, n_segments + 1 of them, as they are (the GPU
 * checks them). Returns an exit status. */
static int read_segments(const prim_options *o, cli_segments *seg) {
    cli_array a;
    if (cli_array_open(o->seg_path, "--segments", "<u4", 4, &a) != 0) return EXIT_USAGE;
    const uint64_t bytes = a.count * 4;
    if (a.count < 1 || a.count - 1 >= (1ull << 31))
        return cli_usage_error("'%s' holds %llu offsets: not 1 to 2^31 u32 offsets (n_segments + 1)", o->seg_path,
                               (unsigned long long)a.count);
    if (!(seg->offsets = malloc(bytes))) return cli_usage_error("cannot allocate %llu bytes", (unsigned long long)bytes);
    if (cli_array_read(o->seg_path, &a, 4, seg->offsets) != 0) return EXIT_USAGE;
    seg->n_segments = bytes / 4 - 1;
    return EXIT_OK;
}

/* --keys FILE: n raw u32 keys (the size was checked by cmd_primitive); the runs of
 * equal keys become the offsets the reference checks by. Returns an exit status. */
static int read_keys(const prim_options *o, uint64_t n, cli_segments *seg) {
    if (!(seg->keys = malloc(n * 4 + 4)) || !(seg->offsets = malloc((n + 2) * 4)))
        return cli_usage_error("cannot allocate %llu bytes", (unsigned long long)(n * 8));
    if (cli_read_input_at(o->keys_path, o->keys_offset, seg->keys, n * 4) != 0) return EXIT_USAGE;
    uint64_t k = 0;
    seg->offsets[0] = 0;
    for (uint64_t i = 1; i < n; i++)
        if (seg->keys[i] != seg->keys[i - 1]) seg->offsets[++k] = (uint32_t)i;
    if (n) seg->offsets[++k] = (uint32_t)n;
    seg->n_segments = k;
    return EXIT_OK;
}

/* The CSR offsets of --segments: fixed lengths, or random ones of 0..2L (seeded). */
static int make_segments(const prim_options *o, uint64_t n, cli_segments *seg) {
    uint64_t L = o->seg_len, cap = o->seg_random ? n + 1 : n / L + 2;
    seg->offsets = malloc((cap + 1) * 4);
    if (!seg->offsets) return -1;
    uint64_t pos = 0, k = 0, state = o->seed * 0x9E3779B97F4A7C15ull + 1;
    seg->offsets[0] = 0;
    while (pos < n) {
        uint64_t len = L;
        if (o->seg_random) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            len = (state >> 33) % (2 * L + 1);
        }
        if (k + 1 >= cap) { /* random: more empties than elements; keep the last length */
            len = n - pos;
        }
        pos = pos + len > n ? n : pos + len;
        seg->offsets[++k] = (uint32_t)pos;
    }
    seg->n_segments = k;
    return 0;
}

int cli_segments_of(const prim_options *o, uint64_t n, cli_segments *seg) {
    memset(seg, 0, sizeof *seg);
    const int by_key = o->cmd == CLI_SCAN_BY_KEY || o->cmd == CLI_REDUCE_BY_KEY;
    if (o->keys_path) return read_keys(o, n, seg);
    if (o->seg_path) return read_segments(o, seg);
    if (make_segments(o, n, seg) != 0 || (by_key && !(seg->keys = malloc(n * 4 + 4))))
        return cli_usage_error("out of host memory");
    /* Keys from the segments: an empty segment adds no run, so adjacent runs differ. */
    for (uint64_t k = 0; by_key && k < seg->n_segments; k++)
        for (uint32_t i = seg->offsets[k]; i < seg->offsets[k + 1]; i++) seg->keys[i] = (uint32_t)k;
    return EXIT_OK;
}

static wgs_result make_plan(prim_run *s) {
    const prim_options *o = s->o;
    if (o->cmd == CLI_REDUCE_BY_KEY) {
        wgs_reduce_by_key_plan_desc d = {.type = o->type, .op = o->op, .capacity = o->n, .label = "wgscan cli"};
        s->out_bytes = o->n * (is_arg(o->op) ? 8 : 4);
        return wgs_reduce_by_key_plan_create(s->ctx, &d, &s->rbk);
    }
    if (o->cmd == CLI_SCAN_BY_KEY) {
        wgs_scan_by_key_plan_desc d = {.type = o->type, .op = o->op,
                                       .kind = o->inclusive ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                       .capacity = o->n, .label = "wgscan cli"};
        s->out_bytes = o->n * 4;
        return wgs_scan_by_key_plan_create(s->ctx, &d, &s->sbk);
    }
    if (o->cmd == CLI_SEGMENTED_SCAN) { /* (the offsets are made or read before the plan) */
        wgs_segmented_scan_plan_desc d = {.type = o->type, .op = o->op,
                                          .kind = o->inclusive ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                          .capacity = o->n, .segment_capacity = s->sg.n_segments, .label = "wgscan cli"};
        s->out_bytes = o->n * 4;
        return wgs_segmented_scan_plan_create(s->ctx, &d, &s->ssc);
    }
    if (o->cmd == CLI_SEGMENTED) { /* (the offsets are made or read before the plan) */
        wgs_segmented_reduce_plan_desc d = {.type = o->type, .op = o->op, .capacity = o->n,
                                            .segment_capacity = s->sg.n_segments, .label = "wgscan cli"};
        s->out_bytes = s->sg.n_segments * (o->op == WGS_OP_ARGMIN || o->op == WGS_OP_ARGMAX ? 8 : 4);
        return wgs_segmented_reduce_plan_create(s->ctx, &d, &s->seg);
    }
    if (o->cmd == CLI_REDUCE) {
        wgs_reduce_plan_desc d = {.type = o->type, .op = o->op, .algorithm = o->algorithm,
                                  .float_sum = o->float_sum, .capacity = o->n, .label = "wgscan cli"};
        s->out_bytes = o->op == WGS_OP_ARGMIN || o->op == WGS_OP_ARGMAX ? 8 : 4;
        return wgs_reduce_plan_create(s->ctx, &d, &s->reduce);
    }
    if (o->cmd == CLI_COUNT) {
        wgs_count_plan_desc d = {.type = o->type, .predicate = o->pred, .algorithm = o->algorithm,
                                 .capacity = o->n, .label = "wgscan cli"};
        s->out_bytes = 4;
        return wgs_count_plan_create(s->ctx, &d, &s->reduce);
    }
    if (o->cmd == CLI_COMPACT) {
        wgs_select_plan_desc d = {.type = o->type, .mode = o->mode, .predicate = o->pred,
                                  .partition = o->partition, .payload = o->payload, .capacity = o->n,
                                  .label = "wgscan cli", .algorithm = o->select_algorithm};
        s->out_bytes = o->n * 4;
        return wgs_select_plan_create(s->ctx, &d, &s->select);
    }
    wgs_histogram_plan_desc d = {.type = o->type, .bins = o->bins, .lower = o->lower, .upper = o->upper,
                                 .capacity = o->n, .label = "wgscan cli"};
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
    if (s->rbk) { /* the unique keys to pay_out, the count to count */
        wgs_reduce_by_key_args a = {.keys = s->keys_buf, .input = s->in, .n = n, .unique_keys = s->pay_out,
                                    .aggregates = s->out, .num_runs = s->count, .timestamp_query_set = qs,
                                    .timestamp_begin_index = 2 * pair, .timestamp_end_index = 2 * pair + 1};
        return wgs_reduce_by_key_encode(s->rbk, enc, &a);
    }
    if (s->sbk) {
        wgs_scan_by_key_args a = {.keys = s->keys_buf, .input = s->in, .output = s->out, .n = n,
                                  .timestamp_query_set = qs, .timestamp_begin_index = 2 * pair,
                                  .timestamp_end_index = 2 * pair + 1};
        return wgs_scan_by_key_encode(s->sbk, enc, &a);
    }
    if (s->ssc) {
        wgs_segmented_scan_args a = {.input = s->in, .output = s->out, .n = n, .offsets = s->offsets_buf,
                                     .n_segments = s->sg.n_segments, .status = s->count, .timestamp_query_set = qs,
                                     .timestamp_begin_index = 2 * pair, .timestamp_end_index = 2 * pair + 1};
        return wgs_segmented_scan_encode(s->ssc, enc, &a);
    }
    if (s->seg) {
        wgs_segmented_reduce_args a = {.input = s->in, .n = n, .offsets = s->offsets_buf,
                                       .n_segments = s->sg.n_segments, .output = s->out, .status = s->count,
                                       .timestamp_query_set = qs, .timestamp_begin_index = 2 * pair,
                                       .timestamp_end_index = 2 * pair + 1};
        return wgs_segmented_reduce_encode(s->seg, enc, &a);
    }
    if (s->select) {
        wgs_select_args a = {.input = s->in, .flags = s->flags_buf, .output = s->out, .payload_out = s->pay_out,
                             .count = s->count, .n = n, .timestamp_query_set = qs,
                             .timestamp_begin_index = 2 * pair, .timestamp_end_index = 2 * pair + 1};
        return wgs_select_encode(s->select, enc, &a);
    }
    wgs_histogram_args a = {.input = s->in, .n = n, .output = s->out, .timestamp_query_set = qs,
                            .timestamp_begin_index = 2 * pair, .timestamp_end_index = 2 * pair + 1};
    return wgs_histogram_encode(s->hist, enc, &a);
}

static double f32_of(uint32_t bits) {
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Whether a value the GPU gave is right (wgscan.h "Floats"), the same rule for every
 * command: f32 sums within tol of the exact sum (an infinity or NaN there asks for
 * IEEE's answer), other values the reference's bits (a NaN for a NaN). */
static int value_matches(const prim_options *o, uint32_t got, uint32_t want_bits, double exact, double tol) {
    if (o->type == WGS_TYPE_F32 && o->op == WGS_OP_ADD) return ref_sum_matches(f32_of(got), exact, tol);
    return ref_same_value(o->type, got, want_bits);
}

/* The same for an element of a scan whose exact value is sum, after `terms` elements of
 * magnitudes adding up to mag: k terms, k rounding steps (wgscan.h). */
static int scan_element_matches(const prim_options *o, uint32_t got, uint32_t want_bits, double sum, double mag,
                                double terms) {
    return value_matches(o, got, want_bits, sum, terms * ldexp(1, -24) * mag + 2 * terms * ldexp(1, -126));
}

/* Whether g (value bits[, index]) is the reduction of in[b .. b + len) (*want: the
 * reference): f32 sums within the segmented reduce's bound (wgscan.h). */
static int segment_matches(const prim_options *o, const uint32_t *in, uint32_t b, uint32_t len, const uint32_t *g,
                           ref_reduction *want) {
    *want = ref_reduce(in + b, o->type, o->op, len);
    double tol = ((double)len / 1024 + 128) * ldexp(1, -24) * want->abs_sum + 2.0 * len * ldexp(1, -126);
    if (is_arg(o->op)) { /* the element's own bits at the smallest index */
        uint32_t idx = want->index == 0xFFFFFFFFu ? want->index : want->index + b;
        return g[0] == want->bits && g[1] == idx;
    }
    return value_matches(o, g[0], want->bits, want->exact, tol);
}

/* Compares the downloaded result with the CPU reference; returns 1 when it matches. */
static int check(prim_run *s, double *cpu_seconds) {
    const prim_options *o = s->o;
    uint32_t *got = s->result;
    double t0 = cli_now();
    int ok = 1;
    if (o->cmd == CLI_REDUCE) {
        ref_reduction want = ref_reduce(s->host_in, o->type, o->op, o->n);
        *cpu_seconds = cli_now() - t0;
        int arg = o->op == WGS_OP_ARGMIN || o->op == WGS_OP_ARGMAX;
        if (o->type == WGS_TYPE_F32 && o->op == WGS_OP_ADD) {
            /* wgscan.h's bound, plus the fixed-point steps when asked for */
            double tol = ((double)o->n / 1024 + 64) * ldexp(1, -24) * want.abs_sum;
            if (o->float_sum == WGS_FLOAT_SUM_FIXED_POINT)
                tol += ((double)o->n / 128 + 1) * ldexp(1, -25) + ldexp(1, -23) * fabs(want.exact);
            ok = value_matches(o, got[0], want.bits, want.exact, tol);
            double err = isfinite(want.exact) ? fabs(f32_of(got[0]) - want.exact) : ok ? 0 : INFINITY;
            printf("  result: %.9g (exact %.17g, error %.3g, bound %.3g)\n", f32_of(got[0]), want.exact, err, tol);
        } else {
            if (o->type == WGS_TYPE_F32) printf("  result: %.9g", f32_of(got[0]));
            else if (o->type == WGS_TYPE_I32) printf("  result: %d", (int32_t)got[0]);
            else printf("  result: %u", got[0]);
            if (arg) printf(" at index %u", got[1]);
            printf("\n");
            ok = arg ? got[0] == want.bits && got[1] == want.index : value_matches(o, got[0], want.bits, 0, 0);
        }
    } else if (o->cmd == CLI_SEGMENTED) {
        const int words = is_arg(o->op) ? 2 : 1;
        uint64_t bad = 0;
        const uint32_t *in = s->host_in;
        for (uint64_t k = 0; k < s->sg.n_segments; k++) {
            uint32_t b = s->sg.offsets[k], len = s->sg.offsets[k + 1] - b;
            ref_reduction want;
            const uint32_t *g = got + k * words;
            const int same = segment_matches(o, in, b, len, g, &want);
            if (!same && bad++ < 3)
                printf("  segment %llu [%u, %u): got %08x, want %08x\n", (unsigned long long)k, b, b + len, g[0],
                       want.bits);
        }
        *cpu_seconds = cli_now() - t0;
        printf("  segments: %llu (mean length %.1f), status %s, %llu differ\n", (unsigned long long)s->sg.n_segments,
               s->sg.n_segments ? (double)o->n / (double)s->sg.n_segments : 0.0, wgs_result_name((wgs_result)s->selected),
               (unsigned long long)bad);
        ok = bad == 0 && s->selected == 0;
    } else if (o->cmd == CLI_SEGMENTED_SCAN) {
        uint64_t bad = 0;
        const uint32_t *in = s->host_in;
        uint32_t *want = malloc(o->n * 4 + 4), ident = 0;
        if (!want) return 0;
        ref_scan(in, &ident, o->type, o->op, 0, 1); /* an exclusive scan's first output */
        for (uint64_t i = 0; i < o->n; i++) want[i] = ident;
        uint8_t *in_seg = calloc(o->n + 1, 1);
        for (uint64_t k = 0; k < s->sg.n_segments && in_seg; k++) {
            uint32_t b = s->sg.offsets[k], len = s->sg.offsets[k + 1] - b;
            ref_scan(in + b, want + b, o->type, o->op, o->inclusive, len);
            double sum = 0, mag = 0;
            for (uint32_t i = b; i < b + len; i++) {
                double x = f32_of(in[i]);
                if (o->inclusive) sum += x, mag += fabs(x);
                const int same = scan_element_matches(o, got[i], want[i], sum, mag, (double)(i - b + 1));
                if (!same && bad++ < 3)
                    printf("  element %u (segment %llu [%u, %u)): got %08x, want %08x\n", i, (unsigned long long)k, b,
                           b + len, got[i], want[i]);
                if (!o->inclusive) sum += x, mag += fabs(x);
                in_seg[i] = 1;
            }
        }
        for (uint64_t i = 0; i < o->n && in_seg; i++)
            if (!in_seg[i] && got[i] != ident && bad++ < 3)
                printf("  element %llu (in no segment): got %08x, want the identity %08x\n", (unsigned long long)i,
                       got[i], ident);
        free(want);
        *cpu_seconds = cli_now() - t0;
        printf("  segments: %llu (mean length %.1f), %llu elements differ\n", (unsigned long long)s->sg.n_segments,
               s->sg.n_segments ? (double)o->n / (double)s->sg.n_segments : 0.0, (unsigned long long)bad);
        ok = in_seg && bad == 0;
        free(in_seg);
    } else if (o->cmd == CLI_SCAN_BY_KEY) {
        uint64_t bad = 0;
        const uint32_t *in = s->host_in;
        uint32_t *want = malloc(o->n * 4 + 4);
        if (!want) return 0;
        for (uint64_t k = 0; k < s->sg.n_segments; k++) {
            uint32_t b = s->sg.offsets[k], len = s->sg.offsets[k + 1] - b;
            ref_scan(in + b, want + b, o->type, o->op, o->inclusive, len);
            double sum = 0, mag = 0;
            for (uint32_t i = b; i < b + len; i++) {
                double x = f32_of(in[i]);
                if (o->inclusive) sum += x, mag += fabs(x);
                const int same = scan_element_matches(o, got[i], want[i], sum, mag, (double)(i - b + 1));
                if (!same && bad++ < 3)
                    printf("  element %u (run [%u, %u)): got %08x, want %08x\n", i, b, b + len, got[i], want[i]);
                if (!o->inclusive) sum += x, mag += fabs(x);
            }
        }
        free(want);
        *cpu_seconds = cli_now() - t0;
        printf("  runs: %llu (mean length %.1f), %llu elements differ\n", (unsigned long long)s->sg.n_segments,
               s->sg.n_segments ? (double)o->n / (double)s->sg.n_segments : 0.0, (unsigned long long)bad);
        ok = bad == 0;
    } else if (o->cmd == CLI_REDUCE_BY_KEY) {
        const int words = is_arg(o->op) ? 2 : 1;
        uint64_t bad = 0, runs = 0;
        const uint32_t *in = s->host_in;
        for (uint64_t k = 0; k < s->sg.n_segments; k++) {
            uint32_t b = s->sg.offsets[k], len = s->sg.offsets[k + 1] - b;
            if (!len) continue; /* an empty segment is no run */
            ref_reduction want;
            const uint32_t *g = got + runs * words;
            const int same = segment_matches(o, in, b, len, g, &want) && runs < s->selected &&
                             s->pay_result[runs] == s->sg.keys[b];
            if (!same && bad++ < 3)
                printf("  run %llu [%u, %u): got key %u value %08x, want key %u value %08x\n", (unsigned long long)runs, b,
                       b + len, runs < s->selected ? s->pay_result[runs] : 0, runs < s->selected ? g[0] : 0,
                       s->sg.keys[b], want.bits);
            runs++;
        }
        *cpu_seconds = cli_now() - t0;
        printf("  runs: %u (want %llu), %llu differ\n", s->selected, (unsigned long long)runs, (unsigned long long)bad);
        ok = bad == 0 && s->selected == runs;
    } else if (o->cmd == CLI_COUNT) {
        uint64_t want = ref_count(s->host_in, o->type, &o->pred, o->n);
        *cpu_seconds = cli_now() - t0;
        printf("  count: %u of %llu\n", got[0], (unsigned long long)o->n);
        ok = got[0] == want;
    } else if (o->cmd == CLI_COMPACT) {
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

/* The command's own values for --json: what its summary line prints. */
static void report_values(const prim_run *s, cli_report *rep) {
    const prim_options *o = s->o;
    const uint32_t *got = s->result;
    if (o->cmd == CLI_REDUCE) {
        double v = o->type == WGS_TYPE_F32 ? (double)f32_of(got[0]) : o->type == WGS_TYPE_I32 ? (double)(int32_t)got[0]
                                                                                               : (double)got[0];
        cli_report_value(rep, "result", v);
        if (is_arg(o->op)) cli_report_value(rep, "index", got[1]);
    } else if (o->cmd == CLI_COUNT) {
        cli_report_value(rep, "count", got[0]);
    } else if (o->cmd == CLI_COMPACT) {
        cli_report_value(rep, "selected", s->selected);
    } else if (o->cmd == CLI_REDUCE_BY_KEY) {
        cli_report_value(rep, "runs", s->selected);
    } else if (o->cmd == CLI_HISTOGRAM) {
        cli_report_value(rep, "bins", o->bins);
    }
    if (o->cmd == CLI_SEGMENTED || o->cmd == CLI_SEGMENTED_SCAN || o->cmd == CLI_SCAN_BY_KEY)
        cli_report_value(rep, "segments", (double)s->sg.n_segments);
}

/* --out: the result's `bytes` as raw words or a .npy array of the result's dtype (counts
 * and bins u32; argmin and argmax pairs of the value and its index). */
static int write_result(const prim_options *o, const void *result, uint64_t bytes) {
    char descr[64];
    const int pairs = is_arg(o->op) && (o->cmd == CLI_REDUCE || o->cmd == CLI_SEGMENTED || o->cmd == CLI_REDUCE_BY_KEY);
    const char *t = o->cmd == CLI_COUNT || o->cmd == CLI_HISTOGRAM ? "<u4" : cli_npy_dtype(o->type);
    if (pairs) snprintf(descr, sizeof descr, "[('value', '%s'), ('index', '<u4')]", t);
    else snprintf(descr, sizeof descr, "%s", t);
    const size_t size = pairs ? 8 : 4;
    return cli_array_write(o->out_path, descr, size, result, bytes / size);
}

static int run_prim(wgs_context *ctx, const prim_options *o) {
    prim_run s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.o = o;
    int repeat = o->repeat;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    if (o->cmd == CLI_SEGMENTED || o->cmd == CLI_SEGMENTED_SCAN || o->cmd == CLI_SCAN_BY_KEY ||
        o->cmd == CLI_REDUCE_BY_KEY) {
        int rc = cli_segments_of(o, o->n, &s.sg);
        if (rc != EXIT_OK) return run_free(&s), rc;
    }
    cli_progress_stage("compiling the pipelines", 0, 0);
    wgs_result r = make_plan(&s);
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "creating the plan");
    cli_progress_stage(NULL, 0, 0);
    printf("%s: n = %llu, %s, on %s\n", cli_command_name(o->cmd), (unsigned long long)o->n, wgs_type_name(o->type), info.device);
    uint64_t bytes = o->n * 4;
    /* The inputs are read only now that the plan holds n (a file too large for the
     * device is refused before a byte of it is read). */
    cli_progress_stage("preparing the input", 0, 0);
    s.host_in = malloc(bytes + 4);
    s.flags = calloc(1, o->n + 8);
    s.result = calloc(1, s.out_bytes + 8);
    s.pay_result = calloc(1, s.out_bytes + 8);
    if (!s.host_in || !s.flags || !s.result || !s.pay_result)
        return run_free(&s), cli_usage_error("cannot allocate %llu bytes", (unsigned long long)bytes);
    if (o->in_path) {
        if (cli_read_input_at(o->in_path, o->in_offset, s.host_in, bytes) != 0) return run_free(&s), EXIT_USAGE;
        /* The fixed-point sum takes finite elements only (wgscan.h): given an infinity or
         * NaN it returns a number unrelated to the sum. */
        const uint32_t *in = s.host_in;
        for (uint64_t i = 0; o->float_sum == WGS_FLOAT_SUM_FIXED_POINT && i < o->n; i++)
            if (!isfinite(f32_of(in[i]))) {
                int rc = cli_usage_error("'%s' holds %g at element %llu: --float-sum fixed sums finite elements only "
                                         "(wgscan.h, reduce)", o->in_path, f32_of(in[i]), (unsigned long long)i);
                return run_free(&s), rc;
            }
    } else {
        fill_input(o, s.host_in);
    }
    if (o->cmd == CLI_COMPACT && o->mode == WGS_SELECT_FLAGGED) {
        if (o->flags_path) {
            if (cli_read_input_at(o->flags_path, o->flags_offset, s.flags, o->n) != 0) return run_free(&s), EXIT_USAGE;
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
    if (r == WGS_OK && (s.seg || s.ssc)) r = wgs_buffer_create(ctx, (s.sg.n_segments + 1) * 4, usage, &s.offsets_buf);
    if (r == WGS_OK && s.sg.keys) r = wgs_buffer_create(ctx, bytes ? bytes : 4, usage, &s.keys_buf);
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "allocating GPU buffers");
    cli_progress_stage("uploading", 0, 0);
    double t0 = cli_now();
    if (bytes) r = wgs_buffer_write(ctx, s.in, 0, s.host_in, bytes);
    if (r == WGS_OK) r = wgs_buffer_write(ctx, s.flags_buf, 0, s.flags, (o->n + 3) / 4 * 4 + 4);
    if (r == WGS_OK && (s.seg || s.ssc)) r = wgs_buffer_write(ctx, s.offsets_buf, 0, s.sg.offsets, (s.sg.n_segments + 1) * 4);
    if (r == WGS_OK && s.sg.keys && bytes) r = wgs_buffer_write(ctx, s.keys_buf, 0, s.sg.keys, bytes);
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
        cli_progress_stage(i < 0 ? "warming up" : "timed run", i + 1, i < 0 ? 0 : repeat);
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

    cli_progress_stage("downloading", 0, 0);
    t0 = cli_now();
    /* segmented: the status; reduce-by-key: the runs */
    if (s.select || s.seg || s.ssc || s.rbk) r = wgs_buffer_read(ctx, s.count, 0, &s.selected, 4);
    uint64_t keep = s.out_bytes;
    if (s.select && !o->partition) keep = (uint64_t)s.selected * 4;
    if (s.rbk) keep = (uint64_t)s.selected * (is_arg(o->op) ? 8 : 4);
    if (keep > s.out_bytes) keep = s.out_bytes; /* a count above n: check() reports it */
    if (r == WGS_OK && keep) r = wgs_buffer_read(ctx, s.out, 0, s.result, keep);
    /* the payload, or the reduce by key's unique keys (4 bytes a run) */
    uint64_t keep_pay = s.rbk ? (s.selected < o->n ? s.selected : o->n) * 4ull : keep;
    if (r == WGS_OK && ((s.select && (o->payload || o->mode == WGS_SELECT_RUN_LENGTH)) || s.rbk) && keep_pay)
        r = wgs_buffer_read(ctx, s.pay_out, 0, s.pay_result, keep_pay);
    double download = cli_now() - t0;
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "downloading the result");

    if ((s.ssc || (s.seg && o->seg_path)) && s.selected) { /* only --segments FILE can break the rules */
        int rc = cli_usage_error("the offsets of '%s' break the rules of wgscan.h (%s): the GPU's status is %s",
                                 o->seg_path ? o->seg_path : "--segments",
                                 s.ssc ? "segmented scan" : "segmented reduce", wgs_result_name((wgs_result)s.selected));
        return run_free(&s), rc;
    }
    double cpu = 0;
    cli_progress_stage(NULL, 0, 0); /* check() prints what it found */
    int ok = check(&s, &cpu);
    printf("  median of %d runs after %d warm-up run%s; rates count n elements per second\n", repeat, warmups,
           warmups == 1 ? "" : "s");
    if (timer) cli_print_time("GPU time (timestamp queries)", cli_median(gpu, repeat), o->n);
    else printf("  GPU time                           (no timestamp-query feature)\n");
    cli_print_time("wall, run only (submit + wait)", cli_median(wall, repeat), o->n);
    cli_print_time("wall, upload", upload, o->n);
    cli_print_time("wall, download", download, o->n);
    cli_print_time("CPU reference, 1 thread", cpu, o->n);
    int rc = EXIT_OK;
    if (o->verify) {
        printf("  verify: %s\n", ok ? "OK, equal to the CPU reference (floats: within the documented bound)"
                                    : "FAILED");
        if (!ok) rc = EXIT_VERIFY_FAILED;
    }
    const int verdict = o->verify ? rc == EXIT_OK : -1;
    if (o->out_path && write_result(o, s.result, keep) != 0) rc = EXIT_USAGE;
    if (o->json_path) {
        cli_report rep = {.command = cli_command_name(o->cmd), .type_name = wgs_type_name(o->type), .n = o->n,
                          .repeat = repeat, .warmups = warmups, .gpu_s = timer ? cli_median(gpu, repeat) : -1,
                          .wall_s = cli_median(wall, repeat), .upload_s = upload, .download_s = download,
                          .cpu_s = cpu, .verified = verdict};
        report_values(&s, &rep);
        if (cli_write_report(o->json_path, &rep, &info) != 0) rc = EXIT_USAGE;
    }
    run_free(&s);
    return rc;
}

int cmd_primitive(const prim_options *opt) {
    prim_options o = *opt;
    if (o.operator_path) { /* --operator: its own sizes and input (cmd_operator.c) */
        if (o.out_path && cli_check_writable(o.out_path) != 0) return EXIT_USAGE;
        wgs_context *ctx = NULL;
        if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
        int rc = run_prim_operator(ctx, &o);
        wgs_context_destroy(ctx);
        return rc;
    }
    const char *flags = o.cmd == CLI_COMPACT && o.mode == WGS_SELECT_FLAGGED ? o.flags_path : NULL;
    cli_array in, fl;
    /* Sizes only: the contents are read once the plan is made for them. */
    if (o.in_path && cli_array_open(o.in_path, "--in", cli_npy_dtype(o.type), 4, &in) != 0) return EXIT_USAGE;
    if (flags && cli_array_open(flags, "--flags", "|u1", 1, &fl) != 0) return EXIT_USAGE;
    if (o.in_path) {
        if (o.have_n && o.n != in.count)
            return cli_usage_error("'%s' holds %llu elements: not the given n = %llu", o.in_path,
                                   (unsigned long long)in.count, (unsigned long long)o.n);
        if (in.count > CLI_MAX_N)
            return cli_usage_error("'%s' is too large: %llu elements, at most 2^40", o.in_path,
                                   (unsigned long long)in.count);
        o.n = in.count, o.in_offset = in.offset;
    }
    if (flags && fl.count != o.n)
        return cli_usage_error("'%s' holds %llu flag bytes, not n = %llu", flags, (unsigned long long)fl.count,
                               (unsigned long long)o.n);
    if (flags) o.flags_offset = fl.offset;
    cli_array keys;
    if (o.keys_path && cli_array_open(o.keys_path, "--keys", "<u4", 4, &keys) != 0) return EXIT_USAGE;
    if (o.keys_path && keys.count != o.n)
        return cli_usage_error("'%s' holds %llu keys, not n = %llu", o.keys_path, (unsigned long long)keys.count,
                               (unsigned long long)o.n);
    if (o.keys_path) o.keys_offset = keys.offset;
    const char *outputs[] = {o.out_path, o.json_path}, *names[] = {"--out", "--json"};
    if (cli_check_outputs(outputs, names, 2) != 0) return EXIT_USAGE;
    wgs_context *ctx = NULL;
    if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
    int rc = run_prim(ctx, &o);
    wgs_context_destroy(ctx);
    return rc;
}
