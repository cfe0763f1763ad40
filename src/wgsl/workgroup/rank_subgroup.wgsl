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

fn owner_of(ids: Ids) -> u32 { return ids.lid / ids.sg_size; }
fn owner_count(ids: Ids) -> u32 { return WG / ids.sg_size; }
fn owner_size(ids: Ids) -> u32 { return ids.sg_size; }
fn owner_lane(ids: Ids) -> u32 { return ids.sg_lane; }

// Set bits of the lanes below `lane`.
fn lanes_below(lane: u32) -> vec4<u32> {
    var m = vec4<u32>(0u);
    for (var c = 0u; c < SG_WORDS; c++) {
        let first = c * 32u;
        if (lane >= first + 32u) {
            m[c] = 0xFFFFFFFFu;
        } else if (lane <= first) {
            m[c] = 0u;
        } else {
            m[c] = (1u << (lane - first)) - 1u;
        }
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

// Every lane of the subgroup calls this in the same round (ballots), valid or not.
fn rank_key(ids: Ids, owner: u32, valid: bool, digit: u32) -> u32 {
    var peers = subgroupBallot(valid);
    for (var b = 0u; b < 8u; b++) {
        let one = ((digit >> b) & 1u) != 0u;
        let ballot = subgroupBallot(one);
        peers &= select(~ballot, ballot, one);
    }
    let before = bits_in(peers & lanes_below(ids.sg_lane));
    var old = 0u;
    if (valid && before == 0u) {
        old = atomicAdd(&owner_digits[owner * RADIX + digit], bits_in(peers));
    }
    let leader = select(ids.sg_lane, lowest_lane(peers), valid);
    return subgroupShuffle(old, leader) + before;
}
