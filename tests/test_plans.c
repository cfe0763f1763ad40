/* SPDX-License-Identifier: MIT */
/*
 * test_plans: every plan kind's scratch query (wgs_<kind>_plan_scratch_size) against the
 * GPU memory its creation really made, as the context counts it
 * (wgs_experimental_buffer_bytes_created), and the query before creation
 * (wgs_<kind>_plan_desc_scratch_size) against both. Each description is created twice:
 * the first creation compiles the pipelines and lets the context make what it makes
 * once (parameter ring, placeholders), the second is measured.
 */
#include "reference.h"
#include "test_buffers.h"
#include "test_main.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Creates the plan twice (see above). Before the second creation the description's
 * query (wgs_<kind>_plan_desc_scratch_size) must allocate nothing; the plan's query and
 * the description's must both equal what the second creation added to the context's
 * buffers. */
#define CHECK_SCRATCH(ctx, what, kind, desc, type)                                                \
    do {                                                                                           \
        for (int round_ = 0; round_ < 2; round_++) {                                               \
            uint64_t asked_ = UINT64_MAX;                                                          \
            uint64_t before_ = wgs_experimental_buffer_bytes_created(ctx);                         \
            if (round_ == 1) {                                                                     \
                CHECK_RESULT(wgs_##kind##_plan_desc_scratch_size(ctx, desc, &asked_), WGS_OK);     \
                if (wgs_experimental_buffer_bytes_created(ctx) != before_)                         \
                    test_fail(__FILE__, __LINE__, "%s: the query before creation allocated", what); \
            }                                                                                      \
            type *plan_ = NULL;                                                                    \
            wgs_result r_ = wgs_##kind##_plan_create(ctx, desc, &plan_);                           \
            uint64_t made_ = wgs_experimental_buffer_bytes_created(ctx) - before_;                 \
            if (r_ != WGS_OK) {                                                                    \
                test_fail(__FILE__, __LINE__, "%s: %s", what, wgs_result_name(r_));                \
            } else if (round_ == 1 && (SCRATCH_OF_##kind(plan_) != made_ || asked_ != made_)) {    \
                test_fail(__FILE__, __LINE__,                                                      \
                          "%s: scratch size %" PRIu64 ", before creation %" PRIu64                 \
                          ", creation made %" PRIu64, what, SCRATCH_OF_##kind(plan_), asked_, made_); \
            }                                                                                      \
            DESTROY_##kind(plan_);                                                                 \
        }                                                                                          \
    } while (0)
/* The count plan is a reduce plan. */
#define SCRATCH_OF_scan wgs_scan_plan_scratch_size
#define SCRATCH_OF_reduce wgs_reduce_plan_scratch_size
#define SCRATCH_OF_count wgs_reduce_plan_scratch_size
#define SCRATCH_OF_segmented_reduce wgs_segmented_reduce_plan_scratch_size
#define SCRATCH_OF_scan_by_key wgs_scan_by_key_plan_scratch_size
#define SCRATCH_OF_segmented_scan wgs_segmented_scan_plan_scratch_size
#define SCRATCH_OF_reduce_by_key wgs_reduce_by_key_plan_scratch_size
#define SCRATCH_OF_select wgs_select_plan_scratch_size
#define SCRATCH_OF_histogram wgs_histogram_plan_scratch_size
#define SCRATCH_OF_alloc wgs_alloc_plan_scratch_size
#define SCRATCH_OF_sort wgs_sort_plan_scratch_size
#define SCRATCH_OF_segmented_sort wgs_segmented_sort_plan_scratch_size
#define DESTROY_scan wgs_scan_plan_destroy
#define DESTROY_reduce wgs_reduce_plan_destroy
#define DESTROY_count wgs_reduce_plan_destroy
#define DESTROY_segmented_reduce wgs_segmented_reduce_plan_destroy
#define DESTROY_scan_by_key wgs_scan_by_key_plan_destroy
#define DESTROY_segmented_scan wgs_segmented_scan_plan_destroy
#define DESTROY_reduce_by_key wgs_reduce_by_key_plan_destroy
#define DESTROY_select wgs_select_plan_destroy
#define DESTROY_histogram wgs_histogram_plan_destroy
#define DESTROY_alloc wgs_alloc_plan_destroy
#define DESTROY_sort wgs_sort_plan_destroy
#define DESTROY_segmented_sort wgs_segmented_sort_plan_destroy

TEST(plans_scratch_size_is_what_creation_allocates) {
    wgs_context *ctx = test_context();
    const uint64_t caps[] = {1, 5000, 300001};
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
        const uint64_t n = caps[c];
        CHECK_SCRATCH(ctx, "scan", scan, (&(wgs_scan_plan_desc){.capacity = n}), wgs_scan_plan);
        CHECK_SCRATCH(ctx, "reduce", reduce, (&(wgs_reduce_plan_desc){.capacity = n}), wgs_reduce_plan);
        CHECK_SCRATCH(ctx, "reduce, atomic", reduce,
                      (&(wgs_reduce_plan_desc){.algorithm = WGS_REDUCE_ALGORITHM_ATOMIC, .capacity = n}), wgs_reduce_plan);
        CHECK_SCRATCH(ctx, "count", count, (&(wgs_count_plan_desc){.capacity = n}), wgs_reduce_plan);
        CHECK_SCRATCH(ctx, "segmented reduce", segmented_reduce,
                      (&(wgs_segmented_reduce_plan_desc){.capacity = n, .segment_capacity = 7}), wgs_segmented_reduce_plan);
        CHECK_SCRATCH(ctx, "scan by key", scan_by_key, (&(wgs_scan_by_key_plan_desc){.capacity = n}), wgs_scan_by_key_plan);
        CHECK_SCRATCH(ctx, "segmented scan", segmented_scan,
                      (&(wgs_segmented_scan_plan_desc){.capacity = n, .segment_capacity = 7}), wgs_segmented_scan_plan);
        CHECK_SCRATCH(ctx, "reduce by key", reduce_by_key,
                      (&(wgs_reduce_by_key_plan_desc){.capacity = n}), wgs_reduce_by_key_plan);
        CHECK_SCRATCH(ctx, "select, flagged", select, (&(wgs_select_plan_desc){.capacity = n}), wgs_select_plan);
        CHECK_SCRATCH(ctx, "select, run length, single pass", select,
                      (&(wgs_select_plan_desc){.mode = WGS_SELECT_RUN_LENGTH,
                                               .algorithm = WGS_SELECT_ALGORITHM_SINGLE_PASS, .capacity = n}), wgs_select_plan);
        CHECK_SCRATCH(ctx, "histogram", histogram,
                      (&(wgs_histogram_plan_desc){.bins = 16, .lower = 0, .upper = 256, .capacity = n}), wgs_histogram_plan);
        CHECK_SCRATCH(ctx, "alloc", alloc, (&(wgs_alloc_plan_desc){.capacity = n}), wgs_alloc_plan);
        CHECK_SCRATCH(ctx, "sort, u32 keys", sort, (&(wgs_sort_plan_desc){.capacity = n}), wgs_sort_plan);
        CHECK_SCRATCH(ctx, "sort, u64 pairs, one-sweep", sort,
                      (&(wgs_sort_plan_desc){.type = WGS_TYPE_U64, .payload = WGS_PAYLOAD_BUFFER, .value_bytes = 8,
                                             .algorithm = WGS_SORT_ALGORITHM_ONESWEEP, .capacity = n}), wgs_sort_plan);
        CHECK_SCRATCH(ctx, "segmented sort, u32 with indices", segmented_sort,
                      (&(wgs_segmented_sort_plan_desc){.payload = WGS_PAYLOAD_INDEX, .capacity = n,
                                                       .segment_capacity = 7}), wgs_segmented_sort_plan);
    }
    /* A sort plan past DEFAULT's one-sweep bound holds a one-sweep plan of the bound
     * beside it; where one-sweep cannot run at the bound (no subgroups: its tile states
     * past a 1 MiB binding), none, and nothing of it allocated. */
    const wgs_experimental bounds[] = {{.sort_onesweep_max = 5000},
                                       {.sort_onesweep_max = 200000, .disable_subgroups = 1,
                                        .max_storage_binding_size = 1u << 20}};
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
        wgs_context *bctx = test_context_experimental(&bounds[b]);
        if (!bctx) break;
        CHECK_SCRATCH(bctx, "sort past the one-sweep bound", sort,
                      (&(wgs_sort_plan_desc){.payload = WGS_PAYLOAD_INDEX, .capacity = 250000}), wgs_sort_plan);
    }
    /* One-word values take their own bound where subgroups rank: past 2^30 - 1 (no
     * bound) a DEFAULT plan of indices is one-sweep throughout, its scratch a forced
     * one-sweep plan's, while keys alone past the keys' bound keep a companion. */
    wgs_context_info vinfo;
    CHECK_RESULT(wgs_context_get_info(ctx, &vinfo), WGS_OK);
    wgs_context *vctx = vinfo.has_subgroups ? test_context_experimental(&(wgs_experimental){
                                                  .sort_onesweep_max = 5000, .sort_onesweep_values_max = UINT32_MAX})
                                            : NULL;
    if (vctx) {
        uint64_t sizes[4] = {0};
        const wgs_sort_plan_desc vd[4] = {
            {.payload = WGS_PAYLOAD_INDEX, .capacity = 250000},
            {.payload = WGS_PAYLOAD_INDEX, .capacity = 250000, .algorithm = WGS_SORT_ALGORITHM_ONESWEEP},
            {.capacity = 250000},
            {.capacity = 250000, .algorithm = WGS_SORT_ALGORITHM_REDUCE_SCAN}};
        for (int i = 0; i < 4; i++) CHECK_RESULT(wgs_sort_plan_desc_scratch_size(vctx, &vd[i], &sizes[i]), WGS_OK);
        CHECK(sizes[0] == sizes[1]);
        CHECK(sizes[2] > sizes[3]);
    }
    /* Nothing for NULL. */
    CHECK(wgs_sort_plan_scratch_size(NULL) == 0 && wgs_select_plan_scratch_size(NULL) == 0 &&
          wgs_reduce_plan_scratch_size(NULL) == 0 && wgs_alloc_plan_scratch_size(NULL) == 0 &&
          wgs_histogram_plan_scratch_size(NULL) == 0);
    /* The counter sees a plan's memory at all (else every comparison above holds trivially). */
    wgs_sort_plan *s = NULL;
    uint64_t before = wgs_experimental_buffer_bytes_created(ctx);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.capacity = 1 << 20}, &s), WGS_OK);
    CHECK(wgs_experimental_buffer_bytes_created(ctx) - before >= (1u << 22));
    wgs_sort_plan_destroy(s);
}

