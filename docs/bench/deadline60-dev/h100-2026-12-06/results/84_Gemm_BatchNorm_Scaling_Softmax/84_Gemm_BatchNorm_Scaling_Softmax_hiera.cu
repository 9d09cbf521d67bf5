// hiera expert candidate for '84_Gemm_BatchNorm_Scaling_Softmax'
// strategy: T.split_tf32
// variant: cuBLASLt algo #0 + bias epilogue; threads/row auto x2, vec 4, registers
// sizes: the shapes of get_inputs() only
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = x @ gemm.weight + gemm.bias (1024x8192x8192)
//   stage 1: row reduction over 1024x8192: out = (exp(((scale * (((… * …) * bn.weight) + bn.bias)) - max_row((scale * ((… * …) + bn.bias))…
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"
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


// Product 0: tmp0 = x @ gemm.weight + gemm.bias (M=1024 N=8192 K=8192),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan0 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan0* hiera_lt_plan0(const void* bias) {
    static HieraLtPlan0 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 8192, 8192, 8192);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 8192, 1024, 8192);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 8192, 1024, 8192);

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

// out = (exp(((scale * (((… * …) * bn.weight) + bn.bias)) - max_row((scale * ((… * …) + bn.bias))))) / sum_row(exp(((scale * ((…
// 1024 rows of 8192: 1024 thread(s) per row, 1 row(s) per block, 2 vector(s) of 4 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(1024) hiera_stage1(const float* __restrict__ p_scale, const float* __restrict__ p_tmp0, const float* __restrict__ p_bn_running_mean, const float* __restrict__ p_bn_running_var, const float* __restrict__ p_bn_weight, const float* __restrict__ p_bn_bias, float* __restrict__ p_out) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 8192;
    const idx_t rb1 = 0;
    const idx_t rb2 = 0;
    const idx_t rb3 = 0;
    const idx_t rb4 = 0;
    const idx_t rb5 = 0;
    float4 c0[2];
    float4 c1[2];
    float4 c2[2];
    float4 c3[2];
    float4 c4[2];
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const idx_t col = ((idx_t)j * 1024 + lane) * 4;
        c0[j] = *reinterpret_cast<const float4*>(&p_tmp0[rb0 + col]);
        c1[j] = *reinterpret_cast<const float4*>(&p_bn_running_mean[rb1 + col]);
        c2[j] = *reinterpret_cast<const float4*>(&p_bn_running_var[rb2 + col]);
        c3[j] = *reinterpret_cast<const float4*>(&p_bn_weight[rb3 + col]);
        c4[j] = *reinterpret_cast<const float4*>(&p_bn_bias[rb4 + col]);
    }
    const float h0_0 = p_scale[rb5];
    float acc0_0_0 = (-INFINITY);
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const float e0_0 = c0[j].x;
        const float e0_1 = c1[j].x;
        const float e0_2 = (e0_0 - e0_1);
        const float e0_3 = c2[j].x;
        const float e0_4 = (e0_3 + 1e-05f);
        const float e0_5 = rsqrtf(e0_4);
        const float e0_6 = (e0_2 * e0_5);
        const float e0_7 = c3[j].x;
        const float e0_8 = (e0_6 * e0_7);
        const float e0_9 = c4[j].x;
        const float e0_10 = (e0_8 + e0_9);
        const float e0_11 = (h0_0 * e0_10);
        const float e1_0 = c0[j].y;
        const float e1_1 = c1[j].y;
        const float e1_2 = (e1_0 - e1_1);
        const float e1_3 = c2[j].y;
        const float e1_4 = (e1_3 + 1e-05f);
        const float e1_5 = rsqrtf(e1_4);
        const float e1_6 = (e1_2 * e1_5);
        const float e1_7 = c3[j].y;
        const float e1_8 = (e1_6 * e1_7);
        const float e1_9 = c4[j].y;
        const float e1_10 = (e1_8 + e1_9);
        const float e1_11 = (h0_0 * e1_10);
        const float e2_0 = c0[j].z;
        const float e2_1 = c1[j].z;
        const float e2_2 = (e2_0 - e2_1);
        const float e2_3 = c2[j].z;
        const float e2_4 = (e2_3 + 1e-05f);
        const float e2_5 = rsqrtf(e2_4);
        const float e2_6 = (e2_2 * e2_5);
        const float e2_7 = c3[j].z;
        const float e2_8 = (e2_6 * e2_7);
        const float e2_9 = c4[j].z;
        const float e2_10 = (e2_8 + e2_9);
        const float e2_11 = (h0_0 * e2_10);
        const float e3_0 = c0[j].w;
        const float e3_1 = c1[j].w;
        const float e3_2 = (e3_0 - e3_1);
        const float e3_3 = c2[j].w;
        const float e3_4 = (e3_3 + 1e-05f);
        const float e3_5 = rsqrtf(e3_4);
        const float e3_6 = (e3_2 * e3_5);
        const float e3_7 = c3[j].w;
        const float e3_8 = (e3_6 * e3_7);
        const float e3_9 = c4[j].w;
        const float e3_10 = (e3_8 + e3_9);
        const float e3_11 = (h0_0 * e3_10);
        acc0_0_0 = fmaxf(acc0_0_0, e0_11);
        acc0_0_0 = fmaxf(acc0_0_0, e1_11);
        acc0_0_0 = fmaxf(acc0_0_0, e2_11);
        acc0_0_0 = fmaxf(acc0_0_0, e3_11);
    }
    acc0_0_0 = hiera_block_max<32>(acc0_0_0, smem);
    const float red0_0_0 = acc0_0_0;  // max over the row
    float acc1_0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const float e0_0 = c0[j].x;
        const float e0_1 = c1[j].x;
        const float e0_2 = (e0_0 - e0_1);
        const float e0_3 = c2[j].x;
        const float e0_4 = (e0_3 + 1e-05f);
        const float e0_5 = rsqrtf(e0_4);
        const float e0_6 = (e0_2 * e0_5);
        const float e0_7 = c3[j].x;
        const float e0_8 = (e0_6 * e0_7);
        const float e0_9 = c4[j].x;
        const float e0_10 = (e0_8 + e0_9);
        const float e0_11 = (h0_0 * e0_10);
        const float e0_12 = (e0_11 - red0_0_0);
        const float e0_13 = expf(e0_12);
        const float e1_0 = c0[j].y;
        const float e1_1 = c1[j].y;
        const float e1_2 = (e1_0 - e1_1);
        const float e1_3 = c2[j].y;
        const float e1_4 = (e1_3 + 1e-05f);
        const float e1_5 = rsqrtf(e1_4);
        const float e1_6 = (e1_2 * e1_5);
        const float e1_7 = c3[j].y;
        const float e1_8 = (e1_6 * e1_7);
        const float e1_9 = c4[j].y;
        const float e1_10 = (e1_8 + e1_9);
        const float e1_11 = (h0_0 * e1_10);
        const float e1_12 = (e1_11 - red0_0_0);
        const float e1_13 = expf(e1_12);
        const float e2_0 = c0[j].z;
        const float e2_1 = c1[j].z;
        const float e2_2 = (e2_0 - e2_1);
        const float e2_3 = c2[j].z;
        const float e2_4 = (e2_3 + 1e-05f);
        const float e2_5 = rsqrtf(e2_4);
        const float e2_6 = (e2_2 * e2_5);
        const float e2_7 = c3[j].z;
        const float e2_8 = (e2_6 * e2_7);
        const float e2_9 = c4[j].z;
        const float e2_10 = (e2_8 + e2_9);
        const float e2_11 = (h0_0 * e2_10);
        const float e2_12 = (e2_11 - red0_0_0);
        const float e2_13 = expf(e2_12);
        const float e3_0 = c0[j].w;
        const float e3_1 = c1[j].w;
        const float e3_2 = (e3_0 - e3_1);
        const float e3_3 = c2[j].w;
        const float e3_4 = (e3_3 + 1e-05f);
        const float e3_5 = rsqrtf(e3_4);
        const float e3_6 = (e3_2 * e3_5);
        const float e3_7 = c3[j].w;
        const float e3_8 = (e3_6 * e3_7);
        const float e3_9 = c4[j].w;
        const float e3_10 = (e3_8 + e3_9);
        const float e3_11 = (h0_0 * e3_10);
        const float e3_12 = (e3_11 - red0_0_0);
        const float e3_13 = expf(e3_12);
        acc1_0_0 += e0_13 + e1_13 + e2_13 + e3_13;
    }
    acc1_0_0 = hiera_block_sum<32>(acc1_0_0, smem);
    const float red1_0_0 = acc1_0_0;  // sum over the row
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const idx_t col = ((idx_t)j * 1024 + lane) * 4;
        const float e0_0 = c0[j].x;
        const float e0_1 = c1[j].x;
        const float e0_2 = (e0_0 - e0_1);
        const float e0_3 = c2[j].x;
        const float e0_4 = (e0_3 + 1e-05f);
        const float e0_5 = rsqrtf(e0_4);
        const float e0_6 = (e0_2 * e0_5);
        const float e0_7 = c3[j].x;
        const float e0_8 = (e0_6 * e0_7);
        const float e0_9 = c4[j].x;
        const float e0_10 = (e0_8 + e0_9);
        const float e0_11 = (h0_0 * e0_10);
        const float e0_12 = (e0_11 - red0_0_0);
        const float e0_13 = expf(e0_12);
        const float e0_14 = (e0_13 / red1_0_0);
        const float e1_0 = c0[j].y;
        const float e1_1 = c1[j].y;
        const float e1_2 = (e1_0 - e1_1);
        const float e1_3 = c2[j].y;
        const float e1_4 = (e1_3 + 1e-05f);
        const float e1_5 = rsqrtf(e1_4);
        const float e1_6 = (e1_2 * e1_5);
        const float e1_7 = c3[j].y;
        const float e1_8 = (e1_6 * e1_7);
        const float e1_9 = c4[j].y;
        const float e1_10 = (e1_8 + e1_9);
        const float e1_11 = (h0_0 * e1_10);
        const float e1_12 = (e1_11 - red0_0_0);
        const float e1_13 = expf(e1_12);
        const float e1_14 = (e1_13 / red1_0_0);
        const float e2_0 = c0[j].z;
        const float e2_1 = c1[j].z;
        const float e2_2 = (e2_0 - e2_1);
        const float e2_3 = c2[j].z;
        const float e2_4 = (e2_3 + 1e-05f);
        const float e2_5 = rsqrtf(e2_4);
        const float e2_6 = (e2_2 * e2_5);
        const float e2_7 = c3[j].z;
        const float e2_8 = (e2_6 * e2_7);
        const float e2_9 = c4[j].z;
        const float e2_10 = (e2_8 + e2_9);
        const float e2_11 = (h0_0 * e2_10);
        const float e2_12 = (e2_11 - red0_0_0);
        const float e2_13 = expf(e2_12);
        const float e2_14 = (e2_13 / red1_0_0);
        const float e3_0 = c0[j].w;
        const float e3_1 = c1[j].w;
        const float e3_2 = (e3_0 - e3_1);
        const float e3_3 = c2[j].w;
        const float e3_4 = (e3_3 + 1e-05f);
        const float e3_5 = rsqrtf(e3_4);
        const float e3_6 = (e3_2 * e3_5);
        const float e3_7 = c3[j].w;
        const float e3_8 = (e3_6 * e3_7);
        const float e3_9 = c4[j].w;
        const float e3_10 = (e3_8 + e3_9);
        const float e3_11 = (h0_0 * e3_10);
        const float e3_12 = (e3_11 - red0_0_0);
        const float e3_13 = expf(e3_12);
        const float e3_14 = (e3_13 / red1_0_0);
        *reinterpret_cast<float4*>(&p_out[r * 8192 + col]) = make_float4(e0_14, e1_14, e2_14, e3_14);
    }
}

