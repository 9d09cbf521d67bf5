// hiera expert candidate for '100_HingeLoss'
// strategy: R.fuse_reduction
// variant: threads/row auto x2, vec 4, registers; block 256, vec 4, ilp 2
// sizes: the shapes of get_inputs() only
// precision: strict fp32 (no TF32)
//   stage 0: row reduction over 32768x32768: tmp0 = sum_row(clamp_min((1 - (predictions * targets)), 0))
//   stage 1: row reduction over 1x32768: tmp1 = sum_row(tmp0)
//   stage 2: fused pointwise over 1: out = (tmp1 / 1.07374e+09)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"

typedef unsigned int idx_t;  // every index of this task fits

static inline bool hiera_aligned16(const void* p) { return ((uintptr_t)p & 15u) == 0; }


// Temporaries live in one device buffer kept for the life of the library (grown if ever needed).
static float* hiera_workspace(size_t bytes) {
    static float* ws = nullptr;
    static size_t have = 0;
    if (have < bytes) {
        if (ws != nullptr) cudaFree(ws);
        ws = nullptr;
        have = 0;
        if (cudaMalloc((void**)&ws, bytes) != cudaSuccess) return nullptr;
        have = bytes;
    }
    return ws;
}


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

// tmp0 = sum_row(clamp_min((1 - (predictions * targets)), 0))
// 32768 rows of 32768: 1024 thread(s) per row, 1 row(s) per block, 8 vector(s) of 4 per thread; 1 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(1024) hiera_stage0(const float* __restrict__ p_predictions, const float* __restrict__ p_targets, float* __restrict__ p_tmp0) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 32768;
    const idx_t rb1 = 0;
    float4 c0[8];
    float4 c1[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const idx_t col = ((idx_t)j * 1024 + lane) * 4;
        c0[j] = *reinterpret_cast<const float4*>(&p_predictions[rb0 + col]);
        c1[j] = *reinterpret_cast<const float4*>(&p_targets[rb1 + col]);
    }
    float acc0_0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const float e0_0 = c0[j].x;
        const float e0_1 = c1[j].x;
        const float e0_2 = (e0_0 * e0_1);
        const float e0_3 = (1.0f - e0_2);
        const float e0_4 = fmaxf(e0_3, 0.0f);
        const float e1_0 = c0[j].y;
        const float e1_1 = c1[j].y;
        const float e1_2 = (e1_0 * e1_1);
        const float e1_3 = (1.0f - e1_2);
        const float e1_4 = fmaxf(e1_3, 0.0f);
        const float e2_0 = c0[j].z;
        const float e2_1 = c1[j].z;
        const float e2_2 = (e2_0 * e2_1);
        const float e2_3 = (1.0f - e2_2);
        const float e2_4 = fmaxf(e2_3, 0.0f);
        const float e3_0 = c0[j].w;
        const float e3_1 = c1[j].w;
        const float e3_2 = (e3_0 * e3_1);
        const float e3_3 = (1.0f - e3_2);
        const float e3_4 = fmaxf(e3_3, 0.0f);
        acc0_0_0 += e0_4 + e1_4 + e2_4 + e3_4;
    }
    acc0_0_0 = hiera_block_sum<32>(acc0_0_0, smem);
    const float red0_0_0 = acc0_0_0;  // sum over the row
    if (lane == 0) {
        p_tmp0[r] = red0_0_0;
    }
}

// tmp0 = sum_row(clamp_min((1 - (predictions * targets)), 0))
// 32768 rows of 32768: 1024 thread(s) per row, 1 row(s) per block, 32 vector(s) of 1 per thread; 1 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(1024) hiera_stage0_scalar(const float* __restrict__ p_predictions, const float* __restrict__ p_targets, float* __restrict__ p_tmp0) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 32768;
    const idx_t rb1 = 0;
    float c0[32];
    float c1[32];
#pragma unroll
    for (int j = 0; j < 32; ++j) {
        const idx_t col = ((idx_t)j * 1024 + lane) * 1;
        c0[j] = p_predictions[rb0 + col];
        c1[j] = p_targets[rb1 + col];
    }
    float acc0_0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 32; ++j) {
        const float e0_0 = c0[j];
        const float e0_1 = c1[j];
        const float e0_2 = (e0_0 * e0_1);
        const float e0_3 = (1.0f - e0_2);
        const float e0_4 = fmaxf(e0_3, 0.0f);
        acc0_0_0 += e0_4;
    }
    acc0_0_0 = hiera_block_sum<32>(acc0_0_0, smem);
    const float red0_0_0 = acc0_0_0;  // sum over the row
    if (lane == 0) {
        p_tmp0[r] = red0_0_0;
    }
}

