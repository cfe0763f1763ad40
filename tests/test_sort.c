/* SPDX-License-Identifier: MIT */
/* The radix sort against the CPU reference (reference/sort.c): every key type x order x
 * keys / pairs / indices, bit ranges, the size boundaries (0, 1, 2, tile +-1, several
 * tiles and groups), adversarial inputs (all equal, sorted, reversed, few distinct, only
 * the top bits differ, f32 -0/+0/NaN/inf/subnormals), stability (pairs whose keys repeat:
 * the values say the input order), in place, both ranking paths, tiles of any shape,
 * many sorts in a row, and bad inputs with their exact codes. */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

static uint64_t max_n(void) {
    const char *e = getenv("WGSCAN_TEST_MAX_N");
    return e ? strtoull(e, NULL, 10) : (1ull << 22) + 3;
}

enum dist { D_UNIFORM, D_EQUAL, D_SORTED, D_REVERSED, D_FEW, D_TOP_BITS, D_FLOAT_EDGES, D_COUNT };
static const char *const dist_names[D_COUNT] = {"uniform", "equal", "sorted", "reversed", "few", "top-bits",
                                                "float-edges"};

static uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* n keys of `kb` bytes of the distribution. */
static void fill_keys(void *keys, wgs_type type, size_t kb, enum dist d, uint64_t n, uint64_t seed) {
    static const uint32_t edges[] = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                     0xFFC00001u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x3F800000u,
                                     0xBF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800001u};
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = mix(seed * 1000003u + i);
        switch (d) {
        case D_EQUAL: v = mix(seed); break;
        case D_SORTED: v = i * 3; break;
        case D_REVERSED: v = (n - i) * 3; break;
        case D_FEW: v = mix(seed + v % 5); break;
        case D_TOP_BITS: v = kb == 8 ? (v & 0xF000000000000000ull) : (v & 0xF0000000u); break;
        case D_FLOAT_EDGES: v = v % 3 ? edges[v % (sizeof edges / sizeof edges[0])] : (uint32_t)v; break;
        default: break;
        }
        if (type == WGS_TYPE_F32 && (d == D_SORTED || d == D_REVERSED)) {
            float f = (float)v - (float)n; /* negatives and positives, in order */
            memcpy(&v, &f, 4);
        }
        memcpy((char *)keys + i * kb, &v, kb);
    }
}

typedef struct sort_case {
    wgs_type type;
    wgs_sort_order order;
    wgs_payload payload;
    uint32_t value_bytes;
    uint32_t begin_bit, end_bit;
    wgs_sort_algorithm algorithm;
} sort_case;

/* Sorts n keys of the case on the GPU through a plan (and the caller's buffers) and
 * compares keys and values with the reference. in_place: keys_out is keys_in. */
