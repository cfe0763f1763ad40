/* SPDX-License-Identifier: MIT */
/* Multi-level scan against the CPU reference: every type, operator and kind at every
 * size boundary; in place; offsets; several sizes in one encoder; the multi-binding
 * and two-dimensional-grid paths under capped limits; the host and external-device
 * entry points. */
#include "reference.h"
#include "scan_check.h"
#include "test_buffers.h"
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

static const wgs_op int_ops[] = {WGS_OP_ADD, WGS_OP_MIN, WGS_OP_MAX, WGS_OP_AND, WGS_OP_OR, WGS_OP_XOR};
static const wgs_op float_ops[] = {WGS_OP_ADD, WGS_OP_MIN, WGS_OP_MAX};

/* Largest size of the matrix; WGSCAN_TEST_MAX_N lowers it (the sanitizer run). */
static uint64_t matrix_max(void) {
    const char *e = getenv("WGSCAN_TEST_MAX_N");
    return e ? strtoull(e, NULL, 10) : (1ull << 24) + 5;
}

static void matrix(wgs_type type, wgs_scan_algorithm algorithm) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    if (type == WGS_TYPE_F16 && !info.has_shader_f16) {
        test_skip("the device has no shader-f16");
        return;
    }
    int is_float = type == WGS_TYPE_F32 || type == WGS_TYPE_F16;
    const wgs_op *ops = is_float ? float_ops : int_ops;
    int nops = is_float ? 3 : 6;
    uint64_t max = matrix_max();
    /* f16 sums grow past half precision's exact range fast; keep them meaningful. */
    if (type == WGS_TYPE_F16 && max > (1u << 20) + 3) max = (1u << 20) + 3;
    /* The sizes past 2^20 + 3 (tile^2 +-1, where SwiftShader's 2048-element tiles take a
     * third level, and 2^24) hold 94% of the matrix's elements; they check the levels and
     * the tile count, which the operator does not change. Each (type, algorithm, kind)
     * runs them with one operator, taken in turn, so that every operator meets them; the
     * sizes up to 2^20 + 3 run with every operator. test-long runs the whole product.
     * The sanitized build, there for the host code (which the operator does not change
     * either: it picks the kernels' combine), runs only the operators in turn: there each
     * plan's pipelines cost most of the time, not the sizes. */
    const uint64_t every_op_max = max < (1ull << 20) + 3 ? max : (1ull << 20) + 3;
    const int turn = ((int)type * 2 + (algorithm == WGS_SCAN_ALGORITHM_SINGLE_PASS)) * 2;
    for (int o = 0; o < nops; o++) {
        for (int kind = WGS_SCAN_EXCLUSIVE; kind <= WGS_SCAN_INCLUSIVE; kind++) {
            const int in_turn = (turn + kind - WGS_SCAN_EXCLUSIVE) % nops == o;
            if (test_sanitized() && !in_turn && !test_long()) continue;
            const int large = test_long() || in_turn;
            wgs_scan_plan_desc d = {.type = type, .op = ops[o], .kind = (wgs_scan_kind)kind,
                                    .algorithm = algorithm, .capacity = max, .label = "test"};
            wgs_scan_plan *plan = NULL;
            CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
            if (!plan) continue;
            uint64_t sizes[32];
            int ns = scan_boundary_sizes(wgs_scan_plan_tile_size(plan, algorithm), large ? max : every_op_max,
                                         sizes, 32);
            for (int i = 0; i < ns; i++) {
                scan_case c = {sizes[i], 0, 0, 0, sizes[i] * 31 + (uint64_t)o * 7 + (uint64_t)kind, 0};
                scan_check(ctx, plan, &d, &c);
            }
            wgs_scan_plan_destroy(plan);
        }
    }
}

TEST(scan_matrix_u32_multilevel) { matrix(WGS_TYPE_U32, WGS_SCAN_ALGORITHM_MULTILEVEL); }
TEST(scan_matrix_i32_multilevel) { matrix(WGS_TYPE_I32, WGS_SCAN_ALGORITHM_MULTILEVEL); }
TEST(scan_matrix_f32_multilevel) { matrix(WGS_TYPE_F32, WGS_SCAN_ALGORITHM_MULTILEVEL); }
TEST(scan_matrix_f16_multilevel) { matrix(WGS_TYPE_F16, WGS_SCAN_ALGORITHM_MULTILEVEL); }
TEST(scan_matrix_u32_single_pass) { matrix(WGS_TYPE_U32, WGS_SCAN_ALGORITHM_SINGLE_PASS); }
TEST(scan_matrix_i32_single_pass) { matrix(WGS_TYPE_I32, WGS_SCAN_ALGORITHM_SINGLE_PASS); }
TEST(scan_matrix_f32_single_pass) { matrix(WGS_TYPE_F32, WGS_SCAN_ALGORITHM_SINGLE_PASS); }
TEST(scan_matrix_f16_single_pass) { matrix(WGS_TYPE_F16, WGS_SCAN_ALGORITHM_SINGLE_PASS); }

