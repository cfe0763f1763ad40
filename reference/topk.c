/* SPDX-License-Identifier: MIT */
/*
 * topk.c: the CPU reference of top-k: per row, every key as the sort's unsigned order
 * (ref_sort_order, inverted for the largest), a comparison sort of (order, index), the
 * first k taken; for input order those k sorted again by index. Written apart from the
 * GPU's radix select, so it can judge it.
 */
#include "reference.h"

#include <stdlib.h>
#include <string.h>

typedef struct ranked {
    uint32_t order, index;
} ranked;

static int by_order(const void *a, const void *b) {
    const ranked *x = a, *y = b;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int by_index(const void *a, const void *b) {
    const ranked *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

int ref_topk(wgs_type type, int largest, int sorted, const uint32_t *keys, const uint32_t *values,
             int index_payload, uint64_t n, uint32_t rows, uint32_t k, uint32_t *keys_out, uint32_t *values_out) {
    if (k == 0 || k > n) return -1;
    ranked *r = malloc((size_t)n * sizeof *r);
    if (!r) return -1;
    for (uint32_t row = 0; row < rows; row++) {
        const uint32_t *rk = keys + (size_t)row * n;
        for (uint64_t i = 0; i < n; i++) {
            uint32_t o = (uint32_t)ref_sort_order(type, &rk[i]);
            r[i].order = largest ? ~o : o;
            r[i].index = (uint32_t)i;
        }
        qsort(r, (size_t)n, sizeof *r, by_order);
        if (!sorted) qsort(r, k, sizeof *r, by_index);
        for (uint32_t j = 0; j < k; j++) {
            keys_out[(size_t)row * k + j] = rk[r[j].index];
            if (values_out)
                values_out[(size_t)row * k + j] = index_payload ? r[j].index : values[(size_t)row * n + r[j].index];
        }
    }
    free(r);
    return 0;
}
