// SPDX-License-Identifier: MIT
// sort_key.wgsl: a radix sort's view of its keys, shared by the sort's kernels
// (device/sort.wgsl, device/sort_onesweep.wgsl), the segmented sort's and top-k's. Keys are KEY_WORDS words (64-bit keys:
// low word first); a digit is taken from the key mapped to an unsigned number of the
// same order (ordered_key) and reversed for a descending sort (sort_form). Keys leave
// as they came: the forms stay in a tile's registers and workgroup memory.
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

// The key's sort form: ordered_key's number, inverted when descending (the high word
// of a 32-bit key stays 0), so that the sort's order is the plain unsigned order of the
// form and a digit a bit field of it. A tile holds its keys in this form from load to
// write, so that a digit computed again where it is used costs the same for every key
// type (sort_tile.wgsl, DIGIT_HELD).
fn sort_form(lo: u32, hi: u32) -> vec2<u32> {
    let k = ordered_key(lo, hi);
    if (KEY_WORDS == 1u) {
        return vec2<u32>(select(k.x, ~k.x, DESCENDING), 0u);
    }
    return select(k, ~k, DESCENDING);
}

// The key's words from its sort form (sort_form's inverse): keys leave as they came.
fn key_of_form(f: vec2<u32>) -> vec2<u32> {
    let k = select(f, ~f, DESCENDING);
    switch (KIND) {
        case 1u: { return vec2<u32>(k.x ^ 0x80000000u, 0u); }
        case 2u: { return vec2<u32>(select(~k.x, k.x ^ 0x80000000u, (k.x & 0x80000000u) != 0u), 0u); }
        case 3u: { return k; }
        case 4u: { return vec2<u32>(k.x, k.y ^ 0x80000000u); }
        default: { return vec2<u32>(k.x, 0u); }
    }
}

// Bits [shift, shift + bits) of a sort form (bits <= 8). Branches, not one expression:
// the driver merges an expression with its copies in later code that the first one
// dominates and holds the result in a register, which DIGIT_HELD = false is there to
// avoid; computed in branches, each use keeps its own (H100, the scatter of pairs at
// 256 x 8: 80 registers for every 32-bit type, u32 18.08 ms at 2^28; as one
// expression i32's took 105 registers and u32's 21.69 ms, as held).
fn form_digit(f: vec2<u32>, shift: u32, bits: u32) -> u32 {
    var x: u32;
    if (shift >= 32u) {
        x = f.y >> (shift - 32u);
    } else if (shift == 0u) {
        x = f.x;
    } else {
        x = (f.x >> shift) | (f.y << (32u - shift));
    }
    return x & ((1u << bits) - 1u);
}

// Bits [shift, shift + bits) of the key's sort form.
fn digit_at(lo: u32, hi: u32, shift: u32, bits: u32) -> u32 {
    return form_digit(sort_form(lo, hi), shift, bits);
}
