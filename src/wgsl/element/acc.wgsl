// SPDX-License-Identifier: MIT
// acc.wgsl: the value a reduction carries (reduce, segmented reduce, the segmented
// scans): T, and for the arg operators the index it came from. How two combine is a
// file of its own, chosen by the plan: acc_value.wgsl (the operator alone, a user's
// included) or acc_arg.wgsl (arg-min and arg-max, which need the built-ins' order_key).

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
