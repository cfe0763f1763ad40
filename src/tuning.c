/* SPDX-License-Identifier: MIT */
/*
 * tuning.c: the tuning table and the fitting of shapes to a device. Each entry says in
 * one line why; the measurements behind them are in docs/design.md.
 */
#include "tuning.h"

#include <string.h>

static const wgs__tuning table[WGS__CLASS_COUNT] = {
    [WGS__CLASS_CPU] = {
        .name = "cpu",
        /* Long serial runs per invocation, few barriers. */
        .scan_single_pass = {32, 64},
        .scan_single_pass_groups = 0, /* a workgroup a tile: few run at once anyway */
        .scan_multilevel = {32, 64},
        .select = {64, 16},
        .select_single_pass = {64, 16},
        .select_group_tiles = 16,
        .select_single_pass_auto = 0, /* three passes: no chain to wait on */
        .reduce = {64, 2},
        .reduce_groups = 64,
        /* Few invocations and rows, as the scans here. */
        .segmented = {32, 32},
        .segmented_groups = 64,
        .scan_by_key = {32, 32}, /* as the segmented reduce */
        .histogram = {64, 2},
        .histogram_groups = 64,
        /* Subgroups of 4: 8 owners' counter rows; long serial runs. SwiftShader, 2^18
         * u32 keys: 138 ms at 32 x 64 against 580 at 64 x 16 (either algorithm). The
         * per-key code is written out per item, so items cost compile time: 32 x 32 is
         * 267 ms against 183 at 32 x 64, but its pipelines compile in 5 s, not 9. */
        .sort = {32, 32},
        .sort_keys = {32, 32},
        .sort_portable = {16, 16},
        .sort_group_tiles = 8,
        .sort_keys_group_tiles = 8,
        .sort_count_groups = 4, /* the tests' small sorts end in a partial count workgroup */
        /* Always indirect: an idle workgroup still zeroes its workgroup memory, and a
         * CPU runs them one by one (SwiftShader, a sort of count 0 on a bound of 2^20:
         * 1.3 s with the grids direct, 0.09 s indirect). */
        .sort_direct_max = 0,
        .sort_onesweep = {32, 32},
        .sort_onesweep_keys = {32, 32},
        .sort_onesweep_portable = {16, 16},
        .sort_onesweep_max = 0, /* SwiftShader, 2^18 u32 keys: 132 ms against 138, a tie */
        .sort_onesweep_values_max = 0,
        .sort_spins = 64,
        .sort_lookback = 4,
        .sort_histogram_workgroups = 1024, /* the tests' 2^21 + 5 keys: two tiles a workgroup, a partial last group */
        /* Top-k: few invocations, as the histogram; not measured beyond correctness. */
        .topk = {64, 8},
        .topk_rows = {64, 4}, /* not measured: the CPU class's usual workgroup */
        .topk_rows_auto = 1,
        .topk_hist_tiles = 4, /* the loop over tiles runs in the tests */
        .topk_write_tiles = 4, /* the same, and rows that end in a partial group */
        .segmented_sort = {64, 4},
        .segmented_sort_medium = {64, 1}, /* 64 keys: both lists run on small tests */
        .segmented_sort_block = {64, 4},
        .segmented_sort_block_max = 1024, /* four tiles: the tests reach past it */
    },
    [WGS__CLASS_GPU_SG32] = {
        .name = "gpu-sg32",
        /* Persistent workgroups one tile ahead. H200, 2^28 u32 add: 256 x 16 745 µs, 512 x 16
         * 750, 1024 x 16 821, 128 x 16 769, 256 x 8 859 (bench/lab/sp-persistent-lib.sh);
         * grids of 528 to 2112 the same: workgroups past those that fit wait for the end
         * and take nothing. */
        .scan_single_pass = {256, 16},
        .scan_single_pass_groups = 1024,
        /* The seeded scans run near copy speed at 256 x 8; 16 items halved them. */
        .scan_multilevel = {256, 8},
        /* One subgroup a workgroup: its barriers cost next to nothing (H200). */
        .select = {32, 16},
        /* Big tiles: the chain's length, not memory, sets the single pass's pace. */
        .select_single_pass = {512, 8},
        .select_group_tiles = 16,
        /* Past this the three passes win: the chain, not memory, sets the pace. */
        .select_single_pass_auto = 1u << 21,
        /* 1024 groups of 256 keep every core of an H200 busy several times over. */
        .reduce = {256, 4},
        .reduce_groups = 1024,
        /* Workgroups take tiles in a fixed order, so the grid is what fits at once: 12
         * a core on an H200's 132 (registers; workgroup memory, 2.2 KiB, is far below a
         * core's ~48 KiB). H200, 2^28 u32 add, segments of 16 / 256 / 4096: 1584
         * workgroups 1.15 / 1.08 / 1.04 copies (run10.log); in run8, 1584 1.20 / 1.13 /
         * 1.05, 1320 1.25 / 1.17 / 1.08, 2112 1.35 / 1.27 / 1.28, 660 1.77 / 1.64 /
         * 1.55; 256 x 16 on 1056 1.42 / 1.34 / 1.27; 1716 1.52 / 1.44 / 1.34 (run9)
         * (bench/results/h200-2026-12-04/). */
        .segmented = {128, 16},
        .segmented_groups = 1584,
        /* One tile a workgroup. H200, 2^28 u32 add, runs of 16: 256 x 16 2.90 copies;
         * 256 x 8 ran at 2.54 but failed segmented_scan_matrix_f32 there at the tile
         * borders (bench/results/h200-2026-12-04/run4.log, run5.log): not taken. */
        .scan_by_key = {256, 16},
        .histogram = {256, 4},
        .histogram_groups = 1024,
        /* One invocation a digit in the tile's digit scan; 8 subgroups' counter rows.
         * One tile a workgroup: more workgroups in flight hide the ranking's latency.
         * H100, 2^28 (bench/results/h100-2026-12-05e/run7.log): u32 keys 12.82 ms at
         * 256 x 8 x 1 tile, 14.60 at 16 tiles, 17.9-18.9 at 256 x 16; pairs 23.4 at
         * 256 x 8 x 1, 33.8 at 256 x 16 x 16. At 256 x 8 keys alone took two tiles a
         * workgroup, pairs one (H100, 2^28, bench/results/h100-2026-12-06/run20.log):
         * u32 keys 10.88 ms at 2 tiles against 11.27 at 1; pairs 18.10 at 1 against 21.24
         * at 2.
         * Keys alone at 256 x 12, a tile a group, once the ranking's leader took six
         * instructions instead of 17 (H100, 2^28 u32 keys, run58, BENCHMARKS.md): 9.06 ms
         * against 9.66 at 256 x 10, 10.11 at 256 x 14, 9.12 at 384 x 8 and 10.72 at 256 x 8
         * x 2 tiles; 80 registers and 15 KiB, three workgroups a core. */
        .sort = {256, 8},
        .sort_keys = {256, 12},
        .sort_portable = {16, 16},
        .sort_group_tiles = 1,
        .sort_keys_group_tiles = 1,
        /* A digit's counts of 8 groups in one 32-byte sector. H100, 2^28 u32 keys
         * (bench/results/h100-2026-12-06/run14.log): 1 group 12.82 ms, 4 11.73, 8 11.25,
         * 16 11.73. */
        .sort_count_groups = 8,
        /* The scatter's grid of a sort of 2^24 pairs at 256 x 8, a tile a group, and the
         * count's at 8 groups a workgroup of 2^27: at most about 25 us of idle
         * workgroups a dispatch where the count is far below the bound, against 0.24 ms
         * of host time an indirect dispatch cost under Dawn for Node on an H100 (the
         * splat sort's encode 1.2-5 ms). */
        .sort_direct_max = 8192,
        /* One tile a workgroup: the largest that fits (fewer tiles to look back over). */
        .sort_onesweep = {256, 16},
        .sort_onesweep_keys = {256, 16},
        .sort_onesweep_portable = {16, 16},
        /* Keys alone: large sorts lose by one-sweep, small ones gain (H100, u32 keys,
         * reduce-then-scan against one-sweep, bench/results/h100-2026-12-07e/run67.log):
         * 2^21 0.168 / 0.138 ms, 2^22 0.235 / 0.235, 2^28 9.13 / 11.32; u64 keys 2^28
         * 32.04 / 38.19. Four states a read beat one (run42, 2^28: 13.16 against 14.32
         * ms); two and eight tie at 2^20-2^24 (run43, run44). */
        .sort_onesweep_max = 1u << 21,
        /* Pairs gain by one-sweep at every size that counts since one-word values are
         * loaded when the keys are placed, their reads under way through the look-back
         * (run67, u32 keys and values, the same order): 2^20 0.149 / 0.116 ms, 2^21 0.211
         * / 0.192, 2^22 0.336 / 0.329, 2^23 0.559 / 0.580, 2^24 1.088 / 1.076, 2^26 4.196
         * / 4.032, 2^28 17.24 / 15.88; indices 2^28 16.41 / 15.70; f32 2^24 1.073 / 1.100,
         * 2^28 17.07 / 16.35; u64 keys with u32 values 2^28 46.47 / 45.32. No bound:
         * one-sweep wherever it runs. */
        .sort_onesweep_values_max = UINT64_MAX,
        .sort_spins = 256,
        .sort_lookback = 4,
        /* About 4096 workgroups of the one-sweep histogram, not 1024: 1024-2047 are one or two
         * waves of the resident ones, the last part-empty (H100, 2^28 u32 at 256 x 12: 0.721
         * ms against 0.793; bench/results/h100-2026-12-07e/run65.log). */
        .sort_histogram_workgroups = 4096,
        /* H100, 2^28 u32, k = 1024 (bench/results/h100-2026-12-05e/run8/run8.log):
         * 256 x 16 1.507 ms, 512 x 16 1.529, 256 x 32 1.596, 256 x 8 1.766; a row's 256
         * counts added to once in 8 tiles, not each tile: 1.766 against 2.635 at 256 x 8. */
        .topk = {256, 16},
        .topk_hist_tiles = 8,
        /* H200, 2^28 u32, k = 1024: a workgroup a tile of the write, nearly all leaving at
         * once, took 0.19 ms; 16 tiles test their counts at once (not yet measured). */
        .topk_write_tiles = 16,
        /* One workgroup streams a row: as many loads in flight as a workgroup holds. H100,
         * 64 rows of 128k f32, k = 50 (bench/results/h100-2026-12-06/run13.log): 1024 x 4
         * 0.101 ms, 512 x 8 0.120, 256 x 16 0.174. */
        .topk_rows = {1024, 4},
        /* The row path against the passes, H100 (run13.log, rows 0.100/0.101 ms and passes
         * 0.246 in run10/run12): 64 rows of 128k, k = 50: 0.101 / 0.246 ms; 8 rows 0.097 /
         * 0.141, one 0.096 / 0.135; rows of 256k, k = 1024: 64 rows 0.305 / 0.409, 32
         * 0.169 / 0.242, 8 0.164 / 0.167, one 0.161 / 0.144 (the one loss, by 12%). */
        .topk_rows_auto = 1,
        /* 4096 keys: segments of 4096 in a workgroup. H100, 2^26 keys in segments of 4096
         * (bench/results/h100-2026-12-06/run20.log): 2.79 ms keys alone, 4.03 with
         * indices. */
        .segmented_sort = {256, 16},
        .segmented_sort_medium = {128, 4}, /* 512 keys in 4 KiB: many workgroups a core; not yet measured */
        /* H100, 2^26 keys in segments of 65536 (run14.log, run19.log): 256 x 8 4.87-4.89 ms
         * (ss_block 80 registers), the small tile's 256 x 16 8.13. */
        .segmented_sort_block = {256, 8},
        /* 2^20 keys, 256 tiles: 1024 segments of 65536 fill the GPU; one segment of the
         * bound alone on one core is slow, past it the two global sorts; not yet measured. */
        .segmented_sort_block_max = 1u << 20,
    },
    [WGS__CLASS_GPU] = {
        .name = "gpu",
        .scan_single_pass = {256, 16}, /* as gpu-sg32 */
        .scan_single_pass_groups = 1024,
        .scan_multilevel = {256, 8},
        .select = {64, 16}, /* two subgroups of 32 or one of 64 */
        .select_single_pass = {512, 8},
        .select_group_tiles = 16,
        .select_single_pass_auto = 1u << 21,
        .reduce = {256, 4},
        .reduce_groups = 1024,
        .segmented = {128, 16}, /* as gpu-sg32 */
        .segmented_groups = 1584,
        .scan_by_key = {256, 16}, /* as gpu-sg32 */
        .histogram = {256, 4},
        .histogram_groups = 1024,
        .sort = {256, 8},
        .sort_keys = {256, 8},
        .sort_portable = {16, 16},
        .sort_group_tiles = 1, /* as gpu-sg32 */
        .sort_keys_group_tiles = 2, /* gpu-sg32's at 256 x 8 */
        .sort_count_groups = 8, /* as gpu-sg32 */
        .sort_direct_max = 8192, /* as gpu-sg32 */
        .sort_onesweep = {256, 16},
        .sort_onesweep_keys = {256, 16},
        .sort_onesweep_portable = {16, 16},
        .sort_onesweep_max = 0, /* its portable 16 x 16 tiles not yet measured against reduce-then-scan */
        .sort_onesweep_values_max = 0, /* the same */
        .sort_spins = 256,
        .sort_lookback = 4, /* as gpu-sg32 */
        .sort_histogram_workgroups = 4096, /* as gpu-sg32 */
        .topk = {256, 16}, /* as gpu-sg32 */
        .topk_hist_tiles = 8,
        .topk_write_tiles = 16, /* as gpu-sg32 */
        .topk_rows = {1024, 4}, /* as gpu-sg32 */
        .topk_rows_auto = 1,    /* as gpu-sg32 */
        .segmented_sort = {256, 8}, /* not yet measured on a GPU */
        .segmented_sort_medium = {128, 4}, /* as gpu-sg32 */
        .segmented_sort_block = {256, 8}, /* as gpu-sg32 */
        .segmented_sort_block_max = 1u << 20, /* as gpu-sg32 */
    },
};

