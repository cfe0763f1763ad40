/* SPDX-License-Identifier: MIT */
/* Scans 1000 ones with the installed library and checks 0, 1, ..., 999; prints the
 * WebGPU runtime it loaded (the install test checks it is the prefix's copy). */
#include <wgscan.h>

#include <stdio.h>

int main(void) {
    wgs_context *ctx = NULL;
    wgs_result r = wgs_context_create(NULL, &ctx);
    if (r != WGS_OK) {
        fprintf(stderr, "consumer: context: %s\n", wgs_result_name(r));
        return 1;
    }
    wgs_context_info info;
    if (wgs_context_get_info(ctx, &info) == WGS_OK) printf("consumer: runtime %s\n", info.runtime_path);
    unsigned in[1000], out[1000];
    for (int i = 0; i < 1000; i++) in[i] = 1;
    wgs_scan_plan_desc d = {0};
    r = wgs_scan_host(ctx, &d, in, 1000, out);
    int bad = 0;
    for (int i = 0; r == WGS_OK && i < 1000; i++) bad += out[i] != (unsigned)i;
    printf("consumer: %s, %d wrong\n", wgs_result_name(r), bad);
    wgs_context_destroy(ctx);
    return r != WGS_OK || bad;
}
