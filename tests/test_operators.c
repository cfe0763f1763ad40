/* SPDX-License-Identifier: MIT */
/*
 * test_operators.c: scans with a user's own operator (wgs_operator_desc) against a CPU
 * reference that combines in input order: non-commutative operators (affine maps under
 * composition, 2x2 and unitriangular 3x3 matrix products), structs of 1 to 4 words, at
 * the size boundaries of small tiles with forced fallbacks, chunks past one binding and
 * two-dimensional grids; the segmented reduce and scan, the scan by key and the reduce
 * by key with the same operators at their own boundaries (empty segments, one segment
 * over everything, many tiny ones, gaps); an operator that adds u32 against the built-in
 * add in every primitive; and each error a bad operator gets. Inputs are chosen so that the results are exact (integers,
 * or floats that hold small integers), so every comparison is bit for bit.
 */
#include "test_buffers.h"
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

typedef struct op_case {
    const char *name;
    wgs_operator_desc desc;
    uint32_t words;
    void (*combine)(uint32_t *acc, const uint32_t *x); /* acc = combine(acc, x) */
    void (*gen)(uint32_t *x, uint32_t *seed);          /* one element */
} op_case;

static uint32_t rnd(uint32_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static float f32_of(uint32_t w) {
    float f;
    memcpy(&f, &w, 4);
    return f;
}
static uint32_t bits_of(float f) {
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

/* Affine maps x -> a x + b, (a, b); combine(f, g) applies f, then g. */
static const char affine_src[] = "struct Affine { a: f32, b: f32 }\n"
                                 "fn then(f: Affine, g: Affine) -> Affine {\n"
                                 "    return Affine(g.a * f.a, g.a * f.b + g.b);\n"
                                 "}\n";
static const float affine_id[2] = {1.0f, 0.0f};
static void affine_combine(uint32_t *acc, const uint32_t *x) {
    float fa = f32_of(acc[0]), fb = f32_of(acc[1]), ga = f32_of(x[0]), gb = f32_of(x[1]);
    acc[0] = bits_of(ga * fa);
    acc[1] = bits_of(ga * fb + gb);
}
/* a in {-1, 0, 1} (0 rarely), b a small integer: every partial result is an integer
 * below 2^24, exact in f32 in any grouping. */
static void affine_gen(uint32_t *x, uint32_t *s) {
    uint32_t r = rnd(s);
    x[0] = bits_of(r % 16 == 0 ? 0.0f : (r & 16) ? -1.0f : 1.0f);
    x[1] = bits_of((float)((int)(rnd(s) % 17) - 8));
}

/* 2x2 u32 matrices (a b; c d), the product in order, wrapping. */
static const char mat2_src[] = "struct Mat2 {\n    a: u32,\n    b: u32,\n    c: u32,\n    d: u32,\n}\n"
                               "fn mul(x: Mat2, y: Mat2) -> Mat2 {\n"
                               "    return Mat2(x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d,\n"
                               "                x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d);\n"
                               "}\n";
static const uint32_t mat2_id[4] = {1, 0, 0, 1};
static void mat2_combine(uint32_t *m, const uint32_t *y) {
    uint32_t a = m[0] * y[0] + m[1] * y[2], b = m[0] * y[1] + m[1] * y[3];
    uint32_t c = m[2] * y[0] + m[3] * y[2], d = m[2] * y[1] + m[3] * y[3];
    m[0] = a, m[1] = b, m[2] = c, m[3] = d;
}
/* a and d odd, b and c even: the determinant is odd, so products never collapse to
 * zero modulo 2^32 (random small matrices do within a few hundred steps, after which a
 * wrong order would go unseen). */
static void mat2_gen(uint32_t *x, uint32_t *s) {
    for (int i = 0; i < 4; i++) x[i] = 2 * (rnd(s) % 3) + (i == 0 || i == 3);
}

/* Unitriangular 3x3 matrices (1 a c; 0 1 b; 0 0 1) as (a, b, c): three words. */
static const char heis_src[] = "struct Heis { a: u32, b: u32, c: u32 }\n"
                               "fn heis_mul(x: Heis, y: Heis) -> Heis {\n"
                               "    return Heis(x.a + y.a, x.b + y.b, x.c + y.c + x.a * y.b);\n"
                               "}\n";
static const uint32_t heis_id[3] = {0, 0, 0};
static void heis_combine(uint32_t *m, const uint32_t *y) {
    m[2] = m[2] + y[2] + m[0] * y[1];
    m[0] += y[0];
    m[1] += y[1];
}
static void heis_gen(uint32_t *x, uint32_t *s) {
    for (int i = 0; i < 3; i++) x[i] = rnd(s) % 1000;
}

/* One word: the last non-zero value so far (0 as the identity). */
static const char last_src[] = "struct Last { v: u32 }\n"
                               "fn keep_last(x: Last, y: Last) -> Last { return Last(select(x.v, y.v, y.v != 0u)); }\n";
static const uint32_t last_id[1] = {0};
static void last_combine(uint32_t *m, const uint32_t *y) {
    if (y[0]) m[0] = y[0];
}
static void last_gen(uint32_t *x, uint32_t *s) {
    uint32_t r = rnd(s);
    x[0] = r % 8 == 0 ? r : 0;
}

/* A vector: (sum, last non-zero) of i32 pairs. */
static const char pair_src[] = "fn sum_last(p: vec2<i32>, q: vec2<i32>) -> vec2<i32> {\n"
                               "    return vec2<i32>(p.x + q.x, select(p.y, q.y, q.y != 0));\n"
                               "}\n";
static const int32_t pair_id[2] = {0, 0};
static void pair_combine(uint32_t *m, const uint32_t *y) {
    m[0] = (uint32_t)((int32_t)m[0] + (int32_t)y[0]);
    if (y[1]) m[1] = y[1];
}
static void pair_gen(uint32_t *x, uint32_t *s) {
    x[0] = (uint32_t)((int32_t)(rnd(s) % 2001) - 1000);
    uint32_t r = rnd(s);
    x[1] = r % 4 == 0 ? (uint32_t)-(int32_t)(r % 77) : 0;
}

/* u32 addition, as the built-in add. */
static const char add_src[] = "fn plus(x: u32, y: u32) -> u32 { return x + y; }\n";
static const uint32_t add_id[1] = {0};
static void add_combine(uint32_t *m, const uint32_t *y) { m[0] += y[0]; }
static void add_gen(uint32_t *x, uint32_t *s) { x[0] = rnd(s); }

static const op_case affine = {"affine", {affine_src, "Affine", "then", affine_id, 8, 0}, 2, affine_combine, affine_gen};
static const op_case mat2 = {"mat2", {mat2_src, "Mat2", "mul", mat2_id, 16, 0}, 4, mat2_combine, mat2_gen};
static const op_case heis = {"heis", {heis_src, "Heis", "heis_mul", heis_id, 12, 0}, 3, heis_combine, heis_gen};
static const op_case last = {"last", {last_src, "Last", "keep_last", last_id, 4, 0}, 1, last_combine, last_gen};
static const op_case pair = {"pair", {pair_src, " vec2<i32> ", "sum_last", pair_id, 8, 0}, 2, pair_combine, pair_gen};
static const op_case add = {"add", {add_src, "u32", "plus", add_id, 4, 1}, 1, add_combine, add_gen};

/* The CPU's scan, in input order from the carry (or the identity). */
static void reference(const op_case *c, int inclusive, const uint32_t *in, uint64_t n, const uint32_t *carry,
                      uint32_t *out) {
    uint32_t acc[4];
    memcpy(acc, carry ? carry : c->desc.identity, 4 * c->words);
    for (uint64_t i = 0; i < n; i++) {
        if (!inclusive) memcpy(out + i * c->words, acc, 4 * c->words);
        c->combine(acc, in + i * c->words);
        if (inclusive) memcpy(out + i * c->words, acc, 4 * c->words);
    }
}

/* carry_mode: 0 none, 1 init_value, 2 init_buffer; in_place: the output is the input's
 * buffer. Returns 1 when the GPU's result equals the reference bit for bit (failures
 * recorded). */
static int check_scan_into(wgs_context *ctx, const op_case *c, wgs_scan_kind kind, wgs_scan_algorithm algo,
                           uint64_t n, int carry_mode, uint32_t seed, int in_place) {
    uint64_t words = n * c->words, bytes = 4 * (words ? words : 1);
    uint32_t *in = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
    uint32_t carry[4];
    c->gen(carry, &seed);
    for (uint64_t i = 0; i < n; i++) c->gen(in + i * c->words, &seed);
    reference(c, kind == WGS_SCAN_INCLUSIVE, in, n, carry_mode ? carry : NULL, want);
    wgs_scan_plan *plan = NULL;
    wgs_scan_plan_desc d = {.kind = kind, .algorithm = algo, .capacity = n, .custom = &c->desc};
    wgs_result r = wgs_scan_plan_create(ctx, &d, &plan);
    CHECK_RESULT(r, WGS_OK);
    int ok = r == WGS_OK;
    WGPUBuffer bi = NULL, bo = NULL, bc = NULL;
    if (ok) {
        bi = test_upload(ctx, in, bytes);
        bo = in_place ? bi : test_buffer(ctx, bytes);
        if (carry_mode == 2) bc = test_upload(ctx, carry, 4 * c->words);
        WGPUCommandEncoder enc = NULL;
        ok = bi && bo && wgs_encoder_create(ctx, &enc) == WGS_OK;
        wgs_scan_args a = {.input = bi, .output = bo, .n = n};
        if (carry_mode == 1) a.init_value = carry;
        if (carry_mode == 2) a.init_buffer = bc;
        if (ok) {
            r = wgs_scan_encode(plan, enc, &a);
            CHECK_RESULT(r, WGS_OK);
            wgs_result rs = wgs_submit(ctx, enc);
            CHECK_RESULT(rs, WGS_OK);
            ok = r == WGS_OK && rs == WGS_OK;
        }
        ok = ok && (n == 0 || test_download(ctx, bo, got, 4 * words));
    }
    if (ok && n && memcmp(got, want, 4 * words) != 0) {
        uint64_t i = 0;
        while (memcmp(got + i * c->words, want + i * c->words, 4 * c->words) == 0) i++;
        test_fail(__FILE__, __LINE__, "%s %s %s n=%llu carry %d: element %llu: got %08x %08x, want %08x %08x",
                  c->name, kind == WGS_SCAN_INCLUSIVE ? "inclusive" : "exclusive",
                  wgs_scan_plan_algorithm(plan, n, 0) == WGS_SCAN_ALGORITHM_SINGLE_PASS ? "single-pass" : "multi-level",
                  (unsigned long long)n, carry_mode, (unsigned long long)i, got[i * c->words],
                  c->words > 1 ? got[i * c->words + 1] : 0, want[i * c->words], c->words > 1 ? want[i * c->words + 1] : 0);
        ok = 0;
    }
    wgs_buffer_release(ctx, bi);
    if (!in_place) wgs_buffer_release(ctx, bo);
    wgs_buffer_release(ctx, bc);
    wgs_scan_plan_destroy(plan);
    free(in);
    free(want);
    free(got);
    return ok;
}

static int check_scan(wgs_context *ctx, const op_case *c, wgs_scan_kind kind, wgs_scan_algorithm algo, uint64_t n,
                      int carry_mode, uint32_t seed) {
    return check_scan_into(ctx, c, kind, algo, n, carry_mode, seed, 0);
}

/* Small tiles (128 elements: the scans', the segmented reduce's, the scan by key's), a
 * fallback after every fruitless look-back step, bindings
 * of 64 KiB and grids of 3 x 3 (chunks of 9 tiles): every boundary at small n. */
static wgs_context *small_context(void) {
    static wgs_context *ctx;
    if (!ctx) {
        wgs_experimental e = {.max_workgroups_per_dimension = 3,
                              .max_storage_binding_size = 65536,
                              .lookback_spins = 1,
                              .scan_single_pass = {32, 4},
                              .scan_multilevel = {32, 4},
                              .segmented = {32, 4},
                              .scan_by_key = {32, 4}};
        ctx = test_context_experimental(&e);
    }
    return ctx;
}

TEST(operator_scan_non_commutative_boundaries) {
    wgs_context *ctx = small_context();
    if (!ctx) return;
    /* 0, 1, a tile +- 1, two tiles + 1, a chunk (9 tiles) + 1, past one binding of
     * 16-byte elements, a second level of the multi-level (past a tile of tiles). */
    const uint64_t sizes[] = {0, 1, 127, 128, 129, 257, 1153, 4097, 20001};
    const op_case *cases[] = {&affine, &mat2};
    uint32_t seed = 12345;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 2; k++)
            for (int al = 0; al < 2; al++)
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                    wgs_scan_kind kind = k ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE;
                    wgs_scan_algorithm algo = al ? WGS_SCAN_ALGORITHM_SINGLE_PASS : WGS_SCAN_ALGORITHM_MULTILEVEL;
                    if (!check_scan(ctx, cases[c], kind, algo, sizes[s], (int)(s % 3), seed++)) return;
                }
}

