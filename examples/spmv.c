/* SPDX-License-Identifier: MIT */
/*
 * spmv: a sparse matrix times a vector, y = A x, with A in CSR form (row_offsets,
 * col_indices, values): the segmented reduce's textbook use.
 *
 * In one command encoder, nothing read back in between:
 *   products  a small kernel of the program's own (example_kernel, example.h):
 *             p[j] = values[j] * x[col_indices[j]] for every stored entry j
 *   rows      wgs_segmented_reduce_encode, f32 add over the segments that row_offsets
 *             gives: y[r] = the sum of row r's products; an empty row gives 0
 * Rows have random lengths around --mean-row, with empty rows, rows of one entry and
 * a few long rows that span many of the reduce's tiles mixed in, so every kind of
 * segment the reduce distinguishes occurs. The GPU's y is checked against the CPU in
 * double precision, row by row, with the bound of f32 arithmetic as WGSL defines it
 * (each operation rounds to one of the two floats nearest the exact result, so its
 * relative error is below u = 2^-23): each product is rounded once, and a sum of L
 * terms in any order is within gamma(L - 1) = (L - 1) u / (1 - (L - 1) u) of the sum of their magnitudes, so
 * |y_gpu - y| <= (u + gamma(L - 1) (1 + u)) * sum |values[j] * x[col[j]]|. Empty rows
 * must be exactly 0.
 *
 *   spmv [--rows R] [--mean-row M] [--long-rows K] [--repeat N] [--seed S]
 */
#include "example.h"

static const char *example_name = "spmv";

#include <math.h>
#include <stdlib.h>

/* p[j] = values[j] * x[cols[j]]; NNZ and the grid-stride are written into the source. */
static const char *products_wgsl =
    "@group(0) @binding(0) var<storage, read> values: array<f32>;\n"
    "@group(0) @binding(1) var<storage, read> cols: array<u32>;\n"
    "@group(0) @binding(2) var<storage, read> x: array<f32>;\n"
    "@group(0) @binding(3) var<storage, read_write> p: array<f32>;\n"
    "const NNZ: u32 = %uu;\n"
    "const STRIDE: u32 = %uu;\n"
    "@compute @workgroup_size(256)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3<u32>) {\n"
    "    for (var j = gid.x; j < NNZ; j += STRIDE) {\n"
    "        p[j] = values[j] * x[cols[j]];\n"
    "    }\n"
    "}\n";

/* A uniform float in [-1, 1). */
static float random_unit(uint64_t *s) { return (float)((example_random(s) >> 40) * 0x1p-23) - 1.0f; }

