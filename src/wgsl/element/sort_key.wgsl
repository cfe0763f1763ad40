// SPDX-License-Identifier: MIT
// sort_key.wgsl: a radix sort's view of its keys, shared by the sort's kernels
// (device/sort.wgsl, device/sort_onesweep.wgsl). Keys are KEY_WORDS words (64-bit keys:
// low word first); a digit is taken from the key mapped to an unsigned number of the
// same order (ordered_key) and reversed for a descending sort. Keys and values move as
// they are: the mapping is never written.
//
// Plan constants: KEY_KIND (0 u32, 1 i32, 2 f32, 3 u64, 4 i64; + 16 for descending).

const RADIX: u32 = 256u;
const KIND: u32 = KEY_KIND & 15u;
const DESCENDING: bool = KEY_KIND >= 16u;
const KEY_WORDS: u32 = select(1u, 2u, KIND >= 3u);

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

// Bits [shift, shift + bits) of the key's ordered form (bits <= 8), reversed when
// descending.
fn digit_at(lo: u32, hi: u32, shift: u32, bits: u32) -> u32 {
    let k = ordered_key(lo, hi);
    var x: u32;
    if (shift >= 32u) {
        x = k.y >> (shift - 32u);
    } else if (shift == 0u) {
        x = k.x;
    } else {
        x = (k.x >> shift) | (k.y << (32u - shift));
    }
    let mask = (1u << bits) - 1u;
    let d = x & mask;
    return select(d, mask - d, DESCENDING);
}