static void check_sort(wgs_context *ctx, wgs_sort_plan *plan, const sort_case *c, enum dist d, uint64_t n,
                       uint64_t seed, int in_place) {
    size_t kb = wgs_type_size(c->type), vb = c->payload == WGS_PAYLOAD_NONE ? 0 : c->value_bytes ? c->value_bytes : 4;
    uint64_t kbytes = n * kb, vbytes = n * vb;
    void *keys = malloc(kbytes + 8), *want = malloc(kbytes + 8), *got = malloc(kbytes + 8);
    void *vals = malloc(vbytes + 8), *want_v = malloc(vbytes + 8), *got_v = malloc(vbytes + 8);
    WGPUBuffer bk = NULL, bko = NULL, bv = NULL, bvo = NULL;
    if (!keys || !want || !got || !vals || !want_v || !got_v) goto done;
    fill_keys(keys, c->type, kb, d, n, seed);
    for (uint64_t i = 0; i < vbytes / 4; i++) ((uint32_t *)vals)[i] = (uint32_t)mix(i ^ seed);
    if (ref_sort(c->type, c->order == WGS_SORT_DESCENDING, c->begin_bit, c->end_bit, keys, vals,
                 c->payload == WGS_PAYLOAD_BUFFER ? (uint32_t)vb : 0, c->payload == WGS_PAYLOAD_INDEX, n, want,
                 want_v) != 0)
        goto done;
    bk = test_upload(ctx, keys, kbytes);
    bko = in_place ? bk : test_buffer(ctx, kbytes);
    if (c->payload == WGS_PAYLOAD_BUFFER) bv = test_upload(ctx, vals, vbytes);
    if (c->payload != WGS_PAYLOAD_NONE) bvo = in_place && bv ? bv : test_buffer(ctx, vbytes);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_sort_args a = {.keys_in = bk, .keys_out = bko, .values_in = bv, .values_out = bvo, .n = n};
    CHECK_RESULT(wgs_sort_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    if (n && !test_download(ctx, bko, got, kbytes)) goto done;
    if (n && memcmp(got, want, (size_t)kbytes) != 0) {
        uint64_t i = 0;
        while (memcmp((char *)got + i * kb, (char *)want + i * kb, kb) == 0) i++;
        uint64_t g = 0, w = 0;
        memcpy(&g, (char *)got + i * kb, kb), memcpy(&w, (char *)want + i * kb, kb);
        test_fail(__FILE__, __LINE__, "%s %s bits [%u,%u) %s n=%llu%s: key %llu is 0x%llx, want 0x%llx",
                  wgs_type_name(c->type), c->order ? "desc" : "asc", c->begin_bit, c->end_bit, dist_names[d],
                  (unsigned long long)n, in_place ? " in place" : "", (unsigned long long)i,
                  (unsigned long long)g, (unsigned long long)w);
        goto done;
    }
    if (!in_place && n) { /* the input is left as it was */
        if (!test_download(ctx, bk, got, kbytes)) goto done;
        CHECK(memcmp(got, keys, (size_t)kbytes) == 0);
    }
    if (vb && n) {
        if (!test_download(ctx, bvo, got_v, vbytes)) goto done;
        if (memcmp(got_v, want_v, (size_t)vbytes) != 0) {
            uint64_t i = 0;
            while (memcmp((char *)got_v + i * vb, (char *)want_v + i * vb, vb) == 0) i++;
            test_fail(__FILE__, __LINE__, "%s %s %s n=%llu payload %d: value %llu differs (not stable?)",
                      wgs_type_name(c->type), c->order ? "desc" : "asc", dist_names[d], (unsigned long long)n,
                      (int)c->payload, (unsigned long long)i);
        }
    }
done:
    wgs_buffer_release(ctx, bk);
    if (bko != bk) wgs_buffer_release(ctx, bko);
    wgs_buffer_release(ctx, bv);
    if (bvo != bv) wgs_buffer_release(ctx, bvo);
    free(keys), free(want), free(got), free(vals), free(want_v), free(got_v);
}

/* rotate 0 sorts every distribution at every size; else each size sorts one of them,
 * taken in turn from `rotate` on. */
static void run_case_rotating(wgs_context *ctx, const sort_case *c, const uint64_t *sizes, int nsizes,
                              const enum dist *dists, int ndists, int in_place, int rotate) {
    uint64_t cap = 0;
    for (int i = 0; i < nsizes; i++) cap = sizes[i] > cap ? sizes[i] : cap;
    wgs_sort_plan_desc d = {.type = c->type, .order = c->order, .begin_bit = c->begin_bit, .end_bit = c->end_bit,
                            .payload = c->payload, .value_bytes = c->value_bytes, .algorithm = c->algorithm,
                            .capacity = cap};
    wgs_sort_plan *plan = NULL;
    CHECK_RESULT(wgs_sort_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    for (int i = 0; i < nsizes; i++)
        for (int k = 0; k < ndists; k++) {
            if (rotate && ndists > 2 && k != (i + rotate) % ndists) continue;
            check_sort(ctx, plan, c, dists[k], sizes[i], sizes[i] * 31 + k, in_place);
        }
    wgs_sort_plan_destroy(plan);
}

static void run_case(wgs_context *ctx, const sort_case *c, const uint64_t *sizes, int nsizes, const enum dist *dists,
                     int ndists, int in_place) {
    run_case_rotating(ctx, c, sizes, nsizes, dists, ndists, in_place, 0);
}

static const wgs_type key_types[] = {WGS_TYPE_U32, WGS_TYPE_I32, WGS_TYPE_F32, WGS_TYPE_U64, WGS_TYPE_I64};

/* Every key type x order x payload at the size boundaries, uniform and adversarial:
 * one distribution a size, taken in turn over sizes and cases, so that every type meets
 * every size and each distribution meets every size in seven or eight of the thirty
 * cases. The whole product is 1800 sorts, whose time is mostly each sort's fixed cost;
 * test-long runs it. The sanitized build, there for the host code, which never reads
 * the keys, sorts uniform keys only, and each key type once, with the orders and
 * payloads in turn: the order is a constant of the kernels and the host's paths part
 * by key width and payload only, which five cases cover (each payload with 4-byte keys,
 * none and buffer with 8-byte ones; 8-byte keys with indices come in the bit ranges),
 * while each of the thirty costs its own pipelines, compiled on ASan's allocator. */
TEST(sort_types_orders_payloads) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    /* Tiles of 1024 keys (SwiftShader), 2048 (GPUs with values) and 3072 (GPUs of 32-lane
     * subgroups, 32-bit keys alone). */
    const uint64_t sizes[] = {0, 1, 2, 3, 1023, 1024, 1025, 2047, 2048, 2049, 3071, 3072, 3073, 4095, 4096, 4097, 3 * 4096 + 5, 70001};
    const enum dist dists[] = {D_UNIFORM, D_FEW, D_REVERSED, D_TOP_BITS};
    for (size_t t = 0; t < sizeof key_types / sizeof key_types[0]; t++)
        for (int order = 0; order < 2; order++)
            for (int pay = 0; pay < 3; pay++) {
                sort_case c = {.type = key_types[t], .order = (wgs_sort_order)order, .payload = (wgs_payload)pay};
                int turn = test_long() ? 0 : 1 + (int)(t * 6 + (size_t)order * 3 + (size_t)pay);
                int ndists = test_sanitized() && !test_long() ? 1 : 4;
                if (test_sanitized() && !test_long() && (order != (int)(t % 2) || pay != (int)(t % 3))) continue;
                run_case_rotating(ctx, &c, sizes, sizeof sizes / sizeof sizes[0], dists, ndists, 0, turn);
            }
}

/* Large inputs: many groups of tiles, and the test's largest size. The sanitized build
 * sorts each layout once, at the largest size (uniform keys): 2^20 and the equal keys
 * take the same host path with other numbers, and each large sort is seconds of the
 * CPU driver and of the ASan-built reference. */
TEST(sort_large) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const int one = test_sanitized() && !test_long();
    const uint64_t sizes[] = {1u << 20, max_n()};
    const uint64_t *from = one ? sizes + 1 : sizes;
    const int nsizes = one ? 1 : 2;
    const enum dist dists[] = {D_UNIFORM, D_EQUAL};
    sort_case keys = {.type = WGS_TYPE_U32};
    run_case(ctx, &keys, from, nsizes, dists, one ? 1 : 2, 0);
    sort_case pairs = {.type = WGS_TYPE_F32, .payload = WGS_PAYLOAD_BUFFER};
    run_case(ctx, &pairs, from, nsizes, dists, 1, 0);
    sort_case wide = {.type = WGS_TYPE_U64, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_BUFFER, .value_bytes = 8};
    run_case(ctx, &wide, from, 1, dists, 1, 0);
}

/* f32: -0 before +0, NaNs by their bits at the ends, infinities, subnormals; and sorted
 * and equal inputs of every type. */
