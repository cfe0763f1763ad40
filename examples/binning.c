/* SPDX-License-Identifier: MIT */
/*
 * binning: particles binned into a uniform grid, the building block of neighbour search
 * (the scan article's use of sort, run-length encoding and scan together).
 *
 * Particles move on a periodic unit cube cut into G x G x G cells. Each frame, in one
 * command encoder and with nothing read back in between:
 *   move     a small kernel of the program's own (WebGPU calls through the context's
 *            proc table) moves every particle and writes its cell id
 *   sort     the (cell id, particle id) pairs by cell id: wgs_sort_encode with u32 keys
 *            limited to the bits a cell id needs, payload INDEX (the particle ids);
 *            stable, so the particles of a cell stay in id order
 *   runs     wgs_select RUN_LENGTH over the sorted cell ids: the occupied cells and how
 *            many particles each holds
 *   scan     exclusive add of the run lengths: where each occupied cell's particles
 *            start in the sorted order
 * A neighbour search then visits, for a particle, the 27 cells around its own: each is
 * found among the occupied cells (binary search) and its particles are
 * sorted_ids[start .. start + length). Here the host does that for a few particles, from
 * the GPU's arrays, and counts against brute force.
 *
 * Positions are 32-bit fixed point per axis (the cube is 2^32 units a side), so moving
 * is a wrapping integer add and the cell of a coordinate x is ((x >> 16) * G) >> 16 on
 * both processors: the CPU's check of every frame (the same cells, a stable counting
 * sort, the cell starts) must agree exactly.
 *
 *   binning [--particles N] [--grid G] [--frames K] [--seed S]
 */
#include "example.h"

static const char *example_name = "binning";

#include <stdlib.h>
#include <string.h>

/* pos[i] += vel[i] (wrapping, per axis) and cell[i] = the cell of the new position. N,
 * G and the grid-stride are written into the source: one pipeline per run (an
 * example_kernel, example.h). */
static const char *move_wgsl =
    "@group(0) @binding(0) var<storage, read_write> pos: array<vec4<u32>>;\n"
    "@group(0) @binding(1) var<storage, read> vel: array<vec4<u32>>;\n"
    "@group(0) @binding(2) var<storage, read_write> cell: array<u32>;\n"
    "const N: u32 = %uu;\n"
    "const G: u32 = %uu;\n"
    "const STRIDE: u32 = %uu;\n"
    "@compute @workgroup_size(256)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3<u32>) {\n"
    "    for (var i = gid.x; i < N; i += STRIDE) {\n"
    "        let p = pos[i] + vel[i];\n"
    "        pos[i] = p;\n"
    "        let c = ((p >> vec4<u32>(16u)) * G) >> vec4<u32>(16u);\n"
    "        cell[i] = (c.z * G + c.y) * G + c.x;\n"
    "    }\n"
    "}\n";

/* The CPU's side: the same cell arithmetic. */
static uint32_t axis_cell(uint32_t x, uint32_t g) { return ((x >> 16) * g) >> 16; }
static uint32_t cell_of(const uint32_t *p, uint32_t g) {
    return (axis_cell(p[2], g) * g + axis_cell(p[1], g)) * g + axis_cell(p[0], g);
}

/* Index of `cell` among the occupied cells (ascending), or -1. */
static int64_t find_cell(const uint32_t *cells, uint32_t count, uint32_t cell) {
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cells[mid] < cell) lo = mid + 1;
        else hi = mid;
    }
    return lo < count && cells[lo] == cell ? (int64_t)lo : -1;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { STEPS = 4 }; /* move, sort, runs, scan: one timer pair each */
static const char *step_names[STEPS] = {"move", "sort", "runs", "scan"};

