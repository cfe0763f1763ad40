// SPDX-License-Identifier: MIT
// sort_tile.comp: the laboratory's digit pass (bench/lab/sort_lab.wgsl, entry tile_pass)
// in GLSL for glslang, so that the same design can be timed as Tint's SPIR-V and as
// glslang's on one driver (bench/lab/tint-vs-glslang.sh; issue 32), and its design
// varied by macros (bench/lab/sort-variants-glsl.sh). At the defaults it is the WGSL pass
// at its defaults (STAGE 4, RANK 1, TOT 1, SGC 1, PEERS 0): each workgroup takes GT tiles
// of WG * ITEMS keys in turn; subgroups of SG own strips of ITEMS rows; a key's peers
// (its digit, the low byte, in the same row) come from eight ballots and the ballot of
// all lanes; the first peer adds the peers' number to its owner's counter of that digit
// with one shared atomicAdd and the others take the old count by shuffle; the digits'
// totals over the owners, an exclusive scan of them over the workgroup (subgroup sums,
// then a serial sum of the subgroups before), the owners' starts; the keys placed in
// digit order in shared memory, then written to the runs a uniform distribution gives
// each (group, digit).
// The runs: a group's run of a digit is SPAN = ceil(GT * TILE / 256) + params.a words
// long, a digit's part of the output groups * SPAN; writes are clamped to the output's
// last word. With params.a = 0 and 256 dividing GT * TILE this is the WGSL's layout
// (d * (n / 256) + g * GT * TILE / 256, clamped to n - 1 where the output holds n); a
// check gives params.a > 0 so that its groups may hold uneven digits.
// The variants (each gives every key the place the defaults give it):
//   RANK 2     CUB's early counts (BlockRadixRankMatchEarlyCounts): each key adds 1 to
//              its owner's counter first, the totals and starts are scanned, then the
//              ballots' peers are ranked and the highest peer's one atomicAdd of the
//              peers' number returns their place in the tile (no second read of the rows)
//   STAGED 0   each key written from registers to its run (no staging in shared memory)
//   ROOM 1     the owners' counter rows and the staged keys in one array: each key's place
//              is completed in registers first (the library's sort tile since 1a824b6)
//   SCAN 2     the scan reads each owner's row once (kept in registers) and adds the
//              subgroups before by an unrolled loop over all of them
//   FUSE 1     one table of run starts less the tile's digit starts, the run bases in
//              registers: the writes read one word a key instead of two
//   BALLAST B  B bytes more of shared memory, never used (occupancy)
//   COPY 1     the keys into registers and out again to their own places, nothing else:
//              what reading and writing them costs in this harness (the yardstick)
// WG need not divide 256: digit d belongs to invocation d / DPI, DPI = ceil(256 / WG).
// Same bindings as the WGSL (set 0: 0 keys, 1 output, 2 params {n, a, 6 words}, 3 aux).
// Written as a GLSL programmer would: sizes are macros, the loops over constant counts are
// unrolled ([[unroll]], UNROLL 0 leaves that to the driver), the counters are plain
// shared words with atomicAdd for the updates (WGSL needs atomic<u32> and
// atomicLoad/atomicStore for the others).
// Build: glslangValidator -V --target-env vulkan1.1 -DSG=32 [-DWG=.. -DITEMS=.. -DGT=..]
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require

#ifndef WG
#define WG 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif
#ifndef GT
#define GT 16
#endif
#ifndef SG
#define SG 32
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
#ifndef RANK
#define RANK 1
#endif
#ifndef STAGED
#define STAGED 1
#endif
#ifndef ROOM
#define ROOM 0
#endif
#ifndef SCAN
#define SCAN 1
#endif
#ifndef FUSE
#define FUSE 0
#endif
#ifndef BALLAST
#define BALLAST 0
#endif
#ifndef COPY
#define COPY 0
#endif
#if UNROLL
#define UNROLLED [[unroll]]
#else
#define UNROLLED
#endif
#if WG % SG != 0 || WG > 1024 || SG > 32 || (SG & (SG - 1)) != 0
#error "SG divides WG (at most 1024), SG a power of two of at most 32 (one ballot word)"
#endif
#if (RANK != 1 && RANK != 2) || (SCAN != 1 && SCAN != 2) || BALLAST % 4 != 0
#error "RANK 1 or 2, SCAN 1 or 2, BALLAST a multiple of 4"
#endif
#if ROOM && !STAGED
#error "ROOM shares the counters with the staged keys: STAGED 0 has none"
#endif

