// SPDX-License-Identifier: MIT
// rank_subgroup.wgsl: stable ranking of digits by subgroup ballots (a subgroup is an
// owner). In each round every lane holds one key; eight ballots, one per digit bit, find
// the lanes whose key has the same digit (its peers); a key's rank is its peers in lower
// lanes plus what the owner counted of that digit in earlier rounds. One peer, the leader,
// adds the round's peers to the owner's count and passes the old count to the others.
// Lanes are lid % subgroup size, as subgroup_scan.wgsl assumes; up to 128 lanes. Only
// the ballot's words that the device's widest subgroup (SG_MAX) can set are looked at:
// one on a 32-lane GPU, where the other three cost instructions in every round.

const SG_WORDS: u32 = (SG_MAX + 31u) / 32u;

// The subgroup size is a constant where the device has only one (SG_FIXED, the prelude's):
// then the owners' loops unroll and their index arithmetic folds.
fn owner_size(ids: Ids) -> u32 { return select(ids.sg_size, SG_FIXED, SG_FIXED != 0u); }
fn owner_of(ids: Ids) -> u32 { return ids.lid / owner_size(ids); }
fn owner_count(ids: Ids) -> u32 { return WG / owner_size(ids); }
fn owner_lane(ids: Ids) -> u32 { return select(ids.sg_lane, ids.lid % max(SG_FIXED, 1u), SG_FIXED != 0u); }

// Set bits of the lanes below `lane`.
fn lanes_below(lane: u32) -> vec4<u32> {
    var m = vec4<u32>(0u);
    for (var c = 0u; c < SG_WORDS; c++) {
        // Selects, not branches: it runs once a key (valid_lanes), where branches cost
        // CPU drivers' compilers dearly.
        let first = c * 32u;
        let part = select((1u << ((lane - first) & 31u)) - 1u, 0u, lane <= first);
        m[c] = select(part, 0xFFFFFFFFu, lane >= first + 32u);
    }
    return m;
}

fn bits_in(m: vec4<u32>) -> u32 {
    var c = countOneBits(m.x);
    for (var w = 1u; w < SG_WORDS; w++) {
        c += countOneBits(m[w]);
    }
    return c;
}

// The highest set bit's index in six instructions: Tint writes firstLeadingBit out as
// a five-step binary search, 17 instructions a round in NVIDIA's machine code
// (bench/lab/sass.sh). The top bit of m & ~(m >> 1) is m's and no two of its bits are
// adjacent, so its conversion to f32 cannot round up to the next power of two; that
// f32's exponent less 127 is the index, taken mod 32 (127 is 31 mod 32: + 1, then & 31),
// so highest_bit(0) is 1, a lane index like any other.
fn highest_bit(m: u32) -> u32 { return ((bitcast<u32>(f32(m & ~(m >> 1u))) >> 23u) + 1u) & 31u; }

fn lowest_lane(m: vec4<u32>) -> u32 {
    for (var c = 0u; c < SG_WORDS; c++) {
        if (m[c] != 0u) {
            return c * 32u + firstTrailingBit(m[c]);
        }
    }
    return 0u;
}

// The lanes of round r that hold a key: the first ones, as many as the tile has left at
// the owner's strip. Counted, not balloted: a ballot a round fewer.
fn valid_lanes(ids: Ids, r: u32, tile_n: u32) -> vec4<u32> {
    let first = owner_of(ids) * owner_size(ids) * ITEMS + r * owner_size(ids);
    return lanes_below(select(0u, min(tile_n - first, owner_size(ids)), tile_n > first));
}

// The lanes whose key has the same digit as this lane's, among `valid`: eight ballots,
// one per digit bit. On a device whose subgroups have at most 32 lanes only the
// ballot's first word is computed.
fn peers_of(valid: vec4<u32>, digit: u32) -> vec4<u32> {
    if (SG_WORDS == 1u) {
        var m = valid.x;
        for (var b = 0u; b < 8u; b++) {
            let one = ((digit >> b) & 1u) != 0u;
            let ballot = subgroupBallot(one).x;
            m &= select(~ballot, ballot, one);
        }
        return vec4<u32>(m, 0u, 0u, 0u);
    }
    var peers = valid;
    for (var b = 0u; b < 8u; b++) {
        let one = ((digit >> b) & 1u) != 0u;
        let ballot = subgroupBallot(one);
        peers &= select(~ballot, ballot, one);
    }
    return peers;
}

