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
 * Then the softmax normalisers of every query row, as a flash-attention style kernel
 * wants them: over the row's kept blocks, with a block score s (here a hash of the
 * block's flat index, a multiple of 2^-21 in [-4, 4), so the CPU has the same numbers),
 *   scores   a small kernel of the program's own (example_kernel): s per kept block
 *   max      wgs_segmented_reduce, f32 max over row_offsets: m_r = max s
 *   exp      another: e = exp(s - m_r), the row found from the flat index
 *   sum      wgs_segmented_reduce, f32 add: l_r = sum e
 * Both kernels read nnz from the select's count buffer, not from the host. m_r must
 * equal the CPU's exactly (s - m is then exact too); l_r is checked against double
 * precision with the bound of WGSL's f32: exp within 3 + 2|x| ulp (19 for |x| < 8),
 * each add rounded to a neighbour (u = 2^-23), so |l - l_exact| <= (19 u + gamma(L - 1)
 * (1 + 19 u)) l_exact with gamma(k) = k u / (1 - k u).
 *
 *   block_sparse [--blocks B] [--masks M]
 */
#include "example.h"

static const char *example_name = "block_sparse";

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The block score of a flat index, the same bits on both processors. */
static float block_score(uint32_t flat) {
    uint32_t h = flat * 0x9E3779B1u;
    h ^= h >> 15;
    return (float)(h >> 8) * 0x1p-21f - 4.0f;
}

/* s[j] for the kept blocks j < count; B and the grid-stride are written into the source. */
static const char *scores_wgsl =
    "@group(0) @binding(0) var<storage, read> flat: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read> count: array<u32>;\n"
    "@group(0) @binding(2) var<storage, read_write> score: array<f32>;\n"
    "const STRIDE: u32 = %uu;\n"
    "@compute @workgroup_size(256)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3<u32>) {\n"
    "    for (var j = gid.x; j < count[0]; j += STRIDE) {\n"
    "        var h = flat[j] * 0x9E3779B1u;\n"
    "        h ^= h >> 15u;\n"
    "        score[j] = f32(h >> 8u) * 0x1p-21f - 4.0f;\n"
    "    }\n"
    "}\n";

/* e[j] = exp(s[j] - m[row of j]) for j < count. */
static const char *exp_wgsl =
    "@group(0) @binding(0) var<storage, read> flat: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read> count: array<u32>;\n"
    "@group(0) @binding(2) var<storage, read> score: array<f32>;\n"
    "@group(0) @binding(3) var<storage, read> row_max: array<f32>;\n"
    "@group(0) @binding(4) var<storage, read_write> e: array<f32>;\n"
    "const B: u32 = %uu;\n"
    "const STRIDE: u32 = %uu;\n"
    "@compute @workgroup_size(256)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3<u32>) {\n"
    "    for (var j = gid.x; j < count[0]; j += STRIDE) {\n"
    "        e[j] = exp(score[j] - row_max[flat[j] / B]);\n"
    "    }\n"
    "}\n";

