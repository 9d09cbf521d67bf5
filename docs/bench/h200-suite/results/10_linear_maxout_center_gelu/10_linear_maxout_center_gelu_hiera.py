"""ModelNew for task '10_linear_maxout_center_gelu', exported by hiera. 1.06x over eager on cuda:0 (NVIDIA H200); kernel copy: 10_linear_maxout_center_gelu_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

_HEADER = r"""
// hiera contract for task '10_linear_maxout_center_gelu' (frozen: do not edit; generated from the task).
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
 *   x                input     float32[8192x2048] contiguous
 *   linear_weight    parameter float32[4096x2048] contiguous  'linear.weight'
 *   linear_bias      parameter float32[4096] contiguous  'linear.bias'
 *   groups           scalar    int64 scalar (seen: 1024)
 *   pool_size        scalar    int64 scalar (seen: 4)
 *   out              output    float32[8192x1024] contiguous, allocated by the caller
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
    const hiera_tensor* linear_weight,
    const hiera_tensor* linear_bias,
    int64_t groups,
    int64_t pool_size,
    hiera_tensor* out,
    void* stream);

"""

_KERNEL = r"""
// hiera expert candidate for '10_linear_maxout_center_gelu'
// strategy: T.cublas_sgemm
// variant: cublasSgemm; threads/row auto x0.25, vec 4, registers
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = x @ linear.weight (8192x4096x2048)
//   stage 1: row reduction over 8192x1024: out = gelu((maximum(maximum(maximum((tmp0 + linear.bias), (tmp0 + linear.bias)), (tmp0 + linear…
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
// (contract header inlined above)
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

