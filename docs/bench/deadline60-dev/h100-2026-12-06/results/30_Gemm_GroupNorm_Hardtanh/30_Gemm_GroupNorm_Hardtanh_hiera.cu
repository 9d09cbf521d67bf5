// hiera expert candidate for '30_Gemm_GroupNorm_Hardtanh'
// strategy: T.split_tf32
// variant: 3xTF32 split (2+1) on cuBLASLt algo #0; threads/row auto, vec 4, re-read; block 1024, vec 4, ilp 1
// precision: strict fp32: products as 3xTF32 (tensor cores on hi/lo-split operands)
//   stage 0: tmp0 = x @ gemm.weight (1024x8192x8192)
//   stage 1: row reduction over 1024x16x512: tmp1 = (sum_row((tmp0 + gemm.bias)) / 512); tmp2 = rsqrt(((sum_row((((… + …) - (… / …)) * ((… + …) - (… / …)))) / 512) + 1e-05))
//   stage 2: fused pointwise over 1024x16x512: tmp3 = (((((tmp0 + gemm.bias) - tmp1) * tmp2) * group_norm.weight) + group_norm.bias)
//   stage 3: fused pointwise over 1024x8192: out = hardtanh(tmp3, -2, 2)
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


// Product 0s: tmp0 = x_lo gemm.weight_hi + x_hi gemm.weight_lo (the small terms, over 2K) (M=1024 N=8192 K=16384),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_DEFAULT. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan0s {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan0s* hiera_lt_plan0s(const void* bias) {
    static HieraLtPlan0s p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 16384, 8192, 16384);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 16384, 1024, 16384);
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


// Product 0b: tmp0 += x_hi gemm.weight_hi (the large term, over K) (M=1024 N=8192 K=8192),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_DEFAULT. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan0b {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan0b* hiera_lt_plan0b(const void* bias) {
    static HieraLtPlan0b p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 8192, 8192, 16384);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 8192, 1024, 16384);
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


// Round to the nearest TF32 number (10 explicit mantissa bits; ties away from zero) by integer arithmetic on
// the bits: add half of the 13 dropped bits' weight, then clear them. Inf and NaN pass unchanged, and a
// finite value that would round up to Inf (within 2^-11 of FLT_MAX) is truncated instead.
__device__ __forceinline__ float hiera_tf32_rn(float x) {
    const unsigned u = __float_as_uint(x);
    if ((u & 0x7f800000u) == 0x7f800000u) return x;
    unsigned r = (u + 0x1000u) & 0xffffe000u;
    if ((r & 0x7f800000u) == 0x7f800000u) r = u & 0xffffe000u;
    return __uint_as_float(r);
}

// Split copies for tmp0 = x @ gemm.weight: x as [lo | hi] along K, gemm.weight as [hi ; lo], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage0_split(const float* __restrict__ p_x, const float* __restrict__ p_gemm_weight, float* __restrict__ p_tmp0_asplit, float* __restrict__ p_tmp0_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 18874368; e += (idx_t)gridDim.x * 256) {
        if (e < 2097152) {
            const idx_t i = (e % 2048) * 4, o = (e / 2048) % 1024;
            const idx_t s = 0 + o * 8192 + i, d = 0 + o * 16384 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_x + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp0_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp0_asplit + d + 8192) = hi;
        } else {
            const idx_t f = e - 2097152;
            const idx_t i = (f % 2048) * 4, o = (f / 2048) % 8192;
            const idx_t s = 0 + o * 8192 + i, d = 0 + o * 16384 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_gemm_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp0_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp0_bsplit + d + 8192) = lo;
        }
    }
}

// Split copies for tmp0 = x @ gemm.weight: x as [lo | hi] along K, gemm.weight as [hi ; lo]
__global__ void __launch_bounds__(256) hiera_stage0_split_scalar(const float* __restrict__ p_x, const float* __restrict__ p_gemm_weight, float* __restrict__ p_tmp0_asplit, float* __restrict__ p_tmp0_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 75497472; e += (idx_t)gridDim.x * 256) {
        if (e < 8388608) {
            const idx_t i = (e % 8192) * 1, o = (e / 8192) % 1024;
            const idx_t s = 0 + o * 8192 + i, d = 0 + o * 16384 + i;
            const float x = p_x[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp0_asplit[d + 0] = lo;
            p_tmp0_asplit[d + 8192] = hi;
        } else {
            const idx_t f = e - 8388608;
            const idx_t i = (f % 8192) * 1, o = (f / 8192) % 8192;
            const idx_t s = 0 + o * 8192 + i, d = 0 + o * 16384 + i;
            const float x = p_gemm_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp0_bsplit[d + 0] = hi;
            p_tmp0_bsplit[d + 8192] = lo;
        }
    }
}

