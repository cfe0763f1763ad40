/* SPDX-License-Identifier: MIT */
/* The commands: their help, and running what cli_parse produced. */
#include "cli.h"
#include "wgscan_commit.h" /* WGSCAN_GIT_DESCRIBE, written at each build */

#include <string.h>

static const char overview[] =
    "usage: wgscan <command> [options]      (wgscan <command> --help: its options)\n"
    "\n"
    "commands:\n"
    "  info                        adapter, backend, features, limits, subgroups, runtime\n"
    "  demo                        a short tour: device info, verified scans, GPU vs CPU\n"
    "  scan [options]              prefix scan of random data or a raw file, with timings\n"
    "  reduce [options]            reduce (sum, min, max, and/or/xor, argmin, argmax)\n"
    "  count [options]             count the elements that satisfy a predicate\n"
    "  compact [options]           select by flags or predicate, partition, unique, rle\n"
    "                              (also: select)\n"
    "  histogram [options]         even-bin histogram\n"
    "  segmented-reduce [options]  one reduction per segment of offsets\n"
    "  segmented-scan [options]    a scan that starts again at every segment of offsets\n"
    "  scan-by-key [options]       a scan that starts again at every run of equal keys\n"
    "  reduce-by-key [options]     one reduction per run of equal keys, and the keys\n"
    "  sort [options]              stable radix sort of keys, or keys with values\n"
    "  topk [options]              the k largest (or smallest) keys of each row\n"
    "  segmented-sort [options]    stable sort of keys within each segment of offsets\n"
    "  bench [options]             benchmark sweep against a copy kernel\n"
    "  help [command]              this text, or a command's options\n"
    "  --version                   the version\n"
    "\n"
    "Options are written --opt value or --opt=value, each at most once; an unambiguous\n"
    "prefix of an option's name is taken for it (--dist for --distribution).\n";

static const char common[] =
    "  --n N                elements, up to 2^40 (1000, 1e6, 1.5e3, 16M, 1Gi, 2^24); taken\n"
    "                       from --in if given\n"
    "  --verify             check the result against a CPU reference\n"
    "  --repeat K           timed runs after warm-up, 1..2048 (default 10)\n"
    "  --in FILE            input of the given type: a NumPy .npy file (1-D, its dtype\n"
    "                       the --type's: <u4 <i4 <f4 <f2 <u8 <i8; told by its contents)\n"
    "                       or raw little-endian elements (any other regular file)\n"
    "  --out FILE           write the result: .npy when FILE ends in .npy, else raw\n"
    "  --json FILE          write what ran, where, the median times and the verdict\n"
    "  --seed S             seed of the random input (default 1; not with --in)\n";

/* The random inputs (without --in), as cmd_scan.c and cmd_primitives.c draw them. */
static const char uniform_help[] =
    "  --distribution D     the random input: default (below), or uniform:A:B, each\n"
    "                       element uniform in [A, B): integers of the type for u32\n"
    "                       and i32 (B up to 2^32, or 2^31 for i32), any finite numbers\n"
    "                       for f32 (not f16); e.g. uniform:0:2^20, uniform:-1.5:1e3\n";
static const char input_by_op[] =
    "  default input (from --seed): u32, i32 every bit random (--op and: each bit set\n"
    "  with chance 7/8; or: 1/8); f32 uniform in [-1, 1); f16 multiples of 1/8 in [-1, 1]\n";
static const char input_small[] =
    "  default input (from --seed): u32 uniform in 0..99, i32 in -50..49, f32 in [-1, 1);\n"
    "  for --mode unique and rle each element repeats the one before with chance 3/4\n"
    "  (runs); with uniform:A:B runs come only from a narrow range\n";
static const char input_histogram[] =
    "  default input (from --seed): u32, i32 every bit random; f32 uniform in [-1, 1)\n";