wgs__device_class wgs__device_class_of(const wgs_context_info *ci) {
    if (strcmp(ci->adapter_type, "cpu") == 0 || ci->max_invocations_per_workgroup < 256) return WGS__CLASS_CPU;
    if (ci->has_subgroups && ci->subgroup_max_size <= 32) return WGS__CLASS_GPU_SG32;
    return WGS__CLASS_GPU;
}

const wgs__tuning *wgs__tuning_of(const wgs_context *ctx) {
    return &table[wgs__device_class_of(&ctx->caps.info)];
}

static int pow2(uint32_t v) { return v && !(v & (v - 1)); }

static wgs_result shape_of(wgs_context *ctx, const char *what, wgs_tile_shape forced, wgs_tile_shape tuned,
                           uint32_t min_items, uint32_t max_items, wgs__storage_fn storage, const void *arg,
                           int any, wgs_tile_shape *out) {
    const wgs_context_info *ci = &ctx->caps.info;
    uint64_t room = ci->max_workgroup_storage_size;
    if (forced.wg || forced.items) {
        int wg_ok = any ? forced.wg % 32 == 0 : pow2(forced.wg);
        int items_ok = any || pow2(forced.items);
        WGS_FAIL_IF(ctx, !wg_ok || forced.wg < 32 || forced.wg > ci->max_invocations_per_workgroup || !items_ok ||
                             forced.items < min_items || forced.items > max_items ||
                             (storage && storage(forced.wg, forced.items, arg) > room),
                    WGS_ERROR_INVALID_ARGUMENT,
                    "experimental %s shape %u x %u cannot run here (workgroup: %s from 32 to %u; items: %s from %u "
                    "to %u; workgroup memory %llu bytes)",
                    what, forced.wg, forced.items, any ? "a multiple of 32" : "a power of two",
                    ci->max_invocations_per_workgroup, any ? "any number" : "a power of two", min_items, max_items,
                    (unsigned long long)room);
        *out = forced;
        return WGS_OK;
    }
    wgs_tile_shape s = tuned;
    while (s.wg > 32 && s.wg > ci->max_invocations_per_workgroup) s.wg /= 2;
    /* Items that are not a power of two (a tuned 256 x 12) step down to the power of two
     * below them first: on a device of WebGPU's default 16 KiB, 256 x 8, not 256 x 6. */
    while (s.items > min_items && storage && storage(s.wg, s.items, arg) > room) {
        uint32_t below = 1;
        while (below * 2 < s.items) below *= 2;
        s.items = below;
    }
    *out = s;
    return WGS_OK;
}