// tmp1 = (sum_row((tmp0 + gemm.bias)) / 512); tmp2 = rsqrt(((sum_row((((… + …) - (… / …)) * ((… + …) - (… / …)))) / 512) + 1e-05))
// 16384 rows of 512: 32 thread(s) per row, 8 row(s) per block, 4 vector(s) of 4 per thread; 1 reduction pass(es); the row is streamed (loop unrolled 4x); online statistics
__global__ void __launch_bounds__(256) hiera_stage1(const float* __restrict__ p_tmp0, const float* __restrict__ p_gemm_bias, float* __restrict__ p_tmp1, float* __restrict__ p_tmp2) {
    const int lane = threadIdx.x % 32;
    const idx_t r = (idx_t)blockIdx.x * 8 + threadIdx.x / 32;
    const idx_t rb0 = (r) * 512;
    const idx_t rb1 = (r % 16) * 512;
    float acc0_0_0 = 0.0f;
    float acc0_0_1 = 0.0f;
    float acc0_0_2 = 0.0f;
#pragma unroll 4
    for (int j = 0; j < 4; ++j) {
        const idx_t col = ((idx_t)j * 32 + lane) * 4;
        const float4 q0 = *reinterpret_cast<const float4*>(&p_tmp0[rb0 + col]);
        const float4 q1 = *reinterpret_cast<const float4*>(&p_gemm_bias[rb1 + col]);
        const float e0_0 = q0.x;
        const float e0_1 = q1.x;
        const float e0_2 = (e0_0 + e0_1);
        const float e1_0 = q0.y;
        const float e1_1 = q1.y;
        const float e1_2 = (e1_0 + e1_1);
        const float e2_0 = q0.z;
        const float e2_1 = q1.z;
        const float e2_2 = (e2_0 + e2_1);
        const float e3_0 = q0.w;
        const float e3_1 = q1.w;
        const float e3_2 = (e3_0 + e3_1);
        {
            const float vm = (e0_2 + e1_2 + e2_2 + e3_2) * 0.25f;
            const float vq = (e0_2 - vm) * (e0_2 - vm) + (e1_2 - vm) * (e1_2 - vm) + (e2_2 - vm) * (e2_2 - vm) + (e3_2 - vm) * (e3_2 - vm);
            const float nn = acc0_0_0 + 4.0f;
            const float f = nn > 0.0f ? 4.0f / nn : 0.0f;
            const float dl = vm - acc0_0_1;
            acc0_0_1 += dl * f;
            acc0_0_2 += vq + dl * dl * acc0_0_0 * f;
            acc0_0_0 = nn;
        }
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float acc0_0_0_o = __shfl_xor_sync(0xffffffffu, acc0_0_0, o);
        const float acc0_0_1_o = __shfl_xor_sync(0xffffffffu, acc0_0_1, o);
        const float acc0_0_2_o = __shfl_xor_sync(0xffffffffu, acc0_0_2, o);
        {
            const float nn = acc0_0_0 + acc0_0_0_o;
            const float f = nn > 0.0f ? acc0_0_0_o / nn : 0.0f;
            const float dl = acc0_0_1_o - acc0_0_1;
            acc0_0_1 += dl * f;
            acc0_0_2 += acc0_0_2_o + dl * dl * acc0_0_0 * f;
            acc0_0_0 = nn;
        }
    }
    const float red0_0_0 = (acc0_0_1 * acc0_0_0);  // sum over the row
    const float red0_0_1 = acc0_0_2;  // sum over the row
    const float h1_0 = (red0_0_0 / 512.0f);
    const float h2_0 = (red0_0_1 / 512.0f);
    const float h2_1 = (h2_0 + 1e-05f);
    const float h2_2 = rsqrtf(h2_1);
    if (lane == 0) {
        p_tmp1[r] = h1_0;
        p_tmp2[r] = h2_2;
    }
}

