/* SPDX-License-Identifier: MIT */
/*
 * Arrays in files: NumPy's .npy format (versions 1.0, 2.0 and 3.0, as numpy/lib/format.py
 * describes it: a magic string, a version, a header length, a Python dict literal with
 * 'descr', 'fortran_order' and 'shape', padded with spaces and a newline, then the data),
 * or raw little-endian elements.
 */
#include "cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_MAX_HEADER 65536 /* what NumPy itself writes stays far below; larger is refused */

const char *cli_npy_dtype(wgs_type t) {
    switch (t) {
    case WGS_TYPE_U32: return "<u4";
    case WGS_TYPE_I32: return "<i4";
    case WGS_TYPE_F32: return "<f4";
    case WGS_TYPE_F16: return "<f2";
    case WGS_TYPE_U64: return "<u8";
    case WGS_TYPE_I64: return "<i8";
    default: return "?";
    }
}

/* The value of `key` in the header's dict: a pointer just past "'key':" and its spaces,
 * or NULL. Keys are quoted with ' or ". */
static const char *dict_value(const char *h, const char *key) {
    size_t len = strlen(key);
    for (const char *p = h; (p = strpbrk(p, "'\"")) != NULL; p++) {
        if (strncmp(p + 1, key, len) != 0 || p[1 + len] != p[0]) continue;
        const char *q = p + 2 + len;
        while (*q == ' ') q++;
        if (*q != ':') continue;
        for (q++; *q == ' '; q++) {}
        return q;
    }
    return NULL;
}

/* A dtype in the file against the one wanted: equal, with '=' (native: little-endian on
 * every machine wgscan runs on) taken as '<', and byte flags as any one-byte integer or
 * bool. */
static int dtype_matches(const char *have, const char *want) {
    char h[32];
    snprintf(h, sizeof h, "%s", have);
    if (h[0] == '=') h[0] = '<';
    if (!strcmp(want, "|u1")) return !strcmp(h, "|u1") || !strcmp(h, "|b1") || !strcmp(h, "|i1");
    return !strcmp(h, want);
}

/* Parses the header dict `h`: 0 with the dtype in *descr and the count, or -1 with the
 * reason printed. */
static int parse_header(const char *path, const char *h, char *descr, size_t descr_size, uint64_t *count) {
    const char *d = dict_value(h, "descr"), *fo = dict_value(h, "fortran_order"), *sh = dict_value(h, "shape");
    if (!d || !fo || !sh)
        return cli_usage_error("'%s' is not a valid .npy file: its header lacks %s", path,
                               !d ? "'descr'" : !fo ? "'fortran_order'" : "'shape'"), -1;
    if (*d != '\'' && *d != '"')
        return cli_usage_error("'%s' holds a structured array (dtype %.40s); wgscan reads arrays of one plain type",
                               path, d), -1;
    const char *end = strchr(d + 1, *d);
    if (!end || (size_t)(end - d - 1) >= descr_size)
        return cli_usage_error("'%s' is not a valid .npy file: a bad 'descr'", path), -1;
    memcpy(descr, d + 1, (size_t)(end - d - 1));
    descr[end - d - 1] = 0;
    if (descr[0] == '>')
        return cli_usage_error("'%s' holds big-endian data (dtype %s); wgscan reads little-endian: "
                               "numpy's a.astype(a.dtype.newbyteorder('<')) converts it", path, descr), -1;
    if (strncmp(fo, "False", 5) != 0) {
        /* Fortran order is the same bytes for one dimension: refused only with more. */
        if (strncmp(fo, "True", 4) != 0)
            return cli_usage_error("'%s' is not a valid .npy file: a bad 'fortran_order'", path), -1;
    }
    if (*sh != '(') return cli_usage_error("'%s' is not a valid .npy file: a bad 'shape'", path), -1;
    uint64_t dims[8];
    int nd = 0;
    const char *p = sh + 1;
    for (;;) {
        while (*p == ' ') p++;
        if (*p == ')') break;
        if (*p < '0' || *p > '9' || nd == 8)
            return cli_usage_error("'%s' is not a valid .npy file: a bad 'shape'", path), -1;
        uint64_t v = 0;
        for (; *p >= '0' && *p <= '9'; p++) {
            if (v > (UINT64_MAX - 9) / 10) return cli_usage_error("'%s': its shape overflows", path), -1;
            v = v * 10 + (uint64_t)(*p - '0');
        }
        dims[nd++] = v;
        while (*p == ' ') p++;
        if (*p == ',') p++;
        else if (*p != ')') return cli_usage_error("'%s' is not a valid .npy file: a bad 'shape'", path), -1;
    }
    if (nd != 1) {
        char shape[96] = "";
        for (int i = 0; i < nd; i++)
            snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%s%" PRIu64, i ? ", " : "", dims[i]);
        return cli_usage_error("'%s' holds a %d-dimensional array (shape (%s)); wgscan reads 1-D arrays: "
                               "numpy's a.ravel() flattens it", path, nd, shape), -1;
    }
    *count = dims[0];
    return 0;
}

