/* SPDX-License-Identifier: MIT */
/*
 * `wgscan sort`: one sort configuration (key type, order, bit range, values or indices)
 * on random keys of a chosen distribution or a raw file of keys, timed on the GPU
 * (timestamp queries, median after a warm-up) with the transfers, and verified on request
 * against the stable CPU sort of reference/sort.c.
 */
#include "cli.h"
#include "reference.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPEAT CLI_MAX_REPEAT

typedef struct sort_run {
    wgs_context *ctx;
    const sort_options *o;
    wgs_sort_plan *plan;
    WGPUBuffer keys_in, keys_out, values_in, values_out;
    void *keys, *values, *keys_got, *values_got;
    size_t kb, vb; /* bytes of a key; of a value or index written (0: none) */
} sort_run;

static void run_free(sort_run *s) {
    wgs_sort_plan_destroy(s->plan);
    wgs_buffer_release(s->ctx, s->keys_in);
    wgs_buffer_release(s->ctx, s->keys_out);
    wgs_buffer_release(s->ctx, s->values_in);
    wgs_buffer_release(s->ctx, s->values_out);
    free(s->keys);
    free(s->values);
    free(s->keys_got);
    free(s->values_got);
}

/* ---- random keys ---------------------------------------------------------------- */

/* A bijection of 64-bit words that mixes every input bit into every output bit (two
 * rounds of xor-shift and odd multiply): distinct inputs give distinct outputs. */
static uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* The same for 32-bit words. */
static uint32_t mix32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    return x ^ (x >> 16);
}

/* Random word number i of the stream of `salt` (counter-based: the same seed gives the
 * same keys whatever n is). */
static uint64_t rnd(uint64_t salt, uint64_t i) { return mix64(salt + (i + 1) * 0x9E3779B97F4A7C15ull); }

/* The key whose ascending position is the number `order` (ref_sort_order inverted). */
static uint64_t key_of_order(wgs_type t, uint64_t order) {
    switch (t) {
    case WGS_TYPE_U64: return order;
    case WGS_TYPE_I64: return order ^ (1ull << 63);
    case WGS_TYPE_I32: return (uint32_t)order ^ 0x80000000u;
    case WGS_TYPE_F32: { /* positive: the sign bit was set; negative: every bit flipped */
        uint32_t o = (uint32_t)order;
        return o & 0x80000000u ? o & 0x7FFFFFFFu : (uint32_t)~o;
    }
    default: return (uint32_t)order;
    }
}

static void put_key(void *keys, size_t kb, uint64_t i, uint64_t k) {
    if (kb == 8) memcpy((char *)keys + i * 8, &k, 8);
    else {
        uint32_t w = (uint32_t)k;
        memcpy((char *)keys + i * 4, &w, 4);
    }
}

/* The keys of --distribution, as `wgscan sort --help` describes them. */
static void fill_keys(const sort_options *o, void *keys, size_t kb) {
    const uint64_t n = o->n, salt = mix64(o->seed ^ 0x50A7ull);
    const int wide = kb == 8;
    const uint64_t width_mask = wide ? ~0ull : 0xFFFFFFFFull;
    switch (o->distribution) {
    case CLI_DIST_SORTED:
    case CLI_DIST_REVERSED: {
        /* evenly spaced over the whole order: step = 2^bits / n, at least 1 */
        uint64_t step = n == 0 ? 1 : wide ? UINT64_MAX / n : (1ull << 32) / n;
        if (step == 0) step = 1;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t pos = o->distribution == CLI_DIST_SORTED ? i : n - 1 - i;
            put_key(keys, kb, i, key_of_order(o->type, (pos * step) & width_mask));
        }
        return;
    }
    case CLI_DIST_EQUAL: {
        uint64_t k = rnd(salt, 0) & width_mask;
        for (uint64_t i = 0; i < n; i++) put_key(keys, kb, i, k);
        return;
    }
    case CLI_DIST_FEW: {
        /* value j of K is mix(j + a): distinct for distinct j < 2^32 (mix is a
         * bijection); each key draws j uniformly from 0..K-1 */
        uint64_t k = o->distinct, a = rnd(salt, UINT64_MAX - 1);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t j = ((rnd(salt, i) >> 32) * k) >> 32;
            put_key(keys, kb, i, wide ? mix64(j + a) : mix32((uint32_t)(j + a)));
        }
        return;
    }
    case CLI_DIST_SKEWED:
        for (uint64_t i = 0; i < n; i++)
            put_key(keys, kb, i, rnd(salt, 3 * i) & rnd(salt, 3 * i + 1) & rnd(salt, 3 * i + 2));
        return;
    default: /* uniform */
        for (uint64_t i = 0; i < n; i++) put_key(keys, kb, i, rnd(salt, i));
        return;
    }
}