/* The portable kernels (workgroup memory only), as on a device without subgroups. The
 * sanitized build takes each algorithm with one of the two types: the sanitized tests
 * below take their configurations the same way, each one's host path once, because
 * there each plan's pipelines, compiled on ASan's allocator, cost most of the time and
 * the type, operator, look-back spins and grid are constants of the kernels or numbers
 * of the dispatch. */
TEST(scan_without_subgroups) {
    wgs_experimental e = {.disable_subgroups = 1};
    wgs_context_desc cd = {.experimental = &e};
    wgs_context *ctx = NULL;
    CHECK_RESULT(wgs_context_create(&cd, &ctx), WGS_OK);
    if (!ctx) return;
    const wgs_scan_algorithm algos[] = {WGS_SCAN_ALGORITHM_MULTILEVEL, WGS_SCAN_ALGORITHM_SINGLE_PASS};
    const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_F32};
    const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_MIN};
    for (int a = 0; a < 2; a++) {
        for (int k = 0; k < 2; k++) {
            if (test_sanitized() && !test_long() && k != a) continue;
            wgs_scan_plan_desc d = {.type = types[k], .op = ops[k], .kind = WGS_SCAN_INCLUSIVE,
                                    .algorithm = algos[a], .capacity = (1 << 20) + 1};
            wgs_scan_plan *plan = NULL;
            CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
            if (!plan) continue;
            uint32_t t = wgs_scan_plan_tile_size(plan, wgs_scan_plan_algorithm(plan, 0, 0));
            const uint64_t sizes[] = {1, t - 1, t + 1, 5ull * t + 3, (1 << 20) + 1};
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                scan_case c = {sizes[i], 0, 0, 0, 400 + i, 0};
                scan_check(ctx, plan, &d, &c);
            }
            wgs_scan_plan_destroy(plan);
        }
    }
    wgs_context_destroy(ctx);
}

/* Fallbacks after a single fruitless look-back step: helpers reduce and publish their
 * predecessors' tiles all the time, racing the owners; results must not change. */
TEST(scan_single_pass_forced_fallback) {
    for (int sg = 0; sg < 2; sg++) {
        wgs_context *ctx = test_context_forced_fallback(sg);
        if (!ctx) return;
        const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_F32, WGS_TYPE_I32};
        const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_ADD, WGS_OP_MAX};
        for (int k = 0; k < 3; k++) {
            if (test_sanitized() && !test_long() && k != sg) continue; /* one type a context */
            wgs_scan_plan_desc d = {.type = types[k], .op = ops[k], .kind = WGS_SCAN_INCLUSIVE,
                                    .algorithm = WGS_SCAN_ALGORITHM_SINGLE_PASS, .capacity = 1 << 22};
            wgs_scan_plan *plan = NULL;
            CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
            if (!plan) continue;
            uint32_t t = wgs_scan_plan_tile_size(plan, wgs_scan_plan_algorithm(plan, 0, 0));
            const uint64_t sizes[] = {t + 1, 37ull * t + 5, (1 << 22) - 1};
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                scan_case c = {sizes[i], 0, 0, 0, 500 + i, 0};
                scan_check(ctx, plan, &d, &c);
            }
            wgs_scan_plan_destroy(plan);
        }
    }
}

/* The persistent single pass (row tiles) with grids of 1, 3 and 8 workgroups, which
 * take many tiles each, with and without fallbacks forced: each workgroup's claims past
 * the end, the alternating segment tables and the aggregate published a tile ahead. */
TEST(scan_single_pass_persistent_grids) {
    const uint32_t grids[] = {1, 3, 8};
    for (size_t g = 0; g < 3; g++)
        for (uint32_t spins = 0; spins <= 1; spins++) {
            if (test_sanitized() && !test_long() && (g != 1 || spins != 0)) continue; /* one context */
            wgs_experimental e = {.scan_single_pass_groups = grids[g], .lookback_spins = spins};
            wgs_context *ctx = test_context_experimental(&e);
            if (!ctx) return;
            const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_F32};
            for (int k = 0; k < 2; k++) {
                wgs_scan_plan_desc d = {.type = types[k], .op = WGS_OP_ADD,
                                        .kind = k ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE,
                                        .algorithm = WGS_SCAN_ALGORITHM_SINGLE_PASS, .capacity = 1 << 20};
                wgs_scan_plan *plan = NULL;
                CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
                if (!plan) continue;
                uint64_t t = wgs_scan_plan_tile_size(plan, WGS_SCAN_ALGORITHM_SINGLE_PASS);
                const uint64_t sizes[] = {1, t, t + 1, 37 * t + 5};
                for (size_t i = 0; i < 4; i++) {
                    if (sizes[i] > d.capacity) continue;
                    scan_case c = {.n = sizes[i], .seed = 900 + 10 * g + i, .carry = (int)(i & 1)};
                    scan_check(ctx, plan, &d, &c);
                }
                wgs_scan_plan_destroy(plan);
            }
        }
}

