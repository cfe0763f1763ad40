// SPDX-License-Identifier: MIT
// sort_tile.wgsl: one tile of a radix sort's digit pass, the part both scatters share
// (device/sort.wgsl's, whose digit places come from a scan of counts, and
// device/sort_onesweep.wgsl's, whose places come through the look-back). In order, each
// called by every invocation with barriers between them as the kernels show:
//   tile_clear    zeroes the owners' counter rows
//   tile_rank     loads the tile's keys into registers and ranks them stably (rank_keys,
//                 from the ranking file: subgroup ballots, or one counter row per
//                 invocation); the owners' rows then hold their digit counts
//   tile_totals   the tile's count of each of the invocation's digits (slot_total), and
//                 each owner's first place among the tile's keys of its digit
//   tile_offsets  the tile's first place of each digit (digit_place, slot_start)
//   tile_ranks    each key's place in the tile's digit-sorted order
//   tile_run      (each slot, after the barrier that follows tile_ranks) where the
//                 output's run of the digit starts, kept in digit_place as that place
//                 less the digit's first place in the tile
//   tile_place    the keys into workgroup memory in that order (one-word values into
//                 registers, their reads under way while the keys are written)
//   tile_write    out from there: key s of digit d goes to digit_place[d] + s, so that
//                 the keys of one digit leave in one run; then the values the same way
// The kernel declares keys_in, keys_out, values_in and values_out.
//
// Plan constants: VALUE_WORDS (0, 1 or 2), SORT_SKIP (experiments: parts left out for
// timing; 0), SORT_DIGITS and SORT_STAGE (below); from the prelude SG_MIN (the
// device's smallest subgroup; 1 without subgroups).

const OWNERS_MAX: u32 = WG / SG_MIN;
// The digits an invocation answers for, consecutive: RADIX / WG where WG divides RADIX,
// else rounded up, and one where the workgroup is wider (384 x 23 keys is CUB's tile on
// sm90); slot_digit says RADIX for the slots past the last digit, which then idle.
const DIGITS_PER_INVOCATION: u32 = (RADIX + WG - 1u) / WG;
// Where the workgroup divides the radix every slot holds a digit, and the code below is
// the plain product with no test: the clamp and the tests cost a 256 x 8 scatter 11
// registers on an H100 (64 to 75), a workgroup a core fewer, 6% of the sort (12.81 to
// 13.62 ms at 2^28; BENCHMARKS.md, 2026-12-06).
const SLOTS_FULL: bool = RADIX % WG == 0u;

fn slot_digit(ids: Ids, k: u32) -> u32 {
    if (SLOTS_FULL) {
        return ids.lid * DIGITS_PER_INVOCATION + k;
    }
    return min(ids.lid * DIGITS_PER_INVOCATION + k, RADIX);
}

fn slot_live(d: u32) -> bool { return SLOTS_FULL || d < RADIX; }

// The tile's room in workgroup memory, used twice: first a row of counters per owner
// (a subgroup, or an invocation) at owner * RADIX + digit, the owner's count, then its
// first place among the tile's keys of the digit; then, once every rank is known, the
// tile's keys in digit-sorted order, then its values. One room, not two, because on an
// H200 a core holds workgroups of 48 KiB in all (docs/design.md, section 3): at 256 x 8
// the tile takes 11 KiB instead of 19, four workgroups a core instead of two. Atomic
// for the counters; the keys are moved with atomic loads and stores as well. SORT_STAGE
// 1 (an experiment's) stages them in plain words of their own instead, beside the
// counters: what the atomic moves cost, at the price of the memory. SORT_STAGE 2 (an
// experiment's, ITEMS even) stages half a tile at a time (the keys ranked in the first
// half placed, written, then the second's), so that a tile of twice the keys takes the
// room of one: 256 x 16 in the 11 KiB of 256 x 8.
const EXCHANGE_WORDS: u32 = max(KEY_WORDS, VALUE_WORDS);
const STAGE_PLAIN: bool = SORT_STAGE == 1u;
const STAGE_HALVES: bool = SORT_STAGE == 2u;
const STAGE_SLOTS: u32 = select(TILE, TILE / 2u, STAGE_HALVES); // the keys staged at once
const TILE_ROOM: u32 = select(max(OWNERS_MAX * RADIX, STAGE_SLOTS * EXCHANGE_WORDS), OWNERS_MAX * RADIX, STAGE_PLAIN);
var<workgroup> tile_room: array<atomic<u32>, TILE_ROOM>;
var<workgroup> tile_plain: array<u32, select(1u, TILE * EXCHANGE_WORDS, STAGE_PLAIN)>;

fn stage_store(i: u32, v: u32) {
    if (STAGE_PLAIN) {
        tile_plain[i] = v;
    } else {
        atomicStore(&tile_room[i], v);
    }
}

