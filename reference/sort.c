/* SPDX-License-Identifier: MIT */
/*
 * sort.c: the CPU reference of the sort: every key mapped to an unsigned 64-bit number
 * that orders as wgscan.h's "Sort" states (bit range applied, descending reversed),
 * then a comparison sort of (number, input index), which is stable by construction.
 * Written independently of the GPU's radix passes, so it can judge them.
 */
#include "reference.h"

#include <stdlib.h>
#include <string.h>

typedef struct keyed {
    uint64_t order;
    uint64_t index;
} keyed;

static int by_order(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

uint64_t ref_sort_order(wgs_type type, const void *key) {
    uint64_t v = 0;
    uint32_t w = 0;
    switch (type) {
    case WGS_TYPE_U64: memcpy(&v, key, 8); return v;
    case WGS_TYPE_I64: memcpy(&v, key, 8); return v ^ (1ull << 63);
    case WGS_TYPE_I32: memcpy(&w, key, 4); return w ^ 0x80000000u;
    case WGS_TYPE_F32: /* negative: all bits flipped; positive: the sign bit set */
        memcpy(&w, key, 4);
        return (w & 0x80000000u) ? (uint32_t)~w : (w | 0x80000000u);
    default: memcpy(&w, key, 4); return w;
    }
}

int ref_sort(wgs_type type, int descending, uint32_t begin_bit, uint32_t end_bit, const void *keys,
             const void *values, uint32_t value_bytes, int index_payload, uint64_t n, void *keys_out,
             void *values_out) {
    size_t kb = (type == WGS_TYPE_U64 || type == WGS_TYPE_I64) ? 8 : 4;
    uint32_t width = (uint32_t)kb * 8;
    if (begin_bit == 0 && end_bit == 0) end_bit = width;
    keyed *k = malloc((n ? n : 1) * sizeof *k);
    if (!k) return -1;
    uint64_t mask = end_bit - begin_bit >= 64 ? ~0ull : ((1ull << (end_bit - begin_bit)) - 1);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t o = (ref_sort_order(type, (const char *)keys + i * kb) >> begin_bit) & mask;
        k[i].order = descending ? mask - o : o;
        k[i].index = i;
    }
    qsort(k, (size_t)n, sizeof *k, by_order);
    /* Gather into fresh memory first: the outputs may be the inputs. */
    char *ko = malloc((n ? n : 1) * kb), *vo = NULL;
    size_t vb = index_payload ? 4 : value_bytes;
    if (vb) vo = malloc((n ? n : 1) * vb);
    if (!ko || (vb && !vo)) {
        free(k), free(ko), free(vo);
        return -1;
    }
    for (uint64_t i = 0; i < n; i++) {
        memcpy(ko + i * kb, (const char *)keys + k[i].index * kb, kb);
        if (index_payload) {
            uint32_t idx = (uint32_t)k[i].index;
            memcpy(vo + i * 4, &idx, 4);
        } else if (vb) {
            memcpy(vo + i * vb, (const char *)values + k[i].index * vb, vb);
        }
    }
    memcpy(keys_out, ko, (size_t)(n * kb));
    if (vb && values_out) memcpy(values_out, vo, (size_t)(n * vb));
    free(k), free(ko), free(vo);
    return 0;
}
