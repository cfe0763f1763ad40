// SPDX-License-Identifier: MIT
// rank_invocation.wgsl: stable ranking of digits without subgroups: every invocation is
// an owner with its own row of digit counters and ranks its keys one after another.
// Portable and slow (small workgroups, a row of 256 counters each): the sort's path for
// devices without subgroups.

fn owner_of(ids: Ids) -> u32 { return ids.lid; }
fn owner_count(ids: Ids) -> u32 { return WG; }
fn owner_size(ids: Ids) -> u32 { return 1u; }
fn owner_lane(ids: Ids) -> u32 { return 0u; }

// The invocation's keys one after another, filling key_rank#.
fn rank_keys(ids: Ids, owner: u32, tile_n: u32) {
    // @each item
    if (tile_place_of(ids, #u) < tile_n) {
        let i# = owner * RADIX + key_digit_of(key_digit#, key_lo#, key_hi#);
        key_rank# = atomicLoad(&tile_room[i#]);
        atomicStore(&tile_room[i#], key_rank# + 1u);
    }
    // @end
}
