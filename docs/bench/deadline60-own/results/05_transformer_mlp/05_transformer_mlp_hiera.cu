// hiera expert candidate for '05_transformer_mlp'
// strategy: T.split_tf32
// variant: 3xTF32 split (3k) on cuBLASLt algo #0 + bias epilogue; threads/row auto x0.5, vec 4, registers; block 512, vec 4, ilp 1
// precision: strict fp32: products as 3xTF32 (tensor cores on hi/lo-split operands)
//   stage 0: row reduction over 8x1024x1024: tmp0 = ((((x - (sum_row(x) / 1024)) * rsqrt(((sum_row(…) / 1024) + 1e-05))) * norm.weight) + nor…
//   stage 1: tmp1 = tmp0 @ fc1.weight + fc1.bias (8192x4096x1024)
//   stage 2: fused pointwise over 8x1024x4096: tmp2 = gelu(tmp1)
//   stage 3: tmp3 = tmp2 @ fc2.weight + fc2.bias (8192x1024x4096)
//   stage 4: fused pointwise over 8x1024x1024: out = (x + tmp3)
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


// Product 1t: tmp1 = tmp0_lo fc1.weight_hi + tmp0_hi fc1.weight_lo + tmp0_hi fc1.weight_hi + fc1.bias (one product over 3K) (M=8192 N=4096 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan1t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan1t* hiera_lt_plan1t(const void* bias) {
    static HieraLtPlan1t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 4096, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 8192, 3072);
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


// Product 3t: tmp3 = tmp2_lo fc2.weight_hi + tmp2_hi fc2.weight_lo + tmp2_hi fc2.weight_hi + fc2.bias (one product over 3K) (M=8192 N=1024 K=12288),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan3t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan3t* hiera_lt_plan3t(const void* bias) {
    static HieraLtPlan3t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 12288, 1024, 12288);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 12288, 8192, 12288);
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

