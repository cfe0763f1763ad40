// SPDX-License-Identifier: MIT
// lift_value.wgsl: reduce: each element enters the reduction as it is (T = V).
fn lift(v: V) -> T {
    return v;
}
