/* SPDX-License-Identifier: MIT */
/*
 * `wgscan scan | reduce | segmented-reduce | segmented-scan | scan-by-key | reduce-by-key
 * --operator FILE.wgsl`: the command with the user's own operator (wgs_operator_desc),
 * read from a WGSL file whose header line says how to use it:
 *
 *   // wgscan-operator: element=Affine combine=then identity=1.0,0.0 [commutative] [reference=affine-f32]
 *
 * identity: one value a 32-bit word, in the element's order: 0x hex or an integer (the
 * word's bits), or a number with '.', 'e', inf or nan (an f32's bits).
 *
 * The tool cannot run WGSL on the CPU, so --verify needs a CPU reference that the file
 * names: reference=affine-f32 (pairs (a, b), x -> a x + b, composed in order) or
 * reference=mat2-u32 (2x2 u32 matrices, multiplied in order), the operators of
 * examples/operators/. Any other file is refused with --verify (exit 2). Random inputs
 * for those two references keep every result exact (integers, f32 small integers), so
 * the check is bit for bit; for other operators they are random words 0..15; with --in
 * the file is taken as it is (affine-f32 results are then compared within 1e-4 of the
 * magnitude, as the order of rounding differs). The segmented and by-key commands take
 * their segments as without --operator (cli_segments_of), and the reference combines
 * each segment (or run) alone, in input order.
 */
#include "cli.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { REF_NONE, REF_AFFINE_F32, REF_MAT2_U32 };

typedef struct cli_operator {
    char *text;
    char element[64], combine[64];
    uint32_t identity[4], words;
    int commutative, reference;
} cli_operator;

