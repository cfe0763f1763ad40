/* SPDX-License-Identifier: MIT */
#define _XOPEN_SOURCE 700 /* fileno, fstat, realpath */
/* Arguments, files and messages of the CLI. */
#include "cli.h"
#include "experiment_env.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static FILE *messages;
static int messages_set;

void cli_set_message_stream(FILE *f) {
    messages = f;
    messages_set = 1;
}

FILE *cli_message_stream(void) { return messages_set ? messages : stderr; }

int cli_usage_error(const char *fmt, ...) {
    cli_progress_stage(NULL, 0, 0); /* the message on a line of its own */
    FILE *f = cli_message_stream();
    if (!f) return EXIT_USAGE;
    va_list ap;
    va_start(ap, fmt);
    fputs("wgscan: ", f);
    vfprintf(f, fmt, ap);
    fputs("\n", f);
    va_end(ap);
    return EXIT_USAGE;
}

/* The library's messages start with the result's name ("WGS_ERROR_X: ..."); the CLI
 * names the result itself, once. */
static const char *without_name(const char *msg, wgs_result r) {
    const char *name = wgs_result_name(r);
    size_t len = strlen(name);
    if (msg && !strncmp(msg, name, len) && msg[len] == ':') {
        msg += len + 1;
        while (*msg == ' ') msg++;
    }
    return msg;
}

int cli_gpu_error(wgs_context *ctx, wgs_result r, const char *what) {
    cli_progress_stage(NULL, 0, 0);
    const char *msg = without_name(ctx ? wgs_context_last_error(ctx) : "", r);
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
    (void)r;
    if (level == WGS_LOG_INFO) { /* the drivers' probe output: shown only when verbose */
        if (u) fprintf(stderr, "wgscan: driver: %s\n", m);
        return;
    }
    snprintf(early_error, sizeof early_error, "%s", m);
}

wgs_result cli_context(wgs_context **ctx) { return cli_context_verbose(ctx, 0); }

wgs_result cli_context_verbose(wgs_context **ctx, int verbose) {
    /* The tuning variables (experiment_env.h) open the library's experimental door. */
    static wgs_experimental exp;
    static int show = 1;
    wgs_context_desc d = {.log = log_early, .log_user = verbose ? &show : NULL};
    char err[256];
    if (wgs_experiment_from_env(&d, &exp, err, sizeof err) != 0) {
        *ctx = NULL;
        fprintf(stderr, "wgscan: %s\n", err);
        return WGS_ERROR_INVALID_ARGUMENT;
    }
    wgs_result r = wgs_context_create(&d, ctx);
    if (r != WGS_OK)
        fprintf(stderr, "wgscan: cannot open a WebGPU device: %s (%d): %s\n", wgs_result_name(r),
                (int)r, early_error[0] ? without_name(early_error, r) : wgs_result_description(r));
    return r;
}

/* Feature names: WebGPU's standard features by their names in the specification
 * (numbered as in the webgpu.h of the runtime wgscan ships, wgscan_webgpu.h), and the
 * first of Dawn's own (0x50000 on), which keep their numbers across Dawn's versions.
 * Dawn renumbers the rest from one version to the next, so those are shown as numbers
 * rather than under a name that may be another feature's. */
static const char *const standard_features[] = {
    NULL, "depth-clip-control", "depth32float-stencil8", "timestamp-query", "texture-compression-bc",
    "texture-compression-bc-sliced-3d", "texture-compression-etc2", "texture-compression-astc",
    "texture-compression-astc-sliced-3d", "indirect-first-instance", "shader-f16",
    "rg11b10ufloat-renderable", "bgra8unorm-storage", "float32-filterable", "float32-blendable",
    "clip-distances", "dual-source-blending", "subgroups", "core-features-and-limits"};
static const char *const dawn_features[] = {
    "dawn-internal-usages", "dawn-multi-planar-formats", "dawn-native",
    "chromium-experimental-timestamp-query-inside-passes", "implicit-device-synchronization", NULL,
    "transient-attachments"};

static const char *feature_name(unsigned long v) {
    const size_t nstd = sizeof standard_features / sizeof *standard_features;
    const size_t ndawn = sizeof dawn_features / sizeof *dawn_features;
    if (v < nstd) return standard_features[v];
    if (v >= 0x50000 && v - 0x50000 < ndawn) return dawn_features[v - 0x50000];
    return NULL;
}

