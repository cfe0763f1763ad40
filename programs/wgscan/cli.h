/* SPDX-License-Identifier: MIT */
/*
 * cli.h: what the parts of the wgscan command-line tool share.
 *
 * A command runs in two steps: cli_parse turns the arguments into a cli_options (every
 * value checked, defaults applied; no file is read and no GPU is touched, so the fuzzer
 * in tests/fuzz/fuzz_cli.c can call it on any bytes), then cli_run does the work.
 */
#ifndef WGSCAN_CLI_H
#define WGSCAN_CLI_H

#include "wgscan.h"

#include <stdint.h>
#include <stdio.h>

/* Exit statuses, as documented in the README. */
enum {
    EXIT_OK = 0,
    EXIT_VERIFY_FAILED = 1,
    EXIT_USAGE = 2,
    EXIT_GPU_ERROR = 3,
};

typedef enum cli_command {
    CLI_NONE = 0,
    CLI_HELP,    /* wgscan help [command], wgscan --help */
    CLI_VERSION, /* wgscan --version */
    CLI_INFO,
    CLI_DEMO,
    CLI_SCAN,
    CLI_REDUCE,
    CLI_COUNT,
    CLI_COMPACT,
    CLI_HISTOGRAM,
    CLI_SORT,
    CLI_BENCH,
    CLI_SEGMENTED, /* segmented-reduce */
    CLI_SCAN_BY_KEY, /* scan-by-key */
    CLI_REDUCE_BY_KEY, /* reduce-by-key */
    CLI_SEGMENTED_SCAN, /* segmented-scan */
    CLI_TOPK,
    CLI_SEGMENTED_SORT, /* segmented-sort */
    CLI_COMMAND_COUNT
} cli_command;

/* Ranges of the options, as the help text states them. */
#define CLI_MAX_N (1ull << 40)   /* --n, and the elements of an --in file */
#define CLI_MAX_REPEAT 2048      /* --repeat 1..2048 */
#define CLI_BENCH_MIN_RUNS 20    /* --runs 20..1000 (with --transfers 3..1000) */
#define CLI_TRANSFER_MIN_RUNS 3
#define CLI_BENCH_MAX_RUNS 1000
#define CLI_BENCH_MAX_SERIES 8
#define CLI_BENCH_PRIMITIVES 29
#define CLI_SORT_MAX_DISTINCT (1ull << 32) /* --distribution few:K, K up to 2^32 */

/* --distribution uniform:A:B of the commands other than sort: each element drawn
 * uniformly from [lo, hi) (integers of the type for u32 and i32). on 0: the command's
 * default input, as its --help states. */
typedef struct cli_uniform {
    int on;
    double lo, hi;
} cli_uniform;

/* `scan` (and the demo's scans). */
typedef struct scan_options {
    uint64_t n;
    int have_n;
    wgs_type type;
    wgs_op op;
    int inclusive;
    int verify;
    int repeat;
    const char *in_path, *out_path; /* in_path: read by run_scan after the plan exists */
    const char *json_path;          /* --json: the results as JSON */
    uint64_t in_offset;             /* where --in's elements start (a .npy header's length) */
    uint64_t seed;
    wgs_scan_algorithm algorithm;
    int deterministic;
    uint64_t gpu_count; /* --gpu-count: the element count in a GPU buffer, n its bound */
    int have_gpu_count;
    const char *operator_path; /* --operator: a user's operator (cmd_operator.c), read by run_scan_operator */
    cli_uniform uniform;
} scan_options;

/* `reduce`, `count`, `compact`, `histogram`, `segmented-reduce`, `scan-by-key`, `reduce-by-key`,
 * `segmented-scan`. */