// tmp1 = (sum_row((tmp0 + gemm.bias)) / 512); tmp2 = rsqrt(((sum_row((((… + …) - (… / …)) * ((… + …) - (… / …)))) / 512) + 1e-05))
// 16384 rows of 512: 32 thread(s) per row, 8 row(s) per block, 16 vector(s) of 1 per thread; 1 reduction pass(es); the row is streamed (loop unrolled 4x); online statistics
__global__ void __launch_bounds__(256) hiera_stage1_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_gemm_bias, float* __restrict__ p_tmp1, float* __restrict__ p_tmp2) {
    const int lane = threadIdx.x % 32;
    const idx_t r = (idx_t)blockIdx.x * 8 + threadIdx.x / 32;
    const idx_t rb0 = (r) * 512;
    const idx_t rb1 = (r % 16) * 512;
    float acc0_0_0 = 0.0f;
    float acc0_0_1 = 0.0f;
    float acc0_0_2 = 0.0f;
#pragma unroll 4
    for (int j = 0; j < 16; ++j) {
        const idx_t col = ((idx_t)j * 32 + lane) * 1;
        const float e0_0 = p_tmp0[rb0 + col];
        const float e0_1 = p_gemm_bias[rb1 + col];
        const float e0_2 = (e0_0 + e0_1);
        {
            const float vm = e0_2;
            const float nn = acc0_0_0 + 1.0f;
            const float f = nn > 0.0f ? 1.0f / nn : 0.0f;
            const float dl = vm - acc0_0_1;
            acc0_0_1 += dl * f;
            acc0_0_2 += 0.0f + dl * dl * acc0_0_0 * f;
            acc0_0_0 = nn;
        }
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float acc0_0_0_o = __shfl_xor_sync(0xffffffffu, acc0_0_0, o);
        const float acc0_0_1_o = __shfl_xor_sync(0xffffffffu, acc0_0_1, o);
        const float acc0_0_2_o = __shfl_xor_sync(0xffffffffu, acc0_0_2, o);
        {
            const float nn = acc0_0_0 + acc0_0_0_o;
            const float f = nn > 0.0f ? acc0_0_0_o / nn : 0.0f;
            const float dl = acc0_0_1_o - acc0_0_1;
            acc0_0_1 += dl * f;
            acc0_0_2 += acc0_0_2_o + dl * dl * acc0_0_0 * f;
            acc0_0_0 = nn;
        }
    }
    const float red0_0_0 = (acc0_0_1 * acc0_0_0);  // sum over the row
    const float red0_0_1 = acc0_0_2;  // sum over the row
    const float h1_0 = (red0_0_0 / 512.0f);
    const float h2_0 = (red0_0_1 / 512.0f);
    const float h2_1 = (h2_0 + 1e-05f);
    const float h2_2 = rsqrtf(h2_1);
    if (lane == 0) {
        p_tmp1[r] = h1_0;
        p_tmp2[r] = h2_2;
    }
}

