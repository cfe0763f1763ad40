// SPDX-License-Identifier: MIT
// sort_onesweep.wgsl: the chained LSD radix sort (OneSweep: Adinets and Merrill, 2022):
// one pass over the keys counts the digits of every digit pass, then each digit pass
// reads the keys once and writes them once. src/sort.c records:
//   sort_reset      zeroes the digit histograms, the tile counters and the first
//                   pass's tile states
//   sort_histogram  each workgroup counts the digits of every pass over a group of
//                   tiles (workgroup atomics), then adds its counts to the histograms
//   sort_onesweep   one digit pass: each workgroup claims the next tile, ranks its keys
//                   (workgroup/sort_tile.wgsl), publishes the tile's count of each digit,
//                   learns from its predecessors' states where its keys of each digit
//                   start (the decoupled look-back, one digit an invocation) and writes
//                   the tile's runs there.
// The look-back never waits for ever: a digit whose predecessor state stays unready for
// MAX_SPINS reads makes the workgroup count that predecessor's digits itself from the
// input (the decoupled fallback of Smith, Levien and Owens), since WebGPU promises no
// forward progress between workgroups.
//
// State buffer (binding 3), in words: the histograms (pass p's digit d at p * RADIX +
// d), the tile counters from STATE_COUNTERS, then two regions of tile states from
// STATE_TILES, one word per (tile, digit): the 2-bit flag above 30 bits of count, so n
// < 2^30. Pass p uses region p % 2 and zeroes the other region's words of the tile it
// takes, for pass p + 1 (pass p - 1, which used it, has finished).
//
// Params (src/params.h): n keys; groups: the tiles (sort_onesweep) or the workgroups
// (sort_histogram); group_tiles: tiles a histogram workgroup counts; shift and bits of
// this pass's digit (the histogram: of the first pass, every later pass shifted by bits
// more, up to end_bit); digit_pass: this pass (the histogram: the number of passes); flags:
// FLAG_INDEX_VALUES (the values are the keys' input indices), FLAG_LAST_PASS.
// Bindings: 0 keys_in, 1 keys_out, 3 state, 5 values_in, 6 values_out.

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> state: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read> values_in: array<u32>;
@group(0) @binding(6) var<storage, read_write> values_out: array<u32>;

const NOT_READY: u32 = 0u;
const AGGREGATE: u32 = 1u;
const INCLUSIVE: u32 = 2u;
const COUNT_MASK: u32 = 0x3FFFFFFFu;

fn digit_of(i: u32, shift: u32, bits: u32) -> u32 {
    var hi = 0u;
    if (KEY_WORDS == 2u) {
        hi = keys_in[i * KEY_WORDS + 1u];
    }
    return digit_at(keys_in[i * KEY_WORDS], hi, shift, bits);
}

@compute @workgroup_size(WG)
fn sort_reset(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    // A grid-stride loop counted in rounds of the grid, so that Tint sees its end
    // (docs/design.md, 3).
    let stride = nwg.x * nwg.y * WG;
    let words = arrayLength(&state);
    let first = tile_index(wid, nwg) * WG + ids.lid;
    let rounds = (words + stride - 1u) / stride;
    for (var k = 0u; k < rounds; k++) {
        let i = first + k * stride;
        if (i < words) {
            atomicStore(&state[i], 0u);
        }
    }
}

var<workgroup> pass_digits: array<atomic<u32>, SORT_PASSES_MAX * RADIX>;

