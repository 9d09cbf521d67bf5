"""ModelNew for task '05_transformer_mlp', exported by hiera. 1.00x over eager on cuda:1 (NVIDIA H200); kernel copy: 05_transformer_mlp_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

_HEADER = r"""
// hiera contract for task '05_transformer_mlp' (frozen: do not edit; generated from the task).
#include <stdint.h>

#define HIERA_MAX_DIMS 8

/* A view of one tensor: device (or host) pointer, sizes and strides in elements. */
typedef struct {
    void* data;
    int64_t ndim;
    int64_t sizes[HIERA_MAX_DIMS];
    int64_t strides[HIERA_MAX_DIMS];
} hiera_tensor;

/*
 * Arguments, in order (tensors are dense and contiguous; element types as listed):
 *   x                input     float32[8x1024x1024] contiguous
 *   norm_weight      parameter float32[1024] contiguous  'norm.weight'
 *   norm_bias        parameter float32[1024] contiguous  'norm.bias'
 *   fc1_weight       parameter float32[4096x1024] contiguous  'fc1.weight'
 *   fc1_bias         parameter float32[4096] contiguous  'fc1.bias'
 *   fc2_weight       parameter float32[1024x4096] contiguous  'fc2.weight'
 *   fc2_bias         parameter float32[1024] contiguous  'fc2.bias'
 *   out              output    float32[8x1024x1024] contiguous, allocated by the caller
 *   stream           the cudaStream_t to launch on (NULL on the CPU path); all work must be
 *                    ordered on it: the caller reads the outputs on this stream right after return.
 *
 * Return 0 on success, non-zero on failure. Outputs are preallocated by the caller and must be fully
 * written. Inputs, parameters and buffers must not be modified.
 */
#ifdef __cplusplus
extern "C"
#endif
int hiera_forward(
    const hiera_tensor* x,
    const hiera_tensor* norm_weight,
    const hiera_tensor* norm_bias,
    const hiera_tensor* fc1_weight,
    const hiera_tensor* fc1_bias,
    const hiera_tensor* fc2_weight,
    const hiera_tensor* fc2_bias,
    hiera_tensor* out,
    void* stream);

"""

_KERNEL = r"""
// hiera expert candidate for '05_transformer_mlp'
// strategy: T.fast_math
// variant: cuBLASLt algo #0 + bias epilogue; threads/row auto x2, vec 4, registers; block 256, vec 4, ilp 2
// precision: strict fp32 (no TF32)
//   stage 0: row reduction over 8x1024x1024: tmp0 = ((((x - (sum_row(x) / 1024)) * rsqrt(((sum_row(…) / 1024) + 1e-05))) * norm.weight) + nor…
//   stage 1: tmp1 = tmp0 @ fc1.weight + fc1.bias (8192x4096x1024)
//   stage 2: fused pointwise over 8x1024x4096: tmp2 = gelu(tmp1)
//   stage 3: tmp3 = tmp2 @ fc2.weight + fc2.bias (8192x1024x4096)
//   stage 4: fused pointwise over 8x1024x1024: out = (x + tmp3)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
// (contract header inlined above)
#include <cublas_v2.h>
#include <cublasLt.h>

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


// cuBLASLt: one handle and one workspace for the life of the library.
static cublasLtHandle_t hiera_lt() {
    static cublasLtHandle_t h = nullptr;
    if (h == nullptr && cublasLtCreate(&h) != CUBLAS_STATUS_SUCCESS) return nullptr;
    return h;
}
static const size_t HIERA_LT_WS = 32u << 20;
static void* hiera_lt_workspace() {
    static void* ws = nullptr;
    if (ws == nullptr && cudaMalloc(&ws, HIERA_LT_WS) != cudaSuccess) ws = nullptr;
    return ws;
}


// Product 1: tmp1 = tmp0 @ fc1.weight (M=8192 N=4096 K=1024),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan1 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan1* hiera_lt_plan1(const void* bias) {
    static HieraLtPlan1 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 1024, 4096, 1024);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 1024, 8192, 1024);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 4096, 8192, 4096);

        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[0 < found ? 0 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}


