// cub_common.cuh: what the CUB comparison programs share: failing on a CUDA error and
// the timing rule (CUDA events, the median of RUNS after WARMUP), the same as
// `wgscan bench` uses with timestamp queries.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                       \
    do {                                                                               \
        cudaError_t e_ = (x);                                                          \
        if (e_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            std::exit(1);                                                              \
        }                                                                              \
    } while (0)

static const int RUNS = 30, WARMUP = 5;
static const size_t POOL = 512ull << 20; // rotation pools: ten times an H200's L2

// Median time of run(i), i = 0 .. RUNS + WARMUP - 1, the first WARMUP left out.
template <typename F>
static double median_us(F run) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int i = 0; i < RUNS + WARMUP; i++) {
        CHECK(cudaEventRecord(a));
        run(i);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (i >= WARMUP) t.push_back(ms * 1000.0f);
    }
    std::sort(t.begin(), t.end());
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return RUNS % 2 ? t[RUNS / 2] : 0.5 * (t[RUNS / 2 - 1] + t[RUNS / 2]);
}