static const char scan_help[] =
    "usage: wgscan scan (--n N | --in FILE) [options]\n"
    "prefix scan of random data or a raw file, timed on the GPU and the CPU\n"
    "  --type T             u32 (default), i32, f32, f16\n"
    "  --op OP              add (default), min, max, and, or, xor (and/or/xor: integers)\n"
    "  --inclusive          inclusive scan (default exclusive)\n"
    "  --algorithm A        auto (default), single-pass, multilevel\n"
    "  --deterministic      bit-identical float results run to run (multilevel)\n"
    "  --gpu-count C        the element count from a GPU buffer (args.n_buffer): the first\n"
    "                       C of the n elements (C above n reads as n); --verify also checks\n"
    "                       that nothing past them was written\n"
    "  --operator FILE      your own operator: a WGSL file with a line\n"
    "                       // wgscan-operator: element=E combine=F identity=W,... [commutative]\n"
    "                       [reference=affine-f32|mat2-u32] (identity: a word each, 0x hex,\n"
    "                       an integer, or an f32 like 1.0). --verify needs reference= (the\n"
    "                       tool cannot run WGSL on the CPU); examples/operators/ has both.\n"
    "                       --in then holds elements of E; random input keeps the two\n"
    "                       references exact (other operators: random words 0..15)\n";

static const char prim_types[] = "  --type T             u32 (default), i32, f32\n";

static const char reduce_help[] =
    "usage: wgscan reduce (--n N | --in FILE) [options]\n"
    "reduce random data or a raw file to one value (and its index for argmin, argmax),\n"
    "timed on the GPU\n"
    "  --op OP              add (default), min, max, and, or, xor, argmin, argmax\n"
    "  --algorithm A        tree (default), atomic\n"
    "  --float-sum S        cas (default), fixed: only with --type f32 --op add\n"
    "                       --algorithm atomic; fixed sums finite elements only (an\n"
    "                       --in FILE holding inf or nan is refused)\n"
    "  --operator FILE      your own operator, as for 'wgscan scan' (see 'wgscan help scan');\n"
    "                       the result is one element, combined in the input's order\n";

/* --segments of segmented-reduce and segmented-scan */
static const char segments_help[] =
    "  --segments S         the segments, as CSR offsets: L, back-to-back segments of L\n"
    "                       elements (the last one cut at n); random:L, random lengths\n"
    "                       0..2L (mean L; about 1 in 2L+1 empty), seeded by --seed; or\n"
    "                       FILE, u32 offsets (raw or .npy), n_segments + 1 of them\n"
    "                       (./256 for a file named 256): elements before the first\n"
    "                       offset and from the last on are in no segment; offsets out\n"
    "                       of order or past n: the GPU's status, exit status 2\n";

static const char segmented_help[] =
    "usage: wgscan segmented-reduce (--n N | --in FILE) --segments L|random:L|FILE [options]\n"
    "one reduction per segment of the values (segments as CSR offsets), timed on the GPU\n"
    "  --op OP              add (default), min, max, and, or, xor, argmin, argmax\n"
    "  --operator FILE      your own operator, as for 'wgscan scan' (see 'wgscan help scan');\n"
    "                       one element a segment, its values combined in input order\n"
    "  With --verify every segment is checked against the CPU reference (f32 sums within\n"
    "  the bound of wgscan.h); --out writes the results (4 bytes a segment, 8 for arg\n"
    "  ops: value, index). n below 2^31.\n";

static const char segmented_scan_help[] =
    "usage: wgscan segmented-scan (--n N | --in FILE) --segments L|random:L|FILE [options]\n"
    "a scan of the values that starts again at every segment (CSR offsets), timed on the GPU\n"
    "  --op OP              add (default), min, max, and, or, xor (and/or/xor: integers)\n"
    "  --inclusive          inclusive scan\n"
    "  --exclusive          exclusive scan (the default)\n"
    "  --operator FILE      your own operator, as for 'wgscan scan' (see 'wgscan help scan');\n"
    "                       each segment scanned in input order (in no segment: its identity)\n"
    "  With --verify every element is checked against the CPU reference (in no segment:\n"
    "  the identity; f32 sums within the bound of wgscan.h); --out writes the result (n\n"
    "  values). n below 2^31.\n";

/* --segments and --keys of the by-key commands */
static const char runs_help[] =
    "  --segments S         the runs of equal keys: L, runs of L (the last one cut at n);\n"
    "                       random:L, random lengths 1..2L (0 draws none), seeded by --seed\n"
    "  --keys FILE          instead: n u32 keys (raw or .npy); each run of equal\n"
    "                       adjacent keys is one run\n";

