// select.wgsl: stream compaction (select, partition, unique, run-length encoding) in
// three steps that never wait on another workgroup:
//   select_count    each tile counts its selected elements into tile_sums
//   (scan)          tile_sums scanned inclusively in place (the scan plan)
//   select_scatter  each tile ranks its selected elements with workgroup scans, stages
//                   them in workgroup memory in order and writes them out as one
//                   contiguous, coalesced run at its prefix; a partition writes the
//                   rejected ones after all selected ones, in order as well
// With byte flags the first step reads a quarter of the data, so the whole costs about
// one read and one write of the selected data, like a copy.
//
// An invocation takes 4 consecutive elements per step (one 16-byte load, one word of
// byte flags), a workgroup WG * 4 of them per step, ITEMS / 4 steps per tile; both
// passes number the elements of a tile the same way, (step, invocation, lane).
//
// Bindings: 0 src (array<V>), 4 src4 (the same range as vec4), 5 flags (byte flags, 4 per
// word), 1 out, 3 tile_sums, 6 pay_in, 7 pay_out, 8 count_out (u32: elements selected).
// Params: n, flags (mode in bits 0..3, FLAG_* below, predicate kind in bits 8..11),
// a, b = predicate operands, d = tiles in all.

@group(0) @binding(0) var<storage, read> src: array<V>;
@group(0) @binding(4) var<storage, read> src4: array<vec4<V>>;
@group(0) @binding(5) var<storage, read> sel_flags: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<V>;
@group(0) @binding(3) var<storage, read_write> tile_sums: array<u32>;
@group(0) @binding(6) var<storage, read> pay_in: array<u32>;
@group(0) @binding(7) var<storage, read_write> pay_out: array<u32>;
@group(0) @binding(8) var<storage, read_write> count_out: array<u32>;

const MODE_FLAGGED: u32 = 1u;
const MODE_IF: u32 = 2u;
const MODE_HEADS: u32 = 3u; // x[i] != x[i - 1], and x[0]
const FLAG_PARTITION: u32 = 16u;
const FLAG_PAYLOAD: u32 = 32u;
const FLAG_PAYLOAD_INDEX: u32 = 64u;
const STEPS: u32 = ITEMS / 4u;

var<workgroup> stage: array<u32, TILE>;

// The 4 elements 4q .. 4q+3 (those at or past n are never used).
fn load4(q: u32, n: u32) -> vec4<V> {
    if (4u * q + 3u < n) {
        return src4[q];
    }
    var x: vec4<V>;
    for (var j = 0u; j < 4u; j++) {
        if (4u * q + j < n) {
            x[j] = src[4u * q + j];
        }
    }
    return x;
}

// Bit j set when element 4q + j (< n) is selected.
fn select_mask(q: u32, n: u32) -> u32 {
    let mode = params.flags & 15u;
    var m = 0u;
    if (mode == MODE_FLAGGED) {
        let w = sel_flags[q];
        for (var j = 0u; j < 4u; j++) {
            if (((w >> (8u * j)) & 255u) != 0u) {
                m |= 1u << j;
            }
        }
    } else {
        let x = load4(q, n);
        if (mode == MODE_IF) {
            let kind = (params.flags >> 8u) & 15u;
            for (var j = 0u; j < 4u; j++) {
                if (predicate(kind, x[j])) {
                    m |= 1u << j;
                }
            }
        } else {
            var prev: V;
            if (q > 0u) {
                prev = src[4u * q - 1u];
            }
            for (var j = 0u; j < 4u; j++) {
                if ((q == 0u && j == 0u) || x[j] != prev) {
                    m |= 1u << j;
                }
                prev = x[j];
            }
        }
    }
    let valid = min(n - min(n, 4u * q), 4u);
    return m & ((1u << valid) - 1u);
}

@compute @workgroup_size(WG)
fn select_count(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = tile_index(wid, nwg);
    if (t >= params.d) {
        return; // past the last tile of a folded grid (workgroup-uniform)
    }
    let n = params.n;
    var c = 0u;
    for (var s = 0u; s < STEPS; s++) {
        let q = t * (TILE / 4u) + s * WG + ids.lid;
        if (4u * q < n) {
            c += countOneBits(select_mask(q, n));
        }
    }
    workgroup_exclusive_scan(ids, c, 0u);
    if (ids.lid == 0u) {
        tile_sums[t] = wg_total;
    }
}

