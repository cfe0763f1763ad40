// SPDX-License-Identifier: MIT
// acc_value.wgsl: Acc (element/acc.wgsl) combined by the operator; the index is not
// kept (ARG is 0). `a` is the earlier part of the input.
fn acc_combine(a: Acc, b: Acc) -> Acc {
    return Acc(combine(a.v, b.v), 0u);
}
