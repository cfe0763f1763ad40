/* SPDX-License-Identifier: MIT */
/* Segmented sort against the CPU reference (reference/segmented_sort.c): every key type
 * in both orders with each payload, segments of 0, 1, tile - 1, tile and tile + 1 keys,
 * one segment of everything, 100k tiny segments, mixtures, gaps (BEGIN_END), the
 * small-segment kernel alone and the large path alone, f32 NaN / -0 / +0 / inf /
 * subnormals in the sort's order, the scratch query, and bad inputs with their exact
 * codes (on the host, and in the status word). The CPU class's tile is 64 x 4 = 256. */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static size_t key_size(wgs_type t) { return t == WGS_TYPE_U64 || t == WGS_TYPE_I64 ? 8 : 4; }

/* The bits fill_keys's keys may differ in (the others are key_base's): all of them but
 * where a test narrows them, so that the small kernel's passes over shared digits are
 * left out. */
static uint64_t key_mask = ~0ull, key_base;

/* Keys with many ties (a few distinct values in every third case), f32 specials for
 * f32. */
static void fill_keys(void *keys, wgs_type t, uint64_t n, uint64_t seed) {
    static const uint32_t edges[] = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                     0xFFC00001u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x3F800000u,
                                     0xBF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800001u};
    const int few = seed % 3 == 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = mix(seed * 1000003u + i);
        if (few) v = mix(seed + v % 5);
        if (t == WGS_TYPE_F32 && v % 3) v = edges[v % (sizeof edges / sizeof edges[0])];
        v = (v & key_mask) | (key_base & ~key_mask);
        if (key_size(t) == 8)
            memcpy((char *)keys + i * 8, &v, 8);
        else {
            uint32_t w = (uint32_t)v;
            memcpy((char *)keys + i * 4, &w, 4);
        }
    }
}

/* Segment lengths into CSR offsets (n_segments + 1), or with gaps into begins and ends
 * (a gap of 0..2 before each segment); returns n. */
static uint64_t make_segments(const uint32_t *lens, uint64_t segs, int gaps, uint64_t seed, uint32_t *begins,
                              uint32_t *ends) {
    uint64_t at = 0;
    for (uint64_t s = 0; s < segs; s++) {
        if (gaps) at += mix(seed + s) % 3;
        begins[s] = (uint32_t)at;
        at += lens[s];
        if (gaps) ends[s] = (uint32_t)at;
    }
    if (gaps) at += 2;
    else begins[segs] = (uint32_t)at;
    return at;
}

/* The host call on lens's segments checked against the reference, keys and values;
 * the outputs start as a pattern that places in no segment must keep. */