// tmp3 = (((((tmp0 + gemm.bias) - tmp1) * tmp2) * group_norm.weight) + group_norm.bias)
// 8388608 elements as 2097152 vectors of 4; 1024 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(1024) hiera_stage2(const float* __restrict__ p_tmp0, const float* __restrict__ p_gemm_bias, const float* __restrict__ p_tmp1, const float* __restrict__ p_tmp2, const float* __restrict__ p_group_norm_weight, const float* __restrict__ p_group_norm_bias, float* __restrict__ p_tmp3) {
    const idx_t step = (idx_t)gridDim.x * 1024;
    for (idx_t v0 = (idx_t)blockIdx.x * 1024 + threadIdx.x; v0 < 2097152; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp0 + i);
        const float4 L1 = *reinterpret_cast<const float4*>(p_gemm_bias + i % 8192);
        const float U2 = p_tmp1[i / 512];
        const float U3 = p_tmp2[i / 512];
        const float4 L4 = *reinterpret_cast<const float4*>(p_group_norm_weight + i % 8192);
        const float4 L5 = *reinterpret_cast<const float4*>(p_group_norm_bias + i % 8192);
        const float t0_0 = L0.x;
        const float t0_1 = L1.x;
        const float t0_2 = (t0_0 + t0_1);
        const float t0_3 = U2;
        const float t0_4 = (t0_2 - t0_3);
        const float t0_5 = U3;
        const float t0_6 = (t0_4 * t0_5);
        const float t0_7 = L4.x;
        const float t0_8 = (t0_6 * t0_7);
        const float t0_9 = L5.x;
        const float t0_10 = (t0_8 + t0_9);
        const float t1_0 = L0.y;
        const float t1_1 = L1.y;
        const float t1_2 = (t1_0 + t1_1);
        const float t1_3 = U2;
        const float t1_4 = (t1_2 - t1_3);
        const float t1_5 = U3;
        const float t1_6 = (t1_4 * t1_5);
        const float t1_7 = L4.y;
        const float t1_8 = (t1_6 * t1_7);
        const float t1_9 = L5.y;
        const float t1_10 = (t1_8 + t1_9);
        const float t2_0 = L0.z;
        const float t2_1 = L1.z;
        const float t2_2 = (t2_0 + t2_1);
        const float t2_3 = U2;
        const float t2_4 = (t2_2 - t2_3);
        const float t2_5 = U3;
        const float t2_6 = (t2_4 * t2_5);
        const float t2_7 = L4.z;
        const float t2_8 = (t2_6 * t2_7);
        const float t2_9 = L5.z;
        const float t2_10 = (t2_8 + t2_9);
        const float t3_0 = L0.w;
        const float t3_1 = L1.w;
        const float t3_2 = (t3_0 + t3_1);
        const float t3_3 = U2;
        const float t3_4 = (t3_2 - t3_3);
        const float t3_5 = U3;
        const float t3_6 = (t3_4 * t3_5);
        const float t3_7 = L4.w;
        const float t3_8 = (t3_6 * t3_7);
        const float t3_9 = L5.w;
        const float t3_10 = (t3_8 + t3_9);
        *reinterpret_cast<float4*>(p_tmp3 + i) = make_float4(t0_10, t1_10, t2_10, t3_10);
    }
}

// tmp3 = (((((tmp0 + gemm.bias) - tmp1) * tmp2) * group_norm.weight) + group_norm.bias)
// 8388608 elements as 8388608 vectors of 1; 1024 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(1024) hiera_stage2_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_gemm_bias, const float* __restrict__ p_tmp1, const float* __restrict__ p_tmp2, const float* __restrict__ p_group_norm_weight, const float* __restrict__ p_group_norm_bias, float* __restrict__ p_tmp3) {
    const idx_t step = (idx_t)gridDim.x * 1024;
    for (idx_t v0 = (idx_t)blockIdx.x * 1024 + threadIdx.x; v0 < 8388608; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp0[i];
        const float t1 = p_gemm_bias[i % 8192];
        const float t2 = (t0 + t1);
        const float t3 = p_tmp1[i / 512];
        const float t4 = (t2 - t3);
        const float t5 = p_tmp2[i / 512];
        const float t6 = (t4 * t5);
        const float t7 = p_group_norm_weight[i % 8192];
        const float t8 = (t6 * t7);
        const float t9 = p_group_norm_bias[i % 8192];
        const float t10 = (t8 + t9);
        p_tmp3[i] = t10;
    }
}

// out = hardtanh(tmp3, -2, 2)
// 8388608 elements as 2097152 vectors of 4; 1024 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(1024) hiera_stage3(const float* __restrict__ p_tmp3, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 1024;
    for (idx_t v0 = (idx_t)blockIdx.x * 1024 + threadIdx.x; v0 < 2097152; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp3 + i);
        const float t0_0 = L0.x;
        const float t0_1 = fminf(fmaxf(t0_0, (-2.0f)), 2.0f);
        const float t1_0 = L0.y;
        const float t1_1 = fminf(fmaxf(t1_0, (-2.0f)), 2.0f);
        const float t2_0 = L0.z;
        const float t2_1 = fminf(fmaxf(t2_0, (-2.0f)), 2.0f);
        const float t3_0 = L0.w;
        const float t3_1 = fminf(fmaxf(t3_0, (-2.0f)), 2.0f);
        *reinterpret_cast<float4*>(p_out + i) = make_float4(t0_1, t1_1, t2_1, t3_1);
    }
}