/* Floats that round: the single pass's results are the same bits run to run (its
 * look-back folds in tile order whatever was ready), and the multi-level's too. */
TEST(operator_scan_deterministic_floats) {
    wgs_context *ctx = small_context();
    if (!ctx) return;
    const uint64_t n = 20001;
    float *in = malloc(8 * n);
    uint32_t *runs[3];
    uint32_t seed = 2024;
    for (uint64_t i = 0; i < 2 * n; i++) in[i] = 0.5f + (float)(rnd(&seed) % 1000003) / 1000003.0f;
    for (int al = 0; al < 2; al++) {
        wgs_scan_plan_desc d = {.kind = WGS_SCAN_INCLUSIVE, .capacity = n, .custom = &affine.desc,
                                .algorithm = al ? WGS_SCAN_ALGORITHM_SINGLE_PASS : WGS_SCAN_ALGORITHM_MULTILEVEL};
        for (int r = 0; r < 3; r++) {
            runs[r] = malloc(8 * n);
            CHECK_RESULT(wgs_scan_host(ctx, &d, in, n, runs[r]), WGS_OK);
        }
        CHECK(memcmp(runs[0], runs[1], 8 * n) == 0 && memcmp(runs[0], runs[2], 8 * n) == 0);
        for (int r = 0; r < 3; r++) free(runs[r]);
    }
    free(in);
}

/* A vector element (its name with spaces around it, as a user may write it). */
TEST(operator_scan_vector) {
    wgs_context *ctx = small_context();
    if (!ctx) return;
    uint32_t seed = 5;
    check_scan(ctx, &pair, WGS_SCAN_EXCLUSIVE, WGS_SCAN_ALGORITHM_SINGLE_PASS, 1153, 1, seed++);
    check_scan(ctx, &pair, WGS_SCAN_EXCLUSIVE, WGS_SCAN_ALGORITHM_MULTILEVEL, 4097, 2, seed++);
}

TEST(operator_scan_structs_of_1_to_4_words) {
    wgs_context *ctx = small_context();
    if (!ctx) return;
    const op_case *cases[] = {&last, &affine, &heis, &mat2};
    const uint64_t sizes[] = {1, 129, 4097};
    uint32_t seed = 777;
    for (int c = 0; c < 4; c++)
        for (int al = 0; al < 2; al++)
            for (size_t s = 0; s < 3; s++)
                if (!check_scan(ctx, cases[c], WGS_SCAN_INCLUSIVE,
                                al ? WGS_SCAN_ALGORITHM_SINGLE_PASS : WGS_SCAN_ALGORITHM_MULTILEVEL, sizes[s],
                                (int)((s + (size_t)al) % 3), seed++))
                    return;
}

/* The device's own tiles (the tuning table's), with a chain long enough to wait. */
TEST(operator_scan_default_tiles) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    uint32_t seed = 99;
    for (int al = 0; al < 2; al++) {
        wgs_scan_algorithm algo = al ? WGS_SCAN_ALGORITHM_SINGLE_PASS : WGS_SCAN_ALGORITHM_MULTILEVEL;
        if (!check_scan(ctx, &affine, WGS_SCAN_EXCLUSIVE, algo, 50001, 1, seed++)) return;
        if (!check_scan(ctx, &mat2, WGS_SCAN_INCLUSIVE, algo, 30001, 2, seed++)) return;
    }
}