TEST(sort_float_edges_and_orders) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t sizes[] = {17, 5000, 65537};
    const enum dist dists[] = {D_FLOAT_EDGES, D_SORTED, D_EQUAL};
    for (int order = 0; order < 2; order++) {
        sort_case c = {.type = WGS_TYPE_F32, .order = (wgs_sort_order)order, .payload = WGS_PAYLOAD_INDEX};
        run_case(ctx, &c, sizes, 3, dists, 3, 0);
    }
    for (size_t t = 0; t < sizeof key_types / sizeof key_types[0]; t++) {
        sort_case c = {.type = key_types[t], .payload = WGS_PAYLOAD_BUFFER};
        run_case(ctx, &c, sizes, 3, dists + 1, 2, 0);
    }
}

/* Bit ranges: one digit, a digit across the 32-bit boundary of 64-bit keys, odd widths,
 * no bits at all (the order stays), in place with an odd digit count. */
TEST(sort_bit_ranges_and_in_place) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const uint64_t sizes[] = {1, 4097, 30011};
    const enum dist dists[] = {D_UNIFORM, D_FEW};
    const uint32_t ranges[][2] = {{0, 8}, {4, 12}, {3, 30}, {16, 32}, {0, 1}, {31, 32}, {5, 5}, {0, 0}};
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
        for (int in_place = 0; in_place < 2; in_place++) {
            sort_case c = {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_BUFFER, .begin_bit = ranges[r][0],
                           .end_bit = ranges[r][1]};
            run_case(ctx, &c, sizes, 3, dists, 2, in_place);
        }
    const uint32_t wide[][2] = {{28, 36}, {0, 64}, {33, 63}, {60, 64}, {0, 40}};
    for (size_t r = 0; r < sizeof wide / sizeof wide[0]; r++) {
        sort_case c = {.type = WGS_TYPE_I64, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_INDEX,
                       .begin_bit = wide[r][0], .end_bit = wide[r][1]};
        run_case(ctx, &c, sizes, 3, dists, 2, r % 2);
    }
    sort_case keys_only = {.type = WGS_TYPE_F32};
    run_case(ctx, &keys_only, sizes, 3, dists, 2, 1);
}

/* Both ranking paths: the portable one (no subgroups) also where subgroups exist. */
TEST(sort_without_subgroups) {
    wgs_context *ctx = test_context_forced_fallback(1);
    if (!ctx) return;
    const uint64_t sizes[] = {0, 1, 255, 257, 4097, 100003};
    const enum dist dists[] = {D_UNIFORM, D_FEW};
    sort_case pairs = {.type = WGS_TYPE_I32, .payload = WGS_PAYLOAD_BUFFER};
    run_case(ctx, &pairs, sizes, 6, dists, 2, 0);
    sort_case wide = {.type = WGS_TYPE_U64, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_INDEX};
    run_case(ctx, &wide, sizes, 6, dists, 1, 0);
}

/* The one-sweep pass with a fallback whenever a predecessor's state is not ready at the
 * first read (so tiles count their predecessors from the input, publish for others and
 * meet the owners' own publications), with and without subgroups; the look-back at
 * eight states a read (the forced contexts take one, the shared one the tuning row's
 * four); and the
 * reduce-then-scan sort (DEFAULT's past the tuning row's bounds, on CPU drivers
 * always). The sanitized build
 * takes one case a forced context (the fallback is the kernels' own) and the
 * reduce-then-scan sort of each payload once (i32 pairs, f32 indices in place, u64
 * keys): each case compiles its own pipelines, on ASan's allocator there. */
TEST(sort_algorithms_and_forced_fallbacks) {
    const uint64_t sizes[] = {1, 4097, 3 * 4096 + 5, 100003};
    const enum dist dists[] = {D_UNIFORM, D_FEW, D_EQUAL};
    for (int without = 0; without < 2; without++) {
        wgs_context *ctx = test_context_forced_fallback(without);
        if (!ctx) return;
        const int one = test_sanitized() && !test_long();
        sort_case keys = {.type = WGS_TYPE_U32, .algorithm = WGS_SORT_ALGORITHM_ONESWEEP};
        if (!one || !without) run_case(ctx, &keys, sizes, 4, dists, 3, 0);
        sort_case wide = {.type = WGS_TYPE_I64, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_BUFFER,
                          .value_bytes = 8, .begin_bit = 3, .end_bit = 50, .algorithm = WGS_SORT_ALGORITHM_ONESWEEP};
        if (!one || without) run_case(ctx, &wide, sizes, 4, dists, 2, 1);
    }
    if (!test_sanitized() || test_long()) {
        wgs_experimental e = {.lookback_per_lane = 8};
        wgs_context *wide_ctx = test_context_experimental(&e);
        if (!wide_ctx) return;
        sort_case keys = {.type = WGS_TYPE_U32, .algorithm = WGS_SORT_ALGORITHM_ONESWEEP};
        run_case(wide_ctx, &keys, sizes, 4, dists, 1, 0);
        /* Tiles enough that the one-sweep histogram takes several a workgroup (2049 of
         * a CPU driver's 1024 keys: two a workgroup, the last group one partial tile). */
        const uint64_t many[] = {(1u << 21) + 5};
        wgs_context *plain = test_context();
        if (!plain) return;
        run_case(plain, &keys, many, 1, dists, 1, 0);
    }
    wgs_context *ctx = test_context();
    if (!ctx) return;
    for (size_t t = 0; t < 5; t++) {
        if (test_sanitized() && !test_long() && (t == 0 || t == 4)) continue;
        sort_case c = {.type = (wgs_type[]){WGS_TYPE_U32, WGS_TYPE_I32, WGS_TYPE_F32, WGS_TYPE_U64, WGS_TYPE_I64}[t],
                       .order = (wgs_sort_order)(t % 2), .payload = (wgs_payload)(t % 3),
                       .algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN};
        run_case(ctx, &c, sizes, 4, dists, 2, (int)(t == 2));
    }
}

/* The shared context's description, and a subgroup's worth of invocations (32, or the
 * device's widest subgroup past that) for tile shapes of whole subgroups; 0 without a
 * device. */
