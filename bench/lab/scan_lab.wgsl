// SPDX-License-Identifier: MIT
// scan_lab.wgsl: variants of the scan's data passes for u32 add, for bench/lab/lab.c.
// n must be a multiple of 4 * WG * ITEMS * TPW. Defines: WG, ITEMS (16-byte words per
// invocation and tile), TPW (tiles per workgroup, run one after another).
enable subgroups;
diagnostic(off, subgroup_uniformity);
//DEFINES

struct Params { n: u32, a: u32, b: u32, c: u32, d: u32, e: u32, f: u32, g: u32 }
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> params: Params;
@group(0) @binding(3) var<storage, read_write> aux: array<u32>;
@group(0) @binding(3) var<storage, read_write> state: array<atomic<u32>>;

const TILE4: u32 = WG * ITEMS; // 16-byte words per tile
const NSG_MAX: u32 = WG / 4u;

fn wid_linear(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.x + wid.y * nwg.x; }

fn touch_all() { // every entry uses all four bindings (the lab binds them all)
    if (params.n == 0xFFFFFFFFu) { dst[0] = src[0]; aux[0] = 0u; }
}
fn touch_state() {
    if (params.n == 0xFFFFFFFFu) { dst[0] = src[0]; atomicStore(&state[0], 0u); }
}

@compute @workgroup_size(WG)
fn copy4(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
         @builtin(num_workgroups) nwg: vec3<u32>) {
    touch_all();
    let base = wid_linear(wid, nwg) * TILE4 + lid;
    var v: array<vec4<u32>, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) { v[k] = src[base + k * WG]; }
    for (var k = 0u; k < ITEMS; k++) { dst[base + k * WG] = v[k]; }
}

var<workgroup> sg_part: array<u32, NSG_MAX>;

// Workgroup sum of one value per invocation (subgroupAdd, then the subgroup totals).
fn wg_sum(lid: u32, lane: u32, size: u32, x: u32) -> u32 {
    let s = subgroupAdd(x);
    if (lane == 0u) { sg_part[lid / size] = s; }
    workgroupBarrier();
    var t = 0u;
    for (var i = 0u; i < WG / size; i++) { t += sg_part[i]; }
    workgroupBarrier();
    return t;
}

// Pass 1 of reduce-then-scan: each workgroup sums its TPW tiles into aux[g].
@compute @workgroup_size(WG)
fn reduce_tiles(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
                @builtin(subgroup_size) size: u32, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    touch_all();
    let g = wid_linear(wid, nwg);
    var acc = 0u;
    for (var t = 0u; t < TPW; t++) {
        let base = (g * TPW + t) * TILE4 + lid;
        var v: array<vec4<u32>, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) { v[k] = src[base + k * WG]; }
        for (var k = 0u; k < ITEMS; k++) { acc += v[k].x + v[k].y + v[k].z + v[k].w; }
    }
    let total = wg_sum(lid, lane, size, acc);
    if (lid == 0u) { aux[g] = total; }
}

var<workgroup> big_part: array<u32, SUMS_WG / 4u>;

// Pass 2: exclusive scan of aux[0 .. params.a) in place by one workgroup of SUMS_WG.
@compute @workgroup_size(SUMS_WG)
fn scan_sums(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
             @builtin(subgroup_size) size: u32) {
    touch_all();
    let m = params.a;
    let per = (m + SUMS_WG - 1u) / SUMS_WG;
    let first = lid * per;
    var s = 0u;
    for (var i = 0u; i < per; i++) { if (first + i < m) { s += aux[first + i]; } }
    let ex = subgroupExclusiveAdd(s);
    if (lane == size - 1u) { big_part[lid / size] = ex + s; }
    workgroupBarrier();
    var before = 0u;
    for (var i = 0u; i < lid / size; i++) { before += big_part[i]; }
    var run = before + ex;
    for (var i = 0u; i < per; i++) {
        if (first + i < m) { let x = aux[first + i]; aux[first + i] = run; run += x; }
    }
}

// Local exclusive scan of a 16-byte word; returns it, the sum in .w of the second value.
fn scan4(v: vec4<u32>) -> vec4<u32> {
    return vec4<u32>(0u, v.x, v.x + v.y, v.x + v.y + v.z);
}

var<workgroup> table: array<u32, 2u * ITEMS * NSG_MAX>;

