/* SPDX-License-Identifier: MIT */
/*
 * sampling: top-k sampling of a language model's next tokens, the use issue 36 names.
 *
 * A batch of rows (one per sequence) of logits over a vocabulary: each step keeps the
 * k largest logits of every row with their token ids (wgs_topk_encode, f32 keys,
 * payload INDEX, best first), all rows in one encode, and only rows x k values and ids
 * come back to the host, which draws a token per row from the softmax of its k (a
 * seeded draw, so runs repeat).
 *
 * The program checks every row: the k ids are distinct tokens of the row whose logits
 * are the ones returned, in descending order (equal logits by id), and no token left
 * out has a larger logit than the k-th (or an equal one with a smaller id).
 *
 *   sampling [--rows R] [--vocab V] [--k K] [--steps S] [--seed S]
 */
#include "example.h"

static const char *example_name = "sampling";

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 1 when row's k (logits got, ids) are its top k as stated above; mark: vocab bytes. */
static int check_row(const float *logits, uint64_t vocab, const float *got, const uint32_t *ids, uint32_t k,
                     unsigned char *mark) {
    memset(mark, 0, vocab);
    for (uint32_t j = 0; j < k; j++) {
        if (ids[j] >= vocab || mark[ids[j]] || memcmp(&logits[ids[j]], &got[j], 4) != 0) return 0;
        mark[ids[j]] = 1;
        if (j > 0 && !(got[j - 1] > got[j] || (got[j - 1] == got[j] && ids[j - 1] < ids[j]))) return 0;
    }
    const float kth = got[k - 1];
    for (uint64_t t = 0; t < vocab; t++)
        if (!mark[t] && (logits[t] > kth || (logits[t] == kth && t < ids[k - 1]))) return 0;
    return 1;
}

int main(int argc, char **argv) {
    uint64_t rows = 64, vocab = 131072, k = 50, steps = 3, seed = 1;
    const example_option opts[] = {{"--rows", &rows, 1, 4096}, {"--vocab", &vocab, 1, 1u << 20},
                                   {"--k", &k, 1, 1024}, {"--steps", &steps, 1, 100}, {"--seed", &seed, 1, ~0ull}};
    int rc = example_options(argc, argv,
                             "usage: sampling [--rows R (default 64)] [--vocab V (default 131072)] [--k K (1..1024, "
                             "default 50)] [--steps S (default 3)] [--seed S]\n",
                             opts, 5);
    if (rc >= 0) return rc;
    if (k > vocab) return fprintf(stderr, "sampling: --k %llu is past --vocab\n", (unsigned long long)k), 2;
    wgs_context *ctx = NULL;
    if (wgs_context_create(&(wgs_context_desc){0}, &ctx) != WGS_OK) {
        fprintf(stderr, "sampling: no WebGPU device\n");
        return 3;
    }
    const uint64_t n = rows * vocab, out = rows * k;
    float *logits = malloc(n * 4), *best = malloc(out * 4);
    uint32_t *ids = malloc(out * 4);
    unsigned char *mark = malloc(vocab);
    if (!logits || !best || !ids || !mark) return 2;
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer blogits, bbest, bids;
    CHECKED(wgs_buffer_create(ctx, n * 4, usage, &blogits));
    CHECKED(wgs_buffer_create(ctx, out * 4, usage, &bbest));
    CHECKED(wgs_buffer_create(ctx, out * 4, usage, &bids));
    wgs_topk_plan *plan = NULL;
    CHECKED(wgs_topk_plan_create(ctx, &(wgs_topk_plan_desc){.type = WGS_TYPE_F32, .payload = WGS_PAYLOAD_INDEX,
                                                           .capacity = vocab, .k_capacity = (uint32_t)k,
                                                           .row_capacity = (uint32_t)rows},
                                 &plan));
    uint64_t state = seed * 0x9E3779B97F4A7C15ull | 1;
    int bad_rows = 0;
    for (uint64_t step = 0; step < steps; step++) {
        /* Logits as a model's: mostly small, a few tokens far ahead, and repeats (ties). */
        for (uint64_t i = 0; i < n; i++) {
            uint64_t r = example_random(&state);
            float x = (float)((double)(r >> 40) / (double)(1ull << 24) * 8.0 - 4.0);
            if ((r & 0xFF) == 0) x += 10.0f;
            if ((r & 0xF00) == 0) x = (float)(int)x; /* whole numbers repeat */
            logits[i] = x;
        }
        CHECKED(wgs_buffer_write(ctx, blogits, 0, logits, n * 4));
        double t0 = example_now();
        WGPUCommandEncoder enc;
        CHECKED(wgs_encoder_create(ctx, &enc));
        CHECKED(wgs_topk_encode(plan, enc, &(wgs_topk_args){.keys_in = blogits, .keys_out = bbest,
                                                            .values_out = bids, .n = vocab, .rows = (uint32_t)rows,
                                                            .k = (uint32_t)k}));
        CHECKED(wgs_submit(ctx, enc));
        CHECKED(wgs_buffer_read(ctx, bbest, 0, best, out * 4));
        CHECKED(wgs_buffer_read(ctx, bids, 0, ids, out * 4));
        double ms = (example_now() - t0) * 1e3;
        uint32_t first_token = 0;
        for (uint64_t r = 0; r < rows; r++) {
            const float *b = best + r * k;
            if (!check_row(logits + r * vocab, vocab, b, ids + r * k, (uint32_t)k, mark)) {
                if (!bad_rows) fprintf(stderr, "sampling: step %llu row %llu is not its top %llu\n",
                                       (unsigned long long)step, (unsigned long long)r, (unsigned long long)k);
                bad_rows++;
                continue;
            }
            /* Softmax over the k (shifted by the largest) and one draw. */
            double sum = 0, u = (double)(example_random(&state) >> 11) / (double)(1ull << 53);
            for (uint64_t j = 0; j < k; j++) sum += exp((double)b[j] - (double)b[0]);
            uint64_t j = 0;
            for (double acc = exp(0.0) / sum; acc < u && j + 1 < k; acc += exp((double)b[j] - (double)b[0]) / sum) j++;
            if (r == 0) first_token = ids[r * k + j];
        }
        printf("sampling: step %llu, %llu rows x %llu logits, top %llu: %.2f ms (encode to read-back); row 0 "
               "drew token %u\n",
               (unsigned long long)step, (unsigned long long)rows, (unsigned long long)vocab, (unsigned long long)k,
               ms, first_token);
    }
    wgs_topk_plan_destroy(plan);
    wgs_buffer_release(ctx, blogits);
    wgs_buffer_release(ctx, bbest);
    wgs_buffer_release(ctx, bids);
    wgs_context_destroy(ctx);
    free(logits), free(best), free(ids), free(mark);
    if (bad_rows) {
        fprintf(stderr, "sampling: %d rows wrong\n", bad_rows);
        return 1;
    }
    printf("sampling: every row's top %llu checked\n", (unsigned long long)k);
    return 0;
}
