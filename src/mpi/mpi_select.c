/* SPDX-License-Identifier: MIT */
/*
 * mpi_select.c: distributed compaction (wgs_mpi_select). Each rank selects from its
 * slice with a wgscan select plan; the global position of its first kept element is
 * the MPI_Exscan of the kept counts. Rebalancing moves the kept elements through host
 * memory with one MPI_Alltoallv so that rank q holds the q-th of P equal shares.
 */
#include "mpi/mpi_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Rank q's share of `total` kept elements over P ranks and where it starts: the first
 * total mod P ranks hold one more. */
static uint64_t share_start(uint64_t total, int p, int q) {
    uint64_t base = total / (uint64_t)p, extra = total % (uint64_t)p;
    return (uint64_t)q * base + ((uint64_t)q < extra ? (uint64_t)q : extra);
}

uint64_t wgs_mpi_select_share(uint64_t total, int size, int rank) {
    if (size <= 0 || rank < 0 || rank >= size) return 0;
    return share_start(total, size, rank + 1) - share_start(total, size, rank);
}

static wgs_result check(wgs_mpi *m, const wgs_select_plan_desc *desc, const wgs_mpi_select_args *a,
                        wgs_mpi_select_result *res) {
    if (!desc || !a || !res) {
        wgs_mpi__say(m, WGS_ERROR_INVALID_ARGUMENT, "rank %d: desc, args and result are required%s", m->rank, "");
        return WGS_ERROR_INVALID_ARGUMENT;
    }
    if (desc->type == WGS_TYPE_F16 || desc->type > WGS_TYPE_F32) {
        wgs_mpi__say(m, WGS_ERROR_UNSUPPORTED_TYPE, "rank %d: the distributed select takes u32, i32 or f32%s",
                     m->rank, "");
        return WGS_ERROR_UNSUPPORTED_TYPE;
    }
    /* Unique and run-length runs would cross the slices' borders; a partition and input
     * indices have no global meaning here. */
    if (desc->mode > WGS_SELECT_IF || desc->partition || desc->payload == WGS_PAYLOAD_INDEX) {
        wgs_mpi__say(m, WGS_ERROR_INVALID_ARGUMENT,
                     "rank %d: the distributed select takes FLAGGED or IF, payload NONE or BUFFER%s", m->rank, "");
        return WGS_ERROR_INVALID_ARGUMENT;
    }
    uint64_t cap = a->output_capacity ? a->output_capacity : a->n_local;
    if (cap < a->n_local) {
        wgs_mpi__say(m, WGS_ERROR_BUFFER_TOO_SMALL, "rank %d: output_capacity is below n_local%s", m->rank, "");
        return WGS_ERROR_BUFFER_TOO_SMALL;
    }
    if (a->rebalance && a->n_local >= INT_MAX) {
        wgs_mpi__say(m, WGS_ERROR_TOO_LARGE, "rank %d: rebalancing needs slices below 2^31 elements%s", m->rank,
                     "");
        return WGS_ERROR_TOO_LARGE;
    }
    return WGS_OK;
}

/* The local select; the kept count read back into *count. */
static wgs_result local_select(wgs_mpi *m, const wgs_select_plan_desc *desc, const wgs_mpi_select_args *a,
                               uint64_t *count) {
    wgs_select_plan_desc d = *desc;
    if (d.capacity < a->n_local) d.capacity = a->n_local;
    if (!d.capacity) d.capacity = 1;
    wgs_select_plan *plan = NULL;
    WGPUBuffer cbuf = NULL;
    WGPUCommandEncoder enc = NULL;
    uint32_t c = 0;
    /* An empty slice makes no plan: nothing to compile. */
    wgs_result r = a->n_local ? wgs_select_plan_create(m->ctx, &d, &plan) : WGS_OK;
    if (r == WGS_OK && a->n_local)
        r = wgs_buffer_create(m->ctx, 256, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, &cbuf);
    if (r == WGS_OK && a->n_local) r = wgs_encoder_create(m->ctx, &enc);
    if (r == WGS_OK && a->n_local) {
        wgs_select_args sa = {.input = a->input, .input_offset = a->input_offset, .flags = a->flags,
                              .flags_offset = a->flags_offset, .payload_in = a->payload_in,
                              .payload_in_offset = a->payload_in_offset, .output = a->output,
                              .output_offset = a->output_offset, .payload_out = a->payload_out,
                              .payload_out_offset = a->payload_out_offset, .count = cbuf, .n = a->n_local};
        r = wgs_select_encode(plan, enc, &sa);
        wgs_result s = wgs_mpi__submit_wait(m, enc); /* the encoder is spent either way */
        if (r == WGS_OK) r = s;
        if (r == WGS_OK) r = wgs_mpi__read(m, cbuf, 0, &c, 4);
    }
    wgs_buffer_release(m->ctx, cbuf);
    wgs_select_plan_destroy(plan);
    *count = c;
    return r;
}

/* Moves the kept elements (and payloads) so that each rank holds its share, in global
 * order: rank r's kept elements are the global positions [first, first + count); the
 * part of them inside rank q's share goes to q. */