// tmp0 = ((((x - (sum_row(x) / 1024)) * rsqrt(((sum_row(…) / 1024) + 1e-05))) * norm.weight) + norm.bias)
// 8192 rows of 1024: 16 thread(s) per row, 16 row(s) per block, 16 vector(s) of 4 per thread; 1 reduction pass(es); the row is streamed (loop unrolled 4x); online statistics
__global__ void __launch_bounds__(256) hiera_stage0(const float* __restrict__ p_x, const float* __restrict__ p_norm_weight, const float* __restrict__ p_norm_bias, float* __restrict__ p_tmp0) {
    const int lane = threadIdx.x % 16;
    const idx_t r = (idx_t)blockIdx.x * 16 + threadIdx.x / 16;
    const idx_t rb0 = (r) * 1024;
    const idx_t rb1 = 0;
    const idx_t rb2 = 0;
    float acc0_0_0 = 0.0f;
    float acc0_0_1 = 0.0f;
    float acc0_0_2 = 0.0f;
#pragma unroll 4
    for (int j = 0; j < 16; ++j) {
        const idx_t col = ((idx_t)j * 16 + lane) * 4;
        const float4 q0 = *reinterpret_cast<const float4*>(&p_x[rb0 + col]);
        const float e0_0 = q0.x;
        const float e1_0 = q0.y;
        const float e2_0 = q0.z;
        const float e3_0 = q0.w;
        {
            const float vm = (e0_0 + e1_0 + e2_0 + e3_0) * 0.25f;
            const float vq = (e0_0 - vm) * (e0_0 - vm) + (e1_0 - vm) * (e1_0 - vm) + (e2_0 - vm) * (e2_0 - vm) + (e3_0 - vm) * (e3_0 - vm);
            const float nn = acc0_0_0 + 4.0f;
            const float f = nn > 0.0f ? 4.0f / nn : 0.0f;
            const float dl = vm - acc0_0_1;
            acc0_0_1 += dl * f;
            acc0_0_2 += vq + dl * dl * acc0_0_0 * f;
            acc0_0_0 = nn;
        }
    }
    #pragma unroll
    for (int o = 8; o > 0; o >>= 1) {
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
    const float h1_0 = (red0_0_0 / 1024.0f);
    const float h1_1 = (red0_0_1 / 1024.0f);
    const float h1_2 = (h1_1 + 1e-05f);
    const float h1_3 = rsqrtf(h1_2);
#pragma unroll 4
    for (int j = 0; j < 16; ++j) {
        const idx_t col = ((idx_t)j * 16 + lane) * 4;
        const float4 q0 = *reinterpret_cast<const float4*>(&p_x[rb0 + col]);
        const float4 q1 = *reinterpret_cast<const float4*>(&p_norm_weight[rb1 + col]);
        const float4 q2 = *reinterpret_cast<const float4*>(&p_norm_bias[rb2 + col]);
        const float e0_0 = q0.x;
        const float e0_1 = (e0_0 - h1_0);
        const float e0_2 = (e0_1 * h1_3);
        const float e0_3 = q1.x;
        const float e0_4 = (e0_2 * e0_3);
        const float e0_5 = q2.x;
        const float e0_6 = (e0_4 + e0_5);
        const float e1_0 = q0.y;
        const float e1_1 = (e1_0 - h1_0);
        const float e1_2 = (e1_1 * h1_3);
        const float e1_3 = q1.y;
        const float e1_4 = (e1_2 * e1_3);
        const float e1_5 = q2.y;
        const float e1_6 = (e1_4 + e1_5);
        const float e2_0 = q0.z;
        const float e2_1 = (e2_0 - h1_0);
        const float e2_2 = (e2_1 * h1_3);
        const float e2_3 = q1.z;
        const float e2_4 = (e2_2 * e2_3);
        const float e2_5 = q2.z;
        const float e2_6 = (e2_4 + e2_5);
        const float e3_0 = q0.w;
        const float e3_1 = (e3_0 - h1_0);
        const float e3_2 = (e3_1 * h1_3);
        const float e3_3 = q1.w;
        const float e3_4 = (e3_2 * e3_3);
        const float e3_5 = q2.w;
        const float e3_6 = (e3_4 + e3_5);
        *reinterpret_cast<float4*>(&p_tmp0[r * 1024 + col]) = make_float4(e0_6, e1_6, e2_6, e3_6);
    }
}

// tmp0 = ((((x - (sum_row(x) / 1024)) * rsqrt(((sum_row(…) / 1024) + 1e-05))) * norm.weight) + norm.bias)
// 8192 rows of 1024: 16 thread(s) per row, 16 row(s) per block, 64 vector(s) of 1 per thread; 1 reduction pass(es); the row is streamed (loop unrolled 4x); online statistics
__global__ void __launch_bounds__(256) hiera_stage0_scalar(const float* __restrict__ p_x, const float* __restrict__ p_norm_weight, const float* __restrict__ p_norm_bias, float* __restrict__ p_tmp0) {
    const int lane = threadIdx.x % 16;
    const idx_t r = (idx_t)blockIdx.x * 16 + threadIdx.x / 16;
    const idx_t rb0 = (r) * 1024;
    const idx_t rb1 = 0;
    const idx_t rb2 = 0;
    float acc0_0_0 = 0.0f;
    float acc0_0_1 = 0.0f;
    float acc0_0_2 = 0.0f;
#pragma unroll 4
    for (int j = 0; j < 64; ++j) {
        const idx_t col = ((idx_t)j * 16 + lane) * 1;
        const float e0_0 = p_x[rb0 + col];
        {
            const float vm = e0_0;
            const float nn = acc0_0_0 + 1.0f;
            const float f = nn > 0.0f ? 1.0f / nn : 0.0f;
            const float dl = vm - acc0_0_1;
            acc0_0_1 += dl * f;
            acc0_0_2 += 0.0f + dl * dl * acc0_0_0 * f;
            acc0_0_0 = nn;
        }
    }
    #pragma unroll
    for (int o = 8; o > 0; o >>= 1) {
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
    const float h1_0 = (red0_0_0 / 1024.0f);
    const float h1_1 = (red0_0_1 / 1024.0f);
    const float h1_2 = (h1_1 + 1e-05f);
    const float h1_3 = rsqrtf(h1_2);
#pragma unroll 4
    for (int j = 0; j < 64; ++j) {
        const idx_t col = ((idx_t)j * 16 + lane) * 1;
        const float e0_0 = p_x[rb0 + col];
        const float e0_1 = (e0_0 - h1_0);
        const float e0_2 = (e0_1 * h1_3);
        const float e0_3 = p_norm_weight[rb1 + col];
        const float e0_4 = (e0_2 * e0_3);
        const float e0_5 = p_norm_bias[rb2 + col];
        const float e0_6 = (e0_4 + e0_5);
        p_tmp0[r * 1024 + col] = e0_6;
    }
}

// Split copies for tmp1 = tmp0 @ fc1.weight: tmp0 as [lo | hi | hi] along K, fc1.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage1_split(const float* __restrict__ p_tmp0, const float* __restrict__ p_fc1_weight, float* __restrict__ p_tmp1_asplit, float* __restrict__ p_tmp1_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 3145728; e += (idx_t)gridDim.x * 256) {
        if (e < 2097152) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 8192;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp0 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp1_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp1_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp1_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 2097152;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 4096;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_fc1_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp1_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp1_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp1_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp1 = tmp0 @ fc1.weight: tmp0 as [lo | hi | hi] along K, fc1.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage1_split_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_fc1_weight, float* __restrict__ p_tmp1_asplit, float* __restrict__ p_tmp1_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 12582912; e += (idx_t)gridDim.x * 256) {
        if (e < 8388608) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 8192;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp0[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp1_asplit[d + 0] = lo;
            p_tmp1_asplit[d + 1024] = hi;
            p_tmp1_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 8388608;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 4096;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_fc1_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp1_bsplit[d + 0] = hi;
            p_tmp1_bsplit[d + 1024] = lo;
            p_tmp1_bsplit[d + 2048] = hi;
        }
    }
}

