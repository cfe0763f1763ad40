// SPDX-License-Identifier: MIT
// sort_lab.wgsl: a radix sort scatter tile for bench/lab/lab.c, stripped to the bone, to
// find what a digit pass's tile costs (docs/design.md, the sort's section). The digit is
// the key's low byte; the run of each (group, digit) starts where a uniform key
// distribution would put it, so the writes have the real pass's shape (runs of about
// TILE / 256 keys) without a count pass (the output is a timing artefact, not sorted).
// Each workgroup takes GT tiles of WG * ITEMS keys in turn, subgroups of SGW (32) own
// strips of ITEMS rows as workgroup/sort_tile.wgsl's owners do. STAGE sets how much is
// done:
//   1  the keys into registers and out again (the access pattern's copy)
//   2  + through workgroup memory in tile order (a barrier, no ranking)
//   3  + ranked by ballots, digit totals, owners' starts, placed in digit order, written
//        back to the tile's own place (coalesced)
//   4  + written to the digits' runs (the real pass's writes)
// RANK (with STAGE >= 3): 1 a round at a time (as workgroup/rank_subgroup.wgsl), 0 no
// ranking (rank = round), 2 the ballots without the counters, 4 in three sweeps (every
// round's ballots, then the counters, then the shuffles). TOT 0: no digit totals, scan
// or owners' starts (timing only). RANK 5 and 6: RANK 4's sweeps in a function, the keys
// passed by pointer to a struct (5) or in module-scope private arrays (6). PEERS 1: their
// peers as the complement of an OR of (ballot XOR the lane's bit spread to a word).
// SGC 1: the subgroup size is the constant SGW (0: the builtin, as the library's code);
// SGW (32) also sets the owners' strips and the scan's subgroup sums, so SGW 4 with
// WG 32 runs the same pass on SwiftShader (bench/lab/tint-vs-glslang.sh; bench/lab/
// sort_tile.comp is this pass's default path in GLSL).
// ROOM 1: the keys staged in the counters' room (atomic words, as the library's tile:
// each key's place completed in registers first, a barrier, then the keys move in);
// 0: in an array of plain words of their own.
// n must be a multiple of WG * ITEMS; WG divides 256.
enable subgroups;
//DEFINES
//DEFAULT WG=256
//DEFAULT ITEMS=8
//DEFAULT GT=16
//DEFAULT STAGE=4
//DEFAULT SGC=1
//DEFAULT SGW=32
//DEFAULT RANK=1
//DEFAULT TOT=1
//DEFAULT PEERS=0
//DEFAULT ROOM=0

struct Params { n: u32, a: u32, b: u32, c: u32, d: u32, e: u32, f: u32, g: u32 }
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;
@group(0) @binding(3) var<storage, read_write> aux: array<u32>;

const TILE: u32 = WG * ITEMS;
const OWNERS: u32 = WG / SGW;
const DPI: u32 = 256u / WG; // digits an invocation sums and scans

// per owner and digit (with ROOM 1, then the staged keys)
var<workgroup> counts: array<atomic<u32>, select(OWNERS * 256u, max(OWNERS * 256u, TILE), ROOM == 1u)>;
var<workgroup> digit_start: array<u32, 256>;
var<workgroup> digit_total: array<u32, 256>;
var<workgroup> run_base: array<u32, 256>;
var<workgroup> tile_keys: array<u32, select(TILE, 1u, ROOM == 1u)>;
var<workgroup> sg_sums: array<u32, OWNERS>;

// Exclusive sum over the workgroup (subgroups of SGW); a barrier is due before the next
// call.
fn wg_exclusive(lid: u32, lane: u32, x: u32) -> u32 {
    let incl = subgroupInclusiveAdd(x);
    if (lane == SGW - 1u) {
        sg_sums[lid / SGW] = incl;
    }
    workgroupBarrier();
    var base = 0u;
    for (var i = 0u; i < lid / SGW; i++) {
        base += sg_sums[i];
    }
    return base + incl - x;
}

struct Held {
    keys: array<u32, ITEMS>,
    rank: array<u32, ITEMS>,
}
var<private> pkeys: array<u32, ITEMS>;
var<private> prank: array<u32, ITEMS>;