/* An operator that is u32 addition gives the built-in add's bits. */
TEST(operator_u32_add_equals_builtin) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t n = (1u << 18) + 3;
    uint32_t *in = malloc(4 * n), *mine = malloc(4 * n), *theirs = malloc(4 * n);
    uint32_t seed = 4242;
    for (uint64_t i = 0; i < n; i++) in[i] = rnd(&seed);
    for (int commutes = 0; commutes < 2; commutes++) {
        /* The sanitized run takes the commutative path alone: the ordered one's host path
         * is the affine and matrix tests', whose operators do not commute. */
        if (test_sanitized() && !commutes) continue;
        wgs_operator_desc op = add.desc;
        op.commutative = commutes;
        for (int k = 0; k < 2; k++) {
            wgs_scan_kind kind = k ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE;
            CHECK_RESULT(wgs_scan_host(ctx, &(wgs_scan_plan_desc){.kind = kind, .custom = &op}, in, n, mine), WGS_OK);
            CHECK_RESULT(wgs_scan_host(ctx, &(wgs_scan_plan_desc){.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .kind = kind},
                                       in, n, theirs),
                         WGS_OK);
            CHECK(memcmp(mine, theirs, 4 * n) == 0);
        }
        uint32_t r_mine = 1, r_theirs = 2;
        CHECK_RESULT(wgs_reduce_host(ctx, &(wgs_reduce_plan_desc){.custom = &op}, in, n, &r_mine), WGS_OK);
        CHECK_RESULT(wgs_reduce_host(ctx, &(wgs_reduce_plan_desc){.type = WGS_TYPE_U32}, in, n, &r_theirs), WGS_OK);
        CHECK(r_mine == r_theirs);
    }
    free(in);
    free(mine);
    free(theirs);
}

/* A commutative operator on a scalar runs on the built-ins' row tiles and subgroup
 * scans (wgs__operator_subgroups): the scans at every boundary of small tiles, with
 * fallbacks, chunks and carries, and the reduce with a count from the GPU that ends
 * inside a tile the word view holds whole (whose words past the count must not enter
 * the total). */
TEST(operator_scalar_commutative_boundaries) {
    wgs_context *ctx = small_context();
    if (!ctx) return;
    const uint64_t sizes[] = {0, 1, 3, 127, 128, 129, 257, 1153, 4097, 20001};
    uint32_t seed = 8080;
    for (int k = 0; k < 2; k++)
        for (int al = 0; al < 2; al++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                if (!check_scan(ctx, &add, k ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                al ? WGS_SCAN_ALGORITHM_SINGLE_PASS : WGS_SCAN_ALGORITHM_MULTILEVEL, sizes[s],
                                (int)(s % 3), seed++))
                    return;
    const uint64_t n = 20001, counts[] = {0, 1, 129, 200, 16385, 20001, 30000};
    uint32_t *in = malloc(4 * n);
    for (uint64_t i = 0; i < n; i++) in[i] = rnd(&seed);
    wgs_reduce_plan *plan = NULL;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.custom = &add.desc, .capacity = n}, &plan),
                 WGS_OK);
    WGPUBuffer bi = test_upload(ctx, in, 4 * n);
    for (size_t k = 0; plan && bi && k < sizeof counts / sizeof counts[0]; k++) {
        uint32_t want = 0, got = 0;
        for (uint64_t i = 0; i < (counts[k] < n ? counts[k] : n); i++) want += in[i];
        WGPUBuffer bo = test_upload(ctx, (uint32_t[1]){7}, 4), bn = test_count_buffer(ctx, (uint32_t)counts[k], 0);
        WGPUCommandEncoder enc = NULL;
        if (!bo || !bn || wgs_encoder_create(ctx, &enc) != WGS_OK) break;
        wgs_result r = wgs_reduce_encode(plan, enc, &(wgs_reduce_args){.input = bi, .n = n, .output = bo, .n_buffer = bn});
        CHECK_RESULT(r, WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        if (r == WGS_OK && test_download(ctx, bo, &got, 4) && got != want)
            test_fail(__FILE__, __LINE__, "add reduce, count %llu of %llu: got %08x, want %08x",
                      (unsigned long long)counts[k], (unsigned long long)n, got, want);
        wgs_buffer_release(ctx, bo);
        wgs_buffer_release(ctx, bn);
    }
    wgs_buffer_release(ctx, bi);
    wgs_reduce_plan_destroy(plan);
    free(in);
}

/* A user's f32 add that commutes compiles to the built-in f32 add's multi-level kernels,
 * so it rounds as they do: the same bits for inputs whose sums round (on the portable
 * tiles, which group the additions otherwise, they differed). */
TEST(operator_f32_add_runs_builtin_kernels) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    static const uint32_t zero[1] = {0};
    const wgs_operator_desc fadd = {"fn fplus(x: f32, y: f32) -> f32 { return x + y; }\n", "f32", "fplus", zero, 4, 1};
    const uint64_t n = 50001;
    float *in = malloc(4 * n), *mine = malloc(4 * n), *theirs = malloc(4 * n);
    uint32_t seed = 1618;
    for (uint64_t i = 0; i < n; i++)
        in[i] = ((float)(rnd(&seed) % 2000001) - 1000000.0f) / (float)(1u + rnd(&seed) % 997u);
    for (int k = 0; k < 2; k++) {
        wgs_scan_kind kind = k ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE;
        CHECK_RESULT(wgs_scan_host(ctx, &(wgs_scan_plan_desc){.kind = kind, .algorithm = WGS_SCAN_ALGORITHM_MULTILEVEL,
                                                               .custom = &fadd},
                                   in, n, mine),
                     WGS_OK);
        CHECK_RESULT(wgs_scan_host(ctx, &(wgs_scan_plan_desc){.type = WGS_TYPE_F32, .op = WGS_OP_ADD, .kind = kind,
                                                               .algorithm = WGS_SCAN_ALGORITHM_MULTILEVEL},
                                   in, n, theirs),
                     WGS_OK);
        CHECK(memcmp(mine, theirs, 4 * n) == 0);
    }
    free(in);
    free(mine);
    free(theirs);
}

static void fold(const op_case *c, const uint32_t *in, uint64_t b, uint64_t e, uint32_t *acc);

/* Reduce: one element, the whole input combined in order (n = 0: the identity); with a
 * count from the GPU too. */
TEST(operator_reduce) {
    wgs_context *ctx = small_context();
    if (!ctx) return;
    const uint64_t sizes[] = {0, 1, 127, 128, 129, 1153, 20001};
    const op_case *cases[] = {&affine, &mat2, &heis};
    uint32_t seed = 31337;
    uint32_t *in = malloc(4 * 4 * 20001);
    for (int c = 0; c < 3; c++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const op_case *oc = cases[c];
            uint64_t n = sizes[s];
            for (uint64_t i = 0; i < n; i++) oc->gen(in + i * oc->words, &seed);
            uint32_t want[4], got[4] = {0xDEAD, 0xDEAD, 0xDEAD, 0xDEAD};
            memcpy(want, oc->desc.identity, 4 * oc->words);
            for (uint64_t i = 0; i < n; i++) oc->combine(want, in + i * oc->words);
            CHECK_RESULT(wgs_reduce_host(ctx, &(wgs_reduce_plan_desc){.custom = &oc->desc}, in, n, got), WGS_OK);
            if (memcmp(got, want, 4 * oc->words) != 0)
                test_fail(__FILE__, __LINE__, "%s reduce n=%llu: got %08x %08x, want %08x %08x", oc->name,
                          (unsigned long long)n, got[0], got[1], want[0], want[1]);
        }
    free(in);
    /* Refused: a type beside the operator, an atomic algorithm. */
    wgs_reduce_plan *plan = NULL;
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.custom = &affine.desc,
                                                                     .algorithm = WGS_REDUCE_ALGORITHM_ATOMIC},
                                        &plan),
                 WGS_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL);
    /* A count from the GPU: the first `count` of n (20001: five chunks, two levels). */
    const uint64_t n = 20001, counts[] = {0, 1, 128, 129, 16385, 20001, 30000};
    uint32_t *mats = malloc(16 * n);
    for (uint64_t i = 0; i < n; i++) mat2.gen(mats + 4 * i, &seed);
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.custom = &mat2.desc, .capacity = n}, &plan),
                 WGS_OK);
    WGPUBuffer bi = test_upload(ctx, mats, 16 * n);
    for (size_t k = 0; plan && bi && k < sizeof counts / sizeof counts[0]; k++) {
        uint32_t want[4], got[4];
        fold(&mat2, mats, 0, counts[k] < n ? counts[k] : n, want);
        WGPUBuffer bo = test_upload(ctx, (uint32_t[4]){7, 7, 7, 7}, 16), bn = test_count_buffer(ctx, (uint32_t)counts[k], 0);
        WGPUCommandEncoder enc = NULL;
        if (!bo || !bn || wgs_encoder_create(ctx, &enc) != WGS_OK) break;
        wgs_result r = wgs_reduce_encode(plan, enc, &(wgs_reduce_args){.input = bi, .n = n, .output = bo, .n_buffer = bn});
        CHECK_RESULT(r, WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        if (r == WGS_OK && test_download(ctx, bo, got, 16) && memcmp(got, want, 16) != 0)
            test_fail(__FILE__, __LINE__, "mat2 reduce, count %llu of %llu: got %08x %08x, want %08x %08x",
                      (unsigned long long)counts[k], (unsigned long long)n, got[0], got[1], want[0], want[1]);
        wgs_buffer_release(ctx, bo);
        wgs_buffer_release(ctx, bn);
    }
    wgs_buffer_release(ctx, bi);
    wgs_reduce_plan_destroy(plan);
    free(mats);
}

