// SPDX-License-Identifier: MIT
// counts.wgsl: the records and grids of an encode whose element count is in a GPU
// buffer (src/counts.c). One invocation reads the count and walks the encode's
// dispatches in order: each has a record the host computed for the bound (args.n) and
// a rule saying how its n, some of its fields and its grid follow from the count. The
// dispatches then run with these records (as uniforms) and grids (indirect).
//
// Bindings: 0 the count (one u32 at word region[6] of the binding), 3 a second count
// (the segments', at word region[7]), 1 the region: a header, a rule per dispatch
// (host-written), the records and the grids (written here). The layout is counts.c's.

@group(0) @binding(0) var<storage, read> count_in: array<u32>;
@group(0) @binding(3) var<storage, read> second_in: array<u32>;
@group(0) @binding(1) var<storage, read_write> region: array<u32>;

const HEADER_WORDS: u32 = 16u;
const RULE_WORDS: u32 = 32u;

fn div_up(a: u32, b: u32) -> u32 {
    return a / b + select(0u, 1u, a % b != 0u);
}

@compute @workgroup_size(WG)
fn counts_prep(ids: Ids) {
    if (ids.lid != 0u) {
        return;
    }
    let dispatches = region[0];
    let present = region[9];
    let c = select(region[1], min(count_in[region[6]], region[1]), (present & 1u) != 0u);
    let s2 = select(region[8], min(second_in[region[7]], region[8]), (present & 2u) != 0u);
    let rec_base = region[2];
    let grid_base = region[3];
    let stride = region[4];
    let max_dim = region[5];
    for (var d = 0u; d < dispatches; d++) {
        let r = HEADER_WORDS + d * RULE_WORDS;
        var rec: array<u32, 8>;
        for (var k = 0u; k < 8u; k++) {
            rec[k] = region[r + k];
        }
        let first = region[r + 8u];
        let unit = region[r + 9u];
        var n = rec[0];
        if (unit != 0u) {
            n = min(div_up(max(c, first) - first, unit), rec[0]);
            if (n < region[r + 10u]) {
                n = 0u;
            }
            rec[0] = n;
        }
        for (var i = 0u; i < 4u; i++) {
            let o = r + 16u + 4u * i;
            let op = region[o] & 0xFFu;
            let f = (region[o] >> 8u) & 7u;
            let a = region[o + 1u];
            let b = region[o + 2u];
            let t = region[r + f];
            switch op {
                case 1u: { // DIV_UP, at least b
                    rec[f] = min(max(div_up(n, a), b), t);
                }
                case 2u: { // WORDS
                    rec[f] = min(n / a * b, t);
                }
                case 3u: { // SUM of field a over dispatches b .. d - 1
                    var s = 0u;
                    for (var e = b; e < d; e++) {
                        s += region[rec_base + e * stride + a];
                    }
                    rec[f] = s;
                }
                case 4u: { // CLEAR_IF_LE
                    if (n <= a) {
                        rec[f] = t & ~b;
                    }
                }
                case 5u: { // CLEAR_IF_COUNT_LE
                    if (c <= a) {
                        rec[f] = t & ~b;
                    }
                }
                case 6u: { // SECOND
                    rec[f] = min(s2, t);
                }
                default: {}
            }
        }
        for (var k = 0u; k < 8u; k++) {
            region[rec_base + d * stride + k] = rec[k];
        }
        var g = region[r + 12u];
        let per = region[r + 11u];
        if (per != 0u) {
            g = min(max(div_up(n, per), region[r + 13u]), g);
        }
        // Folded into two dimensions as wgs__dispatch folds.
        var x = g;
        var y = 1u;
        if (g > max_dim) {
            y = div_up(g, max_dim);
            x = div_up(g, y);
        }
        region[grid_base + 3u * d] = x;
        region[grid_base + 3u * d + 1u] = y;
        region[grid_base + 3u * d + 2u] = 1u;
    }
}