// out = hardtanh(tmp3, -2, 2)
// 8388608 elements as 8388608 vectors of 1; 1024 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(1024) hiera_stage3_scalar(const float* __restrict__ p_tmp3, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 1024;
    for (idx_t v0 = (idx_t)blockIdx.x * 1024 + threadIdx.x; v0 < 8388608; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp3[i];
        const float t1 = fminf(fmaxf(t0, (-2.0f)), 2.0f);
        p_out[i] = t1;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* gemm_weight, const hiera_tensor* gemm_bias, const hiera_tensor* group_norm_weight, const hiera_tensor* group_norm_bias, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 1024 || x->sizes[1] != 8192) return 2;  // specialized for 1024x8192
    if (gemm_weight->ndim != 2 || gemm_weight->sizes[0] != 8192 || gemm_weight->sizes[1] != 8192) return 2;  // specialized for 8192x8192
    if (gemm_bias->ndim != 1 || gemm_bias->sizes[0] != 8192) return 2;  // specialized for 8192
    if (group_norm_weight->ndim != 1 || group_norm_weight->sizes[0] != 8192) return 2;  // specialized for 8192
    if (group_norm_bias->ndim != 1 || group_norm_bias->sizes[0] != 8192) return 2;  // specialized for 8192
    if (out->ndim != 2 || out->sizes[0] != 1024 || out->sizes[1] != 8192) return 2;  // specialized for 1024x8192
    const float* p_x = (const float*)x->data;
    const float* p_gemm_weight = (const float*)gemm_weight->data;
    const float* p_gemm_bias = (const float*)gemm_bias->data;
    const float* p_group_norm_weight = (const float*)group_norm_weight->data;
    const float* p_group_norm_bias = (const float*)group_norm_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(167804928ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 1024x8192
    float* p_tmp1 = hiera_ws + 8388608;  // 1024x16x1
    float* p_tmp2 = hiera_ws + 8404992;  // 1024x16x1
    float* p_tmp3 = hiera_ws + 8421376;  // 1024x8192
    float* p_tmp0_asplit = hiera_ws + 16809984;  // 16777216
    float* p_tmp0_bsplit = hiera_ws + 33587200;  // 134217728
    if (hiera_aligned16(p_gemm_weight) && hiera_aligned16(p_x)) {
    hiera_stage0_split<<<2112, 256, 0, hiera_s>>>(p_x, p_gemm_weight, p_tmp0_asplit, p_tmp0_bsplit);
    } else {
    hiera_stage0_split_scalar<<<2112, 256, 0, hiera_s>>>(p_x, p_gemm_weight, p_tmp0_asplit, p_tmp0_bsplit);
    }
    // tmp0 = x_lo gemm.weight_hi + x_hi gemm.weight_lo (the small terms, over 2K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0s* p = hiera_lt_plan0s(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp0_bsplit + 0, p->a, p_tmp0_asplit + 0, p->b,
                           &beta, p_tmp0, p->c, p_tmp0, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // tmp0 += x_hi gemm.weight_hi (the large term, over K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0b* p = hiera_lt_plan0b(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 1.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp0_bsplit + 0, p->a, p_tmp0_asplit + 8192, p->b,
                           &beta, p_tmp0, p->c, p_tmp0, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_tmp0) && hiera_aligned16(p_gemm_bias)) {
    hiera_stage1<<<2048, 256, 0, hiera_s>>>(p_tmp0, p_gemm_bias, p_tmp1, p_tmp2);
    } else {
    hiera_stage1_scalar<<<2048, 256, 0, hiera_s>>>(p_tmp0, p_gemm_bias, p_tmp1, p_tmp2);
    }
    if (hiera_aligned16(p_tmp3) && hiera_aligned16(p_tmp0) && hiera_aligned16(p_gemm_bias) && hiera_aligned16(p_group_norm_weight) && hiera_aligned16(p_group_norm_bias)) {
        hiera_stage2<<<2048, 1024, 0, hiera_s>>>(p_tmp0, p_gemm_bias, p_tmp1, p_tmp2, p_group_norm_weight, p_group_norm_bias, p_tmp3);
    } else {
        hiera_stage2_scalar<<<8192, 1024, 0, hiera_s>>>(p_tmp0, p_gemm_bias, p_tmp1, p_tmp2, p_group_norm_weight, p_group_norm_bias, p_tmp3);
    }
    if (hiera_aligned16(p_out) && hiera_aligned16(p_tmp3)) {
        hiera_stage3<<<2048, 1024, 0, hiera_s>>>(p_tmp3, p_out);
    } else {
        hiera_stage3_scalar<<<8192, 1024, 0, hiera_s>>>(p_tmp3, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
