// SPDX-License-Identifier: MIT
// sort.wgsl: one digit pass of the reduce-then-scan LSD radix sort (src/sort.c records
// the passes; the plan's other algorithm is sort_onesweep.wgsl). It needs no
// cooperation between workgroups, so it also serves where the chained pass's 30-bit
// digit counts cannot (n >= 2^30).
//
// A pass has two kernels around a scan:
//   sort_count    each workgroup counts the digits of COUNT_GROUPS groups of tiles
//                 (workgroup atomics) and writes counts[digit * groups + group]:
//                 digit-major, so that the exclusive scan of the whole array gives each
//                 (digit, group) the place of its first key in the output.
//   sort_scatter  each workgroup takes the same group, tile after tile, and moves each
//                 tile as workgroup/sort_tile.wgsl does, its runs starting where the
//                 scan put the group's keys of each digit.
//
// Plan constants: COUNT_GROUPS (the count kernel's groups a workgroup); the tile's
// (workgroup/sort_tile.wgsl).
// Params (src/params.h): n keys; groups; group_tiles; shift and bits of this digit;
// flags (FLAG_INDEX_VALUES: the values are the keys' input indices).
// Bindings: 0 keys_in, 1 keys_out, 3 counts (sort_count) or offsets (sort_scatter),
// 5 values_in, 6 values_out.

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> counts: array<u32>;
@group(0) @binding(4) var<storage, read> offsets: array<u32>;
@group(0) @binding(5) var<storage, read> values_in: array<u32>;
@group(0) @binding(6) var<storage, read_write> values_out: array<u32>;

// The count kernel takes COUNT_GROUPS consecutive groups (a plan constant), a row of
// counters each, so that each digit's counts of those groups leave as consecutive words
// (counts[digit * groups + group]: one group a workgroup wrote 256 words each in a
// sector of its own, 1 GiB of partial sectors a pass at 2^28 and 256 x 8, where the
// keys' read is 1 GiB; the count took 0.80 ms a pass against 0.39 at 384 x 23 on an
// H100, BENCHMARKS.md 2026-12-06).
var<workgroup> group_digits: array<atomic<u32>, COUNT_GROUPS * RADIX>;

const COUNT_ROUNDS: u32 = (COUNT_GROUPS * RADIX + WG - 1u) / WG;

@compute @workgroup_size(WG)
fn sort_count(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let g0 = tile_index(wid, nwg) * COUNT_GROUPS;
    let groups = params.groups;
    if (g0 >= groups) { // a folded grid's spare workgroups
        return;
    }
    for (var k = 0u; k < COUNT_ROUNDS; k++) {
        if ((COUNT_GROUPS * RADIX) % WG == 0u || k * WG + ids.lid < COUNT_GROUPS * RADIX) {
            atomicStore(&group_digits[k * WG + ids.lid], 0u);
        }
    }
    workgroupBarrier();
    // Tile by tile, as the scatter takes them: a tile's keys (ITEMS rows of WG) loaded
    // first, so that the loads overlap, then counted (one-sweep's histogram does the
    // same). Counted loops, not strided ones: Dawn's robustness gives every loop it
    // cannot see end a 64-bit iteration counter (docs/design.md, 3).
    let n = params.n;
    let group_tiles = params.group_tiles;
    for (var j = 0u; j < COUNT_GROUPS; j++) {
        if (g0 + j >= groups) { // uniform: the last workgroup's groups may end early
            break;
        }
        for (var t = 0u; t < group_tiles; t++) {
            let tile_first = ((g0 + j) * group_tiles + t) * TILE;
            if (tile_first >= n) { // uniform: the group's last tiles may be past the end
                break;
            }
            let tile_n = min(TILE, n - tile_first);
            // @each item
            var count_lo# = 0u;
            var count_hi# = 0u;
            if (#u * WG + ids.lid < tile_n) {
                count_lo# = keys_in[(tile_first + #u * WG + ids.lid) * KEY_WORDS];
                if (KEY_WORDS == 2u) {
                    count_hi# = keys_in[(tile_first + #u * WG + ids.lid) * KEY_WORDS + 1u];
                }
            }
            // @end
            // @each item
            if (#u * WG + ids.lid < tile_n) {
                atomicAdd(&group_digits[j * RADIX + digit_at(count_lo#, count_hi#, params.shift, params.bits)], 1u);
            }
            // @end
        }
    }
    workgroupBarrier();
    // Entry e = digit * COUNT_GROUPS + j: a subgroup's lanes write whole runs of a
    // digit's consecutive groups.
    for (var k = 0u; k < COUNT_ROUNDS; k++) {
        let e = k * WG + ids.lid;
        let d = e / COUNT_GROUPS;
        let j = e % COUNT_GROUPS;
        if (((COUNT_GROUPS * RADIX) % WG == 0u || e < COUNT_GROUPS * RADIX) && g0 + j < groups) {
            counts[d * groups + g0 + j] = atomicLoad(&group_digits[j * RADIX + d]);
        }
    }
}

@compute @workgroup_size(WG)
fn sort_scatter(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = tile_index(wid, nwg);
    if (g >= params.groups) {
        return;
    }
    let n = params.n;
    // Where the group's next key of each of the invocation's digits goes.
    var group_base: array<u32, DIGITS_PER_INVOCATION>;
    for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
        let d = slot_digit(ids, k);
        if (slot_live(d)) {
            group_base[k] = offsets[d * params.groups + g];
        }
    }
    let index_values = (params.flags & FLAG_INDEX_VALUES) != 0u;
    let group_tiles = params.group_tiles; // a let: Tint bounds a loop by a constant or a let
    for (var t = 0u; t < group_tiles; t++) {
        let tile_first = (g * params.group_tiles + t) * TILE;
        if (tile_first >= n) { // uniform: the group's last tiles may be past the end
            break;
        }
        let tile_n = min(TILE, n - tile_first);
        tile_clear(ids);
        workgroupBarrier();
        tile_rank(ids, tile_first, tile_n, params.shift, params.bits);
        workgroupBarrier();
        tile_offsets(ids, tile_totals(ids));
        workgroupBarrier();
        tile_ranks(ids, tile_n);
        workgroupBarrier();
        for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
            tile_run(ids, k, group_base[k]);
            group_base[k] += slot_total[k];
        }
        tile_place(ids, tile_first, tile_n, index_values);
        workgroupBarrier();
        tile_write(ids, tile_first, tile_n, params.shift, params.bits, index_values);
        workgroupBarrier();
    }
}