static void check_case(wgs_context *ctx, const wgs_segmented_sort_plan_desc *desc, const uint32_t *lens,
                       uint64_t segs, uint64_t seed, const char *what) {
    const int gaps = desc->segments == WGS_SEGMENTS_BEGIN_END;
    const wgs_type t = desc->type ? desc->type : WGS_TYPE_U32;
    const size_t kb = key_size(t);
    const uint32_t vb = desc->payload == WGS_PAYLOAD_BUFFER ? (desc->value_bytes ? desc->value_bytes : 4)
                        : desc->payload == WGS_PAYLOAD_INDEX ? 4 : 0;
    uint32_t *begins = malloc((segs + 1) * 4), *ends = gaps ? malloc((segs + 1) * 4) : NULL;
    if (!begins || (gaps && !ends)) goto out_early;
    uint64_t n = make_segments(lens, segs, gaps, seed, begins, ends);
    size_t nb = (size_t)(n ? n : 1);
    char *keys = malloc(nb * kb), *want = malloc(nb * kb), *got = malloc(nb * kb);
    char *vals = malloc(nb * 8), *want_v = malloc(nb * 8), *got_v = malloc(nb * 8);
    if (!keys || !want || !got || !vals || !want_v || !got_v) goto done;
    fill_keys(keys, t, n, seed);
    for (uint64_t i = 0; i < n * 2; i++) ((uint32_t *)vals)[i] = (uint32_t)mix(i ^ (seed << 20));
    memset(want, 0xA5, nb * kb), memset(got, 0xA5, nb * kb);
    memset(want_v, 0x5A, nb * 8), memset(got_v, 0x5A, nb * 8);
    CHECK(ref_segmented_sort(t, desc->order == WGS_SORT_DESCENDING, keys, vals,
                             desc->payload == WGS_PAYLOAD_BUFFER ? vb : 0, desc->payload == WGS_PAYLOAD_INDEX,
                             begins, ends, n, segs, want, want_v) == 0);
    wgs_result r = wgs_segmented_sort_host(ctx, desc, keys, desc->payload == WGS_PAYLOAD_BUFFER ? vals : NULL,
                                           begins, ends, n, segs, got, vb ? got_v : NULL);
    if (r != WGS_OK) {
        test_fail(__FILE__, __LINE__, "%s: %s n=%llu segments=%llu: %s (%s)", what, wgs_type_name(t),
                  (unsigned long long)n, (unsigned long long)segs, wgs_result_name(r),
                  wgs_context_last_error(ctx));
        goto done;
    }
    for (uint64_t i = 0; i < n; i++)
        if (memcmp(got + i * kb, want + i * kb, kb)) {
            uint64_t g = 0, w = 0;
            memcpy(&g, got + i * kb, kb), memcpy(&w, want + i * kb, kb);
            test_fail(__FILE__, __LINE__, "%s: %s %s n=%llu segments=%llu: key %llu is 0x%llx, want 0x%llx", what,
                      wgs_type_name(t), desc->order ? "descending" : "ascending", (unsigned long long)n,
                      (unsigned long long)segs, (unsigned long long)i, (unsigned long long)g,
                      (unsigned long long)w);
            goto done;
        }
    for (uint64_t i = 0; vb && i < n; i++)
        if (memcmp(got_v + i * vb, want_v + i * vb, vb)) {
            uint32_t g = 0, w = 0;
            memcpy(&g, got_v + i * vb, 4), memcpy(&w, want_v + i * vb, 4);
            test_fail(__FILE__, __LINE__, "%s: %s payload %d n=%llu: value %llu is 0x%x, want 0x%x (stable?)", what,
                      wgs_type_name(t), (int)desc->payload, (unsigned long long)n, (unsigned long long)i, g, w);
            break;
        }
done:
    free(keys), free(want), free(got), free(vals), free(want_v), free(got_v);
out_early:
    free(begins), free(ends);
}

/* Lengths around the tile (256 on CPU drivers), the medium tile (64) and the longest
 * segment an invocation sorts alone (32), empty and single segments among them. */
#define BOUNDARY_LENGTHS 23

static uint64_t boundary_lengths(uint32_t tile, uint32_t lens[BOUNDARY_LENGTHS]) {
    /* 8, 9, 16, 17, 24, 25, 31, 32: where ss_tiny's lanes come to hold one key more */
    const uint32_t l[BOUNDARY_LENGTHS] = {0,  1,  2,  0,  tile - 1, tile, 3, 0, 1, tile / 2 + 1, tile, 17,
                                          0,  32, 33, 31, 64,       65,   8, 9, 16, 24, 25};
    memcpy(lens, l, sizeof l);
    return sizeof l / sizeof l[0];
}

static const wgs_type types[] = {WGS_TYPE_U32, WGS_TYPE_I32, WGS_TYPE_F32, WGS_TYPE_U64, WGS_TYPE_I64};

TEST(segmented_sort_small_every_type) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    int turn = 0;
    for (int t = 0; t < 5; t++)
        for (int o = 0; o < 2; o++, turn++) {
            wgs_segmented_sort_plan_desc d = {.type = types[t], .order = (wgs_sort_order)o,
                                              .path = WGS_SEGMENTED_SORT_PATH_SMALL,
                                              .payload = (wgs_payload)(turn % 3), .value_bytes = turn % 2 ? 8 : 4,
                                              .segments = turn % 4 == 3 ? WGS_SEGMENTS_BEGIN_END : WGS_SEGMENTS_OFFSETS};
            wgs_segmented_sort_plan *plan = NULL;
            CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &d, &plan), WGS_OK);
            uint32_t tile = wgs_segmented_sort_plan_tile_size(plan);
            CHECK(tile >= 32);
            CHECK(wgs_segmented_sort_plan_scratch_size(plan) == 256); /* the list of one segment */
            wgs_segmented_sort_plan_destroy(plan);
            uint32_t lens[BOUNDARY_LENGTHS];
            uint64_t segs = boundary_lengths(tile, lens);
            check_case(ctx, &d, lens, segs, (uint64_t)turn, "small path");
        }
}