wgs_result wgs__shape(wgs_context *ctx, const char *what, wgs_tile_shape forced, wgs_tile_shape tuned,
                      uint32_t min_items, uint32_t max_items, wgs__storage_fn storage, const void *arg,
                      wgs_tile_shape *out) {
    return shape_of(ctx, what, forced, tuned, min_items, max_items, storage, arg, 0, out);
}

wgs_result wgs__shape_any(wgs_context *ctx, const char *what, wgs_tile_shape forced, wgs_tile_shape tuned,
                          uint32_t min_items, uint32_t max_items, wgs__storage_fn storage, const void *arg,
                          wgs_tile_shape *out) {
    return shape_of(ctx, what, forced, tuned, min_items, max_items, storage, arg, 1, out);
}

wgs_tile_shape wgs__rows_fit(wgs_tile_shape tuned, wgs__storage_fn storage, const void *arg, uint64_t limit) {
    while (tuned.wg > 4 && storage(tuned.wg, 1, arg) > limit) tuned.wg /= 2;
    return tuned;
}

wgs_result wgs__tuned_pow2(wgs_context *ctx, const char *what, uint32_t forced, uint32_t tuned, uint32_t max,
                           uint32_t *out) {
    WGS_FAIL_IF(ctx, forced && (forced > max || !pow2(forced)), WGS_ERROR_INVALID_ARGUMENT,
                "experimental %s %u is not a power of two up to %u", what, forced, max);
    *out = forced ? forced : tuned;
    return WGS_OK;
}