// tmp2 = gelu(tmp1)
// 33554432 elements as 8388608 vectors of 4; 512 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(512) hiera_stage2(const float* __restrict__ p_tmp1, float* __restrict__ p_tmp2) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 8388608; v0 += step) {
        const idx_t i = v0 * 4;
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

// tmp2 = gelu(tmp1)
// 33554432 elements as 33554432 vectors of 1; 512 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(512) hiera_stage2_scalar(const float* __restrict__ p_tmp1, float* __restrict__ p_tmp2) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 33554432; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp1[i];
        const float t1 = (t0 * 0.5f * (1.0f + erff(t0 * 0.707106781186547524f)));
        p_tmp2[i] = t1;
    }
}

// Split copies for tmp3 = tmp2 @ fc2.weight: tmp2 as [lo | hi | hi] along K, fc2.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage3_split(const float* __restrict__ p_tmp2, const float* __restrict__ p_fc2_weight, float* __restrict__ p_tmp3_asplit, float* __restrict__ p_tmp3_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 9437184; e += (idx_t)gridDim.x * 256) {
        if (e < 8388608) {
            const idx_t i = (e % 1024) * 4, o = (e / 1024) % 8192;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 12288 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp2 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp3_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp3_asplit + d + 4096) = hi;
            *reinterpret_cast<float4*>(p_tmp3_asplit + d + 8192) = hi;
        } else {
            const idx_t f = e - 8388608;
            const idx_t i = (f % 1024) * 4, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 12288 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_fc2_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp3_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp3_bsplit + d + 4096) = lo;
            *reinterpret_cast<float4*>(p_tmp3_bsplit + d + 8192) = hi;
        }
    }
}

// Split copies for tmp3 = tmp2 @ fc2.weight: tmp2 as [lo | hi | hi] along K, fc2.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage3_split_scalar(const float* __restrict__ p_tmp2, const float* __restrict__ p_fc2_weight, float* __restrict__ p_tmp3_asplit, float* __restrict__ p_tmp3_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 37748736; e += (idx_t)gridDim.x * 256) {
        if (e < 33554432) {
            const idx_t i = (e % 4096) * 1, o = (e / 4096) % 8192;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 12288 + i;
            const float x = p_tmp2[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp3_asplit[d + 0] = lo;
            p_tmp3_asplit[d + 4096] = hi;
            p_tmp3_asplit[d + 8192] = hi;
        } else {
            const idx_t f = e - 33554432;
            const idx_t i = (f % 4096) * 1, o = (f / 4096) % 1024;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 12288 + i;
            const float x = p_fc2_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp3_bsplit[d + 0] = hi;
            p_tmp3_bsplit[d + 4096] = lo;
            p_tmp3_bsplit[d + 8192] = hi;
        }
    }
}

