/* SPDX-License-Identifier: MIT */
/*
 * The CLI's arguments: one table of options (which commands take each one), scanned by
 * getopt_long, strict parsers for their values, and one validation step per command
 * after all options are read, where defaults are applied and options that would do
 * nothing are refused.
 * Nothing here reads files or touches the GPU (tests/fuzz/fuzz_cli.c relies on that).
 */
#include "cli.h"
#include "count_parse.h"

#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- values -------------------------------------------------------------------- */

/* The count parser is wgscan-mpi's too (programs/common/count_parse.h). */
int cli_parse_u64(const char *s, uint64_t *out) { return prog_parse_count(s, out); }

int cli_parse_double(const char *s, int allow_nonfinite, double *out) {
    if (!s || !*s || *s == ' ' || (*s >= '\t' && *s <= '\r')) return -1;
    /* a count's forms first (2^31, 16M, 1.5K), with a sign */
    const int neg = *s == '-', sign = neg || *s == '+';
    uint64_t u;
    if (prog_is_digit(s[sign]) && prog_parse_count(s + sign, &u) == 0) {
        *out = neg ? -(double)u : (double)u;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end) return -1;
    if (errno == ERANGE && isinf(v)) return -1; /* 1e999: say inf if inf is meant */
    if (!allow_nonfinite && !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int cli_parse_type(const char *s, wgs_type *out) {
    static const struct { const char *n; wgs_type t; } k[] = {
        {"u32", WGS_TYPE_U32}, {"i32", WGS_TYPE_I32}, {"f32", WGS_TYPE_F32}, {"f16", WGS_TYPE_F16}};
    for (size_t i = 0; s && i < sizeof k / sizeof k[0]; i++)
        if (strcmp(s, k[i].n) == 0) return *out = k[i].t, 0;
    return -1;
}

int cli_parse_key_type(const char *s, wgs_type *out) {
    if (s && !strcmp(s, "u64")) return *out = WGS_TYPE_U64, 0;
    if (s && !strcmp(s, "i64")) return *out = WGS_TYPE_I64, 0;
    wgs_type t;
    if (cli_parse_type(s, &t) || t == WGS_TYPE_F16) return -1;
    return *out = t, 0;
}

static const char *const distribution_names[] = {
    [CLI_DIST_UNIFORM] = "uniform", [CLI_DIST_SORTED] = "sorted", [CLI_DIST_REVERSED] = "reversed",
    [CLI_DIST_EQUAL] = "equal",     [CLI_DIST_FEW] = "few",       [CLI_DIST_SKEWED] = "skewed"};

int cli_parse_distribution(const char *s, cli_distribution *out, uint64_t *distinct) {
    if (!s) return -1;
    if (!strncmp(s, "few:", 4)) {
        uint64_t k;
        if (cli_parse_u64(s + 4, &k) || k < 1 || k > CLI_SORT_MAX_DISTINCT) return -1;
        *out = CLI_DIST_FEW, *distinct = k;
        return 0;
    }
    for (int d = 0; d < (int)(sizeof distribution_names / sizeof *distribution_names); d++)
        if (d != CLI_DIST_FEW && !strcmp(s, distribution_names[d])) {
            *out = (cli_distribution)d, *distinct = 0;
            return 0;
        }
    return -1;
}

const char *cli_distribution_name(cli_distribution d) {
    return d >= CLI_DIST_UNIFORM && d <= CLI_DIST_SKEWED ? distribution_names[d] : "?";
}

/* "B:E": two counts, 0..64 each (what the key type allows is checked once the type is
 * known). */
static int parse_bits(const char *v, uint32_t *begin, uint32_t *end) {
    const char *colon = strchr(v, ':');
    char b_text[32];
    uint64_t b, e;
    if (!colon || (size_t)(colon - v) >= sizeof b_text) return -1;
    memcpy(b_text, v, (size_t)(colon - v));
    b_text[colon - v] = 0;
    if (cli_parse_u64(b_text, &b) || b > 64 || cli_parse_u64(colon + 1, &e) || e > 64) return -1;
    *begin = (uint32_t)b, *end = (uint32_t)e;
    return 0;
}

int cli_parse_op(const char *s, wgs_op *out) {
    static const struct { const char *n; wgs_op o; } k[] = {
        {"add", WGS_OP_ADD}, {"min", WGS_OP_MIN}, {"max", WGS_OP_MAX},
        {"and", WGS_OP_AND}, {"or", WGS_OP_OR},   {"xor", WGS_OP_XOR},
        {"argmin", WGS_OP_ARGMIN}, {"argmax", WGS_OP_ARGMAX}};
    for (size_t i = 0; s && i < sizeof k / sizeof k[0]; i++)
        if (strcmp(s, k[i].n) == 0) return *out = k[i].o, 0;
    return -1;
}

int cli_parse_algorithm(const char *s, wgs_scan_algorithm *out) {
    if (!s) return -1;
    if (strcmp(s, "auto") == 0) return *out = WGS_SCAN_ALGORITHM_DEFAULT, 0;
    if (strcmp(s, "single-pass") == 0) return *out = WGS_SCAN_ALGORITHM_SINGLE_PASS, 0;
    if (strcmp(s, "multilevel") == 0) return *out = WGS_SCAN_ALGORITHM_MULTILEVEL, 0;
    return -1;
}

const char *cli_algorithm_name(wgs_scan_algorithm a) {
    switch (a) {
    case WGS_SCAN_ALGORITHM_SINGLE_PASS: return "single-pass";
    case WGS_SCAN_ALGORITHM_MULTILEVEL: return "multilevel";
    default: return "auto";
    }
}

/* "default" or "uniform:A:B" (A < B, finite; whether the type holds them is checked
 * once it is known). */
static int parse_uniform(const char *v, cli_uniform *u) {
    if (!strcmp(v, "default")) return *u = (cli_uniform){0}, 0;
    if (strncmp(v, "uniform:", 8)) return -1;
    const char *a = v + 8, *b = strchr(a + (*a == '-'), ':');
    char a_text[64];
    cli_uniform w = {.on = 1};
    if (!b || (size_t)(b - a) >= sizeof a_text) return -1;
    memcpy(a_text, a, (size_t)(b - a));
    a_text[b - a] = 0;
    if (cli_parse_double(a_text, 0, &w.lo) || cli_parse_double(b + 1, 0, &w.hi) || !(w.lo < w.hi) ||
        !isfinite(w.hi - w.lo))
        return -1;
    *u = w;
    return 0;
}

/* "nonzero", "eq:A", "ne:A", "lt:A", "gt:A", "range:A:B": operands may be inf or nan
 * here; whether the type takes them is checked once the type is known. */
static int parse_predicate(const char *v, wgs_predicate *p) {
    static const struct { const char *name; wgs_predicate_kind k; } kinds[] = {
        {"nonzero", WGS_PREDICATE_NONZERO}, {"eq", WGS_PREDICATE_EQUAL}, {"ne", WGS_PREDICATE_NOT_EQUAL},
        {"lt", WGS_PREDICATE_LESS}, {"gt", WGS_PREDICATE_GREATER}, {"range", WGS_PREDICATE_IN_RANGE}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t len = strlen(kinds[i].name);
        if (strncmp(v, kinds[i].name, len) != 0) continue;
        const char *rest = v + len;
        wgs_predicate q = {.kind = kinds[i].k};
        if (q.kind == WGS_PREDICATE_NONZERO) {
            if (*rest) return -1;
        } else {
            if (*rest != ':') return -1;
            char a[64];
            const char *b = q.kind == WGS_PREDICATE_IN_RANGE ? strchr(rest + 1, ':') : NULL;
            size_t alen = b ? (size_t)(b - rest - 1) : strlen(rest + 1);
            if (q.kind == WGS_PREDICATE_IN_RANGE && !b) return -1;
            if (alen >= sizeof a) return -1;
            memcpy(a, rest + 1, alen);
            a[alen] = 0;
            if (cli_parse_double(a, 1, &q.a)) return -1;
            if (b && cli_parse_double(b + 1, 1, &q.b)) return -1;
        }
        *p = q;
        return 0;
    }
    return -1;
}

/* ---- the option table ------------------------------------------------------------ */

#define CMD(c) (1u << (c))
#define SEGMENTS (CMD(CLI_SEGMENTED) | CMD(CLI_SCAN_BY_KEY) | CMD(CLI_REDUCE_BY_KEY) | CMD(CLI_SEGMENTED_SCAN))
#define PRIMS (CMD(CLI_REDUCE) | CMD(CLI_COUNT) | CMD(CLI_COMPACT) | CMD(CLI_HISTOGRAM) | SEGMENTS)
#define RUNS (CMD(CLI_SCAN) | PRIMS | CMD(CLI_SORT)) /* the commands that run one configuration */
#define TOPK CMD(CLI_TOPK)
#define SEGSORT CMD(CLI_SEGMENTED_SORT)

typedef enum opt_id {
    OPT_N, OPT_TYPE, OPT_OP, OPT_INCLUSIVE, OPT_VERIFY, OPT_REPEAT, OPT_IN, OPT_OUT, OPT_SEED,
    OPT_ALGORITHM, OPT_DETERMINISTIC, OPT_FLOAT_SUM, OPT_PREDICATE, OPT_MODE, OPT_PARTITION,
    OPT_PAYLOAD, OPT_FLAGS, OPT_DENSITY, OPT_BINS, OPT_LOWER, OPT_UPPER,
    OPT_MIN, OPT_MAX, OPT_SERIES, OPT_ALGORITHMS, OPT_PRIMITIVES, OPT_RUNS, OPT_JSON, OPT_CSV, OPT_SVG,
    OPT_VERBOSE, OPT_PAIRS, OPT_VALUE_BYTES, OPT_DESCENDING, OPT_BITS, OPT_DISTRIBUTION,
    OPT_TRANSFERS, OPT_CREATION, OPT_SEGMENTS, OPT_EXCLUSIVE, OPT_GPU_COUNT, OPT_KEYS,
    OPT_OUT_VALUES, OPT_OPERATOR, OPT_K, OPT_ROWS, OPT_SMALLEST, OPT_INPUT_ORDER, OPT_SEGSORT_PATH,
    OPT_COUNT
} opt_id;

static const struct opt_def {
    const char *name;
    opt_id id;
    unsigned commands;
    int takes_value;
} options[] = {
    {"--n", OPT_N, RUNS | TOPK | SEGSORT, 1},
    {"--type", OPT_TYPE, RUNS | TOPK | SEGSORT, 1},
    {"--op", OPT_OP, CMD(CLI_SCAN) | CMD(CLI_REDUCE) | SEGMENTS, 1},
    {"--inclusive", OPT_INCLUSIVE, CMD(CLI_SCAN) | CMD(CLI_SCAN_BY_KEY) | CMD(CLI_SEGMENTED_SCAN), 0},
    {"--exclusive", OPT_EXCLUSIVE, CMD(CLI_SCAN) | CMD(CLI_SCAN_BY_KEY) | CMD(CLI_SEGMENTED_SCAN), 0},
    {"--verify", OPT_VERIFY, RUNS | TOPK | SEGSORT, 0},
    {"--repeat", OPT_REPEAT, RUNS | TOPK | SEGSORT, 1},
    {"--in", OPT_IN, RUNS, 1},
    {"--out", OPT_OUT, RUNS | TOPK | SEGSORT, 1},
    {"--seed", OPT_SEED, RUNS | TOPK | SEGSORT, 1},
    {"--algorithm", OPT_ALGORITHM, CMD(CLI_SCAN) | CMD(CLI_REDUCE) | CMD(CLI_COUNT) | CMD(CLI_COMPACT) | CMD(CLI_SORT), 1},
    {"--deterministic", OPT_DETERMINISTIC, CMD(CLI_SCAN), 0},
    {"--gpu-count", OPT_GPU_COUNT, CMD(CLI_SCAN), 1},
    {"--operator", OPT_OPERATOR, CMD(CLI_SCAN) | CMD(CLI_REDUCE) | SEGMENTS, 1},
    {"--float-sum", OPT_FLOAT_SUM, CMD(CLI_REDUCE), 1},
    {"--predicate", OPT_PREDICATE, CMD(CLI_COUNT) | CMD(CLI_COMPACT), 1},
    {"--mode", OPT_MODE, CMD(CLI_COMPACT), 1},
    {"--partition", OPT_PARTITION, CMD(CLI_COMPACT), 0},
    {"--payload", OPT_PAYLOAD, CMD(CLI_COMPACT) | CMD(CLI_SORT) | TOPK | SEGSORT, 1},
    {"--flags", OPT_FLAGS, CMD(CLI_COMPACT), 1},
    {"--density", OPT_DENSITY, CMD(CLI_COMPACT), 1},
    {"--bins", OPT_BINS, CMD(CLI_HISTOGRAM), 1},
    {"--lower", OPT_LOWER, CMD(CLI_HISTOGRAM), 1},
    {"--upper", OPT_UPPER, CMD(CLI_HISTOGRAM), 1},
    {"--min", OPT_MIN, CMD(CLI_BENCH), 1},
    {"--max", OPT_MAX, CMD(CLI_BENCH), 1},
    {"--series", OPT_SERIES, CMD(CLI_BENCH), 1},
    {"--algorithms", OPT_ALGORITHMS, CMD(CLI_BENCH), 1},
    {"--primitives", OPT_PRIMITIVES, CMD(CLI_BENCH), 1},
    {"--runs", OPT_RUNS, CMD(CLI_BENCH), 1},
    {"--json", OPT_JSON, CMD(CLI_BENCH) | RUNS | CMD(CLI_INFO) | SEGSORT, 1},
    {"--csv", OPT_CSV, CMD(CLI_BENCH), 1},
    {"--svg", OPT_SVG, CMD(CLI_BENCH), 1},
    {"--transfers", OPT_TRANSFERS, CMD(CLI_BENCH), 0},
    {"--creation", OPT_CREATION, CMD(CLI_BENCH), 0},
    {"--verbose", OPT_VERBOSE, CMD(CLI_INFO), 0},
    {"--pairs", OPT_PAIRS, CMD(CLI_SORT) | SEGSORT, 0},
    {"--value-bytes", OPT_VALUE_BYTES, CMD(CLI_SORT) | SEGSORT, 1},
    {"--descending", OPT_DESCENDING, CMD(CLI_SORT) | SEGSORT, 0},
    {"--bits", OPT_BITS, CMD(CLI_SORT), 1},
    {"--distribution", OPT_DISTRIBUTION, RUNS, 1},
    {"--segments", OPT_SEGMENTS, SEGMENTS | SEGSORT, 1},
    {"--keys", OPT_KEYS, CMD(CLI_SCAN_BY_KEY) | CMD(CLI_REDUCE_BY_KEY), 1},
    {"--out-values", OPT_OUT_VALUES, CMD(CLI_SORT), 1},
    {"--k", OPT_K, TOPK, 1},
    {"--rows", OPT_ROWS, TOPK, 1},
    {"--smallest", OPT_SMALLEST, TOPK, 0},
    {"--input-order", OPT_INPUT_ORDER, TOPK, 0},
    {"--path", OPT_SEGSORT_PATH, SEGSORT, 1},
};
/* getopt_long's value for options[k]: past every character and its 1, ':' and '?'. */
#define OPT_VAL(k) (0x100 + (int)(k))

static const char *const command_names[CLI_COMMAND_COUNT] = {
    [CLI_NONE] = "", [CLI_HELP] = "help", [CLI_VERSION] = "--version", [CLI_INFO] = "info",
    [CLI_DEMO] = "demo", [CLI_SCAN] = "scan", [CLI_REDUCE] = "reduce", [CLI_COUNT] = "count",
    [CLI_COMPACT] = "compact", [CLI_HISTOGRAM] = "histogram", [CLI_SORT] = "sort",
    [CLI_BENCH] = "bench", [CLI_SEGMENTED] = "segmented-reduce", [CLI_SCAN_BY_KEY] = "scan-by-key",
    [CLI_REDUCE_BY_KEY] = "reduce-by-key", [CLI_SEGMENTED_SCAN] = "segmented-scan", [CLI_TOPK] = "topk",
    [CLI_SEGMENTED_SORT] = "segmented-sort"};

const char *cli_command_name(cli_command c) {
    return c > CLI_NONE && c < CLI_COMMAND_COUNT ? command_names[c] : "";
}

const char *const cli_bench_primitive_names[CLI_BENCH_PRIMITIVES] = {
    "reduce-tree", "reduce-atomic", "count-tree", "count-atomic", "count-per-element",
    "select-flagged", "select-if", "histogram-256", "select-flagged-1pass",
    "sort-keys", "sort-pairs", "sort-u64", "sort-f32",
    "segmented-reduce-16", "segmented-reduce-256", "segmented-reduce-4096",
    "segmented-scan-16", "segmented-scan-256", "segmented-scan-4096",
    "scan-by-key-16", "scan-by-key-256", "scan-by-key-4096", "reduce-by-key-256", "topk-1024", "topk-rows-50",
    "segmented-sort-16", "segmented-sort-256", "segmented-sort-4096", "segmented-sort-65536"};

static cli_command command_of(const char *s) {
    if (!strcmp(s, "select")) return CLI_COMPACT; /* the name the C and JS APIs use */
    for (int c = CLI_INFO; c < CLI_COMMAND_COUNT; c++)
        if (!strcmp(s, command_names[c])) return (cli_command)c;
    return CLI_NONE;
}

static int is_float_type(wgs_type t) { return t == WGS_TYPE_F32 || t == WGS_TYPE_F16; }

/* ---- one value of one option ---------------------------------------------------- */

static int bad(const char *opt, const char *v, const char *expected) {
    return cli_usage_error("bad %s '%s' (%s)", opt, v, expected);
}

/* Items of a comma-separated list, each at most 31 characters; calls item() on each. */
static int for_each_item(const char *v, int (*item)(const char *tok, void *user), void *user) {
    if (!*v) return -1;
    for (const char *p = v;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char tok[32];
        if (len == 0 || len >= sizeof tok) return -1;
        memcpy(tok, p, len);
        tok[len] = 0;
        if (item(tok, user)) return -1;
        if (!comma) return 0;
        p = comma + 1;
    }
}

static int series_item(const char *tok, void *user) {
    bench_options *b = user;
    const char *colon = strchr(tok, ':');
    char type[32];
    if (!colon || b->nseries == CLI_BENCH_MAX_SERIES) return -1;
    memcpy(type, tok, (size_t)(colon - tok));
    type[colon - tok] = 0;
    bench_series s;
    if (cli_parse_type(type, &s.type) || cli_parse_op(colon + 1, &s.op) || s.op > WGS_OP_XOR) return -1;
    if (is_float_type(s.type) && s.op >= WGS_OP_AND) return -1;
    b->series[b->nseries++] = s;
    return 0;
}

static int algorithm_item(const char *tok, void *user) {
    bench_options *b = user;
    wgs_scan_algorithm a;
    if (b->nalgo == 2 || cli_parse_algorithm(tok, &a) || a == WGS_SCAN_ALGORITHM_DEFAULT) return -1;
    for (int i = 0; i < b->nalgo; i++)
        if (b->algos[i] == a) return -1;
    b->algos[b->nalgo++] = a;
    return 0;
}

static int primitive_item(const char *tok, void *user) {
    bench_options *b = user;
    if (!strcmp(tok, "all")) {
        if (b->nprims) return -1;
        for (b->nprims = 0; b->nprims < CLI_BENCH_PRIMITIVES; b->nprims++) b->prims[b->nprims] = b->nprims;
        return 0;
    }
    for (int q = 0; q < CLI_BENCH_PRIMITIVES; q++) {
        if (strcmp(tok, cli_bench_primitive_names[q])) continue;
        for (int i = 0; i < b->nprims; i++)
            if (b->prims[i] == q) return -1; /* listed twice (or after all) */
        b->prims[b->nprims++] = q;
        return 0;
    }
    return -1;
}

/* Where a command that runs one configuration keeps the options they all share. */
typedef struct run_fields {
    uint64_t *n, *seed;
    int *have_n, *verify, *repeat;
    const char **in_path, **out_path, **json_path;
    wgs_type *type;
} run_fields;

static run_fields run_fields_of(cli_options *o) {
    if (o->command == CLI_SCAN) {
        scan_options *s = &o->scan;
        return (run_fields){&s->n, &s->seed, &s->have_n, &s->verify, &s->repeat, &s->in_path, &s->out_path,
                            &s->json_path, &s->type};
    }
    if (o->command == CLI_SORT) {
        sort_options *s = &o->sort;
        return (run_fields){&s->n, &s->seed, &s->have_n, &s->verify, &s->repeat, &s->in_path, &s->out_path,
                            &s->json_path, &s->type};
    }
    if (o->command == CLI_TOPK) {
        topk_options *t = &o->topk;
        return (run_fields){&t->n, &t->seed, &t->have_n, &t->verify, &t->repeat, &t->in_path, &t->out_path,
                            &t->json_path, &t->type};
    }
    if (o->command == CLI_SEGMENTED_SORT) {
        segsort_options *t = &o->segsort;
        return (run_fields){&t->n, &t->seed, &t->have_n, &t->verify, &t->repeat, &t->in_path, &t->out_path,
                            &t->json_path, &t->type};
    }
    prim_options *p = &o->prim;
    return (run_fields){&p->n, &p->seed, &p->have_n, &p->verify, &p->repeat, &p->in_path, &p->out_path,
                        &p->json_path, &p->type};
}

static int set_option(cli_options *o, const struct opt_def *d, const char *v) {
    scan_options *s = &o->scan;
    prim_options *p = &o->prim;
    sort_options *so = &o->sort;
    bench_options *b = &o->bench;
    const int scan = o->command == CLI_SCAN, sort = o->command == CLI_SORT;
    const int segsort = o->command == CLI_SEGMENTED_SORT;
    const run_fields f = run_fields_of(o);
    const char *name = d->name;
    uint64_t u;
    double x;
    switch (d->id) {
    case OPT_N:
        if (cli_parse_u64(v, &u) || u > CLI_MAX_N) return bad(name, v, "a count up to 2^40: 1000, 1e6, 16M, 2^24");
        *f.n = u, *f.have_n = 1;
        return 0;
    case OPT_TYPE: {
        wgs_type t;
        if (sort || segsort) {
            if (cli_parse_key_type(v, &t)) return bad(name, v, "u32, i32, f32, u64, i64");
        } else if (cli_parse_type(v, &t) || (!scan && t == WGS_TYPE_F16)) {
            return bad(name, v, scan ? "u32, i32, f32, f16" : "u32, i32, f32");
        }
        *f.type = t;
        return 0;
    }
    case OPT_OP: {
        wgs_op op;
        const int scans = scan || o->command == CLI_SCAN_BY_KEY || o->command == CLI_SEGMENTED_SCAN;
        if (cli_parse_op(v, &op) || (scans && op > WGS_OP_XOR))
            return bad(name, v, scans ? "add, min, max, and, or, xor" : "add, min, max, and, or, xor, argmin, argmax");
        if (scan) s->op = op;
        else p->op = op;
        return 0;
    }
    case OPT_INCLUSIVE:
    case OPT_EXCLUSIVE:
        if (scan) s->inclusive = d->id == OPT_INCLUSIVE;
        else p->inclusive = d->id == OPT_INCLUSIVE;
        return 0;
    case OPT_DETERMINISTIC: s->deterministic = 1; return 0;
    case OPT_OPERATOR:
        if (!*v) return bad(name, v, "a WGSL file");
        if (scan) s->operator_path = v;
        else p->operator_path = v;
        return 0;
    case OPT_GPU_COUNT:
        if (cli_parse_u64(v, &u) || u > 0xFFFFFFFFull) return bad(name, v, "a count up to 2^32 - 1: 1000, 1e6, 16M");
        s->gpu_count = u, s->have_gpu_count = 1;
        return 0;
    case OPT_VERBOSE: o->verbose = 1; return 0;
    case OPT_OUT_VALUES:
        if (!*v) return bad(name, v, "a file name");
        so->out_values_path = v;
        return 0;
    case OPT_PARTITION: p->partition = 1; return 0;
    case OPT_PAIRS: *(segsort ? &o->segsort.payload : &so->payload) = WGS_PAYLOAD_BUFFER; return 0;
    case OPT_DESCENDING: *(segsort ? &o->segsort.descending : &so->descending) = 1; return 0;
    case OPT_SMALLEST: o->topk.smallest = 1; return 0;
    case OPT_INPUT_ORDER: o->topk.input_order = 1; return 0;
    case OPT_K:
        if (cli_parse_u64(v, &u) || u < 1 || u > 0xFFFFFFFFull) return bad(name, v, "a count 1..2^32-1: 50, 1K, 2^10");
        o->topk.k = u, o->topk.have_k = 1;
        return 0;
    case OPT_ROWS:
        if (cli_parse_u64(v, &u) || u < 1 || u > 0xFFFFFFFFull) return bad(name, v, "a count 1..2^32-1: 64, 1K");
        o->topk.rows = u;
        return 0;
    case OPT_VERIFY: *f.verify = 1; return 0;
    case OPT_REPEAT:
        if (cli_parse_u64(v, &u) || u < 1 || u > CLI_MAX_REPEAT) return bad(name, v, "1..2048");
        *f.repeat = (int)u;
        return 0;
    case OPT_SEED:
        if (cli_parse_u64(v, &u)) return bad(name, v, "0..2^64-1");
        *f.seed = u;
        return 0;
    case OPT_VALUE_BYTES:
        if (cli_parse_u64(v, &u) || (u != 4 && u != 8)) return bad(name, v, "4 or 8");
        *(segsort ? &o->segsort.value_bytes : &so->value_bytes) = (uint32_t)u;
        return 0;
    case OPT_BITS:
        if (parse_bits(v, &so->begin_bit, &so->end_bit)) return bad(name, v, "B:E, bits B up to E of the key, e.g. 0:16");
        return 0;
    case OPT_DISTRIBUTION:
        if (sort) {
            if (cli_parse_distribution(v, &so->distribution, &so->distinct))
                return bad(name, v, "uniform, sorted, reversed, equal, few:K (K 1..2^32), skewed");
        } else if (parse_uniform(v, scan ? &s->uniform : &p->uniform)) {
            return bad(name, v, "default or uniform:A:B, finite A < B");
        }
        return 0;
    case OPT_IN:
    case OPT_OUT:
    case OPT_FLAGS:
    case OPT_KEYS:
    case OPT_JSON:
    case OPT_CSV:
    case OPT_SVG:
        if (!*v) return bad(name, v, "a file name");
        if (d->id == OPT_IN) *f.in_path = v;
        else if (d->id == OPT_OUT) *f.out_path = v;
        else if (d->id == OPT_FLAGS) p->flags_path = v;
        else if (d->id == OPT_KEYS) p->keys_path = v;
        else if (d->id == OPT_JSON && o->command == CLI_BENCH) b->json = v;
        else if (d->id == OPT_JSON && o->command == CLI_INFO) o->info_json = v;
        else if (d->id == OPT_JSON) *f.json_path = v;
        else if (d->id == OPT_CSV) b->csv = v;
        else b->svg = v;
        return 0;
    case OPT_ALGORITHM:
        if (scan) {
            if (cli_parse_algorithm(v, &s->algorithm)) return bad(name, v, "auto, single-pass, multilevel");
        } else if (o->command == CLI_SORT) {
            if (!strcmp(v, "auto")) so->algorithm = WGS_SORT_ALGORITHM_DEFAULT;
            else if (!strcmp(v, "onesweep")) so->algorithm = WGS_SORT_ALGORITHM_ONESWEEP;
            else if (!strcmp(v, "reduce-scan")) so->algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN;
            else return bad(name, v, "auto, onesweep, reduce-scan");
        } else if (o->command == CLI_COMPACT) {
            if (!strcmp(v, "auto")) p->select_algorithm = WGS_SELECT_ALGORITHM_DEFAULT;
            else if (!strcmp(v, "single-pass")) p->select_algorithm = WGS_SELECT_ALGORITHM_SINGLE_PASS;
            else if (!strcmp(v, "three-pass")) p->select_algorithm = WGS_SELECT_ALGORITHM_THREE_PASS;
            else return bad(name, v, "auto, single-pass, three-pass");
        } else {
            if (!strcmp(v, "tree")) p->algorithm = WGS_REDUCE_ALGORITHM_TREE;
            else if (!strcmp(v, "atomic")) p->algorithm = WGS_REDUCE_ALGORITHM_ATOMIC;
            else if (!strcmp(v, "per-element") && o->command == CLI_COUNT)
                p->algorithm = WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT;
            else return bad(name, v, o->command == CLI_COUNT ? "tree, atomic, per-element" : "tree, atomic");
        }
        return 0;
    case OPT_FLOAT_SUM:
        if (!strcmp(v, "cas")) p->float_sum = WGS_FLOAT_SUM_CAS;
        else if (!strcmp(v, "fixed")) p->float_sum = WGS_FLOAT_SUM_FIXED_POINT;
        else return bad(name, v, "cas, fixed");
        return 0;
    case OPT_PREDICATE:
        if (parse_predicate(v, &p->pred)) return bad(name, v, "nonzero, eq:A, ne:A, lt:A, gt:A, range:A:B");
        return 0;
    case OPT_SEGSORT_PATH:
        if (!strcmp(v, "default")) o->segsort.path = WGS_SEGMENTED_SORT_PATH_DEFAULT;
        else if (!strcmp(v, "small")) o->segsort.path = WGS_SEGMENTED_SORT_PATH_SMALL;
        else if (!strcmp(v, "large")) o->segsort.path = WGS_SEGMENTED_SORT_PATH_LARGE;
        else return bad(name, v, "default, small, large");
        return 0;
    case OPT_MODE:
        if (!strcmp(v, "flagged")) p->mode = WGS_SELECT_FLAGGED;
        else if (!strcmp(v, "if")) p->mode = WGS_SELECT_IF;
        else if (!strcmp(v, "unique")) p->mode = WGS_SELECT_UNIQUE;
        else if (!strcmp(v, "rle")) p->mode = WGS_SELECT_RUN_LENGTH;
        else return bad(name, v, "flagged, if, unique, rle");
        return 0;
    case OPT_PAYLOAD: {
        wgs_payload pl;
        if (!strcmp(v, "none")) pl = WGS_PAYLOAD_NONE;
        else if (!strcmp(v, "index")) pl = WGS_PAYLOAD_INDEX;
        else return bad(name, v, "none, index");
        *(sort      ? &so->payload
          : segsort ? &o->segsort.payload
          : o->command == CLI_TOPK ? &o->topk.payload
                                   : &p->payload) = pl;
        return 0;
    }
    case OPT_DENSITY:
        if (cli_parse_double(v, 0, &x) || x < 0 || x > 1) return bad(name, v, "0..1");
        p->density = x;
        return 0;
    case OPT_BINS:
        if (cli_parse_u64(v, &u) || u < 1 || u > WGS_HISTOGRAM_MAX_BINS) return bad(name, v, "1..2^20");
        p->bins = (uint32_t)u;
        return 0;
    case OPT_LOWER:
    case OPT_UPPER:
        if (cli_parse_double(v, 0, &x)) return bad(name, v, "a finite number");
        *(d->id == OPT_LOWER ? &p->lower : &p->upper) = x;
        return 0;
    case OPT_MIN:
    case OPT_MAX:
        if (cli_parse_u64(v, &u) || u == 0 || (u & (u - 1)) || u > CLI_MAX_N)
            return bad(name, v, "a power of two up to 2^40");
        *(d->id == OPT_MIN ? &b->nmin : &b->nmax) = u;
        return 0;
    case OPT_RUNS:
        /* (checked against 20 once it is known whether --transfers came too) */
        if (cli_parse_u64(v, &u) || u < CLI_TRANSFER_MIN_RUNS || u > CLI_BENCH_MAX_RUNS)
            return bad(name, v, "20..1000 (3..1000 with --transfers or --creation)");
        b->runs = (int)u;
        return 0;
    case OPT_SERIES:
        b->nseries = 0;
        if (!strcmp(v, "none")) return 0;
        if (for_each_item(v, series_item, b))
            return bad(name, v, "up to 8 type:operator pairs, e.g. u32:add,f32:add,i32:max, or none");
        return 0;
    case OPT_ALGORITHMS:
        b->nalgo = 0;
        if (for_each_item(v, algorithm_item, b)) return bad(name, v, "single-pass, multilevel or both");
        return 0;
    case OPT_PRIMITIVES:
        b->nprims = 0;
        if (for_each_item(v, primitive_item, b)) return bad(name, v, "see 'wgscan bench --help'");
        return 0;
    case OPT_TRANSFERS: b->transfers = 1; return 0;
    case OPT_CREATION: b->creation = 1; return 0;
    case OPT_SEGMENTS: {
        int rnd = !strncmp(v, "random:", 7);
        /* segmented-*: anything but a length is a file (./256 for a file named 256) */
        const int files = o->command == CLI_SEGMENTED_SCAN || o->command == CLI_SEGMENTED || segsort;
        if (!rnd && files && *v && cli_parse_u64(v, &u)) {
            *(segsort ? &o->segsort.seg_path : &p->seg_path) = v;
            return 0;
        }
        if (cli_parse_u64(rnd ? v + 7 : v, &u) || u < 1 || u > 0xFFFFFFFFu)
            return bad(name, v, files ? "L, random:L (a segment length L of 1..2^32-1) or FILE"
                                      : "L or random:L, a segment length L of 1..2^32-1");
        if (segsort) o->segsort.seg_len = u, o->segsort.seg_random = rnd;
        else p->seg_len = u, p->seg_random = rnd;
        return 0;
    }
    case OPT_COUNT: break;
    }
    return cli_usage_error("internal: option %s has no parser", name);
}

/* ---- after all options: defaults, and what only makes sense together ------------- */

#define SEEN(id) ((seen >> (id)) & 1ull)

static int check_operand(const prim_options *p, double a) {
    if (p->type == WGS_TYPE_F32) return 0; /* inf, -inf, nan: compared as the manual says */
    if (!isfinite(a) || a != floor(a))
        return cli_usage_error("--predicate operand %g is not an integer of %s", a, wgs_type_name(p->type));
    return 0;
}

/* uniform:A:B against the type: integers within its range for u32 and i32 (B up to one
 * past the largest), f32 any finite pair; f16 keeps its exact default input. */
static int check_uniform(const cli_uniform *u, wgs_type t, const char *in_path) {
    if (!u->on) return 0;
    if (in_path) return cli_usage_error("--distribution does nothing with --in (the input is the file)");
    if (t == WGS_TYPE_F16) return cli_usage_error("--distribution uniform takes u32, i32 or f32 (f16 keeps its default)");
    if (t == WGS_TYPE_F32) return 0;
    const double lo = t == WGS_TYPE_I32 ? -2147483648.0 : 0.0, hi = t == WGS_TYPE_I32 ? 2147483648.0 : 4294967296.0;
    if (u->lo != floor(u->lo) || u->hi != floor(u->hi) || u->lo < lo || u->hi > hi)
        return cli_usage_error("--distribution uniform:%g:%g: %s takes integers A < B in %.0f..%.0f", u->lo, u->hi,
                               wgs_type_name(t), lo, hi);
    return 0;
}

static int finish_scan(scan_options *s, uint64_t seen) {
    if (SEEN(OPT_INCLUSIVE) && SEEN(OPT_EXCLUSIVE)) return cli_usage_error("--inclusive and --exclusive are exclusive");
    if (!s->have_n && !s->in_path) return cli_usage_error("scan needs --n N or --in FILE");
    if (is_float_type(s->type) && s->op >= WGS_OP_AND)
        return cli_usage_error("--op %s needs an integer type, not %s", wgs_op_name(s->op), wgs_type_name(s->type));
    if (SEEN(OPT_SEED) && s->in_path) return cli_usage_error("--seed does nothing with --in (the input is the file)");
    if (s->operator_path && (SEEN(OPT_TYPE) || SEEN(OPT_OP) || SEEN(OPT_GPU_COUNT) || SEEN(OPT_DETERMINISTIC)))
        return cli_usage_error("--operator takes no --type, --op, --gpu-count or --deterministic (the file says "
                               "the type and operator; its scans are deterministic)");
    return check_uniform(&s->uniform, s->type, s->in_path);
}

static int finish_prim(prim_options *p, uint64_t seen) {
    const char *cmd = cli_command_name(p->cmd);
    if (p->operator_path && (SEEN(OPT_TYPE) || SEEN(OPT_OP) || SEEN(OPT_ALGORITHM) || SEEN(OPT_FLOAT_SUM)))
        return cli_usage_error("--operator takes no --type, --op, --algorithm or --float-sum (the file says the "
                               "type and operator)");
    if (!p->have_n && !p->in_path) return cli_usage_error("%s needs --n N or --in FILE", cmd);
    if (SEEN(OPT_INCLUSIVE) && SEEN(OPT_EXCLUSIVE)) return cli_usage_error("--inclusive and --exclusive are exclusive");
    if (p->cmd == CLI_SCAN_BY_KEY || p->cmd == CLI_REDUCE_BY_KEY) {
        if (SEEN(OPT_SEGMENTS) == SEEN(OPT_KEYS))
            return cli_usage_error("%s needs --segments L or random:L, or --keys FILE (one of them)", cmd);
        if (p->type == WGS_TYPE_F32 && p->op >= WGS_OP_AND && p->op <= WGS_OP_XOR)
            return cli_usage_error("--op %s needs an integer type, not f32", wgs_op_name(p->op));
        if (p->n >= (1ull << 31)) return cli_usage_error("%s takes n below 2^31", cmd);
    }
    if (p->cmd == CLI_SEGMENTED_SCAN) {
        if (!SEEN(OPT_SEGMENTS)) return cli_usage_error("segmented-scan needs --segments L, random:L or FILE");
        if (p->type == WGS_TYPE_F32 && p->op >= WGS_OP_AND)
            return cli_usage_error("--op %s needs an integer type, not f32", wgs_op_name(p->op));
        if (p->n >= (1ull << 31)) return cli_usage_error("segmented-scan takes n below 2^31");
    }
    if (p->cmd == CLI_SEGMENTED) {
        if (!SEEN(OPT_SEGMENTS)) return cli_usage_error("segmented-reduce needs --segments L, random:L or FILE");
        if (p->type == WGS_TYPE_F32 && p->op >= WGS_OP_AND && p->op <= WGS_OP_XOR)
            return cli_usage_error("--op %s needs an integer type, not f32", wgs_op_name(p->op));
        if (p->n >= (1ull << 31)) return cli_usage_error("segmented-reduce takes n below 2^31");
    }
    if (p->cmd == CLI_REDUCE && SEEN(OPT_FLOAT_SUM) &&
        !(p->type == WGS_TYPE_F32 && p->op == WGS_OP_ADD && p->algorithm == WGS_REDUCE_ALGORITHM_ATOMIC))
        return cli_usage_error("--float-sum does nothing here: it applies to --type f32 --op add --algorithm atomic");
    if (p->cmd == CLI_COMPACT) {
        /* --predicate alone means --mode if */
        if (!SEEN(OPT_MODE)) p->mode = SEEN(OPT_PREDICATE) ? WGS_SELECT_IF : WGS_SELECT_FLAGGED;
        if (SEEN(OPT_PREDICATE) && p->mode != WGS_SELECT_IF)
            return cli_usage_error("--predicate does nothing with --mode %s (only with --mode if)",
                                   p->mode == WGS_SELECT_FLAGGED ? "flagged" : p->mode == WGS_SELECT_UNIQUE ? "unique" : "rle");
        if ((SEEN(OPT_FLAGS) || SEEN(OPT_DENSITY)) && p->mode != WGS_SELECT_FLAGGED)
            return cli_usage_error("%s does nothing without --mode flagged", SEEN(OPT_FLAGS) ? "--flags" : "--density");
        if (SEEN(OPT_FLAGS) && SEEN(OPT_DENSITY))
            return cli_usage_error("--density does nothing with --flags (the flags come from the file)");
    }
    if (SEEN(OPT_SEED) && p->in_path && !(p->cmd == CLI_COMPACT && p->mode == WGS_SELECT_FLAGGED && !p->flags_path))
        return cli_usage_error("--seed does nothing with --in (the input is the file)");
    if (check_uniform(&p->uniform, p->type, p->in_path)) return EXIT_USAGE;
    if (p->cmd == CLI_COUNT || (p->cmd == CLI_COMPACT && p->mode == WGS_SELECT_IF)) {
        if (p->pred.kind == WGS_PREDICATE_DEFAULT) p->pred.kind = WGS_PREDICATE_NONZERO;
        if (p->pred.kind != WGS_PREDICATE_NONZERO && check_operand(p, p->pred.a)) return EXIT_USAGE;
        if (p->pred.kind == WGS_PREDICATE_IN_RANGE) {
            if (check_operand(p, p->pred.b)) return EXIT_USAGE;
            if (p->pred.a > p->pred.b)
                return cli_usage_error("--predicate range:%g:%g is empty (A <= v < B needs A <= B)", p->pred.a, p->pred.b);
        }
    }
    if (p->cmd == CLI_HISTOGRAM) {
        int given = (int)SEEN(OPT_LOWER) + (int)SEEN(OPT_UPPER);
        if (given == 1) return cli_usage_error("histogram needs both --lower and --upper, or neither");
        if (!given) {
            p->lower = p->type == WGS_TYPE_F32 ? -1.0 : p->type == WGS_TYPE_I32 ? -2147483648.0 : 0.0;
            p->upper = p->type == WGS_TYPE_F32 ? 1.0 : p->type == WGS_TYPE_I32 ? 2147483648.0 : 4294967296.0;
        } else if (!(p->lower < p->upper)) {
            return cli_usage_error("histogram needs --lower below --upper (%g, %g)", p->lower, p->upper);
        }
    }
    return 0;
}

/* --pairs, --payload and --value-bytes of sort and segmented-sort. */
static int finish_payload(wgs_payload payload, uint32_t *value_bytes, uint64_t seen) {
    if (SEEN(OPT_PAIRS) && SEEN(OPT_PAYLOAD))
        return cli_usage_error("--pairs and --payload are exclusive (--pairs moves random values with the keys, "
                               "--payload index writes each key's input index)");
    if (SEEN(OPT_VALUE_BYTES) && !SEEN(OPT_PAIRS)) return cli_usage_error("--value-bytes does nothing without --pairs");
    if (payload == WGS_PAYLOAD_BUFFER && !*value_bytes) *value_bytes = 4;
    return 0;
}

static int finish_sort(sort_options *s, uint64_t seen) {
    const uint32_t width = (uint32_t)wgs_type_size(s->type) * 8;
    if (!s->have_n && !s->in_path) return cli_usage_error("sort needs --n N or --in FILE");
    const int payload_rc = finish_payload(s->payload, &s->value_bytes, seen);
    if (payload_rc) return payload_rc;
    if (SEEN(OPT_OUT_VALUES) && s->payload == WGS_PAYLOAD_NONE)
        return cli_usage_error("--out-values does nothing without --payload index or --pairs (a sort of keys alone)");
    if (SEEN(OPT_BITS) && !(s->begin_bit < s->end_bit && s->end_bit <= width))
        return cli_usage_error("--bits %u:%u: a %s key needs B < E <= %u", s->begin_bit, s->end_bit,
                               wgs_type_name(s->type), width);
    if (s->in_path && SEEN(OPT_DISTRIBUTION))
        return cli_usage_error("--distribution does nothing with --in (the keys are the file)");
    if (SEEN(OPT_SEED) && s->in_path && s->payload != WGS_PAYLOAD_BUFFER)
        return cli_usage_error("--seed does nothing with --in (the input is the file; with --pairs it seeds the values)");
    return 0;
}

static int finish_topk(topk_options *t, uint64_t seen) {
    if (!t->have_n) return cli_usage_error("topk needs --n N (keys a row)");
    if (t->n < 1) return cli_usage_error("topk needs --n of 1 or more");
    if (t->k > t->n) return cli_usage_error("--k %" PRIu64 " is past --n %" PRIu64 " (k is 1..n)", t->k, t->n);
    if (t->rows > 0xFFFFFFFFull / t->n)
        return cli_usage_error("--n %" PRIu64 " x --rows %" PRIu64 " is 2^32 keys or more (topk takes fewer)", t->n,
                               t->rows);
    if (!t->input_order && t->k > WGS_TOPK_SORTED_MAX_K && t->rows > 1)
        return cli_usage_error("sorted top-k of several rows takes --k up to %u (--input-order takes any k)",
                               WGS_TOPK_SORTED_MAX_K);
    (void)seen;
    return 0;
}

static int finish_segsort(segsort_options *t, uint64_t seen) {
    if (!t->have_n) return cli_usage_error("segmented-sort needs --n N");
    if (!SEEN(OPT_SEGMENTS)) return cli_usage_error("segmented-sort needs --segments L, random:L or FILE");
    if (t->n >= (1ull << 31)) return cli_usage_error("segmented-sort takes n below 2^31");
    return finish_payload(t->payload, &t->value_bytes, seen);
}

static int finish_bench(bench_options *b, uint64_t seen) {
    if (b->creation) {
        if (b->transfers || SEEN(OPT_SERIES) || SEEN(OPT_ALGORITHMS) || SEEN(OPT_PRIMITIVES) || SEEN(OPT_SVG) ||
            SEEN(OPT_MIN))
            return cli_usage_error("--creation times each primitive's plan: no --transfers, --series, --algorithms, "
                                   "--primitives, --svg or --min (--max is the plans' capacity)");
        if (!SEEN(OPT_MAX)) b->nmax = 1ull << 20;
        if (!SEEN(OPT_RUNS)) b->runs = 10;
        if (!SEEN(OPT_JSON)) b->json = "creation.json";
        if (!SEEN(OPT_CSV)) b->csv = "creation.csv";
        b->svg = NULL;
        return 0;
    }
    if (!b->transfers && b->runs < CLI_BENCH_MIN_RUNS)
        return cli_usage_error("bad --runs '%d' (20..1000; 3..1000 with --transfers or --creation)", b->runs);
    if (b->transfers) {
        if (SEEN(OPT_SERIES) || SEEN(OPT_ALGORITHMS) || SEEN(OPT_PRIMITIVES) || SEEN(OPT_SVG))
            return cli_usage_error("--transfers measures copies alone: no --series, --algorithms, --primitives or --svg");
        if (!SEEN(OPT_MIN)) b->nmin = 1ull << 20;
        if (!SEEN(OPT_MAX)) b->nmax = 4ull << 30;
        if (b->nmin < 4) return cli_usage_error("--transfers moves 4 bytes at least (--min 4 or more)");
        if (!SEEN(OPT_JSON)) b->json = "transfers.json";
        if (!SEEN(OPT_CSV)) b->csv = "transfers.csv";
        b->svg = NULL;
        if (b->nmax < b->nmin) return cli_usage_error("--max is below --min");
        return 0;
    }
    if (b->nseries == 0 && b->nprims == 0) return cli_usage_error("bench: --series none and no --primitives: nothing to measure");
    if (b->nseries == 0 && SEEN(OPT_ALGORITHMS))
        return cli_usage_error("--algorithms does nothing with --series none (it picks the scan algorithms)");
    if (b->nmax && b->nmax < b->nmin) return cli_usage_error("--max is below --min");
    return 0;
}

/* ---- the whole command line ------------------------------------------------------ */

static void defaults(cli_options *o, cli_command c) {
    memset(o, 0, sizeof *o);
    o->command = c;
    o->scan = (scan_options){.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .repeat = 10, .seed = 1};
    o->prim = (prim_options){.cmd = c, .type = WGS_TYPE_U32, .repeat = 10, .seed = 1, .op = WGS_OP_ADD,
                             .mode = WGS_SELECT_FLAGGED, .density = 0.5, .bins = 256};
    o->sort = (sort_options){.type = WGS_TYPE_U32, .repeat = 10, .seed = 1, .distribution = CLI_DIST_UNIFORM};
    o->topk = (topk_options){.type = WGS_TYPE_U32, .repeat = 10, .seed = 1, .k = 1, .rows = 1};
    o->segsort = (segsort_options){.type = WGS_TYPE_U32, .repeat = 10, .seed = 1};
    bench_options *b = &o->bench;
    b->nmin = 1u << 10;
    b->runs = 30;
    b->series[0] = (bench_series){WGS_TYPE_U32, WGS_OP_ADD};
    b->series[1] = (bench_series){WGS_TYPE_F32, WGS_OP_ADD};
    b->series[2] = (bench_series){WGS_TYPE_I32, WGS_OP_MAX};
    b->nseries = 3;
    b->algos[0] = WGS_SCAN_ALGORITHM_SINGLE_PASS;
    b->algos[1] = WGS_SCAN_ALGORITHM_MULTILEVEL;
    b->nalgo = 2;
    b->json = "bench.json";
    b->csv = "bench.csv";
    b->svg = "bench.svg";
}

static int is_help(const char *a) { return !strcmp(a, "--help") || !strcmp(a, "-h"); }

/* An option the command does not take: named, and when it is a prefix of more than one
 * of the command's options (getopt_long takes unambiguous prefixes), those. word: the
 * argument as written (NULL for a short option, then letter). */
static int unknown_option(cli_command c, const char *word, int letter) {
    const char *name = cli_command_name(c);
    if (c == CLI_DEMO) return cli_usage_error("demo takes no options");
    if (!word) return cli_usage_error("unknown option '-%c' for %s (see 'wgscan %s --help')", letter, name, name);
    const char *eq = strchr(word, '=');
    size_t len = eq ? (size_t)(eq - word) : strlen(word);
    char matches[256] = "";
    int nmatch = 0;
    if (len > 2 && !strncmp(word, "--", 2))
        for (size_t k = 0; k < sizeof options / sizeof options[0]; k++)
            if ((options[k].commands & CMD(c)) && !strncmp(options[k].name, word, len)) {
                size_t used = strlen(matches);
                snprintf(matches + used, sizeof matches - used, "%s%s", nmatch++ ? ", " : "", options[k].name);
            }
    if (nmatch > 1)
        return cli_usage_error("ambiguous option '%.*s' for %s (%s)", (int)(len > 64 ? 64 : len), word, name, matches);
    return cli_usage_error("unknown option '%.*s' for %s (see 'wgscan %s --help')", (int)(len > 64 ? 64 : len), word,
                           name, name);
}

int cli_parse(int argc, char **argv, cli_options *o) {
    defaults(o, CLI_NONE);
    if (argc < 2 || !argv[1]) return cli_usage_error("no command");
    const char *name = argv[1];
    if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
        if (argc > 2) return cli_usage_error("--version takes no options");
        o->command = CLI_VERSION;
        return EXIT_OK;
    }
    if (!strcmp(name, "help") || is_help(name)) {
        o->command = CLI_HELP;
        if (argc > 2) {
            o->help_for = command_of(argv[2]);
            if (o->help_for == CLI_NONE || argc > 3) return cli_usage_error("help takes one command name");
        }
        return EXIT_OK;
    }
    cli_command c = command_of(name);
    if (c == CLI_NONE) return cli_usage_error("unknown command '%s'", name);
    defaults(o, c);
    uint64_t seen = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) { /* wins over everything else on the line */
            defaults(o, CLI_HELP);
            o->help_for = c;
            return EXIT_OK;
        }
    }
    /* getopt_long scans the words (only the command's own options are offered to it,
     * so an option of another command reads as unknown); set_option parses values. It
     * sees argv from the command on, and reports through our messages, not its own. */
    struct option longs[sizeof options / sizeof options[0] + 1];
    int nlongs = 0;
    for (size_t k = 0; k < sizeof options / sizeof options[0]; k++)
        if (options[k].commands & CMD(c))
            longs[nlongs++] = (struct option){options[k].name + 2, options[k].takes_value ? required_argument : no_argument,
                                              NULL, OPT_VAL(k)};
    longs[nlongs] = (struct option){0};
    opterr = 0;
    optind = 0; /* glibc: 0 starts a fresh scan (the fuzzer parses again and again) */
    /* "-": words that are no option come back in order as 1 (refused, never permuted);
     * ":": a missing value comes back as ':' */
    int ch;
    const char *value = NULL; /* the last value taken, to tell it from an ending "--" */
    while ((ch = getopt_long(argc - 1, argv + 1, "-:", longs, NULL)) != -1) {
        if (ch == 1) {
            if (c == CLI_DEMO) return cli_usage_error("%s takes no options ('%s')", name, optarg);
            return cli_usage_error("unexpected argument '%.64s' for %s (options start with --; see 'wgscan %s --help')",
                                   optarg, name, name);
        }
        const int known = optopt >= OPT_VAL(0) && optopt < OPT_VAL(sizeof options / sizeof options[0]);
        if (ch == ':' && known) return cli_usage_error("option %s needs a value", options[optopt - OPT_VAL(0)].name);
        if (ch == '?' && known) return cli_usage_error("option %s takes no value", options[optopt - OPT_VAL(0)].name);
        if (ch == ':' || ch == '?') /* a long option (optopt 0: getopt_long passed it) or a letter */
            return unknown_option(c, optopt ? NULL : argv[optind], optopt);
        const struct opt_def *d = &options[ch - OPT_VAL(0)];
        if (SEEN(d->id)) return cli_usage_error("option %s given twice", d->name);
        seen |= 1ull << d->id;
        value = d->takes_value ? optarg : NULL;
        int rc = set_option(o, d, value);
        if (rc) return rc;
    }
    /* getopt_long ends the options at "--"; here nothing follows them */
    if (optind >= 1 && argv[optind] != value && !strcmp(argv[optind], "--"))
        return cli_usage_error("unexpected argument '--' for %s", name);
    if (c == CLI_SCAN) return finish_scan(&o->scan, seen);
    if (c == CLI_SORT) return finish_sort(&o->sort, seen);
    if (c == CLI_TOPK) return finish_topk(&o->topk, seen);
    if (c == CLI_SEGMENTED_SORT) return finish_segsort(&o->segsort, seen);
    if (c == CLI_BENCH) {
        /* the command line, for the JSON file */
        snprintf(o->bench.command, sizeof o->bench.command, "wgscan");
        for (int i = 1; i < argc; i++) {
            size_t used = strlen(o->bench.command);
            snprintf(o->bench.command + used, sizeof o->bench.command - used, " %s", argv[i]);
        }
        return finish_bench(&o->bench, seen);
    }
    if (c == CLI_INFO || c == CLI_DEMO) return EXIT_OK;
    return finish_prim(&o->prim, seen);
}
