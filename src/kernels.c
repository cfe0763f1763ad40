/* SPDX-License-Identifier: MIT */
/*
 * kernels.c: turns a kernel specialisation (type, operator, sizes, binding variant)
 * into WGSL and a compute pipeline, cached per context.
 *
 * A kernel's source is: generated prelude + common.wgsl + the workgroup helpers +
 * the kernel file. The prelude is the only place where types and operators become
 * WGSL, so native and browser builds share one source of truth.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *wgsl_type(wgs_type t) {
    switch (t) {
    case WGS_TYPE_I32: return "i32";
    case WGS_TYPE_F32: return "f32";
    case WGS_TYPE_F16: return "f16";
    default: return "u32";
    }
}

/* Float min and max compare order_key (wgscan.h "Floats"): WGSL's min() may flush
 * subnormals and need not order -0, +0 and NaN. */
static const char *wgsl_combine(wgs_type type, wgs_op op) {
    int fl = type == WGS_TYPE_F32 || type == WGS_TYPE_F16;
    switch (op) {
    case WGS_OP_MIN: return fl ? "select(b, a, order_key(a) <= order_key(b))" : "min(a, b)";
    case WGS_OP_MAX: return fl ? "select(b, a, order_key(a) >= order_key(b))" : "max(a, b)";
    case WGS_OP_AND: return "a & b";
    case WGS_OP_OR: return "a | b";
    case WGS_OP_XOR: return "a ^ b";
    default: return "a + b";
    }
}

/* Each family's record and constants (params.h), as WGSL. */
#define WGS_FIELD_NAME_(name) #name,
#define WGS_CONST_ENTRY_(name, value) {#name, value},
typedef struct wgsl_const {
    const char *name;
    uint32_t value;
} wgsl_const;
static const char *const scan_fields[] = {WGS_PARAMS_SCAN(WGS_FIELD_NAME_) NULL};
static const char *const reduce_fields[] = {WGS_PARAMS_REDUCE(WGS_FIELD_NAME_) NULL};
static const char *const select_fields[] = {WGS_PARAMS_SELECT(WGS_FIELD_NAME_) NULL};
static const char *const histogram_fields[] = {WGS_PARAMS_HISTOGRAM(WGS_FIELD_NAME_) NULL};
static const char *const alloc_fields[] = {WGS_PARAMS_ALLOC(WGS_FIELD_NAME_) NULL};
static const char *const copy_fields[] = {WGS_PARAMS_COPY(WGS_FIELD_NAME_) NULL};
static const char *const sort_fields[] = {WGS_PARAMS_SORT(WGS_FIELD_NAME_) NULL};
static const char *const segmented_fields[] = {WGS_PARAMS_SEGMENTED(WGS_FIELD_NAME_) NULL};
static const char *const topk_fields[] = {WGS_PARAMS_TOPK(WGS_FIELD_NAME_) NULL};
static const char *const segsort_fields[] = {WGS_PARAMS_SEGSORT(WGS_FIELD_NAME_) NULL};
static const wgsl_const scan_consts[] = {WGS_CONSTS_SCAN(WGS_CONST_ENTRY_){NULL, 0}};
static const wgsl_const reduce_consts[] = {WGS_CONSTS_REDUCE(WGS_CONST_ENTRY_) WGS_CONSTS_PREDICATE(WGS_CONST_ENTRY_){NULL, 0}};
static const wgsl_const select_consts[] = {WGS_CONSTS_SELECT(WGS_CONST_ENTRY_) WGS_CONSTS_PREDICATE(WGS_CONST_ENTRY_){NULL, 0}};
static const wgsl_const histogram_consts[] = {WGS_CONSTS_HISTOGRAM(WGS_CONST_ENTRY_) WGS_CONSTS_PREDICATE(WGS_CONST_ENTRY_){NULL, 0}};
static const wgsl_const sort_consts[] = {WGS_CONSTS_SORT(WGS_CONST_ENTRY_){NULL, 0}};
static const wgsl_const segmented_consts[] = {WGS_CONSTS_SEGMENTED(WGS_CONST_ENTRY_){NULL, 0}};
static const wgsl_const topk_consts[] = {WGS_CONSTS_TOPK(WGS_CONST_ENTRY_){NULL, 0}};
static const wgsl_const segsort_consts[] = {WGS_CONSTS_SEGSORT(WGS_CONST_ENTRY_){NULL, 0}};
static const wgsl_const no_consts[] = {{NULL, 0}};