/* The query before creation refuses what creation refuses, with *bytes 0, and leaves the
 * device creating buffers again. */
TEST(plans_desc_scratch_size_bad_input) {
    wgs_context *ctx = test_context();
    uint64_t bytes = 7;
    CHECK_RESULT(wgs_sort_plan_desc_scratch_size(ctx, NULL, &bytes), WGS_ERROR_INVALID_ARGUMENT);
    CHECK(bytes == 0);
    CHECK_RESULT(wgs_sort_plan_desc_scratch_size(ctx, &(wgs_sort_plan_desc){0}, NULL), WGS_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(wgs_sort_plan_desc_scratch_size(NULL, &(wgs_sort_plan_desc){0}, &bytes), WGS_ERROR_INVALID_ARGUMENT);
    bytes = 7;
    CHECK_RESULT(wgs_reduce_plan_desc_scratch_size(ctx, &(wgs_reduce_plan_desc){.type = WGS_TYPE_F16}, &bytes),
                 WGS_ERROR_UNSUPPORTED_TYPE);
    CHECK(bytes == 0);
    bytes = 7;
    CHECK_RESULT(wgs_sort_plan_desc_scratch_size(ctx, &(wgs_sort_plan_desc){.capacity = 1ull << 40}, &bytes),
                 WGS_ERROR_TOO_LARGE);
    CHECK(bytes == 0);
    wgs_scan_plan *p = NULL;
    uint64_t before = wgs_experimental_buffer_bytes_created(ctx);
    CHECK_RESULT(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.capacity = 100000}, &p), WGS_OK);
    CHECK(wgs_experimental_buffer_bytes_created(ctx) - before == wgs_scan_plan_scratch_size(p));
    CHECK(wgs_scan_plan_scratch_size(p) > 0);
    wgs_scan_plan_destroy(p);
}

