// hiera expert candidate for '04_gru_cell'
// strategy: R.library_epilogue
// variant: cuBLASLt algo #1 + bias epilogue; block 256, vec 4, ilp 2
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = x @ x2h.weight (4096x6144x1024)
//   stage 1: tmp1 = h @ h2h.weight (4096x6144x2048)
//   stage 2: fused pointwise over 4096x2048: out = (((1 - sigmoid(((tmp0 + x2h.bias) + (tmp1 + h2h.bias)))) * tanh(((tmp0 + x2h.bias) + (sig…
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


// Product 0: tmp0 = x @ x2h.weight (M=4096 N=6144 K=1024),
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
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 1024, 6144, 1024);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 1024, 4096, 1024);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 6144, 4096, 6144);

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


// Product 1: tmp1 = h @ h2h.weight (M=4096 N=6144 K=2048),
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
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 2048, 6144, 2048);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 2048, 4096, 2048);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 6144, 4096, 6144);

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

// out = (((1 - sigmoid(((tmp0 + x2h.bias) + (tmp1 + h2h.bias)))) * tanh(((tmp0 + x2h.bias) + (sigmoid((… + …)) * (tmp…
// 8388608 elements as 2097152 vectors of 4; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage2(const float* __restrict__ p_tmp0, const float* __restrict__ p_x2h_bias, const float* __restrict__ p_tmp1, const float* __restrict__ p_h2h_bias, const float* __restrict__ p_h, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 2097152; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 2097152) break;
            const idx_t i = v * 4;
            const float4 L0 = *reinterpret_cast<const float4*>(p_tmp0 + (i / 2048) * 6144 + i % 2048 + 2048);
            const float4 L1 = *reinterpret_cast<const float4*>(p_x2h_bias + i % 2048 + 2048);
            const float4 L2 = *reinterpret_cast<const float4*>(p_tmp1 + (i / 2048) * 6144 + i % 2048 + 2048);
            const float4 L3 = *reinterpret_cast<const float4*>(p_h2h_bias + i % 2048 + 2048);
            const float4 L4 = *reinterpret_cast<const float4*>(p_tmp0 + (i / 2048) * 6144 + i % 2048 + 4096);
            const float4 L5 = *reinterpret_cast<const float4*>(p_x2h_bias + i % 2048 + 4096);
            const float4 L6 = *reinterpret_cast<const float4*>(p_tmp0 + (i / 2048) * 6144 + i % 2048);
            const float4 L7 = *reinterpret_cast<const float4*>(p_x2h_bias + i % 2048);
            const float4 L8 = *reinterpret_cast<const float4*>(p_tmp1 + (i / 2048) * 6144 + i % 2048);
            const float4 L9 = *reinterpret_cast<const float4*>(p_h2h_bias + i % 2048);
            const float4 L10 = *reinterpret_cast<const float4*>(p_tmp1 + (i / 2048) * 6144 + i % 2048 + 4096);
            const float4 L11 = *reinterpret_cast<const float4*>(p_h2h_bias + i % 2048 + 4096);
            const float4 L12 = *reinterpret_cast<const float4*>(p_h + i);
            const float t0_0 = L0.x;
            const float t0_1 = L1.x;
            const float t0_2 = (t0_0 + t0_1);
            const float t0_3 = L2.x;
            const float t0_4 = L3.x;
            const float t0_5 = (t0_3 + t0_4);
            const float t0_6 = (t0_2 + t0_5);
            const float t0_7 = (1.0f / (1.0f + expf(-t0_6)));
            const float t0_8 = (1.0f - t0_7);
            const float t0_9 = L4.x;
            const float t0_10 = L5.x;
            const float t0_11 = (t0_9 + t0_10);
            const float t0_12 = L6.x;
            const float t0_13 = L7.x;
            const float t0_14 = (t0_12 + t0_13);
            const float t0_15 = L8.x;
            const float t0_16 = L9.x;
            const float t0_17 = (t0_15 + t0_16);
            const float t0_18 = (t0_14 + t0_17);
            const float t0_19 = (1.0f / (1.0f + expf(-t0_18)));
            const float t0_20 = L10.x;
            const float t0_21 = L11.x;
            const float t0_22 = (t0_20 + t0_21);
            const float t0_23 = (t0_19 * t0_22);
            const float t0_24 = (t0_11 + t0_23);
            const float t0_25 = tanhf(t0_24);
            const float t0_26 = (t0_8 * t0_25);
            const float t0_27 = L12.x;
            const float t0_28 = (t0_7 * t0_27);
            const float t0_29 = (t0_26 + t0_28);
            const float t1_0 = L0.y;
            const float t1_1 = L1.y;
            const float t1_2 = (t1_0 + t1_1);
            const float t1_3 = L2.y;
            const float t1_4 = L3.y;
            const float t1_5 = (t1_3 + t1_4);
            const float t1_6 = (t1_2 + t1_5);
            const float t1_7 = (1.0f / (1.0f + expf(-t1_6)));
            const float t1_8 = (1.0f - t1_7);
            const float t1_9 = L4.y;
            const float t1_10 = L5.y;
            const float t1_11 = (t1_9 + t1_10);
            const float t1_12 = L6.y;
            const float t1_13 = L7.y;
            const float t1_14 = (t1_12 + t1_13);
            const float t1_15 = L8.y;
            const float t1_16 = L9.y;
            const float t1_17 = (t1_15 + t1_16);
            const float t1_18 = (t1_14 + t1_17);
            const float t1_19 = (1.0f / (1.0f + expf(-t1_18)));
            const float t1_20 = L10.y;
            const float t1_21 = L11.y;
            const float t1_22 = (t1_20 + t1_21);
            const float t1_23 = (t1_19 * t1_22);
            const float t1_24 = (t1_11 + t1_23);
            const float t1_25 = tanhf(t1_24);
            const float t1_26 = (t1_8 * t1_25);
            const float t1_27 = L12.y;
            const float t1_28 = (t1_7 * t1_27);
            const float t1_29 = (t1_26 + t1_28);
            const float t2_0 = L0.z;
            const float t2_1 = L1.z;
            const float t2_2 = (t2_0 + t2_1);
            const float t2_3 = L2.z;
            const float t2_4 = L3.z;
            const float t2_5 = (t2_3 + t2_4);
            const float t2_6 = (t2_2 + t2_5);
            const float t2_7 = (1.0f / (1.0f + expf(-t2_6)));
            const float t2_8 = (1.0f - t2_7);
            const float t2_9 = L4.z;
            const float t2_10 = L5.z;
            const float t2_11 = (t2_9 + t2_10);
            const float t2_12 = L6.z;
            const float t2_13 = L7.z;
            const float t2_14 = (t2_12 + t2_13);
            const float t2_15 = L8.z;
            const float t2_16 = L9.z;
            const float t2_17 = (t2_15 + t2_16);
            const float t2_18 = (t2_14 + t2_17);
            const float t2_19 = (1.0f / (1.0f + expf(-t2_18)));
            const float t2_20 = L10.z;
            const float t2_21 = L11.z;
            const float t2_22 = (t2_20 + t2_21);
            const float t2_23 = (t2_19 * t2_22);
            const float t2_24 = (t2_11 + t2_23);
            const float t2_25 = tanhf(t2_24);
            const float t2_26 = (t2_8 * t2_25);
            const float t2_27 = L12.z;
            const float t2_28 = (t2_7 * t2_27);
            const float t2_29 = (t2_26 + t2_28);
            const float t3_0 = L0.w;
            const float t3_1 = L1.w;
            const float t3_2 = (t3_0 + t3_1);
            const float t3_3 = L2.w;
            const float t3_4 = L3.w;
            const float t3_5 = (t3_3 + t3_4);
            const float t3_6 = (t3_2 + t3_5);
            const float t3_7 = (1.0f / (1.0f + expf(-t3_6)));
            const float t3_8 = (1.0f - t3_7);
            const float t3_9 = L4.w;
            const float t3_10 = L5.w;
            const float t3_11 = (t3_9 + t3_10);
            const float t3_12 = L6.w;
            const float t3_13 = L7.w;
            const float t3_14 = (t3_12 + t3_13);
            const float t3_15 = L8.w;
            const float t3_16 = L9.w;
            const float t3_17 = (t3_15 + t3_16);
            const float t3_18 = (t3_14 + t3_17);
            const float t3_19 = (1.0f / (1.0f + expf(-t3_18)));
            const float t3_20 = L10.w;
            const float t3_21 = L11.w;
            const float t3_22 = (t3_20 + t3_21);
            const float t3_23 = (t3_19 * t3_22);
            const float t3_24 = (t3_11 + t3_23);
            const float t3_25 = tanhf(t3_24);
            const float t3_26 = (t3_8 * t3_25);
            const float t3_27 = L12.w;
            const float t3_28 = (t3_7 * t3_27);
            const float t3_29 = (t3_26 + t3_28);
            *reinterpret_cast<float4*>(p_out + i) = make_float4(t0_29, t1_29, t2_29, t3_29);
        }
    }
}