static const struct {
    const char *const *fields;
    const wgsl_const *consts;
} families[] = {
    [WGS_PARAMS_KIND_SCAN] = {scan_fields, scan_consts},
    [WGS_PARAMS_KIND_REDUCE] = {reduce_fields, reduce_consts},
    [WGS_PARAMS_KIND_SELECT] = {select_fields, select_consts},
    [WGS_PARAMS_KIND_HISTOGRAM] = {histogram_fields, histogram_consts},
    [WGS_PARAMS_KIND_ALLOC] = {alloc_fields, no_consts},
    [WGS_PARAMS_KIND_COPY] = {copy_fields, no_consts},
    [WGS_PARAMS_KIND_SORT] = {sort_fields, sort_consts},
    [WGS_PARAMS_KIND_SEGMENTED] = {segmented_fields, segmented_consts},
    [WGS_PARAMS_KIND_TOPK] = {topk_fields, topk_consts},
    [WGS_PARAMS_KIND_SEGSORT] = {segsort_fields, segsort_consts},
};

/* Appends to a growing string; returns 0 when out of memory. */
typedef struct strbuf {
    char *p;
    size_t len, cap;
} strbuf;

static int sb_add_n(strbuf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 4096);
        while (cap < b->len + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) return 0;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
    return 1;
}

static int sb_add(strbuf *b, const char *s) { return sb_add_n(b, s, strlen(s)); }

/* shuffle_up_t and shuffle_t: WGSL's subgroupShuffleUp and subgroupShuffle over T, so
 * that the subgroup scans and look-back serve every element with one source. A scalar
 * is shuffled as it is; a user's vector or struct as its ELEMENT_WORDS words, in one
 * shuffle of a u32 vector that wide (the words past them are zero, never moved). */
static int write_shuffles(strbuf *b, const wgs__operator *op) {
    char buf[1024];
    if (!op || op->scalar)
        return sb_add(b, "fn shuffle_up_t(v: T, d: u32) -> T { return subgroupShuffleUp(v, d); }\n"
                         "fn shuffle_t(v: T, l: u32) -> T { return subgroupShuffle(v, l); }\n");
    static const char *const swizzle[] = {"x", "xy", "xyz", "xyzw"};
    static const char *const pad[] = {", 0u, 0u, 0u", ", 0u, 0u", ", 0u", ""};
    uint32_t e = op->words - 1;
    snprintf(buf, sizeof buf,
             "fn shuffle_up_t(v: T, d: u32) -> T {\n"
             "    return from_words(vec4<u32>(subgroupShuffleUp(to_words(v).%s, d)%s));\n}\n"
             "fn shuffle_t(v: T, l: u32) -> T {\n"
             "    return from_words(vec4<u32>(subgroupShuffle(to_words(v).%s, l)%s));\n}\n",
             swizzle[e], pad[e], swizzle[e], pad[e]);
    return sb_add(b, buf);
}

/* The row tiles' data views (tile_rows.wgsl) for a user's vector or struct, which
 * vec4<T> cannot hold: the word view is raw 16-byte words, and each group of four
 * elements (T4) is its ELEMENT_WORDS whole vec4<u32> in a row, so every load and
 * store stays a coalesced 16-byte access; element j's word k is the group's word
 * ELEMENT_WORDS * j + k. The scalar rest is array<T>, as for the built-ins. */