/* A count from the GPU: the first `count` of n elements scanned, nothing past them
 * written (the output starts as a pattern), in both algorithms, with a carry. */
TEST(operator_scan_count_from_gpu) {
    wgs_context *ctx = small_context();
    if (!ctx) return;
    const uint64_t n = 4097, counts[] = {0, 1, 129, 2000, 4097, 9000};
    const uint32_t w = mat2.words;
    uint32_t *in = malloc(16 * n), *want = malloc(16 * n), *got = malloc(16 * n), *pattern = malloc(16 * n);
    uint32_t seed = 4040, carry[4];
    for (uint64_t i = 0; i < n; i++) mat2.gen(in + i * w, &seed);
    mat2.gen(carry, &seed);
    for (uint64_t i = 0; i < 4 * n; i++) pattern[i] = 0xA5A5A5A5u;
    WGPUBuffer bi = test_upload(ctx, in, 16 * n);
    for (int al = 0; al < 2; al++) {
        wgs_scan_plan *plan = NULL;
        wgs_scan_plan_desc d = {.kind = WGS_SCAN_INCLUSIVE, .capacity = n, .custom = &mat2.desc,
                                .algorithm = al ? WGS_SCAN_ALGORITHM_SINGLE_PASS : WGS_SCAN_ALGORITHM_MULTILEVEL};
        CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
        for (size_t k = 0; plan && bi && k < sizeof counts / sizeof counts[0]; k++) {
            const uint64_t c = counts[k] < n ? counts[k] : n;
            reference(&mat2, 1, in, c, carry, want);
            memcpy(want + c * w, pattern, 16 * (n - c));
            WGPUBuffer bo = test_upload(ctx, pattern, 16 * n), bn = test_count_buffer(ctx, (uint32_t)counts[k], 0);
            WGPUCommandEncoder enc = NULL;
            if (!bo || !bn || wgs_encoder_create(ctx, &enc) != WGS_OK) break;
            wgs_result r = wgs_scan_encode(plan, enc, &(wgs_scan_args){.input = bi, .output = bo, .n = n,
                                                                       .init_value = carry, .n_buffer = bn});
            CHECK_RESULT(r, WGS_OK);
            CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
            if (r == WGS_OK && test_download(ctx, bo, got, 16 * n) && memcmp(got, want, 16 * n) != 0) {
                uint64_t i = 0;
                while (memcmp(got + i * w, want + i * w, 16) == 0) i++;
                test_fail(__FILE__, __LINE__, "mat2 scan, %s, count %llu of %llu: element %llu: got %08x, want %08x",
                          al ? "single-pass" : "multi-level", (unsigned long long)counts[k], (unsigned long long)n,
                          (unsigned long long)i, got[i * w], want[i * w]);
            }
            wgs_buffer_release(ctx, bo);
            wgs_buffer_release(ctx, bn);
        }
        wgs_scan_plan_destroy(plan);
    }
    wgs_buffer_release(ctx, bi);
    free(in), free(want), free(got), free(pattern);
}

/* ---- the segmented primitives ------------------------------------------------------ */

/* acc = identity, then elements b .. e - 1 of `in` combined in order. */
static void fold(const op_case *c, const uint32_t *in, uint64_t b, uint64_t e, uint32_t *acc) {
    memcpy(acc, c->desc.identity, 4 * c->words);
    for (uint64_t i = b; i < e; i++) c->combine(acc, in + i * c->words);
}

/* Each run scanned from the identity (the first from `carry` where given): a run starts
 * at every head; an element in a gap is the identity and starts nothing. */
static void runs_reference(const op_case *c, int inclusive, const uint32_t *in, uint64_t n, const uint8_t *heads,
                           const uint8_t *gaps, const uint32_t *carry, uint32_t *out) {
    const uint32_t w = c->words;
    uint32_t acc[4];
    memcpy(acc, carry ? carry : c->desc.identity, 4 * w);
    for (uint64_t i = 0; i < n; i++) {
        if (gaps && gaps[i]) {
            memcpy(out + i * w, c->desc.identity, 4 * w);
            continue;
        }
        if (heads[i] && !(i == 0 && carry)) memcpy(acc, c->desc.identity, 4 * w);
        if (!inclusive) memcpy(out + i * w, acc, 4 * w);
        c->combine(acc, in + i * w);
        if (inclusive) memcpy(out + i * w, acc, 4 * w);
    }
}

/* Segments over n elements for a tile of 128, as begins and ends (a CSR layout has
 * ends[s] = begins[s + 1]): 0 one segment over everything, 1 many tiny ones (0 to 3
 * long, empty ones among them), 2 lengths at the tile's borders (0, 1, 2, 127, 128,
 * 129, up to 3 tiles), 3 no segments, 4 three empty segments at n, 5 (BEGIN_END only)
 * segments with gaps between, before and after them. Returns the count, at most n + 3. */
static uint64_t make_segments(int style, uint64_t n, uint32_t *seed, uint32_t *begins, uint32_t *ends) {
    static const uint32_t borders[] = {0, 1, 2, 127, 128, 129};
    uint64_t s = 0, at = style == 5 ? rnd(seed) % 5 : 0;
    if (style == 0) {
        begins[0] = 0, ends[0] = (uint32_t)n;
        return 1;
    }
    if (style == 3) return 0;
    if (style == 4) {
        for (; s < 3; s++) begins[s] = ends[s] = (uint32_t)n;
        return 3;
    }
    while (at < n) {
        uint64_t len = style == 1 ? rnd(seed) % 4 : rnd(seed) % 3 ? borders[rnd(seed) % 6] : rnd(seed) % 384;
        if (at + len > n) len = n - at;
        if (len == 0 && s > at) len = 1; /* empty segments stay fewer than n + 2 */
        begins[s] = (uint32_t)at, ends[s] = (uint32_t)(at + len);
        s++;
        at += len + (style == 5 ? rnd(seed) % 3 : 0);
    }
    return s;
}

static const char *const style_names[] = {"one segment", "tiny segments", "tile borders", "no segments",
                                          "empty segments", "gaps"};

/* One segmented reduce with `plan` (its operator c) against the CPU: CSR offsets unless
 * begin_end; n_count: a count from the GPU of that many values (n the bound), else 0. */