typedef struct prim_options {
    cli_command cmd;
    uint64_t n, seed;
    wgs_type type;
    int verify, repeat, have_n;
    const char *in_path, *out_path, *flags_path;
    const char *json_path; /* --json: the results as JSON */
    uint64_t in_offset, flags_offset, keys_offset; /* where the files' elements start (.npy headers) */
    wgs_op op;
    wgs_reduce_algorithm algorithm;
    wgs_select_algorithm select_algorithm;
    wgs_float_sum float_sum;
    wgs_predicate pred;
    wgs_select_mode mode;
    int partition;
    wgs_payload payload;
    double density;
    uint32_t bins;
    double lower, upper;
    uint64_t seg_len; /* segmented-*, *-by-key: --segments L (fixed) or random:L (lengths 0..2L) */
    int seg_random;
    const char *seg_path; /* segmented-*: --segments FILE, u32 CSR offsets (read when run) */
    const char *keys_path; /* *-by-key: --keys FILE, n u32 keys (read when run) */
    int inclusive; /* scan-by-key, segmented-scan */
    const char *operator_path; /* reduce --operator (cmd_operator.c) */
    cli_uniform uniform;
} prim_options;

/* `sort`: how the random keys are drawn (wgscan sort --help describes each). */
typedef enum cli_distribution {
    CLI_DIST_UNIFORM = 0,
    CLI_DIST_SORTED,
    CLI_DIST_REVERSED,
    CLI_DIST_EQUAL,
    CLI_DIST_FEW,
    CLI_DIST_SKEWED,
} cli_distribution;

/* `sort`. */
typedef struct sort_options {
    uint64_t n, seed;
    int have_n, verify, repeat;
    const char *in_path, *out_path; /* in: raw or .npy keys; out: the sorted keys */
    const char *out_values_path;    /* --out-values: the values or indices, sorted with the keys */
    const char *json_path;          /* --json: the results as JSON */
    uint64_t in_offset;             /* where --in's keys start (a .npy header's length) */
    wgs_type type;                  /* u32, i32, f32, u64, i64 */
    int descending;
    uint32_t begin_bit, end_bit;    /* 0, 0: the whole key; else begin < end <= its bits */
    wgs_payload payload;            /* NONE, BUFFER (--pairs: random values), INDEX */
    uint32_t value_bytes;           /* BUFFER: 4 or 8; otherwise 0 */
    cli_distribution distribution;
    uint64_t distinct;              /* few:K: K, 1..2^32; otherwise 0 */
    wgs_sort_algorithm algorithm;
} sort_options;

/* `topk`. */
typedef struct topk_options {
    uint64_t n, seed;
    int have_n, verify, repeat;
    const char *in_path, *out_path; /* in: not taken (always NULL); out: the rows x k keys */
    const char *json_path;          /* not taken (always NULL) */
    wgs_type type;                  /* u32, i32, f32 */
    uint64_t k, rows;               /* k 1..n (default 1); rows 1..2^32-1 (default 1) */
    int have_k, smallest, input_order;
    wgs_payload payload;            /* NONE or INDEX */
} topk_options;

/* `segmented-sort`. */
typedef struct segsort_options {
    uint64_t n, seed;
    int have_n, verify, repeat;
    const char *in_path, *out_path; /* in: not taken (always NULL); out: the sorted keys */
    const char *json_path;
    wgs_type type;                  /* u32, i32, f32, u64, i64 */
    int descending;
    wgs_payload payload;            /* NONE, INDEX, or BUFFER (--pairs: random values) */
    uint32_t value_bytes;           /* BUFFER: 4 or 8 */
    uint64_t seg_len;               /* --segments L (fixed) or random:L (lengths 0..2L) */
    int seg_random;
    const char *seg_path;           /* --segments FILE, u32 CSR offsets (read when run) */
    wgs_segmented_sort_path path;   /* --path: DEFAULT, SMALL or LARGE */
} segsort_options;

typedef struct bench_series {
    wgs_type type;
    wgs_op op;
} bench_series;

/* `bench`. */
typedef struct bench_options {
    uint64_t nmin, nmax; /* powers of two; nmax 0: the device's default */
    bench_series series[CLI_BENCH_MAX_SERIES];
    int nseries;
    wgs_scan_algorithm algos[2];
    int nalgo;
    int prims[CLI_BENCH_PRIMITIVES]; /* indices into cli_bench_primitive_names */
    int nprims;
    int runs;
    int transfers; /* --transfers: host <-> GPU copies instead of kernels (sizes in bytes) */
    int creation;  /* --creation: plan creation, cold and warm, and wgs_prepare of all */
    const char *json, *csv, *svg;
    char command[512]; /* the command line, for the JSON file */
} bench_options;