// Product 3: tmp3 = tmp2 @ fc2.weight (M=8192 N=1024 K=4096),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan3 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan3* hiera_lt_plan3(const void* bias) {
    static HieraLtPlan3 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 4096, 1024, 4096);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 4096, 8192, 4096);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 8192, 1024);

        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[0 < found ? 0 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
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

// tmp0 = ((((x - (sum_row(x) / 1024)) * rsqrt(((sum_row(…) / 1024) + 1e-05))) * norm.weight) + norm.bias)
// 8192 rows of 1024: 64 thread(s) per row, 1 row(s) per block, 4 vector(s) of 4 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(64) hiera_stage0(const float* __restrict__ p_x, const float* __restrict__ p_norm_weight, const float* __restrict__ p_norm_bias, float* __restrict__ p_tmp0) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 1024;
    const idx_t rb1 = 0;
    const idx_t rb2 = 0;
    float4 c0[4];
    float4 c1[4];
    float4 c2[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const idx_t col = (idx_t)(lane + j * 64) * 4;
        c0[j] = *reinterpret_cast<const float4*>(&p_x[rb0 + col]);
        c1[j] = *reinterpret_cast<const float4*>(&p_norm_weight[rb1 + col]);
        c2[j] = *reinterpret_cast<const float4*>(&p_norm_bias[rb2 + col]);
    }
    float acc0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float e0_0 = c0[j].x;
        const float e1_0 = c0[j].y;
        const float e2_0 = c0[j].z;
        const float e3_0 = c0[j].w;
        acc0_0 = acc0_0 + e0_0;
        acc0_0 = acc0_0 + e1_0;
        acc0_0 = acc0_0 + e2_0;
        acc0_0 = acc0_0 + e3_0;
    }
    const float red0_0 = hiera_block_sum<2>(acc0_0, smem);  // sum over the row
    const float h1_0 = (red0_0 / 1024.0f);
    float acc1_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float e0_0 = c0[j].x;
        const float e0_1 = (e0_0 - h1_0);
        const float e0_2 = (e0_1 * e0_1);
        const float e1_0 = c0[j].y;
        const float e1_1 = (e1_0 - h1_0);
        const float e1_2 = (e1_1 * e1_1);
        const float e2_0 = c0[j].z;
        const float e2_1 = (e2_0 - h1_0);
        const float e2_2 = (e2_1 * e2_1);
        const float e3_0 = c0[j].w;
        const float e3_1 = (e3_0 - h1_0);
        const float e3_2 = (e3_1 * e3_1);
        acc1_0 = acc1_0 + e0_2;
        acc1_0 = acc1_0 + e1_2;
        acc1_0 = acc1_0 + e2_2;
        acc1_0 = acc1_0 + e3_2;
    }
    const float red1_0 = hiera_block_sum<2>(acc1_0, smem);  // sum over the row
    const float h2_0 = (red1_0 / 1024.0f);
    const float h2_1 = (h2_0 + 1e-05f);
    const float h2_2 = rsqrtf(h2_1);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const idx_t col = (idx_t)(lane + j * 64) * 4;
        const float e0_0 = c0[j].x;
        const float e0_1 = (e0_0 - h1_0);
        const float e0_2 = (e0_1 * h2_2);
        const float e0_3 = c1[j].x;
        const float e0_4 = (e0_2 * e0_3);
        const float e0_5 = c2[j].x;
        const float e0_6 = (e0_4 + e0_5);
        const float e1_0 = c0[j].y;
        const float e1_1 = (e1_0 - h1_0);
        const float e1_2 = (e1_1 * h2_2);
        const float e1_3 = c1[j].y;
        const float e1_4 = (e1_2 * e1_3);
        const float e1_5 = c2[j].y;
        const float e1_6 = (e1_4 + e1_5);
        const float e2_0 = c0[j].z;
        const float e2_1 = (e2_0 - h1_0);
        const float e2_2 = (e2_1 * h2_2);
        const float e2_3 = c1[j].z;
        const float e2_4 = (e2_2 * e2_3);
        const float e2_5 = c2[j].z;
        const float e2_6 = (e2_4 + e2_5);
        const float e3_0 = c0[j].w;
        const float e3_1 = (e3_0 - h1_0);
        const float e3_2 = (e3_1 * h2_2);
        const float e3_3 = c1[j].w;
        const float e3_4 = (e3_2 * e3_3);
        const float e3_5 = c2[j].w;
        const float e3_6 = (e3_4 + e3_5);
        *reinterpret_cast<float4*>(&p_tmp0[r * 1024 + col]) = make_float4(e0_6, e1_6, e2_6, e3_6);
    }
}

