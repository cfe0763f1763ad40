/*
 * cli.h: what the parts of the wgscan command-line tool share.
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

int cmd_info(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* reduce, count, compact, histogram (argv[0] names which) */
int cmd_primitive(int argc, char **argv);

/* Prints "wgscan: <message>" to stderr and returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Prints the failing call's result and message; returns EXIT_USAGE when the library
 * refused the options (invalid argument, unsupported type or operator, too large),
 * else EXIT_GPU_ERROR. */
int cli_gpu_error(wgs_context *ctx, wgs_result r, const char *what);

/* Creates the default context; errors are printed. */
wgs_result cli_context(wgs_context **ctx);
void cli_print_info(FILE *f, const wgs_context_info *info);

/* Parsing: 0 on success. */
int cli_parse_u64(const char *s, uint64_t *out); /* accepts 1000, 1e6, 2^24, 16M, 1Gi */
int cli_parse_type(const char *s, wgs_type *out);
int cli_parse_op(const char *s, wgs_op *out);
int cli_parse_algorithm(const char *s, wgs_scan_algorithm *out); /* auto, single-pass, multilevel */
const char *cli_algorithm_name(wgs_scan_algorithm a);

/* How long the warm-up of a timed command lasts: a GPU left idle while the input was
 * uploaded runs its first milliseconds of work at low clocks (an H200 ran a 2^28 select
 * 4x slower after a 1 GiB upload than warm). CPU drivers need one run. */
double cli_warmup_seconds(const wgs_context_info *info);

/* Wall clock in seconds. */
double cli_now(void);
/* Median of n values (sorts the array). */
double cli_median(double *v, int n);

/* Reads a whole raw file into a new buffer; returns bytes or -1 (message printed). */
int64_t cli_read_file(const char *path, void **data);
int cli_write_file(const char *path, const void *data, uint64_t bytes);

/* Scan run shared by `scan` and `demo`. */
typedef struct scan_options {
    uint64_t n;
    wgs_type type;
    wgs_op op;
    int inclusive;
    int verify;
    int repeat;
    const char *in_path, *out_path;
    uint64_t seed;
    const void *input; /* n elements from --in; NULL: random data from seed */
    wgs_scan_algorithm algorithm;
    int deterministic;
} scan_options;
int run_scan(wgs_context *ctx, const scan_options *o);

#endif