fn stage_load(i: u32) -> u32 {
    if (STAGE_PLAIN) {
        return tile_plain[i];
    }
    return atomicLoad(&tile_room[i]);
}
// The tile's first place of each digit (for tile_ranks), then where the output's run of
// the digit starts less that place (for tile_write): one array for both, and a digit's
// count and first place in the registers of the invocation that owns its slot (no one
// else reads them), since each kilobyte of workgroup memory counts where about 48 KiB a
// core hold workgroups (docs/design.md, 3). H100, 2^28 u32 keys: one-sweep at 256 x 12
// took 17456 bytes, two workgroups a core, now 15408 and three: 13.51 -> 11.14 ms; the
// segmented sort in segments of 256 3.52 -> 3.37; the reduce-then-scan keys at 256 x 12,
// three a core by their registers either way, 9.04 -> 9.13 (BENCHMARKS.md, sixteenth
// session).
var<workgroup> digit_place: array<u32, RADIX>;
var<private> slot_total: array<u32, DIGITS_PER_INVOCATION>; // the tile's keys of slot k's digit
var<private> slot_start: array<u32, DIGITS_PER_INVOCATION>; // the tile's first place of that digit

// The invocation's keys of the tile in their sort forms (sort_key.wgsl), one variable a
// key (written out per item by the kernel composer: constant names, which the driver
// keeps in registers, where arrays indexed by a loop's counter go to local memory unless
// it unrolls the loop). tile_rank fills them. key_hi: the high word of 64-bit keys;
// key_rank: the key's place among its owner's keys of its digit, then (tile_place) in
// the tile's digit-sorted order; key_dst: its place in the output (tile_write), where
// its value goes.
// @each item
var<private> key_lo#: u32;
var<private> key_hi#: u32;
var<private> key_digit#: u32;
var<private> key_rank#: u32;
var<private> key_dst#: u32;
var<private> key_value#: u32; // VALUES_EARLY: the key's value, loaded by tile_place
// @end

// A key's digit is held in key_digit# from tile_digits to tile_ranks, or, with values
// beside 32-bit keys, computed again from the key's sort form where it is used: there
// the registers it frees are worth more than the instructions (H100, 2^28 pairs with
// indices at 256 x 8: u32 18.08 ms against 22.06 held, i32 18.03, f32 18.19, 80
// registers; keys alone 11.67 against 11.27, u64 keys 35.57 against 34.13;
// BENCHMARKS.md, 2026-12-06). SORT_DIGITS, a plan constant, lets an experiment choose
// (1 held, 2 computed; 0 this rule).
const DIGIT_HELD: bool = select(VALUE_WORDS == 0u || KEY_WORDS == 2u, SORT_DIGITS == 1u, SORT_DIGITS != 0u);
var<private> tile_shift: u32; // this pass's digit, as form_digit takes it
var<private> tile_bits: u32;

// A digit of a sort form where the digits are held: for 32-bit keys a shift and a mask,
// not form_digit's branches, which keep computed digits apart on purpose (three
// instructions more a key and a branch). With values (digits computed) this form and
// the leader by highest_bit together lost (H100, 2^28 u32 pairs 18.00 -> 18.21 ms,
// run58, BENCHMARKS.md), so there (SORT_DIGITS not forcing them held) the written keys'
// digits keep form_digit.
fn fresh_digit(lo: u32, hi: u32, shift: u32, bits: u32) -> u32 {
    if (KEY_WORDS == 1u && DIGIT_HELD) {
        return (lo >> shift) & ((1u << bits) - 1u);
    }
    return form_digit(vec2<u32>(lo, hi), shift, bits);
}

fn key_digit_of(held: u32, lo: u32, hi: u32) -> u32 {
    if (DIGIT_HELD) {
        return held;
    }
    return form_digit(vec2<u32>(lo, hi), tile_shift, tile_bits);
}

fn tile_clear(ids: Ids) {
    for (var k = 0u; k < (OWNERS_MAX * RADIX + WG - 1u) / WG; k++) { // counted (sort.wgsl, sort_count)
        if ((OWNERS_MAX * RADIX) % WG == 0u || k * WG + ids.lid < OWNERS_MAX * RADIX) {
            atomicStore(&tile_room[k * WG + ids.lid], 0u);
        }
    }
}

// Key p of the tile held by this invocation in round r: each owner takes a strip of
// the tile, `size` keys a round, so that the ranks in owner, round, lane order are the
// keys' order.
fn tile_place_of(ids: Ids, r: u32) -> u32 {
    return owner_of(ids) * owner_size(ids) * ITEMS + r * owner_size(ids) + owner_lane(ids);
}

