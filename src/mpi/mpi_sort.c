/* SPDX-License-Identifier: MIT */
/*
 * mpi_sort.c: the distributed sort (wgs_mpi_sort), a sample sort. Each rank sorts its
 * slice on the GPU and brings it to the host; every rank contributes regular samples of
 * its sorted keys, and all ranks choose the same P - 1 splitters from them; each rank
 * cuts its sorted keys at the splitters (binary search), the pieces travel with one
 * MPI_Alltoallv (values a second), and each rank sorts what arrived on the GPU.
 *
 * Ties: every element is ordered by (key, rank, position in the rank's sorted slice), a
 * total order in which no two elements are equal, so splitters cut runs of equal keys
 * as they cut distinct keys and the balance bound (wgs_mpi_sort_bound) holds for any
 * input. The local sorts are stable, so the result is the stable global sort.
 */
#include "mpi/mpi_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Samples a rank contributes: OVERSAMPLE x P - 1, which bounds each rank's share by
 * about (1 + 2 / OVERSAMPLE) n for equal slices of n (see wgs_mpi_sort_bound). */
#define OVERSAMPLE 4

typedef struct sample {
    uint64_t order;  /* the key as an unsigned number in the sort's order */
    uint64_t pos;    /* its position in the rank's sorted slice */
    uint64_t weight; /* the elements of the slice it stands for (see choose_splitters) */
    uint32_t rank;
    uint32_t pad;
} sample;

