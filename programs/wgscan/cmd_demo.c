/* SPDX-License-Identifier: MIT */
/* The main job: a short tour that runs in under a minute even on a CPU driver. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int cmd_demo(void) {
    wgs_context *ctx = NULL;
    if (cli_context(&ctx) != WGS_OK) return EXIT_GPU_ERROR;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    cli_progress_stage(NULL, 0, 0);
    printf("== wgscan demo ==\n\n-- the device --\n");
    cli_print_info(stdout, &info); /* on a CPU driver: a note that its timings are no GPU's */
    const int cpu_driver = strcmp(info.adapter_type, "cpu") == 0;

    printf("\n-- exclusive sum of 16M random u32, checked against the CPU --\n");
    scan_options o = {.n = 16777216, .type = WGS_TYPE_U32, .op = WGS_OP_ADD, .verify = 1, .repeat = 3, .seed = 1};
    int rc = run_scan(ctx, &o);
    if (rc == EXIT_OK) {
        printf("\n-- inclusive max of 1M random i32 --\n");
        scan_options m = {.n = 1 << 20, .type = WGS_TYPE_I32, .op = WGS_OP_MAX, .inclusive = 1, .verify = 1, .repeat = 3, .seed = 2};
        rc = run_scan(ctx, &m);
    }
    if (rc == EXIT_OK) {
        printf("\n-- inclusive sum of 1M random f32 in [-1, 1] (tree sum vs double reference) --\n");
        scan_options f = {.n = 1 << 20, .type = WGS_TYPE_F32, .op = WGS_OP_ADD, .inclusive = 1, .verify = 1, .repeat = 3, .seed = 3};
        rc = run_scan(ctx, &f);
    }
    wgs_context_destroy(ctx);
    if (rc == EXIT_OK) printf("\ndemo finished: every result matched the CPU reference\n");
    if (rc == EXIT_OK && cpu_driver)
        printf("(on a CPU driver: the results count, the timings do not; see BENCHMARKS.md for a GPU's)\n");
    return rc;
}