/* ---- encodes repeated: the bind group cache and records written once ------------ */

static wgs_experimental_encode_counts encode_counts_since(wgs_context *ctx, wgs_experimental_encode_counts before) {
    wgs_experimental_encode_counts now = wgs_experimental_encodes(ctx);
    return (wgs_experimental_encode_counts){now.bind_groups_created - before.bind_groups_created,
                                            now.records_written - before.records_written};
}

/* Checks the first `n` keys of the GPU's sort of `keys` (u32, ascending, index payload). */
static void check_sorted(const uint32_t *keys, uint64_t n, const uint32_t *got_keys, const uint32_t *got_index,
                         const char *what) {
    uint32_t *want = malloc((n ? n : 1) * 4), *want_index = malloc((n ? n : 1) * 4);
    if (want && want_index && ref_sort(WGS_TYPE_U32, 0, 0, 0, keys, NULL, 0, 1, n, want, want_index) == 0) {
        if (memcmp(want, got_keys, n * 4) != 0 || memcmp(want_index, got_index, n * 4) != 0)
            test_fail(__FILE__, __LINE__, "%s: the sort of %" PRIu64 " keys differs from the CPU's", what, n);
    } else {
        test_fail(__FILE__, __LINE__, "%s: no host memory", what);
    }
    free(want);
    free(want_index);
}

