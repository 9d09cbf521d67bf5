// hiera expert candidate for '02_self_attention'
// strategy: R.library_epilogue
// variant: transpose tile 32x32, block 32x8 (4/thread), pad +1; cuBLASLt algo #1 + bias epilogue; threads/row auto x2, vec 4, registers; block 256, vec 4, ilp 2
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = x @ q_proj.weight (8192x1024x1024)
//   stage 1: tmp1 = x @ k_proj.weight (8192x1024x1024)
//   stage 2: tmp2 = x @ v_proj.weight (8192x1024x1024)
//   stage 3: fused pointwise over 8x16x1024x64: tmp3 = (tmp0 + q_proj.bias)
//   stage 4: tiled transpose over 8x16x64x1024: tmp4 = (tmp1 + k_proj.bias)
//   stage 5: tmp5 = tmp3 @ tmp4 (1024x1024x64, batch 128)
//   stage 6: row reduction over 8x16x1024x1024: tmp6 = (exp(((tmp5 * 0.125) - max_row((tmp5 * 0.125)))) / sum_row(exp(((tmp5 * 0.125) - max_row(…
//   stage 7: fused pointwise over 8x16x1024x64: tmp7 = (tmp2 + v_proj.bias)
//   stage 8: tmp8 = tmp6 @ tmp7 (1024x64x1024, batch 128)
//   stage 9: fused pointwise over 8x1024x16x64: tmp9 = tmp8
//   stage 10: out = tmp9 @ out_proj.weight + out_proj.bias (8192x1024x1024)
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


// Product 0: tmp0 = x @ q_proj.weight (M=8192 N=1024 K=1024),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_DEFAULT. Descriptors and the algorithm are chosen once (shapes are fixed).
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
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 1024, 1024, 1024);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 1024, 8192, 1024);
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
        p.algo = res[1 < found ? 1 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}


// Product 1: tmp1 = x @ k_proj.weight (M=8192 N=1024 K=1024),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_DEFAULT. Descriptors and the algorithm are chosen once (shapes are fixed).
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
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 1024, 1024, 1024);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 1024, 8192, 1024);
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
        p.algo = res[1 < found ? 1 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}


// Product 2: tmp2 = x @ v_proj.weight (M=8192 N=1024 K=1024),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_DEFAULT. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan2 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan2* hiera_lt_plan2(const void* bias) {
    static HieraLtPlan2 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 1024, 1024, 1024);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 1024, 8192, 1024);
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
        p.algo = res[1 < found ? 1 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}


// Product 5: tmp5 = tmp3 @ tmp4 (M=1024 N=1024 K=64, batch 128),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_DEFAULT. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan5 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan5* hiera_lt_plan5(const void* bias) {
    static HieraLtPlan5 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_N, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 1024, 64, 1024);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 64, 1024, 64);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);
        int bc = 128; long long sa = 65536, sb = 65536, sc = 1048576;
        cublasLtMatrixLayoutSetAttribute(p.a, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof(bc));
        cublasLtMatrixLayoutSetAttribute(p.b, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof(bc));
        cublasLtMatrixLayoutSetAttribute(p.c, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof(bc));
        cublasLtMatrixLayoutSetAttribute(p.a, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sa, sizeof(sa));
        cublasLtMatrixLayoutSetAttribute(p.b, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sb, sizeof(sb));
        cublasLtMatrixLayoutSetAttribute(p.c, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sc, sizeof(sc));
        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[1 < found ? 1 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}


// Product 8: tmp8 = tmp6 @ tmp7 (M=1024 N=64 K=1024, batch 128),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_DEFAULT. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan8 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan8* hiera_lt_plan8(const void* bias) {
    static HieraLtPlan8 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_N, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 64, 1024, 64);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 1024, 1024, 1024);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 64, 1024, 64);
        int bc = 128; long long sa = 65536, sb = 1048576, sc = 65536;
        cublasLtMatrixLayoutSetAttribute(p.a, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof(bc));
        cublasLtMatrixLayoutSetAttribute(p.b, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof(bc));
        cublasLtMatrixLayoutSetAttribute(p.c, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof(bc));
        cublasLtMatrixLayoutSetAttribute(p.a, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sa, sizeof(sa));
        cublasLtMatrixLayoutSetAttribute(p.b, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sb, sizeof(sb));
        cublasLtMatrixLayoutSetAttribute(p.c, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sc, sizeof(sc));
        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[1 < found ? 1 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}


