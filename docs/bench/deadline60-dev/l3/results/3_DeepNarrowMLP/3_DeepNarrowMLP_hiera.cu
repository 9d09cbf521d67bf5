// hiera expert candidate for '3_DeepNarrowMLP'
// strategy: T.split_tf32
// variant: 3xTF32 split (3k) on cuBLASLt algo #0 + bias epilogue
// precision: strict fp32: products as 3xTF32 (tensor cores on hi/lo-split operands)
//   stage 0: tmp1 = x @ network.0.weight + network.0.bias -> relu (1024x1024x8192)
//   stage 1: tmp3 = tmp1 @ network.2.weight + network.2.bias -> relu (1024x1024x1024)
//   stage 2: tmp5 = tmp3 @ network.4.weight + network.4.bias -> relu (1024x1024x1024)
//   stage 3: tmp7 = tmp5 @ network.6.weight + network.6.bias -> relu (1024x1024x1024)
//   stage 4: tmp9 = tmp7 @ network.8.weight + network.8.bias -> relu (1024x1024x1024)
//   stage 5: tmp11 = tmp9 @ network.10.weight + network.10.bias -> relu (1024x1024x1024)
//   stage 6: tmp13 = tmp11 @ network.12.weight + network.12.bias -> relu (1024x1024x1024)
//   stage 7: tmp15 = tmp13 @ network.14.weight + network.14.bias -> relu (1024x1024x1024)
//   stage 8: tmp17 = tmp15 @ network.16.weight + network.16.bias -> relu (1024x1024x1024)
//   stage 9: tmp19 = tmp17 @ network.18.weight + network.18.bias -> relu (1024x1024x1024)
//   stage 10: tmp21 = tmp19 @ network.20.weight + network.20.bias -> relu (1024x1024x1024)
//   stage 11: tmp23 = tmp21 @ network.22.weight + network.22.bias -> relu (1024x1024x1024)
//   stage 12: tmp25 = tmp23 @ network.24.weight + network.24.bias -> relu (1024x1024x1024)
//   stage 13: tmp27 = tmp25 @ network.26.weight + network.26.bias -> relu (1024x1024x1024)
//   stage 14: tmp29 = tmp27 @ network.28.weight + network.28.bias -> relu (1024x1024x1024)
//   stage 15: tmp31 = tmp29 @ network.30.weight + network.30.bias -> relu (1024x1024x1024)
//   stage 16: out = tmp31 @ network.32.weight + network.32.bias (1024x8192x1024)
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


