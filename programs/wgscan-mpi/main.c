/* SPDX-License-Identifier: MIT */
/*
 * wgscan-mpi: the distributed primitives (wgscan_mpi.h) from the command line, one rank
 * a process under mpirun:
 *   mpirun -np P wgscan-mpi scan|reduce|count|histogram|compact|sort --n N [options]
 * Each rank makes its slice (N elements, or more with --uneven, none with --empty R) in
 * a GPU buffer of its own, runs the collective, and with --verify checks its part
 * against the CPU reference (reference/): scan: its slice from the carry the CPU
 * reference of the ranks' totals gives; reduce, count, histogram: the result against
 * the fold of every rank's CPU result; compact and sort: see moves.c. Prints the
 * slowest rank's phase times.
 */
#include "moves.h"
#include "reference.h"
#include "../common/count_parse.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: mpirun -np P wgscan-mpi scan|reduce|count|histogram|compact|sort --n N [options]\n"
    "  --n N            elements per rank, up to 2^40 (1000, 1e6, 16M, 1Gi, 2^24, as\n"
    "                   wgscan takes them: K M G T powers of 1000, Ki Mi Gi Ti of 1024)\n"
    "  --type T         u32 (default), i32, f32; sort also u64, i64\n"
    "  --op OP          scan and reduce: add (default), min, max, and, or, xor; reduce\n"
    "                   also argmin, argmax\n"
    "  --inclusive      scan: inclusive (default exclusive)\n"
    "  --bins B         histogram: B bins over [0, 2^32) for u32, 1..2^20 (default 256)\n"
    "  --select S       compact: flags (default: about half flagged) or if (the values\n"
    "                   below the middle of their range, moved with their positions);\n"
    "                   unique asks for what the distributed select refuses\n"
    "  --payload        compact: the positions move along as a payload in flags mode too\n"
    "  --rebalance      compact: every rank ends with an equal share of the kept elements\n"
    "  --descending     sort: largest first\n"
    "  --keys K         sort: random (default), equal (all one key), few (5 distinct)\n"
    "  --values B       sort: values of B bytes (4 or 8), each key's input position;\n"
    "                   index asks for what the distributed sort refuses\n"
    "  --uneven         rank r holds N + r * N / 7 elements\n"
    "  --empty R        rank R holds none\n"
    "  --repeat K       K timed runs after one warm-up, 1..2048 (default 3); the median is\n"
    "                   printed\n"
    "  --verify         check every rank's part against the CPU reference\n"
    "  --fail-rank R    rank R asks for what the library refuses (f16): every rank must\n"
    "                   return the same error, and the program exits 0 when they do\n"
    "  --tight R        compact --rebalance and sort: rank R's output holds only its own\n"
    "                   slice; every rank must return the same error where it overflows\n"
    "  --cpu            SwiftShader even where a GPU exists\n";

/* The ranges of wgscan's --n and --repeat (programs/wgscan/cli.h). */
#define MAX_N (1ull << 40)
#define MAX_REPEAT 2048

/* Why the arguments were refused, printed by the first rank that refused them. */
static char why[512];

static int refuse(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return -1;
}