// One ballot word's peers of `digit` among `valid`: eight ballots, one a digit bit,
// written out with constant bits and joined in a tree (the driver's three-input logic
// takes two a step), so that nothing waits on a loop's counter or a chain of ands.
fn same_bit(digit: u32, bit: u32) -> u32 {
    let one = (digit & bit) != 0u;
    let ballot = subgroupBallot(one).x;
    return select(~ballot, ballot, one);
}

fn peers_word(valid: u32, digit: u32) -> u32 {
    return (valid & same_bit(digit, 1u) & same_bit(digit, 2u)) &
           (same_bit(digit, 4u) & same_bit(digit, 8u) & same_bit(digit, 16u)) &
           (same_bit(digit, 32u) & same_bit(digit, 64u) & same_bit(digit, 128u));
}

// A key's rank among its owner's keys of its digit, for subgroups of at most 32 lanes,
// as CUB's BlockRadixRankMatch: the highest peer is the leader, so one count of the
// peers at or below a lane (`upto`) gives both a key's place among them and, at the
// leader, their number; the leader adds it to the owner's counter and hands the old
// count to its peers by shuffle. A lane without a key has no bit in `valid`: it is
// nobody's peer, never the leader (it is not among its own peers), and its rank is not
// used; its shuffle reads some lane of the subgroup (`& last`), whatever it holds.
fn rank_word(peers: u32, lane: u32, upto_mask: u32, last: u32, counter: u32) -> u32 {
    let upto = countOneBits(peers & upto_mask);
    let top = highest_bit(peers) & last;
    var old = 0u;
    if (lane == top) {
        old = atomicAdd(&tile_room[counter], upto);
    }
    return subgroupShuffle(old, top) + upto - 1u;
}

// Ranks the invocation's keys of every round, filling key_rank#; every lane of the
// subgroup calls this, whatever its keys. A round at a time: its ballots, its leader's
// counter update and the shuffle that hands each lane its leader's old count, before the
// next round, so that a round's state dies with it. Three sweeps over the rounds (every
// round's ballots, then the counters, then the shuffles) overlapped the ballots'
// latencies but held every round's peers and counts at once: on an H100 at 2^28 the
// scatter of pairs took 80 registers against 64, 18.16 ms against 17.38; keys at 256 x
// 16 152 against 126, 18.44 ms against 11.75 (BENCHMARKS.md, tenth session). Where the
// digits are held, a whole tile skips the valid lanes' arithmetic and the highest peer
// leads, so one bit count and one leading-bit find serve a key: H100, 2^28 u32 keys
// 10.83 -> 10.70 ms, 2^24 0.785 -> 0.735. Where the digits are computed again at each
// use (values beside 32-bit keys) that form lost, pairs 18.07 -> 19.25 ms (run53b,
// BENCHMARKS.md, fourteenth session), so they keep the lowest peer as leader and the
// valid lanes counted each round.
fn rank_keys(ids: Ids, owner: u32, tile_n: u32) {
    if (SG_WORDS == 1u && DIGIT_HELD) {
        let lane = owner_lane(ids);
        let upto_mask = (2u << lane) - 1u; // lane 31: 2 << 31 is 0
        let last = owner_size(ids) - 1u;
        let all = lanes_below(owner_size(ids)).x;
        let whole = tile_n >= TILE;
        // @each item
        var valid# = all;
        if (!whole) {
            valid# = valid_lanes(ids, #u, tile_n).x;
        }
        let digit# = key_digit_of(key_digit#, key_lo#, key_hi#);
        key_rank# = rank_word(peers_word(valid#, digit#), lane, upto_mask, last, owner * RADIX + digit#);
        // @end
        return;
    }
    let below = lanes_below(owner_lane(ids));
    // @each item
    let peers# = peers_of(valid_lanes(ids, #u, tile_n), key_digit_of(key_digit#, key_lo#, key_hi#));
    let before# = bits_in(peers# & below);
    var old# = 0u;
    if (before# == 0u && tile_place_of(ids, #u) < tile_n) {
        old# = atomicAdd(&tile_room[owner * RADIX + key_digit_of(key_digit#, key_lo#, key_hi#)], bits_in(peers#));
    }
    key_rank# = subgroupShuffle(old#, lowest_lane(peers#)) + before#;
    // @end
}