typedef struct cli_options {
    cli_command command;
    cli_command help_for; /* CLI_HELP: the command whose help to print (CLI_NONE: all) */
    scan_options scan;
    prim_options prim;
    sort_options sort;
    topk_options topk;
    segsort_options segsort;
    bench_options bench;
    int verbose; /* info --verbose */
    const char *info_json; /* info --json FILE */
} cli_options;

/* Parses argv (argv[0] the program, argv[1] the command) into *o. Returns EXIT_OK, or
 * EXIT_USAGE with the reason printed. Reads no file, touches no GPU, allocates nothing:
 * *o points into argv for paths. getopt_long scans the words: `--opt value`,
 * `--opt=value` and an unambiguous prefix of the name are accepted; an option given
 * twice, an option of another command, a word that is no option, or one that does
 * nothing in the chosen mode is refused. `--help`/`-h` anywhere makes the command CLI_HELP. */
int cli_parse(int argc, char **argv, cli_options *o);
/* Runs what cli_parse produced; returns the exit status. */
int cli_run(const cli_options *o);
/* main(): cli_parse then cli_run. */
int cli_main(int argc, char **argv);
/* The help of one command (CLI_NONE or CLI_HELP: the overview of all). */
void cli_help(FILE *f, cli_command c);
const char *cli_command_name(cli_command c);
extern const char *const cli_bench_primitive_names[CLI_BENCH_PRIMITIVES];

/* Where messages go (stderr by default; NULL: nowhere, for the fuzzer). */
void cli_set_message_stream(FILE *f);
FILE *cli_message_stream(void);

int cmd_info(int verbose, const char *json_path);
int cmd_demo(void);
int cmd_scan(const scan_options *o);
/* The segments of segmented-reduce, segmented-scan, scan-by-key and reduce-by-key
 * (cmd_primitives.c): CSR offsets, n_segments + 1 of them, from --segments (L, random:L
 * or FILE) or --keys FILE over n elements, and for the by-key commands the keys (from
 * --segments: segment k's elements hold key k). Returns an exit status (said why);
 * the caller frees offsets and keys. */
typedef struct cli_segments {
    uint32_t *offsets, *keys;
    uint64_t n_segments;
} cli_segments;
int cli_segments_of(const prim_options *o, uint64_t n, cli_segments *seg);

/* `scan --operator FILE` and `reduce | segmented-reduce | segmented-scan | scan-by-key |
 * reduce-by-key --operator FILE` (cmd_operator.c): with the file's operator. */
int run_scan_operator(wgs_context *ctx, const scan_options *o);
int run_prim_operator(wgs_context *ctx, const prim_options *o);
int cmd_primitive(const prim_options *o);
int cmd_sort(const sort_options *o);
int cmd_topk(const topk_options *o);
int cmd_segmented_sort(const segsort_options *o);
int cmd_bench(const bench_options *o);

/* Prints "wgscan: <message>" to the message stream and returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Prints the failing call's result and message; returns EXIT_USAGE when the library
 * refused the options (invalid argument, unsupported type or operator, too large),
 * else EXIT_GPU_ERROR. */
int cli_gpu_error(wgs_context *ctx, wgs_result r, const char *what);

/* Creates the default context; errors are printed. The one place the CLI creates
 * contexts. */
wgs_result cli_context(wgs_context **ctx);
/* As cli_context; verbose: what the drivers printed while probed is shown on stderr. */
wgs_result cli_context_verbose(wgs_context **ctx, int verbose);
void cli_print_info(FILE *f, const wgs_context_info *info);

/* Parsing: 0 on success, -1 for anything but a whole, well-formed value. */
/* A count: 1000, 1e6, 1.5e3, 2^24, 16M, 1Gi (K M G T: powers of 1000; Ki Mi Gi Ti: of
 * 1024); no sign, no spaces, exact (1.5 is refused, 1.5K is 1500), at most 2^64 - 1. */