// Product 0t: tmp1 = x_lo network.0.weight_hi + x_hi network.0.weight_lo + x_hi network.0.weight_hi + network.0.bias then ReLU (one product over 3K) (M=1024 N=1024 K=24576),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan0t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan0t* hiera_lt_plan0t(const void* bias) {
    static HieraLtPlan0t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 24576, 1024, 24576);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 24576, 1024, 24576);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 1t: tmp3 = tmp1_lo network.2.weight_hi + tmp1_hi network.2.weight_lo + tmp1_hi network.2.weight_hi + network.2.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
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
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 2t: tmp5 = tmp3_lo network.4.weight_hi + tmp3_hi network.4.weight_lo + tmp3_hi network.4.weight_hi + network.4.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan2t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan2t* hiera_lt_plan2t(const void* bias) {
    static HieraLtPlan2t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 3t: tmp7 = tmp5_lo network.6.weight_hi + tmp5_hi network.6.weight_lo + tmp5_hi network.6.weight_hi + network.6.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
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
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 4t: tmp9 = tmp7_lo network.8.weight_hi + tmp7_hi network.8.weight_lo + tmp7_hi network.8.weight_hi + network.8.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan4t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan4t* hiera_lt_plan4t(const void* bias) {
    static HieraLtPlan4t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 5t: tmp11 = tmp9_lo network.10.weight_hi + tmp9_hi network.10.weight_lo + tmp9_hi network.10.weight_hi + network.10.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan5t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan5t* hiera_lt_plan5t(const void* bias) {
    static HieraLtPlan5t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 6t: tmp13 = tmp11_lo network.12.weight_hi + tmp11_hi network.12.weight_lo + tmp11_hi network.12.weight_hi + network.12.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan6t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan6t* hiera_lt_plan6t(const void* bias) {
    static HieraLtPlan6t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 7t: tmp15 = tmp13_lo network.14.weight_hi + tmp13_hi network.14.weight_lo + tmp13_hi network.14.weight_hi + network.14.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan7t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan7t* hiera_lt_plan7t(const void* bias) {
    static HieraLtPlan7t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 8t: tmp17 = tmp15_lo network.16.weight_hi + tmp15_hi network.16.weight_lo + tmp15_hi network.16.weight_hi + network.16.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan8t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan8t* hiera_lt_plan8t(const void* bias) {
    static HieraLtPlan8t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 9t: tmp19 = tmp17_lo network.18.weight_hi + tmp17_hi network.18.weight_lo + tmp17_hi network.18.weight_hi + network.18.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan9t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan9t* hiera_lt_plan9t(const void* bias) {
    static HieraLtPlan9t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 10t: tmp21 = tmp19_lo network.20.weight_hi + tmp19_hi network.20.weight_lo + tmp19_hi network.20.weight_hi + network.20.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan10t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan10t* hiera_lt_plan10t(const void* bias) {
    static HieraLtPlan10t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 11t: tmp23 = tmp21_lo network.22.weight_hi + tmp21_hi network.22.weight_lo + tmp21_hi network.22.weight_hi + network.22.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan11t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan11t* hiera_lt_plan11t(const void* bias) {
    static HieraLtPlan11t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 12t: tmp25 = tmp23_lo network.24.weight_hi + tmp23_hi network.24.weight_lo + tmp23_hi network.24.weight_hi + network.24.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan12t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan12t* hiera_lt_plan12t(const void* bias) {
    static HieraLtPlan12t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 13t: tmp27 = tmp25_lo network.26.weight_hi + tmp25_hi network.26.weight_lo + tmp25_hi network.26.weight_hi + network.26.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan13t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan13t* hiera_lt_plan13t(const void* bias) {
    static HieraLtPlan13t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 14t: tmp29 = tmp27_lo network.28.weight_hi + tmp27_hi network.28.weight_lo + tmp27_hi network.28.weight_hi + network.28.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan14t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan14t* hiera_lt_plan14t(const void* bias) {
    static HieraLtPlan14t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 15t: tmp31 = tmp29_lo network.30.weight_hi + tmp29_hi network.30.weight_lo + tmp29_hi network.30.weight_hi + network.30.bias then ReLU (one product over 3K) (M=1024 N=1024 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan15t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan15t* hiera_lt_plan15t(const void* bias) {
    static HieraLtPlan15t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1024, 1024, 1024);

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


// Product 16t: out = tmp31_lo network.32.weight_hi + tmp31_hi network.32.weight_lo + tmp31_hi network.32.weight_hi + network.32.bias (one product over 3K) (M=1024 N=8192 K=3072),
// CUBLAS_COMPUTE_32F_FAST_TF32, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan16t {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan16t* hiera_lt_plan16t(const void* bias) {
    static HieraLtPlan16t p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 3072, 8192, 3072);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 3072, 1024, 3072);
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

// Split copies for tmp1 = x @ network.0.weight: x as [lo | hi | hi] along K, network.0.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage0_split(const float* __restrict__ p_x, const float* __restrict__ p_network_0_weight, float* __restrict__ p_tmp1_asplit, float* __restrict__ p_tmp1_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 4194304; e += (idx_t)gridDim.x * 256) {
        if (e < 2097152) {
            const idx_t i = (e % 2048) * 4, o = (e / 2048) % 1024;
            const idx_t s = 0 + o * 8192 + i, d = 0 + o * 24576 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_x + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp1_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp1_asplit + d + 8192) = hi;
            *reinterpret_cast<float4*>(p_tmp1_asplit + d + 16384) = hi;
        } else {
            const idx_t f = e - 2097152;
            const idx_t i = (f % 2048) * 4, o = (f / 2048) % 1024;
            const idx_t s = 0 + o * 8192 + i, d = 0 + o * 24576 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_0_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp1_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp1_bsplit + d + 8192) = lo;
            *reinterpret_cast<float4*>(p_tmp1_bsplit + d + 16384) = hi;
        }
    }
}

// Split copies for tmp1 = x @ network.0.weight: x as [lo | hi | hi] along K, network.0.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage0_split_scalar(const float* __restrict__ p_x, const float* __restrict__ p_network_0_weight, float* __restrict__ p_tmp1_asplit, float* __restrict__ p_tmp1_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 16777216; e += (idx_t)gridDim.x * 256) {
        if (e < 8388608) {
            const idx_t i = (e % 8192) * 1, o = (e / 8192) % 1024;
            const idx_t s = 0 + o * 8192 + i, d = 0 + o * 24576 + i;
            const float x = p_x[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp1_asplit[d + 0] = lo;
            p_tmp1_asplit[d + 8192] = hi;
            p_tmp1_asplit[d + 16384] = hi;
        } else {
            const idx_t f = e - 8388608;
            const idx_t i = (f % 8192) * 1, o = (f / 8192) % 1024;
            const idx_t s = 0 + o * 8192 + i, d = 0 + o * 24576 + i;
            const float x = p_network_0_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp1_bsplit[d + 0] = hi;
            p_tmp1_bsplit[d + 8192] = lo;
            p_tmp1_bsplit[d + 16384] = hi;
        }
    }
}

// Split copies for tmp3 = tmp1 @ network.2.weight: tmp1 as [lo | hi | hi] along K, network.2.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage1_split(const float* __restrict__ p_tmp1, const float* __restrict__ p_network_2_weight, float* __restrict__ p_tmp3_asplit, float* __restrict__ p_tmp3_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp1 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp3_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp3_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp3_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_2_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp3_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp3_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp3_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp3 = tmp1 @ network.2.weight: tmp1 as [lo | hi | hi] along K, network.2.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage1_split_scalar(const float* __restrict__ p_tmp1, const float* __restrict__ p_network_2_weight, float* __restrict__ p_tmp3_asplit, float* __restrict__ p_tmp3_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp1[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp3_asplit[d + 0] = lo;
            p_tmp3_asplit[d + 1024] = hi;
            p_tmp3_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_2_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp3_bsplit[d + 0] = hi;
            p_tmp3_bsplit[d + 1024] = lo;
            p_tmp3_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp5 = tmp3 @ network.4.weight: tmp3 as [lo | hi | hi] along K, network.4.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage2_split(const float* __restrict__ p_tmp3, const float* __restrict__ p_network_4_weight, float* __restrict__ p_tmp5_asplit, float* __restrict__ p_tmp5_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp3 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp5_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp5_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp5_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_4_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp5_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp5_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp5_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp5 = tmp3 @ network.4.weight: tmp3 as [lo | hi | hi] along K, network.4.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage2_split_scalar(const float* __restrict__ p_tmp3, const float* __restrict__ p_network_4_weight, float* __restrict__ p_tmp5_asplit, float* __restrict__ p_tmp5_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp3[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp5_asplit[d + 0] = lo;
            p_tmp5_asplit[d + 1024] = hi;
            p_tmp5_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_4_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp5_bsplit[d + 0] = hi;
            p_tmp5_bsplit[d + 1024] = lo;
            p_tmp5_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp7 = tmp5 @ network.6.weight: tmp5 as [lo | hi | hi] along K, network.6.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage3_split(const float* __restrict__ p_tmp5, const float* __restrict__ p_network_6_weight, float* __restrict__ p_tmp7_asplit, float* __restrict__ p_tmp7_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp5 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp7_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp7_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp7_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_6_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp7_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp7_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp7_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp7 = tmp5 @ network.6.weight: tmp5 as [lo | hi | hi] along K, network.6.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage3_split_scalar(const float* __restrict__ p_tmp5, const float* __restrict__ p_network_6_weight, float* __restrict__ p_tmp7_asplit, float* __restrict__ p_tmp7_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp5[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp7_asplit[d + 0] = lo;
            p_tmp7_asplit[d + 1024] = hi;
            p_tmp7_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_6_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp7_bsplit[d + 0] = hi;
            p_tmp7_bsplit[d + 1024] = lo;
            p_tmp7_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp9 = tmp7 @ network.8.weight: tmp7 as [lo | hi | hi] along K, network.8.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage4_split(const float* __restrict__ p_tmp7, const float* __restrict__ p_network_8_weight, float* __restrict__ p_tmp9_asplit, float* __restrict__ p_tmp9_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp7 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp9_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp9_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp9_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_8_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp9_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp9_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp9_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp9 = tmp7 @ network.8.weight: tmp7 as [lo | hi | hi] along K, network.8.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage4_split_scalar(const float* __restrict__ p_tmp7, const float* __restrict__ p_network_8_weight, float* __restrict__ p_tmp9_asplit, float* __restrict__ p_tmp9_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp7[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp9_asplit[d + 0] = lo;
            p_tmp9_asplit[d + 1024] = hi;
            p_tmp9_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_8_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp9_bsplit[d + 0] = hi;
            p_tmp9_bsplit[d + 1024] = lo;
            p_tmp9_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp11 = tmp9 @ network.10.weight: tmp9 as [lo | hi | hi] along K, network.10.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage5_split(const float* __restrict__ p_tmp9, const float* __restrict__ p_network_10_weight, float* __restrict__ p_tmp11_asplit, float* __restrict__ p_tmp11_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp9 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp11_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp11_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp11_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_10_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp11_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp11_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp11_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp11 = tmp9 @ network.10.weight: tmp9 as [lo | hi | hi] along K, network.10.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage5_split_scalar(const float* __restrict__ p_tmp9, const float* __restrict__ p_network_10_weight, float* __restrict__ p_tmp11_asplit, float* __restrict__ p_tmp11_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp9[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp11_asplit[d + 0] = lo;
            p_tmp11_asplit[d + 1024] = hi;
            p_tmp11_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_10_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp11_bsplit[d + 0] = hi;
            p_tmp11_bsplit[d + 1024] = lo;
            p_tmp11_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp13 = tmp11 @ network.12.weight: tmp11 as [lo | hi | hi] along K, network.12.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage6_split(const float* __restrict__ p_tmp11, const float* __restrict__ p_network_12_weight, float* __restrict__ p_tmp13_asplit, float* __restrict__ p_tmp13_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp11 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp13_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp13_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp13_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_12_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp13_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp13_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp13_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp13 = tmp11 @ network.12.weight: tmp11 as [lo | hi | hi] along K, network.12.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage6_split_scalar(const float* __restrict__ p_tmp11, const float* __restrict__ p_network_12_weight, float* __restrict__ p_tmp13_asplit, float* __restrict__ p_tmp13_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp11[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp13_asplit[d + 0] = lo;
            p_tmp13_asplit[d + 1024] = hi;
            p_tmp13_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_12_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp13_bsplit[d + 0] = hi;
            p_tmp13_bsplit[d + 1024] = lo;
            p_tmp13_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp15 = tmp13 @ network.14.weight: tmp13 as [lo | hi | hi] along K, network.14.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage7_split(const float* __restrict__ p_tmp13, const float* __restrict__ p_network_14_weight, float* __restrict__ p_tmp15_asplit, float* __restrict__ p_tmp15_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp13 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp15_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp15_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp15_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_14_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp15_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp15_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp15_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp15 = tmp13 @ network.14.weight: tmp13 as [lo | hi | hi] along K, network.14.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage7_split_scalar(const float* __restrict__ p_tmp13, const float* __restrict__ p_network_14_weight, float* __restrict__ p_tmp15_asplit, float* __restrict__ p_tmp15_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp13[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp15_asplit[d + 0] = lo;
            p_tmp15_asplit[d + 1024] = hi;
            p_tmp15_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_14_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp15_bsplit[d + 0] = hi;
            p_tmp15_bsplit[d + 1024] = lo;
            p_tmp15_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp17 = tmp15 @ network.16.weight: tmp15 as [lo | hi | hi] along K, network.16.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage8_split(const float* __restrict__ p_tmp15, const float* __restrict__ p_network_16_weight, float* __restrict__ p_tmp17_asplit, float* __restrict__ p_tmp17_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp15 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp17_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp17_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp17_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_16_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp17_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp17_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp17_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp17 = tmp15 @ network.16.weight: tmp15 as [lo | hi | hi] along K, network.16.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage8_split_scalar(const float* __restrict__ p_tmp15, const float* __restrict__ p_network_16_weight, float* __restrict__ p_tmp17_asplit, float* __restrict__ p_tmp17_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp15[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp17_asplit[d + 0] = lo;
            p_tmp17_asplit[d + 1024] = hi;
            p_tmp17_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_16_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp17_bsplit[d + 0] = hi;
            p_tmp17_bsplit[d + 1024] = lo;
            p_tmp17_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp19 = tmp17 @ network.18.weight: tmp17 as [lo | hi | hi] along K, network.18.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage9_split(const float* __restrict__ p_tmp17, const float* __restrict__ p_network_18_weight, float* __restrict__ p_tmp19_asplit, float* __restrict__ p_tmp19_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp17 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp19_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp19_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp19_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_18_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp19_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp19_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp19_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp19 = tmp17 @ network.18.weight: tmp17 as [lo | hi | hi] along K, network.18.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage9_split_scalar(const float* __restrict__ p_tmp17, const float* __restrict__ p_network_18_weight, float* __restrict__ p_tmp19_asplit, float* __restrict__ p_tmp19_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp17[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp19_asplit[d + 0] = lo;
            p_tmp19_asplit[d + 1024] = hi;
            p_tmp19_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_18_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp19_bsplit[d + 0] = hi;
            p_tmp19_bsplit[d + 1024] = lo;
            p_tmp19_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp21 = tmp19 @ network.20.weight: tmp19 as [lo | hi | hi] along K, network.20.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage10_split(const float* __restrict__ p_tmp19, const float* __restrict__ p_network_20_weight, float* __restrict__ p_tmp21_asplit, float* __restrict__ p_tmp21_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp19 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp21_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp21_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp21_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_20_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp21_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp21_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp21_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp21 = tmp19 @ network.20.weight: tmp19 as [lo | hi | hi] along K, network.20.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage10_split_scalar(const float* __restrict__ p_tmp19, const float* __restrict__ p_network_20_weight, float* __restrict__ p_tmp21_asplit, float* __restrict__ p_tmp21_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp19[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp21_asplit[d + 0] = lo;
            p_tmp21_asplit[d + 1024] = hi;
            p_tmp21_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_20_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp21_bsplit[d + 0] = hi;
            p_tmp21_bsplit[d + 1024] = lo;
            p_tmp21_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp23 = tmp21 @ network.22.weight: tmp21 as [lo | hi | hi] along K, network.22.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage11_split(const float* __restrict__ p_tmp21, const float* __restrict__ p_network_22_weight, float* __restrict__ p_tmp23_asplit, float* __restrict__ p_tmp23_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp21 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp23_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp23_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp23_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_22_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp23_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp23_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp23_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp23 = tmp21 @ network.22.weight: tmp21 as [lo | hi | hi] along K, network.22.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage11_split_scalar(const float* __restrict__ p_tmp21, const float* __restrict__ p_network_22_weight, float* __restrict__ p_tmp23_asplit, float* __restrict__ p_tmp23_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp21[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp23_asplit[d + 0] = lo;
            p_tmp23_asplit[d + 1024] = hi;
            p_tmp23_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_22_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp23_bsplit[d + 0] = hi;
            p_tmp23_bsplit[d + 1024] = lo;
            p_tmp23_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp25 = tmp23 @ network.24.weight: tmp23 as [lo | hi | hi] along K, network.24.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage12_split(const float* __restrict__ p_tmp23, const float* __restrict__ p_network_24_weight, float* __restrict__ p_tmp25_asplit, float* __restrict__ p_tmp25_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp23 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp25_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp25_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp25_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_24_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp25_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp25_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp25_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp25 = tmp23 @ network.24.weight: tmp23 as [lo | hi | hi] along K, network.24.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage12_split_scalar(const float* __restrict__ p_tmp23, const float* __restrict__ p_network_24_weight, float* __restrict__ p_tmp25_asplit, float* __restrict__ p_tmp25_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp23[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp25_asplit[d + 0] = lo;
            p_tmp25_asplit[d + 1024] = hi;
            p_tmp25_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_24_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp25_bsplit[d + 0] = hi;
            p_tmp25_bsplit[d + 1024] = lo;
            p_tmp25_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp27 = tmp25 @ network.26.weight: tmp25 as [lo | hi | hi] along K, network.26.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage13_split(const float* __restrict__ p_tmp25, const float* __restrict__ p_network_26_weight, float* __restrict__ p_tmp27_asplit, float* __restrict__ p_tmp27_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp25 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp27_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp27_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp27_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_26_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp27_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp27_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp27_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp27 = tmp25 @ network.26.weight: tmp25 as [lo | hi | hi] along K, network.26.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage13_split_scalar(const float* __restrict__ p_tmp25, const float* __restrict__ p_network_26_weight, float* __restrict__ p_tmp27_asplit, float* __restrict__ p_tmp27_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp25[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp27_asplit[d + 0] = lo;
            p_tmp27_asplit[d + 1024] = hi;
            p_tmp27_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_26_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp27_bsplit[d + 0] = hi;
            p_tmp27_bsplit[d + 1024] = lo;
            p_tmp27_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp29 = tmp27 @ network.28.weight: tmp27 as [lo | hi | hi] along K, network.28.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage14_split(const float* __restrict__ p_tmp27, const float* __restrict__ p_network_28_weight, float* __restrict__ p_tmp29_asplit, float* __restrict__ p_tmp29_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp27 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp29_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp29_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp29_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_28_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp29_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp29_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp29_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp29 = tmp27 @ network.28.weight: tmp27 as [lo | hi | hi] along K, network.28.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage14_split_scalar(const float* __restrict__ p_tmp27, const float* __restrict__ p_network_28_weight, float* __restrict__ p_tmp29_asplit, float* __restrict__ p_tmp29_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp27[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp29_asplit[d + 0] = lo;
            p_tmp29_asplit[d + 1024] = hi;
            p_tmp29_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_28_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp29_bsplit[d + 0] = hi;
            p_tmp29_bsplit[d + 1024] = lo;
            p_tmp29_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for tmp31 = tmp29 @ network.30.weight: tmp29 as [lo | hi | hi] along K, network.30.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage15_split(const float* __restrict__ p_tmp29, const float* __restrict__ p_network_30_weight, float* __restrict__ p_tmp31_asplit, float* __restrict__ p_tmp31_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 524288; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp29 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp31_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_tmp31_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_tmp31_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_30_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_tmp31_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_tmp31_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_tmp31_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for tmp31 = tmp29 @ network.30.weight: tmp29 as [lo | hi | hi] along K, network.30.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage15_split_scalar(const float* __restrict__ p_tmp29, const float* __restrict__ p_network_30_weight, float* __restrict__ p_tmp31_asplit, float* __restrict__ p_tmp31_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2097152; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp29[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp31_asplit[d + 0] = lo;
            p_tmp31_asplit[d + 1024] = hi;
            p_tmp31_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_30_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_tmp31_bsplit[d + 0] = hi;
            p_tmp31_bsplit[d + 1024] = lo;
            p_tmp31_bsplit[d + 2048] = hi;
        }
    }
}

// Split copies for out = tmp31 @ network.32.weight: tmp31 as [lo | hi | hi] along K, network.32.weight as [hi ; lo ; hi], 4 elements per thread (float4)
__global__ void __launch_bounds__(256) hiera_stage16_split(const float* __restrict__ p_tmp31, const float* __restrict__ p_network_32_weight, float* __restrict__ p_out_asplit, float* __restrict__ p_out_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 2359296; e += (idx_t)gridDim.x * 256) {
        if (e < 262144) {
            const idx_t i = (e % 256) * 4, o = (e / 256) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_tmp31 + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_out_asplit + d + 0) = lo;
            *reinterpret_cast<float4*>(p_out_asplit + d + 1024) = hi;
            *reinterpret_cast<float4*>(p_out_asplit + d + 2048) = hi;
        } else {
            const idx_t f = e - 262144;
            const idx_t i = (f % 256) * 4, o = (f / 256) % 8192;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float4 x = *reinterpret_cast<const float4*>(p_network_32_weight + s);
            const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), hiera_tf32_rn(x.w));
            const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));
            *reinterpret_cast<float4*>(p_out_bsplit + d + 0) = hi;
            *reinterpret_cast<float4*>(p_out_bsplit + d + 1024) = lo;
            *reinterpret_cast<float4*>(p_out_bsplit + d + 2048) = hi;
        }
    }
}

// Split copies for out = tmp31 @ network.32.weight: tmp31 as [lo | hi | hi] along K, network.32.weight as [hi ; lo ; hi]
__global__ void __launch_bounds__(256) hiera_stage16_split_scalar(const float* __restrict__ p_tmp31, const float* __restrict__ p_network_32_weight, float* __restrict__ p_out_asplit, float* __restrict__ p_out_bsplit) {
    for (idx_t e = (idx_t)blockIdx.x * 256 + threadIdx.x; e < 9437184; e += (idx_t)gridDim.x * 256) {
        if (e < 1048576) {
            const idx_t i = (e % 1024) * 1, o = (e / 1024) % 1024;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_tmp31[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_out_asplit[d + 0] = lo;
            p_out_asplit[d + 1024] = hi;
            p_out_asplit[d + 2048] = hi;
        } else {
            const idx_t f = e - 1048576;
            const idx_t i = (f % 1024) * 1, o = (f / 1024) % 8192;
            const idx_t s = 0 + o * 1024 + i, d = 0 + o * 3072 + i;
            const float x = p_network_32_weight[s];
            const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
            p_out_bsplit[d + 0] = hi;
            p_out_bsplit[d + 1024] = lo;
            p_out_bsplit[d + 2048] = hi;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* network_0_weight, const hiera_tensor* network_0_bias, const hiera_tensor* network_2_weight, const hiera_tensor* network_2_bias, const hiera_tensor* network_4_weight, const hiera_tensor* network_4_bias, const hiera_tensor* network_6_weight, const hiera_tensor* network_6_bias, const hiera_tensor* network_8_weight, const hiera_tensor* network_8_bias, const hiera_tensor* network_10_weight, const hiera_tensor* network_10_bias, const hiera_tensor* network_12_weight, const hiera_tensor* network_12_bias, const hiera_tensor* network_14_weight, const hiera_tensor* network_14_bias, const hiera_tensor* network_16_weight, const hiera_tensor* network_16_bias, const hiera_tensor* network_18_weight, const hiera_tensor* network_18_bias, const hiera_tensor* network_20_weight, const hiera_tensor* network_20_bias, const hiera_tensor* network_22_weight, const hiera_tensor* network_22_bias, const hiera_tensor* network_24_weight, const hiera_tensor* network_24_bias, const hiera_tensor* network_26_weight, const hiera_tensor* network_26_bias, const hiera_tensor* network_28_weight, const hiera_tensor* network_28_bias, const hiera_tensor* network_30_weight, const hiera_tensor* network_30_bias, const hiera_tensor* network_32_weight, const hiera_tensor* network_32_bias, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 1024 || x->sizes[1] != 8192) return 2;  // specialized for 1024x8192
    if (network_0_weight->ndim != 2 || network_0_weight->sizes[0] != 1024 || network_0_weight->sizes[1] != 8192) return 2;  // specialized for 1024x8192
    if (network_0_bias->ndim != 1 || network_0_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_2_weight->ndim != 2 || network_2_weight->sizes[0] != 1024 || network_2_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_2_bias->ndim != 1 || network_2_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_4_weight->ndim != 2 || network_4_weight->sizes[0] != 1024 || network_4_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_4_bias->ndim != 1 || network_4_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_6_weight->ndim != 2 || network_6_weight->sizes[0] != 1024 || network_6_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_6_bias->ndim != 1 || network_6_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_8_weight->ndim != 2 || network_8_weight->sizes[0] != 1024 || network_8_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_8_bias->ndim != 1 || network_8_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_10_weight->ndim != 2 || network_10_weight->sizes[0] != 1024 || network_10_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_10_bias->ndim != 1 || network_10_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_12_weight->ndim != 2 || network_12_weight->sizes[0] != 1024 || network_12_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_12_bias->ndim != 1 || network_12_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_14_weight->ndim != 2 || network_14_weight->sizes[0] != 1024 || network_14_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_14_bias->ndim != 1 || network_14_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_16_weight->ndim != 2 || network_16_weight->sizes[0] != 1024 || network_16_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_16_bias->ndim != 1 || network_16_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_18_weight->ndim != 2 || network_18_weight->sizes[0] != 1024 || network_18_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_18_bias->ndim != 1 || network_18_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_20_weight->ndim != 2 || network_20_weight->sizes[0] != 1024 || network_20_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_20_bias->ndim != 1 || network_20_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_22_weight->ndim != 2 || network_22_weight->sizes[0] != 1024 || network_22_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_22_bias->ndim != 1 || network_22_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_24_weight->ndim != 2 || network_24_weight->sizes[0] != 1024 || network_24_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_24_bias->ndim != 1 || network_24_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_26_weight->ndim != 2 || network_26_weight->sizes[0] != 1024 || network_26_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_26_bias->ndim != 1 || network_26_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_28_weight->ndim != 2 || network_28_weight->sizes[0] != 1024 || network_28_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_28_bias->ndim != 1 || network_28_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_30_weight->ndim != 2 || network_30_weight->sizes[0] != 1024 || network_30_weight->sizes[1] != 1024) return 2;  // specialized for 1024x1024
    if (network_30_bias->ndim != 1 || network_30_bias->sizes[0] != 1024) return 2;  // specialized for 1024
    if (network_32_weight->ndim != 2 || network_32_weight->sizes[0] != 8192 || network_32_weight->sizes[1] != 1024) return 2;  // specialized for 8192x1024
    if (network_32_bias->ndim != 1 || network_32_bias->sizes[0] != 8192) return 2;  // specialized for 8192
    if (out->ndim != 2 || out->sizes[0] != 1024 || out->sizes[1] != 8192) return 2;  // specialized for 1024x8192
    const float* p_x = (const float*)x->data;
    const float* p_network_0_weight = (const float*)network_0_weight->data;
    const float* p_network_0_bias = (const float*)network_0_bias->data;
    const float* p_network_2_weight = (const float*)network_2_weight->data;
    const float* p_network_2_bias = (const float*)network_2_bias->data;
    const float* p_network_4_weight = (const float*)network_4_weight->data;
    const float* p_network_4_bias = (const float*)network_4_bias->data;
    const float* p_network_6_weight = (const float*)network_6_weight->data;
    const float* p_network_6_bias = (const float*)network_6_bias->data;
    const float* p_network_8_weight = (const float*)network_8_weight->data;
    const float* p_network_8_bias = (const float*)network_8_bias->data;
    const float* p_network_10_weight = (const float*)network_10_weight->data;
    const float* p_network_10_bias = (const float*)network_10_bias->data;
    const float* p_network_12_weight = (const float*)network_12_weight->data;
    const float* p_network_12_bias = (const float*)network_12_bias->data;
    const float* p_network_14_weight = (const float*)network_14_weight->data;
    const float* p_network_14_bias = (const float*)network_14_bias->data;
    const float* p_network_16_weight = (const float*)network_16_weight->data;
    const float* p_network_16_bias = (const float*)network_16_bias->data;
    const float* p_network_18_weight = (const float*)network_18_weight->data;
    const float* p_network_18_bias = (const float*)network_18_bias->data;
    const float* p_network_20_weight = (const float*)network_20_weight->data;
    const float* p_network_20_bias = (const float*)network_20_bias->data;
    const float* p_network_22_weight = (const float*)network_22_weight->data;
    const float* p_network_22_bias = (const float*)network_22_bias->data;
    const float* p_network_24_weight = (const float*)network_24_weight->data;
    const float* p_network_24_bias = (const float*)network_24_bias->data;
    const float* p_network_26_weight = (const float*)network_26_weight->data;
    const float* p_network_26_bias = (const float*)network_26_bias->data;
    const float* p_network_28_weight = (const float*)network_28_weight->data;
    const float* p_network_28_bias = (const float*)network_28_bias->data;
    const float* p_network_30_weight = (const float*)network_30_weight->data;
    const float* p_network_30_bias = (const float*)network_30_bias->data;
    const float* p_network_32_weight = (const float*)network_32_weight->data;
    const float* p_network_32_bias = (const float*)network_32_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(189792256ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp1 = hiera_ws + 0;  // 1024x1024
    float* p_tmp3 = hiera_ws + 1048576;  // 1024x1024
    float* p_tmp5 = hiera_ws + 2097152;  // 1024x1024
    float* p_tmp7 = hiera_ws + 3145728;  // 1024x1024
    float* p_tmp9 = hiera_ws + 4194304;  // 1024x1024
    float* p_tmp11 = hiera_ws + 5242880;  // 1024x1024
    float* p_tmp13 = hiera_ws + 6291456;  // 1024x1024
    float* p_tmp15 = hiera_ws + 7340032;  // 1024x1024
    float* p_tmp17 = hiera_ws + 8388608;  // 1024x1024
    float* p_tmp19 = hiera_ws + 9437184;  // 1024x1024
    float* p_tmp21 = hiera_ws + 10485760;  // 1024x1024
    float* p_tmp23 = hiera_ws + 11534336;  // 1024x1024
    float* p_tmp25 = hiera_ws + 12582912;  // 1024x1024
    float* p_tmp27 = hiera_ws + 13631488;  // 1024x1024
    float* p_tmp29 = hiera_ws + 14680064;  // 1024x1024
    float* p_tmp31 = hiera_ws + 15728640;  // 1024x1024
    float* p_tmp1_asplit = hiera_ws + 16777216;  // 25165824
    float* p_tmp1_bsplit = hiera_ws + 41943040;  // 25165824
    float* p_tmp3_asplit = hiera_ws + 67108864;  // 3145728
    float* p_tmp3_bsplit = hiera_ws + 70254592;  // 3145728
    float* p_tmp5_asplit = hiera_ws + 73400320;  // 3145728
    float* p_tmp5_bsplit = hiera_ws + 76546048;  // 3145728
    float* p_tmp7_asplit = hiera_ws + 79691776;  // 3145728
    float* p_tmp7_bsplit = hiera_ws + 82837504;  // 3145728
    float* p_tmp9_asplit = hiera_ws + 85983232;  // 3145728
    float* p_tmp9_bsplit = hiera_ws + 89128960;  // 3145728
    float* p_tmp11_asplit = hiera_ws + 92274688;  // 3145728
    float* p_tmp11_bsplit = hiera_ws + 95420416;  // 3145728
    float* p_tmp13_asplit = hiera_ws + 98566144;  // 3145728
    float* p_tmp13_bsplit = hiera_ws + 101711872;  // 3145728
    float* p_tmp15_asplit = hiera_ws + 104857600;  // 3145728
    float* p_tmp15_bsplit = hiera_ws + 108003328;  // 3145728
    float* p_tmp17_asplit = hiera_ws + 111149056;  // 3145728
    float* p_tmp17_bsplit = hiera_ws + 114294784;  // 3145728
    float* p_tmp19_asplit = hiera_ws + 117440512;  // 3145728
    float* p_tmp19_bsplit = hiera_ws + 120586240;  // 3145728
    float* p_tmp21_asplit = hiera_ws + 123731968;  // 3145728
    float* p_tmp21_bsplit = hiera_ws + 126877696;  // 3145728
    float* p_tmp23_asplit = hiera_ws + 130023424;  // 3145728
    float* p_tmp23_bsplit = hiera_ws + 133169152;  // 3145728
    float* p_tmp25_asplit = hiera_ws + 136314880;  // 3145728
    float* p_tmp25_bsplit = hiera_ws + 139460608;  // 3145728
    float* p_tmp27_asplit = hiera_ws + 142606336;  // 3145728
    float* p_tmp27_bsplit = hiera_ws + 145752064;  // 3145728
    float* p_tmp29_asplit = hiera_ws + 148897792;  // 3145728
    float* p_tmp29_bsplit = hiera_ws + 152043520;  // 3145728
    float* p_tmp31_asplit = hiera_ws + 155189248;  // 3145728
    float* p_tmp31_bsplit = hiera_ws + 158334976;  // 3145728
    float* p_out_asplit = hiera_ws + 161480704;  // 3145728
    float* p_out_bsplit = hiera_ws + 164626432;  // 25165824
    if (hiera_aligned16(p_network_0_weight) && hiera_aligned16(p_x)) {
    hiera_stage0_split<<<2112, 256, 0, hiera_s>>>(p_x, p_network_0_weight, p_tmp1_asplit, p_tmp1_bsplit);
    } else {
    hiera_stage0_split_scalar<<<2112, 256, 0, hiera_s>>>(p_x, p_network_0_weight, p_tmp1_asplit, p_tmp1_bsplit);
    }
    // tmp1 = x_lo network.0.weight_hi + x_hi network.0.weight_lo + x_hi network.0.weight_hi + network.0.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0t* p = hiera_lt_plan0t(p_network_0_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp1_bsplit + 0, p->a, p_tmp1_asplit + 0, p->b,
                           &beta, p_tmp1, p->c, p_tmp1, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_2_weight) && hiera_aligned16(p_tmp1)) {
    hiera_stage1_split<<<2048, 256, 0, hiera_s>>>(p_tmp1, p_network_2_weight, p_tmp3_asplit, p_tmp3_bsplit);
    } else {
    hiera_stage1_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp1, p_network_2_weight, p_tmp3_asplit, p_tmp3_bsplit);
    }
    // tmp3 = tmp1_lo network.2.weight_hi + tmp1_hi network.2.weight_lo + tmp1_hi network.2.weight_hi + network.2.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan1t* p = hiera_lt_plan1t(p_network_2_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp3_bsplit + 0, p->a, p_tmp3_asplit + 0, p->b,
                           &beta, p_tmp3, p->c, p_tmp3, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_4_weight) && hiera_aligned16(p_tmp3)) {
    hiera_stage2_split<<<2048, 256, 0, hiera_s>>>(p_tmp3, p_network_4_weight, p_tmp5_asplit, p_tmp5_bsplit);
    } else {
    hiera_stage2_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp3, p_network_4_weight, p_tmp5_asplit, p_tmp5_bsplit);
    }
    // tmp5 = tmp3_lo network.4.weight_hi + tmp3_hi network.4.weight_lo + tmp3_hi network.4.weight_hi + network.4.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan2t* p = hiera_lt_plan2t(p_network_4_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp5_bsplit + 0, p->a, p_tmp5_asplit + 0, p->b,
                           &beta, p_tmp5, p->c, p_tmp5, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_6_weight) && hiera_aligned16(p_tmp5)) {
    hiera_stage3_split<<<2048, 256, 0, hiera_s>>>(p_tmp5, p_network_6_weight, p_tmp7_asplit, p_tmp7_bsplit);
    } else {
    hiera_stage3_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp5, p_network_6_weight, p_tmp7_asplit, p_tmp7_bsplit);
    }
    // tmp7 = tmp5_lo network.6.weight_hi + tmp5_hi network.6.weight_lo + tmp5_hi network.6.weight_hi + network.6.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan3t* p = hiera_lt_plan3t(p_network_6_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp7_bsplit + 0, p->a, p_tmp7_asplit + 0, p->b,
                           &beta, p_tmp7, p->c, p_tmp7, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_8_weight) && hiera_aligned16(p_tmp7)) {
    hiera_stage4_split<<<2048, 256, 0, hiera_s>>>(p_tmp7, p_network_8_weight, p_tmp9_asplit, p_tmp9_bsplit);
    } else {
    hiera_stage4_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp7, p_network_8_weight, p_tmp9_asplit, p_tmp9_bsplit);
    }
    // tmp9 = tmp7_lo network.8.weight_hi + tmp7_hi network.8.weight_lo + tmp7_hi network.8.weight_hi + network.8.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan4t* p = hiera_lt_plan4t(p_network_8_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp9_bsplit + 0, p->a, p_tmp9_asplit + 0, p->b,
                           &beta, p_tmp9, p->c, p_tmp9, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_10_weight) && hiera_aligned16(p_tmp9)) {
    hiera_stage5_split<<<2048, 256, 0, hiera_s>>>(p_tmp9, p_network_10_weight, p_tmp11_asplit, p_tmp11_bsplit);
    } else {
    hiera_stage5_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp9, p_network_10_weight, p_tmp11_asplit, p_tmp11_bsplit);
    }
    // tmp11 = tmp9_lo network.10.weight_hi + tmp9_hi network.10.weight_lo + tmp9_hi network.10.weight_hi + network.10.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan5t* p = hiera_lt_plan5t(p_network_10_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp11_bsplit + 0, p->a, p_tmp11_asplit + 0, p->b,
                           &beta, p_tmp11, p->c, p_tmp11, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_12_weight) && hiera_aligned16(p_tmp11)) {
    hiera_stage6_split<<<2048, 256, 0, hiera_s>>>(p_tmp11, p_network_12_weight, p_tmp13_asplit, p_tmp13_bsplit);
    } else {
    hiera_stage6_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp11, p_network_12_weight, p_tmp13_asplit, p_tmp13_bsplit);
    }
    // tmp13 = tmp11_lo network.12.weight_hi + tmp11_hi network.12.weight_lo + tmp11_hi network.12.weight_hi + network.12.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan6t* p = hiera_lt_plan6t(p_network_12_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp13_bsplit + 0, p->a, p_tmp13_asplit + 0, p->b,
                           &beta, p_tmp13, p->c, p_tmp13, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_14_weight) && hiera_aligned16(p_tmp13)) {
    hiera_stage7_split<<<2048, 256, 0, hiera_s>>>(p_tmp13, p_network_14_weight, p_tmp15_asplit, p_tmp15_bsplit);
    } else {
    hiera_stage7_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp13, p_network_14_weight, p_tmp15_asplit, p_tmp15_bsplit);
    }
    // tmp15 = tmp13_lo network.14.weight_hi + tmp13_hi network.14.weight_lo + tmp13_hi network.14.weight_hi + network.14.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan7t* p = hiera_lt_plan7t(p_network_14_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp15_bsplit + 0, p->a, p_tmp15_asplit + 0, p->b,
                           &beta, p_tmp15, p->c, p_tmp15, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_16_weight) && hiera_aligned16(p_tmp15)) {
    hiera_stage8_split<<<2048, 256, 0, hiera_s>>>(p_tmp15, p_network_16_weight, p_tmp17_asplit, p_tmp17_bsplit);
    } else {
    hiera_stage8_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp15, p_network_16_weight, p_tmp17_asplit, p_tmp17_bsplit);
    }
    // tmp17 = tmp15_lo network.16.weight_hi + tmp15_hi network.16.weight_lo + tmp15_hi network.16.weight_hi + network.16.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan8t* p = hiera_lt_plan8t(p_network_16_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp17_bsplit + 0, p->a, p_tmp17_asplit + 0, p->b,
                           &beta, p_tmp17, p->c, p_tmp17, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_18_weight) && hiera_aligned16(p_tmp17)) {
    hiera_stage9_split<<<2048, 256, 0, hiera_s>>>(p_tmp17, p_network_18_weight, p_tmp19_asplit, p_tmp19_bsplit);
    } else {
    hiera_stage9_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp17, p_network_18_weight, p_tmp19_asplit, p_tmp19_bsplit);
    }
    // tmp19 = tmp17_lo network.18.weight_hi + tmp17_hi network.18.weight_lo + tmp17_hi network.18.weight_hi + network.18.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan9t* p = hiera_lt_plan9t(p_network_18_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp19_bsplit + 0, p->a, p_tmp19_asplit + 0, p->b,
                           &beta, p_tmp19, p->c, p_tmp19, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_20_weight) && hiera_aligned16(p_tmp19)) {
    hiera_stage10_split<<<2048, 256, 0, hiera_s>>>(p_tmp19, p_network_20_weight, p_tmp21_asplit, p_tmp21_bsplit);
    } else {
    hiera_stage10_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp19, p_network_20_weight, p_tmp21_asplit, p_tmp21_bsplit);
    }
    // tmp21 = tmp19_lo network.20.weight_hi + tmp19_hi network.20.weight_lo + tmp19_hi network.20.weight_hi + network.20.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan10t* p = hiera_lt_plan10t(p_network_20_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp21_bsplit + 0, p->a, p_tmp21_asplit + 0, p->b,
                           &beta, p_tmp21, p->c, p_tmp21, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_22_weight) && hiera_aligned16(p_tmp21)) {
    hiera_stage11_split<<<2048, 256, 0, hiera_s>>>(p_tmp21, p_network_22_weight, p_tmp23_asplit, p_tmp23_bsplit);
    } else {
    hiera_stage11_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp21, p_network_22_weight, p_tmp23_asplit, p_tmp23_bsplit);
    }
    // tmp23 = tmp21_lo network.22.weight_hi + tmp21_hi network.22.weight_lo + tmp21_hi network.22.weight_hi + network.22.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan11t* p = hiera_lt_plan11t(p_network_22_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp23_bsplit + 0, p->a, p_tmp23_asplit + 0, p->b,
                           &beta, p_tmp23, p->c, p_tmp23, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_24_weight) && hiera_aligned16(p_tmp23)) {
    hiera_stage12_split<<<2048, 256, 0, hiera_s>>>(p_tmp23, p_network_24_weight, p_tmp25_asplit, p_tmp25_bsplit);
    } else {
    hiera_stage12_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp23, p_network_24_weight, p_tmp25_asplit, p_tmp25_bsplit);
    }
    // tmp25 = tmp23_lo network.24.weight_hi + tmp23_hi network.24.weight_lo + tmp23_hi network.24.weight_hi + network.24.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan12t* p = hiera_lt_plan12t(p_network_24_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp25_bsplit + 0, p->a, p_tmp25_asplit + 0, p->b,
                           &beta, p_tmp25, p->c, p_tmp25, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_26_weight) && hiera_aligned16(p_tmp25)) {
    hiera_stage13_split<<<2048, 256, 0, hiera_s>>>(p_tmp25, p_network_26_weight, p_tmp27_asplit, p_tmp27_bsplit);
    } else {
    hiera_stage13_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp25, p_network_26_weight, p_tmp27_asplit, p_tmp27_bsplit);
    }
    // tmp27 = tmp25_lo network.26.weight_hi + tmp25_hi network.26.weight_lo + tmp25_hi network.26.weight_hi + network.26.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan13t* p = hiera_lt_plan13t(p_network_26_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp27_bsplit + 0, p->a, p_tmp27_asplit + 0, p->b,
                           &beta, p_tmp27, p->c, p_tmp27, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_28_weight) && hiera_aligned16(p_tmp27)) {
    hiera_stage14_split<<<2048, 256, 0, hiera_s>>>(p_tmp27, p_network_28_weight, p_tmp29_asplit, p_tmp29_bsplit);
    } else {
    hiera_stage14_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp27, p_network_28_weight, p_tmp29_asplit, p_tmp29_bsplit);
    }
    // tmp29 = tmp27_lo network.28.weight_hi + tmp27_hi network.28.weight_lo + tmp27_hi network.28.weight_hi + network.28.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan14t* p = hiera_lt_plan14t(p_network_28_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp29_bsplit + 0, p->a, p_tmp29_asplit + 0, p->b,
                           &beta, p_tmp29, p->c, p_tmp29, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_30_weight) && hiera_aligned16(p_tmp29)) {
    hiera_stage15_split<<<2048, 256, 0, hiera_s>>>(p_tmp29, p_network_30_weight, p_tmp31_asplit, p_tmp31_bsplit);
    } else {
    hiera_stage15_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp29, p_network_30_weight, p_tmp31_asplit, p_tmp31_bsplit);
    }
    // tmp31 = tmp29_lo network.30.weight_hi + tmp29_hi network.30.weight_lo + tmp29_hi network.30.weight_hi + network.30.bias then ReLU (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan15t* p = hiera_lt_plan15t(p_network_30_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_tmp31_bsplit + 0, p->a, p_tmp31_asplit + 0, p->b,
                           &beta, p_tmp31, p->c, p_tmp31, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_network_32_weight) && hiera_aligned16(p_tmp31)) {
    hiera_stage16_split<<<2112, 256, 0, hiera_s>>>(p_tmp31, p_network_32_weight, p_out_asplit, p_out_bsplit);
    } else {
    hiera_stage16_split_scalar<<<2112, 256, 0, hiera_s>>>(p_tmp31, p_network_32_weight, p_out_asplit, p_out_bsplit);
    }
    // out = tmp31_lo network.32.weight_hi + tmp31_hi network.32.weight_lo + tmp31_hi network.32.weight_hi + network.32.bias (one product over 3K) (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan16t* p = hiera_lt_plan16t(p_network_32_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_out_bsplit + 0, p->a, p_out_asplit + 0, p->b,
                           &beta, p_out, p->c, p_out, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
