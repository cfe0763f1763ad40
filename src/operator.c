/* SPDX-License-Identifier: MIT */
/*
 * operator.c: a user's own operator (wgs_operator_desc): the element type read from
 * its WGSL, the text checked against what it may use, a test compilation whose
 * messages name the user's lines, and the prelude lines that make the kernels use it
 * (kernels.c writes them where it writes a built-in's T and combine).
 *
 * The element is carried through tile states, carry-ins and identities as up to four
 * 32-bit words; to_words and from_words convert, written from the type's fields here.
 */
#include "internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One word of the element: how to read it from v (an expression) and its kind. */
typedef struct word_field {
    char access[80];
    char kind; /* 'u', 'i', 'f' */
} word_field;

/* A token of the user's WGSL: an identifier, an attribute ('@' + name) or one other
 * character; comments are skipped. */
typedef struct token {
    const char *p;
    size_t len;
    int line;
    int depth; /* braces open before it */
    int ident; /* 1: an identifier; 2: an attribute */
} token;

typedef struct lexer {
    const char *p;
    int line, depth;
} lexer;

static int ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* 0 at the end of the text. */
static int next_token(lexer *lx, token *t) {
    const char *p = lx->p;
    for (;;) {
        while (*p && isspace((unsigned char)*p)) {
            if (*p == '\n') lx->line++;
            p++;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n') p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') { /* WGSL's block comments nest */
            int nest = 1;
            p += 2;
            while (*p && nest) {
                if (p[0] == '/' && p[1] == '*') nest++, p++;
                else if (p[0] == '*' && p[1] == '/') nest--, p++;
                else if (*p == '\n') lx->line++;
                p++;
            }
            continue;
        }
        break;
    }
    if (!*p) {
        lx->p = p;
        return 0;
    }
    t->line = lx->line;
    t->depth = lx->depth;
    t->ident = 0;
    t->p = p;
    if (*p == '@') {
        const char *q = p + 1;
        while (*q && isspace((unsigned char)*q)) q++;
        t->p = q;
        while (ident_char(*q)) q++;
        t->len = (size_t)(q - t->p);
        t->ident = 2;
        lx->p = q;
        return 1;
    }
    if (ident_start(*p)) {
        const char *q = p;
        while (ident_char(*q)) q++;
        t->len = (size_t)(q - p);
        t->ident = 1;
        lx->p = q;
        return 1;
    }
    if (isdigit((unsigned char)*p)) { /* a number with its suffix and exponent */
        const char *q = p;
        while (ident_char(*q) || *q == '.' || ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E' || q[-1] == 'p' || q[-1] == 'P')))
            q++;
        t->len = (size_t)(q - p);
        lx->p = q;
        return 1;
    }
    if (*p == '{') lx->depth++;
    if (*p == '}' && lx->depth > 0) lx->depth--;
    t->len = 1;
    lx->p = p + 1;
    return 1;
}

static int tok_is(const token *t, const char *s) { return t->len == strlen(s) && strncmp(t->p, s, t->len) == 0; }

static const char *const forbidden_words[] = {"var", "override", "enable", "requires", "diagnostic",
                                              "workgroupBarrier", "storageBarrier", "textureBarrier",
                                              "workgroupUniformLoad", NULL};
static const char *const forbidden_prefixes[] = {"wgs", "atomic", "subgroup", "quad", "texture", NULL};

/* The names a text declares at module scope, appended to *names (pairs of pointer
 * and length into the text). 0 when out of memory. */
typedef struct name_list {
    const char **p;
    size_t *len;
    size_t count, cap;
} name_list;

static int all_caps(const token *t) {
    int letters = 0;
    for (size_t i = 0; i < t->len; i++) {
        if (islower((unsigned char)t->p[i])) return 0;
        letters += isupper((unsigned char)t->p[i]) != 0;
    }
    return letters > 0 && t->len >= 2;
}

static int add_name(name_list *names, const token *t) {
    if (names->count == names->cap) {
        size_t cap = names->cap ? 2 * names->cap : 512;
        const char **p = realloc(names->p, cap * sizeof *p);
        if (!p) return 0;
        names->p = p;
        size_t *l = realloc(names->len, cap * sizeof *l);
        if (!l) return 0;
        names->len = l;
        names->cap = cap;
    }
    names->p[names->count] = t->p;
    names->len[names->count++] = t->len;
    return 1;
}

/* Also every ALL_CAPS word a kernel uses: the constants a plan writes into the prelude
 * for one kernel (ARG, KEY_KIND, ...) are declared in no file. */
static int collect_declared(const char *text, name_list *names) {
    lexer lx = {text, 1, 0};
    token t;
    int declaring = 0, angle = 0;
    while (next_token(&lx, &t)) {
        if (t.ident == 1 && all_caps(&t) && !add_name(names, &t)) return 0;
        if (t.depth != 0) continue;
        if (t.ident == 1 && !declaring &&
            (tok_is(&t, "fn") || tok_is(&t, "struct") || tok_is(&t, "const") || tok_is(&t, "alias") ||
             tok_is(&t, "var") || tok_is(&t, "override"))) {
            declaring = 1;
            angle = 0;
            continue;
        }
        if (!declaring) continue;
        if (tok_is(&t, "<")) angle++;
        else if (tok_is(&t, ">")) angle--;
        else if (t.ident == 1 && angle == 0) {
            if (!add_name(names, &t)) return 0;
            declaring = 0;
        }
    }
    return 1;
}

static int declared(const name_list *names, const token *t) {
    for (size_t i = 0; i < names->count; i++)
        if (names->len[i] == t->len && strncmp(names->p[i], t->p, t->len) == 0) return 1;
    return 0;
}

/* Whether the user's text uses what it may not (wgscan.h, "Your own operator"). */
static wgs_result check_names_in(wgs_context *ctx, const char *src, const name_list *kernel_names);

static wgs_result check_names(wgs_context *ctx, const char *src) {
    char *preludes = wgs__prelude_samples();
    name_list names = {0};
    int ok = preludes && collect_declared(preludes, &names);
    for (size_t i = 0; ok && wgs_wgsl_source_at(i); i++) ok = collect_declared(wgs_wgsl_source_at(i), &names);
    wgs_result r = ok ? check_names_in(ctx, src, &names)
                      : wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "listing wgscan's names");
    free(names.p);
    free(names.len);
    free(preludes);
    return r;
}