/* An encode repeated with the same plan, buffers and arguments creates no bind group
 * and writes no record (scan, reduce, a sort with its count on the GPU), and every
 * repeat's result is right. */
TEST(plans_encode_repeated_reuses_bind_groups) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { N = 5000, C = 3001 };
    uint32_t *in = malloc(N * 4), *out = malloc(N * 4), *idx = malloc(N * 4);
    wgs_scan_plan *scan = NULL;
    wgs_reduce_plan *red = NULL;
    wgs_sort_plan *sort = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.type = WGS_TYPE_U32, .op = WGS_OP_ADD,
                                                                 .kind = WGS_SCAN_EXCLUSIVE, .capacity = N}, &scan),
                 WGS_OK);
    CHECK_RESULT(wgs_reduce_plan_create(ctx, &(wgs_reduce_plan_desc){.type = WGS_TYPE_U32, .op = WGS_OP_MAX,
                                                                     .capacity = N}, &red),
                 WGS_OK);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX,
                                                                 .capacity = N}, &sort),
                 WGS_OK);
    if (!in || !out || !idx || !scan || !red || !sort) goto done;
    ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, N, 91);
    WGPUBuffer bin = test_upload(ctx, in, N * 4), bout = test_buffer(ctx, N * 4), bidx = test_buffer(ctx, N * 4);
    WGPUBuffer bred = test_buffer(ctx, 256), cnt = test_count_buffer(ctx, C, 0);
    if (!bin || !bout || !bidx || !bred || !cnt) goto release;
    const wgs_scan_args sa = {.input = bin, .output = bout, .n = N};
    const wgs_reduce_args ra = {.input = bin, .output = bred, .n = N};
    const wgs_sort_args so = {.keys_in = bin, .keys_out = bout, .values_out = bidx, .n = N, .n_buffer = cnt};
    for (int kind = 0; kind < 3; kind++) {
        static const char *const names[] = {"scan", "reduce", "sort with a count on the GPU"};
        for (int submit = 0; submit < 2; submit++) { /* the repeat in the same encoder, and in the next one */
            WGPUCommandEncoder enc = NULL;
            if (wgs_encoder_create(ctx, &enc) != WGS_OK) goto release;
            for (int rep = 0; rep < 2; rep++) {
                wgs_experimental_encode_counts before = wgs_experimental_encodes(ctx);
                wgs_result r = kind == 0   ? wgs_scan_encode(scan, enc, &sa)
                               : kind == 1 ? wgs_reduce_encode(red, enc, &ra)
                                           : wgs_sort_encode(sort, enc, &so);
                CHECK_RESULT(r, WGS_OK);
                wgs_experimental_encode_counts d = encode_counts_since(ctx, before);
                if ((rep == 1 || submit == 1) && (d.bind_groups_created || d.records_written))
                    test_fail(__FILE__, __LINE__, "%s repeated: %" PRIu64 " bind groups created, %" PRIu64
                              " records written", names[kind], d.bind_groups_created, d.records_written);
                if (rep == 0 && submit == 0 && !d.bind_groups_created)
                    test_fail(__FILE__, __LINE__, "%s: the first encode created no bind group", names[kind]);
            }
            CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
            if (kind == 0) {
                CHECK_RESULT(wgs_buffer_read(ctx, bout, 0, out, N * 4), WGS_OK);
                if (ref_verify(in, out, WGS_TYPE_U32, WGS_OP_ADD, 0, N).mismatches)
                    test_fail(__FILE__, __LINE__, "scan repeated: wrong result");
            } else if (kind == 1) {
                uint32_t got = 0, want = 0;
                for (int i = 0; i < N; i++) want = in[i] > want ? in[i] : want;
                CHECK_RESULT(wgs_buffer_read(ctx, bred, 0, &got, 4), WGS_OK);
                CHECK(got == want);
            } else {
                CHECK_RESULT(wgs_buffer_read(ctx, bout, 0, out, C * 4), WGS_OK);
                CHECK_RESULT(wgs_buffer_read(ctx, bidx, 0, idx, C * 4), WGS_OK);
                check_sorted(in, C, out, idx, "sort repeated");
            }
        }
    }