@compute @workgroup_size(WG)
fn sort_histogram(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = tile_index(wid, nwg);
    if (g >= params.groups) { // a folded grid's spare workgroups
        return;
    }
    let passes = params.digit_pass;
    // Counted loops, as in sort.wgsl's sort_count (RADIX is a multiple of WG).
    let digit_rounds = passes * (RADIX / WG);
    for (var k = 0u; k < digit_rounds; k++) {
        atomicStore(&pass_digits[k * WG + ids.lid], 0u);
    }
    workgroupBarrier();
    // A tile's keys (ITEMS rows of WG) loaded first, so that the loads overlap, then
    // counted; the passes' loop bounded by the plan's most (HIST_PASSES), so it unrolls.
    let group_tiles = params.group_tiles;
    for (var t = 0u; t < group_tiles; t++) {
        let tile_first = (g * group_tiles + t) * TILE;
        if (tile_first >= params.n) { // uniform: the group's last tiles may be past the end
            break;
        }
        let tile_n = min(TILE, params.n - tile_first);
        // @each item
        var hist_lo# = 0u;
        var hist_hi# = 0u;
        if (#u * WG + ids.lid < tile_n) {
            hist_lo# = keys_in[(tile_first + #u * WG + ids.lid) * KEY_WORDS];
            if (KEY_WORDS == 2u) {
                hist_hi# = keys_in[(tile_first + #u * WG + ids.lid) * KEY_WORDS + 1u];
            }
        }
        // @end
        for (var p = 0u; p < HIST_PASSES; p++) {
            if (p < passes) {
                let shift = params.shift + p * params.bits;
                let bits = select(min(params.bits, params.end_bit - shift), 0u, shift >= params.end_bit);
                // @each item
                if (#u * WG + ids.lid < tile_n) {
                    atomicAdd(&pass_digits[p * RADIX + digit_at(hist_lo#, hist_hi#, shift, bits)], 1u);
                }
                // @end
            }
        }
    }
    workgroupBarrier();
    for (var k = 0u; k < digit_rounds; k++) {
        let i = k * WG + ids.lid;
        let c = atomicLoad(&pass_digits[i]);
        if (c != 0u) {
            atomicAdd(&state[i], c);
        }
    }
}

var<workgroup> claimed_tile: u32;
var<workgroup> stall_mark: atomic<u32>; // 1 + the highest tile a digit waits on; 0: none
var<workgroup> fallback_digits: array<atomic<u32>, RADIX>;
var<private> digit_prefix: array<u32, DIGITS_PER_INVOCATION>; // where each of my digits starts
var<private> digit_base: array<u32, DIGITS_PER_INVOCATION>;   // the whole input's keys of smaller digits

// Every invocation calls it: digit_base from this pass's histogram (one workgroup scan).
fn load_digit_bases(ids: Ids) {
    var sum = 0u;
    for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
        let c = atomicLoad(&state[params.digit_pass * RADIX + ids.lid * DIGITS_PER_INVOCATION + k]);
        digit_base[k] = c;
        sum += c;
    }
    var at = workgroup_exclusive_scan(ids, sum, 0u);
    for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
        let c = digit_base[k];
        digit_base[k] = at;
        at += c;
    }
    workgroupBarrier(); // the scan's workgroup memory is free again
}

// Every invocation calls it, for tile t > 0: digit_prefix, the keys of each of the
// invocation's digits in tiles 0..t-1 plus digit_base. Each digit walks back on its own
// (no barrier per step) until an inclusive state; a round ends when every digit is done
// or waits on an unready tile; then the workgroup counts the highest such tile itself,
// publishes its counts for others and moves the digits that waited on it past it.
fn look_back(ids: Ids, t: u32, region: u32) {
    var next: array<u32, DIGITS_PER_INVOCATION>; // 1 + the tile to read next; 0: done
    for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
        next[k] = t;
        digit_prefix[k] = 0u;
    }
    loop {
        var stalled = 0u;
        for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
            let d = ids.lid * DIGITS_PER_INVOCATION + k;
            var spins = 0u;
            var narrow = false; // after a fruitless step, poll only the tile that blocks
            while (next[k] != 0u) {
                // The nearest LOOKBACK_PER_LANE states at once, so that their latencies
                // overlap; taken from the nearest while they are ready.
                let j = next[k];
                let reads = min(j, select(LOOKBACK_PER_LANE, 1u, narrow));
                var s: array<u32, LOOKBACK_PER_LANE>;
                for (var q = 0u; q < LOOKBACK_PER_LANE; q++) {
                    if (q < reads) {
                        s[q] = atomicLoad(&state[region + (j - 1u - q) * RADIX + d]);
                    }
                }
                var taken = 0u;
                var inclusive = false;
                var blocked = false;
                for (var q = 0u; q < LOOKBACK_PER_LANE; q++) {
                    if (q < reads && !blocked && !inclusive) {
                        let flag = s[q] >> 30u;
                        if (flag == NOT_READY) {
                            blocked = true;
                        } else {
                            digit_prefix[k] += s[q] & COUNT_MASK;
                            taken++;
                            inclusive = flag == INCLUSIVE;
                        }
                    }
                }
                // Tile 0 is only ever published inclusive, so the walk ends there.
                next[k] = select(j - taken, 0u, inclusive);
                narrow = taken == 0u;
                if (taken != 0u) {
                    spins = 0u;
                    continue;
                }
                spins++;
                if (spins >= MAX_SPINS) {
                    stalled = max(stalled, j);
                    break;
                }
            }
        }
        if (stalled != 0u) {
            atomicMax(&stall_mark, stalled);
        }
        let mark = workgroupUniformLoad(&stall_mark);
        if (mark == 0u) {
            break;
        }
        // The fallback: tile f (a whole tile: only the last one is partial) from the input.
        let f = mark - 1u;
        for (var k = 0u; k < RADIX / WG; k++) {
            atomicStore(&fallback_digits[k * WG + ids.lid], 0u);
        }
        if (ids.lid == 0u) {
            atomicStore(&stall_mark, 0u);
        }
        workgroupBarrier();
        for (var k = 0u; k < ITEMS; k++) { // TILE = ITEMS rows of WG keys
            atomicAdd(&fallback_digits[digit_of(f * TILE + k * WG + ids.lid, params.shift, params.bits)], 1u);
        }
        workgroupBarrier();
        if (f == 0u) {
            load_digit_bases(ids);
        }
        for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
            let d = ids.lid * DIGITS_PER_INVOCATION + k;
            let c = atomicLoad(&fallback_digits[d]);
            // Both writers of a state computed the same count; atomicMax never lowers a flag.
            let word = select((AGGREGATE << 30u) | c, (INCLUSIVE << 30u) | (digit_base[k] + c), f == 0u);
            atomicMax(&state[region + f * RADIX + d], word);
            if (next[k] == mark) {
                digit_prefix[k] += word & COUNT_MASK;
                next[k] = select(f, 0u, f == 0u);
            }
        }
    }
}

