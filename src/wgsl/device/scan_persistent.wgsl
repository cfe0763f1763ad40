// SPDX-License-Identifier: MIT
// scan_persistent.wgsl: the single pass of scan_single_pass.wgsl (what it computes, and
// why it cannot hang without forward progress, is said there) for devices with
// subgroups, in persistent workgroups that run one tile ahead. A workgroup that takes
// one tile and then waits, idle, through its look-back leaves memory idle: on an H200,
// where a 1024-invocation workgroup fills a core, the one-tile kernel ran at 1.55 copies
// (bench/lab/sp-ahead2.sh: 804.6 µs against 666.9 for this shape of kernel, copy 518.8).
//
// Each workgroup claims tiles in turn. With tile t loaded, scanned and its aggregate
// published, an iteration
//   claims the next tile tn, loads it and scans its rows into the other segment table;
//   after one barrier, the second subgroup scans tn's table and publishes tn's
//   aggregate while the first looks back for t (so no aggregate waits on a look-back:
//   publishing tn's aggregate only after t's look-back chained the workgroups' waits,
//   1.5 to 5 x slower in the lab);
//   stores t with its prefix once the look-back is done.
// The states of t's predecessors were published about an iteration earlier, so the
// look-back rarely waits. In one-subgroup workgroups the first subgroup publishes, then
// looks back.
//
// Every workgroup makes exactly one claim past the chunk's last tile, so the host gives
// each chunk's dispatch the counter's value at its start (claim_base): chunk-local tile
// = claim - claim_base, global tile = tile_base + chunk-local tile.
//
// Bindings and params as scan_single_pass.wgsl, plus claim_base.

var<workgroup> ahead_total: array<T, 2>; // the aggregates of the tiles of tables 0 and 1

@compute @workgroup_size(WG)
fn scan_persistent(ids: Ids) {
    let lid = ids.lid;
    let n = params.n;
    let tiles = (n + TILE - 1u) / TILE;
    let ident = identity_from_bits(IDENTITY_BITS);
    let size = ids.sg_size;
    let sg = lid / size;
    let lane = ids.sg_lane;
    let publisher = min(1u, WG / size - 1u);

    var t = claim_tile(lid) - params.claim_base;
    if (t >= tiles) {
        return;
    }
    ahead = load_rows(ids, t * TILE, n, ident);
    rows_scan_ahead(ids, 0u, ident);
    words = ahead;
    lane_prefix = ahead_prefix;
    workgroupBarrier();
    if (sg == publisher) {
        let total = scan_segments(lane, size, ident, 0u);
        let g = params.tile_base + t;
        if (lane == 0u) {
            if (!(g == 0u && WITHHOLD_FIRST)) { // (the experiment: tests only)
                publish(g, select(AGGREGATE, INCLUSIVE, g == 0u), total);
            }
            ahead_total[0] = total;
        }
    }
    var tb = 0u; // t's table
    loop {
        let tn = claim_tile(lid) - params.claim_base; // its barrier: t's table and total are written
        let more = tn < tiles;
        let tbn = TABLE - tb;
        if (more) {
            ahead = load_rows(ids, tn * TILE, n, ident);
            rows_scan_ahead(ids, tbn, ident);
        }
        workgroupBarrier(); // tn's table is complete
        if (sg == publisher && more) {
            let total = scan_segments(lane, size, ident, tbn);
            if (lane == 0u) {
                publish(params.tile_base + tn, AGGREGATE, total); // tn > t: never tile 0
                ahead_total[tbn / TABLE] = total;
            }
        }
        if (sg == 0u) {
            let g = params.tile_base + t;
            var prefix = ident;
            if (g != 0u) {
                prefix = look_back_subgroup(lane, size, g, TileAgg(ahead_total[tb / TABLE], false), n, ident);
            }
            if (lane == 0u) {
                lookback_prefix = prefix;
            }
        }
        let prefix = with_carry(workgroupUniformLoad(&lookback_prefix));
        rows_store(ids, t * TILE, n, prefix, tb, SCAN_INCLUSIVE);
        if (!more) {
            break;
        }
        words = ahead;
        lane_prefix = ahead_prefix;
        t = tn;
        tb = tbn;
    }
}
