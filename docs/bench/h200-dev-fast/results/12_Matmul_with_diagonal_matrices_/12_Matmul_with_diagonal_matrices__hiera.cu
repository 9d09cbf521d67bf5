// hiera expert candidate for '12_Matmul_with_diagonal_matrices_'
// strategy: R.fuse_pointwise
// variant: block 512, vec 4, ilp 1
// precision: strict fp32 (no TF32)
//   stage 0: fused pointwise over 4096x4096: out = (A * B)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"

typedef unsigned int idx_t;  // every index of this task fits

static inline bool hiera_aligned16(const void* p) { return ((uintptr_t)p & 15u) == 0; }

// out = (A * B)
// 16777216 elements as 4194304 vectors of 4; 512 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(512) hiera_stage0(const float* __restrict__ p_A, const float* __restrict__ p_B, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 4194304; v0 += step) {
        const idx_t i = v0 * 4;
        const float U0 = p_A[i / 4096];
        const float4 L1 = *reinterpret_cast<const float4*>(p_B + i);
        const float t0_0 = U0;
        const float t0_1 = L1.x;
        const float t0_2 = (t0_0 * t0_1);
        const float t1_0 = U0;
        const float t1_1 = L1.y;
        const float t1_2 = (t1_0 * t1_1);
        const float t2_0 = U0;
        const float t2_1 = L1.z;
        const float t2_2 = (t2_0 * t2_1);
        const float t3_0 = U0;
        const float t3_1 = L1.w;
        const float t3_2 = (t3_0 * t3_1);
        *reinterpret_cast<float4*>(p_out + i) = make_float4(t0_2, t1_2, t2_2, t3_2);
    }
}

// out = (A * B)
// 16777216 elements as 16777216 vectors of 1; 512 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(512) hiera_stage0_scalar(const float* __restrict__ p_A, const float* __restrict__ p_B, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 16777216; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_A[i / 4096];
        const float t1 = p_B[i];
        const float t2 = (t0 * t1);
        p_out[i] = t2;
    }
}

extern "C" int hiera_forward(const hiera_tensor* A, const hiera_tensor* B, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (A->ndim != 1 || A->sizes[0] != 4096) return 2;  // specialized for 4096
    if (B->ndim != 2 || B->sizes[0] != 4096 || B->sizes[1] != 4096) return 2;  // specialized for 4096x4096
    if (out->ndim != 2 || out->sizes[0] != 4096 || out->sizes[1] != 4096) return 2;  // specialized for 4096x4096
    const float* p_A = (const float*)A->data;
    const float* p_B = (const float*)B->data;
    float* p_out = (float*)out->data;
    if (hiera_aligned16(p_out) && hiera_aligned16(p_B)) {
        hiera_stage0<<<8192, 512, 0, hiera_s>>>(p_A, p_B, p_out);
    } else {
        hiera_stage0_scalar<<<32768, 512, 0, hiera_s>>>(p_A, p_B, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
