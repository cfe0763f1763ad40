/* SPDX-License-Identifier: MIT */
// cub_primitives_bench.cu: NVIDIA CUB's reduce, select-flagged, select-if, even
// histogram and radix sort on the data `wgscan bench --primitives` uses (uniform random
// u32 words, byte flags with half set), timed as cub_scan_bench.cu times scans: CUDA
// events, median of RUNS after WARMUP, inputs rotated through 512 MiB pools, a device
// copy of the same n u32 in the same run. The sorts (DeviceRadixSort, keys to another
// buffer): sort-keys (u32), sort-pairs (u32 keys, u32 values), sort-u64 (two words a
// key), sort-f32 (the words as floats: any bit pattern), sort-keys-descending (u32).
// The segmented reduces (DeviceSegmentedReduce::Sum of u32, segments of 16, 256, 4096
// elements back to back, the last one cut at n, begin = offsets and end = offsets + 1
// of one CSR array, as `wgscan bench` passes them): segmented-reduce-16, -256, -4096.
// The by-key calls over runs of L equal keys (key i / L, u32 values): DeviceScan::
// ExclusiveSumByKey (scan-by-key-16, -256, -4096) and DeviceReduce::ReduceByKey with
// a sum (reduce-by-key-16, -256, -4096).
// The segmented sorts (DeviceSegmentedSort::SortKeys of u32, ascending, to another buffer,
// segments of 16, 256, 4096, 65536 keys back to back as the segmented reduces'):
// segmented-sort-16, -256, -4096, -65536, the rows of `wgscan bench`'s of those names.
// Prints CSV: primitive,n,cub_us,copy_us,cub_over_copy.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>

#include "cub_common.cuh"

#include <cuda/std/functional>

struct Below {
    __device__ bool operator()(unsigned v) const { return v < 0x80000000u; }
};