static const char scan_by_key_help[] =
    "usage: wgscan scan-by-key (--n N | --in FILE) (--segments L|random:L | --keys FILE) [options]\n"
    "a scan of the values that starts again at every run of equal keys, timed on the GPU\n"
    "  --op OP              add (default), min, max, and, or, xor (and/or/xor: integers)\n"
    "  --inclusive          inclusive scan\n"
    "  --exclusive          exclusive scan (the default)\n"
    "  --operator FILE      your own operator, as for 'wgscan scan' (see 'wgscan help scan');\n"
    "                       each run scanned in input order\n"
    "  With --verify every element is checked against the CPU reference (f32 sums within\n"
    "  the bound of wgscan.h); --in gives the values, --out writes the result. n below\n"
    "  2^31.\n";

static const char reduce_by_key_help[] =
    "usage: wgscan reduce-by-key (--n N | --in FILE) (--segments L|random:L | --keys FILE) [options]\n"
    "each run of equal keys' first key and the reduction of its values, and the number\n"
    "of runs, timed on the GPU\n"
    "  --op OP              add (default), min, max, and, or, xor (and/or/xor: integers),\n"
    "                       argmin, argmax (each run's value and its index)\n"
    "  --operator FILE      your own operator, as for 'wgscan scan' (see 'wgscan help scan');\n"
    "                       one element a run, its values combined in input order\n"
    "  With --verify every run's key and reduction is checked against the CPU reference\n"
    "  (f32 sums within the bound of wgscan.h); --in gives the values, --out writes the\n"
    "  reductions (with --segments the keys are the runs' numbers). n below 2^31.\n";

static const char predicate_help[] =
    "  P: nonzero (default), eq:A, ne:A, lt:A, gt:A, range:A:B (A <= v < B, A <= B).\n"
    "     Operands are written as --n is, with a sign (lt:2^31, range:-1K:1K, gt:0.25);\n"
    "     integers of the type for u32 and i32; for f32 any number, and\n"
    "     also inf, -inf and nan, compared as wgscan.h states (IEEE: nothing equals nan,\n"
    "     so eq:nan holds for no element and ne:nan for every one).\n";

static const char count_help[] =
    "usage: wgscan count (--n N | --in FILE) [options]\n"
    "count the elements of random data or a raw file that satisfy a predicate, timed on\n"
    "the GPU\n"
    "  --predicate P        what to count (see P below)\n"
    "  --algorithm A        tree (default), atomic, per-element\n";

static const char compact_help[] =
    "usage: wgscan compact (--n N | --in FILE) [options]      (or: wgscan select ...)\n"
    "keep the elements of random data or a raw file that are flagged or satisfy a\n"
    "predicate (or partition them; or keep the first of each run, or run lengths), timed\n"
    "on the GPU\n"
    "  --mode M             flagged (default), if (default with --predicate), unique, rle\n"
    "  --predicate P        --mode if: what to keep (see P below)\n"
    "  --flags FILE         --mode flagged: n bytes (raw, or .npy u1 or bool); non-zero\n"
    "                       keeps the element\n"
    "  --density D          --mode flagged without --flags: the share of random flags\n"
    "                       set, 0..1 (default 0.5)\n"
    "  --partition          the rejected elements follow the kept ones (flagged, if)\n"
    "  --payload none|index also write each kept element's index (not with rle)\n"
    "  --algorithm A        auto (default), single-pass, three-pass\n";

static const char histogram_help[] =
    "usage: wgscan histogram (--n N | --in FILE) [options]\n"
    "count random data or a raw file into even bins between two bounds, timed on the GPU\n"
    "  --bins B             1..2^20 (default 256)\n"
    "  --lower L --upper U  finite bounds, L < U; both or neither (default: the type's\n"
    "                       range; f32: -1 .. 1)\n";