static int write_word_views(strbuf *b, uint32_t words, int in_place) {
    char buf[256];
    int ok = 1;
    const char *src = in_place ? "dst4" : "src4";
    if (!in_place)
        ok &= sb_add(b, "@group(0) @binding(0) var<storage, read> src4: array<vec4<u32>>;\n"
                        "@group(0) @binding(4) var<storage, read> src_tail: array<T>;\n");
    ok &= sb_add(b, "@group(0) @binding(1) var<storage, read_write> dst4: array<vec4<u32>>;\n"
                    "@group(0) @binding(5) var<storage, read_write> dst_tail: array<T>;\n"
                    "fn store_tail(i: u32, v: T) { dst_tail[i] = v; }\n");
    snprintf(buf, sizeof buf, "fn load_tail(i: u32) -> T { return %s_tail[i]; }\n", in_place ? "dst" : "src");
    ok &= sb_add(b, buf);
    ok &= sb_add(b, "fn load4_full(q: u32) -> T4 {\n");
    for (uint32_t i = 0; i < words; i++) {
        snprintf(buf, sizeof buf, "    let w%u = %s[%uu * q + %uu];\n", i, src, words, i);
        ok &= sb_add(b, buf);
    }
    ok &= sb_add(b, "    return T4(");
    for (uint32_t j = 0; j < 4; j++) {
        ok &= sb_add(b, j ? ", from_words(vec4<u32>(" : "from_words(vec4<u32>(");
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t f = words * j + k;
            if (k < words)
                snprintf(buf, sizeof buf, "%sw%u.%c", k ? ", " : "", f / 4, "xyzw"[f % 4]);
            else
                snprintf(buf, sizeof buf, ", 0u");
            ok &= sb_add(b, buf);
        }
        ok &= sb_add(b, "))");
    }
    ok &= sb_add(b, ");\n}\nfn store4_full(q: u32, v: T4) {\n");
    for (uint32_t j = 0; j < 4; j++) {
        snprintf(buf, sizeof buf, "    let e%u = to_words(v[%u]);\n", j, j);
        ok &= sb_add(b, buf);
    }
    for (uint32_t i = 0; i < words; i++) {
        snprintf(buf, sizeof buf, "    dst4[%uu * q + %uu] = vec4<u32>(", words, i);
        ok &= sb_add(b, buf);
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t f = 4 * i + c;
            snprintf(buf, sizeof buf, "%se%u.%c", c ? ", " : "", f / words, "xyzw"[f % words]);
            ok &= sb_add(b, buf);
        }
        ok &= sb_add(b, ");\n");
    }
    ok &= sb_add(b, "}\n"
                    "fn store1_word(q: u32, j: u32, v: T) {\n"
                    "    let w = to_words(v);\n"
                    "    for (var k = 0u; k < ELEMENT_WORDS; k++) {\n"
                    "        let f = ELEMENT_WORDS * j + k;\n"
                    "        dst4[ELEMENT_WORDS * q + f / 4u][f % 4u] = w[k];\n"
                    "    }\n}\n");
    return ok;
}

