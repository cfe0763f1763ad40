// SPDX-License-Identifier: MIT
// sort.wgsl: one 8-bit digit pass of the LSD radix sort (src/sort.c records the passes).
//
// A pass has two kernels around a scan:
//   sort_count    each workgroup counts the digits of a group of tiles (workgroup
//                 atomics) and writes counts[digit * groups + group]: digit-major, so that
//                 the exclusive scan of the whole array gives each (digit, group) the
//                 place of its first key in the output.
//   sort_scatter  each workgroup takes the same group, tile after tile: it ranks the
//                 tile's keys stably (rank_key, from the ranking file: subgroup ballots
//                 or one counter row per invocation), puts the keys in the tile's
//                 digit-sorted order in workgroup memory, and writes them (and the values)
//                 in that order, so that the keys of one digit leave in one run.
// Keys are KEY_WORDS words (64-bit keys: low word first); the digit is taken from the
// key mapped to an unsigned number of the same order (ordered_key) and reversed for a
// descending sort. Keys and values move as they are: the mapping is never written.
//
// Plan constants: KEY_KIND (0 u32, 1 i32, 2 f32, 3 u64, 4 i64; + 16 for descending),
// VALUE_WORDS (0, 1 or 2), SG_MIN (the device's smallest subgroup; 1 without subgroups).
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

const RADIX: u32 = 256u;
const KIND: u32 = KEY_KIND & 15u;
const DESCENDING: bool = KEY_KIND >= 16u;
const KEY_WORDS: u32 = select(1u, 2u, KIND >= 3u);
const OWNERS_MAX: u32 = WG / SG_MIN;
const DIGITS_PER_INVOCATION: u32 = RADIX / WG;

// Per owner (a subgroup, or an invocation) and digit: the owner's count, then the
// owner's first place in the tile's digit-sorted order.
var<workgroup> owner_digits: array<atomic<u32>, OWNERS_MAX * RADIX>;
var<workgroup> digit_start: array<u32, RADIX>; // the tile's first place of each digit
var<workgroup> digit_total: array<u32, RADIX>; // the tile's keys of each digit
var<workgroup> run_base: array<u32, RADIX>;    // where the group's next key of each digit goes
// The tile's keys in digit-sorted order and, with values, each one's place in the tile
// (where its value is read); one word when there are no values.
const ORDER_SIZE: u32 = 1u + (TILE - 1u) * ((VALUE_WORDS + 1u) / 2u);
var<workgroup> tile_keys: array<u32, TILE * KEY_WORDS>;
var<workgroup> order: array<u32, ORDER_SIZE>;
var<workgroup> group_digits: array<atomic<u32>, RADIX>;

// The key's words as an unsigned number (low, high) that orders as the key type.
fn ordered_key(lo: u32, hi: u32) -> vec2<u32> {
    switch (KIND) {
        case 1u: { return vec2<u32>(lo ^ 0x80000000u, 0u); }
        case 2u: { return vec2<u32>(select(lo | 0x80000000u, ~lo, (lo & 0x80000000u) != 0u), 0u); }
        case 3u: { return vec2<u32>(lo, hi); }
        case 4u: { return vec2<u32>(lo, hi ^ 0x80000000u); }
        default: { return vec2<u32>(lo, 0u); }
    }
}

// This pass's digit of key i of the input (bits [shift, shift + bits) of its ordered form).
fn digit_of(i: u32) -> u32 {
    var hi = 0u;
    if (KEY_WORDS == 2u) {
        hi = keys_in[i * KEY_WORDS + 1u];
    }
    return digit_from(keys_in[i * KEY_WORDS], hi);
}

fn digit_from(lo: u32, hi: u32) -> u32 {
    let k = ordered_key(lo, hi);
    let shift = params.shift;
    var x: u32;
    if (shift >= 32u) {
        x = k.y >> (shift - 32u);
    } else if (shift == 0u) {
        x = k.x;
    } else {
        x = (k.x >> shift) | (k.y << (32u - shift));
    }
    let mask = (1u << params.bits) - 1u;
    let d = x & mask;
    return select(d, mask - d, DESCENDING);
}

@compute @workgroup_size(WG)
fn sort_count(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = tile_index(wid, nwg);
    if (g >= params.groups) { // a folded grid's spare workgroups
        return;
    }
    for (var d = ids.lid; d < RADIX; d += WG) {
        atomicStore(&group_digits[d], 0u);
    }
    workgroupBarrier();
    let n = params.n;
    let first = g * params.group_tiles * TILE;
    let end = min(n, first + params.group_tiles * TILE);
    for (var i = first + ids.lid; i < end; i += WG) {
        atomicAdd(&group_digits[digit_of(i)], 1u);
    }
    workgroupBarrier();
    for (var d = ids.lid; d < RADIX; d += WG) {
        counts[d * params.groups + g] = atomicLoad(&group_digits[d]);
    }
}