/* The single pass 50 times in a row on 2^20 elements (512 tiles on SwiftShader; 2^22 in
 * test-long), alternating two different inputs: a tile state left over from the previous
 * run would hand out its old prefix. The sanitized build runs it 4 times: the host's
 * part (the plan reused, the inputs alternating) is the same in every run, and a stale
 * tile state is the GPU's result, which the plain build checks 50 times. */
TEST(scan_single_pass_50_runs) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t n = test_long() ? 1u << 22 : 1u << 20;
    const int runs = test_sanitized() && !test_long() ? 4 : 50;
    wgs_scan_plan_desc d = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .kind = WGS_SCAN_EXCLUSIVE,
                            .algorithm = WGS_SCAN_ALGORITHM_SINGLE_PASS, .capacity = n};
    wgs_scan_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
    uint32_t *in[2] = {malloc(n * 4), malloc(n * 4)}, *got = malloc(n * 4);
    WGPUBuffer bin[2] = {NULL, NULL}, bout = NULL;
    const WGPUBufferUsage u = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    for (int k = 0; k < 2; k++) {
        ref_fill_random(in[k], WGS_TYPE_U32, WGS_OP_ADD, n, 1000 + (uint64_t)k);
        CHECK_RESULT(wgs_buffer_create(ctx, n * 4, u, &bin[k]), WGS_OK);
        CHECK_RESULT(wgs_buffer_write(ctx, bin[k], 0, in[k], n * 4), WGS_OK);
    }
    CHECK_RESULT(wgs_buffer_create(ctx, n * 4, u, &bout), WGS_OK);
    int wrong = 0;
    for (int run = 0; plan && run < runs && !wrong; run++) {
        WGPUCommandEncoder enc;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        wgs_scan_args a = {.input = bin[run & 1], .output = bout, .n = n};
        CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        CHECK_RESULT(wgs_buffer_read(ctx, bout, 0, got, n * 4), WGS_OK);
        ref_check c = ref_verify(in[run & 1], got, WGS_TYPE_U32, WGS_OP_ADD, 0, n);
        if (c.mismatches) {
            test_fail(__FILE__, __LINE__, "run %d: %llu wrong, first at %llu", run,
                      (unsigned long long)c.mismatches, (unsigned long long)c.first_bad);
            wrong = 1;
        }
    }
    for (int k = 0; k < 2; k++) {
        wgs_buffer_release(ctx, bin[k]);
        free(in[k]);
    }
    wgs_buffer_release(ctx, bout);
    free(got);
    wgs_scan_plan_destroy(plan);
}

/* deterministic = 1: f32 sums bit-identical from run to run. */
TEST(scan_deterministic_f32) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t n = (1u << 20) + 17;
    float *in = malloc(n * 4), *a = malloc(n * 4), *b = malloc(n * 4);
    ref_fill_random(in, WGS_TYPE_F32, WGS_OP_ADD, n, 31);
    wgs_scan_plan_desc d = {.type = WGS_TYPE_F32, .op = WGS_OP_ADD, .kind = WGS_SCAN_INCLUSIVE, .capacity = n,
                            .deterministic = 1};
    CHECK_RESULT(wgs_scan_host(ctx, &d, in, n, a), WGS_OK);
    for (int run = 0; run < 3; run++) {
        CHECK_RESULT(wgs_scan_host(ctx, &d, in, n, b), WGS_OK);
        CHECK(memcmp(a, b, n * 4) == 0);
    }
    CHECK(ref_verify(in, a, WGS_TYPE_F32, WGS_OP_ADD, 1, n).mismatches == 0);
    free(in);
    free(a);
    free(b);
}

TEST(scan_in_place_and_offsets) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_scan_plan_desc d = {.type = WGS_TYPE_I32, .op = WGS_OP_ADD, .kind = WGS_SCAN_INCLUSIVE,
                            .capacity = 1 << 20};
    wgs_scan_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    uint32_t t = wgs_scan_plan_tile_size(plan, wgs_scan_plan_algorithm(plan, 0, 0));
    const uint64_t sizes[] = {1, 7, t - 1, t + 1, 5ull * t + 3, (1 << 20) - 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        scan_case inplace = {sizes[i], 512, 0, 1, 100 + i, 0};
        scan_check(ctx, plan, &d, &inplace);
        scan_case offs = {sizes[i], 256, 768, 0, 200 + i, 0};
        scan_check(ctx, plan, &d, &offs);
    }
    wgs_scan_plan_destroy(plan);
}