static float f32_of(uint32_t w) {
    float f;
    memcpy(&f, &w, 4);
    return f;
}
static uint32_t bits_of(float f) {
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

static int parse_word(const char *s, size_t len, uint32_t *out) {
    char buf[64];
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *end;
    if (strpbrk(buf, ".eEnN") && strncmp(buf, "0x", 2) != 0) {
        double d = strtod(buf, &end);
        if (*end) return -1;
        *out = bits_of((float)d);
        return 0;
    }
    if (buf[0] == '-') {
        long long v = strtoll(buf, &end, 0);
        if (*end || v < -2147483648LL) return -1;
        *out = (uint32_t)(int32_t)v;
        return 0;
    }
    unsigned long long v = strtoull(buf, &end, 0);
    if (*end || v > 0xFFFFFFFFull) return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Reads the file and its header line; EXIT_OK or EXIT_USAGE (said why). */
static int load(const char *path, cli_operator *op) {
    memset(op, 0, sizeof *op);
    uint64_t size;
    if (cli_input_size(path, &size) != 0) return EXIT_USAGE;
    if (size > (1u << 20)) return cli_usage_error("'%s': an operator file of %llu bytes (1 MiB at most)", path, (unsigned long long)size);
    op->text = calloc(1, (size_t)size + 1);
    if (!op->text) return cli_usage_error("cannot allocate %llu bytes", (unsigned long long)size);
    if (size && cli_read_input(path, op->text, size) != 0) return EXIT_USAGE;
    const char *h = strstr(op->text, "// wgscan-operator:");
    if (!h) return cli_usage_error("'%s' has no '// wgscan-operator: element=... combine=... identity=...' line", path);
    h += strlen("// wgscan-operator:");
    const char *eol = strchr(h, '\n');
    if (!eol) eol = h + strlen(h);
    int have_identity = 0;
    while (h < eol) {
        while (h < eol && isspace((unsigned char)*h)) h++;
        const char *t = h;
        while (h < eol && !isspace((unsigned char)*h)) h++;
        size_t len = (size_t)(h - t);
        if (!len) continue;
        const char *eq = memchr(t, '=', len);
        size_t klen = eq ? (size_t)(eq - t) : len, vlen = eq ? len - klen - 1 : 0;
        const char *v = eq ? eq + 1 : NULL;
        if (!eq && klen == 11 && !strncmp(t, "commutative", 11)) {
            op->commutative = 1;
        } else if (eq && klen == 7 && (!strncmp(t, "element", 7) || !strncmp(t, "combine", 7))) {
            char *dst = !strncmp(t, "element", 7) ? op->element : op->combine;
            if (vlen == 0 || vlen >= 64) return cli_usage_error("'%s': %.*s is empty or too long", path, (int)klen, t);
            memcpy(dst, v, vlen);
            dst[vlen] = 0;
        } else if (eq && klen == 8 && !strncmp(t, "identity", 8)) {
            const char *p = v, *end = v + vlen;
            op->words = 0;
            while (p < end) {
                const char *c = memchr(p, ',', (size_t)(end - p));
                if (!c) c = end;
                if (op->words == 4 || parse_word(p, (size_t)(c - p), &op->identity[op->words]) != 0)
                    return cli_usage_error("'%s': identity=%.*s is not 1 to 4 comma-separated words", path, (int)vlen, v);
                op->words++;
                p = c + (c < end);
            }
            have_identity = op->words > 0;
        } else if (eq && klen == 9 && !strncmp(t, "reference", 9)) {
            if (vlen == 10 && !strncmp(v, "affine-f32", 10)) op->reference = REF_AFFINE_F32;
            else if (vlen == 8 && !strncmp(v, "mat2-u32", 8)) op->reference = REF_MAT2_U32;
            else return cli_usage_error("'%s': reference=%.*s is none of affine-f32, mat2-u32", path, (int)vlen, v);
        } else {
            return cli_usage_error("'%s': '%.*s' in the wgscan-operator line is none of element=, combine=, "
                                   "identity=, commutative, reference=", path, (int)len, t);
        }
    }
    if (!op->element[0] || !op->combine[0] || !have_identity)
        return cli_usage_error("'%s': the wgscan-operator line needs element=, combine= and identity=", path);
    if ((op->reference == REF_AFFINE_F32 && op->words != 2) || (op->reference == REF_MAT2_U32 && op->words != 4))
        return cli_usage_error("'%s': reference=%s takes an identity of %d words", path,
                               op->reference == REF_AFFINE_F32 ? "affine-f32" : "mat2-u32",
                               op->reference == REF_AFFINE_F32 ? 2 : 4);
    return EXIT_OK;
}

/* acc = combine(acc, x) for the references. */
static void ref_combine(int reference, uint32_t *acc, const uint32_t *x) {
    if (reference == REF_AFFINE_F32) {
        float fa = f32_of(acc[0]), fb = f32_of(acc[1]), ga = f32_of(x[0]), gb = f32_of(x[1]);
        acc[0] = bits_of(ga * fa);
        acc[1] = bits_of(ga * fb + gb);
        return;
    }
    uint32_t a = acc[0] * x[0] + acc[1] * x[2], b = acc[0] * x[1] + acc[1] * x[3];
    uint32_t c = acc[2] * x[0] + acc[3] * x[2], d = acc[2] * x[1] + acc[3] * x[3];
    acc[0] = a, acc[1] = b, acc[2] = c, acc[3] = d;
}

static void fill_random(const cli_operator *op, uint32_t *x, uint64_t n, uint64_t seed) {
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (uint64_t i = 0; i < n * op->words; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        uint32_t r = (uint32_t)(s >> 32);
        if (op->reference == REF_AFFINE_F32) /* a in {-1, 0, 1}, b in -8..8: exact in any grouping */
            x[i] = i % 2 == 0 ? bits_of(r % 16 == 0 ? 0.0f : (r & 16) ? -1.0f : 1.0f)
                              : bits_of((float)((int)(r % 17) - 8));
        else if (op->reference == REF_MAT2_U32) /* odd determinants: the products never collapse to 0 */
            x[i] = 2 * (r % 3) + (i % 4 == 0 || i % 4 == 3);
        else
            x[i] = r % 16;
    }
}

/* What a command with a file's operator takes from its options. */
typedef struct operator_run {
    const char *operator_path, *in_path, *out_path;
    uint64_t n, seed;
    int have_n, verify, repeat, inclusive;
    cli_command cmd; /* scan, reduce, segmented-reduce, segmented-scan, scan-by-key, reduce-by-key */
    wgs_scan_algorithm algorithm;
    const prim_options *prim; /* the segmented and by-key commands': their segments */
} operator_run;

/* The plan of one command, its buffers and its segments. */
typedef struct operator_plans {
    wgs_scan_plan *scan;
    wgs_reduce_plan *reduce;
    wgs_segmented_reduce_plan *seg;
    wgs_segmented_scan_plan *ssc;
    wgs_scan_by_key_plan *sbk;
    wgs_reduce_by_key_plan *rbk;
    WGPUBuffer in, out, offsets, keys, status, unique; /* status: also reduce-by-key's run count */
    cli_segments segs;
} operator_plans;

static int is_keyed(cli_command c) { return c == CLI_SCAN_BY_KEY || c == CLI_REDUCE_BY_KEY; }
static int is_segmented(cli_command c) { return c == CLI_SEGMENTED || c == CLI_SEGMENTED_SCAN || is_keyed(c); }

static wgs_result make_plan(wgs_context *ctx, const operator_run *o, const wgs_operator_desc *desc, uint64_t n,
                            operator_plans *p) {
    const wgs_scan_kind kind = o->inclusive ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE;
    const uint64_t segs = p->segs.n_segments;
    switch (o->cmd) {
    case CLI_REDUCE:
        return wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.capacity = n, .label = "wgscan cli", .custom = desc},
                                      &p->reduce);
    case CLI_SEGMENTED:
        return wgs_segmented_reduce_plan_create(
            ctx, &(wgs_segmented_reduce_plan_desc){.capacity = n, .segment_capacity = segs, .label = "wgscan cli",
                                                   .custom = desc},
            &p->seg);
    case CLI_SEGMENTED_SCAN:
        return wgs_segmented_scan_plan_create(
            ctx, &(wgs_segmented_scan_plan_desc){.kind = kind, .capacity = n, .segment_capacity = segs,
                                                 .label = "wgscan cli", .custom = desc},
            &p->ssc);
    case CLI_SCAN_BY_KEY:
        return wgs_scan_by_key_plan_create(
            ctx, &(wgs_scan_by_key_plan_desc){.kind = kind, .capacity = n, .label = "wgscan cli", .custom = desc},
            &p->sbk);
    case CLI_REDUCE_BY_KEY:
        return wgs_reduce_by_key_plan_create(
            ctx, &(wgs_reduce_by_key_plan_desc){.capacity = n, .label = "wgscan cli", .custom = desc}, &p->rbk);
    default:
        return wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.kind = kind, .algorithm = o->algorithm, .capacity = n,
                                                               .label = "wgscan cli", .custom = desc},
                                    &p->scan);
    }
}