// Stages one word per element of the tile: selected ones at their rank, rejected ones
// (partitions) after all selected ones; `what` 0: the values, 1: the payloads.
fn stage_tile(t: u32, n: u32, lid: u32, masks: array<u32, STEPS>, pos: array<u32, STEPS>,
              tile_sel: u32, what: u32) {
    let is_partition = (params.flags & FLAG_PARTITION) != 0u;
    for (var s = 0u; s < STEPS; s++) {
        let q = t * (TILE / 4u) + s * WG + lid;
        if (4u * q >= n) {
            continue;
        }
        var words: vec4<u32>;
        if (what == 0u) {
            words = bitcast<vec4<u32>>(load4(q, n));
        } else if ((params.flags & FLAG_PAYLOAD_INDEX) != 0u) {
            words = vec4<u32>(4u * q, 4u * q + 1u, 4u * q + 2u, 4u * q + 3u);
        } else {
            for (var j = 0u; j < 4u; j++) {
                if (4u * q + j < n) {
                    words[j] = pay_in[4u * q + j];
                }
            }
        }
        let m = masks[s];
        for (var j = 0u; j < 4u; j++) {
            if (4u * q + j >= n) {
                break;
            }
            let sel_before = pos[s] + countOneBits(m & ((1u << j) - 1u));
            if ((m & (1u << j)) != 0u) {
                stage[sel_before] = words[j];
            } else if (is_partition) {
                let local = s * WG * 4u + lid * 4u + j;
                stage[tile_sel + local - sel_before] = words[j];
            }
        }
    }
}

@compute @workgroup_size(WG)
fn select_scatter(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                  @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = tile_index(wid, nwg);
    if (t >= params.d) {
        return;
    }
    let n = params.n;
    let lid = ids.lid;
    let incl = tile_sums[t];
    var prefix = 0u;
    if (t > 0u) {
        prefix = tile_sums[t - 1u];
    }
    // Ranks: one workgroup scan of per-invocation counts per step.
    var masks: array<u32, STEPS>;
    var pos: array<u32, STEPS>;
    var running = 0u;
    for (var s = 0u; s < STEPS; s++) {
        let q = t * (TILE / 4u) + s * WG + lid;
        var m = 0u;
        if (4u * q < n) {
            m = select_mask(q, n);
        }
        masks[s] = m;
        pos[s] = running + workgroup_exclusive_scan(ids, countOneBits(m), 0u);
        running += wg_total;
        workgroupBarrier(); // wg_total is rewritten by the next step's scan
    }
    let tile_sel = incl - prefix;
    let tile_start = t * TILE;
    let tile_len = min(TILE, n - tile_start);
    let total = tile_sums[params.d - 1u];
    let is_partition = (params.flags & FLAG_PARTITION) != 0u;
    let rejected_base = total + tile_start - prefix;
    let words = select(tile_sel, tile_len, is_partition);

    stage_tile(t, n, lid, masks, pos, tile_sel, 0u);
    workgroupBarrier();
    for (var i = lid; i < words; i += WG) {
        let at = select(rejected_base + i - tile_sel, prefix + i, i < tile_sel);
        out[at] = bitcast<V>(stage[i]);
    }
    if ((params.flags & (FLAG_PAYLOAD | FLAG_PAYLOAD_INDEX)) != 0u) {
        workgroupBarrier();
        stage_tile(t, n, lid, masks, pos, tile_sel, 1u);
        workgroupBarrier();
        for (var i = lid; i < words; i += WG) {
            let at = select(rejected_base + i - tile_sel, prefix + i, i < tile_sel);
            pay_out[at] = stage[i];
        }
    }
    if (t == params.d - 1u && lid == 0u) {
        count_out[0] = total;
    }
}

// Run lengths from run starts: pay_in holds the start index of each run (count_out[0]
// of them), pay_out receives start[j + 1] - start[j] (n - start[j] for the last).
@compute @workgroup_size(WG)
fn run_lengths(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let j = tile_index(wid, nwg) * WG + ids.lid;
    let runs = count_out[0];
    if (j < runs) {
        var next = params.n;
        if (j + 1u < runs) {
            next = pay_in[j + 1u];
        }
        pay_out[j] = next - pay_in[j];
    }
}

// n = 0: no tile runs, but the count must still say 0.
@compute @workgroup_size(1)
fn select_empty() {
    count_out[0] = 0u;
}
