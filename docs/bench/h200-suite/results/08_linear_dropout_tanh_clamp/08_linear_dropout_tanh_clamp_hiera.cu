// hiera expert candidate for '08_linear_dropout_tanh_clamp'
// strategy: T.cublas_sgemm
// variant: cublasSgemm; block 128, vec 4, ilp 4
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = x @ linear.weight (4096x2048x4096)
//   stage 1: fused pointwise over 4096x2048: out = clamp(tanh((tmp0 + linear.bias)), -0.5, 0.75)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"
#include <cublas_v2.h>

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


// One cuBLAS handle for the life of the library; set to the caller's stream on every call.
static cublasHandle_t hiera_cublas(cudaStream_t s) {
    static cublasHandle_t h = nullptr;
    if (h == nullptr) {
        if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
    }
    cublasSetStream(h, s);
    return h;
}

// out = clamp(tanh((tmp0 + linear.bias)), -0.5, 0.75)
// 8388608 elements as 2097152 vectors of 4; 128 threads/block, 4 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage1(const float* __restrict__ p_tmp0, const float* __restrict__ p_linear_bias, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 2097152; v0 += step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const idx_t v = v0 + (idx_t)u * 128;
            if (v >= 2097152) break;
            const idx_t i = v * 4;
            const float4 L0 = *reinterpret_cast<const float4*>(p_tmp0 + i);
            const float4 L1 = *reinterpret_cast<const float4*>(p_linear_bias + i % 2048);
            const float t0_0 = L0.x;
            const float t0_1 = L1.x;
            const float t0_2 = (t0_0 + t0_1);
            const float t0_3 = tanhf(t0_2);
            const float t0_4 = fminf(fmaxf(t0_3, (-0.5f)), 0.75f);
            const float t1_0 = L0.y;
            const float t1_1 = L1.y;
            const float t1_2 = (t1_0 + t1_1);
            const float t1_3 = tanhf(t1_2);
            const float t1_4 = fminf(fmaxf(t1_3, (-0.5f)), 0.75f);
            const float t2_0 = L0.z;
            const float t2_1 = L1.z;
            const float t2_2 = (t2_0 + t2_1);
            const float t2_3 = tanhf(t2_2);
            const float t2_4 = fminf(fmaxf(t2_3, (-0.5f)), 0.75f);
            const float t3_0 = L0.w;
            const float t3_1 = L1.w;
            const float t3_2 = (t3_0 + t3_1);
            const float t3_3 = tanhf(t3_2);
            const float t3_4 = fminf(fmaxf(t3_3, (-0.5f)), 0.75f);
            *reinterpret_cast<float4*>(p_out + i) = make_float4(t0_4, t1_4, t2_4, t3_4);
        }
    }
}

// out = clamp(tanh((tmp0 + linear.bias)), -0.5, 0.75)
// 8388608 elements as 8388608 vectors of 1; 128 threads/block, 4 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage1_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_linear_bias, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 8388608; v0 += step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const idx_t v = v0 + (idx_t)u * 128;
            if (v >= 8388608) break;
            const idx_t i = v * 1;
            const float t0 = p_tmp0[i];
            const float t1 = p_linear_bias[i % 2048];
            const float t2 = (t0 + t1);
            const float t3 = tanhf(t2);
            const float t4 = fminf(fmaxf(t3, (-0.5f)), 0.75f);
            p_out[i] = t4;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* linear_weight, const hiera_tensor* linear_bias, double clamp_min, double clamp_max, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 4096 || x->sizes[1] != 4096) return 2;  // specialized for 4096x4096
    if (linear_weight->ndim != 2 || linear_weight->sizes[0] != 2048 || linear_weight->sizes[1] != 4096) return 2;  // specialized for 2048x4096
    if (linear_bias->ndim != 1 || linear_bias->sizes[0] != 2048) return 2;  // specialized for 2048
    (void)clamp_min;  // baked into the kernels as a constant
    (void)clamp_max;  // baked into the kernels as a constant
    if (out->ndim != 2 || out->sizes[0] != 4096 || out->sizes[1] != 2048) return 2;  // specialized for 4096x2048
    const float* p_x = (const float*)x->data;
    const float* p_linear_weight = (const float*)linear_weight->data;
    const float* p_linear_bias = (const float*)linear_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(8388608ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 4096x2048
    cublasHandle_t hiera_h = hiera_cublas(hiera_s);
    if (hiera_h == nullptr) return 5;
    // tmp0 = x @ linear.weight: M=4096 N=2048 K=4096 (column-major: C^T = B^T A^T)
    {
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasSgemm(hiera_h, CUBLAS_OP_T, CUBLAS_OP_N, 2048, 4096, 4096, &alpha, p_linear_weight + 0, 4096, p_x + 0, 4096, &beta, p_tmp0 + 0, 2048) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_out) && hiera_aligned16(p_tmp0) && hiera_aligned16(p_linear_bias)) {
        hiera_stage1<<<4096, 128, 0, hiera_s>>>(p_tmp0, p_linear_bias, p_out);
    } else {
        hiera_stage1_scalar<<<16384, 128, 0, hiera_s>>>(p_tmp0, p_linear_bias, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
