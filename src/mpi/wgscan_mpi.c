/* SPDX-License-Identifier: MIT */
/*
 * wgscan_mpi.c: the primitives over MPI (wgscan_mpi.h), built on the public API alone:
 * each rank's GPU work is a wgscan plan on its own context, the step between the ranks
 * an MPI collective on host values, and every step's result agreed by all ranks.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "mpi/mpi_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double wgs_mpi__now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- the library's operators on host values, as MPI user operations ------------------ */

/* A u32 that orders as the float (wgscan.h "Floats": -0 < +0); NaN below every number
 * for min and above for max, so that it wins either. */
static uint32_t order_key(float f, int for_max) {
    uint32_t b;
    memcpy(&b, &f, 4);
    if ((b & 0x7FFFFFFFu) > 0x7F800000u) return for_max ? 0xFFFFFFFFu : 0u;
    return b & 0x80000000u ? ~b : b | 0x80000000u;
}

/* b = a op b, element by element: `a` comes first in rank order (MPI calls a user
 * operation with the lower ranks' values in invec when it is not commutative). */
static void combine(wgs_op op, MPI_Datatype t, const void *a, void *b, int len) {
    for (int i = 0; i < len; i++) {
        if (t == MPI_FLOAT) {
            float x = ((const float *)a)[i], *y = (float *)b + i;
            if (op == WGS_OP_ADD) *y = x + *y;
            else if (op == WGS_OP_MIN) *y = order_key(x, 0) <= order_key(*y, 0) ? x : *y;
            else if (op == WGS_OP_MAX) *y = order_key(x, 1) >= order_key(*y, 1) ? x : *y;
        } else if (t == MPI_INT32_T) {
            int32_t x = ((const int32_t *)a)[i], *y = (int32_t *)b + i;
            if (op == WGS_OP_ADD) *y = (int32_t)((uint32_t)x + (uint32_t)*y); /* wraps, as on the GPU */
            else if (op == WGS_OP_MIN) *y = x < *y ? x : *y;
            else if (op == WGS_OP_MAX) *y = x > *y ? x : *y;
            else if (op == WGS_OP_AND) *y = x & *y;
            else if (op == WGS_OP_OR) *y = x | *y;
            else if (op == WGS_OP_XOR) *y = x ^ *y;
        } else if (t == MPI_UINT32_T) {
            uint32_t x = ((const uint32_t *)a)[i], *y = (uint32_t *)b + i;
            if (op == WGS_OP_ADD) *y = x + *y;
            else if (op == WGS_OP_MIN) *y = x < *y ? x : *y;
            else if (op == WGS_OP_MAX) *y = x > *y ? x : *y;
            else if (op == WGS_OP_AND) *y = x & *y;
            else if (op == WGS_OP_OR) *y = x | *y;
            else if (op == WGS_OP_XOR) *y = x ^ *y;
        }
    }
}

/* Arg ops travel as (value bits, global index) pairs of u32 in an MPI_2INT-sized
 * contiguous type whose element type the op cannot see: the value's type is carried in
 * a static set before the collective (one collective at a time per process). */
static wgs_type arg_type;

static void combine_arg(wgs_op op, const uint32_t *a, uint32_t *b, int len) {
    for (int i = 0; i < len; i++) {
        const uint32_t *x = a + 2 * i;
        uint32_t *y = b + 2 * i;
        if (x[1] == 0xFFFFFFFFu) continue; /* an empty rank's pair */
        if (y[1] == 0xFFFFFFFFu) {
            y[0] = x[0], y[1] = x[1];
            continue;
        }
        int take; /* x wins, or ties with a smaller index */
        if (arg_type == WGS_TYPE_F32) {
            float fx, fy;
            memcpy(&fx, &x[0], 4), memcpy(&fy, &y[0], 4);
            int nx = fx != fx, ny = fy != fy;
            if (nx || ny) take = nx && (!ny || x[1] < y[1]); /* the first NaN wins */
            else {
                uint32_t kx = order_key(fx, op == WGS_OP_ARGMAX), ky = order_key(fy, op == WGS_OP_ARGMAX);
                take = op == WGS_OP_ARGMIN ? kx < ky || (kx == ky && x[1] < y[1])
                                           : kx > ky || (kx == ky && x[1] < y[1]);
            }
        } else if (arg_type == WGS_TYPE_I32) {
            int32_t vx = (int32_t)x[0], vy = (int32_t)y[0];
            take = op == WGS_OP_ARGMIN ? vx < vy || (vx == vy && x[1] < y[1]) : vx > vy || (vx == vy && x[1] < y[1]);
        } else {
            take = op == WGS_OP_ARGMIN ? x[0] < y[0] || (x[0] == y[0] && x[1] < y[1])
                                       : x[0] > y[0] || (x[0] == y[0] && x[1] < y[1]);
        }
        if (take) y[0] = x[0], y[1] = x[1];
    }
}

