// predicate.wgsl: the built-in predicates of count and select, on one element of type V.
// The kind comes from the dispatch's parameters (a uniform switch costs next to nothing
// against a memory-bound loop, and spares a pipeline per predicate); the operands are
// V's bit patterns in Params.a and Params.b.

const PRED_NONZERO: u32 = 1u;
const PRED_EQUAL: u32 = 2u;
const PRED_NOT_EQUAL: u32 = 3u;
const PRED_LESS: u32 = 4u;
const PRED_GREATER: u32 = 5u;
const PRED_IN_RANGE: u32 = 6u; // a <= v < b

fn predicate(kind: u32, v: V) -> bool {
    let a = bitcast<V>(params.a);
    let b = bitcast<V>(params.b);
    switch kind {
        case 2u: { return v == a; }
        case 3u: { return v != a; }
        case 4u: { return v < a; }
        case 5u: { return v > a; }
        case 6u: { return v >= a && v < b; }
        default: { return v != V(0); }
    }
}
