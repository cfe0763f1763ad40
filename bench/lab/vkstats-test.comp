#version 450
// wgscan-vkstats' test kernel: y[i] = x[i] * a + b over n u32, one element a lane.
//   glslangValidator -V --target-env vulkan1.1 bench/lab/vkstats-test.comp -o build/lab/vkstats-test.spv
//   build/wgscan-vkstats --time --groups 4096 --buffer 0=4M:random --buffer 1=4M
//       --uniform 2=1048576,3,1 build/lab/vkstats-test.spv   (one command line)
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer X { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Y { uint y[]; };
layout(std140, set = 0, binding = 2) uniform Params { uint n; uint a; uint b; } params;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n) y[i] = x[i] * params.a + params.b;
}
