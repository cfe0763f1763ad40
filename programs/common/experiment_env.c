/* SPDX-License-Identifier: MIT */
/*
 * experiment_env.c: see experiment_env.h.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "experiment_env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Up to `max` comma-separated unsigned numbers, all of them parsed; the count, or -1. */
static int parse_list(const char *s, unsigned *v, int max) {
    int k = 0;
    while (k < max) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9') return -1;
        unsigned long x = strtoul(s, &end, 10);
        if (errno || x > 0xFFFFFFFFul) return -1;
        v[k++] = (unsigned)x;
        if (*end == 0) return k;
        if (*end != ',') return -1;
        s = end + 1;
    }
    return -1;
}

/* Index of `t` among the `count` names, or -1. */
static int name_index(const char *t, const char *const *names, int count) {
    for (int i = 0; i < count; i++)
        if (!strcmp(t, names[i])) return i;
    return -1;
}

static int bad(char *err, size_t errlen, const char *name, const char *value, const char *want) {
    snprintf(err, errlen, "%s='%s' is not %s", name, value, want);
    return -1;
}

int wgs_experiment_from_env(wgs_context_desc *desc, wgs_experimental *e, char *err, size_t errlen) {
    memset(e, 0, sizeof *e);
    int any = 0;
    unsigned v[5];
    const char *s;
    struct {
        const char *name;
        wgs_tile_shape *shape;
    } shapes[] = {{"WGSCAN_TUNE_SP", &e->scan_single_pass}, {"WGSCAN_TUNE_ML", &e->scan_multilevel},
                 {"WGSCAN_TUNE_SEGMENTED", &e->segmented},
                 {"WGSCAN_TUNE_SCAN_BY_KEY", &e->scan_by_key}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        if (!(s = getenv(shapes[i].name)) || !*s) continue;
        int k = parse_list(s, v, 3);
        /* The persistent kernels' third number: the grid. */
        uint32_t *grid = shapes[i].shape == &e->scan_single_pass ? &e->scan_single_pass_groups
                         : shapes[i].shape == &e->segmented      ? &e->segmented_groups
                                                                 : NULL;
        if (k < 2 || (k == 3 && !grid))
            return bad(err, errlen, shapes[i].name, s, grid ? "wg,items[,groups]" : "wg,items");
        *shapes[i].shape = (wgs_tile_shape){v[0], v[1]};
        if (k == 3) *grid = v[2];
        any = 1;
    }
    if ((s = getenv("WGSCAN_TUNE_SELECT")) && *s) {
        int k = parse_list(s, v, 3);
        if (k < 2) return bad(err, errlen, "WGSCAN_TUNE_SELECT", s, "wg,items[,group tiles]");
        e->select = (wgs_tile_shape){v[0], v[1]};
        if (k == 3) e->select_group_tiles = v[2];
        any = 1;
    }
    if ((s = getenv("WGSCAN_TUNE_REDUCE")) && *s) {
        if (parse_list(s, v, 3) != 3) return bad(err, errlen, "WGSCAN_TUNE_REDUCE", s, "wg,items,groups");
        e->reduce = (wgs_tile_shape){v[0], v[1]};
        e->reduce_groups = v[2];
        any = 1;
    }
    if ((s = getenv("WGSCAN_LOOKBACK")) && *s) {
        if (parse_list(s, v, 1) != 1 || v[0] < 1 || v[0] > 8) return bad(err, errlen, "WGSCAN_LOOKBACK", s, "1..8");
        e->lookback_per_lane = v[0];
        any = 1;
    }
    if ((s = getenv("WGSCAN_LOOKBACK_SPINS")) && *s) {
        if (parse_list(s, v, 1) != 1 || v[0] < 1) return bad(err, errlen, "WGSCAN_LOOKBACK_SPINS", s, "a count >= 1");
        e->lookback_spins = v[0];
        any = 1;
    }
    if ((s = getenv("WGSCAN_SORT_ONESWEEP_MAX")) && *s) {
        if (parse_list(s, v, 1) != 1 || v[0] < 1)
            return bad(err, errlen, "WGSCAN_SORT_ONESWEEP_MAX", s, "a count of keys >= 1");
        e->sort_onesweep_max = v[0];
        any = 1;
    }
    if ((s = getenv("WGSCAN_COPY")) && *s) {
        if (strcmp(s, "scalar") != 0) return bad(err, errlen, "WGSCAN_COPY", s, "'scalar'");
        e->copy_scalar = 1;
        any = 1;
    }
    if ((s = getenv("WGSCAN_TUNE_SORT")) && *s) {
        int k = parse_list(s, v, 4);
        if (k < 2) return bad(err, errlen, "WGSCAN_TUNE_SORT", s, "wg,items[,group tiles[,count groups]]");
        e->sort = (wgs_tile_shape){v[0], v[1]};
        if (k >= 3) e->sort_group_tiles = v[2];
        if (k == 4) e->sort_count_groups = v[3];
        any = 1;
    }
    if ((s = getenv("WGSCAN_TUNE_TOPK")) && *s) {
        int k = parse_list(s, v, 4);
        if (k < 2) return bad(err, errlen, "WGSCAN_TUNE_TOPK", s, "wg,items[,histogram tiles[,write tiles]]");
        e->topk = (wgs_tile_shape){v[0], v[1]};
        if (k >= 3) e->topk_hist_tiles = v[2];
        if (k == 4) e->topk_write_tiles = v[3];
        any = 1;
    }
    if ((s = getenv("WGSCAN_TUNE_SEGSORT")) && *s) {
        int k = parse_list(s, v, 5);
        if (k != 2 && k != 4 && k != 5)
            return bad(err, errlen, "WGSCAN_TUNE_SEGSORT", s, "wg,items[,block wg,block items[,block max]]");
        e->segmented_sort = (wgs_tile_shape){v[0], v[1]};
        if (k >= 4) e->segmented_sort_block = (wgs_tile_shape){v[2], v[3]};
        if (k == 5) e->segmented_sort_block_max = v[4];
        any = 1;
    }
    if ((s = getenv("WGSCAN_TUNE_TOPK_ROWS")) && *s) {
        int k = parse_list(s, v, 3);
        if (k < 2) return bad(err, errlen, "WGSCAN_TUNE_TOPK_ROWS", s, "wg,items[,candidates]");
        e->topk_rows = (wgs_tile_shape){v[0], v[1]};
        if (k == 3) e->topk_rows_candidates = v[2];
        any = 1;
    }
    /* Variables that name one choice (the field takes its index) or several phases (bit
     * i for the i-th name: the names are in the order of WGS_EXPERIMENTAL_PHASE_* and
     * WGS_EXPERIMENTAL_TOPK_*). */
    static const char *const topk_paths[] = {"auto", "multi", "rows"};
    static const char *const digit_modes[] = {"auto", "held", "computed"};
    static const char *const stage_modes[] = {"room", "plain", "halves"};
    static const char *const select_phases[] = {"count", "scan", "scatter"};
    static const char *const sort_phases[] = {"count", "scan", "scatter", "no-lookback", "no-rank", "no-write"};
    static const char *const topk_phases[] = {"histogram", "filter", "candidates", "scan", "write"};
    _Static_assert(WGS_EXPERIMENTAL_PHASE_SCATTER == 1u << 2 && WGS_EXPERIMENTAL_PHASE_SKIP_WRITE == 1u << 5 &&
                       WGS_EXPERIMENTAL_TOPK_SCAN == 1u << 3 && WGS_EXPERIMENTAL_TOPK_WRITE == 1u << 4,
                   "the phases' names are in the order of their bits");
    struct named {
        const char *name;
        const char *const *names;
        int count;
        const char *want;
        uint32_t *field;
    };
    const struct named choices[] = {
        {"WGSCAN_TOPK_PATH", topk_paths, 3, "auto, multi or rows", &e->topk_path},
        {"WGSCAN_SORT_DIGITS", digit_modes, 3, "auto, held or computed", &e->sort_digits},
        {"WGSCAN_SORT_STAGE", stage_modes, 3, "room, plain or halves", &e->sort_stage}};
    const struct named phases[] = {
        {"WGSCAN_SELECT_PHASES", select_phases, 3, "some of count,scan,scatter", &e->select_phases},
        {"WGSCAN_SORT_PHASES", sort_phases, 6, "some of count,scan,scatter,no-lookback,no-rank,no-write",
         &e->sort_phases},
        {"WGSCAN_TOPK_PHASES", topk_phases, 5, "some of histogram,filter,candidates,scan,write", &e->topk_phases}};
    for (size_t i = 0; i < sizeof choices / sizeof choices[0]; i++) {
        if (!(s = getenv(choices[i].name)) || !*s) continue;
        int k = name_index(s, choices[i].names, choices[i].count);
        if (k < 0) return bad(err, errlen, choices[i].name, s, choices[i].want);
        *choices[i].field = (uint32_t)k;
        any = 1;
    }
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
        if (!(s = getenv(phases[i].name)) || !*s) continue;
        char buf[64];
        snprintf(buf, sizeof buf, "%s", s);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            int k = name_index(t, phases[i].names, phases[i].count);
            if (k < 0) return bad(err, errlen, phases[i].name, s, phases[i].want);
            *phases[i].field |= 1u << k;
        }
        any = 1;
    }
    if ((s = getenv("WGSCAN_TRANSFER")) && *s) {
        unsigned t[4] = {0};
        if (!strcmp(s, "legacy")) {
            e->transfer_legacy = 1;
        } else {
            if (parse_list(s, t, 4) < 3)
                return bad(err, errlen, "WGSCAN_TRANSFER", s, "chunk_kib,slots,threads[,direct_kib] or legacy");
            e->transfer_chunk_bytes = (uint64_t)t[0] << 10;
            e->transfer_slots = t[1];
            e->transfer_threads = t[2];
            e->transfer_direct_max = (uint64_t)t[3] << 10;
        }
        any = 1;
    }
    if ((s = getenv("WGSCAN_DAWN_TOGGLES")) && *s) {
        e->dawn_toggles = s;
        any = 1;
    }
    if ((s = getenv("WGSCAN_WAIT_TIMEOUT_S")) && *s) {
        char *end;
        double t = strtod(s, &end);
        if (*end || !(t > 0) || t > 1e9) return bad(err, errlen, "WGSCAN_WAIT_TIMEOUT_S", s, "seconds > 0");
        desc->wait_timeout_s = t;
    }
    if (any) desc->experimental = e;
    return 0;
}
