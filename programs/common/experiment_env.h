/* SPDX-License-Identifier: MIT */
/*
 * experiment_env.h: the WGSCAN_* tuning variables of the CLI, the tests and the lab,
 * mapped onto the library's experimental context description. The library itself
 * reads no environment; these programs open its experimental door on request.
 *
 *   WGSCAN_TUNE_SP=wg,items[,groups] single-pass scan tile and persistent grid
 *   WGSCAN_TUNE_ML=wg,items       multi-level scan tile
 *   WGSCAN_TUNE_SELECT=wg,items[,group tiles]                  WGSCAN_TUNE_REDUCE=wg,items,groups
 *   WGSCAN_TUNE_SEGMENTED=wg,items  segmented reduce tile
 *   WGSCAN_TUNE_SORT=wg,items[,group tiles]
 *   WGSCAN_TUNE_TOPK=wg,items[,histogram tiles[,write tiles]]  the top-k's passes
 *   WGSCAN_TUNE_TOPK_ROWS=wg,items[,candidates]  the top-k's row kernel
 *   WGSCAN_TOPK_PATH=auto|multi|rows  the top-k's path (multi-pass, a workgroup a row)
 *   WGSCAN_TUNE_SEGSORT=wg,items[,block wg,block items[,block max]]  the segmented sort's
 *                                 tile, its block path's tile and bound
 *   WGSCAN_SORT_DIGITS=auto|held|computed  a sort tile's digit of each key held in a
 *                                 register or computed again where it is used
 *   WGSCAN_SORT_ONESWEEP_MAX=N    DEFAULT's one-sweep bound for the sort (keys and pairs)
 *   WGSCAN_SORT_STAGE=room|plain|halves  a sort tile's keys staged in its counters' atomic room
 *                                 or in plain words of their own
 *   WGSCAN_LOOKBACK=1..8          states per look-back lane   WGSCAN_LOOKBACK_SPINS=N
 *   WGSCAN_COPY=scalar            4-byte copy kernel          WGSCAN_DAWN_TOGGLES=a,b
 *   WGSCAN_SELECT_PHASES=count,scan,scatter (some of: the output is then wrong)
 *   WGSCAN_SORT_PHASES=count,scan,scatter[,no-lookback,no-rank,no-write]  the same for the sort
 *   WGSCAN_TOPK_PHASES=histogram,filter,candidates,scan,write  the multi-pass top-k's
 *                                 (some of: the output is then wrong)
 *   WGSCAN_WAIT_TIMEOUT_S=S       the context's wait limit
 *   WGSCAN_TRANSFER=chunk_kib,slots,threads[,direct_kib] host transfers' staging (0: default),
 *                                 or legacy (the path before the staging rings)
 */
#ifndef WGSCAN_EXPERIMENT_ENV_H
#define WGSCAN_EXPERIMENT_ENV_H

/* Users of this library see the experimental API: the target defines the macro for
 * them (CMake), so every file of theirs agrees on the header's contents. */
#ifndef WGSCAN_EXPERIMENTAL_API
#define WGSCAN_EXPERIMENTAL_API
#endif
#include "wgscan.h"

#include <stddef.h>

/* Fills *e from the environment and points desc->experimental at it when any variable
 * is set (desc->wait_timeout_s too). Returns 0, or -1 with a message in err for a value
 * that does not parse. */
int wgs_experiment_from_env(wgs_context_desc *desc, wgs_experimental *e, char *err, size_t errlen);

#endif