#define OP_FN(name, op)                                                                 \
    static void name(void *in, void *inout, int *len, MPI_Datatype *t) {                \
        if (op >= WGS_OP_ARGMIN) combine_arg(op, in, inout, *len);                      \
        else combine(op, *t, in, inout, *len);                                          \
    }
OP_FN(op_add, WGS_OP_ADD)
OP_FN(op_min, WGS_OP_MIN)
OP_FN(op_max, WGS_OP_MAX)
OP_FN(op_and, WGS_OP_AND)
OP_FN(op_or, WGS_OP_OR)
OP_FN(op_xor, WGS_OP_XOR)
OP_FN(op_argmin, WGS_OP_ARGMIN)
OP_FN(op_argmax, WGS_OP_ARGMAX)

static MPI_Datatype datatype(wgs_type t) {
    return t == WGS_TYPE_F32 ? MPI_FLOAT : t == WGS_TYPE_I32 ? MPI_INT32_T : MPI_UINT32_T;
}

/* ---- agreement --------------------------------------------------------------------- */

void wgs_mpi__say(wgs_mpi *m, wgs_result r, const char *fmt, int a, const char *b) {
    if (!m->log) return;
    char msg[256];
    snprintf(msg, sizeof msg, fmt, a, b);
    m->log(WGS_LOG_ERROR, r, msg, m->log_user);
}

/* One MPI_Allreduce (MPI_MAX over u64) carries everything: the largest code, the first
 * failing rank as the maximum of its complement, and each word of the description with
 * its complement beside it, so that max(w) == ~max(~w) holds exactly when every rank
 * gave the same word. */
wgs_result wgs_mpi__agree_on(wgs_mpi *m, wgs_result mine, const wgs_mpi_word *desc, int words) {
    uint64_t in[2 + 2 * WGS_MPI_MAX_WORDS], out[2 + 2 * WGS_MPI_MAX_WORDS];
    if (words > WGS_MPI_MAX_WORDS) words = WGS_MPI_MAX_WORDS;
    in[0] = (uint64_t)mine;
    in[1] = ~(uint64_t)(mine != WGS_OK ? m->rank : m->size);
    for (int i = 0; i < words; i++) in[2 + i] = desc[i].value, in[2 + words + i] = ~desc[i].value;
    double t0 = wgs_mpi__now();
    if (MPI_Allreduce(in, out, 2 + 2 * words, MPI_UINT64_T, MPI_MAX, m->comm) != MPI_SUCCESS)
        return WGS_ERROR_INVALID_ARGUMENT;
    m->timing.comm_s += wgs_mpi__now() - t0;
    wgs_result r = (wgs_result)out[0];
    int first = (int)~out[1];
    for (int i = 0; i < words; i++)
        if (out[2 + i] != ~out[2 + words + i]) { /* seen the same on every rank */
            wgs_mpi__say(m, WGS_ERROR_INVALID_ARGUMENT,
                         "rank %d: the ranks' descriptions differ in %s (every rank must give the same)", m->rank,
                         desc[i].name);
            if (r < WGS_ERROR_INVALID_ARGUMENT) r = WGS_ERROR_INVALID_ARGUMENT;
            return r;
        }
    if (r != WGS_OK && mine == WGS_OK) wgs_mpi__say(m, r, "rank %d failed: %s", first, wgs_result_name(r));
    return r;
}

