// SPDX-License-Identifier: MIT
// scan_carry.wgsl: a scan's carry-in (wgs_scan_args.init_value / init_buffer): the value
// the scan starts from, combined into each tile's prefix by the kernels that write the
// data (scan_single_pass, scan_tiles at level 0), and into the first run by the scan by
// key (device/scan_by_key.wgsl). Records with FLAG_CARRY hold it in
// carry_bits (a user's element of several words: in a record of its own, bound at 7),
// or with FLAG_CARRY_BUFFER leave it in binding 6 (one element, f16 in the word's low
// half); other records start from the identity.

@group(0) @binding(6) var<storage, read> carry_in: array<u32>;

fn has_carry() -> bool {
    return (params.flags & FLAG_CARRY) != 0u;
}

// The carry itself (meaningful where has_carry()): ELEMENT_WORDS words, from the record
// (carry_bits; an element of several words: carry_words(), the prelude's) or the
// buffer.
fn carry_value() -> T {
    var w = vec4<u32>(params.carry_bits, 0u, 0u, 0u);
    if (ELEMENT_WORDS > 1u) {
        w = carry_words();
    }
    if ((params.flags & FLAG_CARRY_BUFFER) != 0u) {
        for (var k = 0u; k < ELEMENT_WORDS; k++) {
            w[k] = carry_in[k];
        }
    }
    return from_words(w);
}

fn with_carry(prefix: T) -> T {
    if (!has_carry()) {
        return prefix;
    }
    return combine(carry_value(), prefix);
}