/* The plans and n that one encode of the command works on. */
typedef struct operator_encode {
    const operator_plans *p;
    uint64_t n;
} operator_encode;

/* One encode of the command into enc (cli_time_runs submits and times it). */
static wgs_result encode_once(void *state, WGPUCommandEncoder enc, WGPUQuerySet qs, uint32_t pair) {
    const operator_plans *p = ((const operator_encode *)state)->p;
    const uint64_t n = ((const operator_encode *)state)->n;
    const uint32_t tb = 2u * pair, te = 2u * pair + 1u;
    wgs_result r;
    const uint64_t segs = p->segs.n_segments;
    if (p->reduce)
        r = wgs_reduce_encode(p->reduce, enc, &(wgs_reduce_args){.input = p->in, .output = p->out, .n = n,
                                                                 .timestamp_query_set = qs, .timestamp_begin_index = tb,
                                                                 .timestamp_end_index = te});
    else if (p->seg)
        r = wgs_segmented_reduce_encode(
            p->seg, enc, &(wgs_segmented_reduce_args){.input = p->in, .n = n, .offsets = p->offsets, .n_segments = segs,
                                                      .output = p->out, .status = p->status, .timestamp_query_set = qs,
                                                      .timestamp_begin_index = tb, .timestamp_end_index = te});
    else if (p->ssc)
        r = wgs_segmented_scan_encode(
            p->ssc, enc, &(wgs_segmented_scan_args){.input = p->in, .output = p->out, .n = n, .offsets = p->offsets,
                                                    .n_segments = segs, .status = p->status, .timestamp_query_set = qs,
                                                    .timestamp_begin_index = tb, .timestamp_end_index = te});
    else if (p->sbk)
        r = wgs_scan_by_key_encode(p->sbk, enc, &(wgs_scan_by_key_args){.keys = p->keys, .input = p->in,
                                                                        .output = p->out, .n = n,
                                                                        .timestamp_query_set = qs,
                                                                        .timestamp_begin_index = tb,
                                                                        .timestamp_end_index = te});
    else if (p->rbk)
        r = wgs_reduce_by_key_encode(p->rbk, enc, &(wgs_reduce_by_key_args){.keys = p->keys, .input = p->in, .n = n,
                                                                            .unique_keys = p->unique,
                                                                            .aggregates = p->out,
                                                                            .num_runs = p->status,
                                                                            .timestamp_query_set = qs,
                                                                            .timestamp_begin_index = tb,
                                                                            .timestamp_end_index = te});
    else
        r = wgs_scan_encode(p->scan, enc, &(wgs_scan_args){.input = p->in, .output = p->out, .n = n,
                                                           .timestamp_query_set = qs, .timestamp_begin_index = tb,
                                                           .timestamp_end_index = te});
    return r;
}

