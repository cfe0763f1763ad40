/* SPDX-License-Identifier: MIT */
/*
 * segmented_sort.c: the CPU reference of the segmented sort: each segment on its own,
 * its keys mapped by ref_sort_order (descending reversed) and sorted with their input
 * index by a comparison sort, which is stable by construction. Places in no segment
 * are left as the outputs held them.
 */
#include "reference.h"

#include <stdlib.h>
#include <string.h>

typedef struct entry {
    uint64_t order;
    uint64_t index;
} entry;

static int by_order_then_index(const void *a, const void *b) {
    const entry *x = a, *y = b;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

int ref_segmented_sort(wgs_type type, int descending, const void *keys, const void *values, uint32_t value_bytes,
                       int index_payload, const uint32_t *begins, const uint32_t *ends, uint64_t n,
                       uint64_t n_segments, void *keys_out, void *values_out) {
    const size_t kb = (type == WGS_TYPE_U64 || type == WGS_TYPE_I64) ? 8 : 4;
    const size_t vb = index_payload ? 4 : value_bytes;
    for (uint64_t s = 0; s < n_segments; s++) {
        uint64_t b = begins[s], e = ends ? ends[s] : begins[s + 1];
        if (b > e || e > n || (s + 1 < n_segments && e > begins[s + 1])) return -1;
    }
    entry *t = malloc((n ? n : 1) * sizeof *t);
    if (!t) return -1;
    for (uint64_t s = 0; s < n_segments; s++) {
        uint64_t b = begins[s], e = ends ? ends[s] : begins[s + 1], len = e - b;
        for (uint64_t i = 0; i < len; i++) {
            uint64_t o = ref_sort_order(type, (const char *)keys + (b + i) * kb);
            if (descending) o = (kb == 8 ? ~0ull : 0xFFFFFFFFull) - o;
            t[i].order = o;
            t[i].index = b + i;
        }
        qsort(t, (size_t)len, sizeof *t, by_order_then_index);
        for (uint64_t i = 0; i < len; i++) {
            memcpy((char *)keys_out + (b + i) * kb, (const char *)keys + t[i].index * kb, kb);
            if (index_payload) {
                uint32_t ix = (uint32_t)t[i].index;
                memcpy((char *)values_out + (b + i) * 4, &ix, 4);
            } else if (vb) {
                memcpy((char *)values_out + (b + i) * vb, (const char *)values + t[i].index * vb, vb);
            }
        }
    }
    free(t);
    return 0;
}
