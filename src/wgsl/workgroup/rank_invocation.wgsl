// SPDX-License-Identifier: MIT
// rank_invocation.wgsl: stable ranking of digits without subgroups: every invocation is
// an owner with its own row of digit counters and ranks its keys one after another.
// Portable and slow (small workgroups, a row of 256 counters each): the sort's path for
// devices without subgroups.

fn owner_of(ids: Ids) -> u32 { return ids.lid; }
fn owner_count(ids: Ids) -> u32 { return WG; }
fn owner_size(ids: Ids) -> u32 { return 1u; }
fn owner_lane(ids: Ids) -> u32 { return 0u; }

fn rank_key(ids: Ids, owner: u32, valid: bool, digit: u32) -> u32 {
    if (!valid) {
        return 0u;
    }
    let i = owner * RADIX + digit;
    let r = atomicLoad(&owner_digits[i]);
    atomicStore(&owner_digits[i], r + 1u);
    return r;
}