static wgs_result rebalance(wgs_mpi *m, const wgs_mpi_select_args *a, int payload, wgs_mpi_select_result *res) {
    int p = m->size;
    uint64_t mine = wgs_mpi_select_share(res->total, p, m->rank);
    uint64_t cap = a->output_capacity ? a->output_capacity : a->n_local;
    wgs_result r = WGS_OK;
    if (mine > cap) {
        wgs_mpi__say(m, WGS_ERROR_BUFFER_TOO_SMALL, "rank %d: its share of the kept elements passes output_capacity%s",
                     m->rank, "");
        r = WGS_ERROR_BUFFER_TOO_SMALL;
    }
    if (mine >= INT_MAX) r = WGS_ERROR_TOO_LARGE;
    int *counts = calloc((size_t)p * 4, sizeof(int));
    uint32_t *send = malloc((res->count ? res->count : 1) * 4 * (payload ? 2 : 1));
    uint32_t *recv = malloc((mine ? mine : 1) * 4 * (payload ? 2 : 1));
    if (r == WGS_OK && (!counts || !send || !recv)) r = WGS_ERROR_OUT_OF_HOST_MEMORY;
    if (r == WGS_OK && res->count) r = wgs_mpi__read(m, a->output, a->output_offset, send, res->count * 4);
    if (r == WGS_OK && res->count && payload)
        r = wgs_mpi__read(m, a->payload_out, a->payload_out_offset, send + res->count, res->count * 4);
    if ((r = wgs_mpi__agree(m, r)) != WGS_OK) {
        free(counts), free(send), free(recv);
        return r;
    }
    int *sc = counts, *sd = counts + p, *rc = counts + 2 * p, *rd = counts + 3 * p;
    uint64_t lo = res->first, hi = res->first + res->count;
    for (int q = 0; q < p; q++) {
        uint64_t a0 = share_start(res->total, p, q), a1 = share_start(res->total, p, q + 1);
        uint64_t b0 = lo > a0 ? lo : a0, b1 = hi < a1 ? hi : a1;
        sc[q] = b1 > b0 ? (int)(b1 - b0) : 0;
        sd[q] = b1 > b0 ? (int)(b0 - lo) : 0;
    }
    double t0 = wgs_mpi__now();
    int ok = MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, m->comm) == MPI_SUCCESS;
    m->timing.comm_s += wgs_mpi__now() - t0;
    for (int q = 0, at = 0; q < p; q++) rd[q] = at, at += rc[q];
    r = wgs_mpi__agree(m, ok ? WGS_OK : WGS_ERROR_INVALID_ARGUMENT);
    if (r == WGS_OK) r = wgs_mpi__agree(m, wgs_mpi__exchange(m, send, sc, sd, recv, rc, rd, 4));
    if (r == WGS_OK && payload)
        r = wgs_mpi__agree(m, wgs_mpi__exchange(m, send + res->count, sc, sd, recv + mine, rc, rd, 4));
    if (r == WGS_OK) {
        r = wgs_mpi__write(m, a->output, a->output_offset, recv, mine * 4);
        if (r == WGS_OK && payload) r = wgs_mpi__write(m, a->payload_out, a->payload_out_offset, recv + mine, mine * 4);
        r = wgs_mpi__agree(m, r);
    }
    free(counts), free(send), free(recv);
    if (r == WGS_OK) res->first = share_start(res->total, p, m->rank), res->count = mine;
    return r;
}

wgs_result wgs_mpi_select(wgs_mpi *m, const wgs_select_plan_desc *desc, const wgs_mpi_select_args *args,
                          wgs_mpi_select_result *result) {
    if (!m) return WGS_ERROR_INVALID_ARGUMENT;
    m->timing = (wgs_mpi_timing){0, 0, 0};
    wgs_mpi_select_result res = {0, 0, 0};
    /* A refused description costs no rank any GPU work. */
    wgs_select_plan_desc d = desc ? *desc : (wgs_select_plan_desc){0};
    int flagged = d.mode == WGS_SELECT_DEFAULT || d.mode == WGS_SELECT_FLAGGED;
    const wgs_mpi_word same[] = {{d.type ? d.type : WGS_TYPE_U32, "type"},
                                 {flagged ? WGS_SELECT_FLAGGED : d.mode, "mode"},
                                 {d.payload, "payload"},
                                 {args ? args->rebalance != 0 : 0, "rebalance"},
                                 {flagged ? 0 : d.predicate.kind, "predicate"}, /* FLAGGED ignores it */
                                 {flagged ? 0 : wgs_mpi__bits(d.predicate.a), "predicate"},
                                 {flagged ? 0 : wgs_mpi__bits(d.predicate.b), "predicate"}};
    wgs_result r = wgs_mpi__agree_on(m, check(m, desc, args, result), same, 7);
    if (r != WGS_OK) return r;
    r = local_select(m, desc, args, &res.count);
    if ((r = wgs_mpi__agree(m, r)) != WGS_OK) return r;
    if ((r = wgs_mpi__agree(m, wgs_mpi__global_offset(m, res.count, &res.first, &res.total))) != WGS_OK) return r;
    if (args->rebalance && (r = rebalance(m, args, desc->payload == WGS_PAYLOAD_BUFFER, &res)) != WGS_OK) return r;
    *result = res;
    return WGS_OK;
}