release:
    wgs_buffer_release(ctx, bin);
    wgs_buffer_release(ctx, bout);
    wgs_buffer_release(ctx, bidx);
    wgs_buffer_release(ctx, bred);
    wgs_buffer_release(ctx, cnt);
done:
    wgs_scan_plan_destroy(scan);
    wgs_reduce_plan_destroy(red);
    wgs_sort_plan_destroy(sort);
    free(in);
    free(out);
    free(idx);
}

/* Many bind groups live at once: a segmented sort whose segments take every path (its
 * encode binds some 60 groups), a sort with its count on the GPU and a scan, encoded
 * in turn and then again: the repeats create no bind group and write no record. The
 * cache's sets once held too few ways, and the groups that shared a set missed on
 * every encode. */
TEST(plans_encode_repeated_many_groups) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { N = 60000, SEGS_MAX = 64 };
    static const uint32_t lens[] = {5, 40, 300, 3000, 20000, 1, 0, 33};
    uint32_t *in = malloc(N * 4), offs[SEGS_MAX + 1];
    uint64_t segs = 0;
    offs[0] = 0;
    while (segs < SEGS_MAX && offs[segs] + lens[segs % 8] <= N) {
        offs[segs + 1] = offs[segs] + lens[segs % 8];
        segs++;
    }
    wgs_segmented_sort_plan *ss = NULL;
    wgs_sort_plan *sort = NULL;
    wgs_scan_plan *scan = NULL;
    CHECK_RESULT(wgs_segmented_sort_plan_create(ctx, &(wgs_segmented_sort_plan_desc){.payload = WGS_PAYLOAD_INDEX,
                                                    .capacity = N, .segment_capacity = SEGS_MAX}, &ss),
                 WGS_OK);
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX,
                                                                 .capacity = N}, &sort),
                 WGS_OK);
    CHECK_RESULT(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.type = WGS_TYPE_U32, .op = WGS_OP_ADD,
                                                                 .kind = WGS_SCAN_EXCLUSIVE, .capacity = N}, &scan),
                 WGS_OK);
    WGPUBuffer bin = NULL, bout = NULL, bidx = NULL, boffs = NULL, cnt = NULL;
    if (!in || !ss || !sort || !scan) goto done;
    ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, N, 93);
    bin = test_upload(ctx, in, N * 4);
    bout = test_buffer(ctx, N * 4);
    bidx = test_buffer(ctx, N * 4);
    boffs = test_upload(ctx, offs, (segs + 1) * 4);
    cnt = test_count_buffer(ctx, N - 7, 0);
    WGPUCommandEncoder enc = NULL;
    if (!bin || !bout || !bidx || !boffs || !cnt || wgs_encoder_create(ctx, &enc) != WGS_OK) goto done;
    const wgs_segmented_sort_args sa = {.keys_in = bin, .keys_out = bout, .values_out = bidx, .n = offs[segs],
                                        .offsets = boffs, .n_segments = segs};
    const wgs_sort_args so = {.keys_in = bin, .keys_out = bout, .values_out = bidx, .n = N, .n_buffer = cnt};
    const wgs_scan_args sc = {.input = bin, .output = bout, .n = N};
    for (int round = 0; round < 2; round++) {
        wgs_experimental_encode_counts before = wgs_experimental_encodes(ctx);
        CHECK_RESULT(wgs_segmented_sort_encode(ss, enc, &sa), WGS_OK);
        CHECK_RESULT(wgs_sort_encode(sort, enc, &so), WGS_OK);
        CHECK_RESULT(wgs_scan_encode(scan, enc, &sc), WGS_OK);
        wgs_experimental_encode_counts d = encode_counts_since(ctx, before);
        if (round == 1 && (d.bind_groups_created || d.records_written))
            test_fail(__FILE__, __LINE__, "repeated: %" PRIu64 " bind groups created, %" PRIu64 " records written",
                      d.bind_groups_created, d.records_written);
        /* More than a set's 16 ways (src/internal.h), so that groups sharing a set
         * would miss (an H100 bound 32 here, SwiftShader more: its sorts dispatch
         * indirectly). */
        if (round == 0 && d.bind_groups_created <= 16)
            test_fail(__FILE__, __LINE__, "the first round bound %" PRIu64 " groups: too few to test the cache",
                      d.bind_groups_created);
    }
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
done:
    wgs_buffer_release(ctx, bin);
    wgs_buffer_release(ctx, bout);
    wgs_buffer_release(ctx, bidx);
    wgs_buffer_release(ctx, boffs);
    wgs_buffer_release(ctx, cnt);
    wgs_segmented_sort_plan_destroy(ss);
    wgs_sort_plan_destroy(sort);
    wgs_scan_plan_destroy(scan);
    free(in);
}

