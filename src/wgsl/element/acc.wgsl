// SPDX-License-Identifier: MIT
// acc.wgsl: the value a reduction carries (reduce, segmented reduce): T, and for the
// arg operators (the constant ARG: 0, 1 arg-min, 2 arg-max) the index it came from.
// Ties go to the smaller index. Values are compared through the prelude's order_key
// (floats: wgscan.h "Floats").

const NO_INDEX: u32 = 0xFFFFFFFFu;
const OP_ADD: u32 = 1u;
const OP_MIN: u32 = 2u;
const OP_MAX: u32 = 3u;
const OP_AND: u32 = 4u;
const OP_OR: u32 = 5u;

struct Acc {
    v: T,
    i: u32,
}

fn acc_combine(a: Acc, b: Acc) -> Acc {
    if (ARG == 0u) {
        return Acc(combine(a.v, b.v), 0u);
    }
    // On order_key, not as floats: -0 < +0, NaN wins (any NaN ties with any other), and
    // the value kept is the kept index's own. Selects, not branches: subgroup scans
    // combine with it (docs/design.md, section 3).
    let ka = order_key(a.v);
    let kb = order_key(b.v);
    let take_a = select((OP == OP_MIN) == (ka < kb), a.i < b.i, ka == kb);
    return Acc(select(b.v, a.v, take_a), select(b.i, a.i, take_a));
}
