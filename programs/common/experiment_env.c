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
        int k = parse_list(s, v, 3);
        if (k < 2) return bad(err, errlen, "WGSCAN_TUNE_TOPK", s, "wg,items[,histogram tiles]");
        e->topk = (wgs_tile_shape){v[0], v[1]};
        if (k == 3) e->topk_hist_tiles = v[2];
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
    if ((s = getenv("WGSCAN_TOPK_PATH")) && *s) {
        if (!strcmp(s, "auto")) e->topk_path = 0;
        else if (!strcmp(s, "multi")) e->topk_path = 1;
        else if (!strcmp(s, "rows")) e->topk_path = 2;
        else return bad(err, errlen, "WGSCAN_TOPK_PATH", s, "auto, multi or rows");
        any = 1;
    }
    struct {
        const char *name;
        uint32_t *phases;
    } phases[] = {{"WGSCAN_SELECT_PHASES", &e->select_phases}, {"WGSCAN_SORT_PHASES", &e->sort_phases}};
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
        if (!(s = getenv(phases[i].name)) || !*s) continue;
        char buf[64];
        snprintf(buf, sizeof buf, "%s", s);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            if (!strcmp(t, "count")) *phases[i].phases |= WGS_EXPERIMENTAL_PHASE_COUNT;
            else if (!strcmp(t, "scan")) *phases[i].phases |= WGS_EXPERIMENTAL_PHASE_SCAN;
            else if (!strcmp(t, "scatter")) *phases[i].phases |= WGS_EXPERIMENTAL_PHASE_SCATTER;
            else if (!strcmp(t, "no-lookback") && i == 1) *phases[i].phases |= WGS_EXPERIMENTAL_PHASE_SKIP_LOOKBACK;
            else if (!strcmp(t, "no-rank") && i == 1) *phases[i].phases |= WGS_EXPERIMENTAL_PHASE_SKIP_RANK;
            else if (!strcmp(t, "no-write") && i == 1) *phases[i].phases |= WGS_EXPERIMENTAL_PHASE_SKIP_WRITE;
            else return bad(err, errlen, phases[i].name, s,
                            i == 1 ? "some of count,scan,scatter,no-lookback,no-rank,no-write"
                                   : "some of count,scan,scatter");
        }
        any = 1;
    }
    if ((s = getenv("WGSCAN_SORT_DIGITS")) && *s) {
        if (!strcmp(s, "auto")) e->sort_digits = 0;
        else if (!strcmp(s, "held")) e->sort_digits = 1;
        else if (!strcmp(s, "computed")) e->sort_digits = 2;
        else return bad(err, errlen, "WGSCAN_SORT_DIGITS", s, "auto, held or computed");
        any = 1;
    }
    if ((s = getenv("WGSCAN_SEGSORT_TINY")) && *s) {
        if (!strcmp(s, "input")) e->segmented_sort_tiny = 0;
        else if (!strcmp(s, "staged")) e->segmented_sort_tiny = 1;
        else return bad(err, errlen, "WGSCAN_SEGSORT_TINY", s, "input or staged");
        any = 1;
    }
    if ((s = getenv("WGSCAN_TOPK_PHASES")) && *s) {
        static const char *const names[] = {"histogram", "filter", "candidates", "scan", "write"};
        char buf[64];
        snprintf(buf, sizeof buf, "%s", s);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            size_t i = 0;
            while (i < sizeof names / sizeof names[0] && strcmp(t, names[i])) i++;
            if (i == sizeof names / sizeof names[0])
                return bad(err, errlen, "WGSCAN_TOPK_PHASES", s, "some of histogram,filter,candidates,scan,write");
            e->topk_phases |= 1u << i;
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