// Product 10: out = tmp9 @ out_proj.weight + out_proj.bias (M=8192 N=1024 K=1024),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan10 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan10* hiera_lt_plan10(const void* bias) {
    static HieraLtPlan10 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 1024, 1024, 1024);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 1024, 8192, 1024);
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
        p.algo = res[1 < found ? 1 : 0].algo;
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

// tmp3 = (tmp0 + q_proj.bias)
// 8388608 elements as 2097152 vectors of 4; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage3(const float* __restrict__ p_tmp0, const float* __restrict__ p_q_proj_bias, float* __restrict__ p_tmp3) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 2097152; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 2097152) break;
            const idx_t i = v * 4;
            const float4 L0 = *reinterpret_cast<const float4*>(p_tmp0 + (i / 1048576) * 1048576 + ((i / 65536) % 16) * 64 + ((i / 64) % 1024) * 1024 + i % 64);
            const float4 L1 = *reinterpret_cast<const float4*>(p_q_proj_bias + ((i / 65536) % 16) * 64 + i % 64);
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
            *reinterpret_cast<float4*>(p_tmp3 + i) = make_float4(t0_2, t1_2, t2_2, t3_2);
        }
    }
}

// tmp3 = (tmp0 + q_proj.bias)
// 8388608 elements as 8388608 vectors of 1; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage3_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_q_proj_bias, float* __restrict__ p_tmp3) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 8388608; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 8388608) break;
            const idx_t i = v * 1;
            const float t0 = p_tmp0[(i / 1048576) * 1048576 + ((i / 65536) % 16) * 64 + ((i / 64) % 1024) * 1024 + i % 64];
            const float t1 = p_q_proj_bias[((i / 65536) % 16) * 64 + i % 64];
            const float t2 = (t0 + t1);
            p_tmp3[i] = t2;
        }
    }
}

// tmp4 = (tmp1 + k_proj.bias)
// tiled transpose of the plane (dim 2: 64) x (last dim: 1024), batch 128: 32x32 tiles, 32x8 threads, +1 padded shared memory; reads and writes both coalesced.
__global__ void __launch_bounds__(256) hiera_stage4(const float* __restrict__ p_tmp1, const float* __restrict__ p_k_proj_bias, float* __restrict__ p_tmp4) {
    __shared__ float s0[32][33];
    const idx_t tile = blockIdx.x;
    const idx_t l0 = (tile % 32) * 32;
    const idx_t c0 = ((tile / 32) % 2) * 32;
    const idx_t b = tile / 64;
    (void)b;
    const idx_t base0 = (b / 16) * 1048576 + (b % 16) * 64;  // tmp1
    const idx_t base1 = (b % 16) * 64;  // k_proj.bias
    const idx_t base2 = (b) * 65536;  // tmp4
#pragma unroll
    for (int y = 0; y < 4; ++y) {
#pragma unroll
        for (int x = 0; x < 1; ++x) {
            const int j = (int)threadIdx.y + y * 8;  // along the last dim
            const int i = (int)threadIdx.x + x * 32;  // along dim 2: unit stride in the source
            const idx_t c = c0 + (idx_t)i, l = l0 + (idx_t)j;
            s0[j][i] = p_tmp1[base0 + c + l * 1024];
        }
    }
    __syncthreads();
#pragma unroll
    for (int y = 0; y < 4; ++y) {
#pragma unroll
        for (int x = 0; x < 1; ++x) {
            const int j = (int)threadIdx.y + y * 8;  // along dim 2
            const int i = (int)threadIdx.x + x * 32;  // along the last dim: unit stride in the output
            const idx_t c = c0 + (idx_t)j, l = l0 + (idx_t)i;
            const float t0 = s0[i][j];
            const float t1 = p_k_proj_bias[base1 + c];
            const float t2 = (t0 + t1);
            p_tmp4[base2 + c * 1024 + l] = t2;
        }
    }
}