static int device_unit(wgs_context_info *info, uint32_t *unit) {
    wgs_context *probe = test_context();
    if (!probe) return 0;
    CHECK_RESULT(wgs_context_get_info(probe, info), WGS_OK);
    *unit = info->has_subgroups && info->subgroup_max_size > 32 ? info->subgroup_max_size : 32;
    return 1;
}

/* Tiles whose workgroup does not divide the radix (an invocation answers for several
 * digits, or for none) and whose items are no power of two: three subgroups' worth of
 * invocations x 23 keys everywhere, and CUB's sm90 tile of 384 x 23 where the device
 * takes it, at the tile's boundaries, for each key width and payload. */
TEST(sort_tile_shapes) {
    wgs_context_info info;
    uint32_t unit;
    if (!device_unit(&info, &unit)) return;
    const uint32_t shapes[][2] = {{3 * unit, 23}, {384, 23}};
    for (int s = 0; s < 2; s++) {
        if (s == 1 && (shapes[1][0] == shapes[0][0] || info.max_invocations_per_workgroup < 384)) continue;
        wgs_experimental e = {.sort = {.wg = shapes[s][0], .items = shapes[s][1]}};
        wgs_context *ctx = test_context_experimental(&e);
        if (!ctx) return;
        const uint64_t tile = (uint64_t)shapes[s][0] * shapes[s][1];
        const uint64_t sizes[] = {0, 1, tile - 1, tile, tile + 1, 3 * tile + 7, 100003};
        const enum dist dists[] = {D_UNIFORM, D_FEW, D_TOP_BITS};
        sort_case keys = {.type = WGS_TYPE_U32, .algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN};
        run_case_rotating(ctx, &keys, sizes, 7, dists, 3, 0, 1);
        /* 64-bit keys or values at 384 x 23 pass the H200's 48 KiB; the sanitized build's
         * host paths are the keys' (the shape is checked at plan creation). */
        if (s == 1 || (test_sanitized() && !test_long())) continue;
        sort_case pairs = {.type = WGS_TYPE_F32, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_BUFFER,
                           .algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN};
        run_case_rotating(ctx, &pairs, sizes, 7, dists, 3, 0, 2);
        sort_case wide = {.type = WGS_TYPE_I64, .payload = WGS_PAYLOAD_INDEX,
                          .algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN};
        run_case_rotating(ctx, &wide, sizes, 7, dists, 3, 1, 3);
    }
}

/* The count kernel's groups a workgroup (COUNT_GROUPS: its digit counts of consecutive
 * groups written together) forced to one and to sixteen, with two tiles a group, at the
 * sizes where the last count workgroup takes one group, all but one, or a partial
 * tile: the counts of groups past the end must not be written over the scan's input. */
TEST(sort_count_groups) {
    wgs_context *shared = test_context();
    if (!shared) return;
    wgs_context_info info;
    CHECK_RESULT(wgs_context_get_info(shared, &info), WGS_OK);
    /* The tile pinned, so that the sizes below meet its boundaries whatever the tuning
     * row's keys take (gpu-sg32: 256 x 12): 32 x 32 on CPU drivers, 256 x 8 on GPUs;
     * 2048 tiles or more take two tiles a group (sort.c), fewer one. */
    const wgs_tile_shape shape = strcmp(info.adapter_type, "cpu") == 0 ? (wgs_tile_shape){32, 32}
                                                                         : (wgs_tile_shape){256, 8};
    const uint64_t tile = (uint64_t)shape.wg * shape.items;
    for (int s = test_sanitized() && !test_long() ? 1 : 0; s < 2; s++) { /* sanitized: the host's one path */
        const uint32_t count_groups = s ? 16 : 1;
        wgs_experimental e = {.sort = shape, .sort_group_tiles = 2, .sort_count_groups = count_groups};
        wgs_context *ctx = test_context_experimental(&e);
        if (!ctx) return;
        const uint64_t span = tile * count_groups;
        const uint64_t sizes[] = {1, tile + 1, span - 1, span + 1, 3 * span + tile / 2};
        const enum dist dists[] = {D_UNIFORM, D_FEW};
        sort_case keys = {.type = WGS_TYPE_U32, .algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN};
        run_case(ctx, &keys, sizes, 5, dists, 2, 0);
        if (!s || (test_sanitized() && !test_long())) continue;
        const uint64_t grouped[] = {2048 * tile + span + 5};
        run_case(ctx, &keys, grouped, 1, dists, 1, 0);
        sort_case pairs = {.type = WGS_TYPE_I64, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_INDEX,
                           .algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN};
        run_case_rotating(ctx, &pairs, sizes, 5, dists, 2, 1, 1);
    }
}

/* A tile's digits forced the other way than the plan's choice (wgs_experimental.
 * sort_digits): held beside values with 32-bit keys, computed again for keys alone and
 * 64-bit keys (the segmented sort's tiles: test_segmented_sort). */
TEST(sort_digits_forced) {
    for (int mode = test_sanitized() && !test_long() ? 2 : 1; mode <= 2; mode++) { /* sanitized: one host path */
        wgs_experimental e = {.sort_digits = (uint32_t)mode};
        wgs_context *ctx = test_context_experimental(&e);
        if (!ctx) return;
        const uint64_t sizes[] = {1, 4097, 3 * 2048 + 5};
        const enum dist dists[] = {D_UNIFORM, D_FEW};
        const sort_case cases[] = {
            {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX},
            {.type = WGS_TYPE_F32, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_BUFFER, .value_bytes = 8},
            {.type = WGS_TYPE_U32},
            {.type = WGS_TYPE_U64, .payload = WGS_PAYLOAD_INDEX, .algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN}};
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(ctx, &cases[i], sizes, 3, dists, 2, 0);
    }
}

/* A tile's keys and values staged in plain words of their own (wgs_experimental.
 * sort_stage) rather than the counters' atomic room: both algorithms, keys alone, 8-byte
 * values beside f32 keys (two words staged a value), 64-bit keys with indices. */
