// SPDX-License-Identifier: MIT
// histogram.wgsl: histogram of even bins over [lower, upper).
//
// A fixed grid of workgroups strides over the array in 16-byte loads (as reduce.wgsl).
// histogram_local counts into workgroup-private bins with workgroup atomics (cheap, and
// contention stays inside one workgroup), then adds each non-zero bin to the global
// histogram: one global atomic per bin per workgroup instead of one per element.
// histogram_global is the path for more bins than workgroup memory holds.
//
// Bins: integers exactly, bin = floor((v - lower) * bins / R), R = upper - lower <= 2^32:
//   mode 1  R / bins is a power of two: a shift
//   mode 2  R is a multiple of bins: one division by the width
//   mode 3  otherwise: an f32 estimate corrected with exact 64-bit products
// f32 (mode 0): bin = floor((v - lower) * scale) in f32, scale = bins / (upper - lower)
// rounded to f32, clamped to the last bin (rounding may reach `bins` just below upper);
// subnormal v and lower count as 0 in that arithmetic. Values outside [lower, upper)
// (NaN and the infinities among them) are not counted.
//
// BIN_MODE (one of BIN_F32, BIN_SHIFT, BIN_DIVIDE, BIN_ESTIMATE: modes 0 to 3 above) and
// LOCAL_BINS (the workgroup-private bins of histogram_local) are constants of the plan:
// each pipeline holds only its own bin rule.
// Bindings: 0 src, 4 src4, 1 hist (u32 per bin).
// Params (src/params.h): n = elements of this chunk, groups = workgroups in this
// dispatch, rule = shift (mode 1) / width (mode 2) / f32 scale bits (modes 0 and 3),
// flags = R's bit 32 << 8, lower = lower's bits, upper = R - 1 (integers) or upper's bits
// (f32), bins, span = R's low 32 bits (integers) or lower's bits, a subnormal as 0 (f32).

@group(0) @binding(0) var<storage, read> src: array<V>;
@group(0) @binding(4) var<storage, read> src4: array<vec4<V>>;
@group(0) @binding(1) var<storage, read_write> hist: array<atomic<u32>>;

const OUTSIDE: u32 = 0xFFFFFFFFu;


var<workgroup> local_bins: array<atomic<u32>, max(LOCAL_BINS, 1u)>;

// a * b as (low, high) words.
fn mul64(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xFFFFu;
    let a1 = a >> 16u;
    let b0 = b & 0xFFFFu;
    let b1 = b >> 16u;
    let p01 = a0 * b1;
    let mid = p01 + a1 * b0;
    let carry_mid = select(0u, 0x10000u, mid < p01);
    let p00 = a0 * b0;
    let lo = p00 + (mid << 16u);
    let hi = a1 * b1 + (mid >> 16u) + carry_mid + select(0u, 1u, lo < p00);
    return vec2<u32>(lo, hi);
}

fn le64(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y || (a.y == b.y && a.x <= b.x);
}

// q * R with R = d + (flags bit 8) * 2^32.
fn times_range(q: u32) -> vec2<u32> {
    var p = mul64(q, params.span);
    p.y += q * ((params.flags >> 8u) & 1u);
    return p;
}

fn bin_of(v: V) -> u32 {
    let mode = BIN_MODE;
    let bins = params.bins;
    if (mode == BIN_F32) {
        // The range test on the bits (predicate.wgsl: exact, and NaN is in no range); the
        // arithmetic on subnormals taken as 0 (the value's, and lower's in Params.d), so a
        // device that flushes them bins alike. The plan's bounds keep t finite in [0, bins].
        let bits = bitcast<u32>(v);
        let k = value_key(bits);
        if (value_is_nan(bits) || k < value_key(params.lower) || k >= value_key(params.upper)) {
            return OUTSIDE;
        }
        let x = select(bitcast<f32>(bits), 0.0, (bits & 0x7F800000u) == 0u);
        let t = (x - bitcast<f32>(params.span)) * bitcast<f32>(params.rule);
        return min(u32(floor(t)), bins - 1u);
    }
    let off = bitcast<u32>(v) - params.lower; // wraps below lower: then > R - 1
    if (off > params.upper) {
        return OUTSIDE;
    }
    if (mode == BIN_SHIFT) {
        let s = params.rule; // up to 32: shift in two steps
        return (off >> (s / 2u)) >> (s - s / 2u);
    }
    if (mode == BIN_DIVIDE) {
        return off / params.rule;
    }
    // floor(off * bins / R): off * bins <= 2^53 and q * R too; the f32 estimate is off
    // by a step or two at most, the exact products settle it.
    var q = min(u32(f32(off) * bitcast<f32>(params.rule)), bins - 1u);
    let goal = mul64(off, bins);
    loop {
        if (q == 0u || le64(times_range(q), goal)) {
            break;
        }
        q -= 1u;
    }
    loop {
        if (q + 1u >= bins || !le64(times_range(q + 1u), goal)) {
            break;
        }
        q += 1u;
    }
    return q;
}

fn count_local(v: V) {
    let b = bin_of(v);
    if (b != OUTSIDE) {
        atomicAdd(&local_bins[b], 1u);
    }
}

fn count_global(v: V) {
    let b = bin_of(v);
    if (b != OUTSIDE) {
        atomicAdd(&hist[b], 1u);
    }
}

@compute @workgroup_size(WG)
fn histogram_local(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                   @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = tile_index(wid, nwg);
    if (g >= params.groups) { // a folded grid's spare workgroups: the stride is params.groups
        return;
    }
    let bins = params.bins;
    for (var i = ids.lid; i < bins; i += WG) {
        atomicStore(&local_bins[i], 0u);
    }
    workgroupBarrier();
    let n = params.n;
    let n4 = n / 4u;
    let step = params.groups * WG * ITEMS;
    for (var base = g * WG * ITEMS + ids.lid; base < n4; base += step) {
        var x: array<vec4<V>, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) {
            if (base + k * WG < n4) {
                x[k] = src4[base + k * WG];
            }
        }
        for (var k = 0u; k < ITEMS; k++) {
            if (base + k * WG < n4) {
                count_local(x[k].x);
                count_local(x[k].y);
                count_local(x[k].z);
                count_local(x[k].w);
            }
        }
    }
    let tail = 4u * n4 + ids.lid;
    if (g == 0u && tail < n) {
        count_local(src[tail]);
    }
    workgroupBarrier();
    for (var i = ids.lid; i < bins; i += WG) {
        let c = atomicLoad(&local_bins[i]);
        if (c != 0u) {
            atomicAdd(&hist[i], c);
        }
    }
}

@compute @workgroup_size(WG)
fn histogram_global(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = tile_index(wid, nwg);
    if (g >= params.groups) { // a folded grid's spare workgroups: the stride is params.groups
        return;
    }
    let n = params.n;
    let n4 = n / 4u;
    for (var i = g * WG + ids.lid; i < n4; i += params.groups * WG) {
        let x = src4[i];
        count_global(x.x);
        count_global(x.y);
        count_global(x.z);
        count_global(x.w);
    }
    let tail = 4u * n4 + ids.lid;
    if (g == 0u && tail < n) {
        count_global(src[tail]);
    }
}

// Zeroes params.bins bins.
@compute @workgroup_size(WG)
fn histogram_clear(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                   @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = tile_index(wid, nwg) * WG + ids.lid;
    if (i < params.bins) {
        atomicStore(&hist[i], 0u);
    }
}
