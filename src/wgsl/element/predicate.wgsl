// SPDX-License-Identifier: MIT
// predicate.wgsl: the built-in predicates of count and select, on one element of type V,
// and the value equality of unique and run-length heads.
// The kind comes from the dispatch's parameters (a uniform switch costs next to nothing
// against a memory-bound loop, and spares a pipeline per predicate); the operands a and
// b are V's bit patterns (the caller's Params.pred_a and pred_b).
//
// f32 is compared on its bit patterns, never as floats: WGSL lets a device flush
// subnormals to zero and assume that no NaN occurs, and SwiftShader does both, so float
// comparisons would answer differently per device. On the bits the answer is IEEE 754's
// everywhere (see wgscan.h, "Floats"): NaN is unordered (==, <, >, range false; != true),
// -0 equals +0, subnormals compare as the values they are.

// The kinds (PRED_*) are constants of the prelude, from the public enum (src/params.h);
// IN_RANGE is a <= v < b.

fn value_is_nan(bits: u32) -> bool {
    return VKIND == 2u && (bits & 0x7FFFFFFFu) > 0x7F800000u;
}

// A u32 that orders as V's values do (NaN excepted): integers as they are (i32 with the
// sign flipped); f32 with every bit of a negative flipped and the sign of a positive set,
// -0 first made +0 so that the two zeros are one key.
fn value_key(bits: u32) -> u32 {
    if (VKIND == 0u) {
        return bits;
    }
    if (VKIND == 1u) {
        return bits ^ 0x80000000u;
    }
    let b = select(bits, 0u, bits == 0x80000000u);
    return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}

// x == y as IEEE 754 has it (for integers: the same bits).
fn values_equal(x: V, y: V) -> bool {
    let bx = bitcast<u32>(x);
    let by = bitcast<u32>(y);
    return !value_is_nan(bx) && !value_is_nan(by) && value_key(bx) == value_key(by);
}

fn predicate(kind: u32, v: V, a: u32, b: u32) -> bool {
    let x = bitcast<u32>(v);
    if (kind == PRED_EQUAL || kind == PRED_NOT_EQUAL || kind == PRED_LESS || kind == PRED_GREATER ||
        kind == PRED_IN_RANGE) {
        let unordered = value_is_nan(x) || value_is_nan(a) ||
                        (kind == PRED_IN_RANGE && value_is_nan(b));
        let k = value_key(x);
        let ka = value_key(a);
        var r: bool;
        switch kind {
            case 2u: { r = k == ka; }
            case 3u: { return unordered || k != ka; }
            case 4u: { r = k < ka; }
            case 5u: { r = k > ka; }
            default: { r = ka <= k && k < value_key(b); }
        }
        return r && !unordered;
    }
    // Non-zero: any bits but a zero's (f32: either sign); NaN is non-zero.
    return select(x, x & 0x7FFFFFFFu, VKIND == 2u) != 0u;
}