// This pass's digit for key_digit_of, from the keys in key_lo# and key_hi#.
fn tile_digits(ids: Ids, tile_n: u32, shift: u32, bits: u32) {
    tile_shift = shift;
    tile_bits = bits;
    if (DIGIT_HELD) {
        // @each item
        key_digit# = select(0u, fresh_digit(key_lo#, key_hi#, shift, bits), tile_place_of(ids, #u) < tile_n);
        // @end
    }
}

fn tile_rank(ids: Ids, tile_first: u32, tile_n: u32, shift: u32, bits: u32) {
    // Every key is loaded first, so that the loads overlap (the ballots keep the rounds
    // apart).
    // @each item
    if (tile_place_of(ids, #u) < tile_n) {
        key_lo# = keys_in[(tile_first + tile_place_of(ids, #u)) * KEY_WORDS];
        if (KEY_WORDS == 2u) {
            key_hi# = keys_in[(tile_first + tile_place_of(ids, #u)) * KEY_WORDS + 1u];
        }
    }
    // @end
    // Then into their sort forms (sort_key.wgsl), where they stay until tile_write.
    // @each item
    let form# = sort_form(key_lo#, key_hi#);
    key_lo# = form#.x;
    key_hi# = form#.y;
    // @end
    tile_digits(ids, tile_n, shift, bits);
    if ((SORT_SKIP & 2u) == 0u) { // an experiment's timing without the ranking
        rank_keys(ids, owner_of(ids), tile_n);
    }
}

// After a barrier: slot_total of the invocation's digits (slot_digit), each owner's count
// turned into the owners' before it (one read of each count); returns the digits' sum.
fn tile_totals(ids: Ids) -> u32 {
    var sum = 0u;
    for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
        let d = slot_digit(ids, k);
        if (!slot_live(d)) {
            break;
        }
        var total = 0u;
        let owners = owner_count(ids);
        for (var o = 0u; o < owners; o++) {
            let c = atomicLoad(&tile_room[o * RADIX + d]);
            atomicStore(&tile_room[o * RADIX + d], total);
            total += c;
        }
        slot_total[k] = total;
        sum += total;
    }
    return sum;
}

// The tile's first place of the invocation's digits, by a workgroup scan of
// tile_totals' sums. A barrier is due before tile_ranks.
fn tile_offsets(ids: Ids, sum: u32) {
    var start = workgroup_exclusive_scan(ids, sum, 0u);
    for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
        let d = slot_digit(ids, k);
        if (!slot_live(d)) {
            break;
        }
        digit_place[d] = start;
        slot_start[k] = start;
        start += slot_total[k];
    }
}

// Slot k's digit's keys of this tile go to the output from `base` on. Called after the
// barrier that follows tile_ranks (which reads the same words), with a barrier due
// before tile_write.
fn tile_run(ids: Ids, k: u32, base: u32) {
    let d = slot_digit(ids, k);
    if (slot_live(d)) {
        digit_place[d] = base - slot_start[k];
    }
}