/* Buffers released and new ones created between encodes of one plan (a new handle may
 * equal a freed one): every encode binds the buffers it is given, and a destroyed
 * plan's bind groups go with it. */
TEST(plans_encode_buffers_replaced) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { N = 4099, ROUNDS = 4 };
    uint32_t *in = malloc(N * 4), *out = malloc(N * 4);
    wgs_scan_plan *scan = NULL;
    CHECK_RESULT(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.type = WGS_TYPE_U32, .op = WGS_OP_ADD,
                                                                 .kind = WGS_SCAN_INCLUSIVE, .capacity = N}, &scan),
                 WGS_OK);
    for (int round = 0; round < ROUNDS && in && out && scan; round++) {
        uint64_t n = N - (uint64_t)round % 2; /* the same n every other round */
        ref_fill_random(in, WGS_TYPE_U32, WGS_OP_ADD, n, 500 + (uint64_t)round);
        WGPUBuffer bin = test_upload(ctx, in, n * 4), bout = test_buffer(ctx, N * 4);
        WGPUCommandEncoder enc = NULL;
        wgs_experimental_encode_counts before = wgs_experimental_encodes(ctx);
        if (bin && bout && wgs_encoder_create(ctx, &enc) == WGS_OK) {
            CHECK_RESULT(wgs_scan_encode(scan, enc, &(wgs_scan_args){.input = bin, .output = bout, .n = n}), WGS_OK);
            if (!encode_counts_since(ctx, before).bind_groups_created)
                test_fail(__FILE__, __LINE__, "round %d: new buffers, no new bind group", round);
            CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
            memset(out, 0, N * 4);
            CHECK_RESULT(wgs_buffer_read(ctx, bout, 0, out, n * 4), WGS_OK);
            if (ref_verify(in, out, WGS_TYPE_U32, WGS_OP_ADD, 1, n).mismatches)
                test_fail(__FILE__, __LINE__, "round %d: wrong result after the buffers were replaced", round);
        }
        wgs_buffer_release(ctx, bin);
        wgs_buffer_release(ctx, bout);
        if (round == 1) { /* a plan destroyed and made again: its scratch is new too */
            wgs_scan_plan_destroy(scan);
            scan = NULL;
            CHECK_RESULT(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.type = WGS_TYPE_U32, .op = WGS_OP_ADD,
                                                                         .kind = WGS_SCAN_INCLUSIVE, .capacity = N},
                                              &scan),
                         WGS_OK);
        }
    }
    wgs_scan_plan_destroy(scan);
    free(in);
    free(out);
}

/* One sort encoded twice with the same arguments into one encoder, its count changed
 * on the GPU in between: the repeat takes the first's bind groups and count region,
 * and each sorts as many keys as its count said when it ran. */