static int check_segmented_reduce(wgs_context *ctx, wgs_segmented_reduce_plan *plan, const op_case *c, int begin_end,
                                  int style, uint64_t n, uint64_t n_count, uint32_t seed) {
    const uint32_t w = c->words;
    const uint64_t used = n_count ? n_count : n;
    uint32_t *in = malloc(4 * w * (n + 1)), *begins = malloc(4 * (used + 4)), *ends = malloc(4 * (used + 4));
    uint64_t segs = make_segments(style, used, &seed, begins, ends);
    uint32_t *want = malloc(4 * w * (segs + 1)), *got = malloc(4 * w * (segs + 1));
    for (uint64_t i = 0; i < n; i++) c->gen(in + i * w, &seed);
    for (uint64_t k = 0; k < segs; k++) fold(c, in, begins[k], ends[k], want + k * w);
    if (!begin_end) begins[segs] = segs ? ends[segs - 1] : 0;
    WGPUBuffer bi = test_upload(ctx, in, 4 * w * (n ? n : 1)), bb = test_upload(ctx, begins, 4 * (segs + 1));
    WGPUBuffer be = test_upload(ctx, ends, 4 * (segs + 1)), bo = test_buffer(ctx, 4 * w * (segs + 1));
    WGPUBuffer st = test_buffer(ctx, 4), bn = n_count ? test_count_buffer(ctx, (uint32_t)n_count, 0) : NULL;
    WGPUCommandEncoder enc = NULL;
    int ok = bi && bb && be && bo && st && (!n_count || bn) && wgs_encoder_create(ctx, &enc) == WGS_OK;
    if (ok) {
        wgs_segmented_reduce_args a = {.input = bi, .n = n, .n_segments = segs, .output = bo, .status = st,
                                       .n_buffer = bn};
        if (begin_end) a.begin_offsets = bb, a.end_offsets = be;
        else a.offsets = bb;
        wgs_result r = wgs_segmented_reduce_encode(plan, enc, &a);
        CHECK_RESULT(r, WGS_OK);
        wgs_result rs = wgs_submit(ctx, enc);
        CHECK_RESULT(rs, WGS_OK);
        uint32_t status = 1;
        ok = r == WGS_OK && rs == WGS_OK && test_download(ctx, st, &status, 4) &&
             (segs == 0 || test_download(ctx, bo, got, 4 * w * segs));
        CHECK(status == 0);
    }
    for (uint64_t k = 0; ok && k < segs; k++)
        if (memcmp(got + k * w, want + k * w, 4 * w) != 0) {
            test_fail(__FILE__, __LINE__, "%s segmented reduce, %s, %s, n=%llu (count %llu): segment %llu of %llu "
                      "[%u, %u): got %08x %08x, want %08x %08x", c->name, begin_end ? "begin/end" : "offsets",
                      style_names[style], (unsigned long long)n, (unsigned long long)n_count,
                      (unsigned long long)k, (unsigned long long)segs, begins[k], ends[k], got[k * w],
                      w > 1 ? got[k * w + 1] : 0, want[k * w], w > 1 ? want[k * w + 1] : 0);
            ok = 0;
        }
    WGPUBuffer all[] = {bi, bb, be, bo, st, bn};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    free(in), free(begins), free(ends), free(want), free(got);
    return ok;
}

/* Sizes and layouts every segmented primitive meets: n = 0, 1, a tile +- 1, a segment
 * over 24 tiles (its partials folded by the whole workgroup: more than 16 tiles), many
 * tiny segments, lengths at the tile's borders. */
typedef struct seg_case {
    int style;
    uint64_t n;
} seg_case;
static const seg_case seg_cases[] = {{3, 0}, {4, 0}, {0, 1}, {1, 1}, {0, 127}, {0, 128}, {0, 129}, {2, 129},
                                     {0, 3001}, {1, 1153}, {2, 2000}, {4, 300}};

TEST(operator_segmented_reduce) {
    wgs_context *ctx = small_context();
    if (!ctx) return;
    const op_case *cases[] = {&affine, &mat2};
    uint32_t seed = 8080;
    for (int c = 0; c < 2; c++) {
        wgs_segmented_reduce_plan *plan = NULL;
        wgs_segmented_reduce_plan_desc d = {.capacity = 3001, .segment_capacity = 3001, .custom = &cases[c]->desc};
        CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &d, &plan), WGS_OK);
        for (size_t k = 0; plan && k < sizeof seg_cases / sizeof seg_cases[0]; k++)
            if (!check_segmented_reduce(ctx, plan, cases[c], 0, seg_cases[k].style, seg_cases[k].n, 0, seed++)) break;
        /* A count from the GPU: the first 1000 of 2000 values. */
        if (plan) check_segmented_reduce(ctx, plan, cases[c], 0, 2, 2000, 1000, seed++);
        wgs_segmented_reduce_plan_destroy(plan);
    }
    /* Three words (the partials' stride between one word's and four's). */
    wgs_segmented_reduce_plan *heis_plan = NULL;
    CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &(wgs_segmented_reduce_plan_desc){.capacity = 3001,
                                                                                         .segment_capacity = 3001,
                                                                                         .custom = &heis.desc},
                                                  &heis_plan),
                 WGS_OK);
    if (heis_plan) {
        check_segmented_reduce(ctx, heis_plan, &heis, 0, 2, 2000, 0, seed++);
        check_segmented_reduce(ctx, heis_plan, &heis, 0, 0, 3001, 0, seed++);
    }
    wgs_segmented_reduce_plan_destroy(heis_plan);
    /* Begin and end offsets with gaps (another form, other pipelines: one operator). */
    wgs_segmented_reduce_plan *plan = NULL;
    wgs_segmented_reduce_plan_desc d = {.segments = WGS_SEGMENTS_BEGIN_END, .capacity = 3001,
                                        .segment_capacity = 3001, .custom = &mat2.desc};
    CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &d, &plan), WGS_OK);
    for (int style = 0; plan && style < 6; style++)
        check_segmented_reduce(ctx, plan, &mat2, 1, style, style == 3 ? 0 : 1153 + 700 * (uint64_t)(style == 0), 0,
                               seed++);
    wgs_segmented_reduce_plan_destroy(plan);
    /* A type beside the operator is refused. */
    plan = NULL;
    d.type = WGS_TYPE_F32;
    CHECK_RESULT(wgs_segmented_reduce_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL);
}

/* One segmented scan with `plan` against the CPU (runs_reference with a head where a
 * non-empty segment begins and gaps where none covers). */
static int check_segmented_scan(wgs_context *ctx, wgs_segmented_scan_plan *plan, const op_case *c, int inclusive,
                                int begin_end, int style, uint64_t n, uint32_t seed) {
    const uint32_t w = c->words;
    uint32_t *in = malloc(4 * w * (n + 1)), *begins = malloc(4 * (n + 4)), *ends = malloc(4 * (n + 4));
    uint32_t *want = malloc(4 * w * (n + 1)), *got = malloc(4 * w * (n + 1));
    uint8_t *heads = calloc(n + 1, 1), *gaps = malloc(n + 1);
    memset(gaps, 1, n + 1);
    uint64_t segs = make_segments(style, n, &seed, begins, ends);
    for (uint64_t i = 0; i < n; i++) c->gen(in + i * w, &seed);
    for (uint64_t k = 0; k < segs; k++) {
        if (begins[k] < ends[k]) heads[begins[k]] = 1;
        memset(gaps + begins[k], 0, ends[k] - begins[k]);
    }
    runs_reference(c, inclusive, in, n, heads, gaps, NULL, want);
    if (!begin_end) begins[segs] = segs ? ends[segs - 1] : 0;
    WGPUBuffer bi = test_upload(ctx, in, 4 * w * (n ? n : 1)), bb = test_upload(ctx, begins, 4 * (segs + 1));
    WGPUBuffer be = test_upload(ctx, ends, 4 * (segs + 1)), bo = test_buffer(ctx, 4 * w * (n ? n : 1));
    WGPUBuffer st = test_buffer(ctx, 4);
    WGPUCommandEncoder enc = NULL;
    int ok = bi && bb && be && bo && st && wgs_encoder_create(ctx, &enc) == WGS_OK;
    if (ok) {
        wgs_segmented_scan_args a = {.input = bi, .output = bo, .n = n, .n_segments = segs, .status = st};
        if (begin_end) a.begin_offsets = bb, a.end_offsets = be;
        else a.offsets = bb;
        wgs_result r = wgs_segmented_scan_encode(plan, enc, &a);
        CHECK_RESULT(r, WGS_OK);
        wgs_result rs = wgs_submit(ctx, enc);
        CHECK_RESULT(rs, WGS_OK);
        uint32_t status = 1;
        ok = r == WGS_OK && rs == WGS_OK && test_download(ctx, st, &status, 4) &&
             (n == 0 || test_download(ctx, bo, got, 4 * w * n));
        CHECK(status == 0);
    }
    for (uint64_t i = 0; ok && i < n; i++)
        if (memcmp(got + i * w, want + i * w, 4 * w) != 0) {
            test_fail(__FILE__, __LINE__, "%s segmented scan %s, %s, %s, n=%llu: element %llu: got %08x %08x, want "
                      "%08x %08x", c->name, inclusive ? "inclusive" : "exclusive",
                      begin_end ? "begin/end" : "offsets", style_names[style], (unsigned long long)n,
                      (unsigned long long)i, got[i * w], w > 1 ? got[i * w + 1] : 0, want[i * w],
                      w > 1 ? want[i * w + 1] : 0);
            ok = 0;
        }
    WGPUBuffer all[] = {bi, bb, be, bo, st};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    free(in), free(begins), free(ends), free(want), free(got), free(heads), free(gaps);
    return ok;
}

