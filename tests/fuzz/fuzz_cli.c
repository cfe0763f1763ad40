/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* fmemopen, setenv */
/*
 * fuzz_cli.c: the CLI's option parser (cli_parse, programs/wgscan/options.c) from bytes.
 * The bytes become an argument list: split at NUL bytes when there are any, else at
 * whitespace; at most MAX_ARGS arguments. That list is parsed after each command name
 * (and once as it is, its first argument taken as the command). The parser must never
 * crash or touch a GPU (this target never calls cli_run, and points the runtime at a
 * library that does not exist in case it did); it must answer EXIT_OK or EXIT_USAGE,
 * print a message exactly when it refuses, and everything it accepts must lie in the
 * ranges the help text states.
 */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 32
#define MAX_BYTES 4096

#define CHECK(cond)                                                                          \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "fuzz_cli: %s:%d: failed: %s (command '%s')\n", __FILE__, __LINE__, \
                    #cond, argv[1] ? argv[1] : "");                                          \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

static FILE *messages;
static char message_buf[1 << 16];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    /* Messages go to memory, where their presence is checked. */
    messages = fmemopen(message_buf, sizeof message_buf, "w");
    if (!messages) abort();
    setvbuf(messages, NULL, _IONBF, 0);
    cli_set_message_stream(messages);
    /* Belt and braces: were anything to open a context, it would find no runtime. */
    setenv("WGSCAN_WEBGPU_LIB", "/nonexistent/wgscan-fuzz-no-gpu.so", 1);
    return 0;
}

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* p is NULL or points into one of the arguments (no copy, no allocation). */
static int in_args(const char *p, char **argv, int argc) {
    if (!p) return 1;
    for (int i = 0; i < argc; i++)
        if (p >= argv[i] && p <= argv[i] + strlen(argv[i])) return *p != 0;
    return 0;
}

static int integer_operand(double a) { return isfinite(a) && a == floor(a); }

/* --distribution uniform:A:B: a finite, non-empty range within the type, no input file */
static void check_uniform(const cli_uniform *u, wgs_type t, const char *in_path, char **argv) {
    if (!u->on) return;
    CHECK(!in_path && isfinite(u->lo) && isfinite(u->hi) && u->lo < u->hi && t != WGS_TYPE_F16);
    if (t == WGS_TYPE_U32) CHECK(integer_operand(u->lo) && u->lo >= 0 && integer_operand(u->hi) && u->hi <= 4294967296.0);
    if (t == WGS_TYPE_I32)
        CHECK(integer_operand(u->lo) && u->lo >= -2147483648.0 && integer_operand(u->hi) && u->hi <= 2147483648.0);
}