static int write_prelude(strbuf *b, const wgs_kernel_spec *s) {
    char buf[2048];
    const wgs__operator *op = s->custom;
    const char *t = op ? op->element : wgsl_type(s->type);
    int ok = 1;
    /* Subgroup sizes are the same on every lane of a subgroup, but WGSL's uniformity
     * analysis cannot know that the subgroup_size builtin is: loops bounded by it
     * around shuffles are correct, so the rule is turned off for these modules. */
    static const char subgroup_directives[] = "enable subgroups; diagnostic(off, subgroup_uniformity);";
    /* A user's operator comes first, unchanged, so that a compiler's message names the
     * user's own lines; the directives, which must precede it, share its first line. */
    if (op) {
        if (s->subgroups) ok &= sb_add(b, subgroup_directives), ok &= sb_add(b, " ");
        ok &= sb_add(b, op->source);
        ok &= sb_add(b, "\n");
    }
    if (s->type == WGS_TYPE_F16 && !op) ok &= sb_add(b, "enable f16;\n");
    if (s->subgroups && !op) ok &= sb_add(b, subgroup_directives), ok &= sb_add(b, "\n");
    snprintf(buf, sizeof buf,
             "// generated prelude: %s %s, WG %u, ITEMS %u%s\n"
             "const WG: u32 = %uu;\n"
             "const ITEMS: u32 = %uu;\n"
             "const MAX_SPINS: u32 = %uu;\n"
             "const LOOKBACK_PER_LANE: u32 = %uu;\n"
             "const LOOKBACK_ORDERED: bool = %s;\n"
             "const WITHHOLD_INCLUSIVE: bool = %s;\n"
             "const WITHHOLD_FIRST: bool = %s;\n",
             t, op ? op->combine : wgs_op_name(s->op), s->wg, s->items, s->in_place ? ", in place" : "", s->wg,
             s->items, s->max_spins ? s->max_spins : 16u,
             s->lookback_per_lane ? s->lookback_per_lane : 1u, s->ordered_lookback ? "true" : "false",
             s->withhold_inclusive ? "true" : "false", s->withhold_first ? "true" : "false");
    ok &= sb_add(b, buf);
    /* T and combine; ELEMENT_WORDS, the 32-bit words of a T, which to_words and
     * from_words convert (tile states, carry-ins: up to 4 words, the rest zero);
     * COMMUTATIVE: a kernel may combine in another order than the input's (the
     * built-ins: yes, floats' sums then differ in rounding only); T4, four consecutive
     * elements indexed [0] to [3], and select_t, WGSL's select over T (a vector for the
     * built-ins; a user's struct, which neither a vector nor select takes, is moved as
     * an array and picked through its words). A user's operator brings its own
     * (operator.c). */
    if (op) {
        ok &= sb_add(b, op->glue);
    } else {
        snprintf(buf, sizeof buf,
                 "alias T = %s;\n"
                 "fn combine(a: T, b: T) -> T { return %s; }\n"
                 "const ELEMENT_WORDS: u32 = 1u;\n"
                 "const COMMUTATIVE: bool = true;\n"
                 "fn to_words(v: T) -> vec4<u32> { return vec4<u32>(to_bits(v), 0u, 0u, 0u); }\n"
                 "fn from_words(w: vec4<u32>) -> T { return from_bits(w.x); }\n"
                 "fn carry_words() -> vec4<u32> { return vec4<u32>(0u); }\n"
                 "alias T4 = vec4<T>;\n"
                 "fn select_t(f: T, t: T, c: bool) -> T { return select(f, t, c); }\n",
                 t, wgsl_combine(s->type, s->op));
        ok &= sb_add(b, buf);
        /* order_key: a u32 that orders as T's values (floats: the bits' order, subnormals and
         * -0 < +0 exact; NaN below every number for min and above for max, so it wins). */
        if (s->type == WGS_TYPE_F32 || s->type == WGS_TYPE_F16)
            snprintf(buf, sizeof buf,
                     "fn order_key(v: T) -> u32 {\n"
                     "    let b = to_bits(v) << %uu;\n"
                     "    if ((b & 0x7FFFFFFFu) > 0x%Xu) { return 0x%Xu; }\n"
                     "    return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);\n}\n",
                     s->type == WGS_TYPE_F16 ? 16u : 0u, s->type == WGS_TYPE_F16 ? 0x7C000000u : 0x7F800000u,
                     s->op == WGS_OP_MAX ? 0xFFFFFFFFu : 0u);
        else
            snprintf(buf, sizeof buf, "fn order_key(v: T) -> u32 { return bitcast<u32>(v)%s; }\n",
                     s->type == WGS_TYPE_I32 ? " ^ 0x80000000u" : "");
        ok &= sb_add(b, buf);
    }
    /* What the plan fixes is constant in the kernel, so that the compiler keeps the
     * other cases out of its registers: the scan kind and the operator's identity (a
     * bit pattern, since inf is no WGSL constant; the conversion is a function call). */
    /* COMBINE_EXACT: integers, whose combination gives the same bits in any order and
     * grouping (a fallback may then reduce a tile in its own order). */
    snprintf(buf, sizeof buf,
             "const SCAN_INCLUSIVE: bool = %s;\nconst IDENTITY_BITS: u32 = 0x%Xu;\nconst COMBINE_EXACT: bool = %s;\n",
             s->inclusive ? "true" : "false", op ? op->identity[0] : wgs__identity_bits(s->type, s->op),
             !op && (s->type == WGS_TYPE_U32 || s->type == WGS_TYPE_I32) ? "true" : "false");
    ok &= sb_add(b, buf);
    /* Values as 32-bit patterns (f16 in the low half), for look-back states and the
     * identities given as bits (IDENTITY_BITS, or Params for the primitives). f16 goes
     * through f32 with integer arithmetic on the bits, exact both ways (zeros,
     * subnormals, infinities, NaN kept a NaN): Naga (Firefox) has no bitcast between
     * vec2<f16> and u32, and pack2x16float leaves infinities and NaN undefined. */
    /* (A user's operator: its glue holds identity_from_bits; its values move as words.) */
    if (!op && s->type == WGS_TYPE_F16)
        ok &= sb_add(b, "fn to_bits(v: T) -> u32 {\n"
                        "    let f = bitcast<u32>(f32(v));\n"
                        "    let sign = (f >> 16u) & 0x8000u;\n"
                        "    let e = (f >> 23u) & 0xFFu;\n"
                        "    let m = f & 0x7FFFFFu;\n"
                        "    if (e == 0xFFu) { return sign | 0x7C00u | (m >> 13u) | select(0u, 0x200u, m != 0u); }\n"
                        "    if (e >= 113u) { return sign | ((e - 112u) << 10u) | (m >> 13u); }\n"
                        "    if (e < 103u) { return sign; }\n"
                        "    return sign | ((m | 0x800000u) >> (126u - e));\n"
                        "}\n"
                        "fn from_bits(b: u32) -> T {\n"
                        "    let sign = (b & 0x8000u) << 16u;\n"
                        "    let e = (b >> 10u) & 0x1Fu;\n"
                        "    let m = b & 0x3FFu;\n"
                        "    var f = sign;\n"
                        "    if (e == 0x1Fu) {\n"
                        "        f = sign | 0x7F800000u | (m << 13u);\n"
                        "    } else if (e != 0u) {\n"
                        "        f = sign | ((e + 112u) << 23u) | (m << 13u);\n"
                        "    } else if (m != 0u) {\n"
                        "        let p = 31u - countLeadingZeros(m);\n"
                        "        f = sign | ((p + 103u) << 23u) | ((m << (23u - p)) & 0x7FFFFFu);\n"
                        "    }\n"
                        "    return T(bitcast<f32>(f));\n"
                        "}\n");
    else if (!op)
        ok &= sb_add(b, "fn to_bits(v: T) -> u32 { return bitcast<u32>(v); }\n"
                        "fn from_bits(b: u32) -> T { return bitcast<T>(b); }\n");
    if (!op) ok &= sb_add(b, "fn identity_from_bits(bits: u32) -> T { return from_bits(bits); }\n");
    /* Entry points take the per-invocation builtins as one struct, so helpers that need
     * subgroup builtins work with either workgroup-scan variant. The workgroup-uniform
     * builtins stay separate parameters: WGSL's uniformity analysis treats a struct as
     * one value, and barriers may only follow uniform branches. */
    ok &= sb_add(b, "struct Ids {\n"
                    "    @builtin(local_invocation_index) lid: u32,\n");
    if (s->subgroups)
        ok &= sb_add(b, "    @builtin(subgroup_invocation_id) sg_lane: u32,\n"
                        "    @builtin(subgroup_size) sg_size: u32,\n");
    ok &= sb_add(b, "}\n");
    /* The dispatch's record and the family's constants (params.h), then the plan's. */
    ok &= sb_add(b, "struct Params {\n");
    for (const char *const *f = families[s->params].fields; *f; f++) {
        snprintf(buf, sizeof buf, "    %s: u32,\n", *f);
        ok &= sb_add(b, buf);
    }
    ok &= sb_add(b, "}\n");
    for (const wgsl_const *c = families[s->params].consts; c->name; c++) {
        snprintf(buf, sizeof buf, "const %s: u32 = %uu;\n", c->name, c->value);
        ok &= sb_add(b, buf);
    }
    for (size_t i = 0; i < sizeof s->consts / sizeof s->consts[0] && s->consts[i].name; i++) {
        snprintf(buf, sizeof buf, "const %s: u32 = %uu;\n", s->consts[i].name, s->consts[i].value);
        ok &= sb_add(b, buf);
    }
    if (s->subgroups) ok &= write_shuffles(b, op);
    if (s->primitive) {
        /* OP and the type kinds (0 u32, 1 i32, 2 f32) let one kernel file choose its
         * atomic per operator at compile time. */
        /* V4: four values, as T4 (a user's operator: its elements are the values). */
        snprintf(buf, sizeof buf,
                 "alias V = %s;\nalias V4 = %s;\nconst OP: u32 = %uu;\nconst TKIND: u32 = %uu;\n"
                 "const VKIND: u32 = %uu;\n",
                 op ? "T" : wgsl_type(s->value_type), op ? "T4" : "vec4<V>", (unsigned)s->op,
                 (unsigned)s->type - 1u, (unsigned)s->value_type - 1u);
        ok &= sb_add(b, buf);
        return ok;
    }
    if (s->subgroups && op && !op->scalar) {
        ok &= write_word_views(b, op->words, s->in_place);
    } else if (s->subgroups) {
        /* Row tiles (tile_rows.wgsl) move 16-byte words: a word view of the data up to
         * the last aligned offset and a scalar view of the rest (Params.c words in the
         * first), two ranges that do not overlap, so both may be writable. */
        if (!s->in_place)
            ok &= sb_add(b, "@group(0) @binding(0) var<storage, read> src4: array<vec4<T>>;\n"
                            "@group(0) @binding(4) var<storage, read> src_tail: array<T>;\n");
        ok &= sb_add(b, "@group(0) @binding(1) var<storage, read_write> dst4: array<vec4<T>>;\n"
                        "@group(0) @binding(5) var<storage, read_write> dst_tail: array<T>;\n"
                        "fn store4_full(q: u32, v: T4) { dst4[q] = v; }\n"
                        "fn store1_word(q: u32, j: u32, v: T) { dst4[q][j] = v; }\n"
                        "fn store_tail(i: u32, v: T) { dst_tail[i] = v; }\n");
        ok &= sb_add(b, s->in_place ? "fn load4_full(q: u32) -> T4 { return dst4[q]; }\n"
                                      "fn load_tail(i: u32) -> T { return dst_tail[i]; }\n"
                                    : "fn load4_full(q: u32) -> T4 { return src4[q]; }\n"
                                      "fn load_tail(i: u32) -> T { return src_tail[i]; }\n");
    } else if (s->in_place) {
        ok &= sb_add(b, "@group(0) @binding(1) var<storage, read_write> dst: array<T>;\n"
                        "fn load_in(i: u32) -> T { return dst[i]; }\n");
    } else {
        ok &= sb_add(b, "@group(0) @binding(0) var<storage, read> src: array<T>;\n"
                        "@group(0) @binding(1) var<storage, read_write> dst: array<T>;\n"
                        "fn load_in(i: u32) -> T { return src[i]; }\n");
    }
    return ok;
}