#define TILE (WG * ITEMS)
#define OWNERS (WG / SG)
#define ROWS (OWNERS * 256)
#define DPI ((256 + WG - 1) / WG)
#define ALL_DIGITS (DPI * WG == 256)

layout(local_size_x = WG) in;

layout(set = 0, binding = 0, std430) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1, std430) buffer Dst { uint dst[]; };
layout(set = 0, binding = 2, std140) uniform Params { uint n, a, b, c, d, e, f, g; } params;
layout(set = 0, binding = 3, std430) buffer Aux { uint aux[]; };

#if ROOM
shared uint room[ROWS > TILE ? ROWS : TILE];
#define COUNT(i) room[i]
#define KEYS(i) room[i]
#else
shared uint counts[ROWS]; // per owner and digit
#define COUNT(i) counts[i]
#if STAGED
shared uint tile_keys[TILE];
#define KEYS(i) tile_keys[i]
#endif
#endif
#if FUSE
shared uint run_off[256];
#define OFF(d) run_off[d]
#else
shared uint digit_start[256];
shared uint digit_total[256];
shared uint run_base[256];
#define OFF(d) (run_base[d] - digit_start[d])
#endif
shared uint sg_sums[OWNERS];
#if BALLAST
shared uint ballast[BALLAST / 4];
#endif