// out = (((1 - sigmoid(((tmp0 + x2h.bias) + (tmp1 + h2h.bias)))) * tanh(((tmp0 + x2h.bias) + (sigmoid((… + …)) * (tmp…
// 8388608 elements as 8388608 vectors of 1; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage2_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_x2h_bias, const float* __restrict__ p_tmp1, const float* __restrict__ p_h2h_bias, const float* __restrict__ p_h, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 8388608; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 8388608) break;
            const idx_t i = v * 1;
            const float t0 = p_tmp0[(i / 2048) * 6144 + i % 2048 + 2048];
            const float t1 = p_x2h_bias[i % 2048 + 2048];
            const float t2 = (t0 + t1);
            const float t3 = p_tmp1[(i / 2048) * 6144 + i % 2048 + 2048];
            const float t4 = p_h2h_bias[i % 2048 + 2048];
            const float t5 = (t3 + t4);
            const float t6 = (t2 + t5);
            const float t7 = (1.0f / (1.0f + expf(-t6)));
            const float t8 = (1.0f - t7);
            const float t9 = p_tmp0[(i / 2048) * 6144 + i % 2048 + 4096];
            const float t10 = p_x2h_bias[i % 2048 + 4096];
            const float t11 = (t9 + t10);
            const float t12 = p_tmp0[(i / 2048) * 6144 + i % 2048];
            const float t13 = p_x2h_bias[i % 2048];
            const float t14 = (t12 + t13);
            const float t15 = p_tmp1[(i / 2048) * 6144 + i % 2048];
            const float t16 = p_h2h_bias[i % 2048];
            const float t17 = (t15 + t16);
            const float t18 = (t14 + t17);
            const float t19 = (1.0f / (1.0f + expf(-t18)));
            const float t20 = p_tmp1[(i / 2048) * 6144 + i % 2048 + 4096];
            const float t21 = p_h2h_bias[i % 2048 + 4096];
            const float t22 = (t20 + t21);
            const float t23 = (t19 * t22);
            const float t24 = (t11 + t23);
            const float t25 = tanhf(t24);
            const float t26 = (t8 * t25);
            const float t27 = p_h[i];
            const float t28 = (t7 * t27);
            const float t29 = (t26 + t28);
            p_out[i] = t29;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* h, const hiera_tensor* x2h_weight, const hiera_tensor* x2h_bias, const hiera_tensor* h2h_weight, const hiera_tensor* h2h_bias, int64_t hidden_size, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 4096 || x->sizes[1] != 1024) return 2;  // specialized for 4096x1024
    if (h->ndim != 2 || h->sizes[0] != 4096 || h->sizes[1] != 2048) return 2;  // specialized for 4096x2048
    if (x2h_weight->ndim != 2 || x2h_weight->sizes[0] != 6144 || x2h_weight->sizes[1] != 1024) return 2;  // specialized for 6144x1024
    if (x2h_bias->ndim != 1 || x2h_bias->sizes[0] != 6144) return 2;  // specialized for 6144
    if (h2h_weight->ndim != 2 || h2h_weight->sizes[0] != 6144 || h2h_weight->sizes[1] != 2048) return 2;  // specialized for 6144x2048
    if (h2h_bias->ndim != 1 || h2h_bias->sizes[0] != 6144) return 2;  // specialized for 6144
    (void)hidden_size;  // baked into the kernels as a constant
    if (out->ndim != 2 || out->sizes[0] != 4096 || out->sizes[1] != 2048) return 2;  // specialized for 4096x2048
    const float* p_x = (const float*)x->data;
    const float* p_h = (const float*)h->data;
    const float* p_x2h_weight = (const float*)x2h_weight->data;
    const float* p_x2h_bias = (const float*)x2h_bias->data;
    const float* p_h2h_weight = (const float*)h2h_weight->data;
    const float* p_h2h_bias = (const float*)h2h_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(50331648ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 4096x6144
    float* p_tmp1 = hiera_ws + 25165824;  // 4096x6144
    // tmp0 = x @ x2h.weight (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0* p = hiera_lt_plan0(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_x2h_weight + 0, p->a, p_x + 0, p->b,
                           &beta, p_tmp0, p->c, p_tmp0, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // tmp1 = h @ h2h.weight (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan1* p = hiera_lt_plan1(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_h2h_weight + 0, p->a, p_h + 0, p->b,
                           &beta, p_tmp1, p->c, p_tmp1, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_out) && hiera_aligned16(p_tmp0) && hiera_aligned16(p_x2h_bias) && hiera_aligned16(p_tmp1) && hiera_aligned16(p_h2h_bias) && hiera_aligned16(p_h)) {
        hiera_stage2<<<4096, 256, 0, hiera_s>>>(p_tmp0, p_x2h_bias, p_tmp1, p_h2h_bias, p_h, p_out);
    } else {
        hiera_stage2_scalar<<<16384, 256, 0, hiera_s>>>(p_tmp0, p_x2h_bias, p_tmp1, p_h2h_bias, p_h, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