/* Two different n recorded into one encoder before one submit: each encode must keep
 * its own parameters. */
TEST(scan_two_sizes_one_submit) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_scan_plan_desc d = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .kind = WGS_SCAN_EXCLUSIVE,
                            .capacity = 100000};
    wgs_scan_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    const uint64_t n1 = 100000, n2 = 4099;
    uint32_t *in = malloc(n1 * 4), *o1 = malloc(n1 * 4), *o2 = malloc(n2 * 4);
    ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, n1, 5);
    WGPUBuffer b1 = NULL, b2 = NULL;
    const WGPUBufferUsage u = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    CHECK_RESULT(wgs_buffer_create(ctx, n1 * 4, u, &b1), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, n1 * 4, u, &b2), WGS_OK);
    CHECK_RESULT(wgs_buffer_write(ctx, b1, 0, in, n1 * 4), WGS_OK);
    CHECK_RESULT(wgs_buffer_write(ctx, b2, 0, in, n1 * 4), WGS_OK);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_scan_args a1 = {.input = b1, .output = b1, .n = n1}, a2 = {.input = b2, .output = b2, .n = n2};
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a1), WGS_OK);
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a2), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    CHECK_RESULT(wgs_buffer_read(ctx, b1, 0, o1, n1 * 4), WGS_OK);
    CHECK_RESULT(wgs_buffer_read(ctx, b2, 0, o2, n2 * 4), WGS_OK);
    CHECK(ref_verify(in, o1, WGS_TYPE_U32, WGS_OP_ADD, 0, n1).mismatches == 0);
    CHECK(ref_verify(in, o2, WGS_TYPE_U32, WGS_OP_ADD, 0, n2).mismatches == 0);
    wgs_buffer_release(ctx, b1);
    wgs_buffer_release(ctx, b2);
    wgs_scan_plan_destroy(plan);
    free(in);
    free(o1);
    free(o2);
}

/* 200 encodes of one plan, each with its own n, into one encoder before one submit:
 * every one keeps its parameters (there is no limit of configurations per submit). */
TEST(scan_200_sizes_one_submit) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { ENCODES = 200, STEP = 29 };
    const uint64_t n_max = 1 + (uint64_t)STEP * (ENCODES - 1);
    wgs_scan_plan_desc d = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .kind = WGS_SCAN_EXCLUSIVE, .capacity = n_max};
    wgs_scan_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    uint64_t align = info.min_storage_offset_alignment;
    uint64_t region = (n_max * 4 + align - 1) / align * align; /* each encode's output */
    uint32_t *in = malloc(n_max * 4), *out = malloc(region * ENCODES);
    WGPUBuffer bin = NULL, bout = NULL;
    const WGPUBufferUsage u = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    CHECK_RESULT(wgs_buffer_create(ctx, n_max * 4, u, &bin), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, region * ENCODES, u, &bout), WGS_OK);
    WGPUCommandEncoder enc = NULL;
    if (in && out && bin && bout && wgs_encoder_create(ctx, &enc) == WGS_OK) {
        ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, n_max, 37);
        CHECK_RESULT(wgs_buffer_write(ctx, bin, 0, in, n_max * 4), WGS_OK);
        for (int k = 0; k < ENCODES; k++) {
            wgs_scan_args a = {.input = bin, .output = bout, .output_offset = k * region, .n = 1 + (uint64_t)STEP * k};
            CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_OK);
        }
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        CHECK_RESULT(wgs_buffer_read(ctx, bout, 0, out, region * ENCODES), WGS_OK);
        int wrong = 0;
        for (int k = 0; k < ENCODES; k++)
            wrong += ref_verify(in, (const char *)out + k * region, WGS_TYPE_U32, WGS_OP_ADD, 0,
                                1 + (uint64_t)STEP * k).mismatches != 0;
        if (wrong) test_fail(__FILE__, __LINE__, "%d of %d encodes gave wrong results", wrong, ENCODES);
    }
    wgs_buffer_release(ctx, bin);
    wgs_buffer_release(ctx, bout);
    wgs_scan_plan_destroy(plan);
    free(in);
    free(out);
}

/* The largest tile a 4-byte scan plan of this device uses, over both algorithms (the
 * plans' shapes come from the device class, which capped limits do not change). */
static uint32_t largest_tile(wgs_context *ctx) {
    wgs_scan_plan_desc d = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .capacity = 1};
    wgs_scan_plan *p = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_OK);
    if (!p) return 0;
    uint32_t sp = wgs_scan_plan_tile_size(p, WGS_SCAN_ALGORITHM_SINGLE_PASS);
    uint32_t ml = wgs_scan_plan_tile_size(p, WGS_SCAN_ALGORITHM_MULTILEVEL);
    wgs_scan_plan_destroy(p);
    return sp > ml ? sp : ml;
}