int cli_parse_u64(const char *s, uint64_t *out);
/* A number, the whole string: a count as cli_parse_u64 reads it with an optional sign
 * (-2^31, 16M, 1.5K), else a decimal (or C99 hexadecimal) floating-point number (0.25,
 * -1e-3); overflow refused; inf, -inf and nan only when allow_nonfinite. Every operand
 * that is not a count (predicates, bounds, densities) is read by this. */
int cli_parse_double(const char *s, int allow_nonfinite, double *out);
int cli_parse_type(const char *s, wgs_type *out);
/* A sort key type: u32, i32, f32, u64, i64. */
int cli_parse_key_type(const char *s, wgs_type *out);
/* "uniform", "sorted", "reversed", "equal", "few:K" (K a count, 1..2^32), "skewed". */
int cli_parse_distribution(const char *s, cli_distribution *out, uint64_t *distinct);
const char *cli_distribution_name(cli_distribution d);
int cli_parse_op(const char *s, wgs_op *out);
int cli_parse_algorithm(const char *s, wgs_scan_algorithm *out); /* auto, single-pass, multilevel */
const char *cli_algorithm_name(wgs_scan_algorithm a);

/* How long the warm-up of a timed command lasts: a GPU left idle while the input was
 * uploaded runs its first milliseconds of work at low clocks (an H200 ran a 2^28 select
 * 4x slower after a 1 GiB upload than warm). CPU drivers need one run. */
double cli_warmup_seconds(const wgs_context_info *info);

/* A command's GPU work, timed: encode records one run into enc, with its timestamps at
 * the query set's indices 2 pair and 2 pair + 1 when timestamps is not NULL (warm-up runs
 * get none). cli_time_runs warms up for cli_warmup_seconds (at least one run, at most
 * 1000), then makes `repeat` timed runs, each its own submit and wait, naming the stages
 * to the progress line; the timestamps are read where the device has them. */
typedef wgs_result (*cli_encode_fn)(void *state, WGPUCommandEncoder enc, WGPUQuerySet timestamps, uint32_t pair);
typedef struct cli_timing {
    int warmups;
    int have_gpu;               /* gpu[] holds the timestamps' times */
    double wall[CLI_MAX_REPEAT]; /* seconds of each timed run, submit and wait */
    double gpu[CLI_MAX_REPEAT];
} cli_timing;
wgs_result cli_time_runs(wgs_context *ctx, int repeat, cli_encode_fn encode, void *state, cli_timing *t);

/* Progress on stderr (progress.c): cli_run starts it for the commands that run, each
 * names its stages (index of count, or count 0), and a NULL stage clears the line before
 * the command prints. Nothing is drawn unless stderr is a terminal or WGSCAN_PROGRESS=1
 * (WGSCAN_PROGRESS=0: never), nor in a command's first 1.5 seconds. */
void cli_progress_start(const char *command);
void cli_progress_stage(const char *stage, int index, int count);
void cli_progress_stop(void);

/* Wall clock in seconds. */
double cli_now(void);
/* Median of n values (sorts the array). */
double cli_median(double *v, int n);
/* A rate in the unit that fits it: the number 1 to 999.999 (below 1 only for under one
 * unit a second) with K, M, G, T or P (powers of 1000) before `unit`, e.g. "  12.345
 * Melem/s". Writes buf and returns it. */
const char *cli_format_rate(char *buf, size_t size, double per_second, const char *unit);
/* One line of timings: label, milliseconds, and n elements per second in the unit that
 * fits ("-" for no time). */
void cli_print_time(const char *label, double seconds, uint64_t n);

/* Fills n elements of type (u32, i32, f32) with --distribution uniform:A:B's values from
 * the seed's own stream. */
void cli_fill_uniform(void *data, wgs_type type, uint64_t n, uint64_t seed, const cli_uniform *u);