static wgs_result check_names_in(wgs_context *ctx, const char *src, const name_list *kernel_names) {
    lexer lx = {src, 1, 0};
    token t;
    while (next_token(&lx, &t)) {
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)(t.len < 60 ? t.len : 60), t.p);
        if (t.ident == 2)
            return wgs__fail(ctx, WGS_ERROR_OPERATOR_RESERVED_NAME,
                             "operator source, line %d: attribute @%s: the operator's text may hold no "
                             "attributes (bindings, entry points and layouts are wgscan's)",
                             t.line, word);
        if (t.ident != 1) continue;
        for (const char *const *w = forbidden_words; *w; w++) {
            /* `var` inside a function is a local variable, which is allowed. */
            if (tok_is(&t, *w) && !(strcmp(*w, "var") == 0 && t.depth > 0))
                return wgs__fail(ctx, WGS_ERROR_OPERATOR_RESERVED_NAME,
                                 "operator source, line %d: '%s' is not allowed in an operator (module-scope "
                                 "variables, overrides, directives and barriers are wgscan's)",
                                 t.line, word);
        }
        for (const char *const *w = forbidden_prefixes; *w; w++)
            if (t.len >= strlen(*w) && strncmp(t.p, *w, strlen(*w)) == 0)
                return wgs__fail(ctx, WGS_ERROR_OPERATOR_RESERVED_NAME,
                                 "operator source, line %d: '%s': names beginning with '%s' are reserved "
                                 "(wgscan's own, or operations across invocations)",
                                 t.line, word, *w);
        if (declared(kernel_names, &t))
            return wgs__fail(ctx, WGS_ERROR_OPERATOR_RESERVED_NAME,
                             "operator source, line %d: '%s' is a name wgscan's kernels declare; "
                             "rename it in the operator",
                             t.line, word);
    }
    return WGS_OK;
}