TEST(operator_segmented_scan) {
    wgs_context *ctx = small_context();
    if (!ctx) return;
    /* affine exclusive and mat2 inclusive with offsets; mat2 exclusive with gaps; a
     * struct of one word. */
    const struct {
        const op_case *c;
        int inclusive, begin_end;
    } plans[] = {{&affine, 0, 0}, {&mat2, 1, 0}, {&mat2, 0, 1}, {&last, 1, 0}};
    uint32_t seed = 9090;
    for (size_t p = 0; p < sizeof plans / sizeof plans[0]; p++) {
        wgs_segmented_scan_plan *plan = NULL;
        wgs_segmented_scan_plan_desc d = {.kind = plans[p].inclusive ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                          .segments = plans[p].begin_end ? WGS_SEGMENTS_BEGIN_END : WGS_SEGMENTS_OFFSETS,
                                          .capacity = 3001, .segment_capacity = 3001, .custom = &plans[p].c->desc};
        CHECK_RESULT(wgs_segmented_scan_plan_create(ctx, &d, &plan), WGS_OK);
        if (!plan) continue;
        if (plans[p].begin_end) {
            for (int style = 0; style < 6; style++)
                if (!check_segmented_scan(ctx, plan, plans[p].c, 0, 1, style, style == 3 ? 0 : 1153, seed++)) break;
        } else if (plans[p].c == &last) {
            check_segmented_scan(ctx, plan, plans[p].c, 1, 0, 2, 2000, seed++);
        } else {
            for (size_t k = 0; k < sizeof seg_cases / sizeof seg_cases[0]; k++)
                if (!check_segmented_scan(ctx, plan, plans[p].c, plans[p].inclusive, 0, seg_cases[k].style,
                                          seg_cases[k].n, seed++))
                    break;
        }
        wgs_segmented_scan_plan_destroy(plan);
    }
}

/* Keys with runs as a style of make_segments lays out segments (one key a segment). */
static void keys_of_runs(int style, uint64_t n, uint32_t *seed, uint32_t *keys, uint8_t *heads) {
    uint32_t *b = malloc(4 * (n + 4)), *e = malloc(4 * (n + 4));
    uint64_t segs = make_segments(style, n, seed, b, e);
    memset(heads, 0, n);
    for (uint64_t k = 0; k < segs; k++)
        for (uint32_t i = b[k]; i < e[k]; i++) {
            keys[i] = (uint32_t)k * 7u + 3u;
            heads[i] = i == b[k];
        }
    if (n) heads[0] = 1;
    free(b), free(e);
}

/* One scan by key (keys) with `plan` against the CPU; carry_mode as check_scan's;
 * n_count: a count from the GPU (n the bound), else 0. */
static int check_scan_by_key(wgs_context *ctx, wgs_scan_by_key_plan *plan, const op_case *c, int inclusive, int style,
                             uint64_t n, uint64_t n_count, int carry_mode, uint32_t seed) {
    const uint32_t w = c->words;
    const uint64_t used = n_count ? n_count : n;
    uint32_t *in = malloc(4 * w * (n + 1)), *keys = malloc(4 * (n + 1)), *carry = malloc(16);
    uint32_t *want = malloc(4 * w * (n + 1)), *got = malloc(4 * w * (n + 1));
    uint8_t *heads = malloc(n + 1);
    keys_of_runs(style, n, &seed, keys, heads);
    for (uint64_t i = 0; i < n; i++) c->gen(in + i * w, &seed);
    c->gen(carry, &seed);
    runs_reference(c, inclusive, in, used, heads, NULL, carry_mode ? carry : NULL, want);
    WGPUBuffer bi = test_upload(ctx, in, 4 * w * (n ? n : 1)), bk = test_upload(ctx, keys, 4 * (n ? n : 1));
    WGPUBuffer bo = test_buffer(ctx, 4 * w * (n ? n : 1)), bc = carry_mode == 2 ? test_upload(ctx, carry, 16) : NULL;
    WGPUBuffer bn = n_count ? test_count_buffer(ctx, (uint32_t)n_count, 0) : NULL;
    WGPUCommandEncoder enc = NULL;
    int ok = bi && bk && bo && wgs_encoder_create(ctx, &enc) == WGS_OK;
    if (ok) {
        wgs_scan_by_key_args a = {.keys = bk, .input = bi, .output = bo, .n = n, .n_buffer = bn};
        if (carry_mode == 1) a.init_value = carry;
        if (carry_mode == 2) a.init_buffer = bc;
        wgs_result r = wgs_scan_by_key_encode(plan, enc, &a);
        CHECK_RESULT(r, WGS_OK);
        wgs_result rs = wgs_submit(ctx, enc);
        CHECK_RESULT(rs, WGS_OK);
        ok = r == WGS_OK && rs == WGS_OK && (n == 0 || test_download(ctx, bo, got, 4 * w * n));
    }
    for (uint64_t i = 0; ok && i < used; i++)
        if (memcmp(got + i * w, want + i * w, 4 * w) != 0) {
            test_fail(__FILE__, __LINE__, "%s scan by key %s, %s, n=%llu (count %llu), carry %d: element %llu: got "
                      "%08x %08x, want %08x %08x", c->name, inclusive ? "inclusive" : "exclusive",
                      style_names[style], (unsigned long long)n, (unsigned long long)n_count, carry_mode,
                      (unsigned long long)i, got[i * w], w > 1 ? got[i * w + 1] : 0, want[i * w],
                      w > 1 ? want[i * w + 1] : 0);
            ok = 0;
        }
    WGPUBuffer all[] = {bi, bk, bo, bc, bn};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    free(in), free(keys), free(carry), free(want), free(got), free(heads);
    return ok;
}

TEST(operator_scan_by_key) {
    wgs_context *ctx = small_context();
    if (!ctx) return;
    const op_case *cases[] = {&affine, &mat2};
    uint32_t seed = 7070;
    for (int c = 0; c < 2; c++) {
        wgs_scan_by_key_plan *plan = NULL;
        wgs_scan_by_key_plan_desc d = {.kind = c ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE, .capacity = 3001,
                                       .custom = &cases[c]->desc};
        CHECK_RESULT(wgs_scan_by_key_plan_create(ctx, &d, &plan), WGS_OK);
        for (size_t k = 0; plan && k < sizeof seg_cases / sizeof seg_cases[0]; k++) {
            if (seg_cases[k].style >= 3) continue; /* every element has a key */
            if (!check_scan_by_key(ctx, plan, cases[c], c, seg_cases[k].style, seg_cases[k].n, 0, (int)(k % 3),
                                   seed++))
                break;
        }
        /* A count from the GPU, with a carry of several words from the record. */
        if (plan) check_scan_by_key(ctx, plan, cases[c], c, 2, 2000, 1000, 1, seed++);
        wgs_scan_by_key_plan_destroy(plan);
    }
    /* Three words: the output's word view ends where 12-byte elements meet the offset
     * alignment (64 elements for 256 bytes), not at alignment / 12; n = 64, 1064, 2064. */
    wgs_scan_by_key_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_by_key_plan_create(ctx, &(wgs_scan_by_key_plan_desc){.kind = WGS_SCAN_INCLUSIVE,
                                                                               .capacity = 3001, .custom = &heis.desc},
                                             &plan),
                 WGS_OK);
    for (uint64_t n = 1; plan && n <= 2001; n += 1000) check_scan_by_key(ctx, plan, &heis, 1, 2, n + 63, 0, 2, seed++);
    wgs_scan_by_key_plan_destroy(plan);
}

/* One reduce by key (the host helper) against the CPU: each run's values combined in
 * order, and its first key. */
