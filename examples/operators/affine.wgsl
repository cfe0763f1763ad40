// SPDX-License-Identifier: MIT
// Affine maps x -> a x + b under composition: `then(f, g)` applies f, then g. The scan of
// (a[t], b[t]) solves y[t] = a[t] y[t-1] + b[t] (examples/recurrence.c).
// wgscan-operator: element=Affine combine=then identity=1.0,0.0 reference=affine-f32
struct Affine {
    a: f32,
    b: f32,
}

fn then(f: Affine, g: Affine) -> Affine {
    return Affine(g.a * f.a, g.a * f.b + g.b);
}
