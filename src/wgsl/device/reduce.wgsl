// SPDX-License-Identifier: MIT
// reduce.wgsl: device-wide reduction (and counting, through lift()) of a V array.
//
// A fixed grid of workgroups (Params.groups of them) strides over the array in 16-byte loads,
// ITEMS of them in flight per invocation, each invocation folding what it loads into
// one running value. A workgroup then reduces its invocations' values in a tree in
// workgroup memory, and hands the result on in one of two ways:
//   tree    it writes a partial; reduce_final reduces the partials in a fixed order, so
//           the same input gives the same bits on every run (floats included);
//   atomic  it merges the result into one global accumulator with a single atomic (the
//           two-level scheme: workgroup first, then one global atomic per workgroup).
// count_per_element does what the two-level scheme avoids, one global atomic per
// counted element, so the benchmark can show what contention costs.
//
// Arg-min / arg-max carry the index of the value (element/acc.wgsl, with the workgroup
// tree of workgroup/reduce_tree.wgsl).
//
// Bindings: 0 src (array<V>, for the n % 4 tail), 4 src4 (the same range as vec4), 3
// partials (value bits, index per partial), 1 out (value bits[, index]), 5 acc (atomic
// accumulator: word 0, and word 1 for the fixed-point high half).
// Params (src/params.h): n = elements of this chunk, tile_base = its first partial,
// identity_bits, flags (FLAG_FIXED_POINT: f32 sums in fixed point; bits 8..11 the
// predicate; bits 16..23 fraction bits), pred_a and pred_b = the predicate's operands,
// first = global index of the chunk's first element, groups = workgroups in this
// dispatch (partials it writes). ARG (a constant): 0, or 1 arg-min, 2 arg-max.

@group(0) @binding(0) var<storage, read> src: array<V>;
@group(0) @binding(4) var<storage, read> src4: array<vec4<V>>;
@group(0) @binding(3) var<storage, read_write> partials: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(5) var<storage, read_write> acc: array<atomic<u32>>;

// This invocation's fold over its share of the chunk.
fn fold_chunk(lid: u32, g: u32, ident: T) -> Acc {
    var r = Acc(ident, NO_INDEX);
    let n = params.n;
    let n4 = n / 4u;
    let step = params.groups * WG * ITEMS;
    for (var base = g * WG * ITEMS + lid; base < n4; base += step) {
        var x: array<vec4<V>, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) {
            let i = base + k * WG;
            if (i < n4) {
                x[k] = src4[i];
            }
        }
        for (var k = 0u; k < ITEMS; k++) {
            let i = base + k * WG;
            if (i < n4) {
                let e = params.first + 4u * i;
                r = acc_combine(r, Acc(lift(x[k].x), e));
                r = acc_combine(r, Acc(lift(x[k].y), e + 1u));
                r = acc_combine(r, Acc(lift(x[k].z), e + 2u));
                r = acc_combine(r, Acc(lift(x[k].w), e + 3u));
            }
        }
    }
    let tail = 4u * n4 + lid;
    if (g == 0u && tail < n) {
        r = acc_combine(r, Acc(lift(src[tail]), params.first + tail));
    }
    return r;
}

// Order-preserving map of T to u32 keys, so atomicMin/atomicMax on u32 order any type
// (the prelude's order_key: a NaN becomes the operator's extreme key and decodes to a NaN).
fn to_key(v: T) -> u32 {
    return order_key(v);
}

fn from_key(k: u32) -> T {
    if (TKIND == 1u) {
        return from_bits(k ^ 0x80000000u);
    }
    if (TKIND == 2u) {
        return from_bits(select(~k, k & 0x7FFFFFFFu, (k & 0x80000000u) != 0u));
    }
    return from_bits(k);
}

// Fixed point: a workgroup's f32 sum rounded to a multiple of 2^-frac, as a 64-bit two's
// complement integer (lo, hi). Exact in f32: the magnitude is split at 2^32 after rounding.
fn to_fixed(v: f32, frac: u32) -> vec2<u32> {
    let s = round(ldexp(v, i32(frac)));
    let m = abs(s);
    let hi_f = floor(ldexp(m, -32));
    var lo = u32(m - ldexp(hi_f, 32));
    var hi = u32(hi_f);
    if (s < 0.0) {
        lo = ~lo + 1u;
        hi = ~hi + select(0u, 1u, lo == 0u);
    }
    return vec2<u32>(lo, hi);
}

fn from_fixed(lo_in: u32, hi_in: u32, frac: u32) -> f32 {
    var lo = lo_in;
    var hi = hi_in;
    let negative = (hi & 0x80000000u) != 0u;
    if (negative) {
        lo = ~lo + 1u;
        hi = ~hi + select(0u, 1u, lo == 0u);
    }
    let m = ldexp(f32(hi), 32 - i32(frac)) + ldexp(f32(lo), -i32(frac));
    return select(m, -m, negative);
}