/* acc = the file's identity, then in[b .. e) combined in order. */
static void ref_fold(const cli_operator *op, const uint32_t *in, uint64_t b, uint64_t e, uint32_t *acc) {
    memcpy(acc, op->identity, 4ull * op->words);
    for (uint64_t i = b; i < e; i++) ref_combine(op->reference, acc, in + i * op->words);
}

/* in[b .. e) scanned from the identity into want[b .. e). */
static void ref_scan_range(const cli_operator *op, int inclusive, const uint32_t *in, uint64_t b, uint64_t e,
                           uint32_t *want) {
    const uint32_t w = op->words;
    uint32_t acc[4];
    memcpy(acc, op->identity, 4ull * w);
    for (uint64_t i = b; i < e; i++) {
        if (!inclusive) memcpy(want + i * w, acc, 4ull * w);
        ref_combine(op->reference, acc, in + i * w);
        if (inclusive) memcpy(want + i * w, acc, 4ull * w);
    }
}

/* The CPU's results, in input order, by the file's reference (the segments' CSR
 * offsets for the segmented and by-key commands; by key, a run is a non-empty segment).
 * Returns how many elements it wrote. */
static uint64_t reference(const operator_run *o, const cli_operator *op, const uint32_t *in, uint64_t n,
                          const cli_segments *sg, uint32_t *want) {
    const uint32_t w = op->words;
    uint64_t count = 0;
    switch (o->cmd) {
    case CLI_REDUCE:
        ref_fold(op, in, 0, n, want);
        return 1;
    case CLI_SEGMENTED:
        for (uint64_t k = 0; k < sg->n_segments; k++) ref_fold(op, in, sg->offsets[k], sg->offsets[k + 1], want + k * w);
        return sg->n_segments;
    case CLI_SEGMENTED_SCAN: /* elements in no segment: the identity */
        for (uint64_t i = 0; i < n; i++) memcpy(want + i * w, op->identity, 4ull * w);
        /* fallthrough */
    case CLI_SCAN_BY_KEY:
        for (uint64_t k = 0; k < sg->n_segments; k++)
            ref_scan_range(op, o->inclusive, in, sg->offsets[k], sg->offsets[k + 1], want);
        return n;
    case CLI_REDUCE_BY_KEY:
        for (uint64_t k = 0; k < sg->n_segments; k++)
            if (sg->offsets[k] < sg->offsets[k + 1]) ref_fold(op, in, sg->offsets[k], sg->offsets[k + 1], want + w * count++);
        return count;
    default:
        ref_scan_range(op, o->inclusive, in, 0, n, want);
        return n;
    }
}