/* Input files: regular files only. cli_input_size checks the file without reading its
 * contents (a directory, device, FIFO or a /proc-style file that holds more than its
 * size says is refused, with the reason) and gives its size. cli_read_input reads exactly
 * `bytes` bytes into `data` and fails if the file now holds more or less. Both print
 * the reason and return -1 on failure. */
int cli_input_size(const char *path, uint64_t *bytes);
int cli_read_input(const char *path, void *data, uint64_t bytes);
/* As cli_read_input, for the `bytes` bytes after the first `offset` (a header). */
int cli_read_input_at(const char *path, uint64_t offset, void *data, uint64_t bytes);
/* Reads up to `max` bytes from the start of a regular file; *got: how many there were. */
int cli_read_head(const char *path, void *data, size_t max, size_t *got);
/* Writes a whole file; -1 (reason printed) unless every byte reached it and it closed. */
int cli_write_file(const char *path, const void *data, uint64_t bytes);
/* The same for a header followed by data. */
int cli_write_parts(const char *path, const void *head, size_t head_bytes, const void *data, uint64_t bytes);
/* Checks that `path` can be written before a long run, without leaving a new file
 * behind or truncating an old one; -1 with the reason printed. */
int cli_check_writable(const char *path);
/* The same for up to CLI_MAX_OUTPUTS files written by one run (NULL paths skipped), and
 * that no two of them are one file; options[i] names the option that gave paths[i], for
 * the message (may be NULL). */
#define CLI_MAX_OUTPUTS 4
int cli_check_outputs(const char *const *paths, const char *const *options, int n);

int run_scan(wgs_context *ctx, const scan_options *o);

/* --json FILE of scan, sort and the primitives (report.c): what ran, where, its median
 * times and the verdict, with values of the command's own (a count, a sum). */
#define CLI_REPORT_VALUES 4
typedef struct cli_report {
    const char *command, *type_name;
    uint64_t n;
    int repeat, warmups;
    double gpu_s, wall_s, upload_s, download_s, cpu_s; /* seconds; < 0: not measured */
    int verified;                                       /* -1: not asked; 0 failed; 1 ok */
    struct { const char *name; double value; } values[CLI_REPORT_VALUES];
    int nvalues;
} cli_report;
void cli_report_value(cli_report *r, const char *name, double value);
/* A JSON string: quotes, backslashes and control characters escaped (report.c). */
void cli_json_string(FILE *f, const char *s);
/* Writes the report as JSON; 0, or -1 with the reason printed. */
int cli_write_report(const char *path, const cli_report *r, const wgs_context_info *info);
/* `info --json`: the device's description and limits as JSON. */
int cli_write_info_json(const char *path, const wgs_context_info *info);

/* Arrays in files (npy.c): an input is a NumPy .npy file when it starts with NumPy's magic
 * (whatever its name), else raw little-endian elements; an output is .npy when its name
 * ends in ".npy", else raw. A .npy input must hold a 1-D, C-order array of the dtype asked
 * for ("<u4", "<f4", ...; flags "|u1", also taken as "|b1" or "|i1"); anything else is
 * refused with the reason. */
typedef struct cli_array {
    uint64_t count;  /* elements */
    uint64_t offset; /* bytes before the first: the .npy header, 0 for raw files */
    int npy;
} cli_array;
/* The NumPy dtype of one element of t ("<u4", ...). */
const char *cli_npy_dtype(wgs_type t);
/* Checks an input file without reading its data: its count of `size`-byte elements of
 * `dtype`. `option` names where the path came from, for messages. 0, or -1 (reason
 * printed). */
int cli_array_open(const char *path, const char *option, const char *dtype, size_t size, cli_array *a);
/* Reads the a->count elements that cli_array_open found into data. */
int cli_array_read(const char *path, const cli_array *a, size_t size, void *data);
/* Writes count elements of `size` bytes (`descr`: a .npy file's dtype, a NumPy
 * descriptor such as '<u4' or a list of fields written as Python would). */
int cli_array_write(const char *path, const char *descr, size_t size, const void *data, uint64_t count);

#endif