static const char sort_help[] =
    "usage: wgscan sort (--n N | --in FILE) [options]\n"
    "stable radix sort of random keys or a raw file of keys, timed on the GPU\n"
    "  --type T             key type: u32 (default), i32, f32, u64, i64 (64-bit keys are\n"
    "                       8 bytes, little-endian)\n"
    "  --pairs              sort keys with values: random u32 values (or --value-bytes)\n"
    "                       move with their keys\n"
    "  --value-bytes 4|8    --pairs: bytes per value (default 4)\n"
    "  --payload none|index index: also write each key's input index (the sorting\n"
    "                       permutation); not with --pairs\n"
    "  --descending         largest first (default ascending); stable either way\n"
    "  --algorithm A        auto (default), onesweep (a histogram, then one chained pass a\n"
    "                       digit; n < 2^30) or reduce-scan (count, scan, scatter a digit)\n"
    "  --bits B:E           only bits B..E-1 of the key decide the order, B < E <= 32\n"
    "                       (64 for u64, i64); i32, i64, f32 bits counted after the sign\n"
    "                       is made to order (default: the whole key)\n"
    "  --distribution D     the random keys (default uniform; not with --in):\n"
    "                         uniform   every bit random; for f32 any bit pattern, NaN\n"
    "                                   and inf included (they have their place: -NaN <\n"
    "                                   -inf < ... < -0 < +0 < ... < +inf < +NaN)\n"
    "                         sorted    already in ascending order: evenly spaced over\n"
    "                                   the type's whole order (f32 by bits: NaN at ends)\n"
    "                         reversed  the same in descending order\n"
    "                         equal     every key the same (one random value)\n"
    "                         few:K     K distinct random values, each key one of them at\n"
    "                                   random (K 1..2^32, e.g. few:16, few:2^20)\n"
    "                         skewed    each bit set with probability 1/8 (the AND of three\n"
    "                                   random words): low entropy, few digits dominate\n"
    "  Order: integers by value, f32 by the bits with the sign flipped (wgscan.h, Sort).\n"
    "  --out-values FILE    with --pairs or --payload index: write the values (or the\n"
    "                       indices: the permutation) in the keys' sorted order, as --out\n"
    "  With --verify the keys (and values or indices) are checked against a stable CPU\n"
    "  sort; --out writes the sorted keys. n < 2^32, as the library sorts.\n";

static const char topk_help[] =
    "usage: wgscan topk --n N [--k K] [--rows R] [options]\n"
    "the k largest (or smallest) of each row of a rows x n matrix of random keys, timed on\n"
    "the GPU\n"
    "  --n N                keys a row (1000, 128K, 2^17); rows x n below 2^32\n"
    "  --k K                how many a row, 1..n (default 1); with several rows up to\n"
    "                       4096 unless --input-order\n"
    "  --rows R             rows (default 1), each its own top-k\n"
    "  --type T             u32 (default), i32, f32\n"
    "  --smallest           the k smallest (default: the largest)\n"
    "  --input-order        the k of a row in their input order (default: best first)\n"
    "  --payload none|index index: also write each key's index in its row\n"
    "  --verify             check every row against a CPU reference (a stable sort)\n"
    "  --repeat K           timed runs after warm-up, 1..2048 (default 10)\n"
    "  --out FILE           write the raw rows x k keys\n"
    "  --seed S             seed of the random keys (default 1)\n"
    "  default input (from --seed): u32, i32 every bit random; f32 uniform in [-1, 1)\n"
    "  Order: the sort's (wgscan.h, Sort; f32 by its bits, NaN included); ties go to the\n"
    "  lower index.\n";

static const char segsort_help[] =
    "usage: wgscan segmented-sort --n N --segments L|random:L|FILE [options]\n"
    "random keys sorted within each segment of CSR offsets, stably, timed on the GPU\n"
    "  --n N                keys, below 2^31 (1000, 1e6, 16M, 2^24)\n"
    "  --segments S         L: segments of L keys (the last one shorter); random:L:\n"
    "                       lengths drawn from 0..2L (empty ones included; seeded);\n"
    "                       FILE: n_segments + 1 u32 CSR offsets (.npy or raw), as they\n"
    "                       are (the GPU checks them: bad offsets exit 2 with its code)\n"
    "  --type T             u32 (default), i32, f32, u64, i64\n"
    "  --descending         largest first (default: ascending); stable either way\n"
    "  --payload none|index index: also write each key's index in the whole input\n"
    "  --pairs              sort keys with values: random u32 values (or --value-bytes)\n"
    "                       move with their keys; not with --payload\n"
    "  --value-bytes 4|8    --pairs: bytes per value (default 4)\n"
    "  --path P             default; small: segments up to a workgroup's tile alone\n"
    "                       (longer ones are an error); large: every segment by the\n"
    "                       radix sorts (wgs_segmented_sort_path)\n"
    "  --verify             check every segment against a CPU reference (a stable sort)\n"
    "  --repeat K           timed runs after warm-up, 1..2048 (default 10)\n"
    "  --out FILE           write the raw sorted keys (n of them)\n"
    "  --json FILE          write what ran, where, the median times and the verdict\n"
    "  --seed S             seed of the random keys, values and lengths (default 1)\n"
    "  default input (from --seed): every bit random (f32: any bit pattern, NaN and inf\n"
    "  included). Order: the sort's (wgscan.h, Sort).\n";