wgs_result wgs_mpi__agree(wgs_mpi *m, wgs_result mine) { return wgs_mpi__agree_on(m, mine, NULL, 0); }

uint64_t wgs_mpi__bits(double x) {
    uint64_t b;
    memcpy(&b, &x, 8);
    return b;
}

/* ---- lifetime ------------------------------------------------------------------------ */

/* The rank's context. Unless the description names an adapter, the ranks of one node
 * spread over its adapters: node-local rank i takes adapter i mod their count. The count
 * is known once a context exists, so a rank whose adapter is not the first makes its
 * context again (only where the runtime offers several). */
static wgs_result make_context(wgs_mpi *m, const wgs_context_desc *desc) {
    MPI_Comm node; /* first, on every rank: it is collective */
    int local = 0;
    if (MPI_Comm_split_type(m->comm, MPI_COMM_TYPE_SHARED, m->rank, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &local);
        MPI_Comm_free(&node);
    }
    wgs_context_desc d;
    memset(&d, 0, sizeof d);
    if (desc) d = *desc;
    wgs_result r = wgs_context_create(&d, &m->ctx);
    if (r != WGS_OK || d.adapter_index) return r;
    wgs_context_info info;
    wgs_context_get_info(m->ctx, &info);
    if (info.adapter_count < 2 || local % info.adapter_count == 0) return WGS_OK;
    wgs_context_destroy(m->ctx);
    m->ctx = NULL;
    d.adapter_index = (uint32_t)local % info.adapter_count;
    return wgs_context_create(&d, &m->ctx);
}

wgs_result wgs_mpi_create(MPI_Comm comm, const wgs_context_desc *desc, wgs_mpi **out) {
    if (!out) return WGS_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    wgs_mpi *m = calloc(1, sizeof *m);
    wgs_result r = m ? WGS_OK : WGS_ERROR_OUT_OF_HOST_MEMORY;
    if (m && MPI_Comm_dup(comm, &m->comm) != MPI_SUCCESS) {
        free(m);
        return WGS_ERROR_INVALID_ARGUMENT; /* no communicator to agree over */
    }
    if (m) {
        MPI_Comm_rank(m->comm, &m->rank);
        MPI_Comm_size(m->comm, &m->size);
        if (desc) m->log = desc->log, m->log_user = desc->log_user;
        r = make_context(m, desc);
        MPI_User_function *fns[] = {[WGS_OP_ADD] = op_add, [WGS_OP_MIN] = op_min, [WGS_OP_MAX] = op_max,
                                    [WGS_OP_AND] = op_and, [WGS_OP_OR] = op_or,   [WGS_OP_XOR] = op_xor,
                                    [WGS_OP_ARGMIN] = op_argmin, [WGS_OP_ARGMAX] = op_argmax};
        for (int o = WGS_OP_ADD; o <= WGS_OP_ARGMAX; o++)
            if (fns[o]) MPI_Op_create(fns[o], 0, &m->ops[o]); /* not commutative: rank order kept */
    }
    /* A rank that could not allocate cannot take part in the agreement: it aborts the
     * job rather than leave the others waiting. */
    if (!m) MPI_Abort(comm, 1);
    r = wgs_mpi__agree(m, r);
    if (r != WGS_OK) {
        wgs_mpi_destroy(m);
        return r;
    }
    *out = m;
    return WGS_OK;
}

void wgs_mpi_destroy(wgs_mpi *m) {
    if (!m) return;
    for (int o = 0; o <= WGS_OP_ARGMAX; o++)
        if (m->ops[o] != MPI_OP_NULL && m->ops[o]) MPI_Op_free(&m->ops[o]);
    wgs_context_destroy(m->ctx);
    MPI_Comm_free(&m->comm);
    free(m);
}

