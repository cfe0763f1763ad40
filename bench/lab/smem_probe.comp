// SPDX-License-Identifier: MIT
// smem_probe.comp: how many workgroups of BALLAST bytes of shared memory a core holds
// at once (bench/lab/sort-variants-glsl.sh probe; docs/design.md 3, "Workgroup memory
// costs occupancy"). Each workgroup is one subgroup of PWG invocations that follow a chain
// of params.iters dependent loads through a 256-word table (binding 0, filled with
// 0, 1, 2, ...), so a workgroup's time is the chain's latency whatever else runs beside
// it, and the dispatch's time is that latency times the rounds the grid takes: groups /
// (cores x workgroups a core). The shared array is never used (the branch is never
// taken) but cannot be proven unused, so the driver reserves it.
// Build: glslangValidator -V --target-env vulkan1.1 -DBALLAST=B [-DPWG=32]
#version 450
#ifndef PWG
#define PWG 32
#endif
#ifndef BALLAST
#define BALLAST 0
#endif
layout(local_size_x = PWG) in;
layout(set = 0, binding = 0, std430) readonly buffer Table { uint table[]; };
layout(set = 0, binding = 1, std430) buffer Out { uint outv[]; };
layout(set = 0, binding = 2, std140) uniform Params { uint iters, a, b, c; } params;
#if BALLAST
shared uint ballast[BALLAST / 4];
#endif

void main() {
    const uint lid = gl_LocalInvocationIndex;
    uint x = lid;
    for (uint i = 0; i < params.iters; i++) x = table[(x + 1) & 255];
#if BALLAST
    if (x == 0xFFFFFFFFu) {
        ballast[lid % (BALLAST / 4)] = x;
        x = ballast[(lid + 1) % (BALLAST / 4)];
    }
#endif
    outv[gl_WorkGroupID.x * PWG + lid] = x;
}