fn peers_of(d: u32) -> u32 {
    if (PEERS == 1u) {
        var differ = 0u;
        for (var b = 0u; b < 8u; b++) {
            let bal = subgroupBallot(((d >> b) & 1u) != 0u).x;
            differ |= bal ^ bitcast<u32>(extractBits(bitcast<i32>(d), b, 1u));
        }
        return ~differ & subgroupBallot(true).x;
    }
    var peers = subgroupBallot(true).x;
    for (var b = 0u; b < 8u; b++) {
        let one = ((d >> b) & 1u) != 0u;
        let bal = subgroupBallot(one).x;
        peers &= select(~bal, bal, one);
    }
    return peers;
}

fn rank_ptr(h: ptr<function, Held>, owner: u32, lane: u32) {
    var lead: array<u32, ITEMS>;
    for (var r = 0u; r < ITEMS; r++) {
        let peers = peers_of((*h).keys[r] & 255u);
        (*h).rank[r] = countOneBits(peers & ((1u << lane) - 1u));
        lead[r] = firstTrailingBit(peers) | (countOneBits(peers) << 8u);
    }
    for (var r = 0u; r < ITEMS; r++) {
        if ((*h).rank[r] == 0u) {
            let old = atomicAdd(&counts[owner * 256u + ((*h).keys[r] & 255u)], lead[r] >> 8u);
            lead[r] = (lead[r] & 255u) | (old << 8u);
        }
    }
    for (var r = 0u; r < ITEMS; r++) {
        (*h).rank[r] += subgroupShuffle(lead[r], lead[r] & 255u) >> 8u;
    }
}

fn rank_private(owner: u32, lane: u32) {
    var lead: array<u32, ITEMS>;
    for (var r = 0u; r < ITEMS; r++) {
        let peers = peers_of(pkeys[r] & 255u);
        prank[r] = countOneBits(peers & ((1u << lane) - 1u));
        lead[r] = firstTrailingBit(peers) | (countOneBits(peers) << 8u);
    }
    for (var r = 0u; r < ITEMS; r++) {
        if (prank[r] == 0u) {
            let old = atomicAdd(&counts[owner * 256u + (pkeys[r] & 255u)], lead[r] >> 8u);
            lead[r] = (lead[r] & 255u) | (old << 8u);
        }
    }
    for (var r = 0u; r < ITEMS; r++) {
        prank[r] += subgroupShuffle(lead[r], lead[r] & 255u) >> 8u;
    }
}