/* The library's list of numbers ("0x3 0x11 ..."): the named ones, then the numbers of
 * the others, wrapped under a heading. */
static void print_features(FILE *f, const char *numbers) {
    int column = fprintf(f, "adapter offers:"), unnamed = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (const char *p = numbers; *p;) {
            char *end;
            unsigned long v = strtoul(p, &end, 16);
            if (end == p) break;
            for (p = end; *p == ' '; p++) {}
            const char *name = feature_name(v);
            char number[24];
            if (!pass && !name) unnamed++;
            if (pass != !name) continue;
            if (pass) snprintf(number, sizeof number, "0x%lx", v), name = number;
            if (column + 1 + (int)strlen(name) > 90) column = fprintf(f, "\n              ");
            column += fprintf(f, " %s", name);
        }
        if (!pass && unnamed) {
            const char *what = "and Dawn's own, by number:";
            if (column + 1 + (int)strlen(what) > 90) column = fprintf(f, "\n              ");
            column += fprintf(f, " %s", what);
        }
        if (!unnamed) break;
    }
    fputc('\n', f);
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
    if (i->adapter_features[0]) print_features(f, i->adapter_features);
    fprintf(f, "limits       : maxBufferSize %llu, maxStorageBufferBindingSize %llu,\n"
               "               maxComputeWorkgroupsPerDimension %u, maxComputeWorkgroupStorageSize %u,\n"
               "               maxComputeInvocationsPerWorkgroup %u, minStorageBufferOffsetAlignment %u\n",
            (unsigned long long)i->max_buffer_size, (unsigned long long)i->max_storage_binding_size,
            i->max_workgroups_per_dimension, i->max_workgroup_storage_size,
            i->max_invocations_per_workgroup, i->min_storage_offset_alignment);
    fprintf(f, "runtime      : %s\n", i->runtime_path[0] ? i->runtime_path : "(caller's device)");
    /* A CPU driver runs the kernels in software on this machine's cores: its "GPU" times
     * (often slower than the plain CPU loop) say nothing about any GPU. */
    if (!strcmp(i->adapter_type, "cpu"))
        fprintf(f, "note         : a CPU driver (no GPU in use): the kernels run in software on this\n"
                   "               machine's CPU, so GPU times and rates measured here say nothing\n"
                   "               about a GPU (results are still checked against the CPU reference)\n");
}

void cli_fill_uniform(void *data, wgs_type type, uint64_t n, uint64_t seed, const cli_uniform *u) {
    uint64_t s = seed * 0x9E3779B97F4A7C15ull ^ 0xD1B54A32D192ED03ull;
    const double width = u->hi - u->lo;
    for (uint64_t i = 0; i < n; i++) {
        /* splitmix64: the next word of the seed's stream */
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        if (type == WGS_TYPE_F32) {
            float f = (float)(u->lo + width * ((double)(z >> 11) * 0x1p-53));
            if (f >= (float)u->hi) f = nextafterf((float)u->hi, -INFINITY); /* rounded up onto B */
            if (f < (float)u->lo) f = (float)u->lo;
            memcpy((char *)data + 4 * i, &f, 4);
        } else {
            /* integers: A + a draw below B - A (at most 2^32 of them; the bias of the
             * remainder is below 2^-32) */
            int64_t v = (int64_t)u->lo + (int64_t)(z % (uint64_t)width);
            uint32_t w = (uint32_t)v;
            memcpy((char *)data + 4 * i, &w, 4);
        }
    }
}