wgs_context *wgs_mpi_context(wgs_mpi *m) { return m ? m->ctx : NULL; }
int wgs_mpi_rank(const wgs_mpi *m) { return m ? m->rank : -1; }
int wgs_mpi_size(const wgs_mpi *m) { return m ? m->size : 0; }
wgs_mpi_timing wgs_mpi_last_timing(const wgs_mpi *m) { return m ? m->timing : (wgs_mpi_timing){0, 0, 0}; }

/* ---- local steps ----------------------------------------------------------------------- */

/* A small result read back after the submitted work: `bytes` into `dst`. */
wgs_result wgs_mpi__read(wgs_mpi *m, WGPUBuffer b, uint64_t offset, void *dst, uint64_t bytes) {
    double t0 = wgs_mpi__now();
    wgs_result r = wgs_buffer_read(m->ctx, b, offset, dst, bytes);
    m->timing.transfer_s += wgs_mpi__now() - t0;
    return r;
}

wgs_result wgs_mpi__write(wgs_mpi *m, WGPUBuffer b, uint64_t offset, const void *src, uint64_t bytes) {
    double t0 = wgs_mpi__now();
    wgs_result r = bytes ? wgs_buffer_write(m->ctx, b, offset, src, bytes) : WGS_OK;
    /* The write is queued: the GPU's copies count as transfer time, so wait for them. */
    if (r == WGS_OK && bytes) r = wgs_wait(m->ctx);
    m->timing.transfer_s += wgs_mpi__now() - t0;
    return r;
}

wgs_result wgs_mpi__exchange(wgs_mpi *m, const void *send, const int *send_counts, const int *send_displs,
                             void *recv, const int *recv_counts, const int *recv_displs, int elem) {
    double t0 = wgs_mpi__now();
    MPI_Datatype t;
    int ok = MPI_Type_contiguous(elem, MPI_BYTE, &t) == MPI_SUCCESS;
    if (ok) {
        MPI_Type_commit(&t);
        ok = MPI_Alltoallv(send, send_counts, send_displs, t, recv, recv_counts, recv_displs, t, m->comm) ==
             MPI_SUCCESS;
        MPI_Type_free(&t);
    }
    m->timing.comm_s += wgs_mpi__now() - t0;
    return ok ? WGS_OK : WGS_ERROR_INVALID_ARGUMENT;
}

wgs_result wgs_mpi__submit_wait(wgs_mpi *m, WGPUCommandEncoder enc) {
    double t0 = wgs_mpi__now();
    wgs_result r = wgs_submit(m->ctx, enc);
    if (r == WGS_OK) r = wgs_wait(m->ctx);
    m->timing.local_s += wgs_mpi__now() - t0;
    return r;
}

/* Runs a reduce or count plan over n elements (n may be 0: the identity, count 0) and
 * reads its result (`bytes`: 4, or 8 for arg ops) back. */
static wgs_result run_reduce_plan(wgs_mpi *m, wgs_reduce_plan *plan, WGPUBuffer in, uint64_t off, uint64_t n,
                                  void *result, uint64_t bytes) {
    WGPUBuffer out = NULL;
    WGPUCommandEncoder enc = NULL;
    wgs_result r = wgs_buffer_create(m->ctx, 256, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, &out);
    if (r == WGS_OK) r = wgs_encoder_create(m->ctx, &enc);
    if (r == WGS_OK) {
        wgs_reduce_args a = {.input = in, .input_offset = off, .n = n, .output = out};
        r = wgs_reduce_encode(plan, enc, &a);
        wgs_result s = wgs_mpi__submit_wait(m, enc); /* the encoder is spent either way */
        if (r == WGS_OK) r = s;
    }
    if (r == WGS_OK) r = wgs_mpi__read(m, out, 0, result, bytes);
    wgs_buffer_release(m->ctx, out);
    return r;
}

static wgs_result local_reduce(wgs_mpi *m, const wgs_reduce_plan_desc *d, WGPUBuffer in, uint64_t off, uint64_t n,
                               void *result) {
    wgs_reduce_plan_desc pd = *d;
    if (pd.capacity < n) pd.capacity = n;
    if (!pd.capacity) pd.capacity = 1;
    wgs_reduce_plan *plan = NULL;
    wgs_result r = wgs_reduce_plan_create(m->ctx, &pd, &plan);
    int arg = pd.op == WGS_OP_ARGMIN || pd.op == WGS_OP_ARGMAX;
    if (r == WGS_OK) r = run_reduce_plan(m, plan, in, off, n, result, arg ? 8 : 4);
    wgs_reduce_plan_destroy(plan);
    return r;
}