@compute @workgroup_size(WG)
fn sort_onesweep(ids: Ids) {
    let pass_index = params.digit_pass;
    let tiles = params.groups;
    // Tiles in claim order, so that every tile's predecessors were claimed (and started)
    // before it.
    if (ids.lid == 0u) {
        claimed_tile = atomicAdd(&state[STATE_COUNTERS + pass_index], 1u);
    }
    let t = workgroupUniformLoad(&claimed_tile);
    if (t >= tiles) { // a folded grid's spare workgroups
        return;
    }
    let region = STATE_TILES + (pass_index & 1u) * tiles * RADIX;
    let tile_first = t * TILE;
    let tile_n = min(TILE, params.n - tile_first);
    tile_clear(ids);
    if ((params.flags & FLAG_LAST_PASS) == 0u) {
        let other = STATE_TILES + ((pass_index + 1u) & 1u) * tiles * RADIX + t * RADIX;
        for (var k = 0u; k < RADIX / WG; k++) {
            atomicStore(&state[other + k * WG + ids.lid], 0u);
        }
    }
    workgroupBarrier();
    tile_rank(ids, tile_first, tile_n, params.shift, params.bits);
    workgroupBarrier();
    let sum = tile_totals(ids);
    // The tile's counts are published first and its keys placed in workgroup memory
    // before the look-back, so that the predecessors' states have had that long to
    // arrive.
    if (t == 0u) {
        load_digit_bases(ids);
        for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
            let d = ids.lid * DIGITS_PER_INVOCATION + k;
            digit_prefix[k] = digit_base[k];
            atomicStore(&state[region + d], (INCLUSIVE << 30u) | (digit_base[k] + slot_total[k]));
        }
    } else if ((SORT_SKIP & 1u) == 0u) {
        for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
            let d = ids.lid * DIGITS_PER_INVOCATION + k;
            atomicStore(&state[region + t * RADIX + d], (AGGREGATE << 30u) | slot_total[k]);
        }
    }
    tile_offsets(ids, sum);
    workgroupBarrier();
    tile_ranks(ids, tile_n);
    workgroupBarrier();
    tile_place(ids, tile_first, tile_n, (params.flags & FLAG_INDEX_VALUES) != 0u);
    if (t != 0u && (SORT_SKIP & 1u) != 0u) {
        // An experiment's timing without the look-back: each digit's place guessed as if
        // every tile held the input's share of it, so that the writes spread over the
        // output as the sort's do (the output is then wrong, its time about right).
        load_digit_bases(ids);
        for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
            let c = atomicLoad(&state[params.digit_pass * RADIX + ids.lid * DIGITS_PER_INVOCATION + k]);
            digit_prefix[k] = digit_base[k] + u32(f32(t) * f32(c) / f32(tiles));
        }
    } else if (t != 0u) {
        look_back(ids, t, region);
        for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
            let d = ids.lid * DIGITS_PER_INVOCATION + k;
            atomicStore(&state[region + t * RADIX + d], (INCLUSIVE << 30u) | (digit_prefix[k] + slot_total[k]));
        }
    }
    for (var k = 0u; k < DIGITS_PER_INVOCATION; k++) {
        tile_run(ids, k, digit_prefix[k]);
    }
    workgroupBarrier();
    if ((SORT_SKIP & 4u) == 0u) { // an experiment's timing without the writes
        tile_write(ids, tile_first, tile_n, params.shift, params.bits, (params.flags & FLAG_INDEX_VALUES) != 0u);
    }
}