static void check_prim(const prim_options *p, char **argv, int argc, cli_command c) {
    CHECK(p->cmd == c);
    check_uniform(&p->uniform, p->type, p->in_path, argv);
    CHECK(p->in_path || (p->have_n && p->n <= CLI_MAX_N));
    CHECK(p->type == WGS_TYPE_U32 || p->type == WGS_TYPE_I32 || p->type == WGS_TYPE_F32);
    CHECK(p->repeat >= 1 && p->repeat <= CLI_MAX_REPEAT);
    CHECK(in_args(p->in_path, argv, argc) && in_args(p->out_path, argv, argc) && in_args(p->flags_path, argv, argc));
    CHECK(p->op >= WGS_OP_ADD && p->op <= WGS_OP_ARGMAX);
    CHECK(c == CLI_REDUCE || p->op == WGS_OP_ADD);
    CHECK(p->algorithm <= WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT);
    CHECK(p->algorithm != WGS_REDUCE_ALGORITHM_ATOMIC_PER_ELEMENT || c == CLI_COUNT);
    CHECK(p->select_algorithm <= WGS_SELECT_ALGORITHM_THREE_PASS);
    CHECK(p->float_sum == WGS_FLOAT_SUM_DEFAULT ||
          (c == CLI_REDUCE && p->type == WGS_TYPE_F32 && p->op == WGS_OP_ADD && p->algorithm == WGS_REDUCE_ALGORITHM_ATOMIC));
    CHECK(p->mode >= WGS_SELECT_FLAGGED && p->mode <= WGS_SELECT_RUN_LENGTH);
    CHECK(c == CLI_COMPACT || (p->mode == WGS_SELECT_FLAGGED && !p->partition && !p->payload && !p->flags_path));
    CHECK(p->payload == WGS_PAYLOAD_NONE || p->payload == WGS_PAYLOAD_INDEX);
    CHECK(!p->flags_path || p->mode == WGS_SELECT_FLAGGED);
    CHECK(isfinite(p->density) && p->density >= 0 && p->density <= 1);
    CHECK(p->bins >= 1 && p->bins <= WGS_HISTOGRAM_MAX_BINS);
    CHECK(c != CLI_HISTOGRAM || (isfinite(p->lower) && isfinite(p->upper) && p->lower < p->upper));
    const int tests = c == CLI_COUNT || (c == CLI_COMPACT && p->mode == WGS_SELECT_IF);
    if (tests) {
        const wgs_predicate *q = &p->pred;
        CHECK(q->kind >= WGS_PREDICATE_NONZERO && q->kind <= WGS_PREDICATE_IN_RANGE);
        if (q->kind != WGS_PREDICATE_NONZERO && p->type != WGS_TYPE_F32) CHECK(integer_operand(q->a));
        if (q->kind == WGS_PREDICATE_IN_RANGE) {
            if (p->type != WGS_TYPE_F32) CHECK(integer_operand(q->b));
            CHECK(isnan(q->a) || isnan(q->b) || q->a <= q->b);
        }
    } else {
        CHECK(p->pred.kind == WGS_PREDICATE_DEFAULT); /* a predicate that would do nothing */
    }
}

static void check_sort(const sort_options *s, char **argv, int argc) {
    CHECK(s->in_path || (s->have_n && s->n <= CLI_MAX_N));
    CHECK(s->type == WGS_TYPE_U32 || s->type == WGS_TYPE_I32 || s->type == WGS_TYPE_F32 || s->type == WGS_TYPE_U64 ||
          s->type == WGS_TYPE_I64);
    CHECK(s->repeat >= 1 && s->repeat <= CLI_MAX_REPEAT);
    CHECK(in_args(s->in_path, argv, argc) && in_args(s->out_path, argv, argc));
    CHECK(s->descending == 0 || s->descending == 1);
    /* no bit range (the whole key), or one that selects at least one of the key's bits */
    const uint32_t width = s->type == WGS_TYPE_U64 || s->type == WGS_TYPE_I64 ? 64 : 32;
    CHECK((s->begin_bit == 0 && s->end_bit == 0) || (s->begin_bit < s->end_bit && s->end_bit <= width));
    CHECK(s->payload == WGS_PAYLOAD_NONE || s->payload == WGS_PAYLOAD_BUFFER || s->payload == WGS_PAYLOAD_INDEX);
    CHECK(s->payload == WGS_PAYLOAD_BUFFER ? s->value_bytes == 4 || s->value_bytes == 8 : s->value_bytes == 0);
    CHECK(s->distribution >= CLI_DIST_UNIFORM && s->distribution <= CLI_DIST_SKEWED);
    CHECK(s->distribution == CLI_DIST_FEW ? s->distinct >= 1 && s->distinct <= CLI_SORT_MAX_DISTINCT : s->distinct == 0);
    CHECK(!s->in_path || s->distribution == CLI_DIST_UNIFORM); /* a distribution would do nothing */
}

static void check_topk(const topk_options *t, char **argv, int argc) {
    CHECK(t->have_n && t->n >= 1 && t->n <= CLI_MAX_N && !t->in_path);
    CHECK(t->type == WGS_TYPE_U32 || t->type == WGS_TYPE_I32 || t->type == WGS_TYPE_F32);
    CHECK(t->k >= 1 && t->k <= t->n && t->rows >= 1 && t->rows <= 0xFFFFFFFFull / t->n);
    CHECK(t->input_order || t->rows == 1 || t->k <= WGS_TOPK_SORTED_MAX_K);
    CHECK(t->payload == WGS_PAYLOAD_NONE || t->payload == WGS_PAYLOAD_INDEX);
    CHECK(t->repeat >= 1 && t->repeat <= CLI_MAX_REPEAT);
    CHECK(in_args(t->out_path, argv, argc));
}