/* Per-item code in straight lines: the lines from "// @each item" to "// @end" are
 * written ITEMS times, each '#' in them replaced by the item's index. A loop over items
 * leaves the driver to unroll it, and where it does not, per-key state in arrays goes to
 * local memory (docs/design.md, section 3); written out, each key's state is a
 * variable of its own and every index a constant. An unexpanded '#' is not WGSL, so a
 * block without its end fails to compile rather than run once. */
static int expand_items(strbuf *out, const char *src, uint32_t items) {
    static const char open_mark[] = "// @each item", close_mark[] = "// @end";
    int ok = 1;
    const char *p = src;
    while (*p && ok) {
        const char *eol = strchr(p, '\n');
        const char *next = eol ? eol + 1 : p + strlen(p);
        const char *t = p;
        while (t < next && (*t == ' ' || *t == '\t')) t++;
        if (strncmp(t, open_mark, sizeof open_mark - 1) != 0) {
            ok &= sb_add_n(out, p, (size_t)(next - p));
            p = next;
            continue;
        }
        const char *body = next, *end = body;
        while (*end) { /* find the closing line */
            const char *e = end;
            while (*e == ' ' || *e == '\t') e++;
            if (strncmp(e, close_mark, sizeof close_mark - 1) == 0) break;
            const char *nl = strchr(end, '\n');
            end = nl ? nl + 1 : end + strlen(end);
        }
        for (uint32_t r = 0; r < items && ok; r++) {
            char idx[16];
            snprintf(idx, sizeof idx, "%u", r);
            for (const char *c = body; c < end && ok; c++)
                ok &= *c == '#' ? sb_add(out, idx) : sb_add_n(out, c, 1);
        }
        const char *nl = *end ? strchr(end, '\n') : NULL;
        p = nl ? nl + 1 : end + strlen(end);
    }
    return ok;
}