// out = gelu((maximum(maximum(maximum((tmp0 + linear.bias), (tmp0 + linear.bias)), (tmp0 + linear.bias)), (tmp0 + linear.bias))…
// 8192 rows of 1024: 8 thread(s) per row, 32 row(s) per block, 32 vector(s) of 4 per thread; 1 reduction pass(es)
__global__ void __launch_bounds__(256) hiera_stage1(const float* __restrict__ p_tmp0, const float* __restrict__ p_linear_bias, float* __restrict__ p_out) {
    const int lane = threadIdx.x % 8;
    const idx_t r = (idx_t)blockIdx.x * 32 + threadIdx.x / 8;
    const idx_t rb0 = (r) * 4096;
    const idx_t rb1 = 0;
    const idx_t rb2 = (r) * 4096 + 1;
    const idx_t rb3 = 1;
    const idx_t rb4 = (r) * 4096 + 2;
    const idx_t rb5 = 2;
    const idx_t rb6 = (r) * 4096 + 3;
    const idx_t rb7 = 3;
    float acc0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 32; ++j) {
        const idx_t col = (idx_t)(lane + j * 8) * 4;
        const float e0_0 = p_tmp0[rb0 + (col) * 4];
        const float e0_1 = p_linear_bias[rb1 + (col) * 4];
        const float e0_2 = (e0_0 + e0_1);
        const float e0_3 = p_tmp0[rb2 + (col) * 4];
        const float e0_4 = p_linear_bias[rb3 + (col) * 4];
        const float e0_5 = (e0_3 + e0_4);
        const float e0_6 = fmaxf(e0_2, e0_5);
        const float e0_7 = p_tmp0[rb4 + (col) * 4];
        const float e0_8 = p_linear_bias[rb5 + (col) * 4];
        const float e0_9 = (e0_7 + e0_8);
        const float e0_10 = fmaxf(e0_6, e0_9);
        const float e0_11 = p_tmp0[rb6 + (col) * 4];
        const float e0_12 = p_linear_bias[rb7 + (col) * 4];
        const float e0_13 = (e0_11 + e0_12);
        const float e0_14 = fmaxf(e0_10, e0_13);
        const float e1_0 = p_tmp0[rb0 + ((col + 1)) * 4];
        const float e1_1 = p_linear_bias[rb1 + ((col + 1)) * 4];
        const float e1_2 = (e1_0 + e1_1);
        const float e1_3 = p_tmp0[rb2 + ((col + 1)) * 4];
        const float e1_4 = p_linear_bias[rb3 + ((col + 1)) * 4];
        const float e1_5 = (e1_3 + e1_4);
        const float e1_6 = fmaxf(e1_2, e1_5);
        const float e1_7 = p_tmp0[rb4 + ((col + 1)) * 4];
        const float e1_8 = p_linear_bias[rb5 + ((col + 1)) * 4];
        const float e1_9 = (e1_7 + e1_8);
        const float e1_10 = fmaxf(e1_6, e1_9);
        const float e1_11 = p_tmp0[rb6 + ((col + 1)) * 4];
        const float e1_12 = p_linear_bias[rb7 + ((col + 1)) * 4];
        const float e1_13 = (e1_11 + e1_12);
        const float e1_14 = fmaxf(e1_10, e1_13);
        const float e2_0 = p_tmp0[rb0 + ((col + 2)) * 4];
        const float e2_1 = p_linear_bias[rb1 + ((col + 2)) * 4];
        const float e2_2 = (e2_0 + e2_1);
        const float e2_3 = p_tmp0[rb2 + ((col + 2)) * 4];
        const float e2_4 = p_linear_bias[rb3 + ((col + 2)) * 4];
        const float e2_5 = (e2_3 + e2_4);
        const float e2_6 = fmaxf(e2_2, e2_5);
        const float e2_7 = p_tmp0[rb4 + ((col + 2)) * 4];
        const float e2_8 = p_linear_bias[rb5 + ((col + 2)) * 4];
        const float e2_9 = (e2_7 + e2_8);
        const float e2_10 = fmaxf(e2_6, e2_9);
        const float e2_11 = p_tmp0[rb6 + ((col + 2)) * 4];
        const float e2_12 = p_linear_bias[rb7 + ((col + 2)) * 4];
        const float e2_13 = (e2_11 + e2_12);
        const float e2_14 = fmaxf(e2_10, e2_13);
        const float e3_0 = p_tmp0[rb0 + ((col + 3)) * 4];
        const float e3_1 = p_linear_bias[rb1 + ((col + 3)) * 4];
        const float e3_2 = (e3_0 + e3_1);
        const float e3_3 = p_tmp0[rb2 + ((col + 3)) * 4];
        const float e3_4 = p_linear_bias[rb3 + ((col + 3)) * 4];
        const float e3_5 = (e3_3 + e3_4);
        const float e3_6 = fmaxf(e3_2, e3_5);
        const float e3_7 = p_tmp0[rb4 + ((col + 3)) * 4];
        const float e3_8 = p_linear_bias[rb5 + ((col + 3)) * 4];
        const float e3_9 = (e3_7 + e3_8);
        const float e3_10 = fmaxf(e3_6, e3_9);
        const float e3_11 = p_tmp0[rb6 + ((col + 3)) * 4];
        const float e3_12 = p_linear_bias[rb7 + ((col + 3)) * 4];
        const float e3_13 = (e3_11 + e3_12);
        const float e3_14 = fmaxf(e3_10, e3_13);
        acc0_0 = acc0_0 + e0_14;
        acc0_0 = acc0_0 + e1_14;
        acc0_0 = acc0_0 + e2_14;
        acc0_0 = acc0_0 + e3_14;
    }
    const float red0_0 = hiera_warp_sum<8>(acc0_0);  // sum over the row
    const float h1_0 = (red0_0 / 1024.0f);