// tmp1 = sum_row(tmp0)
// 1 rows of 32768: 1024 thread(s) per row, 1 row(s) per block, 8 vector(s) of 4 per thread; 1 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(1024) hiera_stage1(const float* __restrict__ p_tmp0, float* __restrict__ p_tmp1) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = 0;
    float4 c0[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const idx_t col = ((idx_t)j * 1024 + lane) * 4;
        c0[j] = *reinterpret_cast<const float4*>(&p_tmp0[rb0 + col]);
    }
    float acc0_0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const float e0_0 = c0[j].x;
        const float e1_0 = c0[j].y;
        const float e2_0 = c0[j].z;
        const float e3_0 = c0[j].w;
        acc0_0_0 += e0_0 + e1_0 + e2_0 + e3_0;
    }
    acc0_0_0 = hiera_block_sum<32>(acc0_0_0, smem);
    const float red0_0_0 = acc0_0_0;  // sum over the row
    if (lane == 0) {
        p_tmp1[r] = red0_0_0;
    }
}

// pass 1 of 1: each chunk's partial result
// tmp1 = sum_row(tmp0)
// 1 rows of 32768: 1024 thread(s) per row, 1 row(s) per block, 8 vector(s) of 1 per thread; 1 reduction pass(es); each row split over 4 blocks of 8192 elements
__global__ void __launch_bounds__(1024) hiera_stage1_scalar_pass0(const float* __restrict__ p_tmp0, float* __restrict__ p_hiera_stage1_scalar_part0_0_0) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t chunk = blockIdx.y;
    const idx_t c0 = chunk * 8192;
    (void)c0;
    const idx_t rb0 = 0;
    float acc0_0_0 = 0.0f;
#pragma unroll 4
    for (int j = 0; j < 8; ++j) {
        const idx_t col = c0 + ((idx_t)j * 1024 + lane) * 1;
        const float e0_0 = p_tmp0[rb0 + col];
        acc0_0_0 += e0_0;
    }
    acc0_0_0 = hiera_block_sum<32>(acc0_0_0, smem);
    if (lane == 0) {
        p_hiera_stage1_scalar_part0_0_0[r * 4 + chunk] = acc0_0_0;
    }
}

// the outputs
// tmp1 = sum_row(tmp0)
// 1 rows of 32768: 1024 thread(s) per row, 1 row(s) per block, 8 vector(s) of 1 per thread; 1 reduction pass(es); each row split over 4 blocks of 8192 elements
__global__ void __launch_bounds__(1024) hiera_stage1_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_hiera_stage1_scalar_part0_0_0, float* __restrict__ p_tmp1) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t chunk = blockIdx.y;
    const idx_t c0 = chunk * 8192;
    (void)c0;
    float acc0_0_0 = 0.0f;
    for (int i = lane; i < 4; i += 1024) {
        acc0_0_0 += p_hiera_stage1_scalar_part0_0_0[r * 4 + i];
    }
    acc0_0_0 = hiera_block_sum<32>(acc0_0_0, smem);
    const float red0_0_0 = acc0_0_0;  // sum over the row
    if (lane == 0) {
        p_tmp1[r] = red0_0_0;
    }
}

// out = (tmp1 / 1.07374e+09)
// 1 elements as 1 vectors of 1; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage2(const float* __restrict__ p_tmp1, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 1; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 1) break;
            const idx_t i = v * 1;
            const float t0 = p_tmp1[0];
            const float t1 = (t0 / 1073741824.0f);
            p_out[i] = t1;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* predictions, const hiera_tensor* targets, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (predictions->ndim != 2 || predictions->sizes[0] != 32768 || predictions->sizes[1] != 32768) return 2;  // specialized for 32768x32768
    if (targets->ndim != 1 || targets->sizes[0] != 32768) return 2;  // specialized for 32768
    if (out->ndim != 0) return 2;  // specialized for a scalar
    const float* p_predictions = (const float*)predictions->data;
    const float* p_targets = (const float*)targets->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(32896ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 32768x1
    float* p_tmp1 = hiera_ws + 32768;  // 1x1
    float* p_hiera_stage1_scalar_part0_0_0 = hiera_ws + 32832;  // 4
    if (hiera_aligned16(p_predictions) && hiera_aligned16(p_targets)) {
    hiera_stage0<<<32768, 1024, 0, hiera_s>>>(p_predictions, p_targets, p_tmp0);
    } else {
    hiera_stage0_scalar<<<32768, 1024, 0, hiera_s>>>(p_predictions, p_targets, p_tmp0);
    }
    if (hiera_aligned16(p_tmp0)) {
    hiera_stage1<<<1, 1024, 0, hiera_s>>>(p_tmp0, p_tmp1);
    } else {
    hiera_stage1_scalar_pass0<<<dim3(1, 4), 1024, 0, hiera_s>>>(p_tmp0, p_hiera_stage1_scalar_part0_0_0);
    hiera_stage1_scalar<<<dim3(1, 1), 1024, 0, hiera_s>>>(p_tmp0, p_hiera_stage1_scalar_part0_0_0, p_tmp1);
    }
    hiera_stage2<<<1, 256, 0, hiera_s>>>(p_tmp1, p_out);
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