/* 0 when the key did not fit: a cut key could name another specialisation. */
static int spec_key(const wgs_kernel_spec *s, char *key, size_t cap) {
    int k = snprintf(key, cap, "%s:%s:%s%s%s%s%s:%d:%d:%d:%d:%d:%u:%u:%u:%u:%d:%d:%d", s->file, s->entry,
                     s->helper ? s->helper : "", s->chained ? "+chain" : "", s->ordered_lookback ? "+ordered" : "",
                     s->withhold_inclusive ? "+withhold" : "", s->withhold_first ? "+withhold0" : "",
                     (int)s->type, (int)s->op,
                     s->in_place, s->inclusive, s->subgroups, s->wg, s->items, s->max_spins,
                     s->lookback_per_lane, s->primitive, (int)s->value_type, (int)s->params);
    for (size_t i = 0; i < sizeof s->consts / sizeof s->consts[0] && s->consts[i].name && k > 0 && (size_t)k < cap; i++)
        k += snprintf(key + k, cap - (size_t)k, ":%s=%u", s->consts[i].name, s->consts[i].value);
    if (s->custom && k > 0 && (size_t)k < cap) { /* FNV-1a of the operator's key; the entry keeps it whole */
        uint64_t h = 0xcbf29ce484222325ull;
        for (const char *c = s->custom->key; *c; c++) h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
        k += snprintf(key + k, cap - (size_t)k, ":op=%016llx", (unsigned long long)h);
    }
    return k > 0 && (size_t)k < cap;
}