TEST(segmented_sort_small_shared_digits) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    /* Keys that differ only in a few bits: the small kernel sorts only the digits where
     * a segment's keys differ (none where all are equal, which it copies). The key kinds
     * of the test above (their kernels already compiled), other payloads. */
    static const struct {
        wgs_type type;
        wgs_sort_order order;
        uint64_t mask, base;
    } cases[] = {
        {WGS_TYPE_U64, WGS_SORT_ASCENDING, 0, 0x123456789ABCDEF0ull},
        {WGS_TYPE_U64, WGS_SORT_ASCENDING, 0x0000FF0000000000ull, 0x1122334455667788ull},
        {WGS_TYPE_U64, WGS_SORT_ASCENDING, 0x8000000000000001ull, 0},
        {WGS_TYPE_I64, WGS_SORT_DESCENDING, 0x80000000FF00FF00ull, 0x7F},
        {WGS_TYPE_I32, WGS_SORT_ASCENDING, 0x8000000Full, 0x12345},
        {WGS_TYPE_F32, WGS_SORT_DESCENDING, 0x80000000ull, 0},          /* -0 and +0 */
        {WGS_TYPE_F32, WGS_SORT_ASCENDING, 0x80000000ull, 0x7FC00000ull}, /* NaNs of both signs */
        {WGS_TYPE_F32, WGS_SORT_ASCENDING, 0x807F0000ull, 0x3F800000ull},
        {WGS_TYPE_U32, WGS_SORT_DESCENDING, 0x00FF0000ull, 0xAB},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wgs_segmented_sort_plan_desc d = {.type = cases[i].type, .order = cases[i].order,
                                          .path = WGS_SEGMENTED_SORT_PATH_SMALL,
                                          .payload = i % 2 ? WGS_PAYLOAD_INDEX : WGS_PAYLOAD_BUFFER,
                                          .value_bytes = i % 4 == 2 ? 8 : 4};
        wgs_segmented_sort_plan *plan = NULL;
        CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &d, &plan), WGS_OK);
        const uint32_t tile = wgs_segmented_sort_plan_tile_size(plan);
        wgs_segmented_sort_plan_destroy(plan);
        uint32_t lens[BOUNDARY_LENGTHS];
        uint64_t segs = boundary_lengths(tile, lens);
        key_mask = cases[i].mask, key_base = cases[i].base;
        /* Seeds 1 and 2: fill_keys's many-valued keys (seed 0 mod 3 has five values). */
        check_case(ctx, &d, lens, segs, 1 + i % 2, "small path, shared digits");
    }
    key_mask = ~0ull, key_base = 0;
}

TEST(segmented_sort_block_path) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    /* Segments past the tile up to the CPU class's bound (1024 keys) take a workgroup
     * each through global memory (ss_block); a plan whose capacity is at most the bound
     * has no large path. Every key type in both orders, lengths tile + 1 to four tiles. */
    int turn = 0;
    for (int t = 0; t < 5; t++)
        for (int o = 0; o < 2; o++, turn++) {
            wgs_segmented_sort_plan_desc d = {.type = types[t], .order = (wgs_sort_order)o,
                                              .payload = (wgs_payload)((turn + 1) % 3),
                                              .value_bytes = turn % 2 ? 4 : 8,
                                              .segments = turn % 4 == 1 ? WGS_SEGMENTS_BEGIN_END
                                                                        : WGS_SEGMENTS_OFFSETS};
            wgs_segmented_sort_plan *plan = NULL;
            d.capacity = 1000;
            CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &d, &plan), WGS_OK);
            const uint32_t tile = wgs_segmented_sort_plan_tile_size(plan);
            wgs_segmented_sort_plan_destroy(plan);
            /* n = 3 tiles + 152 (920 on CPU drivers), at most the bound: no large path. */
            uint32_t lens[7] = {tile + 1, 0, 1, 40, 2 * tile + 7, 3, 100};
            if (3ull * tile + 152 > 1024) continue; /* a device whose tile leaves no room */
            check_case(ctx, &d, lens, 7, 30u + (uint64_t)turn, "block path");
        }
    /* At the bound: 1024 keys a workgroup, 1025 through the radix sorts, in one encode. */
    wgs_segmented_sort_plan_desc ds[2] = {
        {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX},
        {.type = WGS_TYPE_I64, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_BUFFER,
         .segments = WGS_SEGMENTS_BEGIN_END}};
    for (int i = 0; i < 2; i++) {
        const uint32_t lens[6] = {1024, 1025, 257, 1, 1023, 256};
        check_case(ctx, &ds[i], lens, 6, 50u + (uint64_t)i, "block path's bound");
    }
}