static int check_reduce_by_key(wgs_context *ctx, const op_case *c, int style, uint64_t n, uint32_t seed) {
    const uint32_t w = c->words;
    uint32_t *in = malloc(4 * w * (n + 1)), *keys = malloc(4 * (n + 1));
    uint32_t *want = malloc(4 * w * (n + 1)), *got = malloc(4 * w * (n + 1)), *uk = malloc(4 * (n + 1));
    uint8_t *heads = malloc(n + 1);
    keys_of_runs(style, n, &seed, keys, heads);
    for (uint64_t i = 0; i < n; i++) c->gen(in + i * w, &seed);
    uint64_t runs = 0;
    for (uint64_t i = 0; i < n; runs++) {
        uint64_t e = i + 1;
        while (e < n && !heads[e]) e++;
        fold(c, in, i, e, want + runs * w);
        i = e;
    }
    uint32_t num_runs = 0xDEAD;
    wgs_result r = wgs_reduce_by_key_host(ctx, &(wgs_reduce_by_key_plan_desc){.capacity = n, .custom = &c->desc},
                                          keys, in, n, uk, got, &num_runs);
    CHECK_RESULT(r, WGS_OK);
    int ok = r == WGS_OK && num_runs == runs;
    for (uint64_t i = 0, k = 0; ok && i < n; i++)
        if (heads[i] && uk[k++] != keys[i]) {
            test_fail(__FILE__, __LINE__, "%s reduce by key n=%llu: key of run %llu", c->name, (unsigned long long)n,
                      (unsigned long long)(k - 1));
            ok = 0;
        }
    if (r == WGS_OK && !ok)
        test_fail(__FILE__, __LINE__, "%s reduce by key n=%llu: %u runs, want %llu", c->name, (unsigned long long)n,
                  num_runs, (unsigned long long)runs);
    for (uint64_t k = 0; ok && k < runs; k++)
        if (memcmp(got + k * w, want + k * w, 4 * w) != 0) {
            test_fail(__FILE__, __LINE__, "%s reduce by key, %s, n=%llu: run %llu: got %08x %08x, want %08x %08x",
                      c->name, style_names[style], (unsigned long long)n, (unsigned long long)k, got[k * w],
                      w > 1 ? got[k * w + 1] : 0, want[k * w], w > 1 ? want[k * w + 1] : 0);
            ok = 0;
        }
    free(in), free(keys), free(want), free(got), free(uk), free(heads);
    return ok;
}

TEST(operator_reduce_by_key) {
    wgs_context *ctx = small_context();
    if (!ctx) return;
    const op_case *cases[] = {&affine, &mat2};
    uint32_t seed = 6060;
    for (int c = 0; c < 2; c++)
        for (size_t k = 0; k < sizeof seg_cases / sizeof seg_cases[0]; k++)
            if (seg_cases[k].style < 3 && !check_reduce_by_key(ctx, cases[c], seg_cases[k].style, seg_cases[k].n, seed++))
                break;
    uint32_t runs = 5;
    CHECK_RESULT(wgs_reduce_by_key_host(ctx, &(wgs_reduce_by_key_plan_desc){.custom = &affine.desc}, NULL, NULL, 0,
                                        NULL, NULL, &runs),
                 WGS_OK);
    CHECK(runs == 0);
    wgs_reduce_by_key_plan *plan = NULL;
    CHECK_RESULT(wgs_reduce_by_key_plan_create(ctx, &(wgs_reduce_by_key_plan_desc){.op = WGS_OP_MAX,
                                                                                  .custom = &affine.desc},
                                               &plan),
                 WGS_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL);
}

/* An operator that is u32 addition gives the built-in add's bits in the segmented and
 * keyed primitives too (the device's own tiles). */
TEST(operator_u32_add_equals_builtin_segmented) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t n = 100003;
    uint32_t *in = malloc(4 * n), *mine = malloc(4 * n), *theirs = malloc(4 * n), *keys = malloc(4 * n);
    uint32_t *b = malloc(4 * (n + 4)), *e = malloc(4 * (n + 4)), *uk = malloc(4 * n);
    uint8_t *heads = malloc(n);
    uint32_t seed = 5150;
    for (uint64_t i = 0; i < n; i++) in[i] = rnd(&seed);
    uint64_t segs = make_segments(2, n, &seed, b, e);
    b[segs] = e[segs - 1];
    keys_of_runs(2, n, &seed, keys, heads);
    const wgs_operator_desc *op = &add.desc;
    CHECK_RESULT(wgs_segmented_reduce_host(ctx, &(wgs_segmented_reduce_plan_desc){.custom = op}, in, b, NULL, n,
                                           segs, mine),
                 WGS_OK);
    CHECK_RESULT(wgs_segmented_reduce_host(ctx, &(wgs_segmented_reduce_plan_desc){0}, in, b, NULL, n, segs, theirs),
                 WGS_OK);
    CHECK(memcmp(mine, theirs, 4 * segs) == 0);
    CHECK_RESULT(wgs_segmented_scan_host(ctx, &(wgs_segmented_scan_plan_desc){.custom = op}, in, b, NULL, n, segs,
                                         mine),
                 WGS_OK);
    CHECK_RESULT(wgs_segmented_scan_host(ctx, &(wgs_segmented_scan_plan_desc){0}, in, b, NULL, n, segs, theirs),
                 WGS_OK);
    CHECK(memcmp(mine, theirs, 4 * n) == 0);
    wgs_scan_by_key_plan_desc sk = {.kind = WGS_SCAN_INCLUSIVE, .custom = op};
    CHECK_RESULT(wgs_scan_by_key_host(ctx, &sk, keys, in, n, mine), WGS_OK);
    sk.custom = NULL;
    CHECK_RESULT(wgs_scan_by_key_host(ctx, &sk, keys, in, n, theirs), WGS_OK);
    CHECK(memcmp(mine, theirs, 4 * n) == 0);
    uint32_t runs_mine = 0, runs_theirs = 1;
    CHECK_RESULT(wgs_reduce_by_key_host(ctx, &(wgs_reduce_by_key_plan_desc){.custom = op}, keys, in, n, uk, mine,
                                        &runs_mine),
                 WGS_OK);
    CHECK_RESULT(wgs_reduce_by_key_host(ctx, &(wgs_reduce_by_key_plan_desc){0}, keys, in, n, uk, theirs, &runs_theirs),
                 WGS_OK);
    CHECK(runs_mine == runs_theirs && memcmp(mine, theirs, 4 * runs_mine) == 0);
    free(in), free(mine), free(theirs), free(keys), free(b), free(e), free(uk), free(heads);
}

static char logged[2048];
static void keep_log(wgs_log_level level, wgs_result r, const char *m, void *u) {
    (void)level, (void)r, (void)u;
    snprintf(logged, sizeof logged, "%s", m);
}

/* Creates a scan plan with `op`; expects `want`, and `text` in the log when given. */
static void expect_refused(wgs_context *ctx, const wgs_operator_desc *op, wgs_result want, const char *text) {
    logged[0] = 0;
    wgs_scan_plan *plan = (wgs_scan_plan *)&plan;
    wgs_result r = wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.custom = op, .capacity = 100}, &plan);
    CHECK_RESULT(r, want);
    CHECK(plan == NULL);
    if (text && !strstr(logged, text)) test_fail(__FILE__, __LINE__, "log lacks '%s': %s", text, logged);
    wgs_scan_plan_destroy(plan);
}