static const char bench_help[] =
    "usage: wgscan bench [options]\n"
    "benchmark sweep of the scans (and primitives) against a copy kernel of the same bytes\n"
    "  --min N --max N      sizes, powers of two up to 2^40 (default 2^10 .. the device's\n"
    "                       limit: 2^30 on GPUs, 2^22 on CPU drivers)\n"
    "  --series LIST        up to 8 type:operator scans (default u32:add,f32:add,i32:max),\n"
    "                       or none: no scans (with --primitives)\n"
    "  --algorithms LIST    single-pass,multilevel (default both; with scans only)\n"
    "  --primitives LIST    also: reduce-tree, reduce-atomic, count-tree, count-atomic,\n"
    "                       count-per-element, select-flagged, select-if, histogram-256,\n"
    "                       select-flagged-1pass (forced to the single pass),\n"
    "                       sort-keys (u32), sort-pairs (u32 keys, u32 values),\n"
    "                       sort-u64, sort-f32 (keys; any bit pattern),\n"
    "                       segmented-reduce-16, -256, -4096 (u32 add, segments of 16,\n"
    "                       256, 4096 elements as CSR offsets),\n"
    "                       segmented-scan-16, -256, -4096 (u32 add, exclusive, the\n"
    "                       same segments),\n"
    "                       scan-by-key-16, -256, -4096 (u32 add, exclusive, runs of\n"
    "                       16, 256, 4096 equal keys), reduce-by-key-256\n"
    "                       (u32 add, runs of 256 equal keys), topk-1024 (the 1024\n"
    "                       largest of n u32 keys, in input order), topk-rows-50 (the\n"
    "                       50 largest f32 with their indices, best first, of each row\n"
    "                       of 128K: n / 128K rows; one row of n below 128K),\n"
    "                       segmented-sort-16, -256, -4096, -65536 (u32 keys, ascending,\n"
    "                       in segments of that many as CSR offsets),\n"
    "                       or all (uniform random words, half the flags set)\n"
    "  Each point is timed beside a copy that reads and writes as many bytes as it must\n"
    "  move (a scan: n elements in and out; copy_bytes in the files); the chart draws\n"
    "  each as a fraction of that copy's speed. pace_changed marks a point whose copy\n"
    "  took a byte a quarter longer or shorter than the run's first copy of about as\n"
    "  many bytes (within an eighth): the device changed pace, not comparable. The\n"
    "  pools hold what the sweep's largest size needs.\n"
    "  --runs K             timed runs per point after warm-up, 20..1000 (default 30)\n"
    "  --json F --csv F --svg F   write results (default bench.json, bench.csv, bench.svg);\n"
    "                       checked to be writable before the sweep starts\n"
    "  --transfers          instead: host <-> GPU copies (wgs_buffer_write + wgs_wait, and\n"
    "                       wgs_buffer_read) of --min .. --max bytes (default 1 MiB .. 4 GiB,\n"
    "                       within the device's largest buffer), wall-clock GB/s (10^9 bytes),\n"
    "                       the median of up to --runs runs after 2 warm-up (fewer past\n"
    "                       512 MiB: 5 at least), each size checked; writes transfers.json\n"
    "                       and transfers.csv unless --json/--csv say otherwise\n"
    "  --creation           instead: each primitive's default plan for up to --max elements\n"
    "                       (default 2^20) created cold (a fresh context: its pipelines\n"
    "                       compiled) and warm (the median of --runs, default 10), then\n"
    "                       all of them created in turn on one context, against one\n"
    "                       wgs_prepare of all of them on another; wall clock; writes\n"
    "                       creation.json and creation.csv unless --json/--csv say\n"
    "                       otherwise\n";

static const char exit_help[] =
    "\n"
    "exit status: 0 success, 1 verification failed, 2 bad usage or input (also: an\n"
    "             output file not written), 3 GPU or runtime error\n";

