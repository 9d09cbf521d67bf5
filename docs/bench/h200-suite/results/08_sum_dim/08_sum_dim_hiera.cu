// hiera expert candidate for '08_sum_dim'
// strategy: R.fuse_reduction
// variant: threads/row 32, 8 rows/block, vec 4, registers
// precision: strict fp32 (no TF32)
//   stage 0: row reduction over 128x128x4096: out = sum_row(x)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"

typedef unsigned int idx_t;  // every index of this task fits

// Combine a value across `W` consecutive lanes (W a power of two <= 32); every lane gets the result.
template <int W> __device__ __forceinline__ float hiera_warp_sum(float v) {
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
template <int W> __device__ __forceinline__ float hiera_warp_max(float v) {
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
template <int W> __device__ __forceinline__ float hiera_warp_min(float v) {
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
// Combine across a whole block of NW warps: each warp's result goes through shared memory, then every
// warp reduces the NW partials itself, so all threads get the total without a second broadcast.
#define HIERA_BLOCK_REDUCE(NAME, OP, IDENTITY)                                       \
    template <int NW> __device__ __forceinline__ float NAME(float v, float* smem) { \
        v = OP<32>(v);                                                               \
        const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;                  \
        if (lane == 0) smem[warp] = v;                                               \
        __syncthreads();                                                             \
        v = lane < NW ? smem[lane] : IDENTITY;                                       \
        v = OP<32>(v);                                                               \
        __syncthreads();                                                             \
        return v;                                                                    \
    }
HIERA_BLOCK_REDUCE(hiera_block_sum, hiera_warp_sum, 0.0f)
HIERA_BLOCK_REDUCE(hiera_block_max, hiera_warp_max, -INFINITY)
HIERA_BLOCK_REDUCE(hiera_block_min, hiera_warp_min, INFINITY)

// out = sum_row(x)
// 16384 rows of 4096: 32 thread(s) per row, 32 row(s) per block, 128 vector(s) of 1 per thread; 1 reduction pass(es); rows across threads (the row is strided in memory)
__global__ void __launch_bounds__(1024) hiera_stage0(const float* __restrict__ p_x, float* __restrict__ p_out) {
    __shared__ float xsm[32][33];
    const int lane = threadIdx.x / 32, rib = threadIdx.x % 32;
    const idx_t r = (idx_t)blockIdx.x * 32 + rib;
    const idx_t rb0 = (r / 128) * 524288 + r % 128;
    float acc0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 128; ++j) {
        const idx_t col = (idx_t)(lane + j * 32) * 1;
        const float e0_0 = p_x[rb0 + (col) * 128];
        acc0_0 = acc0_0 + e0_0;
    }
    xsm[lane][rib] = acc0_0;
    __syncthreads();
    if (lane == 0) {
        float v = xsm[0][rib];
        for (int l = 1; l < 32; ++l) v = v + xsm[l][rib];
        xsm[0][rib] = v;
    }
    __syncthreads();
    const float red0_0 = xsm[0][rib];  // sum over the row
    __syncthreads();
    if (lane == 0) {
        p_out[r] = red0_0;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, int64_t dim, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 3 || x->sizes[0] != 128 || x->sizes[1] != 4096 || x->sizes[2] != 128) return 2;  // specialized for 128x4096x128
    (void)dim;  // baked into the kernels as a constant
    if (out->ndim != 2 || out->sizes[0] != 128 || out->sizes[1] != 128) return 2;  // specialized for 128x128
    const float* p_x = (const float*)x->data;
    float* p_out = (float*)out->data;
    hiera_stage0<<<512, 1024, 0, hiera_s>>>(p_x, p_out);
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
