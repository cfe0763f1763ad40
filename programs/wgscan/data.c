/* Arguments, files and messages of the CLI. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("wgscan: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs(" (see 'wgscan help')\n", stderr);
    va_end(ap);
    return EXIT_USAGE;
}

int cli_gpu_error(wgs_context *ctx, wgs_result r, const char *what) {
    const char *msg = ctx ? wgs_context_last_error(ctx) : "";
    fprintf(stderr, "wgscan: %s failed: %s (%d): %s\n", what, wgs_result_name(r), (int)r,
            msg && *msg ? msg : wgs_result_description(r));
    /* What the library refuses in the options themselves (a combination it does not
     * take, a size the device cannot hold) is bad usage, not a GPU failure. */
    if (r == WGS_ERROR_INVALID_ARGUMENT || r == WGS_ERROR_UNSUPPORTED_TYPE || r == WGS_ERROR_UNSUPPORTED_OPERATOR ||
        r == WGS_ERROR_TOO_LARGE)
        return EXIT_USAGE;
    return EXIT_GPU_ERROR;
}

/* Context creation has no context to ask for the message, so keep the logged one.
 * Later messages reach the user through cli_gpu_error. */
static char early_error[1024];
static void log_early(wgs_log_level level, wgs_result r, const char *m, void *u) {
    (void)level;
    (void)r;
    (void)u;
    snprintf(early_error, sizeof early_error, "%s", m);
}

wgs_result cli_context(wgs_context **ctx) {
    wgs_context_desc d;
    memset(&d, 0, sizeof d);
    d.log = log_early;
    wgs_result r = wgs_context_create(&d, ctx);
    if (r != WGS_OK)
        fprintf(stderr, "wgscan: cannot open a WebGPU device: %s (%d): %s\n", wgs_result_name(r),
                (int)r, early_error[0] ? early_error : wgs_result_description(r));
    return r;
}

void cli_print_info(FILE *f, const wgs_context_info *i) {
    fprintf(f, "adapter      : %s | %s%s%s\n", i->vendor, i->device,
            i->description[0] ? " | " : "", i->description);
    fprintf(f, "backend      : %s, %s adapter, vendor 0x%04x device 0x%04x, architecture '%s'\n",
            i->backend, i->adapter_type, i->vendor_id, i->device_id, i->architecture);
    fprintf(f, "features     : subgroups %s, timestamp-query %s, shader-f16 %s\n",
            i->has_subgroups ? "yes" : "no", i->has_timestamp_query ? "yes" : "no",
            i->has_shader_f16 ? "yes" : "no");
    fprintf(f, "subgroups    : size %u..%u\n", i->subgroup_min_size, i->subgroup_max_size);
    if (i->adapter_features[0]) fprintf(f, "adapter offers: %s (WebGPU feature numbers)\n", i->adapter_features);
    fprintf(f, "limits       : maxBufferSize %llu, maxStorageBufferBindingSize %llu,\n"
               "               maxComputeWorkgroupsPerDimension %u, maxComputeWorkgroupStorageSize %u,\n"
               "               maxComputeInvocationsPerWorkgroup %u, minStorageBufferOffsetAlignment %u\n",
            (unsigned long long)i->max_buffer_size, (unsigned long long)i->max_storage_binding_size,
            i->max_workgroups_per_dimension, i->max_workgroup_storage_size,
            i->max_invocations_per_workgroup, i->min_storage_offset_alignment);
    fprintf(f, "runtime      : %s\n", i->runtime_path[0] ? i->runtime_path : "(caller's device)");
}

int cli_parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s) return -1;
    const char *caret = strchr(s, '^');
    if (caret) { /* 2^24 */
        char *end;
        errno = 0;
        unsigned long long b = strtoull(s, &end, 10), e;
        if (end != caret || errno) return -1;
        e = strtoull(caret + 1, &end, 10);
        if (*end || errno || b < 2 || e > 63) return -1;
        double v = pow((double)b, (double)e);
        if (v >= 18446744073709551615.0) return -1;
        uint64_t r = 1;
        for (unsigned long long k = 0; k < e; k++) r *= b;
        *out = r;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || v < 0) return -1;
    double mult = 1;
    if (*end == 'K' || *end == 'k') mult = 1e3, end++;
    else if (*end == 'M') mult = 1e6, end++;
    else if (*end == 'G') mult = 1e9, end++;
    if (*end == 'i' && mult > 1) mult = mult == 1e3 ? 1024.0 : mult == 1e6 ? 1048576.0 : 1073741824.0, end++;
    if (*end) return -1;
    v *= mult;
    if (v != floor(v) || v >= 18446744073709551615.0) return -1;
    *out = (uint64_t)v;
    return 0;
}

int cli_parse_type(const char *s, wgs_type *out) {
    static const struct { const char *n; wgs_type t; } k[] = {
        {"u32", WGS_TYPE_U32}, {"i32", WGS_TYPE_I32}, {"f32", WGS_TYPE_F32}, {"f16", WGS_TYPE_F16}};
    for (size_t i = 0; s && i < sizeof k / sizeof k[0]; i++)
        if (strcmp(s, k[i].n) == 0) return *out = k[i].t, 0;
    return -1;
}

int cli_parse_op(const char *s, wgs_op *out) {
    static const struct { const char *n; wgs_op o; } k[] = {
        {"add", WGS_OP_ADD}, {"min", WGS_OP_MIN}, {"max", WGS_OP_MAX},
        {"and", WGS_OP_AND}, {"or", WGS_OP_OR},   {"xor", WGS_OP_XOR},
        {"argmin", WGS_OP_ARGMIN}, {"argmax", WGS_OP_ARGMAX}};
    for (size_t i = 0; s && i < sizeof k / sizeof k[0]; i++)
        if (strcmp(s, k[i].n) == 0) return *out = k[i].o, 0;
    return -1;
}

int cli_parse_algorithm(const char *s, wgs_scan_algorithm *out) {
    if (!s) return -1;
    if (strcmp(s, "auto") == 0) return *out = WGS_SCAN_ALGORITHM_DEFAULT, 0;
    if (strcmp(s, "single-pass") == 0) return *out = WGS_SCAN_ALGORITHM_SINGLE_PASS, 0;
    if (strcmp(s, "multilevel") == 0) return *out = WGS_SCAN_ALGORITHM_MULTILEVEL, 0;
    return -1;
}

const char *cli_algorithm_name(wgs_scan_algorithm a) {
    switch (a) {
    case WGS_SCAN_ALGORITHM_SINGLE_PASS: return "single-pass";
    case WGS_SCAN_ALGORITHM_MULTILEVEL: return "multilevel";
    default: return "auto";
    }
}

int64_t cli_read_file(const char *path, void **data) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "wgscan: cannot open '%s': %s\n", path, strerror(errno));
        return -1;
    }
    if (fseek(f, 0, SEEK_END) != 0) {
        fprintf(stderr, "wgscan: cannot seek '%s': %s\n", path, strerror(errno));
        fclose(f);
        return -1;
    }
    long size = ftell(f);
    rewind(f);
    void *buf = malloc(size > 0 ? (size_t)size : 1);
    if (size < 0 || !buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "wgscan: cannot read '%s'\n", path);
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    *data = buf;
    return size;
}

int cli_write_file(const char *path, const void *data, uint64_t bytes) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, (size_t)bytes, f) != bytes || fclose(f) != 0) {
        fprintf(stderr, "wgscan: cannot write '%s': %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}