static char scalar_kind(const char *s, size_t len) {
    if (len == 3 && strncmp(s, "u32", 3) == 0) return 'u';
    if (len == 3 && strncmp(s, "i32", 3) == 0) return 'i';
    if (len == 3 && strncmp(s, "f32", 3) == 0) return 'f';
    return 0;
}

/* A vector written vecN<K> or vecNk: its width and kind, 0 width if it is none. */
static int parse_vector(const char *e, int *width, char *kind, char *why, size_t whylen) {
    *width = 0;
    if (strncmp(e, "vec", 3) != 0 || !isdigit((unsigned char)e[3])) return 1;
    int n = e[3] - '0';
    const char *k = e + 4;
    char kd = 0;
    if (*k == '<') {
        const char *end = strchr(k, '>');
        if (!end || end[1]) return 1;
        const char *a = k + 1;
        while (isspace((unsigned char)*a)) a++;
        size_t len = (size_t)(end - a);
        while (len && isspace((unsigned char)a[len - 1])) len--;
        kd = scalar_kind(a, len);
        if (!kd) {
            snprintf(why, whylen, "vector of %.*s: components must be u32, i32 or f32", (int)len, a);
            return 0;
        }
    } else if (k[0] && !k[1] && strchr("uif", k[0])) {
        kd = k[0];
    } else {
        snprintf(why, whylen, "vector %s: components must be u32, i32 or f32", e);
        return 0;
    }
    if (n == 3) {
        snprintf(why, whylen, "vec3 has 12 bytes but an array stride of 16; use vec4 or a struct of 3 fields");
        return 0;
    }
    if (n != 2 && n != 4) {
        snprintf(why, whylen, "vector of %d components", n);
        return 0;
    }
    *width = n;
    *kind = kd;
    return 1;
}