TEST(sort_stage_plain) {
    wgs_experimental e = {.sort_stage = 1};
    wgs_context *ctx = test_context_experimental(&e);
    if (!ctx) return;
    const uint64_t sizes[] = {1, 3 * 2048 + 5};
    const enum dist dists[] = {D_UNIFORM, D_FEW};
    const sort_case cases[] = {
        {.type = WGS_TYPE_U32, .algorithm = WGS_SORT_ALGORITHM_ONESWEEP},
        {.type = WGS_TYPE_F32, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_BUFFER, .value_bytes = 8},
        {.type = WGS_TYPE_U64, .payload = WGS_PAYLOAD_INDEX, .algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (test_sanitized() && !test_long() && i != 1) continue; /* each case compiles its own pipelines */
        run_case(ctx, &cases[i], sizes, 2, dists, 2, 0);
    }
}

/* A tile staged half at a time (wgs_experimental.sort_stage 2) at a subgroup's worth of
 * invocations (32, or the device's widest subgroup) x 8 keys: both algorithms, 64-bit
 * keys, a tile of an odd count of rows (staged whole), and, in the long run (SwiftShader
 * takes minutes to compile its kernels), values beside the keys. */
TEST(sort_stage_halves) {
    wgs_context_info info;
    uint32_t unit;
    if (!device_unit(&info, &unit)) return;
    wgs_experimental e = {.sort_stage = 2, .sort = {unit, 8}};
    wgs_context *ctx = test_context_experimental(&e);
    if (!ctx) return;
    const uint64_t tile = 8ull * unit, sizes[] = {1, tile - 1, 3 * tile + 5};
    const enum dist dists[] = {D_UNIFORM, D_FEW};
    const sort_case cases[] = {
        {.type = WGS_TYPE_U32, .algorithm = WGS_SORT_ALGORITHM_ONESWEEP},
        {.type = WGS_TYPE_I64, .order = WGS_SORT_DESCENDING, .algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN},
        {.type = WGS_TYPE_F32, .payload = WGS_PAYLOAD_BUFFER, .value_bytes = 8},
        {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX, .algorithm = WGS_SORT_ALGORITHM_ONESWEEP}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (i >= 2 && !test_long()) break;
        run_case(ctx, &cases[i], sizes, 3, dists, 2, 0);
    }
    e.sort = (wgs_tile_shape){unit, 7};
    ctx = test_context_experimental(&e); /* replaces the context above */
    if (!ctx) return;
    run_case(ctx, &(sort_case){.type = WGS_TYPE_U32}, sizes, 3, dists, 2, 0);
}

/* One plan, many sorts in a row (no stale counts or offsets between encodes), two of
 * them in one command encoder. At 2^20 keys (hundreds of tiles) stale state shows as it
 * would at 2^22, for a quarter of the time; sort_large sorts the largest size, and
 * test-long sorts 2^22 here. */
TEST(sort_many_in_a_row) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    /* The sanitized build reuses the plan for three sorts of 2^17 + 3 keys (512 tiles and
     * a part, both distributions, n changing between encodes): the host's part of a reuse
     * does not grow with n, and sort_large sorts the largest size there. */
    const int sanitized = test_sanitized() && !test_long();
    const uint64_t most = test_long() ? 1u << 22 : sanitized ? (1u << 17) + 3 : 1u << 20;
    uint64_t n = max_n() < most ? max_n() : most;
    int runs = getenv("WGSCAN_SORT_RUNS") ? atoi(getenv("WGSCAN_SORT_RUNS")) : sanitized ? 3 : 6;
    sort_case c = {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX};
    wgs_sort_plan_desc d = {.payload = WGS_PAYLOAD_INDEX, .capacity = n};
    wgs_sort_plan *plan = NULL;
    CHECK_RESULT(wgs_sort_plan_create(ctx, &d, &plan), WGS_OK);
    for (int i = 0; plan && i < runs; i++) check_sort(ctx, plan, &c, i % 2 ? D_FEW : D_UNIFORM, n - (uint64_t)i * 997, (uint64_t)i, 0);
    /* Two sorts of different n recorded into one encoder. */
    uint32_t *k1 = malloc(4 * 5000), *k2 = malloc(4 * 3000), *w1 = malloc(4 * 5000), *w2 = malloc(4 * 3000);
    if (plan && k1 && k2 && w1 && w2) {
        fill_keys(k1, WGS_TYPE_U32, 4, D_UNIFORM, 5000, 1), fill_keys(k2, WGS_TYPE_U32, 4, D_UNIFORM, 3000, 2);
        ref_sort(WGS_TYPE_U32, 0, 0, 0, k1, NULL, 0, 0, 5000, w1, NULL);
        ref_sort(WGS_TYPE_U32, 0, 0, 0, k2, NULL, 0, 0, 3000, w2, NULL);
        wgs_sort_plan *keys_plan = NULL;
        CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.capacity = 5000}, &keys_plan), WGS_OK);
        WGPUBuffer a = test_upload(ctx, k1, 4 * 5000), b = test_upload(ctx, k2, 4 * 3000);
        WGPUCommandEncoder enc;
        CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
        CHECK_RESULT(wgs_sort_encode(keys_plan, enc, &(wgs_sort_args){.keys_in = a, .keys_out = a, .n = 5000}), WGS_OK);
        CHECK_RESULT(wgs_sort_encode(keys_plan, enc, &(wgs_sort_args){.keys_in = b, .keys_out = b, .n = 3000}), WGS_OK);
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        if (test_download(ctx, a, k1, 4 * 5000)) CHECK(memcmp(k1, w1, 4 * 5000) == 0);
        if (test_download(ctx, b, k2, 4 * 3000)) CHECK(memcmp(k2, w2, 4 * 3000) == 0);
        wgs_buffer_release(ctx, a), wgs_buffer_release(ctx, b);
        wgs_sort_plan_destroy(keys_plan);
    }
    free(k1), free(k2), free(w1), free(w2);
    wgs_sort_plan_destroy(plan);
}