/* The global element index of this rank's first element (and the global count). */
wgs_result wgs_mpi__global_offset(wgs_mpi *m, uint64_t n_local, uint64_t *first, uint64_t *total) {
    double t0 = wgs_mpi__now();
    unsigned long long mine = n_local, before = 0, all = 0;
    int ok = MPI_Exscan(&mine, &before, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, m->comm) == MPI_SUCCESS &&
             MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, m->comm) == MPI_SUCCESS;
    m->timing.comm_s += wgs_mpi__now() - t0;
    *first = m->rank ? before : 0; /* MPI leaves rank 0's Exscan result undefined */
    *total = all;
    return ok ? WGS_OK : WGS_ERROR_INVALID_ARGUMENT;
}

/* ---- the collectives ----------------------------------------------------------------- */

wgs_result wgs_mpi_scan(wgs_mpi *m, const wgs_scan_plan_desc *desc, WGPUBuffer input, uint64_t input_offset,
                        WGPUBuffer output, uint64_t output_offset, uint64_t n_local) {
    if (!m) return WGS_ERROR_INVALID_ARGUMENT;
    m->timing = (wgs_mpi_timing){0, 0, 0};
    wgs_scan_plan_desc d = desc ? *desc : (wgs_scan_plan_desc){0};
    if (!d.type) d.type = WGS_TYPE_U32;
    if (!d.op) d.op = WGS_OP_ADD;
    wgs_result r = !desc ? WGS_ERROR_INVALID_ARGUMENT : d.type == WGS_TYPE_F16 ? WGS_ERROR_UNSUPPORTED_TYPE : WGS_OK;
    if (r != WGS_OK)
        wgs_mpi__say(m, r, "rank %d: the distributed scan takes u32, i32 or f32%s", m->rank, desc ? "" : " (desc is NULL)");
    /* 1. The slice's total. */
    uint32_t total = 0;
    if (r == WGS_OK) {
        wgs_reduce_plan_desc rd = {.type = d.type, .op = d.op, .capacity = n_local, .label = "wgscan mpi scan total"};
        r = local_reduce(m, &rd, input, input_offset, n_local, &total);
    }
    const wgs_mpi_word same[] = {{d.type, "type"}, {d.op, "operator"}, {d.kind ? d.kind : WGS_SCAN_EXCLUSIVE, "kind"}};
    if ((r = wgs_mpi__agree_on(m, r, same, 3)) != WGS_OK) return r;
    /* 2. The carry: the totals of the ranks before, in rank order (an empty slice's total
     * is the identity, which the reduce of 0 elements gave). */
    uint32_t carry = 0;
    double t0 = wgs_mpi__now();
    int ok = MPI_Exscan(&total, &carry, 1, datatype(d.type), m->ops[d.op], m->comm) == MPI_SUCCESS;
    m->timing.comm_s += wgs_mpi__now() - t0;
    if ((r = wgs_mpi__agree(m, ok ? WGS_OK : WGS_ERROR_INVALID_ARGUMENT)) != WGS_OK) return r;
    /* 3. The local scan from the carry (rank 0 has none). */
    if (!d.capacity || d.capacity < n_local) d.capacity = n_local ? n_local : 1;
    wgs_scan_plan *plan = NULL;
    r = wgs_scan_plan_create(m->ctx, &d, &plan);
    WGPUCommandEncoder enc = NULL;
    if (r == WGS_OK && n_local) r = wgs_encoder_create(m->ctx, &enc);
    if (r == WGS_OK && n_local) {
        wgs_scan_args a = {.input = input, .input_offset = input_offset, .output = output,
                           .output_offset = output_offset, .n = n_local, .init_value = m->rank ? &carry : NULL};
        r = wgs_scan_encode(plan, enc, &a);
        wgs_result s = wgs_mpi__submit_wait(m, enc);
        if (r == WGS_OK) r = s;
    }
    wgs_scan_plan_destroy(plan);
    return wgs_mpi__agree(m, r);
}