// tmp0 = ((((x - (sum_row(x) / 1024)) * rsqrt(((sum_row(…) / 1024) + 1e-05))) * norm.weight) + norm.bias)
// 8192 rows of 1024: 64 thread(s) per row, 1 row(s) per block, 16 vector(s) of 1 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(64) hiera_stage0_scalar(const float* __restrict__ p_x, const float* __restrict__ p_norm_weight, const float* __restrict__ p_norm_bias, float* __restrict__ p_tmp0) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 1024;
    const idx_t rb1 = 0;
    const idx_t rb2 = 0;
    float c0[16];
    float c1[16];
    float c2[16];
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const idx_t col = (idx_t)(lane + j * 64) * 1;
        c0[j] = p_x[rb0 + col];
        c1[j] = p_norm_weight[rb1 + col];
        c2[j] = p_norm_bias[rb2 + col];
    }
    float acc0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const float e0_0 = c0[j];
        acc0_0 = acc0_0 + e0_0;
    }
    const float red0_0 = hiera_block_sum<2>(acc0_0, smem);  // sum over the row
    const float h1_0 = (red0_0 / 1024.0f);
    float acc1_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 - h1_0);
        const float e0_2 = (e0_1 * e0_1);
        acc1_0 = acc1_0 + e0_2;
    }
    const float red1_0 = hiera_block_sum<2>(acc1_0, smem);  // sum over the row
    const float h2_0 = (red1_0 / 1024.0f);
    const float h2_1 = (h2_0 + 1e-05f);
    const float h2_2 = rsqrtf(h2_1);
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const idx_t col = (idx_t)(lane + j * 64) * 1;
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 - h1_0);
        const float e0_2 = (e0_1 * h2_2);
        const float e0_3 = c1[j];
        const float e0_4 = (e0_2 * e0_3);
        const float e0_5 = c2[j];
        const float e0_6 = (e0_4 + e0_5);
        p_tmp0[r * 1024 + col] = e0_6;
    }
}

// tmp2 = gelu(tmp1)
// 33554432 elements as 8388608 vectors of 4; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage2(const float* __restrict__ p_tmp1, float* __restrict__ p_tmp2) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 8388608; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 8388608) break;
            const idx_t i = v * 4;
            const float4 L0 = *reinterpret_cast<const float4*>(p_tmp1 + i);
            const float t0_0 = L0.x;
            const float t0_1 = (t0_0 * 0.5f * (1.0f + erff(t0_0 * 0.707106781186547524f)));
            const float t1_0 = L0.y;
            const float t1_1 = (t1_0 * 0.5f * (1.0f + erff(t1_0 * 0.707106781186547524f)));
            const float t2_0 = L0.z;
            const float t2_1 = (t2_0 * 0.5f * (1.0f + erff(t2_0 * 0.707106781186547524f)));
            const float t3_0 = L0.w;
            const float t3_1 = (t3_0 * 0.5f * (1.0f + erff(t3_0 * 0.707106781186547524f)));
            *reinterpret_cast<float4*>(p_tmp2 + i) = make_float4(t0_1, t1_1, t2_1, t3_1);
        }
    }
}

// tmp2 = gelu(tmp1)
// 33554432 elements as 33554432 vectors of 1; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage2_scalar(const float* __restrict__ p_tmp1, float* __restrict__ p_tmp2) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 33554432; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 33554432) break;
            const idx_t i = v * 1;
            const float t0 = p_tmp1[i];
            const float t1 = (t0 * 0.5f * (1.0f + erff(t0 * 0.707106781186547524f)));
            p_tmp2[i] = t1;
        }
    }
}

// out = (x + tmp3)
// 8388608 elements as 2097152 vectors of 4; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage4(const float* __restrict__ p_x, const float* __restrict__ p_tmp3, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 2097152; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 2097152) break;
            const idx_t i = v * 4;
            const float4 L0 = *reinterpret_cast<const float4*>(p_x + i);
            const float4 L1 = *reinterpret_cast<const float4*>(p_tmp3 + i);
            const float t0_0 = L0.x;
            const float t0_1 = L1.x;
            const float t0_2 = (t0_0 + t0_1);
            const float t1_0 = L0.y;
            const float t1_1 = L1.y;
            const float t1_2 = (t1_0 + t1_1);
            const float t2_0 = L0.z;
            const float t2_1 = L1.z;
            const float t2_2 = (t2_0 + t2_1);
            const float t3_0 = L0.w;
            const float t3_1 = L1.w;
            const float t3_2 = (t3_0 + t3_1);
            *reinterpret_cast<float4*>(p_out + i) = make_float4(t0_2, t1_2, t2_2, t3_2);
        }
    }
}