static void check_segsort(const segsort_options *t, char **argv, int argc) {
    CHECK(t->have_n && t->n < (1ull << 31) && !t->in_path);
    CHECK(t->type == WGS_TYPE_U32 || t->type == WGS_TYPE_I32 || t->type == WGS_TYPE_F32 || t->type == WGS_TYPE_U64 ||
          t->type == WGS_TYPE_I64);
    CHECK(t->seg_path ? in_args(t->seg_path, argv, argc) : t->seg_len >= 1 && t->seg_len <= 0xFFFFFFFFull);
    CHECK(t->payload == WGS_PAYLOAD_NONE || t->payload == WGS_PAYLOAD_INDEX);
    CHECK(t->repeat >= 1 && t->repeat <= CLI_MAX_REPEAT);
    CHECK(in_args(t->out_path, argv, argc) && in_args(t->json_path, argv, argc));
}

static void check_bench(const bench_options *b, char **argv, int argc) {
    CHECK(b->runs >= (b->transfers ? CLI_TRANSFER_MIN_RUNS : CLI_BENCH_MIN_RUNS) && b->runs <= CLI_BENCH_MAX_RUNS);
    CHECK(is_pow2(b->nmin) && b->nmin <= CLI_MAX_N);
    CHECK(b->nmax == 0 || (is_pow2(b->nmax) && b->nmax <= CLI_MAX_N && b->nmax >= b->nmin));
    CHECK(b->nseries >= 0 && b->nseries <= CLI_BENCH_MAX_SERIES);
    CHECK(b->nprims >= 0 && b->nprims <= CLI_BENCH_PRIMITIVES);
    CHECK(b->nseries + b->nprims > 0);
    CHECK(b->nalgo >= 0 && b->nalgo <= 2 && (b->nseries == 0 || b->nalgo >= 1));
    for (int i = 0; i < b->nseries; i++) {
        const bench_series *s = &b->series[i];
        CHECK(s->type >= WGS_TYPE_U32 && s->type <= WGS_TYPE_F16);
        CHECK(s->op >= WGS_OP_ADD && s->op <= WGS_OP_XOR);
        CHECK(s->op < WGS_OP_AND || s->type == WGS_TYPE_U32 || s->type == WGS_TYPE_I32);
    }
    for (int i = 0; i < b->nalgo; i++) {
        CHECK(b->algos[i] == WGS_SCAN_ALGORITHM_SINGLE_PASS || b->algos[i] == WGS_SCAN_ALGORITHM_MULTILEVEL);
        CHECK(i == 0 || b->algos[i] != b->algos[0]);
    }
    for (int i = 0; i < b->nprims; i++) {
        CHECK(b->prims[i] >= 0 && b->prims[i] < CLI_BENCH_PRIMITIVES);
        for (int j = 0; j < i; j++) CHECK(b->prims[i] != b->prims[j]);
    }
    /* --transfers writes no chart */
    CHECK(b->json && b->csv && *b->json && *b->csv && (b->transfers ? !b->svg : b->svg && *b->svg));
    CHECK((b->json[0] && in_args(b->json, argv, argc)) || !strcmp(b->json, b->transfers ? "transfers.json" : "bench.json"));
    CHECK(memchr(b->command, 0, sizeof b->command) != NULL);
}