/* Capped limits force what big inputs do on a real GPU: arrays split over several
 * bindings and grids folded into two dimensions. The binding holds 8 of the largest
 * tiles (64 KiB with SwiftShader's 32 x 64 tiles, 512 KiB with the H200's 1024 x 16)
 * and 3 workgroups per dimension run those 8 as 3 x 3 with one spare. The capacity
 * follows the sizes, which follow the tile: 100 tiles + 1 is 1638401 elements on the
 * H200, past the 2^20 that suffices for small tiles. */
TEST(scan_multi_binding_and_2d_grid) {
    uint64_t big = largest_tile(test_context());
    if (!big) return;
    uint64_t binding = 8 * big * 4;
    if (binding < 64 * 1024) binding = 64 * 1024;
    wgs_context *ctx = test_context_capped(3, binding);
    if (!ctx) return;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    CHECK(info.max_storage_binding_size == binding);
    CHECK(info.max_workgroups_per_dimension == 3);
    const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_F32, WGS_TYPE_I32};
    const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_ADD, WGS_OP_MIN};
    uint64_t capacity = 100 * big + 1 > (1 << 20) ? 100 * big + 1 : (1 << 20);
    for (int k = 0; k < 3; k++) {
        for (int kind = WGS_SCAN_EXCLUSIVE; kind <= WGS_SCAN_INCLUSIVE; kind++) {
            wgs_scan_plan_desc d = {.type = types[k], .op = ops[k], .kind = (wgs_scan_kind)kind,
                                    .capacity = capacity};
            wgs_scan_plan *plan = NULL;
            CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
            if (!plan) continue;
            uint32_t t = wgs_scan_plan_tile_size(plan, wgs_scan_plan_algorithm(plan, 0, 0));
            CHECK(t <= big);
            const uint64_t sizes[] = {8ull * t - 1, 8ull * t, 8ull * t + 1, 17ull * t + 3,
                                      100ull * t + 1, capacity - 3};
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                CHECK(sizes[i] <= capacity);
                scan_case c = {sizes[i], 0, 0, (int)(i & 1), 300 + i, 0};
                scan_check(ctx, plan, &d, &c);
            }
            wgs_scan_plan_destroy(plan);
        }
    }
}

/* A carry-in from a value and from a buffer, both algorithms, exclusive and inclusive,
 * across tile boundaries, in place, past one binding (capped limits), with fallbacks
 * forced; and the carry buffer's bad inputs with their codes. The sanitized build takes
 * each type with one kind, in turn (both kinds still met by each call): the host copies
 * a carry of the element's size whatever the type and the kind. */
static void carry_cases(wgs_context *ctx, wgs_scan_algorithm algorithm, uint64_t capacity, int in_place) {
    const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_I32, WGS_TYPE_F32, WGS_TYPE_F16};
    const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_MAX, WGS_OP_ADD, WGS_OP_ADD};
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    for (int k = 0; k < 4; k++) {
        if (types[k] == WGS_TYPE_F16 && !info.has_shader_f16) continue;
        for (int kind = WGS_SCAN_EXCLUSIVE; kind <= WGS_SCAN_INCLUSIVE; kind++) {
            if (test_sanitized() && !test_long() && k % 2 != kind - WGS_SCAN_EXCLUSIVE) continue;
            wgs_scan_plan_desc d = {.type = types[k], .op = ops[k], .kind = (wgs_scan_kind)kind,
                                    .algorithm = algorithm, .capacity = capacity};
            wgs_scan_plan *plan = NULL;
            CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
            if (!plan) continue;
            uint64_t t = wgs_scan_plan_tile_size(plan, algorithm);
            const uint64_t sizes[] = {0, 1, t - 1, t + 1, 3 * t + 5, capacity};
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
                for (int carry = 1; carry <= 2; carry++) {
                    if (sizes[i] > capacity) continue;
                    scan_case c = {.n = sizes[i], .in_place = in_place, .seed = 77 + i * 3 + (uint64_t)carry,
                                   .carry = carry};
                    scan_check(ctx, plan, &d, &c);
                }
            wgs_scan_plan_destroy(plan);
        }
    }
}