/* ---- printing --------------------------------------------------------------------- */

static void print_key(char *buf, size_t size, wgs_type t, const void *key) {
    uint64_t v = 0;
    uint32_t w = 0;
    float f;
    switch (t) {
    case WGS_TYPE_U64: memcpy(&v, key, 8); snprintf(buf, size, "%" PRIu64, v); return;
    case WGS_TYPE_I64: memcpy(&v, key, 8); snprintf(buf, size, "%" PRId64, (int64_t)v); return;
    case WGS_TYPE_I32: memcpy(&w, key, 4); snprintf(buf, size, "%" PRId32, (int32_t)w); return;
    case WGS_TYPE_F32:
        memcpy(&w, key, 4), memcpy(&f, key, 4);
        snprintf(buf, size, "%.9g (0x%08" PRIx32 ")", (double)f, w);
        return;
    default: memcpy(&w, key, 4); snprintf(buf, size, "%" PRIu32, w); return;
    }
}

/* Index of the first of n elements of `size` bytes where a and b differ, and how many
 * differ; n when none does. */
static uint64_t first_difference(const void *a, const void *b, size_t size, uint64_t n, uint64_t *count) {
    uint64_t first = n;
    *count = 0;
    for (uint64_t i = 0; i < n; i++)
        if (memcmp((const char *)a + i * size, (const char *)b + i * size, size)) {
            if (first == n) first = i;
            (*count)++;
        }
    return first;
}

/* Checks the downloaded keys (and values) against ref_sort; returns 1 when they match.
 * *cpu_seconds: the reference's time. */
static int verify(sort_run *s, double *cpu_seconds) {
    const sort_options *o = s->o;
    const uint64_t n = o->n;
    void *want = malloc(n * s->kb + 8), *want_values = s->vb ? malloc(n * s->vb + 8) : NULL;
    if (!want || (s->vb && !want_values)) {
        free(want), free(want_values);
        printf("  verify: FAILED, no host memory for the CPU reference\n");
        return 0;
    }
    double t0 = cli_now();
    int r = ref_sort(o->type, o->descending, o->begin_bit, o->end_bit, s->keys, s->values,
                     o->payload == WGS_PAYLOAD_BUFFER ? o->value_bytes : 0, o->payload == WGS_PAYLOAD_INDEX, n,
                     want, want_values);
    *cpu_seconds = cli_now() - t0;
    cli_progress_stage(NULL, 0, 0);
    int ok = r == 0;
    if (r != 0) printf("  verify: FAILED, no host memory for the CPU reference\n");
    uint64_t bad_keys = 0, bad_values = 0;
    uint64_t first = ok ? first_difference(s->keys_got, want, s->kb, n, &bad_keys) : n;
    if (ok && bad_keys) {
        char got[64], exp[64];
        print_key(got, sizeof got, o->type, (const char *)s->keys_got + first * s->kb);
        print_key(exp, sizeof exp, o->type, (const char *)want + first * s->kb);
        printf("  verify: FAILED, %" PRIu64 " of %" PRIu64 " keys differ; first at %" PRIu64 ": got %s, want %s\n",
               bad_keys, n, first, got, exp);
        ok = 0;
    }
    if (ok && s->vb) {
        first = first_difference(s->values_got, want_values, s->vb, n, &bad_values);
        if (bad_values) {
            uint64_t got = 0, exp = 0;
            memcpy(&got, (const char *)s->values_got + first * s->vb, s->vb);
            memcpy(&exp, (const char *)want_values + first * s->vb, s->vb);
            printf("  verify: FAILED, the keys are right but %" PRIu64 " of %" PRIu64 " %s differ (not stable?); "
                   "first at %" PRIu64 ": got 0x%" PRIx64 ", want 0x%" PRIx64 "\n",
                   bad_values, n, o->payload == WGS_PAYLOAD_INDEX ? "indices" : "values", first, got, exp);
            ok = 0;
        }
    }
    free(want), free(want_values);
    return ok;
}

/* ---- the run ------------------------------------------------------------------------ */

static wgs_result sort_encode(void *state, WGPUCommandEncoder enc, WGPUQuerySet qs, uint32_t pair) {
    const sort_run *s = state;
    wgs_sort_args a = {.keys_in = s->keys_in, .keys_out = s->keys_out, .n = s->o->n, .timestamp_query_set = qs,
                       .timestamp_begin_index = 2u * pair, .timestamp_end_index = 2u * pair + 1u};
    if (s->o->payload == WGS_PAYLOAD_BUFFER) a.values_in = s->values_in;
    if (s->o->payload != WGS_PAYLOAD_NONE) a.values_out = s->values_out;
    return wgs_sort_encode(s->plan, enc, &a);
}