TEST(operator_errors) {
    wgs_context *ctx = NULL;
    if (wgs_context_create(&(wgs_context_desc){.log = keep_log}, &ctx) != WGS_OK) {
        test_skip("no context");
        return;
    }
    const uint32_t id[5] = {0};
    wgs_operator_desc op = mat2.desc;
    /* Too large: five 32-bit fields. */
    op.source = "struct Five { a: u32, b: u32, c: u32, d: u32, e: u32 }\n"
                "fn f(x: Five, y: Five) -> Five { return x; }\n";
    op.element = "Five", op.combine = "f", op.identity = id, op.identity_size = 20;
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_TOO_LARGE, "16 bytes");
    /* Types it cannot carry. */
    op.source = "fn f(x: vec3<f32>, y: vec3<f32>) -> vec3<f32> { return x + y; }\n";
    op.element = "vec3<f32>", op.identity_size = 12;
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_TYPE, "vec3");
    op.source = "struct H { a: u32, b: vec2<u32> }\nfn f(x: H, y: H) -> H { return x; }\n";
    op.element = "H";
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_TYPE, "field b");
    op.source = "struct H { @align(16) a: u32 }\nfn f(x: H, y: H) -> H { return x; }\n";
    op.identity_size = 4;
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_RESERVED_NAME, "line 1");
    op.source = "fn f(x: u32, y: u32) -> u32 { return x; }\n";
    op.element = "Missing";
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_TYPE, "Missing");
    op.element = "vec2<f32";
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_TYPE, "vec2<f32");
    op.element = "vec2<f16>";
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_TYPE, "u32, i32 or f32");
    op.source = "struct E {}\nfn f(x: E, y: E) -> E { return x; }\n";
    op.element = "E";
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_TYPE, "no fields");
    op.source = "/* never closed\nfn f(x: u32, y: u32) -> u32 { return x; }\n";
    op.element = "u32", op.identity_size = 4;
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_COMPILE, NULL);
    /* The identity's size. */
    op = mat2.desc;
    op.identity_size = 12;
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_IDENTITY, "16");
    /* Reserved names and constructs, each naming its line. */
    struct {
        const char *src, *text;
    } reserved[] = {
        {"fn f(x: u32, y: u32) -> u32 {\n    return x + params.n;\n}\n", "line 2"},
        {"fn combine(x: u32, y: u32) -> u32 { return x + y; }\nfn f(x: u32, y: u32) -> u32 { return x + y; }\n", "'combine'"},
        {"var<private> total: u32;\nfn f(x: u32, y: u32) -> u32 { return x + y; }\n", "'var'"},
        {"@group(0) @binding(9) var<storage> leak: array<u32>;\nfn f(x: u32, y: u32) -> u32 { return x + y; }\n", "@group"},
        {"fn wgs_helper(x: u32) -> u32 { return x; }\nfn f(x: u32, y: u32) -> u32 { return x + y; }\n", "'wgs_helper'"},
        {"fn f(x: u32, y: u32) -> u32 {\n\n    workgroupBarrier();\n    return x + y;\n}\n", "line 3"},
        {"fn f(x: u32, y: u32) -> u32 { return x + subgroupAdd(y); }\n", "subgroupAdd"},
        {"fn f(x: u32, y: u32) -> u32 { return x + dst[0]; }\n", "'dst'"},
        {"const KEY_KIND: u32 = 1u;\nfn f(x: u32, y: u32) -> u32 { return x + y; }\n", "'KEY_KIND'"},
        {"fn f(x: u32, y: u32) -> u32 { return x + y + ELEMENT_WORDS; }\n", "'ELEMENT_WORDS'"},
        {"enable f16;\nfn f(x: u32, y: u32) -> u32 { return x + y; }\n", "'enable'"},
    };
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
        op = add.desc;
        op.source = reserved[i].src, op.combine = "f";
        expect_refused(ctx, &op, WGS_ERROR_OPERATOR_RESERVED_NAME, reserved[i].text);
    }
    /* Variables inside a function are the function's own: accepted. */
    op = add.desc;
    op.source = "fn f(x: u32, y: u32) -> u32 {\n    var s = x; // a comment with var<private> in it\n    s += y;\n    return s;\n}\n";
    op.combine = "f";
    wgs_scan_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.custom = &op, .capacity = 100}, &plan), WGS_OK);
    wgs_scan_plan_destroy(plan);
    /* WGSL that does not compile: the compiler's message, at the user's line. */
    op.source = "fn f(x: u32, y: u32) -> u32 {\n    let z = x +;\n    return z;\n}\n";
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_COMPILE, "line 2");
    op.source = "fn f(x: u32, y: u32) -> u32 {\n    return x + undefined_thing;\n}\n";
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_COMPILE, "undefined_thing");
    /* A function of the wrong signature; a function that is not there. */
    op.source = "fn f(x: f32, y: f32) -> f32 { return x + y; }\n";
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_COMPILE, "must be fn(a: u32, b: u32) -> u32");
    op.source = "fn g(x: u32, y: u32) -> u32 { return x + y; }\n";
    expect_refused(ctx, &op, WGS_ERROR_OPERATOR_COMPILE, NULL);
    /* A description missing its parts, or a type and op beside it. */
    op = add.desc;
    op.source = NULL;
    expect_refused(ctx, &op, WGS_ERROR_INVALID_ARGUMENT, NULL);
    op = add.desc;
    plan = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.type = WGS_TYPE_U32, .custom = &op}, &plan),
                 WGS_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL);
    wgs_context_destroy(ctx);
}

/* Structs of 2, 3 and 4 words through the subgroup kernels on row tiles of 4 rows
 * (32 x 16: a lane's words a row apart, so any fold out of input order shows): the
 * persistent single pass in 3 workgroups with no inclusive prefix published by an
 * owner and a fallback after each fruitless look-back step (every walk reaches back to
 * tile 0, which a helper must rebuild from the input), the multi-level's tile totals,
 * in place too, and the reduce, with bindings of 64 KiB (chunks of 4 to 8 tiles;
 * 12-byte elements end their 16-byte view at a multiple of 768 bytes) and grids of
 * 3 x 3. Its context replaces small_context()'s (test_main.c keeps one experimental
 * context), so it comes last. */
TEST(operator_scan_row_tiles_forced_fallbacks) {
    wgs_experimental e = {.max_workgroups_per_dimension = 3,
                          .max_storage_binding_size = 65536,
                          .lookback_spins = 1,
                          .chain_withhold_inclusive = 1,
                          .chain_withhold_first = 1,
                          .scan_single_pass_groups = 3,
                          .scan_single_pass = {32, 16},
                          .scan_multilevel = {32, 16}};
    wgs_context *ctx = test_context_experimental(&e);
    if (!ctx) return;
    const op_case *cases[] = {&affine, &heis, &mat2};
    const uint64_t sizes[] = {1, 511, 512, 513, 4097, 18949};
    uint32_t seed = 4711;
    for (int c = 0; c < 3; c++)
        for (int al = 0; al < 2; al++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                if (!check_scan(ctx, cases[c], s & 1 ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                al ? WGS_SCAN_ALGORITHM_SINGLE_PASS : WGS_SCAN_ALGORITHM_MULTILEVEL, sizes[s],
                                (int)((s + (size_t)c) % 3), seed++))
                    return;
    for (int c = 0; c < 3; c++) /* in place: the word and tail views both read and written */
        for (size_t s = 1; s < sizeof sizes / sizeof sizes[0]; s += 2)
            if (!check_scan_into(ctx, cases[c], WGS_SCAN_INCLUSIVE, WGS_SCAN_ALGORITHM_MULTILEVEL, sizes[s], (int)(s % 3),
                                 seed++, 1))
                return;
    const uint64_t n = 18949;
    uint32_t *in = malloc(4 * 4 * n), want[4], got[4];
    for (int c = 0; c < 3; c++) {
        const op_case *oc = cases[c];
        for (uint64_t i = 0; i < n; i++) oc->gen(in + i * oc->words, &seed);
        fold(oc, in, 0, n, want);
        memset(got, 0, sizeof got);
        CHECK_RESULT(wgs_reduce_host(ctx, &(wgs_reduce_plan_desc){.custom = &oc->desc}, in, n, got), WGS_OK);
        if (memcmp(got, want, 4 * oc->words) != 0)
            test_fail(__FILE__, __LINE__, "%s reduce of %llu: got %08x %08x, want %08x %08x", oc->name,
                      (unsigned long long)n, got[0], got[1], want[0], want[1]);
    }
    free(in);
}

/* A shape whose two segment tables of 16-byte elements (subgroups of 4) pass the
 * workgroup memory limit, and one table does not, is refused at plan creation (the
 * estimate counted one table, and the kernel failed to compile). */
TEST(operator_row_tiles_shape_too_large) {
    wgs_context_info ci;
    wgs_context *probe = test_context();
    if (!probe) return;
    CHECK_RESULT(wgs_context_get_info(probe, &ci), WGS_OK);
    /* 256 x items: ROWS = items / 4 rows x 64 subgroups x 16 bytes a table */
    const uint32_t items = (uint32_t)(ci.max_workgroup_storage_size / 512);
    if (!ci.has_subgroups || ci.subgroup_min_size != 4 || ci.max_invocations_per_workgroup < 256 || items < 8 ||
        items > 256 || (items & (items - 1))) {
        test_skip("needs subgroups of 4, workgroups of 256 and 4 to 128 KiB of workgroup memory");
        return;
    }
    wgs_experimental e = {.scan_multilevel = {256, items}};
    wgs_context *ctx = test_context_experimental(&e);
    if (!ctx) return;
    wgs_scan_plan *plan = NULL;
    wgs_scan_plan_desc d = {.algorithm = WGS_SCAN_ALGORITHM_MULTILEVEL, .capacity = 1024, .custom = &mat2.desc};
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL);
    wgs_scan_plan_destroy(plan);
}