int main(int argc, char **argv) {
    int kmin = argc > 1 ? std::atoi(argv[1]) : 20, kmax = argc > 2 ? std::atoi(argv[2]) : 28;
    long long nmax = 1ll << kmax;
    size_t pool = std::max(POOL, 2 * ((size_t)nmax * 4 + 512));
    char *in = nullptr, *out = nullptr, *flags = nullptr, *temp = nullptr, *vin = nullptr, *vout = nullptr;
    unsigned *small = nullptr;
    int *count = nullptr, *offsets = nullptr; // the segmented reduces' CSR offsets
    unsigned *keys = nullptr, *unique = nullptr; // the by-key calls' keys (i / L) and unique keys
    const long long seg_len[3] = {16, 256, 4096};
    const long long sort_len[4] = {16, 256, 4096, 65536}; // the segmented sorts' segments
    CHECK(cudaMalloc(&in, pool));
    CHECK(cudaMalloc(&out, pool));
    CHECK(cudaMalloc(&flags, pool / 4));
    CHECK(cudaMalloc(&vin, pool)); // sort-pairs' values, laid out as the keys
    CHECK(cudaMalloc(&vout, pool));
    CHECK(cudaMemset(vin, 0, pool));
    CHECK(cudaMalloc(&small, 1024 * 4));
    CHECK(cudaMalloc(&count, 4));
    CHECK(cudaMalloc(&offsets, ((size_t)nmax / 16 + 2) * 4));
    CHECK(cudaMalloc(&keys, (size_t)nmax * 4));
    CHECK(cudaMalloc(&unique, (size_t)nmax * 4));
    {
        std::vector<unsigned> h(16 << 20);
        unsigned long long s = 88172645463325252ull;
        for (size_t off = 0; off < pool; off += h.size() * 4) {
            for (auto &x : h) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; x = (unsigned)(s >> 32); }
            CHECK(cudaMemcpy(in + off, h.data(), std::min(h.size() * 4, pool - off), cudaMemcpyHostToDevice));
        }
        std::vector<unsigned char> f(64 << 20);
        for (size_t off = 0; off < pool / 4; off += f.size()) {
            for (auto &x : f) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; x = (unsigned char)(s >> 63); }
            CHECK(cudaMemcpy(flags + off, f.data(), std::min(f.size(), pool / 4 - off), cudaMemcpyHostToDevice));
        }
    }
    size_t temp_bytes = 0, need = 0;
    CHECK(cub::DeviceReduce::Sum(nullptr, need, (unsigned *)in, small, nmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceSelect::Flagged(nullptr, need, (unsigned *)in, (unsigned char *)flags, (unsigned *)out, count, nmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceSelect::If(nullptr, need, (unsigned *)in, (unsigned *)out, count, nmax, Below()));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceHistogram::HistogramEven(nullptr, need, (unsigned *)in, (int *)small, 257, 0ull,
                                              4294967296ull, nmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, (unsigned *)in, (unsigned *)out, nmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceRadixSort::SortPairs(nullptr, need, (unsigned *)in, (unsigned *)out, (unsigned *)vin,
                                          (unsigned *)vout, nmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, (unsigned long long *)in, (unsigned long long *)out, nmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, (float *)in, (float *)out, nmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceRadixSort::SortKeysDescending(nullptr, need, (unsigned *)in, (unsigned *)out, nmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, need, (unsigned *)in, (unsigned *)out, (int)(nmax / 16), offsets,
                                          offsets + 1));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceScan::ExclusiveSumByKey(nullptr, need, keys, (unsigned *)in, (unsigned *)out, nmax));
    temp_bytes = std::max(temp_bytes, need);
    CHECK(cub::DeviceReduce::ReduceByKey(nullptr, need, keys, unique, (unsigned *)in, (unsigned *)out, count,
                                         cuda::std::plus<unsigned>{}, nmax));
    temp_bytes = std::max(temp_bytes, need);
    for (long long L : sort_len) { // its scratch grows with the segments: each length's at nmax
        CHECK(cub::DeviceSegmentedSort::SortKeys(nullptr, need, (const unsigned *)in, (unsigned *)out, (int)nmax,
                                                 (int)((nmax + L - 1) / L), offsets, offsets + 1));
        temp_bytes = std::max(temp_bytes, need);
    }
    CHECK(cudaMalloc(&temp, temp_bytes));
    std::printf("primitive,n,cub_us,copy_us,cub_over_copy\n");
    const char *names[] = {"reduce-sum", "select-flagged", "select-if", "histogram-256", "sort-keys",
                           "sort-pairs", "sort-u64", "sort-f32", "sort-keys-descending",
                           "segmented-reduce-16", "segmented-reduce-256", "segmented-reduce-4096",
                           "scan-by-key-16", "scan-by-key-256", "scan-by-key-4096",
                           "reduce-by-key-16", "reduce-by-key-256", "reduce-by-key-4096",
                           "segmented-sort-16", "segmented-sort-256", "segmented-sort-4096",
                           "segmented-sort-65536"};
    for (int p = 0; p < 22; p++) {
        if (p >= 12 && p < 18) { // keys i / L for the largest n; every smaller n uses a prefix
            const long long L = seg_len[(p - 12) % 3];
            std::vector<unsigned> h((size_t)nmax);
            for (long long i = 0; i < nmax; i++) h[(size_t)i] = (unsigned)(i / L);
            CHECK(cudaMemcpy(keys, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
        }
        for (int k = kmin; k <= kmax; k++) {
            long long n = 1ll << k;
            long long L = p >= 9 && p < 12 ? seg_len[p - 9] : p >= 18 ? sort_len[p - 18] : 1, segs = (n + L - 1) / L;
            if ((p >= 9 && p < 12) || p >= 18) { // offsets k * L, the last one n
                std::vector<int> h((size_t)segs + 1);
                for (long long i = 0; i <= segs; i++) h[(size_t)i] = (int)std::min(i * L, n);
                CHECK(cudaMemcpy(offsets, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
            }
            size_t es = p == 6 ? 8 : 4; // bytes of an element: u64 keys take two words
            size_t slot = ((size_t)n * es / 256 + 1) * 256, slots = std::max<size_t>(1, pool / slot);
            size_t cslot = ((size_t)n * 4 / 256 + 1) * 256, cslots = std::max<size_t>(1, pool / cslot);
            size_t fslot = ((size_t)n / 256 + 1) * 256, fslots = std::max<size_t>(1, pool / 4 / fslot);
            auto run = [&](int i) {
                unsigned *src = (unsigned *)(in + (i % slots) * slot), *dst = (unsigned *)(out + ((i + 1) % slots) * slot);
                unsigned char *fl = (unsigned char *)(flags + (i % fslots) * fslot);
                size_t tb = temp_bytes;
                if (p == 0) CHECK(cub::DeviceReduce::Sum(temp, tb, src, small, n));
                if (p == 1) CHECK(cub::DeviceSelect::Flagged(temp, tb, src, fl, dst, count, n));
                if (p == 2) CHECK(cub::DeviceSelect::If(temp, tb, src, dst, count, n, Below()));
                // 257 levels over [0, 2^32): 256 even bins of the whole u32 range
                if (p == 3) CHECK(cub::DeviceHistogram::HistogramEven(temp, tb, src, (int *)small, 257, 0ull,
                                                                      4294967296ull, n));
                if (p == 4) CHECK(cub::DeviceRadixSort::SortKeys(temp, tb, src, dst, n));
                if (p == 5) {
                    unsigned *vs = (unsigned *)(vin + (i % slots) * slot), *vd = (unsigned *)(vout + ((i + 1) % slots) * slot);
                    CHECK(cub::DeviceRadixSort::SortPairs(temp, tb, src, dst, vs, vd, n));
                }
                if (p == 6) CHECK(cub::DeviceRadixSort::SortKeys(temp, tb, (unsigned long long *)src,
                                                                 (unsigned long long *)dst, n));
                if (p == 7) CHECK(cub::DeviceRadixSort::SortKeys(temp, tb, (float *)src, (float *)dst, n));
                if (p == 8) CHECK(cub::DeviceRadixSort::SortKeysDescending(temp, tb, src, dst, n));
                if (p >= 9 && p < 12)
                    CHECK(cub::DeviceSegmentedReduce::Sum(temp, tb, src, dst, (int)segs, offsets, offsets + 1));
                if (p >= 12 && p < 15) CHECK(cub::DeviceScan::ExclusiveSumByKey(temp, tb, keys, src, dst, n));
                if (p >= 18)
                    CHECK(cub::DeviceSegmentedSort::SortKeys(temp, tb, (const unsigned *)src, dst, (int)n, (int)segs,
                                                             offsets, offsets + 1));
                if (p >= 15 && p < 18)
                    CHECK(cub::DeviceReduce::ReduceByKey(temp, tb, keys, unique, src, dst, count,
                                                         cuda::std::plus<unsigned>{}, n));
            };
            auto copy = [&](int i) { // n u32 whatever the element: the yardstick of every row
                CHECK(cudaMemcpyAsync(out + ((i + 1) % cslots) * cslot, in + (i % cslots) * cslot, (size_t)n * 4,
                                      cudaMemcpyDeviceToDevice));
            };
            double t = median_us(run), c = median_us(copy);
            std::printf("%s,%lld,%.3f,%.3f,%.4f\n", names[p], n, t, c, t / c);
            std::fflush(stdout);
        }
    }
    return 0;
}