TEST(scan_carry_in) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    carry_cases(ctx, WGS_SCAN_ALGORITHM_SINGLE_PASS, 300000, 0);
    carry_cases(ctx, WGS_SCAN_ALGORITHM_MULTILEVEL, 300000, 0);
    carry_cases(ctx, WGS_SCAN_ALGORITHM_MULTILEVEL, 100000, 1);
    wgs_context *fb = test_context_forced_fallback(0);
    if (fb) carry_cases(fb, WGS_SCAN_ALGORITHM_SINGLE_PASS, 100000, 0);
    uint64_t big = largest_tile(ctx);
    wgs_context *capped = test_context_capped(3, 8 * big * 4 < 65536 ? 65536 : 8 * big * 4);
    if (capped) {
        carry_cases(capped, WGS_SCAN_ALGORITHM_SINGLE_PASS, 20 * big + 3, 0);
        carry_cases(capped, WGS_SCAN_ALGORITHM_MULTILEVEL, 20 * big + 3, 0);
    }
    /* Bad carry buffers: misaligned, without Storage, too small. */
    wgs_scan_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.capacity = 1000}, &plan), WGS_OK);
    if (!plan) return;
    WGPUBuffer in = NULL, out = NULL, small = NULL, mapped = NULL;
    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst;
    CHECK_RESULT(wgs_buffer_create(ctx, 4096, usage, &in), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, 4096, usage, &out), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, 256, usage, &small), WGS_OK);
    CHECK_RESULT(wgs_buffer_create(ctx, 256, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, &mapped), WGS_OK);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_scan_args a = {.input = in, .output = out, .n = 1000, .init_buffer = small, .init_offset = 4};
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    a.init_offset = 256;
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    a.init_offset = 0;
    a.init_buffer = mapped;
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_ERROR_BUFFER_USAGE);
    a.init_buffer = small;
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    wgs_buffer_release(ctx, in), wgs_buffer_release(ctx, out), wgs_buffer_release(ctx, small);
    wgs_buffer_release(ctx, mapped);
    wgs_scan_plan_destroy(plan);
}

TEST(scan_host_convenience) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t n = 12345;
    float *in = malloc(n * 4), *out = malloc(n * 4);
    ref_fill_random(in, WGS_TYPE_F32, WGS_OP_MAX, n, 9);
    wgs_scan_plan_desc d = {.type = WGS_TYPE_F32, .op = WGS_OP_MAX, .kind = WGS_SCAN_EXCLUSIVE};
    CHECK_RESULT(wgs_scan_host(ctx, &d, in, n, out), WGS_OK);
    CHECK(ref_verify(in, out, WGS_TYPE_F32, WGS_OP_MAX, 0, n).mismatches == 0);
    /* In place through the host call, and n = 0. */
    memcpy(out, in, n * 4);
    CHECK_RESULT(wgs_scan_host(ctx, &d, out, n, out), WGS_OK);
    CHECK(ref_verify(in, out, WGS_TYPE_F32, WGS_OP_MAX, 0, n).mismatches == 0);
    CHECK_RESULT(wgs_scan_host(ctx, &d, NULL, 0, NULL), WGS_OK);
    /* The single pass forced: it cannot run in place, so the helper scans into a
     * second buffer of its own (it used to fail with WGS_ERROR_ALIASING). */
    d.algorithm = WGS_SCAN_ALGORITHM_SINGLE_PASS;
    d.kind = WGS_SCAN_INCLUSIVE;
    memset(out, 0, n * 4);
    CHECK_RESULT(wgs_scan_host(ctx, &d, in, n, out), WGS_OK);
    CHECK(ref_verify(in, out, WGS_TYPE_F32, WGS_OP_MAX, 1, n).mismatches == 0);
    memcpy(out, in, n * 4);
    CHECK_RESULT(wgs_scan_host(ctx, &d, out, n, out), WGS_OK);
    CHECK(ref_verify(in, out, WGS_TYPE_F32, WGS_OP_MAX, 1, n).mismatches == 0);
    free(in);
    free(out);
}

TEST(scan_on_external_device) {
    wgs_context *owner = test_context();
    if (!owner) return;
    wgs_external_device ext = {wgs_context_instance(owner), wgs_context_device(owner),
                               (WGPUProcGetProcAddress)wgs_context_get_proc(owner, "wgpuGetProcAddress")};
    CHECK(ext.get_proc_address != NULL);
    wgs_context *ctx = NULL;
    CHECK_RESULT(wgs_context_create_from_device(&ext, NULL, &ctx), WGS_OK);
    if (!ctx) return;
    wgs_scan_plan_desc d = {.type = WGS_TYPE_U32, .op = WGS_OP_XOR, .kind = WGS_SCAN_INCLUSIVE,
                            .capacity = 50000};
    wgs_scan_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
    if (plan) {
        scan_case c = {50000, 0, 0, 0, 77, 0};
        scan_check(ctx, plan, &d, &c);
    }
    wgs_scan_plan_destroy(plan);
    wgs_context_destroy(ctx);
}

