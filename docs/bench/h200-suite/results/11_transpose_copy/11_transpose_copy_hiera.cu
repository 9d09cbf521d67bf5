// hiera expert candidate for '11_transpose_copy'
// strategy: R.fuse_pointwise
// variant: transpose tile 64x64, block 32x16 (8/thread), xor swizzle
// precision: strict fp32 (no TF32)
//   stage 0: tiled transpose over 16x1024x4096: out = x
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"

typedef unsigned int idx_t;  // every index of this task fits
// out = x
// tiled transpose of the plane (dim 1: 1024) x (last dim: 4096), batch 16: 64x64 tiles, 32x16 threads, xor-swizzled shared memory; reads and writes both coalesced.
__global__ void __launch_bounds__(512) hiera_stage0(const float* __restrict__ p_x, float* __restrict__ p_out) {
    __shared__ float s0[64][64];
    const idx_t tile = blockIdx.x;
    const idx_t l0 = (tile % 64) * 64;
    const idx_t c0 = ((tile / 64) % 16) * 64;
    const idx_t b = tile / 1024;
    (void)b;
    const idx_t base0 = (b) * 4194304;  // x
    const idx_t base1 = (b) * 4194304;  // out
#pragma unroll
    for (int y = 0; y < 4; ++y) {
#pragma unroll
        for (int x = 0; x < 2; ++x) {
            const int j = (int)threadIdx.y + y * 16;  // along the last dim
            const int i = (int)threadIdx.x + x * 32;  // along dim 1: unit stride in the source
            const idx_t c = c0 + (idx_t)i, l = l0 + (idx_t)j;
            s0[j][i ^ (j & 31)] = p_x[base0 + c + l * 1024];
        }
    }
    __syncthreads();
#pragma unroll
    for (int y = 0; y < 4; ++y) {
#pragma unroll
        for (int x = 0; x < 2; ++x) {
            const int j = (int)threadIdx.y + y * 16;  // along dim 1
            const int i = (int)threadIdx.x + x * 32;  // along the last dim: unit stride in the output
            const idx_t c = c0 + (idx_t)j, l = l0 + (idx_t)i;
            const float t0 = s0[i][j ^ (i & 31)];
            p_out[base1 + c * 4096 + l] = t0;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 3 || x->sizes[0] != 16 || x->sizes[1] != 4096 || x->sizes[2] != 1024) return 2;  // specialized for 16x4096x1024
    if (out->ndim != 3 || out->sizes[0] != 16 || out->sizes[1] != 1024 || out->sizes[2] != 4096) return 2;  // specialized for 16x1024x4096
    const float* p_x = (const float*)x->data;
    float* p_out = (float*)out->data;
    hiera_stage0<<<16384, dim3(32, 16), 0, hiera_s>>>(p_x, p_out);
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
