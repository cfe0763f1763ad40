// SPDX-License-Identifier: MIT
// alloc.wgsl: a bump allocator over an arena of `arena` units, for many requests at once.
// The allocator's state is one word, the arena's top, kept in a buffer across calls.
//
// Scan version (in request order): offsets holds the exclusive scan of the sizes;
// alloc_place turns it into top + offset for the requests that fit and NONE for the
// rest (the requests that fit are a prefix: the scan is monotone), then alloc_commit
// finds the last placed request by binary search and moves the top past it.
// Atomic version: each request takes its block with one fetch-add on the top, in no
// particular order; see alloc_atomic.
//
// Bindings: 0 sizes (u32), 1 offsets (u32), 3 state (word 0: the top; word 1: scratch
// of the atomic version).
// Params: n requests, arena = the arena's size.

@group(0) @binding(0) var<storage, read> sizes: array<u32>;
@group(0) @binding(1) var<storage, read_write> offsets: array<u32>;
@group(0) @binding(3) var<storage, read_write> state: array<atomic<u32>>;

const NONE: u32 = 0xFFFFFFFFu;

@compute @workgroup_size(WG)
fn alloc_place(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = tile_index(wid, nwg) * WG + ids.lid;
    if (i >= params.n) {
        return;
    }
    let top = atomicLoad(&state[0]);
    let free = params.arena - min(top, params.arena);
    let start = offsets[i];
    // start + size <= free, without overflow: sizes of one call sum below 2^32
    if (start <= free && sizes[i] <= free - start) {
        offsets[i] = top + start;
    } else {
        offsets[i] = NONE;
    }
}

@compute @workgroup_size(1)
fn alloc_commit() {
    // offsets: placed requests (a prefix), then NONE
    var lo = 0u;
    var hi = params.n;
    while (lo < hi) {
        let mid = lo + (hi - lo) / 2u;
        if (offsets[mid] != NONE) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    if (lo > 0u) {
        atomicStore(&state[0], offsets[lo - 1u] + sizes[lo - 1u]);
    }
}

// Atomic version: one fetch-add per request; the requests served are those that still
// fit in the order the adds happen, and the end of the last one goes to state[1].
// (A compare-exchange loop that adds only what fits lets one request through per round
// of retries: far too slow for many requests on one word; see docs/design.md.)
@compute @workgroup_size(WG)
fn alloc_atomic(ids: Ids, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = tile_index(wid, nwg) * WG + ids.lid;
    if (i >= params.n) {
        return;
    }
    let size = sizes[i];
    let old = atomicAdd(&state[0], size);
    if (old <= params.arena && size <= params.arena - old) {
        offsets[i] = old;
        atomicMax(&state[1], old + size);
    } else {
        offsets[i] = NONE;
    }
}

// Before alloc_atomic: the end of the served blocks starts at the top.
@compute @workgroup_size(1)
fn alloc_atomic_begin() {
    atomicStore(&state[1], atomicLoad(&state[0]));
}

// After: the top moves to the end of the served blocks (the adds of the requests that
// did not fit are undone all at once).
@compute @workgroup_size(1)
fn alloc_atomic_end() {
    atomicStore(&state[0], atomicLoad(&state[1]));
}