/* The element's words from its declaration. */
static wgs_result parse_element(wgs_context *ctx, const char *src, const char *element, word_field *f,
                                uint32_t *words) {
    char why[160] = "";
    if (scalar_kind(element, strlen(element))) {
        snprintf(f[0].access, sizeof f[0].access, "v");
        f[0].kind = scalar_kind(element, strlen(element));
        *words = 1;
        return WGS_OK;
    }
    int width;
    char kind;
    if (!parse_vector(element, &width, &kind, why, sizeof why))
        return wgs__fail(ctx, WGS_ERROR_OPERATOR_TYPE, "operator element %s: %s", element, why);
    if (width) {
        for (int i = 0; i < width; i++) {
            snprintf(f[i].access, sizeof f[i].access, "v.%c", "xyzw"[i]);
            f[i].kind = kind;
        }
        *words = (uint32_t)width;
        return WGS_OK;
    }
    WGS_FAIL_IF(ctx, !ident_start(element[0]), WGS_ERROR_OPERATOR_TYPE,
                "operator element '%s' is not u32, i32, f32, a vec2 or vec4 of them, or a struct's name", element);
    for (const char *c = element; *c; c++)
        WGS_FAIL_IF(ctx, !ident_char(*c), WGS_ERROR_OPERATOR_TYPE,
                    "operator element '%s' is not u32, i32, f32, a vec2 or vec4 of them, or a struct's name",
                    element);
    /* struct NAME { field: kind, ... } at module scope */
    lexer lx = {src, 1, 0};
    token t, prev = {0};
    int found = 0;
    while (next_token(&lx, &t)) {
        if (t.ident == 1 && prev.ident == 1 && t.depth == 0 && tok_is(&prev, "struct") && tok_is(&t, element)) {
            found = 1;
            break;
        }
        prev = t;
    }
    WGS_FAIL_IF(ctx, !found, WGS_ERROR_OPERATOR_TYPE,
                "operator element '%s' is not u32, i32, f32, a vec2 or vec4 of them, nor a struct declared in "
                "the operator's source",
                element);
    WGS_FAIL_IF(ctx, !next_token(&lx, &t) || !tok_is(&t, "{"), WGS_ERROR_OPERATOR_TYPE,
                "operator source, line %d: struct %s: '{' expected", t.line, element);
    uint32_t n = 0;
    for (;;) {
        token name, colon, type;
        if (!next_token(&lx, &name)) break;
        if (tok_is(&name, "}")) break;
        WGS_FAIL_IF(ctx, name.ident == 2, WGS_ERROR_OPERATOR_TYPE,
                    "operator source, line %d: struct %s: a field's attribute changes its layout; fields take none",
                    name.line, element);
        WGS_FAIL_IF(ctx, name.ident != 1 || !next_token(&lx, &colon) || !tok_is(&colon, ":") ||
                             !next_token(&lx, &type) || type.ident != 1,
                    WGS_ERROR_OPERATOR_TYPE, "operator source, line %d: struct %s: 'name: type' expected",
                    name.line, element);
        char k = scalar_kind(type.p, type.len);
        WGS_FAIL_IF(ctx, !k, WGS_ERROR_OPERATOR_TYPE,
                    "operator source, line %d: struct %s: field %.*s is %.*s; fields must be u32, i32 or f32",
                    type.line, element, (int)name.len, name.p, (int)type.len, type.p);
        if (n < 4) {
            snprintf(f[n].access, sizeof f[n].access, "v.%.*s", (int)name.len, name.p);
            f[n].kind = k;
        }
        n++;
        token sep;
        if (!next_token(&lx, &sep) || tok_is(&sep, "}")) break;
        WGS_FAIL_IF(ctx, !tok_is(&sep, ","), WGS_ERROR_OPERATOR_TYPE,
                    "operator source, line %d: struct %s: ',' or '}' expected after field %.*s", sep.line, element,
                    (int)name.len, name.p);
    }
    WGS_FAIL_IF(ctx, n == 0, WGS_ERROR_OPERATOR_TYPE, "operator element struct %s has no fields", element);
    WGS_FAIL_IF(ctx, n > 4, WGS_ERROR_OPERATOR_TOO_LARGE,
                "operator element struct %s has %u fields, %u bytes: an element holds at most 16 bytes "
                "(4 fields of 32 bits)",
                element, n, 4 * n);
    *words = n;
    return WGS_OK;
}

