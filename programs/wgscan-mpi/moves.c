/* SPDX-License-Identifier: MIT */
/*
 * moves.c: wgscan-mpi's commands whose elements move between the ranks, compact and
 * sort. Element g of the global array (g counted over the ranks' slices in rank order)
 * is a function of g alone, so that every rank can check its part of the result
 * without the others' data: compact's kept elements carry g (as the element in flags
 * mode, as a payload for a predicate), sort's values are g. Verification is
 * distributed: each rank checks its own part and its border with the ranks before it.
 * This file also holds what main.c's commands share with these (the slices' lengths,
 * timing, the collective checks, the report): main.c calls into it, never the reverse.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "moves.h"

#include "reference.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- what every command shares ----------------------------------------------------------- */

uint64_t slice_length(const options *o, int q) {
    if (q == o->empty) return 0;
    return o->uneven ? o->n + (uint64_t)q * (o->n / 7) : o->n;
}

double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint64_t mix(uint64_t x) { /* splitmix64's finaliser: a bijection */
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Slice lengths of every rank, as slice_length gives them; start[q] the global index of rank
 * q's first element (start[P] the total). */
static uint64_t *slice_starts(const options *o, int size) {
    uint64_t *start = calloc((size_t)size + 1, sizeof *start);
    if (!start) return NULL;
    for (int q = 0; q < size; q++) start[q + 1] = start[q] + slice_length(o, q);
    return start;
}

static int owner_of(const uint64_t *start, int size, uint64_t g) {
    int lo = 0, hi = size - 1; /* the last q with start[q] <= g */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (start[mid] <= g) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

double max_of(double x) {
    double y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return y;
}

void report(wgs_mpi *m, const options *o, double *wall, int runs, uint64_t total, const char *what) {
    wgs_mpi_timing t = wgs_mpi_last_timing(m);
    double lt = max_of(t.local_s), tt = max_of(t.transfer_s), ct = max_of(t.comm_s);
    qsort(wall + 1, (size_t)runs - 1, sizeof *wall, cmp_double);
    double med = runs > 1 ? wall[1 + (runs - 1) / 2] : wall[0];
    if (wgs_mpi_rank(m)) return;
    wgs_context_info info;
    wgs_context_get_info(wgs_mpi_context(m), &info);
    printf("%s: %d ranks, %" PRIu64 " elements (%" PRIu64 " on rank 0), %s%s%s, on %s\n", o->command,
           wgs_mpi_size(m), total, slice_length(o, 0), wgs_type_name(o->type), what ? ", " : "", what ? what : "",
           info.device);
    printf("  wall (slowest rank), median of %d   %10.3f ms   %8.3f Gelem/s\n", runs > 1 ? runs - 1 : 1, 1e3 * med,
           total / med * 1e-9);
    printf("  last run, slowest rank: local GPU %.3f ms, transfers %.3f ms, MPI %.3f ms\n", 1e3 * lt, 1e3 * tt,
           1e3 * ct);
}

int agreed_failure(wgs_mpi *m, wgs_result r) {
    int code = (int)r, lo = 0, hi = 0;
    MPI_Allreduce(&code, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&code, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (wgs_mpi_rank(m) == 0)
        printf("every rank returned %s%s\n", wgs_result_name((wgs_result)hi),
               lo == hi && hi != WGS_OK ? " (agreed)" : " (NOT agreed)");
    return lo == hi && hi != WGS_OK ? 0 : 1;
}

int faults_of(int bad) {
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

int setup_failed(wgs_mpi *m, wgs_result r) {
    int code = (int)r, worst = 0;
    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst && wgs_mpi_rank(m) == 0)
        fprintf(stderr, "wgscan-mpi: setting up the slices failed: %s\n", wgs_result_name((wgs_result)worst));
    return worst != 0;
}

WGPUBuffer make_buffer(wgs_context *ctx, uint64_t bytes, wgs_result *r) {
    WGPUBuffer b = NULL;
    const WGPUBufferUsage u = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    if (*r == WGS_OK) *r = wgs_buffer_create(ctx, (bytes + 255) / 256 * 256 + 256, u, &b);
    return b;
}

/* ---- compact ------------------------------------------------------------------------- */

static const wgs_predicate compact_pred_u32 = {.kind = WGS_PREDICATE_LESS, .a = 2147483648.0};
static const wgs_predicate compact_pred_signed = {.kind = WGS_PREDICATE_LESS, .a = 0.0};

/* flags mode: element g is g itself, kept where its flag is set; predicate mode:
 * element g is random bits (f32: a number in [-1, 1)), kept below the middle. */
static uint32_t compact_value(const options *o, uint64_t g) {
    if (!o->predicate) return (uint32_t)g;
    uint64_t h = mix(g);
    if (o->type != WGS_TYPE_F32) return (uint32_t)h;
    float f = (float)((double)(h >> 40) * 0x1p-23 - 1.0);
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static int compact_keeps(const options *o, uint64_t g) {
    if (!o->predicate) return (mix(g ^ 0xA5A5A5A5ull) >> 17) & 1;
    uint32_t v = compact_value(o, g);
    return ref_predicate(o->type, o->type == WGS_TYPE_U32 ? &compact_pred_u32 : &compact_pred_signed, &v);
}

/* Rank r's check: the counts and positions against the CPU, then that its elements are
 * the kept elements at global positions [first, first + count), one after the other. */
static int compact_verify(wgs_mpi *m, const options *o, const uint64_t *start, const wgs_mpi_select_result *res,
                          const uint32_t *vals, const uint32_t *pays) {
    int rank = wgs_mpi_rank(m), size = wgs_mpi_size(m), bad = 0;
    unsigned long long mine = 0, *counts = calloc((size_t)size, sizeof *counts);
    unsigned long long *edges = calloc((size_t)size * 2, sizeof *edges);
    int short_of = faults_of(!counts || !edges); /* every rank skips the check's collectives together */
    if (short_of) {
        free(counts), free(edges);
        return short_of;
    }
    for (uint64_t g = start[rank]; g < start[rank + 1]; g++) mine += (unsigned long long)compact_keeps(o, g);
    MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, counts, 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    uint64_t total = 0, before = 0;
    for (int q = 0; q < size; q++) total += counts[q], before += q < rank ? counts[q] : 0;
    uint64_t want_first = before, want_count = mine;
    if (o->rebalance) { /* equal shares, the first total mod P ranks one more */
        want_first = 0;
        for (int q = 0; q < rank; q++) want_first += total / size + ((uint64_t)q < total % size);
        want_count = total / size + ((uint64_t)rank < total % size);
    }
    if (res->total != total || res->first != want_first || res->count != want_count) {
        fprintf(stderr, "rank %d: count %" PRIu64 " first %" PRIu64 " total %" PRIu64 ", want %" PRIu64 " %" PRIu64
                " %" PRIu64 "\n", rank, res->count, res->first, res->total, want_count, want_first, total);
        bad = 1;
    }
    uint64_t n = bad ? 0 : res->count;
    for (uint64_t i = 0; i < n && !bad; i++) {
        uint64_t g = pays ? pays[i] : vals[i];
        if (g >= start[size] || !compact_keeps(o, g) || vals[i] != compact_value(o, g) ||
            (i && g <= (uint64_t)(pays ? pays[i - 1] : vals[i - 1]))) {
            fprintf(stderr, "rank %d: element %" PRIu64 " (g %" PRIu64 ") is not the next kept one\n", rank, i, g);
            bad = 1;
        }
        uint64_t from = i ? (pays ? pays[i - 1] : vals[i - 1]) + 1 : g;
        for (uint64_t h = from; h < g && !bad; h++)
            if (compact_keeps(o, h)) {
                fprintf(stderr, "rank %d: kept element %" PRIu64 " skipped\n", rank, h);
                bad = 1;
            }
    }
    /* The first element's global position, counted from the start of its owner's slice. */
    if (n && !bad) {
        uint64_t g = pays ? pays[0] : vals[0];
        int q = owner_of(start, size, g);
        uint64_t pos = 0;
        for (int k = 0; k < q; k++) pos += counts[k];
        for (uint64_t h = start[q]; h < g; h++) pos += (uint64_t)compact_keeps(o, h);
        if (pos != res->first) {
            fprintf(stderr, "rank %d: first element at %" PRIu64 ", want %" PRIu64 "\n", rank, pos, res->first);
            bad = 1;
        }
    }
    /* The border: the last element of the nearest rank before with any precedes ours. */
    unsigned long long edge[2] = {n ? (pays ? pays[0] : vals[0]) : ~0ull,
                                  n ? (pays ? pays[n - 1] : vals[n - 1]) : ~0ull};
    MPI_Allgather(edge, 2, MPI_UNSIGNED_LONG_LONG, edges, 2, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    for (int q = rank - 1; q >= 0 && n && !bad; q--)
        if (edges[2 * q] != ~0ull) {
            if (edges[2 * q + 1] >= edge[0]) {
                fprintf(stderr, "rank %d: its first element does not follow rank %d's last\n", rank, q);
                bad = 1;
            }
            break;
        }
    free(counts), free(edges);
    return faults_of(bad);
}

int cmd_compact(wgs_mpi *m, const options *o) {
    wgs_context *ctx = wgs_mpi_context(m);
    int rank = wgs_mpi_rank(m), size = wgs_mpi_size(m);
    uint64_t *start = slice_starts(o, size);
    uint64_t n = slice_length(o, rank), total = start ? start[size] : 0;
    int payload = o->predicate || o->payload;
    uint64_t cap = n;
    if (o->rebalance && rank != o->tight) {
        uint64_t share = total / size + 1;
        if (share > cap) cap = share;
    }
    int runs = o->fail_rank >= 0 || o->tight >= 0 ? 1 : o->repeat + 1;
    /* The GPU buffers first: slices the device cannot hold are refused there, before
     * any host memory is asked for them. */
    wgs_result r = start ? WGS_OK : WGS_ERROR_OUT_OF_HOST_MEMORY;
    WGPUBuffer in = make_buffer(ctx, n * 4, &r), fl = make_buffer(ctx, n, &r), pin = make_buffer(ctx, n * 4, &r),
               out = make_buffer(ctx, cap * 4, &r), pout = make_buffer(ctx, cap * 4, &r);
    uint32_t *host = NULL, *pay = NULL, *vals = NULL, *pays = NULL;
    uint8_t *flags = NULL;
    double *wall = NULL;
    if (r == WGS_OK) {
        host = malloc(n * 4 + 4), pay = malloc(n * 4 + 4), vals = malloc(cap * 4 + 4), pays = malloc(cap * 4 + 4);
        flags = malloc(n + 4), wall = calloc((size_t)runs, sizeof *wall);
        if (!host || !pay || !vals || !pays || !flags || !wall) r = WGS_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (uint64_t i = 0; r == WGS_OK && i < n; i++) {
        uint64_t g = start[rank] + i;
        host[i] = compact_value(o, g), pay[i] = (uint32_t)g, flags[i] = (uint8_t)compact_keeps(o, g);
    }
    if (r == WGS_OK && n) r = wgs_buffer_write(ctx, in, 0, host, n * 4);
    if (r == WGS_OK && n) r = wgs_buffer_write(ctx, fl, 0, flags, (n + 3) / 4 * 4);
    if (r == WGS_OK && n) r = wgs_buffer_write(ctx, pin, 0, pay, n * 4);
    int bad_setup = setup_failed(m, r), exit_code = 0;
    wgs_select_plan_desc d = {.type = rank == o->fail_rank ? WGS_TYPE_F16 : o->type,
                              .mode = o->unique ? WGS_SELECT_UNIQUE : o->predicate ? WGS_SELECT_IF : WGS_SELECT_FLAGGED,
                              .predicate = o->type == WGS_TYPE_U32 ? compact_pred_u32 : compact_pred_signed,
                              .payload = payload ? WGS_PAYLOAD_BUFFER : WGS_PAYLOAD_NONE};
    wgs_mpi_select_args a = {.input = in, .flags = fl, .payload_in = payload ? pin : NULL, .output = out,
                             .payload_out = payload ? pout : NULL, .n_local = n,
                             .output_capacity = cap, .rebalance = o->rebalance};
    wgs_mpi_select_result res = {0, 0, 0};
    if (bad_setup) exit_code = 1;
    for (int k = 0; k < runs && !bad_setup && r == WGS_OK; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = now_s();
        r = wgs_mpi_select(m, &d, &a, &res);
        wall[k] = max_of(now_s() - t0);
    }
    if (bad_setup) {
    } else if (o->fail_rank >= 0 || o->tight >= 0) {
        exit_code = agreed_failure(m, r);
    } else if (r != WGS_OK) {
        if (rank == 0) fprintf(stderr, "wgscan-mpi: compact failed: %s\n", wgs_result_name(r));
        exit_code = 1;
    } else {
        report(m, o, wall, runs, total, o->rebalance ? "rebalanced" : "in place");
        if (rank == 0)
            printf("  kept %" PRIu64 " of %" PRIu64 "; rank 0 holds %" PRIu64 "\n", res.total, total, res.count);
        if (o->verify) {
            wgs_result v = res.count ? wgs_buffer_read(ctx, out, 0, vals, res.count * 4) : WGS_OK;
            if (v == WGS_OK && res.count && payload) v = wgs_buffer_read(ctx, pout, 0, pays, res.count * 4);
            int faults = faults_of(v != WGS_OK) || compact_verify(m, o, start, &res, vals, payload ? pays : NULL);
            if (rank == 0)
                printf("  verify: %s\n", faults ? "FAILED" : "OK, every rank's part equals the CPU reference");
            exit_code = faults != 0;
        }
    }
    wgs_buffer_release(ctx, in), wgs_buffer_release(ctx, fl), wgs_buffer_release(ctx, pin);
    wgs_buffer_release(ctx, out), wgs_buffer_release(ctx, pout);
    free(start), free(host), free(pay), free(vals), free(pays), free(flags), free(wall);
    return exit_code;
}

/* ---- sort ---------------------------------------------------------------------------- */

static size_t key_bytes(wgs_type t) { return t == WGS_TYPE_U64 || t == WGS_TYPE_I64 ? 8 : 4; }

/* Key g: random bits of the type (f32: any bits, NaNs included), all one value
 * (--keys equal), or one of five values (--keys few). */
static void sort_key(const options *o, uint64_t g, void *dst) {
    uint64_t h = o->keys == KEYS_EQUAL ? 0x4045000000000000ull : mix(g);
    if (o->keys == KEYS_FEW) h %= 5;
    if (key_bytes(o->type) == 8) {
        memcpy(dst, &h, 8);
    } else {
        uint32_t w = (uint32_t)(h >> (o->keys == KEYS_RANDOM ? 32 : 0));
        if (o->type == WGS_TYPE_F32 && o->keys != KEYS_RANDOM) {
            float f = (float)w;
            memcpy(&w, &f, 4);
        }
        memcpy(dst, &w, 4);
    }
}

static uint64_t sort_order(const options *o, const void *key) {
    uint64_t v = ref_sort_order(o->type, key);
    uint64_t mask = key_bytes(o->type) == 8 ? ~0ull : 0xFFFFFFFFull;
    return o->descending ? mask - v : v;
}

static uint64_t value_at(const unsigned char *vals, uint32_t vb, uint64_t i) {
    uint64_t v = 0;
    memcpy(&v, vals + i * vb, vb);
    return v;
}

/* Rank r's check: its part in order, every (key, value) pair intact and ties in input
 * order (values are the input positions), the border with the nearest rank before, the
 * balance bound, and that the parts together hold every element once (the count, and
 * sums over the values or over a hash of the keys, against the input's). */
static int sort_verify(wgs_mpi *m, const options *o, const uint64_t *start, const unsigned char *keys,
                       const unsigned char *vals, uint64_t got) {
    int rank = wgs_mpi_rank(m), size = wgs_mpi_size(m), bad = 0;
    size_t kb = key_bytes(o->type);
    uint32_t vb = o->value_bytes;
    unsigned char key[8];
    unsigned long long *edges = calloc((size_t)size * 5, sizeof *edges);
    int short_of = faults_of(!edges); /* every rank skips the check's collectives together */
    if (short_of) return short_of;
    for (uint64_t i = 0; i < got && !bad; i++) {
        uint64_t oi = sort_order(o, keys + i * kb);
        if (i && oi < sort_order(o, keys + (i - 1) * kb)) {
            fprintf(stderr, "rank %d: key %" PRIu64 " is out of order\n", rank, i);
            bad = 1;
        }
        if (vb) {
            uint64_t g = value_at(vals, vb, i);
            if (g < start[size]) sort_key(o, g, key);
            if (g >= start[size] || memcmp(key, keys + i * kb, kb)) {
                fprintf(stderr, "rank %d: pair %" PRIu64 " (value %" PRIu64 ") lost its key\n", rank, i, g);
                bad = 1;
            } else if (i && oi == sort_order(o, keys + (i - 1) * kb) && g <= value_at(vals, vb, i - 1)) {
                fprintf(stderr, "rank %d: equal keys at %" PRIu64 " out of input order\n", rank, i);
                bad = 1;
            }
        }
    }
    /* Sums over the output (mine) and over the input slice (want), all ranks together. */
    unsigned long long sums[6] = {got, 0, 0, start[rank + 1] - start[rank], 0, 0}, all[6];
    for (uint64_t i = 0; i < got; i++) {
        uint64_t v = vb ? value_at(vals, vb, i) : sort_order(o, keys + i * kb);
        sums[1] += mix(v), sums[2] += v * v;
    }
    for (uint64_t g = start[rank]; g < start[rank + 1]; g++) {
        sort_key(o, g, key);
        uint64_t v = vb ? g : sort_order(o, key);
        sums[4] += mix(v), sums[5] += v * v;
    }
    MPI_Allreduce(sums, all, 6, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (all[0] != all[3] || all[1] != all[4] || all[2] != all[5]) {
        if (rank == 0) fprintf(stderr, "the parts do not hold the input's elements once each\n");
        bad = 1;
    }
    /* The border, and the balance. */
    unsigned long long edge[5] = {got, got ? sort_order(o, keys) : 0, got ? sort_order(o, keys + (got - 1) * kb) : 0,
                                  got && vb ? value_at(vals, vb, 0) : 0, got && vb ? value_at(vals, vb, got - 1) : 0};
    MPI_Allgather(edge, 5, MPI_UNSIGNED_LONG_LONG, edges, 5, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    for (int q = rank - 1; q >= 0 && got; q--)
        if (edges[5 * q]) {
            const unsigned long long *e = edges + 5 * q;
            if (e[2] > edge[1] || (vb && e[2] == edge[1] && e[4] >= edge[3])) {
                fprintf(stderr, "rank %d: its first key does not follow rank %d's last\n", rank, q);
                bad = 1;
            }
            break;
        }
    uint64_t largest = 0, most = 0;
    for (int q = 0; q < size; q++) {
        uint64_t len = start[q + 1] - start[q];
        if (len > largest) largest = len;
        if (edges[5 * q] > most) most = edges[5 * q];
    }
    uint64_t bound = wgs_mpi_sort_bound(start[size], largest, size);
    if (rank == 0)
        printf("  balance: largest part %" PRIu64 " keys (N/P %.1f, bound %" PRIu64 ")\n", most,
               (double)start[size] / size, bound);
    if (most > bound) bad = 1;
    free(edges);
    return faults_of(bad);
}

int cmd_sort(wgs_mpi *m, const options *o) {
    wgs_context *ctx = wgs_mpi_context(m);
    int rank = wgs_mpi_rank(m), size = wgs_mpi_size(m);
    uint64_t *start = slice_starts(o, size);
    uint64_t n = slice_length(o, rank), total = start ? start[size] : 0, largest = 0;
    for (int q = 0; start && q < size; q++)
        if (start[q + 1] - start[q] > largest) largest = start[q + 1] - start[q];
    uint64_t cap = rank == o->tight ? n : wgs_mpi_sort_bound(total, largest, size);
    if (cap < n) cap = n;
    size_t kb = key_bytes(o->type);
    uint32_t vb = o->value_bytes;
    int runs = o->fail_rank >= 0 || o->tight >= 0 ? 1 : o->repeat + 1;
    /* The GPU buffers first, as in cmd_compact. */
    wgs_result r = start ? WGS_OK : WGS_ERROR_OUT_OF_HOST_MEMORY;
    WGPUBuffer kbuf = make_buffer(ctx, cap * kb, &r), vbuf = vb ? make_buffer(ctx, cap * vb, &r) : NULL;
    unsigned char *keys = NULL, *vals = NULL;
    double *wall = NULL;
    if (r == WGS_OK) {
        keys = malloc(cap * kb + 8), vals = malloc(cap * vb + 8), wall = calloc((size_t)runs, sizeof *wall);
        if (!keys || !vals || !wall) r = WGS_ERROR_OUT_OF_HOST_MEMORY;
    }
    int bad_setup = setup_failed(m, r), exit_code = 0;
    wgs_sort_plan_desc d = {.type = rank == o->fail_rank ? WGS_TYPE_F16 : o->type,
                            .order = o->descending ? WGS_SORT_DESCENDING : WGS_SORT_ASCENDING,
                            .payload = o->index_payload ? WGS_PAYLOAD_INDEX : vb ? WGS_PAYLOAD_BUFFER : WGS_PAYLOAD_NONE,
                            .value_bytes = vb};
    wgs_mpi_sort_args a = {.keys = kbuf, .values = vbuf, .n_local = n, .capacity = cap};
    uint64_t got = 0;
    if (bad_setup) exit_code = 1;
    for (int k = 0; k < runs && !bad_setup && r == WGS_OK; k++) {
        /* The sort works in place: every run starts from the input again (untimed). */
        for (uint64_t i = 0; i < n; i++) {
            uint64_t g = start[rank] + i;
            sort_key(o, g, keys + i * kb);
            if (vb) memcpy(vals + i * vb, &g, vb);
        }
        if (n) r = wgs_buffer_write(ctx, kbuf, 0, keys, n * kb);
        if (r == WGS_OK && n && vb) r = wgs_buffer_write(ctx, vbuf, 0, vals, n * vb);
        if (r == WGS_OK) r = wgs_wait(ctx);
        if (faults_of(r != WGS_OK)) {
            r = r != WGS_OK ? r : WGS_ERROR_INVALID_ARGUMENT;
            break;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = now_s();
        r = wgs_mpi_sort(m, &d, &a, &got);
        wall[k] = max_of(now_s() - t0);
    }
    if (bad_setup) {
    } else if (o->fail_rank >= 0 || o->tight >= 0) {
        exit_code = agreed_failure(m, r);
    } else if (r != WGS_OK) {
        if (rank == 0) fprintf(stderr, "wgscan-mpi: sort failed: %s\n", wgs_result_name(r));
        exit_code = 1;
    } else {
        char what[64];
        snprintf(what, sizeof what, "%s, %s%s", o->descending ? "descending" : "ascending",
                 o->keys == KEYS_EQUAL ? "equal keys" : o->keys == KEYS_FEW ? "5 distinct keys" : "random keys",
                 vb == 8 ? ", 8-byte values" : vb ? ", 4-byte values" : "");
        report(m, o, wall, runs, total, what);
        if (o->verify) {
            wgs_result v = got ? wgs_buffer_read(ctx, kbuf, 0, keys, got * kb) : WGS_OK;
            if (v == WGS_OK && got && vb) v = wgs_buffer_read(ctx, vbuf, 0, vals, got * vb);
            int faults = faults_of(v != WGS_OK) || sort_verify(m, o, start, keys, vals, got);
            if (rank == 0)
                printf("  verify: %s\n", faults ? "FAILED"
                                              : "OK, every part in order, its pairs and borders intact, "
                                                "every element once, within the bound");
            exit_code = faults != 0;
        }
    }
    wgs_buffer_release(ctx, kbuf), wgs_buffer_release(ctx, vbuf);
    free(start), free(keys), free(vals), free(wall);
    return exit_code;
}