TEST(segmented_sort_without_subgroups) {
    /* Without subgroups both workgroup sorts rank by an invocation's counter row, in
     * workgroups made smaller to fit the rows. */
    wgs_experimental e = {.disable_subgroups = 1};
    wgs_context *portable = test_context_experimental(&e);
    if (!portable) return;
    wgs_segmented_sort_plan_desc d = {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX, .capacity = 1000};
    wgs_segmented_sort_plan *plan = NULL;
    CHECK_RESULT(wgs_segmented_sort_plan_create(portable, &d, &plan), WGS_OK);
    const uint32_t tile = wgs_segmented_sort_plan_tile_size(plan);
    wgs_segmented_sort_plan_destroy(plan);
    uint32_t lens[9] = {tile - 1, tile, tile + 1, 0, 33, 2 * tile + 3, 5, 1, 40};
    check_case(portable, &d, lens, 9, 60, "block path without subgroups");
    /* The large path's sorts prefer one-sweep, whose tile states take 8 bytes a key at
     * the portable 256-key tiles: under a 1 MiB binding, 150000 keys fit and their
     * states do not, so those sorts are reduce-then-scan (a plan, not an error). */
    wgs_experimental capped = {.disable_subgroups = 1, .max_storage_binding_size = 1u << 20};
    wgs_context *small = test_context_experimental(&capped);
    if (!small) return;
    wgs_segmented_sort_plan_desc dl = {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX,
                                       .path = WGS_SEGMENTED_SORT_PATH_LARGE};
    uint32_t one[2] = {150000, 7};
    check_case(small, &dl, one, 2, 61, "large path, one-sweep states past the binding");
}

TEST(segmented_sort_large_path_alone) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    /* u32 ascending with indices, f32 descending with 8-byte values, i64 descending
     * with 4-byte values (two words a compacted key): every non-empty segment through
     * the radix sorts, one element ones included. */
    wgs_segmented_sort_plan_desc ds[3] = {
        {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX, .path = WGS_SEGMENTED_SORT_PATH_LARGE},
        {.type = WGS_TYPE_F32, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_BUFFER, .value_bytes = 8,
         .path = WGS_SEGMENTED_SORT_PATH_LARGE, .segments = WGS_SEGMENTS_BEGIN_END},
        {.type = WGS_TYPE_I64, .order = WGS_SORT_DESCENDING, .payload = WGS_PAYLOAD_BUFFER,
         .path = WGS_SEGMENTED_SORT_PATH_LARGE}};
    for (int i = 0; i < 3; i++) {
        uint32_t lens[BOUNDARY_LENGTHS];
        uint64_t segs = boundary_lengths(256, lens);
        check_case(ctx, &ds[i], lens, segs, 100u + (uint64_t)i, "large path");
        uint32_t one[1] = {3000};
        check_case(ctx, &ds[i], one, 1, 200u + (uint64_t)i, "large path, one segment");
    }
}

TEST(segmented_sort_default_mixtures) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_segmented_sort_plan_desc d = {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX};
    wgs_segmented_sort_plan *plan = NULL;
    d.capacity = 1000;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &d, &plan), WGS_OK);
    const uint32_t tile = wgs_segmented_sort_plan_tile_size(plan);
    wgs_segmented_sort_plan_destroy(plan);
    /* Every length from 0 to a few tiles, in a shuffled order: both paths at once. */
    uint32_t lens[64];
    for (int i = 0; i < 64; i++) lens[i] = (uint32_t)(mix((uint64_t)i) % (3 * tile + 2));
    lens[3] = tile - 1, lens[4] = tile, lens[5] = tile + 1, lens[6] = 0, lens[7] = 1;
    check_case(ctx, &d, lens, 64, 7, "mixture");
    /* One segment of everything, past a tile; and no keys at all. */
    uint32_t all[1] = {5 * tile + 3};
    check_case(ctx, &d, all, 1, 8, "one segment of all n");
    uint32_t empties[3] = {0, 0, 0};
    check_case(ctx, &d, empties, 3, 9, "n = 0");
    check_case(ctx, &d, empties, 0, 10, "no segments");
    /* 100k tiny segments (0 to 3 keys) with a few past the tile among them, and gaps. */
    const uint64_t many = 100000;
    uint32_t *tiny = malloc(many * 4);
    if (!tiny) return;
    for (uint64_t i = 0; i < many; i++) tiny[i] = (uint32_t)(mix(i + 77) % 4);
    tiny[500] = tile + 1, tiny[70000] = 2 * tile;
    check_case(ctx, &d, tiny, many, 11, "100k tiny segments");
    d.segments = WGS_SEGMENTS_BEGIN_END;
    check_case(ctx, &d, tiny, 5000, 12, "tiny segments with gaps");
    free(tiny);
}

