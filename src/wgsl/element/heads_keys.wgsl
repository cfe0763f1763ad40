// SPDX-License-Identifier: MIT
// heads_keys.wgsl: the scan by key's segment heads from keys or byte flags, the head
// source of device/scan_by_key.wgsl for WGS_HEADS_KEYS and WGS_HEADS_FLAGS (the hooks it
// asks for are listed there). Element 0 always starts a segment; with keys
// (BYKEY_FLAGS = 0) element i > 0 does where key[i] != key[i - 1] (32-bit equality: u32
// and i32 alike); with flags, where its flag byte is not zero (one byte an element, 4 a
// u32 word). Nothing is outside a segment here, and the carry-in (element/scan_carry.wgsl)
// joins the first run.
//
// Bindings: 8 keys4, 9 keys (the keys as 16-byte words and as scalars over the whole
// range; with flags, 9 alone holds the flag bytes).

@group(0) @binding(8) var<storage, read> keys4: array<vec4<u32>>;
@group(0) @binding(9) var<storage, read> keys: array<u32>;

const HEADS_GAPS: bool = false;

fn load_keys(q: u32, n: u32, whole: bool) -> vec4<u32> {
    if (whole) {
        return keys4[q];
    }
    let full = keys4[min(q, max(params.words, 1u) - 1u)];
    var k: vec4<u32>;
    for (var j = 0u; j < 4u; j++) {
        k[j] = select(keys[min(4u * q + j, n - 1u)], full[j], q < params.words);
    }
    return k;
}

// Word q's heads, bit j for element 4q + j (none past n).
fn load_heads(q: u32, n: u32, whole: bool) -> u32 {
    var h: u32;
    if (BYKEY_FLAGS != 0u) {
        let f = keys[min(q, (n - 1u) / 4u)];
        h = select(0u, 1u, (f & 0xFFu) != 0u) | select(0u, 2u, (f & 0xFF00u) != 0u) |
            select(0u, 4u, (f & 0xFF0000u) != 0u) | select(0u, 8u, (f & 0xFF000000u) != 0u);
    } else {
        let k = load_keys(q, n, whole);
        let before = keys[min(max(4u * q, 1u) - 1u, n - 1u)];
        h = select(0u, 1u, k.x != before) | select(0u, 2u, k.y != k.x) | select(0u, 4u, k.z != k.y) |
            select(0u, 8u, k.w != k.z);
    }
    h = h | select(0u, 1u, q == 0u);
    let valid = min(max(n, 4u * q) - 4u * q, 4u); // elements of the word below n
    return h & ((1u << valid) - 1u);
}

fn heads_prepare(lid: u32, t: u32, n: u32) {}

fn tile_marks(q: u32, n: u32, whole: bool) -> u32 {
    return load_heads(q, n, whole);
}

fn input_marks(q: u32, n: u32, whole: bool) -> u32 {
    return load_heads(q, n, whole);
}

fn run_carry() -> bool {
    return has_carry();
}

fn run_carry_value() -> T {
    return carry_value();
}