// out = (x + tmp3)
// 8388608 elements as 2097152 vectors of 4; 512 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(512) hiera_stage4(const float* __restrict__ p_x, const float* __restrict__ p_tmp3, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 2097152; v0 += step) {
        const idx_t i = v0 * 4;
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

// out = (x + tmp3)
// 8388608 elements as 8388608 vectors of 1; 512 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(512) hiera_stage4_scalar(const float* __restrict__ p_x, const float* __restrict__ p_tmp3, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 8388608; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_x[i];
        const float t1 = p_tmp3[i];
        const float t2 = (t0 + t1);
        p_out[i] = t2;
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
    float* hiera_ws = hiera_workspace(234881024ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 8x1024x1024
    float* p_tmp1 = hiera_ws + 8388608;  // 8192x4096
    float* p_tmp2 = hiera_ws + 41943040;  // 8x1024x4096
    float* p_tmp3 = hiera_ws + 75497472;  // 8192x1024
    float* p_tmp1_asplit = hiera_ws + 83886080;  // 25165824
    float* p_tmp1_bsplit = hiera_ws + 109051904;  // 12582912
    float* p_tmp3_asplit = hiera_ws + 121634816;  // 100663296
    float* p_tmp3_bsplit = hiera_ws + 222298112;  // 12582912
    if (hiera_aligned16(p_x) && hiera_aligned16(p_norm_weight) && hiera_aligned16(p_norm_bias) && hiera_aligned16(p_tmp0)) {
    hiera_stage0<<<512, 256, 0, hiera_s>>>(p_x, p_norm_weight, p_norm_bias, p_tmp0);
    } else {
    hiera_stage0_scalar<<<512, 256, 0, hiera_s>>>(p_x, p_norm_weight, p_norm_bias, p_tmp0);
    }
    if (hiera_aligned16(p_fc1_weight) && hiera_aligned16(p_tmp0)) {
    hiera_stage1_split<<<2112, 256, 0, hiera_s>>>(p_tmp0, p_fc1_weight, p_tmp1_asplit, p_tmp1_bsplit);
    } else {
    hiera_stage1_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp0, p_fc1_weight, p_tmp1_asplit, p_tmp1_bsplit);
    }
    // tmp1 = tmp0_lo fc1.weight_hi + tmp0_hi fc1.weight_lo + tmp0_hi fc1.weight_hi + fc1.bias (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan1t* p = hiera_lt_plan1t(p_fc1_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp1_bsplit + 0, p->a, p_tmp1_asplit + 0, p->b,
                           &beta, p_tmp1, p->c, p_tmp1, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_tmp2) && hiera_aligned16(p_tmp1)) {
        hiera_stage2<<<16384, 512, 0, hiera_s>>>(p_tmp1, p_tmp2);
    } else {
        hiera_stage2_scalar<<<65536, 512, 0, hiera_s>>>(p_tmp1, p_tmp2);
    }
    if (hiera_aligned16(p_fc2_weight) && hiera_aligned16(p_tmp2)) {
    hiera_stage3_split<<<2112, 256, 0, hiera_s>>>(p_tmp2, p_fc2_weight, p_tmp3_asplit, p_tmp3_bsplit);
    } else {
    hiera_stage3_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp2, p_fc2_weight, p_tmp3_asplit, p_tmp3_bsplit);
    }
    // tmp3 = tmp2_lo fc2.weight_hi + tmp2_hi fc2.weight_lo + tmp2_hi fc2.weight_hi + fc2.bias (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan3t* p = hiera_lt_plan3t(p_fc2_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp3_bsplit + 0, p->a, p_tmp3_asplit + 0, p->b,
                           &beta, p_tmp3, p->c, p_tmp3, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_out) && hiera_aligned16(p_x) && hiera_aligned16(p_tmp3)) {
        hiera_stage4<<<4096, 512, 0, hiera_s>>>(p_x, p_tmp3, p_out);
    } else {
        hiera_stage4_scalar<<<16384, 512, 0, hiera_s>>>(p_x, p_tmp3, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