TEST(segmented_sort_encode_with_offsets_and_status) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    /* Buffers at offsets, through the plan (two encodes of one plan in one submit). */
    wgs_segmented_sort_plan_desc d = {.type = WGS_TYPE_I32, .order = WGS_SORT_DESCENDING,
                                      .payload = WGS_PAYLOAD_BUFFER, .capacity = 700, .segment_capacity = 8};
    wgs_segmented_sort_plan *plan = NULL;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    uint64_t s_bytes = 0;
    CHECK_RESULT(wgs_segmented_sort_plan_desc_scratch_size(ctx, &d, &s_bytes), WGS_OK);
    CHECK(s_bytes == wgs_segmented_sort_plan_scratch_size(plan) && s_bytes > 0);
    const uint32_t offs[6] = {0, 10, 10, 300, 301, 700};
    int32_t keys[700], vals[700], want[700], want_v[700], got[700], got_v[700];
    fill_keys(keys, WGS_TYPE_I32, 700, 5);
    for (int i = 0; i < 700; i++) vals[i] = i * 7 + 1;
    CHECK(ref_segmented_sort(WGS_TYPE_I32, 1, keys, vals, 4, 0, offs, NULL, 700, 5, want, want_v) == 0);
    WGPUBuffer bk = test_buffer(ctx, 256 + sizeof keys), bv = test_buffer(ctx, 256 + sizeof vals);
    WGPUBuffer bko = test_buffer(ctx, 512 + sizeof keys), bvo = test_buffer(ctx, 512 + sizeof vals);
    WGPUBuffer bo = test_buffer(ctx, 256 + sizeof offs), st = test_buffer(ctx, 512);
    CHECK_RESULT(wgs_buffer_write(ctx, bk, 256, keys, sizeof keys), WGS_OK);
    CHECK_RESULT(wgs_buffer_write(ctx, bv, 256, vals, sizeof vals), WGS_OK);
    CHECK_RESULT(wgs_buffer_write(ctx, bo, 256, offs, sizeof offs), WGS_OK);
    const uint32_t junk = 77;
    CHECK_RESULT(wgs_buffer_write(ctx, st, 256, &junk, 4), WGS_OK);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_segmented_sort_args a = {.keys_in = bk, .keys_in_offset = 256, .keys_out = bko, .keys_out_offset = 512,
                                 .values_in = bv, .values_in_offset = 256, .values_out = bvo,
                                 .values_out_offset = 512, .n = 700, .offsets = bo, .offsets_offset = 256,
                                 .n_segments = 5, .status = st, .status_offset = 256};
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    uint32_t status = 1;
    CHECK_RESULT(wgs_buffer_read(ctx, bko, 512, got, sizeof got), WGS_OK);
    CHECK_RESULT(wgs_buffer_read(ctx, bvo, 512, got_v, sizeof got_v), WGS_OK);
    CHECK_RESULT(wgs_buffer_read(ctx, st, 256, &status, 4), WGS_OK);
    CHECK(status == 0);
    CHECK(memcmp(got, want, sizeof got) == 0);
    CHECK(memcmp(got_v, want_v, sizeof got_v) == 0);
    WGPUBuffer all[] = {bk, bv, bko, bvo, bo, st};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_segmented_sort_plan_destroy(plan);
}

