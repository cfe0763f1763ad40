/* SPDX-License-Identifier: MIT */
#include "cli.h"

/* The order wgs_context_desc.runtime_library states, for `info --verbose`. */
static const char lookup_order[] =
    "runtime lookup, in order (the first that loads is used):\n"
    "  1. wgs_context_desc.runtime_library (the CLI does not set it)\n"
    "  2. $WGSCAN_WEBGPU_LIB\n"
    "  3. <folder>/wgscan/libwebgpu_wrapper.so, then <folder>/../lib/wgscan/\n"
    "     libwebgpu_wrapper.so, where <folder> holds the module wgscan is linked into\n"
    "     (libwgscan.so for shared installs, the program for static ones)\n"
    "  4. libwebgpu_wrapper.so by name through the program's run path (build trees,\n"
    "     pkg-config --static consumers)\n"
    "  5. libwebgpu_dawn.so, libwgpu_native.so, libwebgpu.so by name\n";

int cmd_info(int verbose, const char *json_path) {
    if (json_path && cli_check_writable(json_path) != 0) return EXIT_USAGE;
    if (verbose) fputs(lookup_order, stdout);
    wgs_context *ctx = NULL;
    wgs_result r = cli_context_verbose(&ctx, verbose);
    if (r != WGS_OK) return EXIT_GPU_ERROR;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    cli_print_info(stdout, &info);
    wgs_context_destroy(ctx);
    return json_path && cli_write_info_json(json_path, &info) != 0 ? EXIT_USAGE : EXIT_OK;
}