// Pass 3, row layout: row k of a tile is WG consecutive 16-byte words (coalesced); each
// row is scanned with subgroup scans; one table of (row, subgroup) totals, scanned by
// the first subgroup, links them. Seeded with aux[g], carried across the TPW tiles.
@compute @workgroup_size(WG)
fn scan_rows(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
             @builtin(subgroup_size) size: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
    touch_all();
    let g = wid_linear(wid, nwg);
    let nsg = WG / size;
    let sg = lid / size;
    var carry = aux[g];
    var cur: array<vec4<u32>, ITEMS>;
    var nxt: array<vec4<u32>, ITEMS>;
    let b0 = g * TPW * TILE4 + lid;
    for (var k = 0u; k < ITEMS; k++) { cur[k] = src[b0 + k * WG]; }
    for (var t = 0u; t < TPW; t++) {
        let base = (g * TPW + t) * TILE4 + lid;
        if (PREFETCH != 0u && t + 1u < TPW) {
            for (var k = 0u; k < ITEMS; k++) { nxt[k] = src[base + TILE4 + k * WG]; }
        }
        let tb = (t & 1u) * ITEMS * NSG_MAX;
        var ex: array<u32, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) {
            let s = cur[k].x + cur[k].y + cur[k].z + cur[k].w;
            ex[k] = subgroupExclusiveAdd(s);
            if (lane == size - 1u) { table[tb + k * nsg + sg] = ex[k] + s; }
        }
        workgroupBarrier();
        if (sg == 0u) { // exclusive scan of the table, row-major: ITEMS * nsg entries
            let cnt = ITEMS * nsg;
            let per = (cnt + size - 1u) / size;
            var s = 0u;
            for (var i = 0u; i < per; i++) { let j = lane * per + i; if (j < cnt) { s += table[tb + j]; } }
            var run = subgroupExclusiveAdd(s);
            for (var i = 0u; i < per; i++) {
                let j = lane * per + i;
                if (j < cnt) { let x = table[tb + j]; table[tb + j] = run; run += x; }
            }
            if (lane == size - 1u) { tile_tot[t & 1u] = run; }
        }
        workgroupBarrier();
        for (var k = 0u; k < ITEMS; k++) {
            let p = carry + table[tb + k * nsg + sg] + ex[k];
            dst[base + k * WG] = vec4<u32>(p) + scan4(cur[k]);
        }
        carry += tile_tot[t & 1u];
        if (PREFETCH != 0u) { cur = nxt; } else if (t + 1u < TPW) {
            for (var k = 0u; k < ITEMS; k++) { cur[k] = src[base + TILE4 + k * WG]; }
        }
    }
}
var<workgroup> tile_tot: array<u32, 2>;

// Pass 3, contiguous layout: invocation lid owns 16-byte words lid * ITEMS .. + ITEMS - 1
// of the tile (loads 16 bytes per lane at a stride of 16 * ITEMS bytes: each warp-wide
// load touches more lines, later loads hit them). One workgroup scan per tile.
@compute @workgroup_size(WG)
fn scan_contig(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
               @builtin(subgroup_size) size: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    touch_all();
    let g = wid_linear(wid, nwg);
    let nsg = WG / size;
    let sg = lid / size;
    var carry = aux[g];
    var cur: array<vec4<u32>, ITEMS>;
    var nxt: array<vec4<u32>, ITEMS>;
    let b0 = g * TPW * TILE4 + lid * ITEMS;
    for (var k = 0u; k < ITEMS; k++) { cur[k] = src[b0 + k]; }
    for (var t = 0u; t < TPW; t++) {
        let base = (g * TPW + t) * TILE4 + lid * ITEMS;
        if (PREFETCH != 0u && t + 1u < TPW) {
            for (var k = 0u; k < ITEMS; k++) { nxt[k] = src[base + TILE4 + k]; }
        }
        var s = 0u;
        for (var k = 0u; k < ITEMS; k++) { s += cur[k].x + cur[k].y + cur[k].z + cur[k].w; }
        let ex = subgroupExclusiveAdd(s);
        let tb = (t & 1u) * NSG_MAX;
        if (lane == size - 1u) { table[tb + sg] = ex + s; }
        workgroupBarrier();
        var before = 0u;
        var total = 0u;
        for (var i = 0u; i < nsg; i++) {
            let x = table[tb + i];
            if (i < sg) { before += x; }
            total += x;
        }
        var p = carry + before + ex;
        for (var k = 0u; k < ITEMS; k++) {
            dst[base + k] = vec4<u32>(p) + scan4(cur[k]);
            p += cur[k].x + cur[k].y + cur[k].z + cur[k].w;
        }
        carry += total;
        if (PREFETCH != 0u) { cur = nxt; } else if (t + 1u < TPW) {
            for (var k = 0u; k < ITEMS; k++) { cur[k] = src[base + TILE4 + k]; }
        }
    }
}

// Single pass, chained over tiles with decoupled look-back by the first subgroup (no
// fallback: a lab kernel for a GPU that schedules workgroups in order). Tile states at
// state[1 + 2t], state[2 + 2t]: 2-bit flag over 16 bits of value, as the library.
var<workgroup> claimed: u32;
var<workgroup> lb_prefix: u32;