char *wgs__prelude_samples(void) {
    static const wgs_kernel_spec samples[] = {
        {.type = WGS_TYPE_F32, .params = WGS_PARAMS_KIND_SCAN},
        {.type = WGS_TYPE_F16, .params = WGS_PARAMS_KIND_SCAN, .in_place = 1},
        {.type = WGS_TYPE_U32, .params = WGS_PARAMS_KIND_SCAN, .subgroups = 1},
        {.type = WGS_TYPE_U32, .params = WGS_PARAMS_KIND_SCAN, .subgroups = 1, .in_place = 1},
        {.type = WGS_TYPE_I32, .params = WGS_PARAMS_KIND_REDUCE, .primitive = 1},
        {.type = WGS_TYPE_U32, .params = WGS_PARAMS_KIND_SELECT, .primitive = 1},
        {.type = WGS_TYPE_U32, .params = WGS_PARAMS_KIND_HISTOGRAM, .primitive = 1},
        {.type = WGS_TYPE_U32, .params = WGS_PARAMS_KIND_ALLOC, .primitive = 1},
        {.type = WGS_TYPE_U32, .params = WGS_PARAMS_KIND_COPY, .primitive = 1},
        {.type = WGS_TYPE_U32, .params = WGS_PARAMS_KIND_SORT, .primitive = 1},
        {.type = WGS_TYPE_U32, .params = WGS_PARAMS_KIND_SEGMENTED, .primitive = 1},
    };
    strbuf b = {0};
    int ok = sb_add(&b, "const SG_FIXED: u32 = 0u;\nconst SG_MIN: u32 = 1u;\nconst SG_MAX: u32 = 1u;\n");
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) ok &= write_prelude(&b, &samples[i]);
    if (!ok) {
        free(b.p);
        return NULL;
    }
    return b.p;
}


wgs_result wgs__pipeline(wgs_context *ctx, const wgs_kernel_spec *spec, WGPUComputePipeline *out) {
    char key[WGS_PIPELINE_KEY_MAX];
    WGS_FAIL_IF(ctx, !spec_key(spec, key, sizeof key), WGS_ERROR_GPU_INTERNAL,
                "kernel key of %s:%s longer than %d characters", spec->file, spec->entry, WGS_PIPELINE_KEY_MAX - 1);
    for (size_t i = 0; i < ctx->pipeline_count; i++) {
        const char *ck = ctx->pipelines[i].custom_key;
        if (strcmp(ctx->pipelines[i].key, key) == 0 &&
            (spec->custom ? ck && strcmp(ck, spec->custom->key) == 0 : !ck)) {
            *out = ctx->pipelines[i].pipeline;
            return WGS_OK;
        }
    }
    const char *body = wgs_wgsl_source(spec->file);
    WGS_FAIL_IF(ctx, !body, WGS_ERROR_GPU_INTERNAL, "kernel %s is not embedded", spec->file);
    strbuf sb = {0};
    int ok = write_prelude(&sb, spec);
    {
        /* SG_FIXED: the device's only subgroup size (0 when it has several): loops over a
         * subgroup's lanes then have a constant bound, which the compiler unrolls.
         * SG_MIN, SG_MAX: its smallest (4 where it says none) and largest, 1 in kernels
         * without subgroups; the smallest sizes the per-subgroup tables in workgroup
         * memory, which costs occupancy (docs/design.md, section 3). */
        const wgs_context_info *ci = &ctx->caps.info;
        char line[128];
        if (spec->subgroups)
            snprintf(line, sizeof line, "const SG_FIXED: u32 = %uu;\nconst SG_MIN: u32 = %uu;\nconst SG_MAX: u32 = %uu;\n",
                     ci->subgroup_min_size == ci->subgroup_max_size ? ci->subgroup_max_size : 0u,
                     ci->subgroup_min_size ? ci->subgroup_min_size : 4u, ci->subgroup_max_size);
        else
            snprintf(line, sizeof line, "const SG_MIN: u32 = 1u;\nconst SG_MAX: u32 = 1u;\n");
        ok &= sb_add(&sb, line);
    }
    const char *parts[] = {"common.wgsl",
                           spec->subgroups ? "workgroup/subgroup_scan.wgsl" : "workgroup/blelloch.wgsl",
                           spec->primitive ? ""
                           : spec->subgroups ? "workgroup/tile_rows.wgsl"
                                             : "workgroup/tile.wgsl"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (!*parts[i]) continue;
        ok &= sb_add(&sb, wgs_wgsl_source(parts[i]));
        ok &= sb_add(&sb, "\n");
    }
    /* helper: space-separated files, in order. */
    for (const char *h = spec->helper; h && *h;) {
        char name[96];
        size_t len = strcspn(h, " ");
        if (len && len < sizeof name) {
            memcpy(name, h, len);
            name[len] = 0;
            const char *src = wgs_wgsl_source(name);
            if (!src) {
                free(sb.p);
                return wgs__fail(ctx, WGS_ERROR_GPU_INTERNAL, "kernel helper %s is not embedded", name);
            }
            ok &= sb_add(&sb, src);
            ok &= sb_add(&sb, "\n");
        }
        h += len;
        while (*h == ' ') h++;
    }
    if (spec->chained) {
        ok &= sb_add(&sb, wgs_wgsl_source("workgroup/tile_state.wgsl"));
        ok &= sb_add(&sb, "\n");
        ok &= sb_add(&sb, wgs_wgsl_source(spec->subgroups ? "workgroup/lookback_subgroup.wgsl"
                                                          : "workgroup/lookback_workgroup.wgsl"));
        ok &= sb_add(&sb, "\n");
    }
    ok &= sb_add(&sb, body);
    if (!ok) {
        free(sb.p);
        return wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "building WGSL for %s", spec->file);
    }
    strbuf code = {0};
    if (!expand_items(&code, sb.p, spec->items)) {
        free(sb.p);
        free(code.p);
        return wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "building WGSL for %s", spec->file);
    }
    free(sb.p);
    sb = code;
    if (ctx->compile == WGS__COMPILE_NONE) {
        free(sb.p);
        *out = NULL;
        return WGS_OK;
    }
    if (ctx->pipeline_count == ctx->pipeline_cap) {
        size_t cap = ctx->pipeline_cap ? ctx->pipeline_cap * 2 : 16;
        wgs_pipeline_entry *p = realloc(ctx->pipelines, cap * sizeof *p);
        if (!p) {
            free(sb.p);
            return wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "growing the pipeline cache");
        }
        ctx->pipelines = p;
        ctx->pipeline_cap = cap;
    }
    const int later = ctx->compile == WGS__COMPILE_LATER;
    WGPUComputePipeline pipe = NULL;
    gpu_pipeline_request *req = NULL;
    wgs__gpu_scope_push(ctx->gpu);
    if (later)
        req = wgs__gpu_pipeline_request(ctx->gpu, sb.p, spec->entry, key);
    else
        pipe = wgs__gpu_pipeline_create(ctx->gpu, sb.p, spec->entry, key);
    char what[WGS_PIPELINE_KEY_MAX + 32];
    snprintf(what, sizeof what, "compiling kernel %s", key);
    wgs_result r = wgs__scope_end(ctx, what);
    free(sb.p);
    if (r == WGS_OK && !later && !pipe) r = wgs__fail(ctx, WGS_ERROR_GPU_INTERNAL, "%s: no pipeline", what);
    if (r == WGS_OK && later && !req) r = wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "%s: no request", what);
    char *custom_key = NULL;
    if (r == WGS_OK && spec->custom) {
        size_t len = strlen(spec->custom->key) + 1;
        custom_key = malloc(len);
        if (custom_key)
            memcpy(custom_key, spec->custom->key, len);
        else
            r = wgs__fail(ctx, WGS_ERROR_OUT_OF_HOST_MEMORY, "caching kernel %s", key);
    }
    if (r != WGS_OK) {
        if (req) { /* every request is waited for; its pipeline, if any, goes */
            char msg[8];
            WGPUComputePipeline late = NULL;
            if (wgs__gpu_pipeline_wait(ctx->gpu, req, &late, msg, sizeof msg) == WGS_OK)
                wgs__gpu_pipeline_release(ctx->gpu, late);
        }
        wgs__gpu_pipeline_release(ctx->gpu, pipe);
        return r;
    }
    wgs_pipeline_entry *e = &ctx->pipelines[ctx->pipeline_count++];
    snprintf(e->key, sizeof e->key, "%s", key);
    e->custom_key = custom_key;
    e->pipeline = pipe;
    e->request = req;
    if (!later) ctx->pipelines_created++;
    *out = pipe;
    return WGS_OK;
}

