/* SPDX-License-Identifier: MIT */
// cub_scan_bench.cu: NVIDIA CUB's DeviceScan on the same sizes and the same data
// layout as `wgscan bench`, for a like-for-like comparison on NVIDIA GPUs. Times each
// run with CUDA events (median of RUNS after WARMUP), rotates inputs and outputs through
// 512 MiB pools as wgscan does, and times a device-to-device copy of the same bytes in
// the same run. Prints CSV: series,n,cub_us,copy_us,cub_over_copy.
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o cub_scan_bench cub_scan_bench.cu
#include <cub/device/device_scan.cuh>

#include "cub_common.cuh"

#include <climits>

struct MaxOp {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

int main(int argc, char **argv) {
    int kmin = argc > 1 ? std::atoi(argv[1]) : 10, kmax = argc > 2 ? std::atoi(argv[2]) : 30;
    size_t max_bytes = (4ull << kmax) + 512;
    size_t pool = std::max(POOL, 2 * max_bytes);
    char *in = nullptr, *out = nullptr, *temp = nullptr;
    CHECK(cudaMalloc(&in, pool));
    CHECK(cudaMalloc(&out, pool));
    {   // random 32-bit words; as floats they are small and finite enough for sums
        std::vector<unsigned> h(64 << 20);
        unsigned s = 12345;
        for (auto &x : h) { s = s * 1664525u + 1013904223u; x = (s >> 9) | 0x3f000000u; }
        for (size_t off = 0; off < pool; off += h.size() * 4)
            CHECK(cudaMemcpy(in + off, h.data(), std::min(h.size() * 4, pool - off), cudaMemcpyHostToDevice));
    }
    size_t temp_bytes = 0, need = 0;
    CHECK(cub::DeviceScan::ExclusiveSum(nullptr, need, (unsigned *)in, (unsigned *)out, 1ll << kmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceScan::ExclusiveSum(nullptr, need, (float *)in, (float *)out, 1ll << kmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceScan::ExclusiveScan(nullptr, need, (int *)in, (int *)out, MaxOp(), INT_MIN, 1ll << kmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cudaMalloc(&temp, temp_bytes));
    std::printf("series,n,cub_us,copy_us,cub_over_copy\n");
    const char *names[] = {"u32:add", "f32:add", "i32:max"};
    for (int s = 0; s < 3; s++) {
        for (int k = kmin; k <= kmax; k++) {
            long long n = 1ll << k;
            size_t slot = ((size_t)n * 4 / 256 + 1) * 256, slots = std::max<size_t>(1, pool / slot);
            auto scan = [&](int i) {
                char *src = in + (i % slots) * slot, *dst = out + ((i + 1) % slots) * slot;
                size_t tb = temp_bytes;
                if (s == 0) CHECK(cub::DeviceScan::ExclusiveSum(temp, tb, (unsigned *)src, (unsigned *)dst, n));
                if (s == 1) CHECK(cub::DeviceScan::ExclusiveSum(temp, tb, (float *)src, (float *)dst, n));
                if (s == 2) CHECK(cub::DeviceScan::ExclusiveScan(temp, tb, (int *)src, (int *)dst, MaxOp(), INT_MIN, n));
            };
            auto copy = [&](int i) {
                CHECK(cudaMemcpyAsync(out + ((i + 1) % slots) * slot, in + (i % slots) * slot, (size_t)n * 4,
                                      cudaMemcpyDeviceToDevice));
            };
            double t = median_us(scan), c = median_us(copy);
            std::printf("%s,%lld,%.3f,%.3f,%.4f\n", names[s], n, t, c, t / c);
            std::fflush(stdout);
        }
    }
    return 0;
}
