// hiera expert candidate for '01_mlp'
// strategy: T.split_tf32
// variant: 3xTF32 split (2+1) on cuBLASLt algo #0 + bias epilogue
// precision: strict fp32: products as 3xTF32 (tensor cores on hi/lo-split operands)
//   stage 0: tmp1 = x @ fc1.weight + fc1.bias -> relu (1024x4096x4096)
//   stage 1: tmp3 = tmp1 @ fc2.weight + fc2.bias -> relu (1024x4096x4096)
//   stage 2: tmp5 = tmp3 @ fc3.weight + fc3.bias -> relu (1024x4096x4096)
//   stage 3: out = tmp5 @ fc4.weight + fc4.bias (1024x1000x4096)
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


// Product 0s: tmp1 = x_lo fc1.weight_hi + x_hi fc1.weight_lo (the small terms, over 2K) (M=1024 N=4096 K=8192),
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
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 8192, 4096, 8192);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 8192, 1024, 8192);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 4096, 1024, 4096);

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


// Product 0b: tmp1 += x_hi fc1.weight_hi + fc1.bias then ReLU (the large term, over K) (M=1024 N=4096 K=4096),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
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
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 4096, 4096, 8192);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 4096, 1024, 8192);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 4096, 1024, 4096);

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


// Product 1s: tmp3 = tmp1_lo fc2.weight_hi + tmp1_hi fc2.weight_lo (the small terms, over 2K) (M=1024 N=4096 K=8192),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_DEFAULT. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan1s {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan1s* hiera_lt_plan1s(const void* bias) {
    static HieraLtPlan1s p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 8192, 4096, 8192);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 8192, 1024, 8192);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 4096, 1024, 4096);

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


// Product 1b: tmp3 += tmp1_hi fc2.weight_hi + fc2.bias then ReLU (the large term, over K) (M=1024 N=4096 K=4096),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan1b {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan1b* hiera_lt_plan1b(const void* bias) {
    static HieraLtPlan1b p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 4096, 4096, 8192);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 4096, 1024, 8192);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 4096, 1024, 4096);

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


// Product 2s: tmp5 = tmp3_lo fc3.weight_hi + tmp3_hi fc3.weight_lo (the small terms, over 2K) (M=1024 N=4096 K=8192),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_DEFAULT. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan2s {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan2s* hiera_lt_plan2s(const void* bias) {
    static HieraLtPlan2s p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 8192, 4096, 8192);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 8192, 1024, 8192);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 4096, 1024, 4096);

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


// Product 2b: tmp5 += tmp3_hi fc3.weight_hi + fc3.bias then ReLU (the large term, over K) (M=1024 N=4096 K=4096),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan2b {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan2b* hiera_lt_plan2b(const void* bias) {
    static HieraLtPlan2b p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 4096, 4096, 8192);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 4096, 1024, 8192);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 4096, 1024, 4096);

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


// Product 3s: out = tmp5_lo fc4.weight_hi + tmp5_hi fc4.weight_lo (the small terms, over 2K) (M=1024 N=1000 K=8192),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_DEFAULT. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan3s {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan3s* hiera_lt_plan3s(const void* bias) {
    static HieraLtPlan3s p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 8192, 1000, 8192);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 8192, 1024, 8192);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1000, 1024, 1000);

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


// Product 3b: out += tmp5_hi fc4.weight_hi + fc4.bias (the large term, over K) (M=1024 N=1000 K=4096),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan3b {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan3b* hiera_lt_plan3b(const void* bias) {
    static HieraLtPlan3b p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 4096, 1000, 8192);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 4096, 1024, 8192);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1000, 1024, 1000);

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

// Split copies for tmp1 = x @ fc1.weight: x as [lo | hi] along K, fc1.weight as [hi ; lo], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage0_split(const float* __restrict__ p_x, const float* __restrict__ p_fc1_weight, float* __restrict__ p_tmp1_asplit, float* __restrict__ p_tmp1_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 5242880; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 4, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_x + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp1_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp1_asplit + d + 4096) = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 4, o = (f / 1024) % 4096;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_fc1_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp1_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp1_bsplit + d + 4096) = lo;
        }
    }
}