int main(int argc, char **argv) {
    uint64_t rows_opt = 100000, mean_opt = 16, long_opt = 3, repeat_opt = 3, seed = 7;
    const example_option opts[] = {{"--rows", &rows_opt, 1, 1u << 24},
                                   {"--mean-row", &mean_opt, 1, 4096},
                                   {"--long-rows", &long_opt, 0, 64},
                                   {"--repeat", &repeat_opt, 1, 1000},
                                   {"--seed", &seed, 1, UINT64_MAX}};
    int rc = example_options(argc, argv,
                             "usage: spmv [--rows R (default 100000)] [--mean-row M (entries a row, default 16)]\n"
                             "            [--long-rows K (rows of about 2^18 entries, default 3)] [--repeat N]\n"
                             "            [--seed S]\n",
                             opts, 5);
    if (rc >= 0) return rc;
    const uint32_t rows = (uint32_t)rows_opt, cols = rows; /* a square matrix */
    uint64_t s = seed;

    /* Row lengths: uniform in [0, 2M] for most rows, every 97th empty, every 89th of one
     * entry, and K long rows at random places. */
    uint32_t *offsets = malloc(((size_t)rows + 1) * 4);
    if (!offsets) return 2;
    uint64_t nnz = 0;
    for (uint32_t r = 0; r < rows; r++) {
        uint64_t len = example_random(&s) % (2 * mean_opt + 1);
        if (r % 97 == 0) len = 0;
        if (r % 89 == 0) len = 1;
        offsets[r] = (uint32_t)nnz;
        nnz += len;
    }
    offsets[rows] = (uint32_t)nnz;
    for (uint64_t k = 0; k < long_opt; k++) { /* lengthen row r by 2^18: shift the offsets after it */
        uint32_t r = (uint32_t)(example_random(&s) % rows);
        for (uint32_t q = r + 1; q <= rows; q++) offsets[q] += 1u << 18;
        nnz += 1u << 18;
    }
    if (nnz >= (1ull << 31)) return fprintf(stderr, "spmv: %llu entries: too many\n", (unsigned long long)nnz), 2;
    const uint32_t n = (uint32_t)nnz;
    float *values = malloc((size_t)n * 4 + 4), *x = malloc((size_t)cols * 4), *y = malloc((size_t)rows * 4);
    uint32_t *col = malloc((size_t)n * 4 + 4);
    if (!values || !x || !y || !col) return 2;
    for (uint32_t j = 0; j < n; j++) {
        values[j] = random_unit(&s);
        col[j] = (uint32_t)(example_random(&s) % cols);
    }
    for (uint32_t c = 0; c < cols; c++) x[c] = random_unit(&s);

    wgs_context *ctx = NULL;
    if (wgs_context_create(&(wgs_context_desc){0}, &ctx) != WGS_OK) {
        fprintf(stderr, "spmv: no WebGPU device\n");
        return 3;
    }
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer bvalues, bcols, bx, bp, boffsets, by, bstatus;
    CHECKED(wgs_buffer_create(ctx, (uint64_t)n * 4 + 4, usage, &bvalues));
    CHECKED(wgs_buffer_create(ctx, (uint64_t)n * 4 + 4, usage, &bcols));
    CHECKED(wgs_buffer_create(ctx, (uint64_t)cols * 4, usage, &bx));
    CHECKED(wgs_buffer_create(ctx, (uint64_t)n * 4 + 4, usage, &bp));
    CHECKED(wgs_buffer_create(ctx, ((uint64_t)rows + 1) * 4, usage, &boffsets));
    CHECKED(wgs_buffer_create(ctx, (uint64_t)rows * 4, usage, &by));
    CHECKED(wgs_buffer_create(ctx, 4, usage, &bstatus));
    CHECKED(wgs_buffer_write(ctx, bvalues, 0, values, (uint64_t)n * 4));
    CHECKED(wgs_buffer_write(ctx, bcols, 0, col, (uint64_t)n * 4));
    CHECKED(wgs_buffer_write(ctx, bx, 0, x, (uint64_t)cols * 4));
    CHECKED(wgs_buffer_write(ctx, boffsets, 0, offsets, ((uint64_t)rows + 1) * 4));

    example_kernel products = {0};
    uint32_t groups = (n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096;
    groups = groups ? groups : 1;
    char source[2048];
    snprintf(source, sizeof source, products_wgsl, n, groups * 256u);
    if (!example_kernel_create(ctx, &products, "spmv products", source, (WGPUBuffer[]){bvalues, bcols, bx, bp}, 4,
                               groups)) {
        fprintf(stderr, "spmv: the products kernel could not be created: %s\n", wgs_context_last_error(ctx));
        return 3;
    }
    wgs_segmented_reduce_plan *plan = NULL;
    CHECKED(wgs_segmented_reduce_plan_create(
        ctx, &(wgs_segmented_reduce_plan_desc){.type = WGS_TYPE_F32, .op = WGS_OP_ADD, .capacity = n ? n : 1,
                                               .segment_capacity = rows, .label = "spmv"},
        &plan));
    wgs_timer *timer = NULL;
    if (info.has_timestamp_query) CHECKED(wgs_timer_create(ctx, 2, &timer));
    WGPUQuerySet qs = timer ? wgs_timer_query_set(timer) : NULL;
    printf("spmv: %u x %u, %u entries (mean %.1f a row, %llu long rows) on %s\n", rows, cols, n,
           (double)n / rows, (unsigned long long)long_opt, info.device);

    double best[2] = {1e30, 1e30};
    uint32_t status = 0;
    for (uint64_t k = 0; k < repeat_opt; k++) {
        WGPUCommandEncoder enc;
        CHECKED(wgs_encoder_create(ctx, &enc));
        example_kernel_encode(&products, enc, qs, 0);
        wgs_segmented_reduce_args a = {.input = bp, .n = n, .offsets = boffsets, .n_segments = rows, .output = by,
                                       .status = bstatus, .timestamp_query_set = qs, .timestamp_begin_index = 2,
                                       .timestamp_end_index = 3};
        CHECKED(wgs_segmented_reduce_encode(plan, enc, &a));
        if (timer) CHECKED(wgs_timer_resolve(timer, enc));
        CHECKED(wgs_submit(ctx, enc));
        if (timer) {
            double sec[2];
            CHECKED(wgs_timer_read(timer, sec, 2));
            for (int i = 0; i < 2; i++) best[i] = sec[i] < best[i] ? sec[i] : best[i];
        }
    }
    CHECKED(wgs_buffer_read(ctx, bstatus, 0, &status, 4));
    CHECKED(wgs_buffer_read(ctx, by, 0, y, (uint64_t)rows * 4));
    if (status != 0) {
        fprintf(stderr, "spmv: the reduce reported status %u for offsets that are in order\n", status);
        return 1;
    }

    /* The CPU in double precision, with the bound above row by row. */
    uint32_t bad = 0, worst_row = 0;
    double worst = 0.0; /* the largest error as a fraction of its bound */
    for (uint32_t r = 0; r < rows; r++) {
        double sum = 0.0, mag = 0.0;
        uint32_t len = offsets[r + 1] - offsets[r];
        for (uint32_t j = offsets[r]; j < offsets[r + 1]; j++) {
            double t = (double)values[j] * (double)x[col[j]];
            sum += t;
            mag += fabs(t);
        }
        const double u = 0x1p-23, k = len ? len - 1.0 : 0.0;
        double bound = (u + k * u / (1.0 - k * u) * (1.0 + u)) * mag, err = fabs((double)y[r] - sum);
        int ok = len == 0 ? y[r] == 0.0f : err <= bound;
        if (len && bound > 0 && err / bound > worst) worst = err / bound, worst_row = r;
        if (!ok && bad++ < 5)
            fprintf(stderr, "spmv: row %u (%u entries): GPU %.9g, CPU %.17g, error %.3g > bound %.3g\n", r, len,
                    (double)y[r], sum, err, bound);
    }
    if (timer)
        printf("  GPU time, best of %llu: products %.3f ms, segmented reduce %.3f ms (%.1f GB/s of products read)\n",
               (unsigned long long)repeat_opt, best[0] * 1e3, best[1] * 1e3, n * 4.0 / best[1] * 1e-9);
    if (bad) {
        fprintf(stderr, "spmv: %u of %u rows wrong\n", bad, rows);
        return 1;
    }
    printf("  verified: every row within its f32 summation bound of the double-precision product (worst: %.2f of "
           "its bound, row %u); empty rows exactly 0\n",
           worst, worst_row);

    wgs_timer_destroy(timer);
    wgs_segmented_reduce_plan_destroy(plan);
    example_kernel_destroy(&products);
    WGPUBuffer bufs[] = {bvalues, bcols, bx, bp, boffsets, by, bstatus};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) wgs_buffer_release(ctx, bufs[i]);
    wgs_context_destroy(ctx);
    free(offsets), free(values), free(x), free(y), free(col);
    return 0;
}