/* A count in [lo, hi], read as wgscan reads counts. */
static int count_in(const char *v, uint64_t lo, uint64_t hi, uint64_t *out) {
    uint64_t x;
    if (prog_parse_count(v, &x) || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

static int parse(int argc, char **argv, int size, options *o) {
    *o = (options){.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .empty = -1, .repeat = 3, .fail_rank = -1, .bins = 256,
                   .tight = -1};
    if (argc < 2) return refuse("a command is needed");
    o->command = argv[1];
    if (!strcmp(o->command, "--help") || !strcmp(o->command, "-h")) return 1;
    if (strcmp(o->command, "scan") && strcmp(o->command, "reduce") && strcmp(o->command, "count") &&
        strcmp(o->command, "histogram") && strcmp(o->command, "compact") && strcmp(o->command, "sort")) {
        return refuse("unknown command '%s'", o->command);
    }
    int have_n = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return 1;
        if (!strcmp(a, "--inclusive")) o->inclusive = 1;
        else if (!strcmp(a, "--uneven")) o->uneven = 1;
        else if (!strcmp(a, "--verify")) o->verify = 1;
        else if (!strcmp(a, "--cpu")) o->cpu = 1;
        else if (!strcmp(a, "--payload")) o->payload = 1;
        else if (!strcmp(a, "--rebalance")) o->rebalance = 1;
        else if (!strcmp(a, "--descending")) o->descending = 1;
        else if (v && !strcmp(a, "--select")) {
            if (!strcmp(v, "flags")) o->predicate = 0;
            else if (!strcmp(v, "if")) o->predicate = 1;
            else if (!strcmp(v, "unique")) o->unique = 1; /* which the library refuses: a test */
            else goto bad;
            i++;
        } else if (v && !strcmp(a, "--keys")) {
            if (!strcmp(v, "random")) o->keys = KEYS_RANDOM;
            else if (!strcmp(v, "equal")) o->keys = KEYS_EQUAL;
            else if (!strcmp(v, "few")) o->keys = KEYS_FEW;
            else goto bad;
            i++;
        } else if (v && !strcmp(a, "--values")) {
            if (!strcmp(v, "index")) o->index_payload = 1; /* which the library refuses: a test */
            else if (strcmp(v, "4") && strcmp(v, "8")) goto bad;
            else o->value_bytes = (uint32_t)atoi(v);
            i++;
        }
        else if (v && !strcmp(a, "--n")) {
            if (count_in(v, 0, MAX_N, &o->n)) return refuse("bad --n '%s' (a count up to 2^40: 1000, 1e6, 16M, 2^24)", v);
            have_n = 1;
            i++;
        }
        else if (v && !strcmp(a, "--type")) {
            if (!strcmp(v, "u32")) o->type = WGS_TYPE_U32;
            else if (!strcmp(v, "i32")) o->type = WGS_TYPE_I32;
            else if (!strcmp(v, "f32")) o->type = WGS_TYPE_F32;
            else if (!strcmp(v, "u64")) o->type = WGS_TYPE_U64;
            else if (!strcmp(v, "i64")) o->type = WGS_TYPE_I64;
            else goto bad;
            i++;
        } else if (v && !strcmp(a, "--op")) {
            static const char *const names[] = {"", "add", "min", "max", "and", "or", "xor", "argmin", "argmax"};
            int k = 1;
            while (k <= 8 && strcmp(v, names[k])) k++;
            if (k > 8) goto bad;
            o->op = (wgs_op)k;
            i++;
        } else if (v && !strcmp(a, "--repeat")) {
            uint64_t x;
            if (count_in(v, 1, MAX_REPEAT, &x)) return refuse("bad --repeat '%s' (1..2048)", v);
            o->repeat = (int)x, i++;
        } else if (v && !strcmp(a, "--bins")) {
            uint64_t x;
            if (count_in(v, 1, WGS_HISTOGRAM_MAX_BINS, &x)) return refuse("bad --bins '%s' (1..2^20)", v);
            o->bins = (uint32_t)x, i++;
        } else if (v && (!strcmp(a, "--empty") || !strcmp(a, "--fail-rank") || !strcmp(a, "--tight"))) {
            /* A rank past the last would change nothing: refused, as wgscan refuses
             * options that do nothing. */
            uint64_t x;
            if (count_in(v, 0, (uint64_t)size - 1, &x)) return refuse("bad %s '%s' (a rank, 0..%d)", a, v, size - 1);
            *(!strcmp(a, "--empty") ? &o->empty : !strcmp(a, "--fail-rank") ? &o->fail_rank : &o->tight) = (int)x;
            i++;
        } else {
            return refuse("option '%s' needs a value or is unknown", a);
        }
        continue;
    bad:
        return refuse("bad %s '%s'", a, v);
    }
    if (!have_n) return refuse("--n is required");
    if ((o->type == WGS_TYPE_U64 || o->type == WGS_TYPE_I64) && strcmp(o->command, "sort"))
        return refuse("64-bit types go only with sort");
    if (o->tight >= 0 && strcmp(o->command, "sort") && !(o->rebalance && !strcmp(o->command, "compact")))
        return refuse("--tight goes with sort and compact --rebalance");
    int arg = o->op == WGS_OP_ARGMIN || o->op == WGS_OP_ARGMAX;
    if ((arg && strcmp(o->command, "reduce")) || (o->type == WGS_TYPE_F32 && o->op >= WGS_OP_AND && o->op <= WGS_OP_XOR))
        return refuse("--op %d does not go with this command or type", (int)o->op);
    return 0;
}

static void on_log(wgs_log_level level, wgs_result r, const char *msg, void *user) {
    if (level == WGS_LOG_INFO) return; /* the drivers' start-up lines */
    fprintf(stderr, "rank %d: %s: %s\n", *(int *)user, wgs_result_name(r), msg);
}

/* One run of the command; results for the check. */
typedef struct outcome {
    uint32_t value[2];
    uint64_t count;
    uint64_t *hist;
} outcome;

static wgs_result run(wgs_mpi *m, const options *o, int fail, WGPUBuffer in, WGPUBuffer out, uint64_t n,
                      outcome *res) {
    wgs_type type = fail ? WGS_TYPE_F16 : o->type;
    if (!strcmp(o->command, "scan")) {
        wgs_scan_plan_desc d = {.type = type, .op = o->op, .kind = o->inclusive ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE};
        return wgs_mpi_scan(m, &d, in, 0, out, 0, n);
    }
    if (!strcmp(o->command, "reduce")) {
        wgs_reduce_plan_desc d = {.type = type, .op = o->op};
        return wgs_mpi_reduce(m, &d, in, 0, n, res->value);
    }
    if (!strcmp(o->command, "count")) {
        wgs_count_plan_desc d = {.type = type, .predicate = {.kind = WGS_PREDICATE_LESS, .a = o->type == WGS_TYPE_U32 ? 2147483648.0 : 0.0}};
        return wgs_mpi_count(m, &d, in, 0, n, &res->count);
    }
    wgs_histogram_plan_desc d = {.type = type, .bins = o->bins, .lower = o->type == WGS_TYPE_U32 ? 0 : -1,
                                 .upper = o->type == WGS_TYPE_U32 ? 4294967296.0 : 1};
    return wgs_mpi_histogram(m, &d, in, 0, n, res->hist);
}

/* The CPU check of this rank's part; returns the number of ranks that found a fault. A
 * rank without the host memory for its check counts as one, after the others learn it
 * (every rank then skips the collectives of the check together). */
static int verify(wgs_mpi *m, const options *o, const void *host, const void *got, uint64_t n, const outcome *res) {
    int rank = wgs_mpi_rank(m), size = wgs_mpi_size(m), bad = 0;
    size_t es = 4;
    if (!strcmp(o->command, "scan")) {
        uint32_t *totals = malloc((size_t)size * 4), *carries = malloc((size_t)size * 4);
        unsigned char *in2 = malloc((n + 1) * es), *out2 = malloc((n + 1) * es);
        int short_of = faults_of(!totals || !carries || !in2 || !out2);
        if (!short_of) {
            /* The carry: the reference's exclusive scan of every rank's reference total. */
            ref_reduction mine = ref_reduce(host, o->type, o->op, n);
            if (o->type == WGS_TYPE_F32 && o->op == WGS_OP_ADD) { /* the reference sums in double */
                float f = (float)mine.exact;
                memcpy(&mine.bits, &f, 4);
            }
            MPI_Allgather(&mine.bits, 1, MPI_UINT32_T, totals, 1, MPI_UINT32_T, MPI_COMM_WORLD);
            ref_scan(totals, carries, o->type, o->op, 0, (uint64_t)size);
            memcpy(in2, &carries[rank], es);
            memcpy(in2 + es, host, n * es);
            ref_scan(in2, out2, o->type, o->op, o->inclusive, 1);
            memcpy(out2 + es, got, n * es);
            ref_check c = ref_verify(in2, out2, o->type, o->op, o->inclusive, n + 1);
            if (c.mismatches) {
                fprintf(stderr, "rank %d: %" PRIu64 " wrong, first at %" PRIu64 ": got %.9g want %.9g\n", rank,
                        c.mismatches, c.first_bad - 1, c.got, c.want);
                bad = 1;
            }
        }
        free(totals), free(carries), free(in2), free(out2);
        if (short_of) return short_of;
    } else if (!strcmp(o->command, "reduce")) {
        uint32_t *pairs = malloc((size_t)size * 8), *vals = malloc((size_t)size * 4);
        int *at = malloc((size_t)size * sizeof *at);
        int short_of = faults_of(!pairs || !vals || !at);
        if (short_of) {
            free(pairs), free(vals), free(at);
            return short_of;
        }
        /* Every rank's reference result, folded by the reference over the non-empty ones. */
        ref_reduction mine = ref_reduce(host, o->type, o->op, n);
        unsigned long long first = 0, nn = n;
        MPI_Exscan(&nn, &first, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0) first = 0;
        uint32_t pair[2] = {mine.bits, n ? mine.index + (uint32_t)first : 0xFFFFFFFFu};
        double sums[2] = {mine.exact, mine.abs_sum}, all_sums[2];
        MPI_Allgather(pair, 2, MPI_UINT32_T, pairs, 2, MPI_UINT32_T, MPI_COMM_WORLD);
        MPI_Allreduce(sums, all_sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        unsigned long long total = 0;
        MPI_Allreduce(&nn, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        int k = 0;
        for (int r = 0; r < size; r++)
            if (pairs[2 * r + 1] != 0xFFFFFFFFu || !(o->op == WGS_OP_ARGMIN || o->op == WGS_OP_ARGMAX))
                at[k] = r, vals[k++] = pairs[2 * r];
        ref_reduction want = ref_reduce(vals, o->type, o->op, (uint64_t)k);
        if (o->op == WGS_OP_ARGMIN || o->op == WGS_OP_ARGMAX) {
            uint32_t wi = k ? pairs[2 * at[want.index] + 1] : 0xFFFFFFFFu;
            bad = res->value[1] != wi || (k && !ref_same_value(o->type, res->value[0], want.bits));
        } else if (o->type == WGS_TYPE_F32 && o->op == WGS_OP_ADD) {
            float g;
            memcpy(&g, &res->value[0], 4);
            ref_reduction whole = {0, 0, all_sums[0], all_sums[1]};
            bad = !ref_sum_matches(g, all_sums[0], ref_reduce_sum_tolerance(&whole, total) + (double)size * 1e-7 * all_sums[1]);
        } else {
            bad = !ref_same_value(o->type, res->value[0], want.bits);
        }
        if (bad) fprintf(stderr, "rank %d: reduce got 0x%08x (index %u)\n", rank, res->value[0], res->value[1]);
        free(pairs), free(vals), free(at);
    } else if (!strcmp(o->command, "count")) {
        wgs_predicate p = {.kind = WGS_PREDICATE_LESS, .a = o->type == WGS_TYPE_U32 ? 2147483648.0 : 0.0};
        unsigned long long mine = ref_count(host, o->type, &p, n), all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        bad = res->count != all;
        if (bad) fprintf(stderr, "rank %d: count %" PRIu64 ", want %llu\n", rank, res->count, all);
    } else {
        uint32_t *h = calloc(o->bins, 4);
        unsigned long long *mine = calloc(o->bins, 8), *all = calloc(o->bins, 8);
        int short_of = faults_of(!h || !mine || !all);
        if (!short_of) {
            ref_histogram(host, o->type, o->bins, o->type == WGS_TYPE_U32 ? 0 : -1,
                          o->type == WGS_TYPE_U32 ? 4294967296.0 : 1, n, h);
            for (uint32_t b = 0; b < o->bins; b++) mine[b] = h[b];
            MPI_Allreduce(mine, all, (int)o->bins, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
            for (uint32_t b = 0; b < o->bins && !bad; b++)
                if (res->hist[b] != all[b]) {
                    fprintf(stderr, "rank %d: bin %u holds %" PRIu64 ", want %llu\n", rank, b, res->hist[b], all[b]);
                    bad = 1;
                }
        }
        free(h), free(mine), free(all);
        if (short_of) return short_of;
    }
    return faults_of(bad);
}

/* scan, reduce, count, histogram: the result lands in place (the scan's in a buffer,
 * the others' on the host); returns the process's exit code. */
static int cmd_in_place(wgs_mpi *m, const options *o) {
    wgs_context *ctx = wgs_mpi_context(m);
    int rank = wgs_mpi_rank(m), size = wgs_mpi_size(m);
    uint64_t n = slice_length(o, rank), total = 0;
    for (int q = 0; q < size; q++) total += slice_length(o, q);
    const size_t es = 4;
    /* The GPU buffers first: a slice the device cannot hold is refused there, before
     * any host memory is asked for it. */
    wgs_result r = WGS_OK;
    WGPUBuffer in = make_buffer(ctx, n * es, &r), out = make_buffer(ctx, n * es, &r);
    void *host = r == WGS_OK ? malloc(n * es + 4) : NULL, *got = r == WGS_OK ? malloc(n * es + 4) : NULL;
    outcome res = {.hist = calloc(o->bins, 8)};
    int runs = o->fail_rank >= 0 ? 1 : o->repeat + 1; /* a warm-up, then the timed runs (or the one that must fail) */
    double *wall = calloc((size_t)runs, sizeof *wall);
    if (r == WGS_OK && (!host || !got || !res.hist || !wall)) r = WGS_ERROR_OUT_OF_HOST_MEMORY;
    if (r == WGS_OK) {
        ref_fill_random(host, o->type, o->op, n, 1000003u * (uint64_t)rank + 17);
        if (n) r = wgs_buffer_write(ctx, in, 0, host, n * es);
    }
    int exit_code = 0;
    if (setup_failed(m, r)) {
        exit_code = 1;
    } else {
        for (int k = 0; k < runs && r == WGS_OK; k++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = now_s();
            r = run(m, o, rank == o->fail_rank, in, out, n, &res);
            wall[k] = max_of(now_s() - t0);
        }
        if (o->fail_rank >= 0) {
            exit_code = agreed_failure(m, r);
        } else if (r != WGS_OK) {
            if (rank == 0) fprintf(stderr, "wgscan-mpi: %s failed: %s\n", o->command, wgs_result_name(r));
            exit_code = 1;
        } else {
            report(m, o, wall, runs, total, NULL);
            if (o->verify) {
                wgs_result v = !strcmp(o->command, "scan") && n ? wgs_buffer_read(ctx, out, 0, got, n * es) : WGS_OK;
                int faults = faults_of(v != WGS_OK);
                if (!faults) faults = verify(m, o, host, got, n, &res);
                if (rank == 0)
                    printf("  verify: %s\n", faults ? "FAILED" : "OK, every rank's part equals the CPU reference");
                exit_code = faults != 0;
            }
        }
    }
    wgs_buffer_release(ctx, in), wgs_buffer_release(ctx, out);
    free(host), free(got), free(res.hist), free(wall);
    return exit_code;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    options o;
    /* Every rank parses its own arguments (mpirun may give the ranks different ones):
     * all go on, or all stop, and the first rank that refused says why. */
    int pr = parse(argc, argv, size, &o), worst = 0, who = pr < 0 ? rank : size, first = size;
    MPI_Allreduce(&pr, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&who, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!worst) MPI_Allreduce(&pr, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst) {
        if (rank == first) fprintf(stderr, "wgscan-mpi: %s\n", why);
        if (rank == 0) fputs(usage, worst > 0 ? stdout : stderr);
        MPI_Finalize();
        return worst > 0 ? 0 : 2;
    }
    wgs_context_desc cd = {.adapter = o.cpu ? WGS_ADAPTER_CPU : WGS_ADAPTER_DEFAULT, .log = on_log, .log_user = &rank};
    wgs_mpi *m = NULL;
    wgs_result r = wgs_mpi_create(MPI_COMM_WORLD, &cd, &m);
    if (r != WGS_OK) {
        if (rank == 0) fprintf(stderr, "wgscan-mpi: %s\n", wgs_result_name(r));
        MPI_Finalize();
        return 1;
    }
    int exit_code = !strcmp(o.command, "sort") ? cmd_sort(m, &o) : !strcmp(o.command, "compact") ? cmd_compact(m, &o)
                                                                                              : cmd_in_place(m, &o);
    MPI_Allreduce(&exit_code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    wgs_mpi_destroy(m);
    MPI_Finalize();
    return worst;
}