wgs_result wgs__pipelines_collect(wgs_context *ctx, int report) {
    wgs_result first = WGS_OK;
    size_t kept = 0;
    for (size_t i = 0; i < ctx->pipeline_count; i++) {
        wgs_pipeline_entry e = ctx->pipelines[i];
        if (e.request) {
            char msg[1024] = "";
            wgs_result r = wgs__gpu_pipeline_wait(ctx->gpu, e.request, &e.pipeline, msg, sizeof msg);
            e.request = NULL;
            if (r != WGS_OK) {
                if (first == WGS_OK) first = report ? wgs__fail(ctx, r, "compiling kernel %s: %s", e.key, msg) : r;
                free(e.custom_key);
                continue;
            }
            ctx->pipelines_prepared++;
        }
        ctx->pipelines[kept++] = e;
    }
    ctx->pipeline_count = kept;
    return first;
}

void wgs__pipelines_release(wgs_context *ctx) {
    for (size_t i = 0; i < ctx->pipeline_count; i++)
    {
        wgs__gpu_pipeline_release(ctx->gpu, ctx->pipelines[i].pipeline);
        free(ctx->pipelines[i].custom_key);
    }
    free(ctx->pipelines);
    ctx->pipelines = NULL;
    ctx->pipeline_count = ctx->pipeline_cap = 0;
}