// Split copies for tmp1 = x @ fc1.weight: x as [lo | hi] along K, fc1.weight as [hi ; lo]
__global__ void __launch_bounds__(256) hiera_stage0_split_scalar(const float* __restrict__ p_x, const float* __restrict__ p_fc1_weight, float* __restrict__ p_tmp1_asplit, float* __restrict__ p_tmp1_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 20971520; e += (idx_t)gridDim.x * 256) {
        if (e < 4194304) {
            const idx_t i = (e % 4096) * 1, o = (e / 4096) % 1024;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float x = p_x[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp1_asplit[d + 0] = lo;
            p_tmp1_asplit[d + 4096] = hi;
        } else {
            const idx_t f = e - 4194304;
            const idx_t i = (f % 4096) * 1, o = (f / 4096) % 4096;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float x = p_fc1_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp1_bsplit[d + 0] = hi;
            p_tmp1_bsplit[d + 4096] = lo;
        }
    }
}

// Split copies for tmp3 = tmp1 @ fc2.weight: tmp1 as [lo | hi] along K, fc2.weight as [hi ; lo], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage1_split(const float* __restrict__ p_tmp1, const float* __restrict__ p_fc2_weight, float* __restrict__ p_tmp3_asplit, float* __restrict__ p_tmp3_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 5242880; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 4, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp1 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp3_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp3_asplit + d + 4096) = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 4, o = (f / 1024) % 4096;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_fc2_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp3_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp3_bsplit + d + 4096) = lo;
        }
    }
}

// Split copies for tmp3 = tmp1 @ fc2.weight: tmp1 as [lo | hi] along K, fc2.weight as [hi ; lo]
__global__ void __launch_bounds__(256) hiera_stage1_split_scalar(const float* __restrict__ p_tmp1, const float* __restrict__ p_fc2_weight, float* __restrict__ p_tmp3_asplit, float* __restrict__ p_tmp3_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 20971520; e += (idx_t)gridDim.x * 256) {
        if (e < 4194304) {
            const idx_t i = (e % 4096) * 1, o = (e / 4096) % 1024;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float x = p_tmp1[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp3_asplit[d + 0] = lo;
            p_tmp3_asplit[d + 4096] = hi;
        } else {
            const idx_t f = e - 4194304;
            const idx_t i = (f % 4096) * 1, o = (f / 4096) % 4096;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float x = p_fc2_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp3_bsplit[d + 0] = hi;
            p_tmp3_bsplit[d + 4096] = lo;
        }
    }
}

// Split copies for tmp5 = tmp3 @ fc3.weight: tmp3 as [lo | hi] along K, fc3.weight as [hi ; lo], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage2_split(const float* __restrict__ p_tmp3, const float* __restrict__ p_fc3_weight, float* __restrict__ p_tmp5_asplit, float* __restrict__ p_tmp5_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 5242880; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 4, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp3 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp5_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp5_asplit + d + 4096) = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 4, o = (f / 1024) % 4096;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_fc3_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp5_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp5_bsplit + d + 4096) = lo;
        }
    }
}

// Split copies for tmp5 = tmp3 @ fc3.weight: tmp3 as [lo | hi] along K, fc3.weight as [hi ; lo]
__global__ void __launch_bounds__(256) hiera_stage2_split_scalar(const float* __restrict__ p_tmp3, const float* __restrict__ p_fc3_weight, float* __restrict__ p_tmp5_asplit, float* __restrict__ p_tmp5_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 20971520; e += (idx_t)gridDim.x * 256) {
        if (e < 4194304) {
            const idx_t i = (e % 4096) * 1, o = (e / 4096) % 1024;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float x = p_tmp3[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp5_asplit[d + 0] = lo;
            p_tmp5_asplit[d + 4096] = hi;
        } else {
            const idx_t f = e - 4194304;
            const idx_t i = (f % 4096) * 1, o = (f / 4096) % 4096;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float x = p_fc3_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp5_bsplit[d + 0] = hi;
            p_tmp5_bsplit[d + 4096] = lo;
        }
    }
}

// Split copies for out = tmp5 @ fc4.weight: tmp5 as [lo | hi] along K, fc4.weight as [hi ; lo], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage3_split(const float* __restrict__ p_tmp5, const float* __restrict__ p_fc4_weight, float* __restrict__ p_out_asplit, float* __restrict__ p_out_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2072576; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 4, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp5 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_out_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_out_asplit + d + 4096) = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 4, o = (f / 1024) % 1000;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_fc4_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_out_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_out_bsplit + d + 4096) = lo;
        }
    }
}

