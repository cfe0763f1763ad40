// SPDX-License-Identifier: MIT
// u32 addition as a user's operator: the measure of what the operator path costs against
// the built-in add (scripts/gpu-operators.sh). No CPU reference in the tool: run it
// without --verify, or compare its --out with the built-in's.
// wgscan-operator: element=u32 combine=plus identity=0 commutative
fn plus(a: u32, b: u32) -> u32 {
    return a + b;
}