/* What kind of thing is not a regular file, for the message. */
static const char *file_kind(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a pipe";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

/* Opens a regular file for reading; its size in *bytes. NULL with the reason printed. */
static FILE *open_input(const char *path, uint64_t *bytes) {
    struct stat st;
    if (stat(path, &st) != 0) {
        cli_usage_error("cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) { /* checked before opening: a FIFO would block the open */
        cli_usage_error("cannot read '%s': it is %s; --in and --flags take regular files", path,
                        file_kind(st.st_mode));
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_usage_error("cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0) {
        cli_usage_error("cannot read '%s': %s", path, errno ? strerror(errno) : "it changed while opened");
        fclose(f);
        return NULL;
    }
    *bytes = (uint64_t)st.st_size;
    return f;
}

/* After reading `bytes` bytes: the file must end there. /proc and /sys files say size 0
 * (or 4096) and hold something else. */
static int at_end(FILE *f, const char *path, uint64_t bytes) {
    if (fgetc(f) == EOF && !ferror(f)) return 0;
    cli_usage_error("cannot read '%s': it holds more than its size of %llu bytes says "
                    "(a /proc or /sys file, or one still being written?)",
                    path, (unsigned long long)bytes);
    return -1;
}

int cli_input_size(const char *path, uint64_t *bytes) {
    FILE *f = open_input(path, bytes);
    if (!f) return -1;
    /* A file whose size reads 0 is refused now if it holds something, before any plan
     * is made for n = 0. */
    int rc = *bytes == 0 ? at_end(f, path, 0) : 0;
    fclose(f);
    return rc;
}

int cli_read_input(const char *path, void *data, uint64_t bytes) {
    uint64_t size;
    FILE *f = open_input(path, &size);
    if (!f) return -1;
    if (size != bytes) {
        fclose(f);
        return cli_usage_error("cannot read '%s': its size changed from %llu to %llu bytes", path,
                               (unsigned long long)bytes, (unsigned long long)size), -1;
    }
    size_t got = bytes ? fread(data, 1, (size_t)bytes, f) : 0;
    if (got != bytes) {
        int e = ferror(f) ? errno : 0;
        fclose(f);
        return cli_usage_error("cannot read '%s': %s after %llu of %llu bytes", path,
                               e ? strerror(e) : "it ended", (unsigned long long)got, (unsigned long long)bytes), -1;
    }
    int rc = at_end(f, path, bytes);
    fclose(f);
    return rc;
}

int cli_write_file(const char *path, const void *data, uint64_t bytes) {
    FILE *f = fopen(path, "wb");
    if (!f) return cli_usage_error("cannot write '%s': %s", path, strerror(errno)), -1;
    errno = 0;
    int ok = (bytes == 0 || fwrite(data, 1, (size_t)bytes, f) == bytes) && fflush(f) == 0;
    int e = errno;
    if (fclose(f) != 0 && ok) ok = 0, e = errno;
    if (!ok) return cli_usage_error("cannot write '%s': %s", path, e ? strerror(e) : "short write"), -1;
    return 0;
}

int cli_check_outputs(const char *const *paths, const char *const *options, int n) {
    FILE *f[CLI_MAX_OUTPUTS] = {0};
    struct stat st[CLI_MAX_OUTPUTS];
    int existed[CLI_MAX_OUTPUTS] = {0}, again[CLI_MAX_OUTPUTS] = {0}, rc = 0;
    if (n > CLI_MAX_OUTPUTS) return cli_usage_error("internal error: %d outputs to check", n), -1;
    /* Which existed is known before any is created: one given twice was not there. */
    for (int i = 0; i < n; i++) existed[i] = paths[i] && stat(paths[i], &st[i]) == 0;
    for (int i = 0; i < n && rc == 0; i++) {
        if (!paths[i]) continue;
        if (existed[i] && S_ISDIR(st[i].st_mode))
            rc = cli_usage_error("cannot write '%s': it is a directory", paths[i]);
        else if (!(f[i] = fopen(paths[i], "ab"))) /* creates, never truncates */
            rc = cli_usage_error("cannot write '%s': %s", paths[i], strerror(errno));
        else if (fstat(fileno(f[i]), &st[i]) != 0)
            rc = cli_usage_error("cannot write '%s': %s", paths[i], strerror(errno));
        /* Opened together, two names of one file (x, ./x, a link) show the same inode. A
         * device or pipe takes both writes, so only regular files are compared. */
        for (int j = 0; j < i && rc == 0; j++) {
            if (!f[j] || !S_ISREG(st[i].st_mode) || st[j].st_dev != st[i].st_dev || st[j].st_ino != st[i].st_ino)
                continue;
            again[i] = 1;
            rc = cli_usage_error("cannot write '%s' for %s: %s names the same file ('%s'), and the later output "
                                 "would replace the earlier; give each its own", paths[i],
                                 options ? options[i] : "an output", options ? options[j] : "another output", paths[j]);
        }
    }
    for (int i = 0; i < n; i++) {
        if (!f[i]) continue;
        fclose(f[i]);
        if (existed[i] || again[i]) continue;
        char *real = realpath(paths[i], NULL); /* through a link, the target was created */
        remove(real ? real : paths[i]);
        free(real);
    }
    return rc ? -1 : 0;
}

int cli_check_writable(const char *path) { return cli_check_outputs(&path, NULL, 1); }