// Each key's place in the tile's digit-sorted order, from the owners' rows. A barrier
// is due before tile_place, which reuses the rows' room.
fn tile_ranks(ids: Ids, tile_n: u32) {
    let owner = owner_of(ids);
    // @each item
    if (tile_place_of(ids, #u) < tile_n) {
        key_rank# += digit_place[key_digit_of(key_digit#, key_lo#, key_hi#)] +
                     atomicLoad(&tile_room[owner * RADIX + key_digit_of(key_digit#, key_lo#, key_hi#)]);
    }
    // @end
}

// One-word values are loaded into registers when the keys are placed, so that their
// reads are under way while the keys are placed and written (and, in one-sweep, while
// the tile looks back), not begun after the keys are out.
const VALUES_EARLY: bool = VALUE_WORDS == 1u && !STAGE_HALVES;

// The keys into the room in digit-sorted order (with STAGE_HALVES those of the first
// half; tile_write places the others); with VALUES_EARLY the keys' values into
// registers. A barrier is due before tile_write.
fn tile_place(ids: Ids, tile_first: u32, tile_n: u32, index_values: bool) {
    if (VALUES_EARLY && !index_values) {
        // @each item
        if (tile_place_of(ids, #u) < tile_n) {
            key_value# = values_in[tile_first + tile_place_of(ids, #u)];
        }
        // @end
    }
    tile_place_half(ids, tile_n, 0u);
}

// The keys whose places are `first` .. `first` + STAGE_SLOTS - 1 into the room, each at
// its place less `first`.
fn tile_place_half(ids: Ids, tile_n: u32, first: u32) {
    // @each item
    if (tile_place_of(ids, #u) < tile_n && (!STAGE_HALVES || key_rank# - first < STAGE_SLOTS)) {
        stage_store((key_rank# - first) * KEY_WORDS, key_lo#);
        if (KEY_WORDS == 2u) {
            stage_store((key_rank# - first) * KEY_WORDS + 1u, key_hi#);
        }
    }
    // @end
}

// Key s = row * WG + lid of the tile's digit-sorted order to its place, from the room's
// slot s - first; returns the place.
fn tile_write_key(s: u32, first: u32, shift: u32, bits: u32) -> u32 {
    let k_lo = stage_load((s - first) * KEY_WORDS);
    var k_hi = 0u;
    if (KEY_WORDS == 2u) {
        k_hi = stage_load((s - first) * KEY_WORDS + 1u);
    }
    let dst = digit_place[fresh_digit(k_lo, k_hi, shift, bits)] + s;
    let key = key_of_form(vec2<u32>(k_lo, k_hi));
    keys_out[dst * KEY_WORDS] = key.x;
    if (KEY_WORDS == 2u) {
        keys_out[dst * KEY_WORDS + 1u] = key.y;
    }
    return dst;
}

// The value of the tile's key p (its input index when index_values) into workgroup
// memory at `at`, the key's place in digit-sorted order.
fn tile_stage_value(p: u32, at: u32, tile_first: u32, index_values: bool) {
    for (var w = 0u; w < VALUE_WORDS; w++) {
        var v = tile_first + p;
        if (!index_values) {
            v = values_in[(tile_first + p) * VALUE_WORDS + w];
        }
        stage_store(at * VALUE_WORDS + w, v);
    }
}

fn tile_write_value(s: u32, dst: u32) {
    for (var w = 0u; w < VALUE_WORDS; w++) {
        values_out[dst * VALUE_WORDS + w] = stage_load(s * VALUE_WORDS + w);
    }
}

// With STAGE_HALVES, the invocation's rows of half `half` of the tile's digit-sorted
// order (rows 0 .. ITEMS / 2 - 1, then the rest), whose keys are staged, to their places.
fn tile_write_keys_half(ids: Ids, tile_n: u32, half: u32, shift: u32, bits: u32) {
    // @each item
    if ((#u < ITEMS / 2u) == (half == 0u) && #u * WG + ids.lid < tile_n) {
        key_dst# = tile_write_key(#u * WG + ids.lid, half * STAGE_SLOTS, shift, bits);
    }
    // @end
}

// tile_write with STAGE_HALVES: the first half's keys, which tile_place staged, then the
// second's, each staged after the first's are out; then the values the same way.
fn tile_write_halves(ids: Ids, tile_first: u32, tile_n: u32, shift: u32, bits: u32, index_values: bool) {
    tile_write_keys_half(ids, tile_n, 0u, shift, bits);
    workgroupBarrier();
    tile_place_half(ids, tile_n, STAGE_SLOTS);
    workgroupBarrier();
    tile_write_keys_half(ids, tile_n, 1u, shift, bits);
    if (VALUE_WORDS > 0u) {
        for (var half = 0u; half < 2u; half++) {
            let first = half * STAGE_SLOTS;
            workgroupBarrier(); // the room's last keys or values read
            // @each item
            if (tile_place_of(ids, #u) < tile_n && key_rank# - first < STAGE_SLOTS) {
                tile_stage_value(tile_place_of(ids, #u), key_rank# - first, tile_first, index_values);
            }
            // @end
            workgroupBarrier();
            // @each item
            if ((#u < ITEMS / 2u) == (half == 0u) && #u * WG + ids.lid < tile_n) {
                tile_write_value(#u * WG + ids.lid - first, key_dst#);
            }
            // @end
        }
    }
}

// The keys out in runs of a digit from workgroup memory, then the values the same way:
// read in the input's order (coalesced), staged in digit-sorted order, written in runs.
// index_values: the values are the keys' input indices. Every invocation calls it.
fn tile_write(ids: Ids, tile_first: u32, tile_n: u32, shift: u32, bits: u32, index_values: bool) {
    if (STAGE_HALVES) {
        tile_write_halves(ids, tile_first, tile_n, shift, bits, index_values);
        return;
    }
    // @each item
    if (#u * WG + ids.lid < tile_n) {
        key_dst# = tile_write_key(#u * WG + ids.lid, 0u, shift, bits);
    }
    // @end
    if (VALUE_WORDS > 0u) {
        workgroupBarrier(); // every key read from workgroup memory
        if (VALUES_EARLY) {
            // @each item
            if (tile_place_of(ids, #u) < tile_n) {
                stage_store(key_rank#, select(key_value#, tile_first + tile_place_of(ids, #u), index_values));
            }
            // @end
        } else {
            // @each item
            if (tile_place_of(ids, #u) < tile_n) {
                tile_stage_value(tile_place_of(ids, #u), key_rank#, tile_first, index_values);
            }
            // @end
        }
        workgroupBarrier();
        // @each item
        if (#u * WG + ids.lid < tile_n) {
            tile_write_value(#u * WG + ids.lid, key_dst#);
        }
        // @end
    }
}