fn sp_publish(t: u32, flag: u32, v: u32) {
    atomicStore(&state[1u + 2u * t], (flag << 30u) | (v & 0xFFFFu));
    atomicStore(&state[2u + 2u * t], (flag << 30u) | (v >> 16u));
}

// One step of the lab's look-back by one subgroup: lane d reads the state of tile j - d
// (only tile j when narrow); returns (1 when an inclusive prefix ends the run, tiles
// taken, the sum of their values). Tiles are taken up to the nearest unready one, or
// through the nearest inclusive one when that comes first.
fn lb_step(lane: u32, size: u32, j: i32, narrow: bool) -> vec3<u32> {
    let d = i32(lane);
    var flag = 0u;
    var v = 0u;
    let look = j - d >= 0 && (!narrow || d == 0);
    if (look) {
        let lo = atomicLoad(&state[1u + 2u * u32(j - d)]);
        let hi = atomicLoad(&state[2u + 2u * u32(j - d)]);
        if ((lo >> 30u) == (hi >> 30u)) { flag = lo >> 30u; v = (lo & 0xFFFFu) | ((hi & 0xFFFFu) << 16u); }
    }
    let inc = subgroupMin(select(0xFFFFFFFFu, lane, flag == 2u));
    let nr = subgroupMin(select(0xFFFFFFFFu, lane, flag == 0u && look));
    let done = inc != 0xFFFFFFFFu && inc < nr;
    var take = min(nr, size);
    if (narrow) { take = min(take, 1u); }
    if (done) { take = inc + 1u; }
    take = min(take, u32(j + 1));
    return vec3<u32>(select(0u, 1u, done), take, subgroupAdd(select(0u, v, lane < take)));
}

@compute @workgroup_size(WG)
fn single_pass(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
               @builtin(subgroup_size) size: u32) {
    touch_state();
    let nsg = WG / size;
    let sg = lid / size;
    if (lid == 0u) { claimed = atomicAdd(&state[0], 1u); }
    let t = workgroupUniformLoad(&claimed);
    var cur: array<vec4<u32>, ITEMS>;
    var base = t * TILE4 + lid * ITEMS;
    if (ROWS != 0u) { base = t * TILE4 + lid; }
    for (var k = 0u; k < ITEMS; k++) {
        if (ROWS != 0u) { cur[k] = src[base + k * WG]; } else { cur[k] = src[base + k]; }
    }
    // (contiguous layout only; ROWS scans rows as if contiguous: timing only)
    var s = 0u;
    for (var k = 0u; k < ITEMS; k++) { s += cur[k].x + cur[k].y + cur[k].z + cur[k].w; }
    let ex = subgroupExclusiveAdd(s);
    if (lane == size - 1u) { table[sg] = ex + s; }
    workgroupBarrier();
    var before = 0u;
    var total = 0u;
    for (var i = 0u; i < nsg; i++) {
        let x = table[i];
        if (i < sg) { before += x; }
        total += x;
    }
    if (sg == 0u) {
        var prefix = 0u;
        if (t == 0u) {
            if (lane == 0u) { sp_publish(0u, 2u, total); }
        } else {
            if (lane == 0u) { sp_publish(t, 1u, total); }
            var j = i32(t) - 1;
            var narrow = false;
            loop {
                let step = lb_step(lane, size, j, narrow);
                let take = step.y;
                prefix += step.z;
                if (step.x != 0u) { break; }
                j -= i32(take);
                narrow = NARROW != 0u && take == 0u;
            }
            if (lane == 0u) { sp_publish(t, 2u, prefix + total); }
        }
        if (lid == 0u) { lb_prefix = prefix; }
    }
    let prefix = workgroupUniformLoad(&lb_prefix);
    var p = prefix + before + ex;
    for (var k = 0u; k < ITEMS; k++) {
        if (ROWS != 0u) { dst[base + k * WG] = vec4<u32>(p) + scan4(cur[k]); }
        else { dst[base + k] = vec4<u32>(p) + scan4(cur[k]); }
        p += cur[k].x + cur[k].y + cur[k].z + cur[k].w;
    }
}

// Measured on the H200 and removed: the same kernel with the tile's words in a
// module-scope private array (as the library keeps them) ran as fast (709-782 us).

// Single pass with correct row tiles (checked): each row scanned with subgroup scans,
// the (row, subgroup) table scanned by the first subgroup, which then publishes the
// tile's aggregate and looks back; two barriers per tile. FB != 0 compiles in a
// decoupled fallback (reduce a blocking tile from the input after MAX_SPINS fruitless
// polls) to see what its code costs; FB = 2 forces it after one poll.
//DEFAULT FB=0
//DEFAULT MAX_SPINS=16
//DEFAULT NARROW=1
//DEFAULT EXF=0
//DEFAULT FB_STASH=0
var<workgroup> fb_words: array<vec4<u32>, select(1u, ITEMS * 128u, FB_STASH != 0u)>;
var<workgroup> fb_ex: array<u32, select(1u, ITEMS * 128u, FB_STASH != 0u)>;
//DEFAULT STASH=0
var<workgroup> stash: array<vec4<u32>, select(1u, TILE4, STASH != 0u)>;
var<workgroup> seg: array<u32, ITEMS * NSG_MAX>;