#pragma unroll
    for (int j = 0; j < 32; ++j) {
        const idx_t col = (idx_t)(lane + j * 8) * 4;
        const float e0_0 = p_tmp0[rb0 + (col) * 4];
        const float e0_1 = p_linear_bias[rb1 + (col) * 4];
        const float e0_2 = (e0_0 + e0_1);
        const float e0_3 = p_tmp0[rb2 + (col) * 4];
        const float e0_4 = p_linear_bias[rb3 + (col) * 4];
        const float e0_5 = (e0_3 + e0_4);
        const float e0_6 = fmaxf(e0_2, e0_5);
        const float e0_7 = p_tmp0[rb4 + (col) * 4];
        const float e0_8 = p_linear_bias[rb5 + (col) * 4];
        const float e0_9 = (e0_7 + e0_8);
        const float e0_10 = fmaxf(e0_6, e0_9);
        const float e0_11 = p_tmp0[rb6 + (col) * 4];
        const float e0_12 = p_linear_bias[rb7 + (col) * 4];
        const float e0_13 = (e0_11 + e0_12);
        const float e0_14 = fmaxf(e0_10, e0_13);
        const float e0_15 = (e0_14 - h1_0);
        const float e0_16 = (e0_15 * 0.5f * (1.0f + erff(e0_15 * 0.707106781186547524f)));
        const float e1_0 = p_tmp0[rb0 + ((col + 1)) * 4];
        const float e1_1 = p_linear_bias[rb1 + ((col + 1)) * 4];
        const float e1_2 = (e1_0 + e1_1);
        const float e1_3 = p_tmp0[rb2 + ((col + 1)) * 4];
        const float e1_4 = p_linear_bias[rb3 + ((col + 1)) * 4];
        const float e1_5 = (e1_3 + e1_4);
        const float e1_6 = fmaxf(e1_2, e1_5);
        const float e1_7 = p_tmp0[rb4 + ((col + 1)) * 4];
        const float e1_8 = p_linear_bias[rb5 + ((col + 1)) * 4];
        const float e1_9 = (e1_7 + e1_8);
        const float e1_10 = fmaxf(e1_6, e1_9);
        const float e1_11 = p_tmp0[rb6 + ((col + 1)) * 4];
        const float e1_12 = p_linear_bias[rb7 + ((col + 1)) * 4];
        const float e1_13 = (e1_11 + e1_12);
        const float e1_14 = fmaxf(e1_10, e1_13);
        const float e1_15 = (e1_14 - h1_0);
        const float e1_16 = (e1_15 * 0.5f * (1.0f + erff(e1_15 * 0.707106781186547524f)));
        const float e2_0 = p_tmp0[rb0 + ((col + 2)) * 4];
        const float e2_1 = p_linear_bias[rb1 + ((col + 2)) * 4];
        const float e2_2 = (e2_0 + e2_1);
        const float e2_3 = p_tmp0[rb2 + ((col + 2)) * 4];
        const float e2_4 = p_linear_bias[rb3 + ((col + 2)) * 4];
        const float e2_5 = (e2_3 + e2_4);
        const float e2_6 = fmaxf(e2_2, e2_5);
        const float e2_7 = p_tmp0[rb4 + ((col + 2)) * 4];
        const float e2_8 = p_linear_bias[rb5 + ((col + 2)) * 4];
        const float e2_9 = (e2_7 + e2_8);
        const float e2_10 = fmaxf(e2_6, e2_9);
        const float e2_11 = p_tmp0[rb6 + ((col + 2)) * 4];
        const float e2_12 = p_linear_bias[rb7 + ((col + 2)) * 4];
        const float e2_13 = (e2_11 + e2_12);
        const float e2_14 = fmaxf(e2_10, e2_13);
        const float e2_15 = (e2_14 - h1_0);
        const float e2_16 = (e2_15 * 0.5f * (1.0f + erff(e2_15 * 0.707106781186547524f)));
        const float e3_0 = p_tmp0[rb0 + ((col + 3)) * 4];
        const float e3_1 = p_linear_bias[rb1 + ((col + 3)) * 4];
        const float e3_2 = (e3_0 + e3_1);
        const float e3_3 = p_tmp0[rb2 + ((col + 3)) * 4];
        const float e3_4 = p_linear_bias[rb3 + ((col + 3)) * 4];
        const float e3_5 = (e3_3 + e3_4);
        const float e3_6 = fmaxf(e3_2, e3_5);
        const float e3_7 = p_tmp0[rb4 + ((col + 3)) * 4];
        const float e3_8 = p_linear_bias[rb5 + ((col + 3)) * 4];
        const float e3_9 = (e3_7 + e3_8);
        const float e3_10 = fmaxf(e3_6, e3_9);
        const float e3_11 = p_tmp0[rb6 + ((col + 3)) * 4];
        const float e3_12 = p_linear_bias[rb7 + ((col + 3)) * 4];
        const float e3_13 = (e3_11 + e3_12);
        const float e3_14 = fmaxf(e3_10, e3_13);
        const float e3_15 = (e3_14 - h1_0);
        const float e3_16 = (e3_15 * 0.5f * (1.0f + erff(e3_15 * 0.707106781186547524f)));
        *reinterpret_cast<float4*>(&p_out[r * 1024 + col]) = make_float4(e0_16, e1_16, e2_16, e3_16);
    }
}

