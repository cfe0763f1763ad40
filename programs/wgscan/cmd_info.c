#include "cli.h"

int cmd_info(void) {
    wgs_context *ctx = NULL;
    wgs_result r = cli_context(&ctx);
    if (r != WGS_OK) return EXIT_GPU_ERROR;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    cli_print_info(stdout, &info);
    wgs_context_destroy(ctx);
    return EXIT_OK;
}
