/* SPDX-License-Identifier: MIT */
/* --json FILE of the commands that run one configuration (cli.h, cli_report). */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include "cli.h"
#include "wgscan_commit.h" /* WGSCAN_GIT_DESCRIBE, written at each build */

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

void cli_report_value(cli_report *r, const char *name, double value) {
    if (r->nvalues < CLI_REPORT_VALUES) r->values[r->nvalues].name = name, r->values[r->nvalues++].value = value;
}

void cli_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* A number, or null where there is none (< 0 for times); JSON has no inf or NaN, so
 * those go as the strings "inf", "-inf", "nan". */
static void json_number(FILE *f, double v, int is_time) {
    if (is_time && v < 0) fputs("null", f);
    else if (isnan(v)) fputs("\"nan\"", f);
    else if (isinf(v)) fputs(v > 0 ? "\"inf\"" : "\"-inf\"", f);
    else if (v == floor(v) && fabs(v) < 9007199254740992.0) fprintf(f, "%.0f", v);
    else fprintf(f, is_time ? "%.6g" : "%.9g", v);
}

/* Closes a written file: 0, or -1 with the reason printed (a full disk shows only here). */
static int close_json(FILE *f, const char *path) {
    int bad = ferror(f) || fflush(f) != 0;
    int e = errno;
    if (fclose(f) != 0 && !bad) bad = 1, e = errno;
    if (bad) return cli_usage_error("cannot write '%s': %s", path, e ? strerror(e) : "write error"), -1;
    return 0;
}

int cli_write_info_json(const char *path, const wgs_context_info *i) {
    FILE *f = fopen(path, "w");
    if (!f) return cli_usage_error("cannot write '%s': %s", path, strerror(errno)), -1;
    const char *keys[] = {"device", "vendor", "architecture", "description", "backend", "adapter_type", "runtime",
                          "adapter_features"};
    const char *values[] = {i->device, i->vendor, i->architecture, i->description, i->backend, i->adapter_type,
                            i->runtime_path, i->adapter_features};
    fprintf(f, "{\n  \"wgscan_version\": \"%s\",\n  \"commit\": ", wgs_version_string());
    cli_json_string(f, WGSCAN_GIT_DESCRIBE);
    for (int k = 0; k < (int)(sizeof keys / sizeof *keys); k++) {
        fprintf(f, ",\n  \"%s\": ", keys[k]);
        cli_json_string(f, values[k]);
    }
    fprintf(f, ",\n  \"vendor_id\": %u,\n  \"device_id\": %u,\n  \"subgroups\": %s,\n  \"subgroup_min_size\": %u,\n"
               "  \"subgroup_max_size\": %u,\n  \"timestamp_query\": %s,\n  \"shader_f16\": %s,\n"
               "  \"max_buffer_size\": %llu,\n  \"max_storage_binding_size\": %llu,\n"
               "  \"max_workgroups_per_dimension\": %u,\n  \"max_workgroup_storage_size\": %u,\n"
               "  \"max_invocations_per_workgroup\": %u,\n  \"min_storage_offset_alignment\": %u\n}\n",
            i->vendor_id, i->device_id, i->has_subgroups ? "true" : "false", i->subgroup_min_size,
            i->subgroup_max_size, i->has_timestamp_query ? "true" : "false", i->has_shader_f16 ? "true" : "false",
            (unsigned long long)i->max_buffer_size, (unsigned long long)i->max_storage_binding_size,
            i->max_workgroups_per_dimension, i->max_workgroup_storage_size, i->max_invocations_per_workgroup,
            i->min_storage_offset_alignment);
    return close_json(f, path);
}

int cli_write_report(const char *path, const cli_report *r, const wgs_context_info *info) {
    FILE *f = fopen(path, "w");
    if (!f) return cli_usage_error("cannot write '%s': %s", path, strerror(errno)), -1;
    char date[32];
    time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm)); /* ISO 8601, UTC */
    const char *keys[] = {"command", "date", "wgscan_version", "commit", "device", "backend", "adapter_type", "type"};
    const char *values[] = {r->command, date, wgs_version_string(), WGSCAN_GIT_DESCRIBE, info->device,
                            info->backend, info->adapter_type, r->type_name};
    fputs("{\n", f);
    for (int k = 0; k < (int)(sizeof keys / sizeof *keys); k++) {
        fprintf(f, "  \"%s\": ", keys[k]);
        cli_json_string(f, values[k]);
        fputs(",\n", f);
    }
    fprintf(f, "  \"n\": %llu,\n  \"repeat\": %d,\n  \"warmup_runs\": %d,\n", (unsigned long long)r->n, r->repeat,
            r->warmups);
    const char *tk[] = {"gpu_ms", "wall_ms", "upload_ms", "download_ms", "cpu_ms"};
    const double tv[] = {r->gpu_s, r->wall_s, r->upload_s, r->download_s, r->cpu_s};
    for (int k = 0; k < 5; k++) {
        fprintf(f, "  \"%s\": ", tk[k]);
        json_number(f, tv[k] < 0 ? -1 : tv[k] * 1e3, 1);
        fputs(",\n", f);
    }
    fprintf(f, "  \"verify\": %s", r->verified < 0 ? "null" : r->verified ? "\"ok\"" : "\"failed\"");
    for (int i = 0; i < r->nvalues; i++) {
        fprintf(f, ",\n  \"%s\": ", r->values[i].name);
        json_number(f, r->values[i].value, 0);
    }
    fputs("\n}\n", f);
    return close_json(f, path);
}