/* Many reduce-then-scan sorts in one encoder: each pass's record is written after the
 * scan of the pass before, whose records may fill the context's parameter ring, so the
 * sort must reserve room for each record where it writes it (one reservation for all
 * its passes at the start overflowed the ring when a scan took the room: the browser's
 * suite failed validation on it). */
TEST(sort_many_encodes_one_submit) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { ENCODES = 300, N_MAX = 400 };
    wgs_sort_plan_desc d = {.algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN, .capacity = N_MAX};
    wgs_sort_plan *plan = NULL;
    CHECK_RESULT(wgs_sort_plan_create(ctx, &d, &plan), WGS_OK);
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    uint64_t align = info.min_storage_offset_alignment;
    uint64_t region = (N_MAX * 4 + align - 1) / align * align;
    uint32_t *in = malloc(4 * N_MAX), *out = malloc(region * ENCODES), *want = malloc(4 * N_MAX);
    if (in) fill_keys(in, WGS_TYPE_U32, 4, D_UNIFORM, N_MAX, 5);
    WGPUBuffer bin = in ? test_upload(ctx, in, 4 * N_MAX) : NULL;
    WGPUBuffer bout = NULL;
    const WGPUBufferUsage u = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    CHECK_RESULT(wgs_buffer_create(ctx, region * ENCODES, u, &bout), WGS_OK);
    WGPUCommandEncoder enc = NULL;
    if (plan && out && want && bin && bout && wgs_encoder_create(ctx, &enc) == WGS_OK) {
        for (int k = 0; k < ENCODES; k++) {
            wgs_sort_args a = {.keys_in = bin, .keys_out = bout, .keys_out_offset = k * region,
                               .n = 1 + (uint64_t)k % N_MAX};
            CHECK_RESULT(wgs_sort_encode(plan, enc, &a), WGS_OK);
        }
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
        CHECK_RESULT(wgs_buffer_read(ctx, bout, 0, out, region * ENCODES), WGS_OK);
        int wrong = 0;
        for (int k = 0; k < ENCODES; k++) {
            uint64_t n = 1 + (uint64_t)k % N_MAX;
            ref_sort(WGS_TYPE_U32, 0, 0, 0, in, NULL, 0, 0, n, want, NULL);
            wrong += memcmp((const char *)out + k * region, want, 4 * n) != 0;
        }
        if (wrong) test_fail(__FILE__, __LINE__, "%d of %d sorts gave wrong results", wrong, ENCODES);
    }
    wgs_buffer_release(ctx, bin);
    wgs_buffer_release(ctx, bout);
    wgs_sort_plan_destroy(plan);
    free(in), free(out), free(want);
}

TEST(sort_host) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { N = 3001 };
    int64_t keys[N], want[N], got[N];
    uint32_t want_idx[N], got_idx[N];
    fill_keys(keys, WGS_TYPE_I64, 8, D_FEW, N, 9);
    ref_sort(WGS_TYPE_I64, 1, 0, 0, keys, NULL, 0, 1, N, want, want_idx);
    wgs_sort_plan_desc d = {.type = WGS_TYPE_I64, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_INDEX};
    CHECK_RESULT(wgs_sort_host(ctx, &d, keys, NULL, N, got, got_idx), WGS_OK);
    CHECK(memcmp(got, want, sizeof got) == 0);
    CHECK(memcmp(got_idx, want_idx, sizeof got_idx) == 0);
    /* In place through the host call, and n = 0. */
    CHECK_RESULT(wgs_sort_host(ctx, &(wgs_sort_plan_desc){.type = WGS_TYPE_I64}, keys, NULL, N, keys, NULL), WGS_OK);
    ref_sort(WGS_TYPE_I64, 0, 0, 0, want, NULL, 0, 0, N, want, NULL);
    CHECK(memcmp(keys, want, sizeof keys) == 0);
    CHECK_RESULT(wgs_sort_host(ctx, &d, NULL, NULL, 0, NULL, NULL), WGS_OK);
    CHECK_RESULT(wgs_sort_host(ctx, &d, keys, NULL, N, got, NULL), WGS_ERROR_INVALID_ARGUMENT);
}