// tmp6 = (exp(((tmp5 * 0.125) - max_row((tmp5 * 0.125)))) / sum_row(exp(((tmp5 * 0.125) - max_row((tmp5 * 0.125))))))
// 131072 rows of 1024: 64 thread(s) per row, 1 row(s) per block, 4 vector(s) of 4 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(64) hiera_stage6(const float* __restrict__ p_tmp5, float* __restrict__ p_tmp6) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 1024;
    float4 c0[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const idx_t col = ((idx_t)j * 64 + lane) * 4;
        c0[j] = *reinterpret_cast<const float4*>(&p_tmp5[rb0 + col]);
    }
    float acc0_0_0 = (-INFINITY);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float e0_0 = c0[j].x;
        const float e0_1 = (e0_0 * 0.125f);
        const float e1_0 = c0[j].y;
        const float e1_1 = (e1_0 * 0.125f);
        const float e2_0 = c0[j].z;
        const float e2_1 = (e2_0 * 0.125f);
        const float e3_0 = c0[j].w;
        const float e3_1 = (e3_0 * 0.125f);
        acc0_0_0 = fmaxf(acc0_0_0, e0_1);
        acc0_0_0 = fmaxf(acc0_0_0, e1_1);
        acc0_0_0 = fmaxf(acc0_0_0, e2_1);
        acc0_0_0 = fmaxf(acc0_0_0, e3_1);
    }
    acc0_0_0 = hiera_block_max<2>(acc0_0_0, smem);
    const float red0_0_0 = acc0_0_0;  // max over the row
    float acc1_0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float e0_0 = c0[j].x;
        const float e0_1 = (e0_0 * 0.125f);
        const float e0_2 = (e0_1 - red0_0_0);
        const float e0_3 = expf(e0_2);
        const float e1_0 = c0[j].y;
        const float e1_1 = (e1_0 * 0.125f);
        const float e1_2 = (e1_1 - red0_0_0);
        const float e1_3 = expf(e1_2);
        const float e2_0 = c0[j].z;
        const float e2_1 = (e2_0 * 0.125f);
        const float e2_2 = (e2_1 - red0_0_0);
        const float e2_3 = expf(e2_2);
        const float e3_0 = c0[j].w;
        const float e3_1 = (e3_0 * 0.125f);
        const float e3_2 = (e3_1 - red0_0_0);
        const float e3_3 = expf(e3_2);
        acc1_0_0 += e0_3 + e1_3 + e2_3 + e3_3;
    }
    acc1_0_0 = hiera_block_sum<2>(acc1_0_0, smem);
    const float red1_0_0 = acc1_0_0;  // sum over the row
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const idx_t col = ((idx_t)j * 64 + lane) * 4;
        const float e0_0 = c0[j].x;
        const float e0_1 = (e0_0 * 0.125f);
        const float e0_2 = (e0_1 - red0_0_0);
        const float e0_3 = expf(e0_2);
        const float e0_4 = (e0_3 / red1_0_0);
        const float e1_0 = c0[j].y;
        const float e1_1 = (e1_0 * 0.125f);
        const float e1_2 = (e1_1 - red0_0_0);
        const float e1_3 = expf(e1_2);
        const float e1_4 = (e1_3 / red1_0_0);
        const float e2_0 = c0[j].z;
        const float e2_1 = (e2_0 * 0.125f);
        const float e2_2 = (e2_1 - red0_0_0);
        const float e2_3 = expf(e2_2);
        const float e2_4 = (e2_3 / red1_0_0);
        const float e3_0 = c0[j].w;
        const float e3_1 = (e3_0 * 0.125f);
        const float e3_2 = (e3_1 - red0_0_0);
        const float e3_3 = expf(e3_2);
        const float e3_4 = (e3_3 / red1_0_0);
        *reinterpret_cast<float4*>(&p_tmp6[r * 1024 + col]) = make_float4(e0_4, e1_4, e2_4, e3_4);
    }
}

// tmp6 = (exp(((tmp5 * 0.125) - max_row((tmp5 * 0.125)))) / sum_row(exp(((tmp5 * 0.125) - max_row((tmp5 * 0.125))))))
// 131072 rows of 1024: 64 thread(s) per row, 1 row(s) per block, 16 vector(s) of 1 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(64) hiera_stage6_scalar(const float* __restrict__ p_tmp5, float* __restrict__ p_tmp6) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 1024;
    float c0[16];
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const idx_t col = ((idx_t)j * 64 + lane) * 1;
        c0[j] = p_tmp5[rb0 + col];
    }
    float acc0_0_0 = (-INFINITY);
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 * 0.125f);
        acc0_0_0 = fmaxf(acc0_0_0, e0_1);
    }
    acc0_0_0 = hiera_block_max<2>(acc0_0_0, smem);
    const float red0_0_0 = acc0_0_0;  // max over the row
    float acc1_0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 * 0.125f);
        const float e0_2 = (e0_1 - red0_0_0);
        const float e0_3 = expf(e0_2);
        acc1_0_0 += e0_3;
    }
    acc1_0_0 = hiera_block_sum<2>(acc1_0_0, smem);
    const float red1_0_0 = acc1_0_0;  // sum over the row
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const idx_t col = ((idx_t)j * 64 + lane) * 1;
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 * 0.125f);
        const float e0_2 = (e0_1 - red0_0_0);
        const float e0_3 = expf(e0_2);
        const float e0_4 = (e0_3 / red1_0_0);
        p_tmp6[r * 1024 + col] = e0_4;
    }
}