// out = gelu((maximum(maximum(maximum((tmp0 + linear.bias), (tmp0 + linear.bias)), (tmp0 + linear.bias)), (tmp0 + linear.bias))…
// 8192 rows of 1024: 8 thread(s) per row, 32 row(s) per block, 128 vector(s) of 1 per thread; 1 reduction pass(es)
__global__ void __launch_bounds__(256) hiera_stage1_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_linear_bias, float* __restrict__ p_out) {
    const int lane = threadIdx.x % 8;
    const idx_t r = (idx_t)blockIdx.x * 32 + threadIdx.x / 8;
    const idx_t rb0 = (r) * 4096;
    const idx_t rb1 = 0;
    const idx_t rb2 = (r) * 4096 + 1;
    const idx_t rb3 = 1;
    const idx_t rb4 = (r) * 4096 + 2;
    const idx_t rb5 = 2;
    const idx_t rb6 = (r) * 4096 + 3;
    const idx_t rb7 = 3;
    float acc0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 128; ++j) {
        const idx_t col = (idx_t)(lane + j * 8) * 1;
        const float e0_0 = p_tmp0[rb0 + (col) * 4];
        const float e0_1 = p_linear_bias[rb1 + (col) * 4];
        const float e0_2 = (e0_0 + e0_1);
        const float e0_3 = p_tmp0[rb2 + (col) * 4];
        const float e0_4 = p_linear_bias[rb3 + (col) * 4];
        const float e0_5 = (e0_3 + e0_4);
        const float e0_6 = fmaxf(e0_2, e0_5);
        const float e0_7 = p_tmp0[rb4 + (col) * 4];
        const float e0_8 = p_linear_bias[rb5 + (col) * 4];
        const float e0_9 = (e0_7 + e0_8);
        const float e0_10 = fmaxf(e0_6, e0_9);
        const float e0_11 = p_tmp0[rb6 + (col) * 4];
        const float e0_12 = p_linear_bias[rb7 + (col) * 4];
        const float e0_13 = (e0_11 + e0_12);
        const float e0_14 = fmaxf(e0_10, e0_13);
        acc0_0 = acc0_0 + e0_14;
    }
    const float red0_0 = hiera_warp_sum<8>(acc0_0);  // sum over the row
    const float h1_0 = (red0_0 / 1024.0f);