// The first subgroup's exclusive scan of the (row, subgroup) table seg, in place;
// returns the tile's total on every lane.
fn seg_scan(lane: u32, size: u32, nsg: u32) -> u32 {
    let cnt = ITEMS * nsg;
    let per = (cnt + size - 1u) / size;
    var s = 0u;
    for (var i = 0u; i < per; i++) { let j = lane * per + i; if (j < cnt) { s += seg[j]; } }
    let incl = subgroupInclusiveAdd(s);
    var run = incl - s;
    for (var i = 0u; i < per; i++) {
        let j = lane * per + i;
        if (j < cnt) { let x = seg[j]; seg[j] = run; run += x; }
    }
    return subgroupShuffle(incl, size - 1u);
}

// A helper's publication of tile j's aggregate a (inclusive for tile 0): atomicMax never
// lowers what the owner published.
fn sp_help_publish(j: u32, a: u32) {
    let f = select(1u, 2u, j == 0u);
    atomicMax(&state[1u + 2u * j], (f << 30u) | (a & 0xFFFFu));
    atomicMax(&state[2u + 2u * j], (f << 30u) | (a >> 16u));
}

fn sp_fallback(lane: u32, size: u32, j: u32) -> u32 {
    if (FB == 3u) { // a stand-in loading one word: is it the loop that costs? (timing only)
        let w = src[j * TILE4 + lane];
        return subgroupAdd(w.x + w.y + w.z + w.w);
    }
    var acc = 0u;
    for (var q = lane; q < TILE4; q += size) {
        let w = src[j * TILE4 + q];
        acc += w.x + w.y + w.z + w.w;
    }
    return subgroupAdd(acc);
}

@compute @workgroup_size(WG)
fn sp_rows(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
           @builtin(subgroup_size) size: u32) {
    touch_state();
    let nsg = WG / size;
    let sg = lid / size;
    if (lid == 0u) { claimed = atomicAdd(&state[0], 1u); }
    let t = workgroupUniformLoad(&claimed);
    let base = t * TILE4 + lid;
    var cur: array<vec4<u32>, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) { cur[k] = src[base + k * WG]; }
    var ex: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        let s = cur[k].x + cur[k].y + cur[k].z + cur[k].w;
        ex[k] = subgroupExclusiveAdd(s);
        if (lane == size - 1u) { seg[k * nsg + sg] = ex[k] + s; }
        // EXF: the lane's prefix folded into its scanned word now (fewer live registers
        // across the look-back); STASH: the scanned words wait in workgroup memory.
        if (EXF != 0u || STASH != 0u) { cur[k] = vec4<u32>(ex[k]) + scan4(cur[k]); }
        if (STASH != 0u) { stash[k * WG + lid] = cur[k]; }
    }
    workgroupBarrier();
    if (sg == 0u) {
        let total = seg_scan(lane, size, nsg);
        var prefix = 0u;
        if (t == 0u) {
            if (lane == 0u) { sp_publish(0u, 2u, total); }
        } else {
            if (lane == 0u) { sp_publish(t, 1u, total); }
            var j = i32(t) - 1;
            var narrow = false;
            var spins = 0u;
            loop {
                let step = lb_step(lane, size, j, narrow);
                let take = step.y;
                prefix += step.z;
                if (step.x != 0u) { break; }
                j -= i32(take);
                if (take > 0u) { spins = 0u; }
                narrow = NARROW != 0u && take == 0u;
                if (FB != 0u && take == 0u) {
                    spins += 1u;
                    if (spins >= select(MAX_SPINS, 1u, FB == 2u)) {
                        // FB_STASH: this lane's words wait in workgroup memory while it
                        // reduces another tile, so they hold no registers there.
                        if (FB_STASH != 0u) {
                            for (var k = 0u; k < ITEMS; k++) {
                                fb_words[k * size + lane] = cur[k];
                                fb_ex[k * size + lane] = ex[k];
                            }
                        }
                        let a = sp_fallback(lane, size, u32(j));
                        if (FB_STASH != 0u) {
                            for (var k = 0u; k < ITEMS; k++) {
                                cur[k] = fb_words[k * size + lane];
                                ex[k] = fb_ex[k * size + lane];
                            }
                        }
                        if (lane == 0u) { sp_help_publish(u32(j), a); }
                        prefix += a;
                        if (j == 0) { break; }
                        j -= 1;
                        spins = 0u;
                    }
                }
            }
            if (lane == 0u) { sp_publish(t, 2u, prefix + total); }
        }
        if (lid == 0u) { lb_prefix = prefix; }
    }
    let prefix = workgroupUniformLoad(&lb_prefix);
    for (var k = 0u; k < ITEMS; k++) {
        if (STASH != 0u) {
            dst[base + k * WG] = vec4<u32>(prefix + seg[k * nsg + sg]) + stash[k * WG + lid];
        } else if (EXF != 0u) {
            dst[base + k * WG] = vec4<u32>(prefix + seg[k * nsg + sg]) + cur[k];
        } else {
            let p = prefix + seg[k * nsg + sg] + ex[k];
            dst[base + k * WG] = vec4<u32>(p) + scan4(cur[k]);
        }
    }
}