void main() {
    const uint lid = gl_LocalInvocationIndex;
    const uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    const uint n = params.n;
    const uint tiles = n / TILE;
    const uint groups = (tiles + GT - 1) / GT;
    if (g >= groups) return;
    if (n == 0xFFFFFFFFu) { // never: keeps binding 3 (and the ballast) in the module
#if BALLAST
        ballast[lid % (BALLAST / 4)] = lid;
        aux[0] = ballast[(lid + 1) % (BALLAST / 4)];
#else
        aux[0] = 1;
#endif
    }
    const uint owner = lid / SG;
    const uint lane = lid & (SG - 1);
    const uint span = (GT * TILE + 255) / 256 + params.a;
    const uint region = groups * span;
    const uint last = uint(dst.length()) - 1;
#if FUSE
    uint base[DPI];
    UNROLLED for (uint k = 0; k < DPI; k++) base[k] = (lid * DPI + k) * region + g * span;
#else
    UNROLLED for (uint k = 0; k < DPI; k++) {
        const uint d = lid + k * WG;
        if (ALL_DIGITS || d < 256) run_base[d] = d * region + g * span;
    }
#endif
    for (uint t = 0; t < GT; t++) {
        const uint tile = g * GT + t;
        if (tile >= tiles) break;
        const uint first = tile * TILE;
        const uint strip = owner * SG * ITEMS + lane;
        uint keys[ITEMS], pos[ITEMS];
        UNROLLED for (uint r = 0; r < ITEMS; r++) keys[r] = src[first + strip + r * SG];
#if COPY
        UNROLLED for (uint r = 0; r < ITEMS; r++) dst[first + strip + r * SG] = keys[r];
        continue;
#endif
        UNROLLED for (uint i = 0; i < ROWS / WG; i++) COUNT(lid + i * WG) = 0;
        barrier();
#if RANK == 2
        UNROLLED for (uint r = 0; r < ITEMS; r++) atomicAdd(COUNT(owner * 256 + (keys[r] & 255)), 1);
        barrier();
#else
        UNROLLED for (uint r = 0; r < ITEMS; r++) {
            const uint d = keys[r] & 255;
            uint peers = subgroupBallot(true).x;
            UNROLLED for (uint b = 0; b < 8; b++) {
                const bool one = ((d >> b) & 1) != 0;
                const uint bal = subgroupBallot(one).x;
                peers &= one ? bal : ~bal;
            }
            const uint before = uint(bitCount(peers & ((1u << lane) - 1)));
            uint old = 0;
            if (before == 0) old = atomicAdd(COUNT(owner * 256 + d), uint(bitCount(peers)));
            pos[r] = subgroupShuffle(old, uint(findLSB(peers))) + before;
        }
        barrier();
#endif
        // Digit totals over the owners, their exclusive scan over the workgroup (DPI
        // digits an invocation), then each owner's start of each digit.
        uint sum = 0;
        uint total[DPI];
#if SCAN == 2
        uint row[DPI * OWNERS];
#endif
        UNROLLED for (uint k = 0; k < DPI; k++) {
            const uint d = lid * DPI + k;
            total[k] = 0;
            if (ALL_DIGITS || d < 256) {
                UNROLLED for (uint o = 0; o < OWNERS; o++) {
                    const uint c = COUNT(o * 256 + d);
#if SCAN == 2
                    row[k * OWNERS + o] = c;
#endif
                    total[k] += c;
                }
#if !FUSE
                digit_total[d] = total[k];
#endif
            }
            sum += total[k];
        }
        const uint incl = subgroupInclusiveAdd(sum);
        if (lane == SG - 1) sg_sums[owner] = incl;
        barrier();
        uint at = incl - sum;
#if SCAN == 2
        UNROLLED for (uint i = 0; i < OWNERS; i++) at += i < owner ? sg_sums[i] : 0;
#else
        for (uint i = 0; i < owner; i++) at += sg_sums[i];
#endif
        UNROLLED for (uint k = 0; k < DPI; k++) {
            const uint d = lid * DPI + k;
            if (ALL_DIGITS || d < 256) {
#if FUSE
                run_off[d] = base[k] - at;
#else
                digit_start[d] = at;
#endif
                UNROLLED for (uint o = 0; o < OWNERS; o++) {
#if SCAN == 2
                    const uint c = row[k * OWNERS + o];
#else
                    const uint c = COUNT(o * 256 + d);
#endif
                    COUNT(o * 256 + d) = at;
                    at += c;
                }
            }
        }
        barrier();
#if RANK == 2
        UNROLLED for (uint r = 0; r < ITEMS; r++) {
            const uint d = keys[r] & 255;
            uint peers = subgroupBallot(true).x;
            UNROLLED for (uint b = 0; b < 8; b++) {
                const bool one = ((d >> b) & 1) != 0;
                const uint bal = subgroupBallot(one).x;
                peers &= one ? bal : ~bal;
            }
            const uint upto = uint(bitCount(peers & (0xFFFFFFFFu >> (31 - lane))));
            const uint top = uint(findMSB(peers));
            uint old = 0;
            if (lane == top) old = atomicAdd(COUNT(owner * 256 + d), upto);
            pos[r] = subgroupShuffle(old, top) + upto - 1;
        }
#else
        UNROLLED for (uint r = 0; r < ITEMS; r++) pos[r] += COUNT(owner * 256 + (keys[r] & 255));
#endif
#if STAGED
#if ROOM
        barrier(); // every read and atomic of the rows done before the keys move in
#endif
        UNROLLED for (uint r = 0; r < ITEMS; r++) KEYS(pos[r]) = keys[r];
        barrier();
        UNROLLED for (uint k = 0; k < ITEMS; k++) {
            const uint s = k * WG + lid;
            const uint key = KEYS(s);
            dst[min(OFF(key & 255) + s, last)] = key;
        }
#else
        UNROLLED for (uint r = 0; r < ITEMS; r++) dst[min(OFF(keys[r] & 255) + pos[r], last)] = keys[r];
#endif
        barrier();
        UNROLLED for (uint k = 0; k < DPI; k++) {
#if FUSE
            base[k] += total[k];
#else
            const uint d = lid * DPI + k;
            if (ALL_DIGITS || d < 256) run_base[d] += digit_total[d];
#endif
        }
    }
}