// tmp7 = (tmp2 + v_proj.bias)
// 8388608 elements as 2097152 vectors of 4; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage7(const float* __restrict__ p_tmp2, const float* __restrict__ p_v_proj_bias, float* __restrict__ p_tmp7) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 2097152; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 2097152) break;
            const idx_t i = v * 4;
            const float4 L0 = *reinterpret_cast<const float4*>(p_tmp2 + (i / 1048576) * 1048576 + ((i / 65536) % 16) * 64 + ((i / 64) % 1024) * 1024 + i % 64);
            const float4 L1 = *reinterpret_cast<const float4*>(p_v_proj_bias + ((i / 65536) % 16) * 64 + i % 64);
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
            *reinterpret_cast<float4*>(p_tmp7 + i) = make_float4(t0_2, t1_2, t2_2, t3_2);
        }
    }
}

// tmp7 = (tmp2 + v_proj.bias)
// 8388608 elements as 8388608 vectors of 1; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage7_scalar(const float* __restrict__ p_tmp2, const float* __restrict__ p_v_proj_bias, float* __restrict__ p_tmp7) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 8388608; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 8388608) break;
            const idx_t i = v * 1;
            const float t0 = p_tmp2[(i / 1048576) * 1048576 + ((i / 65536) % 16) * 64 + ((i / 64) % 1024) * 1024 + i % 64];
            const float t1 = p_v_proj_bias[((i / 65536) % 16) * 64 + i % 64];
            const float t2 = (t0 + t1);
            p_tmp7[i] = t2;
        }
    }
}

// tmp9 = tmp8
// 8388608 elements as 2097152 vectors of 4; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage9(const float* __restrict__ p_tmp8, float* __restrict__ p_tmp9) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 2097152; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 2097152) break;
            const idx_t i = v * 4;
            const float4 L0 = *reinterpret_cast<const float4*>(p_tmp8 + (i / 1048576) * 1048576 + ((i / 1024) % 1024) * 64 + ((i / 64) % 16) * 65536 + i % 64);
            const float t0_0 = L0.x;
            const float t1_0 = L0.y;
            const float t2_0 = L0.z;
            const float t3_0 = L0.w;
            *reinterpret_cast<float4*>(p_tmp9 + i) = make_float4(t0_0, t1_0, t2_0, t3_0);
        }
    }
}

