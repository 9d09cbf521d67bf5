// hiera expert candidate for '07_rmsnorm'
// strategy: R.fuse_reduction
// variant: threads/row 32, 8 rows/block, vec 4, registers
// precision: strict fp32 (no TF32)
//   stage 0: row reduction over 16384x4096: out = ((x * rsqrt(((sum_row((… * …)) / 4096) + 1e-06))) * weight)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"

typedef unsigned int idx_t;  // every index of this task fits

static inline bool hiera_aligned16(const void* p) { return ((uintptr_t)p & 15u) == 0; }


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

// out = ((x * rsqrt(((sum_row((… * …)) / 4096) + 1e-06))) * weight)
// 16384 rows of 4096: 32 thread(s) per row, 8 row(s) per block, 32 vector(s) of 4 per thread; 1 reduction pass(es)
__global__ void __launch_bounds__(256) hiera_stage0(const float* __restrict__ p_x, const float* __restrict__ p_weight, float* __restrict__ p_out) {
    const int lane = threadIdx.x % 32;
    const idx_t r = (idx_t)blockIdx.x * 8 + threadIdx.x / 32;
    const idx_t rb0 = (r) * 4096;
    const idx_t rb1 = 0;
    float acc0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 32; ++j) {
        const idx_t col = (idx_t)(lane + j * 32) * 4;
        const float4 q0 = *reinterpret_cast<const float4*>(&p_x[rb0 + col]);
        const float e0_0 = q0.x;
        const float e0_1 = (e0_0 * e0_0);
        const float e1_0 = q0.y;
        const float e1_1 = (e1_0 * e1_0);
        const float e2_0 = q0.z;
        const float e2_1 = (e2_0 * e2_0);
        const float e3_0 = q0.w;
        const float e3_1 = (e3_0 * e3_0);
        acc0_0 = acc0_0 + e0_1;
        acc0_0 = acc0_0 + e1_1;
        acc0_0 = acc0_0 + e2_1;
        acc0_0 = acc0_0 + e3_1;
    }
    const float red0_0 = hiera_warp_sum<32>(acc0_0);  // sum over the row
    const float h1_0 = (red0_0 / 4096.0f);
    const float h1_1 = (h1_0 + 1e-06f);
    const float h1_2 = rsqrtf(h1_1);
#pragma unroll
    for (int j = 0; j < 32; ++j) {
        const idx_t col = (idx_t)(lane + j * 32) * 4;
        const float4 q0 = *reinterpret_cast<const float4*>(&p_x[rb0 + col]);
        const float4 q1 = *reinterpret_cast<const float4*>(&p_weight[rb1 + col]);
        const float e0_0 = q0.x;
        const float e0_1 = (e0_0 * h1_2);
        const float e0_2 = q1.x;
        const float e0_3 = (e0_1 * e0_2);
        const float e1_0 = q0.y;
        const float e1_1 = (e1_0 * h1_2);
        const float e1_2 = q1.y;
        const float e1_3 = (e1_1 * e1_2);
        const float e2_0 = q0.z;
        const float e2_1 = (e2_0 * h1_2);
        const float e2_2 = q1.z;
        const float e2_3 = (e2_1 * e2_2);
        const float e3_0 = q0.w;
        const float e3_1 = (e3_0 * h1_2);
        const float e3_2 = q1.w;
        const float e3_3 = (e3_1 * e3_2);
        *reinterpret_cast<float4*>(&p_out[r * 4096 + col]) = make_float4(e0_3, e1_3, e2_3, e3_3);
    }
}

// out = ((x * rsqrt(((sum_row((… * …)) / 4096) + 1e-06))) * weight)
// 16384 rows of 4096: 32 thread(s) per row, 8 row(s) per block, 128 vector(s) of 1 per thread; 1 reduction pass(es)
__global__ void __launch_bounds__(256) hiera_stage0_scalar(const float* __restrict__ p_x, const float* __restrict__ p_weight, float* __restrict__ p_out) {
    const int lane = threadIdx.x % 32;
    const idx_t r = (idx_t)blockIdx.x * 8 + threadIdx.x / 32;
    const idx_t rb0 = (r) * 4096;
    const idx_t rb1 = 0;
    float acc0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 128; ++j) {
        const idx_t col = (idx_t)(lane + j * 32) * 1;
        const float e0_0 = p_x[rb0 + col];
        const float e0_1 = (e0_0 * e0_0);
        acc0_0 = acc0_0 + e0_1;
    }
    const float red0_0 = hiera_warp_sum<32>(acc0_0);  // sum over the row
    const float h1_0 = (red0_0 / 4096.0f);
    const float h1_1 = (h1_0 + 1e-06f);
    const float h1_2 = rsqrtf(h1_1);
#pragma unroll
    for (int j = 0; j < 128; ++j) {
        const idx_t col = (idx_t)(lane + j * 32) * 1;
        const float e0_0 = p_x[rb0 + col];
        const float e0_1 = (e0_0 * h1_2);
        const float e0_2 = p_weight[rb1 + col];
        const float e0_3 = (e0_1 * e0_2);
        p_out[r * 4096 + col] = e0_3;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* weight, double eps, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 16384 || x->sizes[1] != 4096) return 2;  // specialized for 16384x4096
    if (weight->ndim != 1 || weight->sizes[0] != 4096) return 2;  // specialized for 4096
    (void)eps;  // baked into the kernels as a constant
    if (out->ndim != 2 || out->sizes[0] != 16384 || out->sizes[1] != 4096) return 2;  // specialized for 16384x4096
    const float* p_x = (const float*)x->data;
    const float* p_weight = (const float*)weight->data;
    float* p_out = (float*)out->data;
    if (hiera_aligned16(p_x) && hiera_aligned16(p_weight) && hiera_aligned16(p_out)) {
    hiera_stage0<<<2048, 256, 0, hiera_s>>>(p_x, p_weight, p_out);
    } else {
    hiera_stage0_scalar<<<2048, 256, 0, hiera_s>>>(p_x, p_weight, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