#pragma unroll
    for (int j = 0; j < 128; ++j) {
        const idx_t col = (idx_t)(lane + j * 8) * 1;
        const float e0_0 = p_tmp0[rb0 + (col) * 4];
        const float e0_1 = p_linear_bias[rb1 + (col) * 4];
        const float e0_2 = (e0_0 + e0_1);
        const float e0_3 = p_tmp0[rb2 + (col) * 4];
        const float e0_4 = p_linear_bias[rb3 + (col) * 4];
        const float e0_5 = (e0_3 + e0_4);
        const float e0_6 = fmaxf(e0_2, e0_5);
        const float e0_7 = p_tmp0[rb4 + (col) * 4];
        const float e0_8 = p_linear_bias[rb5 + (col) * 4];
        const float e0_9 = (e0_7 + e0_8);
        const float e0_10 = fmaxf(e0_6, e0_9);
        const float e0_11 = p_tmp0[rb6 + (col) * 4];
        const float e0_12 = p_linear_bias[rb7 + (col) * 4];
        const float e0_13 = (e0_11 + e0_12);
        const float e0_14 = fmaxf(e0_10, e0_13);
        const float e0_15 = (e0_14 - h1_0);
        const float e0_16 = (e0_15 * 0.5f * (1.0f + erff(e0_15 * 0.707106781186547524f)));
        p_out[r * 1024 + col] = e0_16;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* linear_weight, const hiera_tensor* linear_bias, int64_t groups, int64_t pool_size, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 8192 || x->sizes[1] != 2048) return 2;  // specialized for 8192x2048
    if (linear_weight->ndim != 2 || linear_weight->sizes[0] != 4096 || linear_weight->sizes[1] != 2048) return 2;  // specialized for 4096x2048
    if (linear_bias->ndim != 1 || linear_bias->sizes[0] != 4096) return 2;  // specialized for 4096
    (void)groups;  // baked into the kernels as a constant
    (void)pool_size;  // baked into the kernels as a constant
    if (out->ndim != 2 || out->sizes[0] != 8192 || out->sizes[1] != 1024) return 2;  // specialized for 8192x1024
    const float* p_x = (const float*)x->data;
    const float* p_linear_weight = (const float*)linear_weight->data;
    const float* p_linear_bias = (const float*)linear_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(33554432ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 8192x4096
    cublasHandle_t hiera_h = hiera_cublas(hiera_s);
    if (hiera_h == nullptr) return 5;
    // tmp0 = x @ linear.weight: M=8192 N=4096 K=2048 (column-major: C^T = B^T A^T)
    {
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasSgemm(hiera_h, CUBLAS_OP_T, CUBLAS_OP_N, 4096, 8192, 2048, &alpha, p_linear_weight + 0, 2048, p_x + 0, 2048, &beta, p_tmp0 + 0, 4096) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_out)) {
    hiera_stage1<<<256, 256, 0, hiera_s>>>(p_tmp0, p_linear_bias, p_out);
    } else {
    hiera_stage1_scalar<<<256, 256, 0, hiera_s>>>(p_tmp0, p_linear_bias, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '10_linear_maxout_center_gelu' (frozen). Exposes forward() to Python over the C ABI.
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

std::vector<torch::Tensor> forward(torch::Tensor x, torch::Tensor linear_weight, torch::Tensor linear_bias, int64_t groups, int64_t pool_size) {
    auto x_c = x.contiguous();
    hiera_tensor x_v = hiera_view(x_c);
    auto linear_weight_c = linear_weight.contiguous();
    hiera_tensor linear_weight_v = hiera_view(linear_weight_c);
    auto linear_bias_c = linear_bias.contiguous();
    hiera_tensor linear_bias_v = hiera_view(linear_bias_c);
    auto out = torch::empty({8192, 1024}, x.options().dtype(torch::kFloat));
    hiera_tensor out_v = hiera_view(out);
#ifdef HIERA_WITH_CUDA
    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
    int rc = hiera_forward(&x_v, &linear_weight_v, &linear_bias_v, groups, pool_size, &out_v, stream);
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
            name="hiera_10_linear_maxout_center_gelu_24402968",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=[],
            extra_ldflags=['-lcublas'],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Linear 2048 -> 4096, max over groups of 4 features (maxout, -> 1024), subtract the row mean, GELU; batch 8192."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8192
in_features = 2048
out_features = 4096
pool_size = 4


class Model(nn.Module):
    def __init__(self, in_features, out_features, pool_size):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.groups = out_features // pool_size
        self.pool_size = pool_size

    def forward(self, x):
        x = self.linear(x)
        x = x.view(-1, self.groups, self.pool_size).amax(dim=2)
        x = x - x.mean(dim=1, keepdim=True)
        return F.gelu(x)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, pool_size]



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
        self._scalars = {k: getattr(reference, k) for k in ['groups', 'pool_size']}

    def forward(self, *inputs):
        state = dict(self.named_parameters())
        state.update(self.named_buffers())
        outs = _extension().forward(inputs[0], state['linear.weight'], state['linear.bias'], self._scalars['groups'], self._scalars['pool_size'])
        out = outs[0]
        return out