// sp_rows with the fallback taken out of the first subgroup's loop (WGFB): when the
// subgroup has polled a blocking tile MAX_SPINS times (once when WGFB_FORCE != 0) it
// leaves its loop and says which tile; the whole workgroup then reduces that tile (the
// owner's row layout, every invocation one word a row) and the subgroup goes on. Is
// the fallback's cost its code inside the subgroup's loop?
//DEFAULT WGFB_FORCE=0
var<workgroup> wgfb_stuck: u32; // 0: prefix known; 1: tile wgfb_j blocks
var<workgroup> wgfb_j: u32;
var<workgroup> wgfb_acc: u32; // prefix of the tiles after wgfb_j, combined so far

@compute @workgroup_size(WG)
fn sp_rows_wgfb(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
                @builtin(subgroup_size) size: u32) {
    touch_state();
    let nsg = WG / size;
    let sg = lid / size;
    if (lid == 0u) { claimed = atomicAdd(&state[0], 1u); }
    let t = workgroupUniformLoad(&claimed);
    let base = t * TILE4 + lid;
    var cur: array<vec4<u32>, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) { cur[k] = src[base + k * WG]; }
    var ex: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        let s = cur[k].x + cur[k].y + cur[k].z + cur[k].w;
        ex[k] = subgroupExclusiveAdd(s);
        if (lane == size - 1u) { seg[k * nsg + sg] = ex[k] + s; }
    }
    workgroupBarrier();
    var total = 0u;
    if (sg == 0u) {
        total = seg_scan(lane, size, nsg);
        if (lane == 0u) { sp_publish(t, select(1u, 2u, t == 0u), total); }
    }
    var first = true;
    loop {
        if (t == 0u) { break; }
        if (sg == 0u) {
            // Where to go on: the start, or what the fallback step left (written before
            // the barrier that ended that step).
            var j = i32(t) - 1;
            var prefix = 0u;
            if (!first) {
                j = i32(wgfb_j);
                prefix = wgfb_acc;
            }
            var narrow = false;
            var spins = 0u;
            var stuck = 0u;
            loop {
                let step = lb_step(lane, size, j, narrow);
                let take = step.y;
                prefix += step.z;
                if (step.x != 0u) { break; }
                j -= i32(take);
                if (take > 0u) { spins = 0u; }
                narrow = take == 0u;
                if (take == 0u) {
                    spins += 1u;
                    if (spins >= select(MAX_SPINS, 1u, WGFB_FORCE != 0u)) { stuck = 1u; break; }
                }
            }
            if (lane == 0u) {
                wgfb_stuck = stuck;
                wgfb_j = u32(j);
                wgfb_acc = prefix;
                if (stuck == 0u) { sp_publish(t, 2u, prefix + total); }
            }
        }
        if (workgroupUniformLoad(&wgfb_stuck) == 0u) { break; }
        // The whole workgroup reduces the blocking tile, in the owner's layout.
        let jj = workgroupUniformLoad(&wgfb_j);
        var acc = 0u;
        for (var k = 0u; k < ITEMS; k++) {
            let w = src[jj * TILE4 + lid + k * WG];
            acc += w.x + w.y + w.z + w.w;
        }
        let a = wg_sum(lid, lane, size, acc);
        if (lid == 0u) {
            sp_help_publish(jj, a);
            wgfb_acc += a;
            if (jj == 0u) {
                wgfb_stuck = 0u;
                sp_publish(t, 2u, wgfb_acc + total);
            }
            wgfb_j = jj - 1u;
        }
        first = false;
        if (workgroupUniformLoad(&wgfb_j) == 0xFFFFFFFFu) { break; }
    }
    // The scanned segment table and wgfb_acc, for every subgroup: tile 0 leaves the loop
    // before any barrier, and a GPU runs the other subgroups ahead of the first.
    workgroupBarrier();
    let prefix = select(wgfb_acc, 0u, t == 0u);
    for (var k = 0u; k < ITEMS; k++) {
        let p = prefix + seg[k * nsg + sg] + ex[k];
        dst[base + k * WG] = vec4<u32>(p) + scan4(cur[k]);
    }
}