// One workgroup's result into the global accumulator: one atomic (a short loop for f32
// sums through compare-exchange, two atomics for the fixed-point carry).
fn merge_atomic(v: T) {
    if (OP == OP_ADD && TKIND == 2u) {
        if ((params.flags & FLAG_FIXED_POINT) != 0u) {
            let f = to_fixed(f32(v), (params.flags >> 16u) & 255u);
            let old = atomicAdd(&acc[0], f.x);
            // A carry out of the low word happened exactly when the sum wrapped.
            let carry = select(0u, 1u, old + f.x < old);
            atomicAdd(&acc[1], f.y + carry);
            return;
        }
        var old = atomicLoad(&acc[0]);
        loop {
            let r = atomicCompareExchangeWeak(&acc[0], old, to_bits(from_bits(old) + v));
            if (r.exchanged) {
                break;
            }
            old = r.old_value;
        }
        return;
    }
    switch OP {
        case 1u: { atomicAdd(&acc[0], to_bits(v)); }
        case 2u: { atomicMin(&acc[0], to_key(v)); }
        case 3u: { atomicMax(&acc[0], to_key(v)); }
        case 4u: { atomicAnd(&acc[0], to_bits(v)); }
        case 5u: { atomicOr(&acc[0], to_bits(v)); }
        default: { atomicXor(&acc[0], to_bits(v)); }
    }
}

@compute @workgroup_size(WG)
fn reduce_partials(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                   @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = tile_index(wid, nwg);
    if (g >= params.groups) { // a folded grid's spare workgroups: the stride is params.groups
        return;
    }
    let r = workgroup_reduce(ids.lid, fold_chunk(ids.lid, g, identity_from_bits(params.identity_bits)));
    if (ids.lid == 0u) {
        partials[2u * (params.tile_base + g)] = to_bits(r.v);
        partials[2u * (params.tile_base + g) + 1u] = r.i;
    }
}

@compute @workgroup_size(WG)
fn reduce_atomic(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = tile_index(wid, nwg);
    if (g >= params.groups) { // a folded grid's spare workgroups: the stride is params.groups
        return;
    }
    let r = workgroup_reduce(ids.lid, fold_chunk(ids.lid, g, identity_from_bits(params.identity_bits)));
    if (ids.lid == 0u) {
        merge_atomic(r.v);
    }
}

// One atomic per counted element (count plans only: T = u32 add).
@compute @workgroup_size(WG)
fn count_per_element(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                     @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = tile_index(wid, nwg);
    if (g >= params.groups) { // a folded grid's spare workgroups: the stride is params.groups
        return;
    }
    let n = params.n;
    let n4 = n / 4u;
    for (var i = g * WG + ids.lid; i < n4; i += params.groups * WG) {
        let x = src4[i];
        for (var j = 0u; j < 4u; j++) {
            if (lift(x[j]) != T(0)) {
                atomicAdd(&acc[0], 1u);
            }
        }
    }
    let tail = 4u * n4 + ids.lid;
    if (g == 0u && tail < n && lift(src[tail]) != T(0)) {
        atomicAdd(&acc[0], 1u);
    }
}

// The partials (Params.n of them), in a fixed order, into out.
@compute @workgroup_size(WG)
fn reduce_final(ids: Ids) {
    var r = Acc(identity_from_bits(params.identity_bits), NO_INDEX);
    for (var i = ids.lid; i < params.n; i += WG) {
        r = acc_combine(r, Acc(from_bits(partials[2u * i]), partials[2u * i + 1u]));
    }
    r = workgroup_reduce(ids.lid, r);
    if (ids.lid == 0u) {
        out[0] = to_bits(r.v);
        if (ARG != 0u) {
            out[1] = r.i;
        }
    }
}

// The accumulator's starting value: the identity (as a key for min and max).
@compute @workgroup_size(1)
fn reduce_atomic_init() {
    let ident = identity_from_bits(params.identity_bits);
    var w = to_bits(ident);
    if (OP == OP_MIN || OP == OP_MAX) {
        w = to_key(ident);
    }
    if ((params.flags & FLAG_FIXED_POINT) != 0u) {
        w = 0u;
    }
    atomicStore(&acc[0], w);
    atomicStore(&acc[1], 0u);
}

// The accumulator, decoded, into out.
@compute @workgroup_size(1)
fn reduce_atomic_finish() {
    let w = atomicLoad(&acc[0]);
    var bits = w;
    if (OP == OP_MIN || OP == OP_MAX) {
        bits = to_bits(from_key(w));
    }
    if ((params.flags & FLAG_FIXED_POINT) != 0u) {
        bits = to_bits(T(from_fixed(w, atomicLoad(&acc[1]), (params.flags >> 16u) & 255u)));
    }
    out[0] = bits;
}