void cli_help(FILE *f, cli_command c) {
    switch (c) {
    case CLI_INFO:
        fputs("usage: wgscan info [--verbose] [--json FILE]\nthe adapter, backend, features, limits and runtime\n"
              "  --verbose            also what the drivers printed while probed, and where the\n"
              "                       runtime is looked for, in order\n"
              "  --json FILE          also write them as JSON\n", f);
        break;
    case CLI_DEMO: fputs("usage: wgscan demo\na short tour: device info, verified scans, GPU against CPU\n", f); break;
    case CLI_SCAN: fputs(scan_help, f), fputs(common, f), fputs(uniform_help, f), fputs(input_by_op, f); break;
    case CLI_REDUCE:
        fputs(reduce_help, f), fputs(prim_types, f), fputs(common, f), fputs(uniform_help, f), fputs(input_by_op, f);
        break;
    case CLI_COUNT:
        fputs(count_help, f), fputs(prim_types, f), fputs(common, f), fputs(uniform_help, f), fputs(input_small, f);
        fputs(predicate_help, f);
        break;
    case CLI_COMPACT:
        fputs(compact_help, f), fputs(prim_types, f), fputs(common, f), fputs(uniform_help, f), fputs(input_small, f);
        fputs(predicate_help, f);
        fputs("  The seed also draws the random flags (then --seed is allowed with --in).\n", f);
        break;
    case CLI_HISTOGRAM:
        fputs(histogram_help, f), fputs(prim_types, f), fputs(common, f), fputs(uniform_help, f);
        fputs(input_histogram, f);
        break;
    case CLI_SEGMENTED:
    case CLI_SCAN_BY_KEY:
    case CLI_SEGMENTED_SCAN:
    case CLI_REDUCE_BY_KEY:
        fputs(c == CLI_SEGMENTED ? segmented_help : c == CLI_SCAN_BY_KEY ? scan_by_key_help
              : c == CLI_SEGMENTED_SCAN ? segmented_scan_help : reduce_by_key_help, f);
        fputs(c == CLI_SEGMENTED || c == CLI_SEGMENTED_SCAN ? segments_help : runs_help, f);
        fputs(prim_types, f), fputs(common, f), fputs(uniform_help, f), fputs(input_by_op, f);
        break;
    case CLI_SORT:
        fputs(sort_help, f), fputs(common, f);
        fputs("  The seed also draws the values of --pairs (then --seed is allowed with --in).\n", f);
        break;
    case CLI_TOPK: fputs(topk_help, f); break;
    case CLI_SEGMENTED_SORT: fputs(segsort_help, f); break;
    case CLI_BENCH: fputs(bench_help, f); break;
    default:
        fputs(overview, f);
        fputs("\nscan, reduce, count, compact, histogram, segmented-reduce, segmented-scan,\n"
              "scan-by-key, reduce-by-key and sort share:\n", f);
        fputs(common, f);
        break;
    }
    fputs(exit_help, f);
}


int cli_run(const cli_options *o) {
    switch (o->command) {
    case CLI_HELP: cli_help(stdout, o->help_for); return EXIT_OK;
    case CLI_VERSION:
        printf("wgscan %s (commit %s)\n", wgs_version_string(), WGSCAN_GIT_DESCRIBE);
        return EXIT_OK;
    case CLI_INFO: return cmd_info(o->verbose, o->info_json);
    case CLI_BENCH: return cmd_bench(&o->bench); /* prints its own progress */
    default: break;
    }
    int rc;
    cli_progress_start(cli_command_name(o->command));
    switch (o->command) {
    case CLI_DEMO: rc = cmd_demo(); break;
    case CLI_SCAN: rc = cmd_scan(&o->scan); break;
    case CLI_REDUCE:
    case CLI_COUNT:
    case CLI_COMPACT:
    case CLI_HISTOGRAM:
    case CLI_SEGMENTED:
    case CLI_SCAN_BY_KEY:
    case CLI_REDUCE_BY_KEY:
    case CLI_SEGMENTED_SCAN: rc = cmd_primitive(&o->prim); break;
    case CLI_SORT: rc = cmd_sort(&o->sort); break;
    case CLI_TOPK: rc = cmd_topk(&o->topk); break;
    case CLI_SEGMENTED_SORT: rc = cmd_segmented_sort(&o->segsort); break;
    default: rc = cli_usage_error("no command"); break;
    }
    cli_progress_stop();
    return rc;
}

int cli_main(int argc, char **argv) {
    if (argc < 2) {
        cli_help(stderr, CLI_NONE);
        return EXIT_USAGE;
    }
    cli_options o;
    int rc = cli_parse(argc, argv, &o);
    if (rc != EXIT_OK) return rc;
    return cli_run(&o);
}