static int by_tuple(const void *a, const void *b) {
    const sample *x = a, *y = b;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

uint64_t wgs_mpi_sort_bound(uint64_t total, uint64_t largest_slice, int size) {
    if (size <= 0 || !total) return 0;
    uint64_t s1 = (uint64_t)OVERSAMPLE * (uint64_t)size; /* samples a rank + 1 */
    uint64_t b = ceil_div(total, (uint64_t)size) + ceil_div(total, s1) + ceil_div(largest_slice, s1);
    b = b > 0 ? b - 1 : 0;
    return b < total ? b : total;
}

/* The sort's order as an unsigned number (wgscan.h "Sort": integers by value, f32 by
 * its bits with the sign flipped), restricted to the plan's bits, reversed when
 * descending: ascending in this number is the sort's order. */
typedef struct order_fn {
    wgs_type type;
    uint32_t begin;
    uint64_t mask;
    int descending;
    size_t key_bytes;
} order_fn;

static uint64_t order_of(const order_fn *f, const void *key) {
    uint64_t v = 0;
    uint32_t w = 0;
    if (f->key_bytes == 8) memcpy(&v, key, 8);
    else memcpy(&w, key, 4), v = w;
    if (f->type == WGS_TYPE_I64) v ^= 1ull << 63;
    else if (f->type == WGS_TYPE_I32) v ^= 0x80000000u;
    else if (f->type == WGS_TYPE_F32) v = (w & 0x80000000u) ? (uint32_t)~w : (w | 0x80000000u);
    v = (v >> f->begin) & f->mask;
    return f->descending ? f->mask - v : v;
}

/* Local elements with order below o (strict) or at most o (!strict), by binary search
 * over the sorted slice. */
static uint64_t bound_of(const order_fn *f, const unsigned char *keys, uint64_t n, uint64_t o, int strict) {
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2, x = order_of(f, keys + mid * f->key_bytes);
        if (strict ? x < o : x <= o) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Regular samples of the sorted slice: s at positions floor((j + 1) n / (s + 1)), each
 * standing for the elements after the previous one up to itself. */
static void take_samples(const order_fn *f, const unsigned char *keys, uint64_t n, int rank, int s, sample *out) {
    uint64_t prev = 0; /* one past the previous sample's position */
    for (int j = 0; j < s; j++) {
        uint64_t p = n ? (uint64_t)(j + 1) * n / (uint64_t)(s + 1) : 0;
        out[j] = (sample){0, p, 0, (uint32_t)rank, 0};
        if (n && p + 1 > prev) {
            out[j].order = order_of(f, keys + p * f->key_bytes);
            out[j].weight = p + 1 - prev;
            prev = p + 1;
        }
    }
}

/* The P - 1 splitters, the same on every rank (the same samples, sorted the same way):
 * splitter q is the first sample by (order, rank, position) at which the weights
 * reach floor(q N / P). Elements up to a sample number at least its running weight
 * and at most that plus each rank's largest gap between samples, which bounds each
 * rank's share. found[q] = 0: before every element (target 0) or past all (weights
 * short of the target); then kind[q] says which (-1, +1). */
static void choose_splitters(sample *all, size_t count, uint64_t total, int p, sample *split, int *kind) {
    size_t k = 0;
    for (size_t i = 0; i < count; i++)
        if (all[i].weight) all[k++] = all[i];
    qsort(all, k, sizeof *all, by_tuple);
    uint64_t w = 0;
    size_t i = 0;
    for (int q = 1; q < p; q++) {
        uint64_t pp = (uint64_t)p, target = total / pp * (uint64_t)q + total % pp * (uint64_t)q / pp;
        if (!target) {
            kind[q] = -1;
            continue;
        }
        while (i < k && w + all[i].weight < target) w += all[i++].weight;
        if (i < k) {
            split[q] = all[i];
            kind[q] = 0;
        } else {
            kind[q] = 1;
        }
    }
}

/* Local elements at or before splitter q in the (order, rank, position) order. */
static uint64_t cut(const order_fn *f, const unsigned char *keys, uint64_t n, int rank, const sample *s, int kind) {
    if (kind) return kind < 0 ? 0 : n;
    if ((uint32_t)rank == s->rank) return s->pos + 1;
    return bound_of(f, keys, n, s->order, (uint32_t)rank > s->rank);
}

static wgs_result check(wgs_mpi *m, const wgs_sort_plan_desc *desc, const wgs_mpi_sort_args *a, uint64_t *n_out) {
    wgs_result r = WGS_OK;
    const char *why = "";
    if (!desc || !a || !n_out) r = WGS_ERROR_INVALID_ARGUMENT, why = "desc, args and n_out are required";
    else if (desc->type == WGS_TYPE_F16 || desc->type > WGS_TYPE_I64)
        r = WGS_ERROR_UNSUPPORTED_TYPE, why = "the distributed sort takes u32, i32, f32, u64 or i64 keys";
    else if (desc->payload == WGS_PAYLOAD_INDEX)
        r = WGS_ERROR_INVALID_ARGUMENT, why = "payload INDEX has no global meaning here (give the indices as values)";
    else if ((a->capacity ? a->capacity : a->n_local) < a->n_local)
        r = WGS_ERROR_BUFFER_TOO_SMALL, why = "capacity is below n_local";
    else if (a->n_local >= INT_MAX || a->capacity >= INT_MAX)
        r = WGS_ERROR_TOO_LARGE, why = "slices and capacities must stay below 2^31 keys";
    if (r != WGS_OK) wgs_mpi__say(m, r, "rank %d: %s", m->rank, why);
    return r;
}

/* Sorts n keys (and values) in place in the caller's buffers on the GPU. The plan is
 * made on first use, so that a rank without keys compiles nothing. */
static wgs_result gpu_sort(wgs_mpi *m, const wgs_sort_plan_desc *d, wgs_sort_plan **plan, const wgs_mpi_sort_args *a,
                           int values, uint64_t n) {
    if (!n) return WGS_OK;
    wgs_result r = *plan ? WGS_OK : wgs_sort_plan_create(m->ctx, d, plan);
    WGPUCommandEncoder enc = NULL;
    if (r == WGS_OK) r = wgs_encoder_create(m->ctx, &enc);
    if (r != WGS_OK) return r;
    wgs_sort_args sa = {.keys_in = a->keys, .keys_in_offset = a->keys_offset, .keys_out = a->keys,
                        .keys_out_offset = a->keys_offset, .n = n};
    if (values) {
        sa.values_in = sa.values_out = a->values;
        sa.values_in_offset = sa.values_out_offset = a->values_offset;
    }
    r = wgs_sort_encode(*plan, enc, &sa);
    wgs_result s = wgs_mpi__submit_wait(m, enc); /* the encoder is spent either way */
    return r == WGS_OK ? s : r;
}

wgs_result wgs_mpi_sort(wgs_mpi *m, const wgs_sort_plan_desc *desc, const wgs_mpi_sort_args *args, uint64_t *n_out) {
    if (!m) return WGS_ERROR_INVALID_ARGUMENT;
    m->timing = (wgs_mpi_timing){0, 0, 0};
    const int p = m->size, s = OVERSAMPLE * p - 1;
    wgs_sort_plan_desc d = desc ? *desc : (wgs_sort_plan_desc){0};
    if (!d.type) d.type = WGS_TYPE_U32;
    const int values = d.payload == WGS_PAYLOAD_BUFFER;
    const size_t kb = d.type >= WGS_TYPE_U64 ? 8 : 4, vb = values ? (d.value_bytes ? d.value_bytes : 4) : 0;
    const uint64_t n = args ? args->n_local : 0, cap = args ? (args->capacity ? args->capacity : n) : 0;
    uint32_t width = (uint32_t)kb * 8, end = d.begin_bit || d.end_bit ? d.end_bit : width;
    /* A refused description costs no rank any GPU work; ranks whose keys or values
     * differ in size would overrun each other's buffers in the exchange. */
    const wgs_mpi_word same[] = {{d.type, "key type"},     {d.order, "order"},
                                 {d.begin_bit, "bit range"}, {end, "bit range"},
                                 {d.payload, "payload"},   {vb, "value bytes"}};
    wgs_result r = wgs_mpi__agree_on(m, check(m, desc, args, n_out), same, 6);
    if (r != WGS_OK) return r;
    order_fn f = {d.type, d.begin_bit, 0, d.order == WGS_SORT_DESCENDING, kb};
    f.mask = end - d.begin_bit >= 64 ? ~0ull : (1ull << (end - d.begin_bit)) - 1;
    /* 1. The local sort (its plan validates the rest of the description), the slice to
     * the host. */
    wgs_sort_plan *plan = NULL;
    d.capacity = cap ? cap : 1;
    unsigned char *keys = NULL, *vals = NULL, *rkeys = NULL, *rvals = NULL;
    sample *mine = NULL, *all = NULL, *split = NULL;
    int *kind = NULL, *counts = NULL;
    r = gpu_sort(m, &d, &plan, args, values, n);
    if (p == 1) { /* the local sort is the sort */
        if ((r = wgs_mpi__agree(m, r)) == WGS_OK) *n_out = n;
        goto done;
    }
    if (r == WGS_OK) {
        keys = malloc(n * kb + 1), vals = malloc(n * vb + 1);
        mine = calloc((size_t)s, sizeof *mine), all = malloc((size_t)s * (size_t)p * sizeof *all);
        split = calloc((size_t)p, sizeof *split), kind = calloc((size_t)p, sizeof *kind);
        counts = calloc((size_t)p * 4, sizeof *counts);
        if (!keys || !vals || !mine || !all || !split || !kind || !counts) r = WGS_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (r == WGS_OK && n) r = wgs_mpi__read(m, args->keys, args->keys_offset, keys, n * kb);
    if (r == WGS_OK && n && values) r = wgs_mpi__read(m, args->values, args->values_offset, vals, n * vb);
    uint64_t first = 0, total = 0, got = 0;
    if ((r = wgs_mpi__agree(m, r)) != WGS_OK) goto done;
    /* 2. Samples to every rank, the same splitters everywhere, this rank's cuts. */
    if ((r = wgs_mpi__agree(m, wgs_mpi__global_offset(m, n, &first, &total))) != WGS_OK) goto done;
    take_samples(&f, keys, n, m->rank, s, mine);
    double t0 = wgs_mpi__now();
    int ok = MPI_Allgather(mine, s * (int)sizeof *mine, MPI_BYTE, all, s * (int)sizeof *mine, MPI_BYTE, m->comm) ==
             MPI_SUCCESS;
    m->timing.comm_s += wgs_mpi__now() - t0;
    if ((r = wgs_mpi__agree(m, ok ? WGS_OK : WGS_ERROR_INVALID_ARGUMENT)) != WGS_OK) goto done;
    choose_splitters(all, (size_t)s * (size_t)p, total, p, split, kind);
    int *sc = counts, *sd = counts + p, *rc = counts + 2 * p, *rd = counts + 3 * p;
    uint64_t prev = 0;
    for (int q = 0; q < p; q++) {
        uint64_t next = q + 1 < p ? cut(&f, keys, n, m->rank, &split[q + 1], kind[q + 1]) : n;
        if (next < prev) next = prev; /* splitters ascend; kept monotone whatever the keys */
        sd[q] = (int)prev, sc[q] = (int)(next - prev), prev = next;
    }
    t0 = wgs_mpi__now();
    ok = MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, m->comm) == MPI_SUCCESS;
    m->timing.comm_s += wgs_mpi__now() - t0;
    for (int q = 0; q < p; q++) rd[q] = (int)got, got += (uint64_t)rc[q];
    if (ok && got > cap) {
        wgs_mpi__say(m, WGS_ERROR_BUFFER_TOO_SMALL, "rank %d: its part of the sorted array passes capacity%s",
                     m->rank, "");
        r = WGS_ERROR_BUFFER_TOO_SMALL;
    }
    if (r == WGS_OK) {
        rkeys = malloc(got * kb + 1), rvals = malloc(got * vb + 1);
        if (!rkeys || !rvals) r = WGS_ERROR_OUT_OF_HOST_MEMORY;
    }
    if ((r = wgs_mpi__agree(m, ok ? r : WGS_ERROR_INVALID_ARGUMENT)) != WGS_OK) goto done;
    /* 3. The exchange; then what arrived (sorted runs in rank order) sorted on the GPU:
     * stable, so ties keep the (rank, position) order. */
    r = wgs_mpi__agree(m, wgs_mpi__exchange(m, keys, sc, sd, rkeys, rc, rd, (int)kb));
    if (r == WGS_OK && values) r = wgs_mpi__agree(m, wgs_mpi__exchange(m, vals, sc, sd, rvals, rc, rd, (int)vb));
    if (r != WGS_OK) goto done;
    r = wgs_mpi__write(m, args->keys, args->keys_offset, rkeys, got * kb);
    if (r == WGS_OK && values) r = wgs_mpi__write(m, args->values, args->values_offset, rvals, got * vb);
    if (r == WGS_OK) r = gpu_sort(m, &d, &plan, args, values, got);
    if ((r = wgs_mpi__agree(m, r)) == WGS_OK) *n_out = got;
done:
    wgs_sort_plan_destroy(plan);
    free(keys), free(vals), free(rkeys), free(rvals), free(mine), free(all), free(split), free(kind), free(counts);
    return r;
}
