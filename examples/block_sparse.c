/* SPDX-License-Identifier: MIT */
/*
 * block_sparse: the offsets of block-sparse attention, the first seed article's third
 * use of scan.
 *
 * Attention over a sequence cut into blocks keeps some (query block, key block) pairs:
 * here causal, a local window, a few global blocks and random extra blocks. The kernel
 * that computes attention wants the kept blocks as CSR: row_offsets[r] .. row_offsets[r+1]
 * index col_indices, the key blocks of query block r. On the GPU:
 *   select   FLAGGED over the mask, with a column-number pattern as the values and the
 *            flat index as payload: col_indices, the flat indices and nnz in one pass
 *   histogram of the flat indices, one bin per row: the row counts
 *   scan     exclusive over rows + 1 counts: row_offsets (row_offsets[rows] = nnz)
 * nnz is read back between the select and the histogram, as the host needs it to size
 * the attention kernel's work. Checked against a CPU CSR build.
 *
 *   block_sparse [--blocks B] [--masks M]
 */
#include "example.h"

static const char *example_name = "block_sparse";

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    uint64_t blocks = 512, masks_opt = 3;
    const example_option opts[] = {{"--blocks", &blocks, 1, 8192}, {"--masks", &masks_opt, 1, 1000}};
    int rc = example_options(argc, argv,
                             "usage: block_sparse [--blocks B (1..8192, default 512)] [--masks M (1..1000, default 3)]\n",
                             opts, 2);
    if (rc >= 0) return rc;
    const uint32_t b = (uint32_t)blocks;
    const int masks = (int)masks_opt;
    wgs_context *ctx = NULL;
    if (wgs_context_create(&(wgs_context_desc){0}, &ctx) != WGS_OK) {
        fprintf(stderr, "block_sparse: no WebGPU device\n");
        return 3;
    }
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    const uint64_t cells = (uint64_t)b * b;
    uint8_t *mask = malloc(cells + 4);
    uint32_t *cols = malloc(cells * 4), *got_cols = malloc(cells * 4), *want_cols = malloc(cells * 4);
    uint32_t *got_rows = malloc((b + 1) * 4), *want_rows = malloc((b + 1) * 4), *zero = calloc(b + 1, 4);
    if (!mask || !cols || !got_cols || !want_cols || !got_rows || !want_rows || !zero) return 2;
    for (uint64_t k = 0; k < cells; k++) cols[k] = (uint32_t)(k % b); /* the column of each cell */

    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer bmask, bcols, bcol_idx, bflat, bcount, bhist, brows;
    CHECKED(wgs_buffer_create(ctx, (cells + 3) / 4 * 4, usage, &bmask));
    CHECKED(wgs_buffer_create(ctx, cells * 4, usage, &bcols));
    CHECKED(wgs_buffer_create(ctx, cells * 4, usage, &bcol_idx));
    CHECKED(wgs_buffer_create(ctx, cells * 4, usage, &bflat));
    CHECKED(wgs_buffer_create(ctx, 4, usage, &bcount));
    CHECKED(wgs_buffer_create(ctx, (b + 1) * 4, usage, &bhist));
    CHECKED(wgs_buffer_create(ctx, (b + 1) * 4, usage, &brows));
    CHECKED(wgs_buffer_write(ctx, bcols, 0, cols, cells * 4));

    wgs_select_plan *sel = NULL;
    wgs_histogram_plan *hist = NULL;
    wgs_scan_plan *scan = NULL;
    CHECKED(wgs_select_plan_create(ctx, &(wgs_select_plan_desc){.type = WGS_TYPE_U32,
                                                                .mode = WGS_SELECT_FLAGGED,
                                                                .payload = WGS_PAYLOAD_INDEX,
                                                                .capacity = cells, .label = "block_sparse"}, &sel));
    CHECKED(wgs_histogram_plan_create(ctx, &(wgs_histogram_plan_desc){.type = WGS_TYPE_U32, .bins = b,
                                                                      .upper = (double)cells,
                                                                      .capacity = cells,
                                                                      .label = "block_sparse"}, &hist));
    CHECKED(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.type = WGS_TYPE_U32, .op = WGS_OP_ADD,
                                                            .kind = WGS_SCAN_EXCLUSIVE, .capacity = b + 1,
                                                            .label = "block_sparse"}, &scan));
    printf("block_sparse: %u x %u blocks on %s\n", b, b, info.device);
    int bad = 0;
    uint64_t seed = 777;
    for (int m = 0; m < masks && !bad; m++) {
        /* causal; window of 4 + m; 2 global blocks; ~1% random extra causal blocks */
        uint32_t window = 4 + (uint32_t)m;
        for (uint32_t r = 0; r < b; r++) {
            for (uint32_t c = 0; c < b; c++) {
                int keep = c <= r && (r - c < window || c < 2 || (example_random(&seed) >> 40) % 100 == 0);
                mask[(uint64_t)r * b + c] = (uint8_t)keep;
            }
        }
        memset(mask + cells, 0, 4);
        uint64_t nnz = 0;
        want_rows[0] = 0;
        for (uint32_t r = 0; r < b; r++) {
            for (uint32_t c = 0; c < b; c++)
                if (mask[(uint64_t)r * b + c]) want_cols[nnz++] = c;
            want_rows[r + 1] = (uint32_t)nnz;
        }
        CHECKED(wgs_buffer_write(ctx, bmask, 0, mask, (cells + 3) / 4 * 4));
        CHECKED(wgs_buffer_write(ctx, bhist, 0, zero, (b + 1) * 4)); /* bin b stays 0: the scan's total */
        WGPUCommandEncoder enc;
        CHECKED(wgs_encoder_create(ctx, &enc));
        wgs_select_args sa = {.input = bcols, .flags = bmask, .output = bcol_idx, .payload_out = bflat,
                              .count = bcount, .n = cells};
        CHECKED(wgs_select_encode(sel, enc, &sa));
        CHECKED(wgs_submit(ctx, enc));
        uint32_t got_nnz = 0;
        CHECKED(wgs_buffer_read(ctx, bcount, 0, &got_nnz, 4));
        CHECKED(wgs_encoder_create(ctx, &enc));
        wgs_histogram_args ha = {.input = bflat, .n = got_nnz, .output = bhist};
        CHECKED(wgs_histogram_encode(hist, enc, &ha));
        wgs_scan_args ca = {.input = bhist, .output = brows, .n = b + 1};
        CHECKED(wgs_scan_encode(scan, enc, &ca));
        CHECKED(wgs_submit(ctx, enc));
        CHECKED(wgs_buffer_read(ctx, brows, 0, got_rows, (b + 1) * 4));
        if (got_nnz) CHECKED(wgs_buffer_read(ctx, bcol_idx, 0, got_cols, (uint64_t)got_nnz * 4));
        bad = got_nnz != nnz || memcmp(got_rows, want_rows, (b + 1) * 4) != 0 ||
              memcmp(got_cols, want_cols, nnz * 4) != 0;
        printf("  mask %d: %llu of %llu blocks kept (%.2f%%), row_offsets[%u] = %u: %s\n", m,
               (unsigned long long)nnz, (unsigned long long)cells, 100.0 * (double)nnz / (double)cells, b,
               got_rows[b], bad ? "MISMATCH" : "equal to the CPU CSR");
    }
    wgs_select_plan_destroy(sel);
    wgs_histogram_plan_destroy(hist);
    wgs_scan_plan_destroy(scan);
    WGPUBuffer all[] = {bmask, bcols, bcol_idx, bflat, bcount, bhist, brows};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_context_destroy(ctx);
    free(mask), free(cols), free(got_cols), free(want_cols), free(got_rows), free(want_rows), free(zero);
    return bad;
}