wgs_result wgs_mpi_reduce(wgs_mpi *m, const wgs_reduce_plan_desc *desc, WGPUBuffer input, uint64_t input_offset,
                          uint64_t n_local, void *result) {
    if (!m) return WGS_ERROR_INVALID_ARGUMENT;
    m->timing = (wgs_mpi_timing){0, 0, 0};
    wgs_reduce_plan_desc d = desc ? *desc : (wgs_reduce_plan_desc){0};
    if (!d.type) d.type = WGS_TYPE_U32;
    if (!d.op) d.op = WGS_OP_ADD;
    int arg = d.op == WGS_OP_ARGMIN || d.op == WGS_OP_ARGMAX;
    uint32_t local[2] = {0, 0xFFFFFFFFu};
    wgs_result r = desc && result ? WGS_OK : WGS_ERROR_INVALID_ARGUMENT;
    uint64_t first = 0, total = 0;
    if (r == WGS_OK) r = local_reduce(m, &d, input, input_offset, n_local, local);
    const wgs_mpi_word same[] = {{d.type, "type"}, {d.op, "operator"}};
    if ((r = wgs_mpi__agree_on(m, r, same, 2)) != WGS_OK) return r;
    if ((r = wgs_mpi__agree(m, wgs_mpi__global_offset(m, n_local, &first, &total))) != WGS_OK) return r;
    if (arg && total >= 0xFFFFFFFFull) {
        wgs_mpi__say(m, WGS_ERROR_TOO_LARGE, "rank %d: arg ops need fewer than 2^32 elements in all%s", m->rank, "");
        return WGS_ERROR_TOO_LARGE; /* the same on every rank: total is global */
    }
    if (arg && local[1] != 0xFFFFFFFFu) local[1] += (uint32_t)first;
    uint32_t all[2] = {0, 0};
    double t0 = wgs_mpi__now();
    int ok;
    if (arg) {
        MPI_Datatype pair;
        MPI_Type_contiguous(2, MPI_UINT32_T, &pair);
        MPI_Type_commit(&pair);
        arg_type = d.type;
        ok = MPI_Allreduce(local, all, 1, pair, m->ops[d.op], m->comm) == MPI_SUCCESS;
        MPI_Type_free(&pair);
    } else {
        ok = MPI_Allreduce(local, all, 1, datatype(d.type), m->ops[d.op], m->comm) == MPI_SUCCESS;
    }
    m->timing.comm_s += wgs_mpi__now() - t0;
    if ((r = wgs_mpi__agree(m, ok ? WGS_OK : WGS_ERROR_INVALID_ARGUMENT)) != WGS_OK) return r;
    memcpy(result, all, arg ? 8 : 4);
    return WGS_OK;
}

wgs_result wgs_mpi_count(wgs_mpi *m, const wgs_count_plan_desc *desc, WGPUBuffer input, uint64_t input_offset,
                         uint64_t n_local, uint64_t *count) {
    if (!m) return WGS_ERROR_INVALID_ARGUMENT;
    m->timing = (wgs_mpi_timing){0, 0, 0};
    wgs_result r = desc && count ? WGS_OK : WGS_ERROR_INVALID_ARGUMENT;
    wgs_reduce_plan *plan = NULL;
    uint32_t local = 0;
    if (r == WGS_OK) {
        wgs_count_plan_desc d = *desc;
        if (d.capacity < n_local) d.capacity = n_local;
        if (!d.capacity) d.capacity = 1;
        r = wgs_count_plan_create(m->ctx, &d, &plan);
    }
    if (r == WGS_OK) r = run_reduce_plan(m, plan, input, input_offset, n_local, &local, 4);
    wgs_reduce_plan_destroy(plan);
    wgs_count_plan_desc cd = desc ? *desc : (wgs_count_plan_desc){0};
    const wgs_mpi_word same[] = {{cd.type ? cd.type : WGS_TYPE_U32, "type"},
                                 {cd.predicate.kind, "predicate"},
                                 {wgs_mpi__bits(cd.predicate.a), "predicate"},
                                 {wgs_mpi__bits(cd.predicate.b), "predicate"}};
    if ((r = wgs_mpi__agree_on(m, r, same, 4)) != WGS_OK) return r;
    unsigned long long mine = local, all = 0;
    double t0 = wgs_mpi__now();
    int ok = MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, m->comm) == MPI_SUCCESS;
    m->timing.comm_s += wgs_mpi__now() - t0;
    if ((r = wgs_mpi__agree(m, ok ? WGS_OK : WGS_ERROR_INVALID_ARGUMENT)) != WGS_OK) return r;
    *count = all;
    return WGS_OK;
}