int main(int argc, char **argv) {
    uint64_t n64 = 1u << 16, g64 = 32, frames_opt = 8, seed = 1;
    const example_option opts[] = {{"--particles", &n64, 1, 1u << 24},
                                   {"--grid", &g64, 1, 256},
                                   {"--frames", &frames_opt, 1, 1000},
                                   {"--seed", &seed, 0, UINT64_MAX}};
    int rc = example_options(argc, argv,
                             "usage: binning [--particles N (1..2^24, default 65536)] [--grid G (cells per side of "
                             "a 3-D grid, 1..256, default 32)]\n"
                             "               [--frames K (1..1000, default 8)] [--seed S (default 1)]\n",
                             opts, 4);
    if (rc >= 0) return rc;
    const uint32_t n = (uint32_t)n64, g = (uint32_t)g64;
    const uint32_t cells = g * g * g;
    const int frames = (int)frames_opt;
    uint32_t bits = 1; /* the key bits a cell id needs: the sort looks at no others */
    while (bits < 32 && (cells - 1) >> bits) bits++;

    wgs_context *ctx = NULL;
    if (wgs_context_create(&(wgs_context_desc){0}, &ctx) != WGS_OK) {
        fprintf(stderr, "binning: no WebGPU device\n");
        return 3;
    }
    wgs_context_info info;
    wgs_context_get_info(ctx, &info);
    if ((uint64_t)n * 16 > info.max_storage_binding_size) {
        fprintf(stderr, "binning: %u particles need %llu bytes in one binding; this device binds %llu\n", n,
                (unsigned long long)n * 16, (unsigned long long)info.max_storage_binding_size);
        wgs_context_destroy(ctx);
        return 2;
    }

    /* Host arrays: positions and velocities (x, y, z, unused) and the CPU's binning. */
    uint32_t *pos = malloc((size_t)n * 16), *vel = malloc((size_t)n * 16), *got_pos = malloc((size_t)n * 16);
    uint32_t *cpu_cell = malloc((size_t)n * 4), *cpu_ids = malloc((size_t)n * 4);
    uint32_t *cpu_occupied = malloc((size_t)n * 4), *cpu_starts = malloc((size_t)n * 4);
    uint32_t *got_keys = malloc((size_t)n * 4), *got_ids = malloc((size_t)n * 4);
    uint32_t *got_cells = malloc((size_t)n * 4), *got_runs = malloc((size_t)n * 4);
    uint32_t *got_starts = malloc((size_t)n * 4);
    uint32_t *bucket = malloc((size_t)cells * 4);
    double *gpu_ms = calloc((size_t)frames * STEPS, sizeof *gpu_ms);
    double *frame_ms = calloc((size_t)frames, sizeof *frame_ms);
    if (!pos || !vel || !got_pos || !cpu_cell || !cpu_ids || !cpu_occupied || !cpu_starts || !got_keys || !got_ids ||
        !got_cells || !got_runs || !got_starts || !bucket || !gpu_ms || !frame_ms) {
        fprintf(stderr, "binning: out of host memory\n");
        return 2;
    }
    /* Half the particles uniform, half in a bump at the centre (a sum of four uniform
     * 30-bit numbers per axis), so that cells range from empty to crowded. Speeds up to
     * half a cell a frame on each axis, either way. */
    uint64_t s = seed ^ 0x9E3779B97F4A7C15ull;
    if (!s) s = 1;
    const int64_t vmax = (int64_t)((1ull << 31) / g);
    for (uint32_t i = 0; i < n; i++) {
        for (int a = 0; a < 3; a++) {
            uint32_t x = (uint32_t)(example_random(&s) >> 32);
            if (i & 1) {
                x = 0;
                for (int k = 0; k < 4; k++) x += (uint32_t)(example_random(&s) >> 34);
            }
            pos[4 * i + a] = x;
            vel[4 * i + a] = (uint32_t)((int64_t)(example_random(&s) % (uint64_t)(2 * vmax + 1)) - vmax);
        }
        pos[4 * i + 3] = vel[4 * i + 3] = 0;
    }

    const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer bpos, bvel, bcell, bkeys, bids, bcells, bruns, bstarts, bcount;
    CHECKED(wgs_buffer_create(ctx, (uint64_t)n * 16, usage, &bpos));
    CHECKED(wgs_buffer_create(ctx, (uint64_t)n * 16, usage, &bvel));
    CHECKED(wgs_buffer_create(ctx, (uint64_t)n * 4, usage, &bcell));   /* cell of each particle */
    CHECKED(wgs_buffer_create(ctx, (uint64_t)n * 4, usage, &bkeys));   /* cell ids, sorted */
    CHECKED(wgs_buffer_create(ctx, (uint64_t)n * 4, usage, &bids));    /* particle ids in that order */
    CHECKED(wgs_buffer_create(ctx, (uint64_t)n * 4, usage, &bcells));  /* the occupied cells */
    CHECKED(wgs_buffer_create(ctx, (uint64_t)n * 4, usage, &bruns));   /* particles in each */
    CHECKED(wgs_buffer_create(ctx, (uint64_t)n * 4, usage, &bstarts)); /* where its particles start */
    CHECKED(wgs_buffer_create(ctx, 4, usage, &bcount));                /* how many are occupied */
    CHECKED(wgs_buffer_write(ctx, bpos, 0, pos, (uint64_t)n * 16));
    CHECKED(wgs_buffer_write(ctx, bvel, 0, vel, (uint64_t)n * 16));

    example_kernel mv = {0};
    uint32_t move_groups = (n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096;
    char move_source[2048];
    snprintf(move_source, sizeof move_source, move_wgsl, n, g, move_groups * 256u);
    if (!example_kernel_create(ctx, &mv, "binning move", move_source, (WGPUBuffer[]){bpos, bvel, bcell}, 3,
                               move_groups)) {
        fprintf(stderr, "binning: the move kernel could not be created: %s\n", wgs_context_last_error(ctx));
        return 3;
    }
    wgs_sort_plan *sort = NULL;
    wgs_select_plan *runs = NULL;
    wgs_scan_plan *scan = NULL;
    CHECKED(wgs_sort_plan_create(ctx, &(wgs_sort_plan_desc){.type = WGS_TYPE_U32, .end_bit = bits,
                                                            .payload = WGS_PAYLOAD_INDEX, .capacity = n,
                                                            .label = "binning"}, &sort));
    CHECKED(wgs_select_plan_create(ctx, &(wgs_select_plan_desc){.type = WGS_TYPE_U32, .mode = WGS_SELECT_RUN_LENGTH,
                                                                .capacity = n, .label = "binning"}, &runs));
    CHECKED(wgs_scan_plan_create(ctx, &(wgs_scan_plan_desc){.type = WGS_TYPE_U32, .op = WGS_OP_ADD,
                                                            .kind = WGS_SCAN_EXCLUSIVE, .capacity = n,
                                                            .label = "binning"}, &scan));
    wgs_timer *timer = NULL;
    if (info.has_timestamp_query) CHECKED(wgs_timer_create(ctx, STEPS, &timer));
    WGPUQuerySet qs = timer ? wgs_timer_query_set(timer) : NULL;

    printf("binning: %u particles in a %u^3 grid (%u cells, %u key bits), %d frames on %s\n", n, g, cells, bits,
           frames, info.device);
    int bad = 0;
    uint32_t count = 0, cpu_count = 0, densest = 0;
    double t_all = example_now();
    for (int f = 0; f < frames && !bad; f++) {
        double t0 = example_now();
        WGPUCommandEncoder enc;
        CHECKED(wgs_encoder_create(ctx, &enc));
        example_kernel_encode(&mv, enc, qs, 0);
        wgs_sort_args so = {.keys_in = bcell, .keys_out = bkeys, .values_out = bids, .n = n,
                            .timestamp_query_set = qs, .timestamp_begin_index = 2, .timestamp_end_index = 3};
        CHECKED(wgs_sort_encode(sort, enc, &so));
        wgs_select_args ra = {.input = bkeys, .output = bcells, .payload_out = bruns, .count = bcount, .n = n,
                              .timestamp_query_set = qs, .timestamp_begin_index = 4, .timestamp_end_index = 5};
        CHECKED(wgs_select_encode(runs, enc, &ra));
        /* The number of runs is not known while recording: the scan covers all n slots;
         * the first `count` starts are the answer, the rest is never looked at. */
        wgs_scan_args sa = {.input = bruns, .output = bstarts, .n = n,
                            .timestamp_query_set = qs, .timestamp_begin_index = 6, .timestamp_end_index = 7};
        CHECKED(wgs_scan_encode(scan, enc, &sa));
        if (timer) CHECKED(wgs_timer_resolve(timer, enc));
        CHECKED(wgs_submit(ctx, enc));
        CHECKED(wgs_buffer_read(ctx, bcount, 0, &count, 4));
        frame_ms[f] = (example_now() - t0) * 1e3;
        if (timer) {
            double sec[STEPS];
            CHECKED(wgs_timer_read(timer, sec, STEPS));
            for (int k = 0; k < STEPS; k++) gpu_ms[k * frames + f] = sec[k] * 1e3;
        }
        CHECKED(wgs_buffer_read(ctx, bkeys, 0, got_keys, (uint64_t)n * 4));
        CHECKED(wgs_buffer_read(ctx, bids, 0, got_ids, (uint64_t)n * 4));
        if (count <= n) {
            CHECKED(wgs_buffer_read(ctx, bcells, 0, got_cells, (uint64_t)count * 4 + 4 * !count));
            CHECKED(wgs_buffer_read(ctx, bruns, 0, got_runs, (uint64_t)count * 4 + 4 * !count));
            CHECKED(wgs_buffer_read(ctx, bstarts, 0, got_starts, (uint64_t)count * 4 + 4 * !count));
        }

        /* The CPU frame: move, cells, a stable counting sort, the occupied cells' starts. */
        for (uint32_t i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++) pos[4 * i + a] += vel[4 * i + a];
            cpu_cell[i] = cell_of(&pos[4 * i], g);
        }
        memset(bucket, 0, (size_t)cells * 4);
        for (uint32_t i = 0; i < n; i++) bucket[cpu_cell[i]]++;
        uint32_t at = 0;
        cpu_count = densest = 0;
        for (uint32_t c = 0; c < cells; c++) {
            uint32_t k = bucket[c];
            if (k) cpu_occupied[cpu_count] = c, cpu_starts[cpu_count++] = at;
            if (k > densest) densest = k;
            bucket[c] = at;
            at += k;
        }
        for (uint32_t i = 0; i < n; i++) cpu_ids[bucket[cpu_cell[i]]++] = i;

        const char *what = NULL;
        if (count != cpu_count) what = "the number of occupied cells";
        for (uint32_t j = 0; !what && j < n; j++) {
            if (got_ids[j] != cpu_ids[j]) what = "the sorted particle order";
            else if (got_keys[j] != cpu_cell[cpu_ids[j]]) what = "the sorted cell ids";
        }
        for (uint32_t j = 0; !what && j < count; j++) {
            uint32_t end = j + 1 < count ? cpu_starts[j + 1] : n;
            if (got_cells[j] != cpu_occupied[j]) what = "the occupied cells";
            else if (got_starts[j] != cpu_starts[j]) what = "the cell starts";
            else if (got_runs[j] != end - cpu_starts[j]) what = "the cell lengths";
        }
        if (what) {
            fprintf(stderr, "binning: frame %d: %s: GPU and CPU differ (GPU %u occupied cells, CPU %u)\n", f, what,
                    count, cpu_count);
            bad = 1;
        }
    }
    t_all = example_now() - t_all;

    /* After the last frame: the positions themselves, and neighbour queries through the
     * GPU's arrays against brute force over all particles. */
    uint32_t queries = n < 64 ? n : 64;
    uint64_t neighbours = 0;
    if (!bad) {
        CHECKED(wgs_buffer_read(ctx, bpos, 0, got_pos, (uint64_t)n * 16));
        if (memcmp(got_pos, pos, (size_t)n * 16)) {
            fprintf(stderr, "binning: the final positions differ from the CPU's\n");
            bad = 1;
        }
    }
    for (uint32_t q = 0; q < queries && !bad; q++) {
        uint32_t p = (uint32_t)((uint64_t)q * n / queries);
        uint32_t c[3] = {cpu_cell[p] % g, cpu_cell[p] / g % g, cpu_cell[p] / g / g};
        /* The distinct neighbour coordinates on each axis (fewer than 3 when G < 3). */
        uint32_t nb[3][3], nn[3] = {0, 0, 0};
        for (int a = 0; a < 3; a++) {
            for (uint32_t d = 0; d < 3; d++) {
                uint32_t v = (c[a] + g - 1 + d) % g;
                int seen = 0;
                for (uint32_t k = 0; k < nn[a]; k++) seen |= nb[a][k] == v;
                if (!seen) nb[a][nn[a]++] = v;
            }
        }
        uint64_t grid_count = 0, grid_sum = 0, brute_count = 0, brute_sum = 0;
        for (uint32_t z = 0; z < nn[2]; z++)
            for (uint32_t y = 0; y < nn[1]; y++)
                for (uint32_t x = 0; x < nn[0]; x++) {
                    int64_t j = find_cell(got_cells, count, (nb[2][z] * g + nb[1][y]) * g + nb[0][x]);
                    for (uint32_t k = 0; j >= 0 && k < got_runs[j]; k++) {
                        grid_count++;
                        grid_sum += got_ids[got_starts[j] + k];
                    }
                }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t o = cpu_cell[i];
            uint32_t d[3] = {(o % g + g - c[0]) % g, (o / g % g + g - c[1]) % g, (o / g / g + g - c[2]) % g};
            if ((d[0] <= 1 || d[0] == g - 1) && (d[1] <= 1 || d[1] == g - 1) && (d[2] <= 1 || d[2] == g - 1))
                brute_count++, brute_sum += i;
        }
        if (grid_count != brute_count || grid_sum != brute_sum) {
            fprintf(stderr, "binning: particle %u: %llu neighbours through the grid, %llu by brute force\n", p,
                    (unsigned long long)grid_count, (unsigned long long)brute_count);
            bad = 1;
        }
        neighbours += grid_count;
    }

    if (!bad) {
        printf("  last frame: %u of %u cells occupied (%.1f%%), up to %u particles in one, %.1f on average\n", count,
               cells, 100.0 * count / cells, densest, (double)n / count);
        if (timer) {
            printf("  GPU per frame (median):");
            double total = 0;
            for (int k = 0; k < STEPS; k++) {
                qsort(gpu_ms + k * frames, frames, sizeof *gpu_ms, cmp_double);
                total += gpu_ms[k * frames + frames / 2];
                printf(" %s %.3f ms,", step_names[k], gpu_ms[k * frames + frames / 2]);
            }
            printf(" together %.3f ms\n", total);
        }
        qsort(frame_ms, frames, sizeof *frame_ms, cmp_double);
        printf("  median frame with the count read back %.3f ms; all frames with every check %.1f ms\n",
               frame_ms[frames / 2], t_all * 1e3);
        printf("  verified: every frame's sorted particle order, occupied cells and cell starts equal the CPU's\n"
               "  counting sort; %u neighbour queries (the 27 cells around, %.1f neighbours on average)\n"
               "  equal brute force\n", queries, (double)neighbours / queries);
    }
    example_kernel_destroy(&mv);
    wgs_timer_destroy(timer);
    wgs_sort_plan_destroy(sort);
    wgs_select_plan_destroy(runs);
    wgs_scan_plan_destroy(scan);
    WGPUBuffer all[] = {bpos, bvel, bcell, bkeys, bids, bcells, bruns, bstarts, bcount};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgs_buffer_release(ctx, all[i]);
    wgs_context_destroy(ctx);
    free(pos), free(vel), free(got_pos), free(cpu_cell), free(cpu_ids), free(cpu_occupied), free(cpu_starts);
    free(got_keys), free(got_ids), free(got_cells), free(got_runs), free(got_starts), free(bucket);
    free(gpu_ms), free(frame_ms);
    return bad;
}