/* Rows whose normalisers differ from the CPU's (m exactly, l within the bound above). */
static uint32_t check_normalisers(const uint32_t *rows, const uint32_t *cols, uint32_t b, const float *m,
                                  const float *l, double *worst) {
    const double u = 0x1p-23, exp_err = 19 * u;
    uint32_t bad = 0;
    for (uint32_t r = 0; r < b; r++) {
        float want_m = -INFINITY;
        for (uint32_t j = rows[r]; j < rows[r + 1]; j++) {
            float s = block_score(r * b + cols[j]);
            want_m = s > want_m ? s : want_m;
        }
        double sum = 0.0, k = rows[r + 1] - rows[r] - 1.0;
        for (uint32_t j = rows[r]; j < rows[r + 1]; j++) sum += exp((double)(block_score(r * b + cols[j]) - want_m));
        double bound = (exp_err + k * u / (1.0 - k * u) * (1.0 + exp_err)) * sum, err = fabs((double)l[r] - sum);
        if (bound > 0 && err / bound > *worst) *worst = err / bound;
        if ((m[r] != want_m || !(err <= bound)) && bad++ < 5)
            fprintf(stderr, "block_sparse: row %u: m %.9g (CPU %.9g), l %.9g (CPU %.17g, bound %.3g)\n", r,
                    (double)m[r], (double)want_m, (double)l[r], sum, bound);
    }
    return bad;
}

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
    WGPUBuffer bscore, be, bmax, bsum;
    CHECKED(wgs_buffer_create(ctx, cells * 4, usage, &bscore));
    CHECKED(wgs_buffer_create(ctx, cells * 4, usage, &be));
    CHECKED(wgs_buffer_create(ctx, (uint64_t)b * 4, usage, &bmax));
    CHECKED(wgs_buffer_create(ctx, (uint64_t)b * 4, usage, &bsum));
    float *got_m = malloc((size_t)b * 4), *got_l = malloc((size_t)b * 4);
    if (!got_m || !got_l) return 2;
    example_kernel scores = {0}, exps = {0};
    uint32_t groups = (uint32_t)((cells + 255) / 256 < 4096 ? (cells + 255) / 256 : 4096);
    char source[2048];
    snprintf(source, sizeof source, scores_wgsl, groups * 256u);
    int made = example_kernel_create(ctx, &scores, "block_sparse scores", source,
                                     (WGPUBuffer[]){bflat, bcount, bscore}, 3, groups);
    snprintf(source, sizeof source, exp_wgsl, b, groups * 256u);
    made = made && example_kernel_create(ctx, &exps, "block_sparse exp", source,
                                         (WGPUBuffer[]){bflat, bcount, bscore, bmax, be}, 5, groups);
    if (!made) {
        fprintf(stderr, "block_sparse: a kernel could not be created: %s\n", wgs_context_last_error(ctx));
        return 3;
    }

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
    wgs_segmented_reduce_plan *row_max = NULL, *row_sum = NULL;
    CHECKED(wgs_segmented_reduce_plan_create(ctx, &(wgs_segmented_reduce_plan_desc){.type = WGS_TYPE_F32,
                                                                                    .op = WGS_OP_MAX,
                                                                                    .capacity = cells,
                                                                                    .segment_capacity = b,
                                                                                    .label = "block_sparse"},
                                             &row_max));
    CHECKED(wgs_segmented_reduce_plan_create(ctx, &(wgs_segmented_reduce_plan_desc){.type = WGS_TYPE_F32,
                                                                                    .op = WGS_OP_ADD,
                                                                                    .capacity = cells,
                                                                                    .segment_capacity = b,
                                                                                    .label = "block_sparse"},
                                             &row_sum));
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
        example_kernel_encode(&scores, enc, NULL, 0);
        wgs_segmented_reduce_args ma = {.input = bscore, .n = got_nnz, .offsets = brows, .n_segments = b,
                                        .output = bmax};
        CHECKED(wgs_segmented_reduce_encode(row_max, enc, &ma));
        example_kernel_encode(&exps, enc, NULL, 0);
        wgs_segmented_reduce_args la = {.input = be, .n = got_nnz, .offsets = brows, .n_segments = b,
                                        .output = bsum};
        CHECKED(wgs_segmented_reduce_encode(row_sum, enc, &la));
        CHECKED(wgs_submit(ctx, enc));
        CHECKED(wgs_buffer_read(ctx, bmax, 0, got_m, (uint64_t)b * 4));
        CHECKED(wgs_buffer_read(ctx, bsum, 0, got_l, (uint64_t)b * 4));
        CHECKED(wgs_buffer_read(ctx, brows, 0, got_rows, (b + 1) * 4));
        if (got_nnz) CHECKED(wgs_buffer_read(ctx, bcol_idx, 0, got_cols, (uint64_t)got_nnz * 4));
        bad = got_nnz != nnz || memcmp(got_rows, want_rows, (b + 1) * 4) != 0 ||
              memcmp(got_cols, want_cols, nnz * 4) != 0;
        printf("  mask %d: %llu of %llu blocks kept (%.2f%%), row_offsets[%u] = %u: %s\n", m,
               (unsigned long long)nnz, (unsigned long long)cells, 100.0 * (double)nnz / (double)cells, b,
               got_rows[b], bad ? "MISMATCH" : "equal to the CPU CSR");
        double worst = 0.0;
        uint32_t wrong = bad ? 0 : check_normalisers(want_rows, want_cols, b, got_m, got_l, &worst);
        if (!bad)
            printf("    softmax normalisers of %u rows: %s (sums within %.2f of their bound)\n", b,
                   wrong ? "MISMATCH" : "maxima equal to the CPU's, sums within bound", worst);
        bad |= wrong != 0;
    }
    wgs_select_plan_destroy(sel);
    wgs_histogram_plan_destroy(hist);
    wgs_scan_plan_destroy(scan);
    wgs_segmented_reduce_plan_destroy(row_max);
    wgs_segmented_reduce_plan_destroy(row_sum);
    example_kernel_destroy(&scores);
    example_kernel_destroy(&exps);
    free(got_m), free(got_l);
    WGPUBuffer all[] = {bmask, bcols, bcol_idx, bflat, bcount, bhist, brows, bscore, be, bmax, bsum};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_context_destroy(ctx);
    free(mask), free(cols), free(got_cols), free(want_cols), free(got_rows), free(want_rows), free(zero);
    return bad;
}