// tmp9 = tmp8
// 8388608 elements as 8388608 vectors of 1; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage9_scalar(const float* __restrict__ p_tmp8, float* __restrict__ p_tmp9) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 8388608; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 8388608) break;
            const idx_t i = v * 1;
            const float t0 = p_tmp8[(i / 1048576) * 1048576 + ((i / 1024) % 1024) * 64 + ((i / 64) % 16) * 65536 + i % 64];
            p_tmp9[i] = t0;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* q_proj_weight, const hiera_tensor* q_proj_bias, const hiera_tensor* k_proj_weight, const hiera_tensor* k_proj_bias, const hiera_tensor* v_proj_weight, const hiera_tensor* v_proj_bias, const hiera_tensor* out_proj_weight, const hiera_tensor* out_proj_bias, int64_t num_heads, int64_t head_dim, double scale, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 3 || x->sizes[0] != 8 || x->sizes[1] != 1024 || x->sizes[2] != 1024) return 2;  // specialized for 8x1024x1024
    if (q_proj_weight->ndim != 2 || q_proj_weight->sizes[0] != 1024 || q_proj_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (q_proj_bias->ndim != 1 || q_proj_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (k_proj_weight->ndim != 2 || k_proj_weight->sizes[0] != 1024 || k_proj_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (k_proj_bias->ndim != 1 || k_proj_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (v_proj_weight->ndim != 2 || v_proj_weight->sizes[0] != 1024 || v_proj_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (v_proj_bias->ndim != 1 || v_proj_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (out_proj_weight->ndim != 2 || out_proj_weight->sizes[0] != 1024 || out_proj_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (out_proj_bias->ndim != 1 || out_proj_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    (void)num_heads;  // baked into the kernels as a constant
    (void)head_dim;  // baked into the kernels as a constant
    (void)scale;  // baked into the kernels as a constant
    if (out->ndim != 3 || out->sizes[0] != 8 || out->sizes[1] != 1024 || out->sizes[2] != 1024) return 2;  // specialized for 8x1024x1024
    const float* p_x = (const float*)x->data;
    const float* p_q_proj_weight = (const float*)q_proj_weight->data;
    const float* p_q_proj_bias = (const float*)q_proj_bias->data;
    const float* p_k_proj_weight = (const float*)k_proj_weight->data;
    const float* p_k_proj_bias = (const float*)k_proj_bias->data;
    const float* p_v_proj_weight = (const float*)v_proj_weight->data;
    const float* p_v_proj_bias = (const float*)v_proj_bias->data;
    const float* p_out_proj_weight = (const float*)out_proj_weight->data;
    const float* p_out_proj_bias = (const float*)out_proj_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(335544320ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 8192x1024
    float* p_tmp1 = hiera_ws + 8388608;  // 8192x1024
    float* p_tmp2 = hiera_ws + 16777216;  // 8192x1024
    float* p_tmp3 = hiera_ws + 25165824;  // 8x16x1024x64
    float* p_tmp4 = hiera_ws + 33554432;  // 8x16x64x1024
    float* p_tmp5 = hiera_ws + 41943040;  // 128x1024x1024
    float* p_tmp6 = hiera_ws + 176160768;  // 8x16x1024x1024
    float* p_tmp7 = hiera_ws + 310378496;  // 8x16x1024x64
    float* p_tmp8 = hiera_ws + 318767104;  // 128x1024x64
    float* p_tmp9 = hiera_ws + 327155712;  // 8x1024x16x64
    // tmp0 = x @ q_proj.weight (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0* p = hiera_lt_plan0(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_q_proj_weight + 0, p->a, p_x + 0, p->b,
                           &beta, p_tmp0, p->c, p_tmp0, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // tmp1 = x @ k_proj.weight (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan1* p = hiera_lt_plan1(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_k_proj_weight + 0, p->a, p_x + 0, p->b,
                           &beta, p_tmp1, p->c, p_tmp1, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // tmp2 = x @ v_proj.weight (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan2* p = hiera_lt_plan2(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_v_proj_weight + 0, p->a, p_x + 0, p->b,
                           &beta, p_tmp2, p->c, p_tmp2, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_tmp3) && hiera_aligned16(p_tmp0) && hiera_aligned16(p_q_proj_bias)) {
        hiera_stage3<<<4096, 256, 0, hiera_s>>>(p_tmp0, p_q_proj_bias, p_tmp3);
    } else {
        hiera_stage3_scalar<<<16384, 256, 0, hiera_s>>>(p_tmp0, p_q_proj_bias, p_tmp3);
    }
    hiera_stage4<<<8192, dim3(32, 8), 0, hiera_s>>>(p_tmp1, p_k_proj_bias, p_tmp4);
    // tmp5 = tmp3 @ tmp4 (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan5* p = hiera_lt_plan5(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp4 + 0, p->a, p_tmp3 + 0, p->b,
                           &beta, p_tmp5, p->c, p_tmp5, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_tmp5) && hiera_aligned16(p_tmp6)) {
    hiera_stage6<<<131072, 64, 0, hiera_s>>>(p_tmp5, p_tmp6);
    } else {
    hiera_stage6_scalar<<<131072, 64, 0, hiera_s>>>(p_tmp5, p_tmp6);
    }
    if (hiera_aligned16(p_tmp7) && hiera_aligned16(p_tmp2) && hiera_aligned16(p_v_proj_bias)) {
        hiera_stage7<<<4096, 256, 0, hiera_s>>>(p_tmp2, p_v_proj_bias, p_tmp7);
    } else {
        hiera_stage7_scalar<<<16384, 256, 0, hiera_s>>>(p_tmp2, p_v_proj_bias, p_tmp7);
    }
    // tmp8 = tmp6 @ tmp7 (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan8* p = hiera_lt_plan8(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp7 + 0, p->a, p_tmp6 + 0, p->b,
                           &beta, p_tmp8, p->c, p_tmp8, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_tmp9) && hiera_aligned16(p_tmp8)) {
        hiera_stage9<<<4096, 256, 0, hiera_s>>>(p_tmp8, p_tmp9);
    } else {
        hiera_stage9_scalar<<<16384, 256, 0, hiera_s>>>(p_tmp8, p_tmp9);
    }
    // out = tmp9 @ out_proj.weight + out_proj.bias (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan10* p = hiera_lt_plan10(p_out_proj_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_out_proj_weight + 0, p->a, p_tmp9 + 0, p->b,
                           &beta, p_out, p->c, p_out, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