// out = (exp(((scale * (((… * …) * bn.weight) + bn.bias)) - max_row((scale * ((… * …) + bn.bias))))) / sum_row(exp(((scale * ((…
// 1024 rows of 8192: 1024 thread(s) per row, 1 row(s) per block, 8 vector(s) of 1 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(1024) hiera_stage1_scalar(const float* __restrict__ p_scale, const float* __restrict__ p_tmp0, const float* __restrict__ p_bn_running_mean, const float* __restrict__ p_bn_running_var, const float* __restrict__ p_bn_weight, const float* __restrict__ p_bn_bias, float* __restrict__ p_out) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 8192;
    const idx_t rb1 = 0;
    const idx_t rb2 = 0;
    const idx_t rb3 = 0;
    const idx_t rb4 = 0;
    const idx_t rb5 = 0;
    float c0[8];
    float c1[8];
    float c2[8];
    float c3[8];
    float c4[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const idx_t col = ((idx_t)j * 1024 + lane) * 1;
        c0[j] = p_tmp0[rb0 + col];
        c1[j] = p_bn_running_mean[rb1 + col];
        c2[j] = p_bn_running_var[rb2 + col];
        c3[j] = p_bn_weight[rb3 + col];
        c4[j] = p_bn_bias[rb4 + col];
    }
    const float h0_0 = p_scale[rb5];
    float acc0_0_0 = (-INFINITY);
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const float e0_0 = c0[j];
        const float e0_1 = c1[j];
        const float e0_2 = (e0_0 - e0_1);
        const float e0_3 = c2[j];
        const float e0_4 = (e0_3 + 1e-05f);
        const float e0_5 = rsqrtf(e0_4);
        const float e0_6 = (e0_2 * e0_5);
        const float e0_7 = c3[j];
        const float e0_8 = (e0_6 * e0_7);
        const float e0_9 = c4[j];
        const float e0_10 = (e0_8 + e0_9);
        const float e0_11 = (h0_0 * e0_10);
        acc0_0_0 = fmaxf(acc0_0_0, e0_11);
    }
    acc0_0_0 = hiera_block_max<32>(acc0_0_0, smem);
    const float red0_0_0 = acc0_0_0;  // max over the row
    float acc1_0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const float e0_0 = c0[j];
        const float e0_1 = c1[j];
        const float e0_2 = (e0_0 - e0_1);
        const float e0_3 = c2[j];
        const float e0_4 = (e0_3 + 1e-05f);
        const float e0_5 = rsqrtf(e0_4);
        const float e0_6 = (e0_2 * e0_5);
        const float e0_7 = c3[j];
        const float e0_8 = (e0_6 * e0_7);
        const float e0_9 = c4[j];
        const float e0_10 = (e0_8 + e0_9);
        const float e0_11 = (h0_0 * e0_10);
        const float e0_12 = (e0_11 - red0_0_0);
        const float e0_13 = expf(e0_12);
        acc1_0_0 += e0_13;
    }
    acc1_0_0 = hiera_block_sum<32>(acc1_0_0, smem);
    const float red1_0_0 = acc1_0_0;  // sum over the row
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const idx_t col = ((idx_t)j * 1024 + lane) * 1;
        const float e0_0 = c0[j];
        const float e0_1 = c1[j];
        const float e0_2 = (e0_0 - e0_1);
        const float e0_3 = c2[j];
        const float e0_4 = (e0_3 + 1e-05f);
        const float e0_5 = rsqrtf(e0_4);
        const float e0_6 = (e0_2 * e0_5);
        const float e0_7 = c3[j];
        const float e0_8 = (e0_6 * e0_7);
        const float e0_9 = c4[j];
        const float e0_10 = (e0_8 + e0_9);
        const float e0_11 = (h0_0 * e0_10);
        const float e0_12 = (e0_11 - red0_0_0);
        const float e0_13 = expf(e0_12);
        const float e0_14 = (e0_13 / red1_0_0);
        p_out[r * 8192 + col] = e0_14;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* scale, const hiera_tensor* gemm_weight, const hiera_tensor* gemm_bias, const hiera_tensor* bn_weight, const hiera_tensor* bn_bias, const hiera_tensor* bn_running_mean, const hiera_tensor* bn_running_var, const hiera_tensor* bn_num_batches_tracked, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 1024 || x->sizes[1] != 8192) return 2;  // specialized for 1024x8192
    if (scale->ndim != 1 || scale->sizes[0] != 1) return 2;  // specialized for 1
    if (gemm_weight->ndim != 2 || gemm_weight->sizes[0] != 8192 || gemm_weight->sizes[1] != 8192) return 2;  // specialized for 8192x8192
    if (gemm_bias->ndim != 1 || gemm_bias->sizes[0] != 8192) return 2;  // specialized for 8192
    if (bn_weight->ndim != 1 || bn_weight->sizes[0] != 8192) return 2;  // specialized for 8192
    if (bn_bias->ndim != 1 || bn_bias->sizes[0] != 8192) return 2;  // specialized for 8192
    if (bn_running_mean->ndim != 1 || bn_running_mean->sizes[0] != 8192) return 2;  // specialized for 8192
    if (bn_running_var->ndim != 1 || bn_running_var->sizes[0] != 8192) return 2;  // specialized for 8192
    (void)bn_num_batches_tracked;  // not read by this computation
    if (out->ndim != 2 || out->sizes[0] != 1024 || out->sizes[1] != 8192) return 2;  // specialized for 1024x8192
    const float* p_x = (const float*)x->data;
    const float* p_gemm_weight = (const float*)gemm_weight->data;
    const float* p_gemm_bias = (const float*)gemm_bias->data;
    const float* p_bn_running_mean = (const float*)bn_running_mean->data;
    const float* p_bn_running_var = (const float*)bn_running_var->data;
    const float* p_bn_weight = (const float*)bn_weight->data;
    const float* p_bn_bias = (const float*)bn_bias->data;
    const float* p_scale = (const float*)scale->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(8388608ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 1024x8192
    // tmp0 = x @ gemm.weight + gemm.bias (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0* p = hiera_lt_plan0(p_gemm_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_gemm_weight + 0, p->a, p_x + 0, p->b,
                           &beta, p_tmp0, p->c, p_tmp0, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_tmp0) && hiera_aligned16(p_bn_running_mean) && hiera_aligned16(p_bn_running_var) && hiera_aligned16(p_bn_weight) && hiera_aligned16(p_bn_bias) && hiera_aligned16(p_out)) {
    hiera_stage1<<<1024, 1024, 0, hiera_s>>>(p_scale, p_tmp0, p_bn_running_mean, p_bn_running_var, p_bn_weight, p_bn_bias, p_out);
    } else {
    hiera_stage1_scalar<<<1024, 1024, 0, hiera_s>>>(p_scale, p_tmp0, p_bn_running_mean, p_bn_running_var, p_bn_weight, p_bn_bias, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
