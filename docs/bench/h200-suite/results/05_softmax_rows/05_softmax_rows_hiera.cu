// hiera expert candidate for '05_softmax_rows'
// strategy: P.grid_block_shape
// variant: threads/row 512, vec 4, registers
// precision: strict fp32 (no TF32)
//   stage 0: row reduction over 8192x8192: out = (exp((x - max_row(x))) / sum_row(exp((x - max_row(x)))))
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

// out = (exp((x - max_row(x))) / sum_row(exp((x - max_row(x)))))
// 8192 rows of 8192: 512 thread(s) per row, 1 row(s) per block, 4 vector(s) of 4 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(512) hiera_stage0(const float* __restrict__ p_x, float* __restrict__ p_out) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 8192;
    float4 c0[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 4;
        c0[j] = *reinterpret_cast<const float4*>(&p_x[rb0 + col]);
    }
    float acc0_0 = (-INFINITY);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float e0_0 = c0[j].x;
        const float e1_0 = c0[j].y;
        const float e2_0 = c0[j].z;
        const float e3_0 = c0[j].w;
        acc0_0 = fmaxf(acc0_0, e0_0);
        acc0_0 = fmaxf(acc0_0, e1_0);
        acc0_0 = fmaxf(acc0_0, e2_0);
        acc0_0 = fmaxf(acc0_0, e3_0);
    }
    const float red0_0 = hiera_block_max<16>(acc0_0, smem);  // max over the row
    float acc1_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float e0_0 = c0[j].x;
        const float e0_1 = (e0_0 - red0_0);
        const float e0_2 = expf(e0_1);
        const float e1_0 = c0[j].y;
        const float e1_1 = (e1_0 - red0_0);
        const float e1_2 = expf(e1_1);
        const float e2_0 = c0[j].z;
        const float e2_1 = (e2_0 - red0_0);
        const float e2_2 = expf(e2_1);
        const float e3_0 = c0[j].w;
        const float e3_1 = (e3_0 - red0_0);
        const float e3_2 = expf(e3_1);
        acc1_0 = acc1_0 + e0_2;
        acc1_0 = acc1_0 + e1_2;
        acc1_0 = acc1_0 + e2_2;
        acc1_0 = acc1_0 + e3_2;
    }
    const float red1_0 = hiera_block_sum<16>(acc1_0, smem);  // sum over the row
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 4;
        const float e0_0 = c0[j].x;
        const float e0_1 = (e0_0 - red0_0);
        const float e0_2 = expf(e0_1);
        const float e0_3 = (e0_2 / red1_0);
        const float e1_0 = c0[j].y;
        const float e1_1 = (e1_0 - red0_0);
        const float e1_2 = expf(e1_1);
        const float e1_3 = (e1_2 / red1_0);
        const float e2_0 = c0[j].z;
        const float e2_1 = (e2_0 - red0_0);
        const float e2_2 = expf(e2_1);
        const float e2_3 = (e2_2 / red1_0);
        const float e3_0 = c0[j].w;
        const float e3_1 = (e3_0 - red0_0);
        const float e3_2 = expf(e3_1);
        const float e3_3 = (e3_2 / red1_0);
        *reinterpret_cast<float4*>(&p_out[r * 8192 + col]) = make_float4(e0_3, e1_3, e2_3, e3_3);
    }
}

// out = (exp((x - max_row(x))) / sum_row(exp((x - max_row(x)))))
// 8192 rows of 8192: 512 thread(s) per row, 1 row(s) per block, 16 vector(s) of 1 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(512) hiera_stage0_scalar(const float* __restrict__ p_x, float* __restrict__ p_out) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 8192;
    float c0[16];
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 1;
        c0[j] = p_x[rb0 + col];
    }
    float acc0_0 = (-INFINITY);
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const float e0_0 = c0[j];
        acc0_0 = fmaxf(acc0_0, e0_0);
    }
    const float red0_0 = hiera_block_max<16>(acc0_0, smem);  // max over the row
    float acc1_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 - red0_0);
        const float e0_2 = expf(e0_1);
        acc1_0 = acc1_0 + e0_2;
    }
    const float red1_0 = hiera_block_sum<16>(acc1_0, smem);  // sum over the row
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 1;
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 - red0_0);
        const float e0_2 = expf(e0_1);
        const float e0_3 = (e0_2 / red1_0);
        p_out[r * 8192 + col] = e0_3;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 8192 || x->sizes[1] != 8192) return 2;  // specialized for 8192x8192
    if (out->ndim != 2 || out->sizes[0] != 8192 || out->sizes[1] != 8192) return 2;  // specialized for 8192x8192
    const float* p_x = (const float*)x->data;
    float* p_out = (float*)out->data;
    if (hiera_aligned16(p_x) && hiera_aligned16(p_out)) {
    hiera_stage0<<<8192, 512, 0, hiera_s>>>(p_x, p_out);
    } else {
    hiera_stage0_scalar<<<8192, 512, 0, hiera_s>>>(p_x, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