// Split copies for out = tmp5 @ fc4.weight: tmp5 as [lo | hi] along K, fc4.weight as [hi ; lo]
__global__ void __launch_bounds__(256) hiera_stage3_split_scalar(const float* __restrict__ p_tmp5, const float* __restrict__ p_fc4_weight, float* __restrict__ p_out_asplit, float* __restrict__ p_out_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 8290304; e += (idx_t)gridDim.x * 256) {
        if (e < 4194304) {
            const idx_t i = (e % 4096) * 1, o = (e / 4096) % 1024;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float x = p_tmp5[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_out_asplit[d + 0] = lo;
            p_out_asplit[d + 4096] = hi;
        } else {
            const idx_t f = e - 4194304;
            const idx_t i = (f % 4096) * 1, o = (f / 4096) % 1000;
            const idx_t s = 0 + o * 4096 + i, d = 0 + o * 8192 + i;
            const float x = p_fc4_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_out_bsplit[d + 0] = hi;
            p_out_bsplit[d + 4096] = lo;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* fc1_weight, const hiera_tensor* fc1_bias, const hiera_tensor* fc2_weight, const hiera_tensor* fc2_bias, const hiera_tensor* fc3_weight, const hiera_tensor* fc3_bias, const hiera_tensor* fc4_weight, const hiera_tensor* fc4_bias, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 1024 || x->sizes[1] != 4096) return 2;  // specialized for 1024x4096
    if (fc1_weight->ndim != 2 || fc1_weight->sizes[0] != 4096 || fc1_weight->sizes[1] != 4096) return 2;  // specialized for 4096x4096
    if (fc1_bias->ndim != 1 || fc1_bias->sizes[0] != 4096) return 2;  // specialized for 4096
    if (fc2_weight->ndim != 2 || fc2_weight->sizes[0] != 4096 || fc2_weight->sizes[1] != 4096) return 2;  // specialized for 4096x4096
    if (fc2_bias->ndim != 1 || fc2_bias->sizes[0] != 4096) return 2;  // specialized for 4096
    if (fc3_weight->ndim != 2 || fc3_weight->sizes[0] != 4096 || fc3_weight->sizes[1] != 4096) return 2;  // specialized for 4096x4096
    if (fc3_bias->ndim != 1 || fc3_bias->sizes[0] != 4096) return 2;  // specialized for 4096
    if (fc4_weight->ndim != 2 || fc4_weight->sizes[0] != 1000 || fc4_weight->sizes[1] != 4096) return 2;  // specialized for 1000x4096
    if (fc4_bias->ndim != 1 || fc4_bias->sizes[0] != 1000) return 2;  // specialized for 1000
    if (out->ndim != 2 || out->sizes[0] != 1024 || out->sizes[1] != 1000) return 2;  // specialized for 1024x1000
    const float* p_x = (const float*)x->data;
    const float* p_fc1_weight = (const float*)fc1_weight->data;
    const float* p_fc1_bias = (const float*)fc1_bias->data;
    const float* p_fc2_weight = (const float*)fc2_weight->data;
    const float* p_fc2_bias = (const float*)fc2_bias->data;
    const float* p_fc3_weight = (const float*)fc3_weight->data;
    const float* p_fc3_bias = (const float*)fc3_bias->data;
    const float* p_fc4_weight = (const float*)fc4_weight->data;
    const float* p_fc4_bias = (const float*)fc4_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(154992640ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp1 = hiera_ws + 0;  // 1024x4096
    float* p_tmp3 = hiera_ws + 4194304;  // 1024x4096
    float* p_tmp5 = hiera_ws + 8388608;  // 1024x4096
    float* p_tmp1_asplit = hiera_ws + 12582912;  // 8388608
    float* p_tmp1_bsplit = hiera_ws + 20971520;  // 33554432
    float* p_tmp3_asplit = hiera_ws + 54525952;  // 8388608
    float* p_tmp3_bsplit = hiera_ws + 62914560;  // 33554432
    float* p_tmp5_asplit = hiera_ws + 96468992;  // 8388608
    float* p_tmp5_bsplit = hiera_ws + 104857600;  // 33554432
    float* p_out_asplit = hiera_ws + 138412032;  // 8388608
    float* p_out_bsplit = hiera_ws + 146800640;  // 8192000
    if (hiera_aligned16(p_fc1_weight) && hiera_aligned16(p_x)) {
    hiera_stage0_split<<<2112, 256, 0, hiera_s>>>(p_x, p_fc1_weight, p_tmp1_asplit, p_tmp1_bsplit);
    } else {
    hiera_stage0_split_scalar<<<2112, 256, 0, hiera_s>>>(p_x, p_fc1_weight, p_tmp1_asplit, p_tmp1_bsplit);
    }
    // tmp1 = x_lo fc1.weight_hi + x_hi fc1.weight_lo (the small terms, over 2K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0s* p = hiera_lt_plan0s(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp1_bsplit + 0, p->a, p_tmp1_asplit + 0, p->b,
                           &beta, p_tmp1, p->c, p_tmp1, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // tmp1 += x_hi fc1.weight_hi + fc1.bias then ReLU (the large term, over K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0b* p = hiera_lt_plan0b(p_fc1_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 1.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp1_bsplit + 0, p->a, p_tmp1_asplit + 4096, p->b,
                           &beta, p_tmp1, p->c, p_tmp1, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_fc2_weight) && hiera_aligned16(p_tmp1)) {
    hiera_stage1_split<<<2112, 256, 0, hiera_s>>>(p_tmp1, p_fc2_weight, p_tmp3_asplit, p_tmp3_bsplit);
    } else {
    hiera_stage1_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp1, p_fc2_weight, p_tmp3_asplit, p_tmp3_bsplit);
    }
    // tmp3 = tmp1_lo fc2.weight_hi + tmp1_hi fc2.weight_lo (the small terms, over 2K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan1s* p = hiera_lt_plan1s(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp3_bsplit + 0, p->a, p_tmp3_asplit + 0, p->b,
                           &beta, p_tmp3, p->c, p_tmp3, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // tmp3 += tmp1_hi fc2.weight_hi + fc2.bias then ReLU (the large term, over K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan1b* p = hiera_lt_plan1b(p_fc2_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 1.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp3_bsplit + 0, p->a, p_tmp3_asplit + 4096, p->b,
                           &beta, p_tmp3, p->c, p_tmp3, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_fc3_weight) && hiera_aligned16(p_tmp3)) {
    hiera_stage2_split<<<2112, 256, 0, hiera_s>>>(p_tmp3, p_fc3_weight, p_tmp5_asplit, p_tmp5_bsplit);
    } else {
    hiera_stage2_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp3, p_fc3_weight, p_tmp5_asplit, p_tmp5_bsplit);
    }
    // tmp5 = tmp3_lo fc3.weight_hi + tmp3_hi fc3.weight_lo (the small terms, over 2K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan2s* p = hiera_lt_plan2s(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp5_bsplit + 0, p->a, p_tmp5_asplit + 0, p->b,
                           &beta, p_tmp5, p->c, p_tmp5, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // tmp5 += tmp3_hi fc3.weight_hi + fc3.bias then ReLU (the large term, over K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan2b* p = hiera_lt_plan2b(p_fc3_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 1.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp5_bsplit + 0, p->a, p_tmp5_asplit + 4096, p->b,
                           &beta, p_tmp5, p->c, p_tmp5, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_fc4_weight) && hiera_aligned16(p_tmp5)) {
    hiera_stage3_split<<<2112, 256, 0, hiera_s>>>(p_tmp5, p_fc4_weight, p_out_asplit, p_out_bsplit);
    } else {
    hiera_stage3_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp5, p_fc4_weight, p_out_asplit, p_out_bsplit);
    }
    // out = tmp5_lo fc4.weight_hi + tmp5_hi fc4.weight_lo (the small terms, over 2K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan3s* p = hiera_lt_plan3s(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_out_bsplit + 0, p->a, p_out_asplit + 0, p->b,
                           &beta, p_out, p->c, p_out, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // out += tmp5_hi fc4.weight_hi + fc4.bias (the large term, over K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan3b* p = hiera_lt_plan3b(p_fc4_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 1.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_out_bsplit + 0, p->a, p_out_asplit + 4096, p->b,
                           &beta, p_out, p->c, p_out, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