TEST(segmented_sort_bad_offsets_in_the_status) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_segmented_sort_plan_desc d = {.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX, .capacity = 2000,
                                      .segment_capacity = 4};
    uint32_t keys[1000], out[1000], idx[1000];
    fill_keys(keys, WGS_TYPE_U32, 1000, 3);
    const uint32_t unordered[4] = {0, 600, 500, 1000}; /* a segment that ends before it begins */
    const uint32_t past[4] = {0, 10, 20, 1001};        /* an offset past n */
    const uint32_t both[4] = {0, 900, 20, 1001};
    CHECK_RESULT(wgs_segmented_sort_host(ctx, &d, keys, NULL, unordered, NULL, 1000, 3, out, idx),
                 WGS_ERROR_SEGMENTS_UNORDERED);
    CHECK_RESULT(wgs_segmented_sort_host(ctx, &d, keys, NULL, past, NULL, 1000, 3, out, idx),
                 WGS_ERROR_SEGMENT_OUT_OF_RANGE);
    CHECK_RESULT(wgs_segmented_sort_host(ctx, &d, keys, NULL, both, NULL, 1000, 3, out, idx),
                 WGS_ERROR_SEGMENT_OUT_OF_RANGE);
    /* BEGIN_END: overlapping segments (an end past the next begin). */
    wgs_segmented_sort_plan_desc be = d;
    be.segments = WGS_SEGMENTS_BEGIN_END;
    const uint32_t b[2] = {0, 400}, e[2] = {500, 900};
    CHECK_RESULT(wgs_segmented_sort_host(ctx, &be, keys, NULL, b, e, 1000, 2, out, idx),
                 WGS_ERROR_SEGMENTS_UNORDERED);
    /* The large path alone (every segment past the tile): overlapping segments are
     * reported; its gather finds each compacted key's segment by the valid ones'
     * places. The same plan's next sort, of valid segments, is whole. */
    wgs_segmented_sort_plan_desc lg = be;
    lg.path = WGS_SEGMENTED_SORT_PATH_LARGE;
    const uint32_t lb[3] = {0, 300, 700}, le[3] = {600, 1000, 1000};
    CHECK_RESULT(wgs_segmented_sort_host(ctx, &lg, keys, NULL, lb, le, 1000, 3, out, idx),
                 WGS_ERROR_SEGMENTS_UNORDERED);
    const uint32_t vb[2] = {0, 400}, ve[2] = {400, 1000};
    CHECK_RESULT(wgs_segmented_sort_host(ctx, &lg, keys, NULL, vb, ve, 1000, 2, out, idx), WGS_OK);
    for (uint32_t i = 1; i < 1000; i++)
        if (i != 400 && (out[i - 1] > out[i] || out[i] != keys[idx[i]])) {
            CHECK(!"large path: keys in order within each segment, each its index's");
            break;
        }
    /* The small kernel alone refuses a segment one key past its tile, whose size is the
     * device's (256 keys on SwiftShader, more on the H200). */
    wgs_segmented_sort_plan_desc sm = d;
    sm.path = WGS_SEGMENTED_SORT_PATH_SMALL;
    wgs_segmented_sort_plan *plan = NULL;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &sm, &plan), WGS_OK);
    const uint32_t tile = wgs_segmented_sort_plan_tile_size(plan);
    wgs_segmented_sort_plan_destroy(plan);
    CHECK(tile > 0);
    const uint32_t n = 10 + tile + 1, longer[3] = {0, 10, n};
    uint32_t *lk = malloc((size_t)n * 4), *lo = malloc((size_t)n * 4), *li = malloc((size_t)n * 4);
    CHECK(lk && lo && li);
    if (lk && lo && li) {
        fill_keys(lk, WGS_TYPE_U32, n, 4);
        sm.capacity = d.capacity = n;
        CHECK_RESULT(wgs_segmented_sort_host(ctx, &sm, lk, NULL, longer, NULL, n, 2, lo, li), WGS_ERROR_TOO_LARGE);
        /* The same offsets and the default path: fine. */
        CHECK_RESULT(wgs_segmented_sort_host(ctx, &d, lk, NULL, longer, NULL, n, 2, lo, li), WGS_OK);
    }
    free(lk), free(lo), free(li);
}