static int run_sort(wgs_context *ctx, const sort_options *o) {
    sort_run s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.o = o;
    s.kb = wgs_type_size(o->type);
    s.vb = o->payload == WGS_PAYLOAD_BUFFER ? o->value_bytes : o->payload == WGS_PAYLOAD_INDEX ? 4 : 0;
    const uint64_t n = o->n, key_bytes = n * s.kb, value_bytes = n * s.vb;
    const int repeat = o->repeat < 1 ? 1 : o->repeat > MAX_REPEAT ? MAX_REPEAT : o->repeat;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    wgs_sort_plan_desc pd = {.type = o->type, .order = o->descending ? WGS_SORT_DESCENDING : WGS_SORT_ASCENDING,
                             .begin_bit = o->begin_bit, .end_bit = o->end_bit, .payload = o->payload,
                             .algorithm = o->algorithm,
                             .value_bytes = o->payload == WGS_PAYLOAD_BUFFER ? o->value_bytes : 0,
                             .capacity = n, .label = "wgscan cli"};
    cli_progress_stage("compiling the pipelines", 0, 0);
    wgs_result r = wgs_sort_plan_create(ctx, &pd, &s.plan);
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "creating the sort plan");
    cli_progress_stage(NULL, 0, 0);
    char bits[32] = "all bits";
    if (o->end_bit) snprintf(bits, sizeof bits, "bits %u..%u", o->begin_bit, o->end_bit - 1);
    char with[40] = "keys only";
    if (o->payload == WGS_PAYLOAD_BUFFER) snprintf(with, sizeof with, "keys with %u-byte values", o->value_bytes);
    if (o->payload == WGS_PAYLOAD_INDEX) snprintf(with, sizeof with, "keys with indices");
    char dist[48];
    if (o->in_path) snprintf(dist, sizeof dist, "keys from the file");
    else if (o->distribution == CLI_DIST_FEW) snprintf(dist, sizeof dist, "few:%" PRIu64, o->distinct);
    else snprintf(dist, sizeof dist, "%s", cli_distribution_name(o->distribution));
    printf("sort: n = %" PRIu64 ", %s %s, %s, %s, %s, on %s\n", n, wgs_type_name(o->type), with,
           o->descending ? "descending" : "ascending", bits, dist, info.device);

    /* The input is read only now that the plan holds n: a file too large for the device
     * is refused by the plan before a byte of it is read. */
    cli_progress_stage("preparing the input", 0, 0);
    s.keys = malloc(key_bytes + 8);
    s.keys_got = calloc(1, key_bytes + 8);
    s.values = o->payload == WGS_PAYLOAD_BUFFER ? malloc(value_bytes + 8) : NULL;
    s.values_got = s.vb ? calloc(1, value_bytes + 8) : NULL;
    if (!s.keys || !s.keys_got || (o->payload == WGS_PAYLOAD_BUFFER && !s.values) || (s.vb && !s.values_got))
        return run_free(&s), cli_usage_error("cannot allocate %" PRIu64 " bytes", 2 * (key_bytes + value_bytes));
    if (o->in_path) {
        if (cli_read_input_at(o->in_path, o->in_offset, s.keys, key_bytes) != 0) return run_free(&s), EXIT_USAGE;
    } else {
        fill_keys(o, s.keys, s.kb);
    }
    if (s.values) { /* random values: every byte from the seed's own stream */
        uint64_t salt = mix64(o->seed ^ 0xA11Eull);
        for (uint64_t i = 0; i < value_bytes; i += 8) {
            uint64_t v = rnd(salt, i / 8);
            memcpy((char *)s.values + i, &v, 8); /* the buffer has 8 bytes to spare */
        }
    }

    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    r = wgs_buffer_create(ctx, key_bytes ? key_bytes : 4, usage, &s.keys_in);
    if (r == WGS_OK) r = wgs_buffer_create(ctx, key_bytes ? key_bytes : 4, usage, &s.keys_out);
    if (r == WGS_OK && o->payload == WGS_PAYLOAD_BUFFER)
        r = wgs_buffer_create(ctx, value_bytes ? value_bytes : 4, usage, &s.values_in);
    if (r == WGS_OK && s.vb) r = wgs_buffer_create(ctx, value_bytes ? value_bytes : 4, usage, &s.values_out);
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "allocating GPU buffers");
    cli_progress_stage("uploading", 0, 0);
    double t0 = cli_now();
    if (key_bytes) r = wgs_buffer_write(ctx, s.keys_in, 0, s.keys, key_bytes);
    if (r == WGS_OK && s.values_in && value_bytes) r = wgs_buffer_write(ctx, s.values_in, 0, s.values, value_bytes);
    if (r == WGS_OK) r = wgs_wait(ctx);
    double upload = cli_now() - t0;
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "uploading the input");

    /* The input stays intact (keys_out is another buffer), so every run sorts the same. */
    cli_timing tm;
    r = cli_time_runs(ctx, repeat, sort_encode, &s, &tm);
    double *wall = tm.wall, *gpu = tm.gpu;
    const int warmups = tm.warmups, have_gpu = tm.have_gpu;
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "running the sort");

    cli_progress_stage("downloading", 0, 0);
    t0 = cli_now();
    if (key_bytes) r = wgs_buffer_read(ctx, s.keys_out, 0, s.keys_got, key_bytes);
    if (r == WGS_OK && s.vb && value_bytes) r = wgs_buffer_read(ctx, s.values_out, 0, s.values_got, value_bytes);
    double download = cli_now() - t0;
    if (r != WGS_OK) return run_free(&s), cli_gpu_error(ctx, r, "downloading the result");

    cli_progress_stage(NULL, 0, 0);
    printf("  median of %d runs after %d warm-up run%s; rates count n keys per second\n", repeat, warmups,
           warmups == 1 ? "" : "s");
    const double gpu_median = have_gpu ? cli_median(gpu, repeat) : -1, wall_median = cli_median(wall, repeat);
    if (have_gpu) {
        double g = gpu_median;
        cli_print_time("GPU time (timestamp queries)", g, n);
    } else {
        printf("  GPU time                           (no timestamp-query feature)\n");
    }
    cli_print_time("wall, sort only (submit + wait)", wall_median, n);
    cli_print_time("wall, upload", upload, n);
    cli_print_time("wall, download", download, n);
    int rc = EXIT_OK;
    double cpu = -1;
    if (o->verify) {
        cli_progress_stage("sorting on the CPU to check", 0, 0);
        int ok = verify(&s, &cpu);
        cli_print_time("CPU reference (qsort), 1 thread", cpu, n);
        if (ok)
            printf("  verify: OK, the keys%s equal a stable CPU sort's\n",
                   o->payload == WGS_PAYLOAD_BUFFER ? " and values" : o->payload == WGS_PAYLOAD_INDEX ? " and indices" : "");
        else rc = EXIT_VERIFY_FAILED;
    }
    const int verdict = o->verify ? rc == EXIT_OK : -1;
    if (o->out_path && cli_array_write(o->out_path, cli_npy_dtype(o->type), s.kb, s.keys_got, n) != 0) rc = EXIT_USAGE;
    if (o->out_values_path && cli_array_write(o->out_values_path, s.vb == 8 ? "<u8" : "<u4", s.vb, s.values_got, n) != 0)
        rc = EXIT_USAGE;
    if (o->json_path) {
        cli_report rep = {.command = "sort", .type_name = wgs_type_name(o->type), .n = n, .repeat = repeat,
                          .warmups = warmups, .gpu_s = gpu_median, .wall_s = wall_median, .upload_s = upload,
                          .download_s = download, .cpu_s = cpu, .verified = verdict};
        cli_report_value(&rep, "value_bytes", (double)s.vb);
        cli_report_value(&rep, "descending", o->descending);
        if (cli_write_report(o->json_path, &rep, &info) != 0) rc = EXIT_USAGE;
    }
    run_free(&s);
    return rc;
}

int cmd_sort(const sort_options *opt) {
    sort_options o = *opt;
    const size_t kb = wgs_type_size(o.type);
    if (o.in_path) {
        /* The size only: the contents are read once the plan is made for them. */
        cli_array a;
        if (cli_array_open(o.in_path, "--in", cli_npy_dtype(o.type), kb, &a) != 0) return EXIT_USAGE;
        if (a.count > CLI_MAX_N)
            return cli_usage_error("'%s' is too large: %" PRIu64 " keys, at most 2^40", o.in_path, a.count);
        if (o.have_n && o.n != a.count)
            return cli_usage_error("--n %" PRIu64 " disagrees with '%s' (%" PRIu64 " keys)", o.n, o.in_path, a.count);
        o.n = a.count, o.in_offset = a.offset;
    }
    const char *outputs[] = {o.out_path, o.out_values_path, o.json_path}, *names[] = {"--out", "--out-values", "--json"};
    if (cli_check_outputs(outputs, names, 3) != 0) return EXIT_USAGE;
    wgs_context *ctx = NULL;
    if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
    int rc = run_sort(ctx, &o);
    wgs_context_destroy(ctx);
    return rc;
}