TEST(sort_bad_input) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_sort_plan *plan = NULL;
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.type = WGS_TYPE_F16}, &plan), WGS_ERROR_UNSUPPORTED_TYPE);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.begin_bit = 9, .end_bit = 8}, &plan),
                 WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.end_bit = 33}, &plan), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.type = WGS_TYPE_U64, .end_bit = 65}, &plan),
                 WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.order = (wgs_sort_order)2}, &plan),
                 WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.payload = WGS_PAYLOAD_BUFFER, .value_bytes = 2}, &plan),
                 WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.value_bytes = 4}, &plan), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.capacity = 1ull << 40}, &plan), WGS_ERROR_TOO_LARGE);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.algorithm = WGS_SORT_ALGORITHM_ONESWEEP,
                                                                  .capacity = 1ull << 30},
                                      &plan),
                 WGS_ERROR_TOO_LARGE);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.algorithm = (wgs_sort_algorithm)3}, &plan),
                 WGS_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.payload = WGS_PAYLOAD_BUFFER, .capacity = 100}, &plan),
                 WGS_OK);
    if (!plan) return;
    WGPUBuffer k = test_buffer(ctx, 1024), k2 = test_buffer(ctx, 512), v = test_buffer(ctx, 512), v2 = test_buffer(ctx, 512);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_sort_args a = {.keys_in = k, .keys_out = k2, .values_in = v, .values_out = v2, .n = 101};
    CHECK_RESULT(wgs_sort_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a.n = 100;
    a.values_in = NULL;
    CHECK_RESULT(wgs_sort_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a.values_in = k;
    CHECK_RESULT(wgs_sort_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a.values_in = v;
    a.keys_out_offset = 256;
    CHECK_RESULT(wgs_sort_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    a.keys_out = k;
    CHECK_RESULT(wgs_sort_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a.keys_out = k2;
    a.keys_out_offset = 4;
    CHECK_RESULT(wgs_sort_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    a.keys_out_offset = 0;
    CHECK_RESULT(wgs_sort_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    CHECK_RESULT(wgs_sort_encode(NULL, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    wgs_buffer_release(ctx, k), wgs_buffer_release(ctx, k2), wgs_buffer_release(ctx, v), wgs_buffer_release(ctx, v2);
    wgs_sort_plan_destroy(plan);
}

/* ---- counts on the GPU (args.n_buffer) --------------------------------------------- */

/* The first count of `bound` keys sorted through a plan of capacity bound, the count in
 * a GPU buffer: keys and values against the reference of those keys, every element of
 * the outputs past the count as it was (in place: the input's keys). */
static void check_sort_count(wgs_context *ctx, wgs_sort_plan *plan, const sort_case *c, uint64_t bound,
                             uint32_t count, int in_place) {
    size_t kb = wgs_type_size(c->type), vb = c->payload == WGS_PAYLOAD_NONE ? 0 : c->value_bytes ? c->value_bytes : 4;
    uint64_t m = count < bound ? count : bound, kbytes = bound * kb, vbytes = bound * vb;
    unsigned char *keys = malloc(kbytes + 8), *want = malloc(kbytes + 8), *got = malloc(kbytes + 8);
    unsigned char *vals = malloc(vbytes + 8), *want_v = malloc(vbytes + 8), *got_v = malloc(vbytes + 8);
    unsigned char *guard = malloc(kbytes + vbytes + 8);
    WGPUBuffer bk = NULL, bko = NULL, bv = NULL, bvo = NULL, bn = NULL;
    if (!keys || !want || !got || !vals || !want_v || !got_v || !guard) goto done;
    fill_keys(keys, c->type, kb, D_FEW, bound, count);
    for (uint64_t i = 0; i < vbytes / 4; i++) ((uint32_t *)vals)[i] = (uint32_t)mix(i ^ count);
    if (ref_sort(c->type, c->order == WGS_SORT_DESCENDING, c->begin_bit, c->end_bit, keys, vals,
                 c->payload == WGS_PAYLOAD_BUFFER ? (uint32_t)vb : 0, c->payload == WGS_PAYLOAD_INDEX, m, want,
                 want_v) != 0)
        goto done;
    memset(guard, 0xC3, kbytes + vbytes + 8);
    memcpy(want + m * kb, in_place ? keys + m * kb : guard, (size_t)(kbytes - m * kb));
    memcpy(want_v + m * vb, in_place && c->payload == WGS_PAYLOAD_BUFFER ? vals + m * vb : guard,
           (size_t)(vbytes - m * vb));
    bk = test_upload(ctx, keys, kbytes);
    bko = in_place ? bk : test_upload(ctx, guard, kbytes);
    if (c->payload == WGS_PAYLOAD_BUFFER) bv = test_upload(ctx, vals, vbytes);
    if (c->payload != WGS_PAYLOAD_NONE) bvo = in_place && bv ? bv : test_upload(ctx, guard, vbytes);
    bn = test_count_buffer(ctx, count, 4);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_sort_args a = {.keys_in = bk, .keys_out = bko, .values_in = bv, .values_out = bvo, .n = bound,
                       .n_buffer = bn, .n_offset = 4};
    CHECK_RESULT(wgs_sort_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    if (!test_download(ctx, bko, got, kbytes)) goto done;
    if (memcmp(got, want, (size_t)kbytes) != 0) {
        uint64_t i = 0;
        while (memcmp(got + i * kb, want + i * kb, kb) == 0) i++;
        test_fail(__FILE__, __LINE__, "%s %s algorithm %d bound %llu count %u%s: key %llu differs%s",
                  wgs_type_name(c->type), c->order ? "desc" : "asc", (int)c->algorithm, (unsigned long long)bound,
                  count, in_place ? " in place" : "", (unsigned long long)i, i >= m ? " (past the count)" : "");
    }
    if (vb && test_download(ctx, bvo, got_v, vbytes) && memcmp(got_v, want_v, (size_t)vbytes) != 0)
        test_fail(__FILE__, __LINE__, "%s bound %llu count %u payload %d: values differ", wgs_type_name(c->type),
                  (unsigned long long)bound, count, (int)c->payload);
done:
    wgs_buffer_release(ctx, bk);
    if (bko != bk) wgs_buffer_release(ctx, bko);
    wgs_buffer_release(ctx, bv);
    if (bvo != bv) wgs_buffer_release(ctx, bvo);
    wgs_buffer_release(ctx, bn);
    free(keys), free(want), free(got), free(vals), free(want_v), free(got_v), free(guard);
}

/* Both algorithms; keys with values, with indices, 64-bit keys, a bit range, in place;
 * counts at the tile's edges (256 and 1024-key tiles), the bound and above it. */
TEST(sort_count_from_gpu) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    const sort_case cases[] = {
        {WGS_TYPE_U32, WGS_SORT_ASCENDING, WGS_PAYLOAD_BUFFER, 4, 0, 0, WGS_SORT_ALGORITHM_REDUCE_SCAN},
        {WGS_TYPE_F32, WGS_SORT_DESCENDING, WGS_PAYLOAD_INDEX, 0, 0, 0, WGS_SORT_ALGORITHM_ONESWEEP},
        {WGS_TYPE_U64, WGS_SORT_ASCENDING, WGS_PAYLOAD_BUFFER, 8, 0, 0, WGS_SORT_ALGORITHM_ONESWEEP},
        {WGS_TYPE_I32, WGS_SORT_ASCENDING, WGS_PAYLOAD_NONE, 0, 4, 20, WGS_SORT_ALGORITHM_REDUCE_SCAN},
    };
    const uint64_t bound = 5001;
    const uint32_t counts[] = {0, 1, 257, 1025, (uint32_t)bound, (uint32_t)bound + 1000};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const sort_case *c = &cases[k];
        wgs_sort_plan_desc d = {.type = c->type, .order = c->order, .begin_bit = c->begin_bit,
                                .end_bit = c->end_bit, .payload = c->payload, .value_bytes = c->value_bytes,
                                .algorithm = c->algorithm, .capacity = bound};
        wgs_sort_plan *plan = NULL;
        CHECK_RESULT(wgs_sort_plan_create(ctx, &d, &plan), WGS_OK);
        if (!plan) continue;
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
            check_sort_count(ctx, plan, c, bound, counts[i], k == 0 && i % 2);
        wgs_sort_plan_destroy(plan);
    }
}

/* The bind groups an encode of n keys through a plan creates (fresh buffers for the
 * keys and values; records are reused by their contents, so they do not count here),
 * which tells one-sweep's passes from reduce-then-scan's. */
static uint64_t encode_asks(wgs_context *ctx, wgs_sort_plan *plan, uint64_t n) {
    const WGPUBufferUsage u = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer in = NULL, out = NULL, idx = NULL;
    WGPUCommandEncoder enc = NULL;
    uint64_t asks = 0;
    if (wgs_buffer_create(ctx, 4 * n, u, &in) == WGS_OK && wgs_buffer_create(ctx, 4 * n, u, &out) == WGS_OK &&
        wgs_buffer_create(ctx, 4 * n, u, &idx) == WGS_OK && wgs_encoder_create(ctx, &enc) == WGS_OK) {
        wgs_experimental_encode_counts a = wgs_experimental_encodes(ctx);
        CHECK_RESULT(wgs_sort_encode(plan, enc, &(wgs_sort_args){.keys_in = in, .keys_out = out, .values_out = idx,
                                                                 .n = n}),
                     WGS_OK);
        wgs_experimental_encode_counts b = wgs_experimental_encodes(ctx);
        asks = b.bind_groups_created - a.bind_groups_created;
        CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    }
    wgs_buffer_release(ctx, in), wgs_buffer_release(ctx, out), wgs_buffer_release(ctx, idx);
    return asks;
}

/* DEFAULT chooses by n where the host knows it: a plan past the one-sweep bound (here
 * 5000 keys whatever the tuning row says) keeps a one-sweep plan of the bound beside it
 * (its scratch more than the reduce-then-scan's alone) and sorts n up to the bound
 * with it (its encode asks what a one-sweep plan's does), n past it by
 * reduce-then-scan, and a count on the GPU by reduce-then-scan whatever the count. */
TEST(sort_default_by_n) {
    wgs_experimental e = {.sort_onesweep_max = 5000};
    wgs_context *ctx = test_context_experimental(&e);
    if (!ctx) return;
    const uint64_t sizes[] = {1, 5000, 5001, 20011};
    const enum dist dists[] = {D_UNIFORM, D_FEW};
    const sort_case cases[] = {{.type = WGS_TYPE_F32, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_INDEX},
                               {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_BUFFER}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const sort_case *c = &cases[k];
        if (k && !test_long()) break; /* each case compiles its own pipelines */
        wgs_sort_plan_desc d = {.type = c->type, .order = c->order, .payload = c->payload, .capacity = 20011};
        wgs_sort_plan *by_n = NULL, *rts = NULL;
        CHECK_RESULT(wgs_sort_plan_create(ctx, &d, &by_n), WGS_OK);
        d.algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN;
        CHECK_RESULT(wgs_sort_plan_create(ctx, &d, &rts), WGS_OK);
        CHECK(wgs_sort_plan_scratch_size(by_n) > wgs_sort_plan_scratch_size(rts));
        d.algorithm = WGS_SORT_ALGORITHM_ONESWEEP;
        wgs_sort_plan *os = NULL;
        CHECK_RESULT(wgs_sort_plan_create(ctx, &d, &os), WGS_OK);
        if (k == 0 && by_n && rts && os) { /* indices: an output of values to bind */
            /* Each plan's first encode (a plan's own bind groups are cached after it). */
            uint64_t one = encode_asks(ctx, os, 5000), two = encode_asks(ctx, rts, 5001);
            CHECK(one != two);
            CHECK(encode_asks(ctx, by_n, 5000) == one);
            CHECK(encode_asks(ctx, by_n, 5001) == two);
        }
        wgs_sort_plan_destroy(rts);
        wgs_sort_plan_destroy(os);
        if (!by_n) continue;
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            check_sort(ctx, by_n, c, dists[i % 2], sizes[i], sizes[i] * 7, i == 1);
        const uint32_t counts[] = {3000, 20011};
        for (size_t i = 0; i < 2; i++) check_sort_count(ctx, by_n, c, 20011, counts[i], 0);
        wgs_sort_plan_destroy(by_n);
    }
}

TEST(sort_count_from_gpu_direct_and_indirect) {
    /* The count and scatter grids both ways whatever the device's tuning: dispatched
     * as the bound's with their spare workgroups returning (GPUs), or indirect past
     * one workgroup (CPU drivers, and the large sorts' grids on GPUs). Two tiles a
     * group, 4 groups a count workgroup: the last workgroups' groups past the count. */
    const uint32_t direct_max[] = {1, 1u << 30};
    for (int m = 0; m < 2; m++) {
        wgs_experimental e = {.sort_direct_max = direct_max[m], .sort_group_tiles = 2, .sort_count_groups = 4};
        wgs_context *ctx = test_context_experimental(&e);
        if (!ctx) return;
        const sort_case c = {WGS_TYPE_U32, WGS_SORT_ASCENDING, WGS_PAYLOAD_INDEX, 0, 0, 0,
                             WGS_SORT_ALGORITHM_REDUCE_SCAN};
        const uint64_t bound = 19 * 4096 + 5;
        wgs_sort_plan_desc d = {.type = c.type, .payload = c.payload, .algorithm = c.algorithm, .capacity = bound};
        wgs_sort_plan *plan = NULL;
        CHECK_RESULT(wgs_sort_plan_create(ctx, &d, &plan), WGS_OK);
        if (!plan) return;
        const uint32_t counts[] = {0, 3000, 9 * 4096 + 1, (uint32_t)bound};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
            check_sort_count(ctx, plan, &c, bound, counts[i], 0);
        wgs_sort_plan_destroy(plan);
    }
}