// out = (x + tmp3)
// 8388608 elements as 8388608 vectors of 1; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage4_scalar(const float* __restrict__ p_x, const float* __restrict__ p_tmp3, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 8388608; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 8388608) break;
            const idx_t i = v * 1;
            const float t0 = p_x[i];
            const float t1 = p_tmp3[i];
            const float t2 = (t0 + t1);
            p_out[i] = t2;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* norm_weight, const hiera_tensor* norm_bias, const hiera_tensor* fc1_weight, const hiera_tensor* fc1_bias, const hiera_tensor* fc2_weight, const hiera_tensor* fc2_bias, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 3 || x->sizes[0] != 8 || x->sizes[1] != 1024 || x->sizes[2] != 1024) return 2;  // specialized for 8x1024x1024
    if (norm_weight->ndim != 1 || norm_weight->sizes[0] != 1024) return 2;  // specialized for 1024
    if (norm_bias->ndim != 1 || norm_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (fc1_weight->ndim != 2 || fc1_weight->sizes[0] != 4096 || fc1_weight->sizes[1] != 1024) return 2;  // specialized for 4096x1024
    if (fc1_bias->ndim != 1 || fc1_bias->sizes[0] != 4096) return 2;  // specialized for 4096
    if (fc2_weight->ndim != 2 || fc2_weight->sizes[0] != 1024 || fc2_weight->sizes[1] != 4096) return 2;  // specialized for 1024x4096
    if (fc2_bias->ndim != 1 || fc2_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (out->ndim != 3 || out->sizes[0] != 8 || out->sizes[1] != 1024 || out->sizes[2] != 1024) return 2;  // specialized for 8x1024x1024
    const float* p_x = (const float*)x->data;
    const float* p_norm_weight = (const float*)norm_weight->data;
    const float* p_norm_bias = (const float*)norm_bias->data;
    const float* p_fc1_weight = (const float*)fc1_weight->data;
    const float* p_fc1_bias = (const float*)fc1_bias->data;
    const float* p_fc2_weight = (const float*)fc2_weight->data;
    const float* p_fc2_bias = (const float*)fc2_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(83886080ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 8x1024x1024
    float* p_tmp1 = hiera_ws + 8388608;  // 8192x4096
    float* p_tmp2 = hiera_ws + 41943040;  // 8x1024x4096
    float* p_tmp3 = hiera_ws + 75497472;  // 8192x1024
    if (hiera_aligned16(p_x) && hiera_aligned16(p_norm_weight) && hiera_aligned16(p_norm_bias) && hiera_aligned16(p_tmp0)) {
    hiera_stage0<<<8192, 64, 0, hiera_s>>>(p_x, p_norm_weight, p_norm_bias, p_tmp0);
    } else {
    hiera_stage0_scalar<<<8192, 64, 0, hiera_s>>>(p_x, p_norm_weight, p_norm_bias, p_tmp0);
    }
    // tmp1 = tmp0 @ fc1.weight + fc1.bias (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan1* p = hiera_lt_plan1(p_fc1_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_fc1_weight + 0, p->a, p_tmp0 + 0, p->b, &beta,
                           p_tmp1, p->c, p_tmp1, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS, hiera_s)
            != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_tmp2) && hiera_aligned16(p_tmp1)) {
        hiera_stage2<<<16384, 256, 0, hiera_s>>>(p_tmp1, p_tmp2);
    } else {
        hiera_stage2_scalar<<<65536, 256, 0, hiera_s>>>(p_tmp1, p_tmp2);
    }
    // tmp3 = tmp2 @ fc2.weight + fc2.bias (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan3* p = hiera_lt_plan3(p_fc2_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_fc2_weight + 0, p->a, p_tmp2 + 0, p->b, &beta,
                           p_tmp3, p->c, p_tmp3, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS, hiera_s)
            != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_out) && hiera_aligned16(p_x) && hiera_aligned16(p_tmp3)) {
        hiera_stage4<<<4096, 256, 0, hiera_s>>>(p_x, p_tmp3, p_out);
    } else {
        hiera_stage4_scalar<<<16384, 256, 0, hiera_s>>>(p_x, p_tmp3, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '05_transformer_mlp' (frozen). Exposes forward() to Python over the C ABI.
#ifdef HIERA_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif


static hiera_tensor hiera_view(const torch::Tensor& t) {
    TORCH_CHECK(t.dim() <= HIERA_MAX_DIMS, "hiera: tensors of more than ", HIERA_MAX_DIMS, " dims");
    hiera_tensor v{};
    v.data = t.data_ptr();
    v.ndim = t.dim();
    for (int64_t i = 0; i < t.dim(); ++i) { v.sizes[i] = t.size(i); v.strides[i] = t.stride(i); }
    return v;
}

std::vector<torch::Tensor> forward(torch::Tensor x, torch::Tensor norm_weight, torch::Tensor norm_bias, torch::Tensor fc1_weight, torch::Tensor fc1_bias, torch::Tensor fc2_weight, torch::Tensor fc2_bias) {
    auto x_c = x.contiguous();
    hiera_tensor x_v = hiera_view(x_c);
    auto norm_weight_c = norm_weight.contiguous();
    hiera_tensor norm_weight_v = hiera_view(norm_weight_c);
    auto norm_bias_c = norm_bias.contiguous();
    hiera_tensor norm_bias_v = hiera_view(norm_bias_c);
    auto fc1_weight_c = fc1_weight.contiguous();
    hiera_tensor fc1_weight_v = hiera_view(fc1_weight_c);
    auto fc1_bias_c = fc1_bias.contiguous();
    hiera_tensor fc1_bias_v = hiera_view(fc1_bias_c);
    auto fc2_weight_c = fc2_weight.contiguous();
    hiera_tensor fc2_weight_v = hiera_view(fc2_weight_c);
    auto fc2_bias_c = fc2_bias.contiguous();
    hiera_tensor fc2_bias_v = hiera_view(fc2_bias_c);
    auto out = torch::empty({8, 1024, 1024}, x.options().dtype(torch::kFloat));
    hiera_tensor out_v = hiera_view(out);
#ifdef HIERA_WITH_CUDA
    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
    int rc = hiera_forward(&x_v, &norm_weight_v, &norm_bias_v, &fc1_weight_v, &fc1_bias_v, &fc2_weight_v, &fc2_bias_v, &out_v, stream);
    TORCH_CHECK(rc == 0, "hiera_forward failed with code ", rc);
    return {out};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &forward, "hiera contract forward"); }

"""

_ext = None


def _extension():
    global _ext
    if _ext is None:
        _ext = load_inline(
            name="hiera_05_transformer_mlp_41994335",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=[],
            extra_ldflags=['-lcublasLt', '-lcublas'],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Pre-norm transformer MLP: x + Linear(GELU(Linear(LayerNorm(x)))), 1024 -> 4096 -> 1024, 8 x 1024 tokens."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8
seq_len = 1024
embed_dim = 1024
mlp_ratio = 4


class Model(nn.Module):
    def __init__(self, embed_dim, mlp_ratio):
        super().__init__()
        self.norm = nn.LayerNorm(embed_dim)
        self.fc1 = nn.Linear(embed_dim, mlp_ratio * embed_dim)
        self.fc2 = nn.Linear(mlp_ratio * embed_dim, embed_dim)
        with torch.no_grad():  # non-trivial affine parameters
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(embed_dim))
            self.norm.bias.copy_(0.1 * torch.randn(embed_dim))

    def forward(self, x):
        h = self.norm(x)
        h = F.gelu(self.fc1(h))
        return x + self.fc2(h)


def get_inputs():
    return [torch.randn(batch_size, seq_len, embed_dim)]


def get_init_inputs():
    return [embed_dim, mlp_ratio]



class ModelNew(nn.Module):
    def __init__(self, *init_inputs):
        super().__init__()
        reference = Model(*init_inputs)
        for name, child in reference.named_children():
            self.add_module(name, child)
        for name, p in reference._parameters.items():
            self.register_parameter(name, p)
        for name, b in reference._buffers.items():
            self.register_buffer(name, b)
        self._scalars = {k: getattr(reference, k) for k in []}

    def forward(self, *inputs):
        state = dict(self.named_parameters())
        state.update(self.named_buffers())
        outs = _extension().forward(inputs[0], state['norm.weight'], state['norm.bias'], state['fc1.weight'], state['fc1.bias'], state['fc2.weight'], state['fc2.bias'])
        out = outs[0]
        return out
