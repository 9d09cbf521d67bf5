// hiera expert candidate for '4_Matrix_vector_multiplication_'
// strategy: T.cublas_sgemm
// variant: cuBLASLt algo #1 + bias epilogue
// sizes: the shapes of get_inputs() only
// precision: strict fp32 (no TF32)
//   stage 0: out = A @ B (2048x1x1048576)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"
#include <cublas_v2.h>
#include <cublasLt.h>

typedef unsigned long long idx_t;  // every index of this task fits

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


// Product 0: out = A @ B (M=2048 N=1 K=1048576),
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
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 1048576, 1, 1048576);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 1048576, 2048, 1048576);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1, 2048, 1);

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

extern "C" int hiera_forward(const hiera_tensor* A, const hiera_tensor* B, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (A->ndim != 2 || A->sizes[0] != 2048 || A->sizes[1] != 1048576) return 2;  // specialized for 2048x1048576
    if (B->ndim != 2 || B->sizes[0] != 1048576 || B->sizes[1] != 1) return 2;  // specialized for 1048576x1
    if (out->ndim != 2 || out->sizes[0] != 2048 || out->sizes[1] != 1) return 2;  // specialized for 2048x1
    const float* p_A = (const float*)A->data;
    const float* p_B = (const float*)B->data;
    float* p_out = (float*)out->data;
    // out = A @ B (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0* p = hiera_lt_plan0(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_B + 0, p->a, p_A + 0, p->b,
                           &beta, p_out, p->c, p_out, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