// sp_rows in persistent workgroups (the grid is --pass's GROUPS, tiles = n / 4 / TILE4):
// each workgroup claims tiles in turn and, with PF=1, claims and loads its next tile
// after scanning the current one and before the current one's look-back, so those loads
// are in flight while the first subgroup looks back and the tile is stored. Two segment
// tables alternate between tiles so no barrier is needed between the store, which reads
// one, and the next scan, which writes the other. Does hiding the load latency behind
// the chain close the gap to the copy?
//DEFAULT PF=1
var<workgroup> seg2: array<u32, 2u * ITEMS * NSG_MAX>;

fn seg2_scan(lane: u32, size: u32, nsg: u32, off: u32) -> u32 {
    let cnt = ITEMS * nsg;
    let per = (cnt + size - 1u) / size;
    var s = 0u;
    for (var i = 0u; i < per; i++) { let j = lane * per + i; if (j < cnt) { s += seg2[off + j]; } }
    let incl = subgroupInclusiveAdd(s);
    var run = incl - s;
    for (var i = 0u; i < per; i++) {
        let j = lane * per + i;
        if (j < cnt) { let x = seg2[off + j]; seg2[off + j] = run; run += x; }
    }
    return subgroupShuffle(incl, size - 1u);
}

@compute @workgroup_size(WG)
fn sp_persist(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
              @builtin(subgroup_size) size: u32) {
    touch_state();
    let nsg = WG / size;
    let sg = lid / size;
    let tiles = params.n / (4u * TILE4);
    if (lid == 0u) { claimed = atomicAdd(&state[0], 1u); }
    var t = workgroupUniformLoad(&claimed);
    if (t >= tiles) { return; }
    var cur: array<vec4<u32>, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) { cur[k] = src[t * TILE4 + lid + k * WG]; }
    var par = 0u;
    loop {
        let off = par * ITEMS * nsg;
        var ex: array<u32, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) {
            let s = cur[k].x + cur[k].y + cur[k].z + cur[k].w;
            ex[k] = subgroupExclusiveAdd(s);
            if (lane == size - 1u) { seg2[off + k * nsg + sg] = ex[k] + s; }
        }
        if (lid == 0u) { claimed = atomicAdd(&state[0], 1u); }
        let tn = workgroupUniformLoad(&claimed); // also: the table is complete
        var nxt: array<vec4<u32>, ITEMS>;
        if (PF != 0u && tn < tiles) {
            for (var k = 0u; k < ITEMS; k++) { nxt[k] = src[tn * TILE4 + lid + k * WG]; }
        }
        if (sg == 0u) {
            let total = seg2_scan(lane, size, nsg, off);
            var prefix = 0u;
            if (t == 0u) {
                if (lane == 0u) { sp_publish(0u, 2u, total); }
            } else {
                if (lane == 0u) { sp_publish(t, 1u, total); }
                var j = i32(t) - 1;
                var narrow = false;
                var spins = 0u;
                loop {
                    let step = lb_step(lane, size, j, narrow);
                    let take = step.y;
                    prefix += step.z;
                    if (step.x != 0u) { break; }
                    j -= i32(take);
                    if (take > 0u) { spins = 0u; }
                    narrow = take == 0u;
                    if (FB != 0u && take == 0u) {
                        spins += 1u;
                        if (spins >= select(MAX_SPINS, 1u, FB == 2u)) {
                            let a = sp_fallback(lane, size, u32(j));
                            if (lane == 0u) { sp_help_publish(u32(j), a); }
                            prefix += a;
                            if (j == 0) { break; }
                            j -= 1;
                            spins = 0u;
                        }
                    }
                }
                if (lane == 0u) { sp_publish(t, 2u, prefix + total); }
            }
            if (lid == 0u) { lb_prefix = prefix; }
        }
        let prefix = workgroupUniformLoad(&lb_prefix);
        for (var k = 0u; k < ITEMS; k++) {
            let p = prefix + seg2[off + k * nsg + sg] + ex[k];
            dst[t * TILE4 + lid + k * WG] = vec4<u32>(p) + scan4(cur[k]);
        }
        if (tn >= tiles) { break; }
        if (PF == 0u) {
            for (var k = 0u; k < ITEMS; k++) { nxt[k] = src[tn * TILE4 + lid + k * WG]; }
        }
        cur = nxt;
        t = tn;
        par = 1u - par;
    }
}