TEST(scan_timestamps) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    if (!info.has_timestamp_query) {
        test_skip("no timestamp-query");
        return;
    }
    wgs_timer *timer = NULL;
    CHECK_RESULT(wgs_timer_create(ctx, 1, &timer), WGS_OK);
    wgs_scan_plan_desc d = {0};
    d.capacity = 1 << 16;
    wgs_scan_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &plan), WGS_OK);
    WGPUBuffer b = NULL;
    CHECK_RESULT(wgs_buffer_create(ctx, 4 << 16, WGPUBufferUsage_Storage, &b), WGS_OK);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_scan_args a = {.input = b, .output = b, .n = 1 << 16,
                       .timestamp_query_set = wgs_timer_query_set(timer), .timestamp_end_index = 1};
    CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_timer_resolve(timer, enc), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    double s = -1;
    CHECK_RESULT(wgs_timer_read(timer, &s, 1), WGS_OK);
    CHECK(s > 0 && s < 60);
    wgs_buffer_release(ctx, b);
    wgs_scan_plan_destroy(plan);
    wgs_timer_destroy(timer);
}

/* ---- counts on the GPU (args.n_buffer) --------------------------------------------- */

#define COUNT_GUARD 0xC3u
#define COUNT_OFFSET 12u /* a multiple of 4, not of the storage alignment */

/* One plan of capacity `bound`; for each count, a scan of n = bound with the count in a
 * buffer and a scan of n = the count (clamped), in one encoder: the first must match
 * the reference, leave every byte past the count as it was, and (same_bits) give the
 * second's bits. */
static void counted_scans(wgs_context *ctx, const wgs_scan_plan_desc *d, uint64_t bound, const uint32_t *counts,
                          int ncounts, int same_bits) {
    wgs_scan_plan_desc pd = *d;
    pd.capacity = bound;
    wgs_scan_plan *plan = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &pd, &plan), WGS_OK);
    if (!plan) return;
    wgs_type type = d->type ? d->type : WGS_TYPE_U32;
    wgs_op op = d->op ? d->op : WGS_OP_ADD;
    int inclusive = d->kind == WGS_SCAN_INCLUSIVE;
    size_t es = wgs_type_size(type);
    uint64_t size = (bound * es + 3) / 4 * 4 + 256;
    unsigned char *in = calloc(1, size), *got = malloc(size), *host = malloc(size), *guard = malloc(size);
    WGPUBuffer inb = NULL;
    if (!in || !got || !host || !guard) {
        test_fail(__FILE__, __LINE__, "out of host memory");
        goto done;
    }
    ref_fill_random(in, type, op, bound, bound * 13 + (uint64_t)op);
    memset(guard, COUNT_GUARD, size);
    inb = test_upload(ctx, in, size);
    for (int i = 0; i < ncounts && inb; i++) {
        uint64_t c = counts[i] < bound ? counts[i] : bound;
        WGPUBuffer cb = test_count_buffer(ctx, counts[i], COUNT_OFFSET);
        WGPUBuffer out = test_upload(ctx, guard, size), out_host = test_upload(ctx, guard, size);
        WGPUCommandEncoder enc = NULL;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        wgs_scan_args a = {.input = inb, .output = out, .n = bound, .n_buffer = cb, .n_offset = COUNT_OFFSET};
        CHECK_RESULT(wgs_scan_encode(plan, enc, &a), WGS_OK);
        wgs_scan_args h = {.input = inb, .output = out_host, .n = c};
        CHECK_RESULT(wgs_scan_encode(plan, enc, &h), WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        if (test_download(ctx, out, got, size) && test_download(ctx, out_host, host, size)) {
            ref_check chk = ref_verify(in, got, type, op, inclusive, c);
            if (chk.mismatches)
                test_fail(__FILE__, __LINE__, "%s %s %s %s bound %llu count %u: %llu wrong, first at %llu",
                          wgs_type_name(type), wgs_op_name(op), inclusive ? "inclusive" : "exclusive",
                          d->algorithm == WGS_SCAN_ALGORITHM_SINGLE_PASS ? "single pass" : "multi-level",
                          (unsigned long long)bound, counts[i], (unsigned long long)chk.mismatches,
                          (unsigned long long)chk.first_bad);
            for (uint64_t b = c * es; b < size; b++) {
                if (got[b] != COUNT_GUARD) {
                    test_fail(__FILE__, __LINE__, "bound %llu count %u: byte %llu past the count written",
                              (unsigned long long)bound, counts[i], (unsigned long long)b);
                    break;
                }
            }
            if (same_bits && memcmp(got, host, c * es) != 0)
                test_fail(__FILE__, __LINE__, "%s bound %llu count %u: not the bits of a scan of n = %llu",
                          wgs_type_name(type), (unsigned long long)bound, counts[i], (unsigned long long)c);
        }
        wgs_buffer_release(ctx, out);
        wgs_buffer_release(ctx, out_host);
        wgs_buffer_release(ctx, cb);
    }
done:
    wgs_buffer_release(ctx, inb);
    free(in);
    free(got);
    free(host);
    free(guard);
    wgs_scan_plan_destroy(plan);
}