TEST(segmented_sort_bad_input) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    wgs_segmented_sort_plan *plan = NULL;
    wgs_segmented_sort_plan_desc d = {.capacity = 100, .segment_capacity = 4, .payload = WGS_PAYLOAD_INDEX}, bad;
    bad = d, bad.type = WGS_TYPE_F16;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &bad, &plan), WGS_ERROR_UNSUPPORTED_TYPE);
    CHECK(plan == NULL);
    bad = d, bad.order = (wgs_sort_order)2;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &bad, &plan), WGS_ERROR_INVALID_ARGUMENT);
    bad = d, bad.payload = WGS_PAYLOAD_BUFFER, bad.value_bytes = 2;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &bad, &plan), WGS_ERROR_INVALID_ARGUMENT);
    bad = d, bad.path = (wgs_segmented_sort_path)3;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &bad, &plan), WGS_ERROR_INVALID_ARGUMENT);
    bad = d, bad.segments = (wgs_segments_form)3;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &bad, &plan), WGS_ERROR_INVALID_ARGUMENT);
    bad = d, bad.capacity = 1ull << 31;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &bad, &plan), WGS_ERROR_TOO_LARGE);
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, NULL, &plan), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    WGPUBuffer in = test_buffer(ctx, 512), out = test_buffer(ctx, 512), idx = test_buffer(ctx, 512);
    WGPUBuffer offs = test_buffer(ctx, 256), st = test_buffer(ctx, 256);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_segmented_sort_args ok = {.keys_in = in, .keys_out = out, .values_out = idx, .n = 100, .offsets = offs,
                                  .n_segments = 4, .status = st},
                            a;
    a = ok, a.n = 101;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a = ok, a.n_segments = 5;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_CAPACITY_EXCEEDED);
    a = ok, a.offsets = NULL;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = ok, a.values_out = NULL;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_INVALID_ARGUMENT);
    a = ok, a.keys_out = in;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.values_out = out;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.status = offs;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_ALIASING);
    a = ok, a.keys_out_offset = 256;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    a = ok, a.keys_in_offset = 4;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    CHECK_RESULT(wgs_segmented_sort_encode(plan, NULL, &ok), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_segmented_sort_encode(NULL, enc, &ok), WGS_ERROR_INVALID_ARGUMENT);
    /* Refused before any GPU work: the encoder is still good. */
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &ok), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    uint32_t keys[4] = {4, 3, 2, 1}, got[4], o[2] = {0, 4};
    CHECK_RESULT(wgs_segmented_sort_host(ctx, &d, keys, NULL, NULL, NULL, 4, 1, got, got), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_segmented_sort_host(ctx, &d, keys, NULL, o, NULL, 4, 1, got, NULL), WGS_ERROR_INVALID_ARGUMENT);
    WGPUBuffer all[] = {in, out, idx, offs, st};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_segmented_sort_plan_destroy(plan);
    wgs_segmented_sort_plan_destroy(NULL);
}

/* One encode with the key and segment counts on the GPU (n and n_segments the bounds):
 * the first min(count, bound) of each sorted, nothing past them written; returns the
 * status. The outputs start as a pattern that the reference keeps too. */
static uint32_t run_counted(wgs_context *ctx, wgs_segmented_sort_plan *plan, const uint32_t *offs, uint64_t n,
                            uint64_t segs, uint32_t n_count, uint32_t seg_count, int check) {
    uint32_t *keys = malloc(n * 4), *want = malloc(n * 4), *want_v = malloc(n * 4), *got = malloc(n * 4),
             *got_v = malloc(n * 4), status = 99;
    if (!keys || !want || !want_v || !got || !got_v) goto done;
    fill_keys(keys, WGS_TYPE_U32, n, n_count + 31u * seg_count);
    for (uint64_t i = 0; i < n; i++) want[i] = 0xA5A5A5A5u, want_v[i] = 0x5A5A5A5Au;
    WGPUBuffer bk = test_upload(ctx, keys, n * 4), bko = test_upload(ctx, want, n * 4);
    WGPUBuffer bvo = test_upload(ctx, want_v, n * 4), bo = test_upload(ctx, offs, (segs + 1) * 4);
    WGPUBuffer st = test_buffer(ctx, 4), cn = test_count_buffer(ctx, n_count, 4);
    WGPUBuffer cs = test_count_buffer(ctx, seg_count, 256);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_segmented_sort_args a = {.keys_in = bk, .keys_out = bko, .values_out = bvo, .n = n, .offsets = bo,
                                 .n_segments = segs, .status = st, .n_buffer = cn, .n_offset = 4,
                                 .n_segments_buffer = cs, .n_segments_offset = 256};
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    CHECK_RESULT(wgs_buffer_read(ctx, st, 0, &status, 4), WGS_OK);
    if (check) {
        uint64_t nn = n_count < n ? n_count : n, ss = seg_count < segs ? seg_count : segs;
        CHECK(ref_segmented_sort(WGS_TYPE_U32, 0, keys, NULL, 0, 1, offs, NULL, nn, ss, want, want_v) == 0);
        CHECK(test_download(ctx, bko, got, n * 4) && test_download(ctx, bvo, got_v, n * 4));
        for (uint64_t i = 0; i < n; i++)
            if (got[i] != want[i] || got_v[i] != want_v[i]) {
                test_fail(__FILE__, __LINE__, "counts n %u segments %u: place %llu holds 0x%x (index %u), want 0x%x "
                          "(%u)", n_count, seg_count, (unsigned long long)i, got[i], got_v[i], want[i], want_v[i]);
                break;
            }
    }
    WGPUBuffer all[] = {bk, bko, bvo, bo, st, cn, cs};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
done:
    free(keys), free(want), free(want_v), free(got), free(got_v);
    return status;
}

