/* SPDX-License-Identifier: MIT */
/* scan_check.h: runs one GPU scan through the encode API and checks it. */
#ifndef WGS_SCAN_CHECK_H
#define WGS_SCAN_CHECK_H

#include "wgscan.h"

#include <stdint.h>

typedef struct scan_case {
    uint64_t n;
    uint64_t in_offset, out_offset; /* bytes */
    int in_place;                   /* input buffer = output buffer, same offset */
    uint64_t seed;
    int carry; /* the carry-in: 0 none, 1 init_value, 2 init_buffer (at offset 256) */
} scan_case;

/* Uploads random data, encodes with `plan`, submits, reads back and compares with the
 * CPU reference. Also checks that bytes outside the output range were not written.
 * Returns 1 when correct; failures are reported through test_fail. */
int scan_check(wgs_context *ctx, wgs_scan_plan *plan, const wgs_scan_plan_desc *desc,
               const scan_case *c);

/* Sizes at every boundary of the multi-level algorithm for tile size t, up to `max`. */
int scan_boundary_sizes(uint32_t t, uint64_t max, uint64_t *sizes, int cap);

#endif