static void parse_and_check(int argc, char **argv) {
    cli_options o;
    rewind(messages);
    int rc = cli_parse(argc, argv, &o);
    long printed = ftell(messages);
    CHECK(rc == EXIT_OK || rc == EXIT_USAGE);
    CHECK(rc == EXIT_OK ? printed == 0 : printed > 0); /* refused: says why; accepted: silent */
    if (rc != EXIT_OK) return;
    cli_command c = o.command;
    CHECK(c > CLI_NONE && c < CLI_COMMAND_COUNT);
    switch (c) {
    case CLI_HELP: CHECK(o.help_for < CLI_COMMAND_COUNT && o.help_for != CLI_HELP && o.help_for != CLI_VERSION); break;
    case CLI_VERSION: CHECK(argc == 2); break;
    case CLI_SCAN: {
        const scan_options *s = &o.scan;
        CHECK(s->in_path || (s->have_n && s->n <= CLI_MAX_N));
        CHECK(s->type >= WGS_TYPE_U32 && s->type <= WGS_TYPE_F16);
        CHECK(s->op >= WGS_OP_ADD && s->op <= WGS_OP_XOR);
        CHECK(s->op < WGS_OP_AND || s->type == WGS_TYPE_U32 || s->type == WGS_TYPE_I32);
        CHECK(s->repeat >= 1 && s->repeat <= CLI_MAX_REPEAT);
        CHECK(s->algorithm <= WGS_SCAN_ALGORITHM_SINGLE_PASS);
        CHECK(in_args(s->in_path, argv, argc) && in_args(s->out_path, argv, argc));
        check_uniform(&s->uniform, s->type, s->in_path, argv);
        break;
    }
    case CLI_REDUCE:
    case CLI_COUNT:
    case CLI_COMPACT:
    case CLI_HISTOGRAM: check_prim(&o.prim, argv, argc, c); break;
    case CLI_SORT: check_sort(&o.sort, argv, argc); break;
    case CLI_TOPK: check_topk(&o.topk, argv, argc); break;
    case CLI_SEGMENTED_SORT: check_segsort(&o.segsort, argv, argc); break;
    case CLI_BENCH: check_bench(&o.bench, argv, argc); break;
    case CLI_INFO: /* only --verbose and --json FILE (one word with '=', or two) */
        CHECK(in_args(o.info_json, argv, argc));
        CHECK(o.info_json ? argc >= 3 + o.verbose && argc <= 4 + o.verbose : argc == 2 + o.verbose);
        break;
    case CLI_DEMO: CHECK(argc == 2); break;             /* no options */
    default: CHECK(!"a command cli_parse cannot return"); break;
    }
    /* The same arguments give the same answer. */
    cli_options again;
    CHECK(cli_parse(argc, argv, &again) == rc && again.command == o.command);
}

static int is_space(uint8_t b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'; }

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
    static char text[MAX_BYTES + 1];
    if (size > MAX_BYTES) size = MAX_BYTES;
    memcpy(text, bytes, size);
    text[size] = 0;
    const int by_nul = memchr(bytes, 0, size) != NULL;

    /* argv[0] the program, argv[1] the command, then up to MAX_ARGS arguments. By NUL,
     * empty arguments (--lower '') can be written; by whitespace, runs of it separate. */
    char *argv[MAX_ARGS + 3];
    char *args[MAX_ARGS];
    int nargs = 0;
    size_t start = 0;
    for (size_t i = 0; i <= size && nargs < MAX_ARGS; i++) {
        int end = i == size || (by_nul ? text[i] == 0 : is_space((uint8_t)text[i]));
        if (!end) continue;
        text[i] = 0;
        if (by_nul ? i < size || i > start : i > start) args[nargs++] = &text[start];
        start = i + 1;
    }

    static char program[] = "wgscan";
    static char names[][12] = {"scan", "reduce", "count", "compact", "histogram", "sort", "topk", "bench",
                               "info", "demo", "help", "--version"};
    argv[0] = program;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        argv[1] = names[k];
        memcpy(argv + 2, args, (size_t)nargs * sizeof *args);
        argv[nargs + 2] = NULL;
        parse_and_check(nargs + 2, argv);
    }
    /* As it is: its first argument is the command (or there is none). */
    memcpy(argv + 1, args, (size_t)nargs * sizeof *args);
    argv[nargs + 1] = NULL;
    if (nargs >= 1) parse_and_check(nargs + 1, argv);
    return 0;
}
