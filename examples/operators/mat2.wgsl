// SPDX-License-Identifier: MIT
// 2x2 u32 matrices (a b; c d), multiplied in order (wrapping): running products.
// wgscan-operator: element=Mat2 combine=mul identity=1,0,0,1 reference=mat2-u32
struct Mat2 {
    a: u32,
    b: u32,
    c: u32,
    d: u32,
}

fn mul(x: Mat2, y: Mat2) -> Mat2 {
    return Mat2(x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d,
                x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d);
}
