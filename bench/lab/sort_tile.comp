// SPDX-License-Identifier: MIT
// sort_tile.comp: the laboratory's digit pass (bench/lab/sort_lab.wgsl, entry tile_pass)
// in GLSL for glslang, so that the same design can be timed as Tint's SPIR-V and as
// glslang's on one driver (bench/lab/tint-vs-glslang.sh; issue 32). It is the WGSL pass
// at its defaults (STAGE 4, RANK 1, TOT 1, SGC 1, PEERS 0) and nothing else: each
// workgroup takes GT tiles of WG * ITEMS keys in turn; subgroups of SG own strips of
// ITEMS rows; a key's peers (its digit, the low byte, in the same row) come from eight
// ballots and the ballot of all lanes; the first peer adds the peers' number to its
// owner's counter of that digit with one shared atomicAdd and the others take the old
// count by shuffle; the digits' totals over the owners, an exclusive scan of them over
// the workgroup (subgroup sums, then a serial sum of the subgroups before), the owners'
// starts; the keys placed in digit order in shared memory, then written to the runs a
// uniform distribution gives each (group, digit), clamped to n - 1.
// Same bindings as the WGSL (set 0: 0 keys, 1 output, 2 params {n, 7 words}, 3 aux),
// same shared arrays and sizes. Written as a GLSL programmer would: sizes are macros, the
// loops over constant counts are unrolled ([[unroll]], UNROLL 0 leaves that to the
// driver), the counters are plain shared words with atomicAdd for the one update (WGSL
// needs atomic<u32> and atomicLoad/atomicStore for the others).
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
#if UNROLL
#define UNROLLED [[unroll]]
#else
#define UNROLLED
#endif
#if 256 % WG != 0 || WG % SG != 0 || SG > 32 || (SG & (SG - 1)) != 0
#error "WG divides 256, SG divides WG, SG a power of two of at most 32 (one ballot word)"
#endif

#define TILE (WG * ITEMS)
#define OWNERS (WG / SG)
#define DPI (256 / WG)

layout(local_size_x = WG) in;

layout(set = 0, binding = 0, std430) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1, std430) buffer Dst { uint dst[]; };
layout(set = 0, binding = 2, std140) uniform Params { uint n, a, b, c, d, e, f, g; } params;
layout(set = 0, binding = 3, std430) buffer Aux { uint aux[]; };

shared uint counts[OWNERS * 256]; // per owner and digit
shared uint digit_start[256];
shared uint digit_total[256];
shared uint run_base[256];
shared uint tile_keys[TILE];
shared uint sg_sums[OWNERS];

void main() {
    const uint lid = gl_LocalInvocationIndex;
    const uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    const uint n = params.n;
    const uint tiles = n / TILE;
    const uint groups = (tiles + GT - 1) / GT;
    if (g >= groups) return;
    if (n == 0xFFFFFFFFu) aux[0] = 1; // never: keeps binding 3 in the module, as in the WGSL
    const uint owner = lid / SG;
    const uint lane = lid & (SG - 1);
    UNROLLED for (uint k = 0; k < DPI; k++) {
        const uint d = lid + k * WG;
        run_base[d] = d * (n / 256) + g * GT * (TILE / 256);
    }
    for (uint t = 0; t < GT; t++) {
        const uint tile = g * GT + t;
        if (tile >= tiles) break;
        const uint first = tile * TILE;
        const uint strip = owner * SG * ITEMS + lane;
        uint keys[ITEMS], rank[ITEMS];
        UNROLLED for (uint r = 0; r < ITEMS; r++) keys[r] = src[first + strip + r * SG];
        UNROLLED for (uint i = 0; i < OWNERS * 256 / WG; i++) counts[lid + i * WG] = 0;
        barrier();
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
            if (before == 0) old = atomicAdd(counts[owner * 256 + d], uint(bitCount(peers)));
            rank[r] = subgroupShuffle(old, uint(findLSB(peers))) + before;
        }
        barrier();
        // Digit totals over the owners, their exclusive scan over the workgroup (DPI
        // digits an invocation), then each owner's start of each digit.
        uint sum = 0;
        UNROLLED for (uint k = 0; k < DPI; k++) {
            const uint d = lid * DPI + k;
            uint total = 0;
            UNROLLED for (uint o = 0; o < OWNERS; o++) total += counts[o * 256 + d];
            digit_total[d] = total;
            sum += total;
        }
        const uint incl = subgroupInclusiveAdd(sum);
        if (lane == SG - 1) sg_sums[lid / SG] = incl;
        barrier();
        uint at = incl - sum;
        for (uint i = 0; i < lid / SG; i++) at += sg_sums[i];
        UNROLLED for (uint k = 0; k < DPI; k++) {
            const uint d = lid * DPI + k;
            digit_start[d] = at;
            UNROLLED for (uint o = 0; o < OWNERS; o++) {
                const uint c = counts[o * 256 + d];
                counts[o * 256 + d] = at;
                at += c;
            }
        }
        barrier();
        UNROLLED for (uint r = 0; r < ITEMS; r++) tile_keys[counts[owner * 256 + (keys[r] & 255)] + rank[r]] = keys[r];
        barrier();
        UNROLLED for (uint k = 0; k < ITEMS; k++) {
            const uint s = k * WG + lid;
            const uint key = tile_keys[s];
            const uint d = key & 255;
            dst[min(run_base[d] + s - digit_start[d], n - 1)] = key;
        }
        barrier();
        UNROLLED for (uint k = 0; k < DPI; k++) run_base[lid * DPI + k] += digit_total[lid * DPI + k];
    }
}