@compute @workgroup_size(WG)
fn tile_pass(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>, @builtin(subgroup_invocation_id) lane_in: u32,
             @builtin(subgroup_size) sgs: u32) {
    let g = wid.x + wid.y * nwg.x;
    let n = params.n;
    let tiles = n / TILE;
    let groups = (tiles + GT - 1u) / GT;
    if (g >= groups) {
        return;
    }
    if (n == 0xFFFFFFFFu) { // never: aux is bound and must be used
        aux[0] = 1u;
    }
    let osz = select(sgs, SGW, SGC == 1u);
    let owner = lid / osz;
    let lane = select(lane_in, lid & (SGW - 1u), SGC == 1u);
    for (var d = lid; d < 256u; d += WG) {
        run_base[d] = d * (n / 256u) + g * GT * (TILE / 256u);
    }
    for (var t = 0u; t < GT; t++) {
        let tile = g * GT + t;
        if (tile >= tiles) {
            break;
        }
        let first = tile * TILE;
        let strip = owner * osz * ITEMS + lane;
        var keys: array<u32, ITEMS>;
        var rank: array<u32, ITEMS>;
        for (var r = 0u; r < ITEMS; r++) {
            keys[r] = src[first + strip + r * osz];
        }
        if (STAGE == 1u) {
            for (var r = 0u; r < ITEMS; r++) {
                dst[first + strip + r * osz] = keys[r] + 1u;
            }
            continue;
        }
        if (STAGE == 2u) {
            for (var r = 0u; r < ITEMS; r++) {
                tile_keys[strip + r * osz] = keys[r];
            }
            workgroupBarrier();
            for (var k = 0u; k < ITEMS; k++) {
                dst[first + k * WG + lid] = tile_keys[k * WG + lid] + 1u;
            }
            workgroupBarrier();
            continue;
        }
        for (var i = lid; i < OWNERS * 256u; i += WG) {
            atomicStore(&counts[i], 0u);
        }
        workgroupBarrier();
        var lead: array<u32, ITEMS>;
        if (RANK == 5u) {
            var h: Held;
            h.keys = keys;
            rank_ptr(&h, owner, lane);
            rank = h.rank;
        } else if (RANK == 6u) {
            pkeys = keys;
            rank_private(owner, lane);
            rank = prank;
        }
        for (var r = 0u; r < ITEMS; r++) {
            if (RANK == 0u || RANK >= 5u) {
                if (RANK == 0u) {
                    rank[r] = r;
                }
                continue;
            }
            let d = keys[r] & 255u;
            var peers = subgroupBallot(true).x;
            for (var b = 0u; b < 8u; b++) {
                let one = ((d >> b) & 1u) != 0u;
                let bal = subgroupBallot(one).x;
                peers &= select(~bal, bal, one);
            }
            let before = countOneBits(peers & ((1u << lane) - 1u));
            if (RANK == 2u) {
                rank[r] = before + firstTrailingBit(peers);
                continue;
            }
            if (RANK == 4u) {
                rank[r] = before;
                lead[r] = firstTrailingBit(peers) | (countOneBits(peers) << 8u);
                continue;
            }
            var old = 0u;
            if (before == 0u) {
                old = atomicAdd(&counts[owner * 256u + d], countOneBits(peers));
            }
            rank[r] = subgroupShuffle(old, firstTrailingBit(peers)) + before;
        }
        if (RANK == 4u) {
            for (var r = 0u; r < ITEMS; r++) {
                if (rank[r] == 0u) {
                    let old = atomicAdd(&counts[owner * 256u + (keys[r] & 255u)], lead[r] >> 8u);
                    lead[r] = (lead[r] & 255u) | (old << 8u);
                }
            }
            for (var r = 0u; r < ITEMS; r++) {
                rank[r] += subgroupShuffle(lead[r], lead[r] & 255u) >> 8u;
            }
        }
        workgroupBarrier();
        if (TOT == 1u) {
        var sum = 0u;
        for (var k = 0u; k < DPI; k++) {
            let d = lid * DPI + k;
            var total = 0u;
            for (var o = 0u; o < OWNERS; o++) {
                total += atomicLoad(&counts[o * 256u + d]);
            }
            digit_total[d] = total;
            sum += total;
        }
        var at = wg_exclusive(lid, lane, sum);
        for (var k = 0u; k < DPI; k++) {
            let d = lid * DPI + k;
            digit_start[d] = at;
            for (var o = 0u; o < OWNERS; o++) {
                let c = atomicLoad(&counts[o * 256u + d]);
                atomicStore(&counts[o * 256u + d], at);
                at += c;
            }
        }
        }
        workgroupBarrier();
        if (ROOM == 1u) {
            for (var r = 0u; r < ITEMS; r++) {
                rank[r] += atomicLoad(&counts[owner * 256u + (keys[r] & 255u)]);
            }
            workgroupBarrier();
            for (var r = 0u; r < ITEMS; r++) {
                atomicStore(&counts[rank[r]], keys[r]);
            }
        } else {
            for (var r = 0u; r < ITEMS; r++) {
                tile_keys[atomicLoad(&counts[owner * 256u + (keys[r] & 255u)]) + rank[r]] = keys[r];
            }
        }
        workgroupBarrier();
        for (var k = 0u; k < ITEMS; k++) {
            let s = k * WG + lid;
            var key = 0u;
            if (ROOM == 1u) {
                key = atomicLoad(&counts[s]);
            } else {
                key = tile_keys[s];
            }
            let d = key & 255u;
            if (STAGE == 3u) {
                dst[first + s] = key;
            } else {
                dst[min(run_base[d] + s - digit_start[d], n - 1u)] = key;
            }
        }
        workgroupBarrier();
        for (var k = 0u; k < DPI; k++) {
            run_base[lid * DPI + k] += digit_total[lid * DPI + k];
        }
    }
}
