// SPDX-License-Identifier: MIT
// rank_subgroup.wgsl: stable ranking of digits by subgroup ballots (a subgroup is an
// owner). In each round every lane holds one key; eight ballots, one per digit bit, find
// the lanes whose key has the same digit (its peers); a key's rank is its peers in lower
// lanes plus what the owner counted of that digit in earlier rounds. The lowest peer
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

// Ranks the invocation's keys of every round, filling key_rank#; every lane of the
// subgroup calls this, whatever its keys. A round at a time: its ballots, its leaders'
// counter updates (a leader is a valid key without peers in lower lanes) and the
// shuffle that hands each lane its leader's old count, before the next round, so that
// a round's state dies with it. Three sweeps over the rounds (every round's ballots,
// then the counters, then the shuffles) overlapped the ballots' latencies but held
// every round's peers and counts at once: on an H100 at 2^28 the scatter of pairs took
// 80 registers against 64, 18.16 ms against 17.38; keys at 256 x 16 152 against 126,
// 18.44 ms against 11.75 (BENCHMARKS.md, tenth session).
fn rank_keys(ids: Ids, owner: u32, tile_n: u32) {
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