TEST(segmented_sort_counts_on_the_gpu) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    /* Tiny, listed and large segments (the CPU tile is 256), CSR. */
    const uint32_t lens[12] = {5, 300, 0, 40, 1, 700, 33, 256, 2, 900, 17, 64};
    uint32_t offs[13] = {0};
    for (int i = 0; i < 12; i++) offs[i + 1] = offs[i] + lens[i];
    const uint64_t n = offs[12];
    wgs_segmented_sort_plan_desc d = {.payload = WGS_PAYLOAD_INDEX, .capacity = n, .segment_capacity = 12};
    wgs_segmented_sort_plan *plan = NULL;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &d, &plan), WGS_OK);
    if (!plan) return;
    /* Every segment count, the key count the end of the counted segments: valid, and
     * what lies past them keeps the pattern. Falling, so that what an encode of more
     * segments left in the plan's scratch is there to be misread. */
    for (int s = 12; s >= 0; s--) CHECK(run_counted(ctx, plan, offs, n, 12, offs[s], (uint32_t)s, 1) == 0);
    /* Counts above their bounds read as the bounds. */
    CHECK(run_counted(ctx, plan, offs, n, 12, (uint32_t)n + 7, 40, 1) == 0);
    /* Keys fewer than the counted segments need: an offset past n. */
    CHECK(run_counted(ctx, plan, offs, n, 12, offs[6] - 1, 6, 0) == WGS_ERROR_SEGMENT_OUT_OF_RANGE);
    CHECK(run_counted(ctx, plan, offs, n, 12, 0, 12, 0) == WGS_ERROR_SEGMENT_OUT_OF_RANGE);
    /* A count buffer that cannot hold the count: refused before any GPU work. */
    WGPUBuffer small = test_buffer(ctx, 4), k = test_buffer(ctx, n * 4), ko = test_buffer(ctx, n * 4);
    WGPUBuffer vo = test_buffer(ctx, n * 4), bo = test_upload(ctx, offs, sizeof offs);
    WGPUCommandEncoder enc;
    CHECK_RESULT(wgs_encoder_create(ctx, &enc), WGS_OK);
    wgs_segmented_sort_args a = {.keys_in = k, .keys_out = ko, .values_out = vo, .n = n, .offsets = bo,
                                 .n_segments = 12, .n_segments_buffer = small, .n_segments_offset = 4};
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    a.n_segments_offset = 2;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_MISALIGNED_OFFSET);
    a.n_segments_buffer = NULL, a.n_buffer = small, a.n_offset = 8;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_ERROR_BUFFER_TOO_SMALL);
    a.n_buffer = NULL;
    CHECK_RESULT(wgs_segmented_sort_encode(plan, enc, &a), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    WGPUBuffer all[] = {small, k, ko, vo, bo};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_segmented_sort_plan_destroy(plan);
}

/* wgs_prepare knows the segmented sort: after preparing one (the small paths alone, so
 * that no sort plan compiles here), its creation compiles nothing and it sorts. */
TEST(segmented_sort_prepare_then_create_compiles_nothing) {
    static const wgs_experimental none; /* a context of its own: an empty cache */
    wgs_context *ctx = test_context_experimental(&none);
    if (!ctx) return;
    const wgs_segmented_sort_plan_desc d = {.type = WGS_TYPE_I32, .order = WGS_SORT_DESCENDING,
                                            .path = WGS_SEGMENTED_SORT_PATH_SMALL, .payload = WGS_PAYLOAD_INDEX,
                                            .capacity = 1000, .segment_capacity = 40};
    const wgs_prepare_desc item = {.kind = WGS_PLAN_SEGMENTED_SORT, .segmented_sort = &d};
    wgs_experimental_pipeline_counts c0 = wgs_experimental_pipelines(ctx);
    CHECK_RESULT(wgs_prepare(ctx, &item, 1), WGS_OK);
    wgs_experimental_pipeline_counts c1 = wgs_experimental_pipelines(ctx);
    CHECK(c1.created == c0.created && c1.prepared > c0.prepared);
    wgs_segmented_sort_plan *plan = NULL;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &d, &plan), WGS_OK);
    wgs_segmented_sort_plan_destroy(plan);
    CHECK(wgs_experimental_pipelines(ctx).created == c1.created);
    uint32_t lens[5] = {3, 40, 0, 200, 70};
    /* (Its first encode compiles the dispatch layer's count pipeline, the context's,
     * which no plan names.) */
    check_case(ctx, &d, lens, 5, 4, "after wgs_prepare");
}
