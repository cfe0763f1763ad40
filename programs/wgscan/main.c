/*
 * wgscan: the command-line tool. Subcommands live in cmd_*.c; this file only
 * dispatches and prints help.
 */
#include "cli.h"

#include <string.h>

static void help(FILE *f) {
    fputs("usage: wgscan <command> [options]\n"
          "\n"
          "commands:\n"
          "  info                 adapter, backend, features, limits, subgroup sizes, runtime\n"
          "  scan [options]       prefix scan of random data or a raw file, with timings\n"
          "  demo                 a short tour: device info, a verified 16M scan, GPU vs CPU\n"
          "  reduce [options]     reduce (sum, min, max, and/or/xor, argmin, argmax)\n"
          "  count [options]      count the elements that satisfy a predicate\n"
          "  compact [options]    select by flags or predicate, partition, unique, rle\n"
          "  histogram [options]  even-bin histogram\n"
          "  bench [options]      benchmark sweep against a copy kernel (see below)\n"
          "  help                 this text\n"
          "\n"
          "scan options:\n"
          "  --n N                elements (1000, 1e6, 16M, 2^24); taken from --in if given\n"
          "  --type T             u32 (default), i32, f32, f16\n"
          "  --op OP              add (default), min, max, and, or, xor (and/or/xor: integers)\n"
          "  --inclusive          inclusive scan (default exclusive)\n"
          "  --verify             check the result against a CPU reference\n"
          "  --repeat K           timed runs after one warm-up (default 10)\n"
          "  --in FILE            raw little-endian input of the given type\n"
          "  --out FILE           write the raw result\n"
          "  --seed S             seed of the random input (default 1)\n"
          "  --algorithm A        auto (default), single-pass, multilevel\n"
          "  --deterministic      bit-identical float results run to run (multilevel)\n"
          "\n"
          "reduce / count / compact / histogram options (and --n --type --in --out\n"
          "--verify --repeat --seed as for scan; types u32, i32, f32):\n"
          "  reduce    --op add|min|max|and|or|xor|argmin|argmax  --algorithm tree|atomic\n"
          "            --float-sum cas|fixed      (f32 add with --algorithm atomic)\n"
          "  count     --predicate P  --algorithm tree|atomic|per-element\n"
          "  compact   --mode flagged|if|unique|rle  --predicate P  --partition\n"
          "            --payload none|index  --flags FILE (n bytes)  --density D (random flags)\n"
          "            --algorithm auto|single-pass|three-pass\n"
          "  histogram --bins B --lower L --upper U  (default 256 bins over the type's range)\n"
          "  P: nonzero, eq:A, ne:A, lt:A, gt:A, range:A:B (A <= v < B)\n"
          "\n"
          "bench options:\n"
          "  --min N --max N      sizes, powers of two (default 2^10 .. the device's limit:\n"
          "                       2^30 on GPUs, 2^22 on CPU drivers)\n"
          "  --series LIST        type:operator scans (default u32:add,f32:add,i32:max),\n"
          "                       or none: no scans (with --primitives)\n"
          "  --algorithms LIST    single-pass,multilevel (default both)\n"
          "  --primitives LIST    also: reduce-tree, reduce-atomic, count-tree, count-atomic,\n"
          "                       count-per-element, select-flagged, select-if, histogram-256,\n"
          "                       select-flagged-1pass (forced to the single pass),\n"
          "                       or all (u32: uniform words, half the flags set)\n"
          "  --runs K             timed runs per point after warm-up (default 30, at least 20)\n"
          "  --json F --csv F --svg F   write results (default bench.json, bench.csv, bench.svg)\n"
          "\n"
          "exit status: 0 success, 1 verification failed, 2 bad usage or input,\n"
          "             3 GPU or runtime error\n",
          f);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        help(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "info") == 0) return cmd_info(argc - 1, argv + 1);
    if (strcmp(cmd, "scan") == 0) return cmd_scan(argc - 1, argv + 1);
    if (strcmp(cmd, "demo") == 0) return cmd_demo(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0) return cmd_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "reduce") || !strcmp(cmd, "count") || !strcmp(cmd, "compact") || !strcmp(cmd, "histogram"))
        return cmd_primitive(argc - 1, argv + 1);
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        help(stdout);
        return EXIT_OK;
    }
    return cli_usage_error("unknown command '%s'", cmd);
}
