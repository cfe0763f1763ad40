// SPDX-License-Identifier: MIT
// lift_count.wgsl: count: each element enters the reduction as 1 when it satisfies the
// predicate of the dispatch (kind in Params.flags bits 8..11), else 0 (T = u32).
fn lift(v: V) -> T {
    return select(0u, 1u, predicate((params.flags >> 8u) & 15u, v, params.pred_a, params.pred_b));
}