/* Both algorithms, every kind, integers and floats: the counts at the tile's edges,
 * the bound and above it (clamped). The multi-level scan gives a count's bits (its
 * combination order is that of n = the count); the single pass's float look-back is
 * not deterministic, so it is checked against the reference only. */
TEST(scan_count_from_gpu) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_F32, WGS_TYPE_I32};
    const wgs_op ops[] = {WGS_OP_ADD, WGS_OP_ADD, WGS_OP_MAX};
    for (int alg = WGS_SCAN_ALGORITHM_MULTILEVEL; alg <= WGS_SCAN_ALGORITHM_SINGLE_PASS; alg++) {
        for (int k = 0; k < 3; k++) {
            wgs_scan_plan_desc d = {.type = types[k], .op = ops[k], .algorithm = (wgs_scan_algorithm)alg,
                                    .kind = k == 1 ? WGS_SCAN_INCLUSIVE : WGS_SCAN_EXCLUSIVE, .capacity = 1};
            wgs_scan_plan *p = NULL;
            CHECK_RESULT(wgs_scan_plan_create(ctx, &d, &p), WGS_OK);
            uint32_t t = wgs_scan_plan_tile_size(p, (wgs_scan_algorithm)alg);
            wgs_scan_plan_destroy(p);
            if (!t) continue;
            uint64_t bound = 5ull * t + 7;
            uint32_t counts[8];
            int nc = test_count_values(t, bound, counts);
            counted_scans(ctx, &d, bound, counts, nc, types[k] != WGS_TYPE_F32 || alg == WGS_SCAN_ALGORITHM_MULTILEVEL);
        }
    }
}

/* f16 (two elements a word: a count that ends inside a word) and odd counts inside a
 * row tile's word view. */
TEST(scan_count_from_gpu_f16) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    if (!info.has_shader_f16) {
        test_skip("the device has no shader-f16");
        return;
    }
    for (int alg = WGS_SCAN_ALGORITHM_MULTILEVEL; alg <= WGS_SCAN_ALGORITHM_SINGLE_PASS; alg++) {
        wgs_scan_plan_desc d = {.type = WGS_TYPE_F16, .op = WGS_OP_MAX, .algorithm = (wgs_scan_algorithm)alg,
                                .kind = WGS_SCAN_INCLUSIVE};
        const uint32_t counts[] = {0, 1, 3, 5, 130, 2047, 4099, 9000};
        counted_scans(ctx, &d, 6001, counts, 8, 1);
    }
}

/* Small forced tiles, so that a bound of tile^2 + 3 takes two levels: counts that
 * drop levels (at tile and tile^2) must not read the levels' stale sums. */
TEST(scan_count_from_gpu_levels) {
    wgs_experimental e = {.scan_multilevel = {64, 4}, .scan_single_pass = {64, 4}};
    wgs_context *ctx = test_context_experimental(&e);
    if (!ctx) return;
    const uint64_t t = 256, bound = t * t + 3;
    const uint32_t counts[] = {0, 255, 257, 65535, 65536, 65537, 65539, 70000};
    for (int alg = WGS_SCAN_ALGORITHM_MULTILEVEL; alg <= WGS_SCAN_ALGORITHM_SINGLE_PASS; alg++) {
        wgs_scan_plan_desc d = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .algorithm = (wgs_scan_algorithm)alg};
        counted_scans(ctx, &d, bound, counts, 8, 1);
        d.type = WGS_TYPE_F32;
        d.kind = WGS_SCAN_INCLUSIVE;
        if (alg == WGS_SCAN_ALGORITHM_MULTILEVEL) counted_scans(ctx, &d, bound, counts, 8, 1);
    }
}

/* Capped limits: the bound over several bindings (chunks) and grids folded into two
 * dimensions; counts inside the first chunk, at a chunk's end and in the last one. */
TEST(scan_count_from_gpu_chunks) {
    uint64_t big = largest_tile(test_context());
    if (!big) return;
    uint64_t binding = 8 * big * 4;
    if (binding < 64 * 1024) binding = 64 * 1024;
    wgs_context *ctx = test_context_capped(3, binding);
    if (!ctx) return;
    uint64_t chunk = binding / 4;
    uint64_t bound = 3 * chunk + 5;
    const uint32_t counts[] = {0, 7, (uint32_t)chunk - 1, (uint32_t)chunk, (uint32_t)chunk + 1,
                               (uint32_t)(2 * chunk + 100), (uint32_t)bound};
    for (int alg = WGS_SCAN_ALGORITHM_MULTILEVEL; alg <= WGS_SCAN_ALGORITHM_SINGLE_PASS; alg++) {
        wgs_scan_plan_desc d = {.type = WGS_TYPE_U32, .op = WGS_OP_ADD, .algorithm = (wgs_scan_algorithm)alg,
                                .kind = WGS_SCAN_INCLUSIVE};
        counted_scans(ctx, &d, bound, counts, 7, 1);
    }
}