@compute @workgroup_size(WG)
fn sort_scatter(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = tile_index(wid, nwg);
    if (g >= params.groups) {
        return;
    }
    let n = params.n;
    for (var d = ids.lid; d < RADIX; d += WG) {
        run_base[d] = offsets[d * params.groups + g];
    }
    let owner = owner_of(ids);
    let owners = owner_count(ids);
    let size = owner_size(ids);
    let lane = owner_lane(ids);
    for (var t = 0u; t < params.group_tiles; t++) {
        let tile_first = (g * params.group_tiles + t) * TILE;
        if (tile_first >= n) { // uniform: the group's last tiles may be past the end
            break;
        }
        let tile_n = min(TILE, n - tile_first);
        for (var i = ids.lid; i < OWNERS_MAX * RADIX; i += WG) {
            atomicStore(&owner_digits[i], 0u);
        }
        workgroupBarrier();
        // Each owner ranks its strip of the tile in order, `size` keys a round. The keys
        // are all loaded first, so that their loads overlap (the ballots keep the rounds
        // apart).
        var lo: array<u32, ITEMS>;
        var hi: array<u32, ITEMS>;
        for (var r = 0u; r < ITEMS; r++) {
            let p = owner * size * ITEMS + r * size + lane;
            if (p < tile_n) {
                lo[r] = keys_in[(tile_first + p) * KEY_WORDS];
                if (KEY_WORDS == 2u) {
                    hi[r] = keys_in[(tile_first + p) * KEY_WORDS + 1u];
                }
            }
        }
        var digit: array<u32, ITEMS>;
        var rank: array<u32, ITEMS>;
        for (var r = 0u; r < ITEMS; r++) {
            let p = owner * size * ITEMS + r * size + lane;
            let valid = p < tile_n;
            var d = 0u;
            if (valid) {
                d = digit_from(lo[r], hi[r]);
            }
            digit[r] = d;
            rank[r] = rank_key(ids, owner, valid, d);
        }
        workgroupBarrier();
        // Digit-major exclusive scan over (digit, owner): each invocation takes whole digits.
        var sum = 0u;
        for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
            let d = ids.lid * DIGITS_PER_INVOCATION + k;
            var total = 0u;
            for (var o = 0u; o < owners; o++) {
                total += atomicLoad(&owner_digits[o * RADIX + d]);
            }
            digit_total[d] = total;
            sum += total;
        }
        var start = workgroup_exclusive_scan(ids, sum, 0u);
        for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
            let d = ids.lid * DIGITS_PER_INVOCATION + k;
            digit_start[d] = start;
            var at = start;
            for (var o = 0u; o < owners; o++) {
                let c = atomicLoad(&owner_digits[o * RADIX + d]);
                atomicStore(&owner_digits[o * RADIX + d], at);
                at += c;
            }
            start = at;
        }
        workgroupBarrier();
        for (var r = 0u; r < ITEMS; r++) {
            let p = owner * size * ITEMS + r * size + lane;
            if (p < tile_n) {
                let at = atomicLoad(&owner_digits[owner * RADIX + digit[r]]) + rank[r];
                tile_keys[at * KEY_WORDS] = lo[r];
                if (KEY_WORDS == 2u) {
                    tile_keys[at * KEY_WORDS + 1u] = hi[r];
                }
                if (VALUE_WORDS > 0u) {
                    order[at] = p;
                }
            }
        }
        workgroupBarrier();
        // Out in digit-sorted order: consecutive places of one digit are consecutive keys
        // of the output.
        for (var s = ids.lid; s < tile_n; s += WG) {
            let k_lo = tile_keys[s * KEY_WORDS];
            var k_hi = 0u;
            if (KEY_WORDS == 2u) {
                k_hi = tile_keys[s * KEY_WORDS + 1u];
            }
            let d = digit_from(k_lo, k_hi);
            let dst = run_base[d] + s - digit_start[d];
            keys_out[dst * KEY_WORDS] = k_lo;
            if (KEY_WORDS == 2u) {
                keys_out[dst * KEY_WORDS + 1u] = k_hi;
            }
            if (VALUE_WORDS > 0u) {
                let i = tile_first + order[s];
                if ((params.flags & FLAG_INDEX_VALUES) != 0u) {
                    values_out[dst] = i;
                } else {
                    for (var w = 0u; w < VALUE_WORDS; w++) {
                        values_out[dst * VALUE_WORDS + w] = values_in[i * VALUE_WORDS + w];
                    }
                }
            }
        }
        workgroupBarrier();
        for (var d = ids.lid; d < RADIX; d += WG) {
            run_base[d] += digit_total[d];
        }
    }
}