wgs_result wgs_mpi_histogram(wgs_mpi *m, const wgs_histogram_plan_desc *desc, WGPUBuffer input,
                             uint64_t input_offset, uint64_t n_local, uint64_t *counts) {
    if (!m) return WGS_ERROR_INVALID_ARGUMENT;
    m->timing = (wgs_mpi_timing){0, 0, 0};
    wgs_result r = desc && counts && desc->bins ? WGS_OK : WGS_ERROR_INVALID_ARGUMENT;
    uint32_t bins = r == WGS_OK ? desc->bins : 1;
    uint32_t *local = calloc(bins, 4);
    unsigned long long *mine = calloc(bins, 8), *all = calloc(bins, 8);
    if (r == WGS_OK && (!local || !mine || !all)) r = WGS_ERROR_OUT_OF_HOST_MEMORY;
    wgs_histogram_plan *plan = NULL;
    WGPUBuffer out = NULL;
    WGPUCommandEncoder enc = NULL;
    if (r == WGS_OK) {
        wgs_histogram_plan_desc d = *desc;
        if (d.capacity < n_local) d.capacity = n_local;
        if (!d.capacity) d.capacity = 1;
        r = wgs_histogram_plan_create(m->ctx, &d, &plan);
    }
    if (r == WGS_OK)
        r = wgs_buffer_create(m->ctx, ((uint64_t)bins * 4 + 255) / 256 * 256,
                              WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, &out);
    if (r == WGS_OK) r = wgs_encoder_create(m->ctx, &enc);
    if (r == WGS_OK) {
        wgs_histogram_args a = {.input = input, .input_offset = input_offset, .n = n_local, .output = out};
        r = wgs_histogram_encode(plan, enc, &a);
        wgs_result s = wgs_mpi__submit_wait(m, enc);
        if (r == WGS_OK) r = s;
    }
    if (r == WGS_OK) r = wgs_mpi__read(m, out, 0, local, (uint64_t)bins * 4);
    wgs_buffer_release(m->ctx, out);
    wgs_histogram_plan_destroy(plan);
    /* The bins first of all: the reduction of the counts below takes their number. */
    wgs_histogram_plan_desc hd = desc ? *desc : (wgs_histogram_plan_desc){0};
    const wgs_mpi_word same[] = {{bins, "bins"},
                                 {hd.type ? hd.type : WGS_TYPE_U32, "type"},
                                 {wgs_mpi__bits(hd.lower), "lower"},
                                 {wgs_mpi__bits(hd.upper), "upper"}};
    if ((r = wgs_mpi__agree_on(m, r, same, 4)) == WGS_OK) {
        for (uint32_t b = 0; b < bins; b++) mine[b] = local[b];
        double t0 = wgs_mpi__now();
        int ok = MPI_Allreduce(mine, all, (int)bins, MPI_UNSIGNED_LONG_LONG, MPI_SUM, m->comm) == MPI_SUCCESS;
        m->timing.comm_s += wgs_mpi__now() - t0;
        r = wgs_mpi__agree(m, ok ? WGS_OK : WGS_ERROR_INVALID_ARGUMENT);
        if (r == WGS_OK)
            for (uint32_t b = 0; b < bins; b++) counts[b] = all[b];
    }
    free(local), free(mine), free(all);
    return r;
}
