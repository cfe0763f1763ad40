/* Scans 1000 ones with the installed library and checks 0, 1, ..., 999. */
#include <wgscan.h>

#include <stdio.h>

int main(void) {
    wgs_context *ctx = NULL;
    wgs_result r = wgs_context_create(NULL, &ctx);
    if (r != WGS_OK) {
        fprintf(stderr, "context: %s\n", wgs_result_name(r));
        return 1;
    }
    unsigned in[1000], out[1000];
    for (int i = 0; i < 1000; i++) in[i] = 1;
    wgs_scan_plan_desc d = {0};
    r = wgs_scan_host(ctx, &d, in, out, 1000);
    int bad = 0;
    for (int i = 0; r == WGS_OK && i < 1000; i++) bad += out[i] != (unsigned)i;
    printf("consumer: %s, %d wrong\n", wgs_result_name(r), bad);
    wgs_context_destroy(ctx);
    return r != WGS_OK || bad;
}