static int run_operator(wgs_context *ctx, const operator_run *o) {
    cli_operator op;
    int rc = load(o->operator_path, &op);
    if (rc == EXIT_OK && o->verify && op.reference == REF_NONE)
        rc = cli_usage_error("--verify needs a CPU reference, and '%s' names none: the tool cannot run WGSL on "
                             "the CPU (reference=affine-f32 or mat2-u32, as in examples/operators/)",
                             o->operator_path);
    const uint64_t es = 4ull * op.words;
    uint64_t n = o->n;
    if (rc == EXIT_OK && o->in_path) {
        uint64_t size;
        if (cli_input_size(o->in_path, &size) != 0) rc = EXIT_USAGE;
        else if (size % es)
            rc = cli_usage_error("'%s' holds %llu bytes, not a whole number of %llu-byte elements", o->in_path,
                                 (unsigned long long)size, (unsigned long long)es);
        else if (o->have_n && o->n != size / es)
            rc = cli_usage_error("--n %llu disagrees with '%s' (%llu elements)", (unsigned long long)o->n, o->in_path,
                                 (unsigned long long)(size / es));
        else n = size / es;
    }
    operator_plans p;
    memset(&p, 0, sizeof p);
    prim_options segopt = o->prim ? *o->prim : (prim_options){0};
    if (rc == EXIT_OK && is_segmented(o->cmd)) {
        cli_array keys;
        if (segopt.keys_path && cli_array_open(segopt.keys_path, "--keys", "<u4", 4, &keys) != 0) rc = EXIT_USAGE;
        else if (segopt.keys_path && keys.count != n)
            rc = cli_usage_error("'%s' holds %llu keys, not n = %llu", segopt.keys_path,
                                 (unsigned long long)keys.count, (unsigned long long)n);
        else if (n >= (1ull << 31))
            rc = cli_usage_error("%s takes n below 2^31", cli_command_name(o->cmd));
        else {
            if (segopt.keys_path) segopt.keys_offset = keys.offset;
            rc = cli_segments_of(&segopt, n, &p.segs);
        }
    }
    if (rc != EXIT_OK) return free(op.text), free(p.segs.offsets), free(p.segs.keys), rc;

    wgs_operator_desc desc = {op.text, op.element, op.combine, op.identity, es, op.commutative};
    const int reduce = o->cmd == CLI_REDUCE;
    wgs_result r = make_plan(ctx, o, &desc, n, &p);
    uint32_t *in = NULL, *out = NULL, *want = NULL, *unique = NULL;
    if (r != WGS_OK) {
        rc = cli_gpu_error(ctx, r, "creating the plan");
        goto done;
    }
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    const uint64_t segs = p.segs.n_segments;
    printf("%s: n = %llu, %s (%s, %llu bytes), %s, on %s\n", cli_command_name(o->cmd), (unsigned long long)n,
           op.combine, op.element, (unsigned long long)es,
           reduce ? "tiles level after level"
           : o->cmd == CLI_SEGMENTED || o->cmd == CLI_REDUCE_BY_KEY ? "in input order"
           : o->inclusive ? "inclusive" : "exclusive",
           info.device);
    if (p.scan) printf("  algorithm: %s\n", cli_algorithm_name(wgs_scan_plan_algorithm(p.scan, n, 0)));
    if (is_segmented(o->cmd))
        printf("  %s: %llu (mean length %.1f)\n", is_keyed(o->cmd) ? "key segments" : "segments",
               (unsigned long long)segs, segs ? (double)n / (double)segs : 0.0);
    /* Elements the result holds at most: one (reduce), one a segment, one an input. */
    const uint64_t out_elems = reduce ? 1 : o->cmd == CLI_SEGMENTED ? segs : n;
    in = calloc(n ? n : 1, es), out = calloc(out_elems ? out_elems : 1, es);
    want = calloc(out_elems ? out_elems : 1, es), unique = calloc(n ? n : 1, 4);
    const int repeat = o->repeat < 1 ? 1 : o->repeat > CLI_MAX_REPEAT ? CLI_MAX_REPEAT : o->repeat;
    cli_timing tm = {0};
    double *wall = tm.wall, *gpu = tm.gpu;
    uint64_t got_elems = out_elems; /* reduce-by-key: the runs it found */
    uint32_t status = 0;
    if (!in || !out || !want || !unique) {
        rc = cli_usage_error("cannot allocate %llu bytes", (unsigned long long)(n * es));
        goto done;
    }
    if (o->in_path) {
        if (n && cli_read_input(o->in_path, in, n * es) != 0) {
            rc = EXIT_USAGE;
            goto done;
        }
    } else {
        fill_random(&op, in, n, o->seed);
    }
    if (n || reduce || o->cmd == CLI_SEGMENTED) {
        const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
        r = wgs_buffer_create(ctx, n ? n * es : 16, usage, &p.in);
        if (r == WGS_OK) r = wgs_buffer_create(ctx, out_elems ? out_elems * es : 16, usage, &p.out);
        if (r == WGS_OK) r = wgs_buffer_create(ctx, 4, usage, &p.status);
        if (r == WGS_OK && p.segs.offsets) r = wgs_buffer_create(ctx, (segs + 1) * 4, usage, &p.offsets);
        if (r == WGS_OK && p.segs.keys) r = wgs_buffer_create(ctx, n ? n * 4 : 4, usage, &p.keys);
        if (r == WGS_OK && p.rbk) r = wgs_buffer_create(ctx, n ? n * 4 : 4, usage, &p.unique);
        if (r == WGS_OK && n) r = wgs_buffer_write(ctx, p.in, 0, in, n * es);
        if (r == WGS_OK && p.offsets) r = wgs_buffer_write(ctx, p.offsets, 0, p.segs.offsets, (segs + 1) * 4);
        if (r == WGS_OK && p.keys && n) r = wgs_buffer_write(ctx, p.keys, 0, p.segs.keys, n * 4);
        if (r == WGS_OK) r = cli_time_runs(ctx, repeat, encode_once, &(operator_encode){&p, n}, &tm);
        /* the status word (segmented), the number of runs (reduce-by-key) */
        if (r == WGS_OK && (p.seg || p.ssc || p.rbk)) r = wgs_buffer_read(ctx, p.status, 0, &status, 4);
        if (p.rbk) got_elems = status < n ? status : n;
        if (r == WGS_OK && got_elems) r = wgs_buffer_read(ctx, p.out, 0, out, got_elems * es);
        if (r == WGS_OK && p.rbk && got_elems) r = wgs_buffer_read(ctx, p.unique, 0, unique, got_elems * 4);
        if (r != WGS_OK) {
            rc = cli_gpu_error(ctx, r, "running");
            goto done;
        }
        if ((p.seg || p.ssc) && status) {
            rc = cli_usage_error("the offsets of '%s' break the rules of wgscan.h: the GPU's status is %s",
                                 segopt.seg_path ? segopt.seg_path : "--segments", wgs_result_name((wgs_result)status));
            goto done;
        }
        printf("  median of %d runs: wall %.3f ms%s", repeat, cli_median(wall, repeat) * 1e3, tm.have_gpu ? "" : "\n");
        const int reads = reduce || o->cmd == CLI_SEGMENTED || o->cmd == CLI_REDUCE_BY_KEY; /* writes little */
        if (tm.have_gpu) printf(", GPU %.3f ms (%.1f GB/s, %s)\n", cli_median(gpu, repeat) * 1e3,
                          (reads ? 1.0 : 2.0) * (double)(n * es) / cli_median(gpu, repeat) * 1e-9,
                          reads ? "n read" : "n read + n written");
        if (reduce) {
            printf("  result:");
            for (uint32_t w = 0; w < op.words; w++) printf(" 0x%08x", out[w]);
            printf("\n");
        }
        if (p.rbk) printf("  runs: %llu\n", (unsigned long long)got_elems);
    } else {
        printf("  n = 0: nothing to %s\n", o->cmd == CLI_SEGMENTED_SCAN || o->cmd == CLI_SCAN_BY_KEY ? "scan by segment"
                                           : p.rbk ? "reduce" : "scan");
        got_elems = 0;
    }
    if (o->verify) {
        const uint64_t want_elems = reference(o, &op, in, n, &p.segs, want);
        uint64_t bad = want_elems != got_elems, first = 0;
        int exact = op.reference == REF_MAT2_U32 || !o->in_path;
        for (uint64_t i = 0; i < want_elems && i < got_elems; i++) {
            const uint32_t *g = out + i * op.words, *e = want + i * op.words;
            int same = memcmp(g, e, es) == 0;
            if (!same && !exact) { /* affine-f32 from a file: within 1e-4 of the magnitude */
                same = 1;
                for (uint32_t w = 0; w < 2; w++) {
                    double gv = f32_of(g[w]), ev = f32_of(e[w]), d = fabs(gv - ev);
                    if (!(d <= 1e-4 * (fabs(ev) > 1 ? fabs(ev) : 1))) same = 0;
                }
            }
            if (!same && bad++ == 0) first = i;
        }
        if (p.rbk) { /* each run's key: its first element's */
            uint64_t run = 0;
            for (uint64_t k = 0; k < segs && run < got_elems; k++)
                if (p.segs.offsets[k] < p.segs.offsets[k + 1] && unique[run++] != p.segs.keys[p.segs.offsets[k]] &&
                    bad++ == 0)
                    first = run - 1;
        }
        const char *ref = op.reference == REF_AFFINE_F32 ? "affine-f32" : "mat2-u32";
        if (bad) {
            printf("  verify: FAILED, %llu of %llu results differ from the CPU's %s (%llu expected), first at %llu\n",
                   (unsigned long long)bad, (unsigned long long)got_elems, ref, (unsigned long long)want_elems,
                   (unsigned long long)first);
            rc = EXIT_VERIFY_FAILED;
        } else {
            printf("  verify: OK, all %llu %s %s the CPU's %s reference, combined in input order\n",
                   (unsigned long long)want_elems,
                   reduce ? "result" : o->cmd == CLI_SEGMENTED ? "segments" : p.rbk ? "runs" : "elements",
                   exact ? "equal" : "within 1e-4 of", ref);
        }
    }
    if (rc == EXIT_OK && o->out_path && cli_write_file(o->out_path, out, got_elems * es) != 0) rc = EXIT_USAGE;
done:;
    WGPUBuffer all[] = {p.in, p.out, p.offsets, p.keys, p.status, p.unique};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_scan_plan_destroy(p.scan);
    wgs_reduce_plan_destroy(p.reduce);
    wgs_segmented_reduce_plan_destroy(p.seg);
    wgs_segmented_scan_plan_destroy(p.ssc);
    wgs_scan_by_key_plan_destroy(p.sbk);
    wgs_reduce_by_key_plan_destroy(p.rbk);
    free(p.segs.offsets);
    free(p.segs.keys);
    free(in);
    free(out);
    free(want);
    free(unique);
    free(op.text);
    return rc;
}

int run_scan_operator(wgs_context *ctx, const scan_options *o) {
    operator_run r = {o->operator_path, o->in_path, o->out_path, o->n, o->seed, o->have_n, o->verify, o->repeat,
                      o->inclusive, CLI_SCAN, o->algorithm, NULL};
    return run_operator(ctx, &r);
}

int run_prim_operator(wgs_context *ctx, const prim_options *o) {
    operator_run r = {o->operator_path, o->in_path, o->out_path, o->n, o->seed, o->have_n, o->verify, o->repeat,
                      o->inclusive, o->cmd, WGS_SCAN_ALGORITHM_DEFAULT, o};
    return run_operator(ctx, &r);
}