// sp_persist publishes a claimed tile's aggregate only when the tile becomes current,
// an iteration late, so successors wait through whole iterations (measured: 2-6 x
// slower). sp_ahead runs one tile ahead instead: the aggregate of the next tile is
// published as soon as it is loaded and scanned, and the current tile's look-back,
// which found its predecessors' aggregates an iteration ago, overlaps the next tile's
// loads. Per iteration (current tile t, its aggregate published):
//   claim tn and load it; the first subgroup looks back for t (its other lanes' loads
//   in flight) while the other subgroups scan their rows of tn; barrier; the first
//   subgroup scans tn's table and publishes tn's aggregate; all store t.
// lb_step with LBW states a lane (a window of LBW * size tiles): persistent workgroups
// look back about as many tiles as there are workgroups.
//DEFAULT LBW=1
fn lb_step_w(lane: u32, size: u32, j: i32, narrow: bool) -> vec3<u32> {
    var my_inc = 0xFFFFFFFFu;
    var my_nr = 0xFFFFFFFFu;
    var vs: array<u32, LBW>;
    for (var q = 0u; q < LBW; q++) {
        let d = lane * LBW + q;
        vs[q] = 0u;
        if (i32(d) <= j && (!narrow || d == 0u)) {
            let lo = atomicLoad(&state[1u + 2u * u32(j - i32(d))]);
            let hi = atomicLoad(&state[2u + 2u * u32(j - i32(d))]);
            var flag = 0u;
            if ((lo >> 30u) == (hi >> 30u)) { flag = lo >> 30u; vs[q] = (lo & 0xFFFFu) | ((hi & 0xFFFFu) << 16u); }
            if (flag == 2u) { my_inc = min(my_inc, d); }
            if (flag == 0u) { my_nr = min(my_nr, d); }
        }
    }
    let inc = subgroupMin(my_inc);
    let nr = subgroupMin(my_nr);
    let done = inc != 0xFFFFFFFFu && inc < nr;
    var take = min(nr, size * LBW);
    if (narrow) { take = min(take, 1u); }
    if (done) { take = inc + 1u; }
    take = min(take, u32(j + 1));
    var mine = 0u;
    for (var q = 0u; q < LBW; q++) { if (lane * LBW + q < take) { mine += vs[q]; } }
    return vec3<u32>(select(0u, 1u, done), take, subgroupAdd(mine));
}

fn sp_lookback(lane: u32, size: u32, t: u32, total: u32) -> u32 {
    var prefix = 0u;
    var j = i32(t) - 1;
    var narrow = false;
    var spins = 0u;
    loop {
        let step = lb_step_w(lane, size, j, narrow);
        let take = step.y;
        prefix += step.z;
        if (step.x != 0u) { break; }
        j -= i32(take);
        if (take > 0u) { spins = 0u; }
        narrow = take == 0u;
        if (take == 0u) {
            spins += 1u;
            if (spins >= select(MAX_SPINS, 1u, FB == 2u)) {
                let a = sp_fallback(lane, size, u32(j));
                if (lane == 0u) { sp_help_publish(u32(j), a); }
                prefix += a;
                if (j == 0) { break; }
                j -= 1;
                spins = 0u;
            }
        }
    }
    if (lane == 0u) { sp_publish(t, 2u, prefix + total); }
    return prefix;
}

var<workgroup> ahead_total: u32;

@compute @workgroup_size(WG)
fn sp_ahead(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
            @builtin(subgroup_size) size: u32) {
    touch_state();
    let nsg = WG / size;
    let sg = lid / size;
    let tiles = params.n / (4u * TILE4);
    if (lid == 0u) { claimed = atomicAdd(&state[0], 1u); }
    var t = workgroupUniformLoad(&claimed);
    if (t >= tiles) { return; }
    var cur: array<vec4<u32>, ITEMS>;
    var ex: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) { cur[k] = src[t * TILE4 + lid + k * WG]; }
    for (var k = 0u; k < ITEMS; k++) {
        let s = cur[k].x + cur[k].y + cur[k].z + cur[k].w;
        ex[k] = subgroupExclusiveAdd(s);
        if (lane == size - 1u) { seg2[k * nsg + sg] = ex[k] + s; }
    }
    workgroupBarrier();
    if (sg == 0u) {
        let total = seg2_scan(lane, size, nsg, 0u);
        if (lane == 0u) {
            sp_publish(t, select(1u, 2u, t == 0u), total);
            ahead_total = total;
        }
    }
    var par = 0u;
    loop {
        let off = par * ITEMS * nsg;
        let noff = (1u - par) * ITEMS * nsg;
        if (lid == 0u) { claimed = atomicAdd(&state[0], 1u); }
        let tn = workgroupUniformLoad(&claimed); // also: ahead_total and t's table are written
        let more = tn < tiles;
        var nxt: array<vec4<u32>, ITEMS>;
        var nex: array<u32, ITEMS>;
        if (more) {
            for (var k = 0u; k < ITEMS; k++) { nxt[k] = src[tn * TILE4 + lid + k * WG]; }
        }
        if (sg == 0u) {
            var prefix = 0u;
            if (t != 0u) { prefix = sp_lookback(lane, size, t, ahead_total); }
            if (lid == 0u) { lb_prefix = prefix; }
        }
        if (more) {
            for (var k = 0u; k < ITEMS; k++) {
                let s = nxt[k].x + nxt[k].y + nxt[k].z + nxt[k].w;
                nex[k] = subgroupExclusiveAdd(s);
                if (lane == size - 1u) { seg2[noff + k * nsg + sg] = nex[k] + s; }
            }
        }
        let prefix = workgroupUniformLoad(&lb_prefix); // also: tn's table is complete
        if (more && sg == 0u) {
            let total = seg2_scan(lane, size, nsg, noff);
            if (lane == 0u) {
                sp_publish(tn, 1u, total); // tn > t >= 0
                ahead_total = total;
            }
        }
        for (var k = 0u; k < ITEMS; k++) {
            let p = prefix + seg2[off + k * nsg + sg] + ex[k];
            dst[t * TILE4 + lid + k * WG] = vec4<u32>(p) + scan4(cur[k]);
        }
        if (!more) { break; }
        cur = nxt;
        ex = nex;
        t = tn;
        par = 1u - par;
    }
}

