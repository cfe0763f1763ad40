// SPDX-License-Identifier: MIT
// acc_arg.wgsl: Acc (element/acc.wgsl) for the arg operators (the constant ARG: 1
// arg-min, 2 arg-max): the value kept with its index, ties to the smaller index.
// Values are compared through the prelude's order_key (floats: wgscan.h "Floats").
fn acc_combine(a: Acc, b: Acc) -> Acc {
    // On order_key, not as floats: -0 < +0, NaN wins (any NaN ties with any other), and
    // the value kept is the kept index's own. Selects, not branches: subgroup scans
    // combine with it (docs/design.md, section 3).
    let ka = order_key(a.v);
    let kb = order_key(b.v);
    let take_a = select((OP == OP_MIN) == (ka < kb), a.i < b.i, ka == kb);
    return Acc(select(b.v, a.v, take_a), select(b.i, a.i, take_a));
}