/* A growing string (out of memory: NULL). */
static char *appendf(char *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *appendf(char *s, const char *fmt, ...) {
    if (!s) return NULL;
    va_list ap;
    va_start(ap, fmt);
    int add = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    size_t len = strlen(s);
    char *r = realloc(s, len + (size_t)add + 1);
    if (!r) {
        free(s);
        return NULL;
    }
    va_start(ap, fmt);
    vsnprintf(r + len, (size_t)add + 1, fmt, ap);
    va_end(ap);
    return r;
}

static char *dup_str(const char *s) {
    size_t n = strlen(s) + 1;
    char *r = malloc(n);
    if (r) memcpy(r, s, n);
    return r;
}

/* The prelude's lines for the operator: T, combine, ELEMENT_WORDS, COMMUTATIVE and the
 * word conversions (their meaning: kernels.c's write_prelude). */
static char *make_glue(const wgs__operator *op, const word_field *f) {
    static const char *const names[] = {"u32", "i32", "f32"};
    char *g = dup_str("");
    g = appendf(g, "alias T = %s;\nfn combine(a: T, b: T) -> T { return %s(a, b); }\n", op->element, op->combine);
    g = appendf(g, "const ELEMENT_WORDS: u32 = %uu;\nconst COMMUTATIVE: bool = %s;\n", op->words,
                op->commutative ? "true" : "false");
    g = appendf(g, "fn to_words(v: T) -> vec4<u32> { return vec4<u32>(");
    for (uint32_t i = 0; i < 4; i++)
        g = i < op->words ? appendf(g, "%sbitcast<u32>(%s)", i ? ", " : "", f[i].access) : appendf(g, ", 0u");
    g = appendf(g, "); }\nfn from_words(w: vec4<u32>) -> T { return T(");
    for (uint32_t i = 0; i < op->words; i++)
        g = appendf(g, "%sbitcast<%s>(w[%u])", i ? ", " : "",
                    names[f[i].kind == 'u' ? 0 : f[i].kind == 'i' ? 1 : 2], i);
    g = appendf(g, "); }\nconst IDENTITY_WORDS = vec4<u32>(0x%Xu, 0x%Xu, 0x%Xu, 0x%Xu);\n", op->identity[0],
                op->identity[1], op->identity[2], op->identity[3]);
    /* A carry-in of several words comes in a record of its own (a uniform at binding
     * 7, bound by the primitives that take a carry); one word rides in Params. */
    if (op->words > 1)
        g = appendf(g, "@group(0) @binding(7) var<uniform> carry_record: vec4<u32>;\n"
                       "fn carry_words() -> vec4<u32> { return carry_record; }\n");
    else
        g = appendf(g, "fn carry_words() -> vec4<u32> { return vec4<u32>(0u); }\n");
    /* Four elements in a row, and a select over T (kernels.c's write_prelude says why):
     * a scalar as the built-ins' vec4 and select, so that its row tiles compile as
     * theirs; a vector or struct is moved as an array and picked by its words. */
    if (op->scalar)
        g = appendf(g, "alias T4 = vec4<T>;\n"
                       "fn select_t(f: T, t: T, c: bool) -> T { return select(f, t, c); }\n");
    else
        g = appendf(g, "alias T4 = array<T, 4>;\n"
                       "fn select_t(f: T, t: T, c: bool) -> T { return from_words(select(to_words(f), to_words(t), c)); }\n");
    /* One identity: the operator's, whatever bits a kernel passes. */
    g = appendf(g, "fn identity_from_bits(bits: u32) -> T { return from_words(IDENTITY_WORDS); }\n");
    return g;
}

static int count_lines(const char *s) {
    int n = 1;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* Compiles the text on its own with the glue and one use of each conversion: an
 * error here is the user's (in their lines, or in how combine and the element fit
 * together), never a kernel's. */
static wgs_result test_compile(wgs_context *ctx, const wgs__operator *op) {
    char *m = dup_str(op->source);
    m = appendf(m, "\n%s", op->glue);
    m = appendf(m, "@group(0) @binding(0) var<storage, read_write> wgs_check_data: array<T>;\n"
                   "@group(0) @binding(1) var<storage, read_write> wgs_check_words: array<vec4<u32>>;\n"
                   "@compute @workgroup_size(1) fn wgs_check() {\n"
                   "    let x = combine(identity_from_bits(0u), wgs_check_data[1]);\n"
                   "    wgs_check_data[0] = from_words(wgs_check_words[0]);\n"
                   "    wgs_check_words[1] = to_words(x);\n}\n");
    WGS_FAIL_IF(ctx, !m, WGS_ERROR_OUT_OF_HOST_MEMORY, "composing the operator's test module");
    wgs__gpu_scope_push(ctx->gpu);
    WGPUComputePipeline pipe = wgs__gpu_pipeline_create(ctx->gpu, m, "wgs_check", "wgscan operator check");
    char msg[1536] = "";
    wgs_result r = wgs__gpu_scope_pop(ctx->gpu, msg, sizeof msg);
    wgs__gpu_pipeline_release(ctx->gpu, pipe);
    free(m);
    if (r == WGS_OK && pipe) return WGS_OK;
    if (r == WGS_ERROR_DEVICE_LOST || r == WGS_ERROR_GPU_OUT_OF_MEMORY) return wgs__fail(ctx, r, "%s", msg);
    /* The compiler's messages name lines as ":LINE:COLUMN": the user's text is lines
     * 1..user_lines of the module. */
    int user_lines = count_lines(op->source), line = 0, col = 0;
    for (const char *c = msg; *c; c++) {
        if (c[0] == ':' && isdigit((unsigned char)c[1]) && sscanf(c, ":%d:%d", &line, &col) == 2) break;
        line = 0;
    }
    if (line >= 1 && line <= user_lines)
        return wgs__fail(ctx, WGS_ERROR_OPERATOR_COMPILE, "operator source, line %d, column %d: %s", line, col, msg);
    return wgs__fail(ctx, WGS_ERROR_OPERATOR_COMPILE,
                     "operator: %s must be fn(a: %s, b: %s) -> %s and the element constructible from its fields: %s",
                     op->combine, op->element, op->element, op->element, msg);
}

void wgs__operator_destroy(wgs__operator *op) {
    if (!op) return;
    free(op->source);
    free(op->element);
    free(op->combine);
    free(op->glue);
    free(op->key);
    free(op);
}

static char *trimmed(const char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    char *r = malloc(n + 1);
    if (r) {
        memcpy(r, s, n);
        r[n] = 0;
    }
    return r;
}

wgs_result wgs__operator_create(wgs_context *ctx, const wgs_operator_desc *d, wgs__operator **out) {
    *out = NULL;
    WGS_FAIL_IF(ctx, !d->source || !d->element || !d->combine || !d->identity, WGS_ERROR_INVALID_ARGUMENT,
                "an operator needs source, element, combine and identity");
    wgs__operator *op = calloc(1, sizeof *op);
    WGS_FAIL_IF(ctx, !op, WGS_ERROR_OUT_OF_HOST_MEMORY, "allocating the operator");
    op->source = dup_str(d->source);
    op->element = trimmed(d->element);
    op->combine = trimmed(d->combine);
    op->commutative = d->commutative != 0;
    if (!op->source || !op->element || !op->combine) {
        wgs__operator_destroy(op);
        return wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "copying the operator");
    }
    word_field f[4];
    memset(f, 0, sizeof f);
    op->scalar = scalar_kind(op->element, strlen(op->element)) != 0;
    wgs_result r = check_names(ctx, op->source);
    if (r == WGS_OK) r = parse_element(ctx, op->source, op->element, f, &op->words);
    if (r == WGS_OK) {
        op->size = 4 * op->words;
        if (d->identity_size != op->size)
            r = wgs__fail(ctx, WGS_ERROR_OPERATOR_IDENTITY,
                          "operator identity has %zu bytes; the element %s has %u", d->identity_size, op->element,
                          op->size);
    }
    if (r == WGS_OK) {
        /* The combine function is named in the user's text, so check_names saw its name
         * if it is there at all; the name itself must be a plain identifier. */
        int ok = ident_start(op->combine[0]);
        for (const char *c = op->combine; *c; c++) ok &= ident_char(*c);
        if (!ok) r = wgs__fail(ctx, WGS_ERROR_INVALID_ARGUMENT, "operator combine '%s' is not a function name", op->combine);
    }
    if (r != WGS_OK) {
        wgs__operator_destroy(op);
        return r;
    }
    memcpy(op->identity, d->identity, op->size);
    op->glue = make_glue(op, f);
    op->key = op->glue ? dup_str(op->glue) : NULL;
    op->key = appendf(op->key, "\n%s", op->source);
    if (!op->glue || !op->key) {
        wgs__operator_destroy(op);
        return wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "composing the operator");
    }
    if ((r = test_compile(ctx, op)) != WGS_OK) {
        wgs__operator_destroy(op);
        return r;
    }
    *out = op;
    return WGS_OK;
}