// sp_ahead still published the next tile's aggregate after the current tile's
// look-back (its table is scanned after the barrier that ends the look-back), so
// aggregates waited on look-backs in a chain across workgroups (measured 1-5 x slower
// than sp_rows, very variable). sp_ahead2 scans the next tile's rows first, then after
// one barrier the first subgroup looks back for the current tile while the second
// scans the next tile's table and publishes its aggregate: no aggregate waits on a
// look-back. Needs two subgroups or more.
var<workgroup> ahead2_total: array<u32, 2>;

@compute @workgroup_size(WG)
fn sp_ahead2(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
             @builtin(subgroup_size) size: u32) {
    touch_state();
    let nsg = WG / size;
    let sg = lid / size;
    let tiles = params.n / (4u * TILE4);
    if (lid == 0u) { claimed = atomicAdd(&state[0], 1u); }
    var t = workgroupUniformLoad(&claimed);
    if (t >= tiles) { return; }
    var cur: array<vec4<u32>, ITEMS>;
    var ex: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) { cur[k] = src[t * TILE4 + lid + k * WG]; }
    for (var k = 0u; k < ITEMS; k++) {
        let s = cur[k].x + cur[k].y + cur[k].z + cur[k].w;
        ex[k] = subgroupExclusiveAdd(s);
        if (lane == size - 1u) { seg2[k * nsg + sg] = ex[k] + s; }
    }
    workgroupBarrier();
    if (sg == 1u) {
        let total = seg2_scan(lane, size, nsg, 0u);
        if (lane == 0u) {
            sp_publish(t, select(1u, 2u, t == 0u), total);
            ahead2_total[0] = total;
        }
    }
    var par = 0u;
    loop {
        let off = par * ITEMS * nsg;
        let noff = (1u - par) * ITEMS * nsg;
        if (lid == 0u) { claimed = atomicAdd(&state[0], 1u); }
        let tn = workgroupUniformLoad(&claimed); // also: t's table and total are written
        let more = tn < tiles;
        var nxt: array<vec4<u32>, ITEMS>;
        var nex: array<u32, ITEMS>;
        if (more) {
            for (var k = 0u; k < ITEMS; k++) { nxt[k] = src[tn * TILE4 + lid + k * WG]; }
            for (var k = 0u; k < ITEMS; k++) {
                let s = nxt[k].x + nxt[k].y + nxt[k].z + nxt[k].w;
                nex[k] = subgroupExclusiveAdd(s);
                if (lane == size - 1u) { seg2[noff + k * nsg + sg] = nex[k] + s; }
            }
        }
        workgroupBarrier(); // tn's table is complete
        if (sg == 0u) {
            var prefix = 0u;
            if (t != 0u) { prefix = sp_lookback(lane, size, t, ahead2_total[par]); }
            if (lid == 0u) { lb_prefix = prefix; }
        } else if (sg == 1u && more) {
            let total = seg2_scan(lane, size, nsg, noff);
            if (lane == 0u) {
                sp_publish(tn, 1u, total); // tn > t >= 0
                ahead2_total[1u - par] = total;
            }
        }
        let prefix = workgroupUniformLoad(&lb_prefix);
        for (var k = 0u; k < ITEMS; k++) {
            let p = prefix + seg2[off + k * nsg + sg] + ex[k];
            dst[t * TILE4 + lid + k * WG] = vec4<u32>(p) + scan4(cur[k]);
        }
        if (!more) { break; }
        cur = nxt;
        ex = nex;
        t = tn;
        par = 1u - par;
    }
}