TEST(plans_encode_repeat_follows_the_count) {
    wgs_context *ctx = test_context();
    if (!ctx) return;
    enum { N = 3072, C1 = 3071, C2 = 1000 }; /* N * 4: a multiple of 256 (the copies' offsets) */
    uint32_t *keys = malloc(N * 4), *out = malloc(2 * N * 4), *idx = malloc(2 * N * 4);
    wgs_sort_plan *sort = NULL;
    CHECK_RESULT(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.type = WGS_TYPE_U32, .payload = WGS_PAYLOAD_INDEX,
                                                                 .capacity = N}, &sort),
                 WGS_OK);
    const uint32_t c1[4] = {C1}, c2[4] = {C2};
    WGPUBuffer bin = NULL, bout = NULL, bidx = NULL, saved = NULL, saved_idx = NULL, cnt = NULL, cnt2 = NULL;
    WGPUCommandEncoder enc = NULL;
    if (!keys || !out || !idx || !sort) goto done;
    ref_fill_random(keys, WGS_TYPE_U32, WGS_OP_ADD, N, 7);
    for (int i = 0; i < N; i++) keys[i] %= 977; /* ties: the order of equal keys is checked too */
    bin = test_upload(ctx, keys, N * 4);
    bout = test_buffer(ctx, N * 4);
    bidx = test_buffer(ctx, N * 4);
    saved = test_buffer(ctx, 2 * N * 4);
    saved_idx = test_buffer(ctx, 2 * N * 4);
    cnt = test_upload(ctx, c1, 16);
    cnt2 = test_upload(ctx, c2, 16);
    if (!bin || !bout || !bidx || !saved || !saved_idx || !cnt || !cnt2 || wgs_encoder_create(ctx, &enc) != WGS_OK)
        goto done;
    const wgs_sort_args so = {.keys_in = bin, .keys_out = bout, .values_out = bidx, .n = N, .n_buffer = cnt};
    CHECK_RESULT(wgs_sort_encode(sort, enc, &so), WGS_OK);
    CHECK_RESULT(wgs_copy_encode(ctx, enc, &(wgs_copy_args){.src = bout, .dst = saved, .bytes = N * 4}), WGS_OK);
    CHECK_RESULT(wgs_copy_encode(ctx, enc, &(wgs_copy_args){.src = bidx, .dst = saved_idx, .bytes = N * 4}), WGS_OK);
    CHECK_RESULT(wgs_copy_encode(ctx, enc, &(wgs_copy_args){.src = cnt2, .dst = cnt, .bytes = 16}), WGS_OK);
    wgs_experimental_encode_counts before = wgs_experimental_encodes(ctx);
    CHECK_RESULT(wgs_sort_encode(sort, enc, &so), WGS_OK);
    wgs_experimental_encode_counts d = encode_counts_since(ctx, before);
    CHECK(d.bind_groups_created == 0 && d.records_written == 0);
    CHECK_RESULT(wgs_copy_encode(ctx, enc, &(wgs_copy_args){.src = bout, .dst = saved, .dst_offset = N * 4,
                                                           .bytes = N * 4}), WGS_OK);
    CHECK_RESULT(wgs_copy_encode(ctx, enc, &(wgs_copy_args){.src = bidx, .dst = saved_idx, .dst_offset = N * 4,
                                                           .bytes = N * 4}), WGS_OK);
    CHECK_RESULT(wgs_submit(ctx, enc), WGS_OK);
    enc = NULL;
    CHECK_RESULT(wgs_buffer_read(ctx, saved, 0, out, 2 * N * 4), WGS_OK);
    CHECK_RESULT(wgs_buffer_read(ctx, saved_idx, 0, idx, 2 * N * 4), WGS_OK);
    check_sorted(keys, C1, out, idx, "the first encode (count 3071)");
    check_sorted(keys, C2, out + N, idx + N, "the repeat (count 1000)");
    /* past the second count, the first sort's keys stay (the repeat writes C2 keys) */
    CHECK(memcmp(out + N + C2, out + C2, (C1 - C2) * 4) == 0);
done:
    if (enc) wgs_submit(ctx, enc);
    wgs_buffer_release(ctx, bin);
    wgs_buffer_release(ctx, bout);
    wgs_buffer_release(ctx, bidx);
    wgs_buffer_release(ctx, saved);
    wgs_buffer_release(ctx, saved_idx);
    wgs_buffer_release(ctx, cnt);
    wgs_buffer_release(ctx, cnt2);
    wgs_sort_plan_destroy(sort);
    free(keys);
    free(out);
    free(idx);
}