int cli_array_open(const char *path, const char *option, const char *dtype, size_t size, cli_array *a) {
    uint64_t bytes;
    memset(a, 0, sizeof *a);
    if (cli_input_size(path, &bytes) != 0) return -1;
    unsigned char head[12];
    size_t got = 0;
    if (bytes >= NPY_MAGIC_LEN && cli_read_head(path, head, sizeof head, &got) != 0) return -1;
    if (got < NPY_MAGIC_LEN || memcmp(head, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
        if (bytes % size)
            return cli_usage_error("'%s' (%s) holds %" PRIu64 " bytes, not a whole number of %zu-byte elements",
                                   path, option, bytes, size), -1;
        a->count = bytes / size;
        return 0;
    }
    /* .npy: version, header length (2 bytes in 1.0, 4 in 2.0 and 3.0), the header. */
    if (got < 10) return cli_usage_error("'%s' is not a valid .npy file: it ends within its preamble", path), -1;
    const unsigned major = head[6];
    if (major < 1 || major > 3)
        return cli_usage_error("'%s' is a .npy file of version %u.%u, which wgscan does not read (1.0 to 3.0)", path,
                               major, head[7]), -1;
    uint64_t pre = major == 1 ? 10 : 12, hlen;
    if (major > 1 && got < 12) return cli_usage_error("'%s' is not a valid .npy file: it ends within its preamble", path), -1;
    hlen = major == 1 ? (uint64_t)head[8] | (uint64_t)head[9] << 8
                      : (uint64_t)head[8] | (uint64_t)head[9] << 8 | (uint64_t)head[10] << 16 | (uint64_t)head[11] << 24;
    if (hlen > NPY_MAX_HEADER || pre + hlen > bytes)
        return cli_usage_error("'%s' is not a valid .npy file: a header of %" PRIu64 " bytes in %" PRIu64, path, hlen,
                               bytes), -1;
    char *buf = malloc((size_t)(pre + hlen) + 1);
    if (!buf) return cli_usage_error("out of host memory"), -1;
    if (cli_read_head(path, buf, (size_t)(pre + hlen), &got) != 0 || got != pre + hlen) {
        free(buf);
        return cli_usage_error("cannot read the header of '%s'", path), -1;
    }
    buf[pre + hlen] = 0;
    char descr[32];
    uint64_t count;
    int rc = parse_header(path, buf + pre, descr, sizeof descr, &count);
    free(buf);
    if (rc) return -1;
    if (!dtype_matches(descr, dtype))
        return cli_usage_error("'%s' (%s) holds dtype %s; this needs %s (numpy: a.astype('%s'))", path, option, descr,
                               dtype, dtype), -1;
    if (count > (bytes - pre - hlen) / size || (bytes - pre - hlen) != count * size)
        return cli_usage_error("'%s' says it holds %" PRIu64 " elements of %zu bytes after its header, but %" PRIu64
                               " bytes follow", path, count, size, bytes - pre - hlen), -1;
    a->count = count;
    a->offset = pre + hlen;
    a->npy = 1;
    return 0;
}

int cli_array_read(const char *path, const cli_array *a, size_t size, void *data) {
    return cli_read_input_at(path, a->offset, data, a->count * size);
}

static int ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

int cli_array_write(const char *path, const char *descr, size_t size, const void *data, uint64_t count) {
    if (!ends_with(path, ".npy")) return cli_write_file(path, data, count * size);
    /* Version 1.0; the preamble and header together a multiple of 64 bytes, ending in a
     * newline, as NumPy writes them. */
    char dict[512];
    int len = snprintf(dict, sizeof dict, "{'descr': %s%s%s, 'fortran_order': False, 'shape': (%" PRIu64 ",), }",
                       descr[0] == '[' ? "" : "'", descr, descr[0] == '[' ? "" : "'", count);
    if (len < 0 || len + 64 >= (int)sizeof dict) return cli_usage_error("internal: a .npy header too long"), -1;
    size_t total = (10 + (size_t)len + 1 + 63) / 64 * 64, hlen = total - 10;
    unsigned char head[576];
    memcpy(head, NPY_MAGIC, NPY_MAGIC_LEN);
    head[6] = 1, head[7] = 0, head[8] = (unsigned char)(hlen & 0xFF), head[9] = (unsigned char)(hlen >> 8);
    memcpy(head + 10, dict, (size_t)len);
    memset(head + 10 + len, ' ', hlen - (size_t)len - 1);
    head[total - 1] = '\n';
    return cli_write_parts(path, head, total, data, count * size);
}
