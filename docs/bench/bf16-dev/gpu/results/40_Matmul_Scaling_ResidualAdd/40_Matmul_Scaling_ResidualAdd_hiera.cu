// hiera expert candidate for '40_Matmul_Scaling_ResidualAdd'
// strategy: R.library_epilogue
// variant: cuBLASLt algo #3 + bias epilogue; block 256, vec 4, ilp 1 grid<=8/SM
// sizes: the batch (dim 0) at run time, 1 to 524287: at 16384 (get_inputs()) the kernels specialised to it, at any other the general ones; every other size as given
// precision: bf16 policy; bfloat16 storage widened to fp32 on load and rounded on store; fp32 arithmetic and accumulation (products: half operands on tensor cores, fp32 accumulate, no reduced-precision reductions)
//   stage 0: tmp0 = x @ matmul.weight + matmul.bias (16384x4096x4096)
//   stage 1: fused pointwise over 16384x4096: out = ((tmp0 * 0.5) + tmp0)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
// bf16 and fp16 storage: widened to float on load, rounded to nearest even on store; all arithmetic is fp32.
__device__ __forceinline__ float hiera_ld(float x) { return x; }
__device__ __forceinline__ float hiera_ld(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float hiera_ld(__half x) { return __half2float(x); }
__device__ __forceinline__ __nv_bfloat16 hiera_to_bf16(float f) { return __float2bfloat16_rn(f); }
__device__ __forceinline__ __half hiera_to_half(float f) { return __float2half_rn(f); }

#define HIERA_HALF_VECTORS(T, T2, TO_F2, FROM_F2)                                                   \
    __device__ __forceinline__ float2 hiera_ld2(const T* p) {                                       \
        return TO_F2(*reinterpret_cast<const T2*>(p));                                              \
    }                                                                                               \
    __device__ __forceinline__ float4 hiera_ld4(const T* p) {                                       \
        const uint2 u = *reinterpret_cast<const uint2*>(p);                                         \
        const float2 a = TO_F2(*reinterpret_cast<const T2*>(&u.x));                                 \
        const float2 b = TO_F2(*reinterpret_cast<const T2*>(&u.y));                                 \
        return make_float4(a.x, a.y, b.x, b.y);                                                     \
    }                                                                                               \
    __device__ __forceinline__ void hiera_st2(T* p, float2 v) {                                     \
        *reinterpret_cast<T2*>(p) = FROM_F2(v.x, v.y);                                              \
    }                                                                                               \
    __device__ __forceinline__ void hiera_st4(T* p, float4 v) {                                     \
        T2 a = FROM_F2(v.x, v.y), b = FROM_F2(v.z, v.w);                                            \
        uint2 u;                                                                                    \
        u.x = *reinterpret_cast<const unsigned int*>(&a);                                           \
        u.y = *reinterpret_cast<const unsigned int*>(&b);                                           \
        *reinterpret_cast<uint2*>(p) = u;                                                           \
    }
HIERA_HALF_VECTORS(__nv_bfloat16, __nv_bfloat162, __bfloat1622float2, __floats2bfloat162_rn)
HIERA_HALF_VECTORS(__half, __half2, __half22float2, __floats2half2_rn)
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


// One cuBLAS handle for the life of the library; set to the caller's stream on every call.
static cublasHandle_t hiera_cublas(cudaStream_t s) {
    static cublasHandle_t h = nullptr;
    if (h == nullptr) {
        if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasSetMathMode(h, (cublasMath_t)(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION));
    }
    cublasSetStream(h, s);
    return h;
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


// Product 0: tmp0 = x @ matmul.weight + matmul.bias (M=16384 N=4096 K=4096),
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
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_16BF, 4096, 4096, 4096);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_16BF, 4096, 16384, 4096);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_16BF, 4096, 16384, 4096);

        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
        uint32_t scheme = CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &scheme, sizeof(scheme));
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[3 < found ? 3 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}

// out = ((tmp0 * 0.5) + tmp0)
// 67108864 elements as 16777216 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage1(const __nv_bfloat16* __restrict__ p_tmp0, __nv_bfloat16* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 16777216; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = hiera_ld4(p_tmp0 + i);
        const float t0_0 = L0.x;
        const float t0_1 = (t0_0 * 0.5f);
        const float t0_2 = (t0_1 + t0_0);
        const float t1_0 = L0.y;
        const float t1_1 = (t1_0 * 0.5f);
        const float t1_2 = (t1_1 + t1_0);
        const float t2_0 = L0.z;
        const float t2_1 = (t2_0 * 0.5f);
        const float t2_2 = (t2_1 + t2_0);
        const float t3_0 = L0.w;
        const float t3_1 = (t3_0 * 0.5f);
        const float t3_2 = (t3_1 + t3_0);
        hiera_st4(p_out + i, make_float4(t0_2, t1_2, t2_2, t3_2));
    }
}

// out = ((tmp0 * 0.5) + tmp0)
// 67108864 elements as 67108864 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage1_scalar(const __nv_bfloat16* __restrict__ p_tmp0, __nv_bfloat16* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 67108864; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = hiera_ld(p_tmp0[i]);
        const float t1 = (t0 * 0.5f);
        const float t2 = (t1 + t0);
        p_out[i] = hiera_to_bf16(t2);
    }
}

// out = (((tmp0 + matmul.bias) * 0.5) + (tmp0 + matmul.bias))
// n elements (the batch's, at run time) as vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage1_any(const __nv_bfloat16* __restrict__ p_tmp0, const __nv_bfloat16* __restrict__ p_matmul_bias, __nv_bfloat16* __restrict__ p_out, const idx_t n) {
    const idx_t nvec = n / 4;
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < nvec; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = hiera_ld4(p_tmp0 + i);
        const float4 L1 = hiera_ld4(p_matmul_bias + i % 4096);
        const float t0_0 = L0.x;
        const float t0_1 = L1.x;
        const float t0_2 = (t0_0 + t0_1);
        const float t0_3 = (t0_2 * 0.5f);
        const float t0_4 = (t0_3 + t0_2);
        const float t1_0 = L0.y;
        const float t1_1 = L1.y;
        const float t1_2 = (t1_0 + t1_1);
        const float t1_3 = (t1_2 * 0.5f);
        const float t1_4 = (t1_3 + t1_2);
        const float t2_0 = L0.z;
        const float t2_1 = L1.z;
        const float t2_2 = (t2_0 + t2_1);
        const float t2_3 = (t2_2 * 0.5f);
        const float t2_4 = (t2_3 + t2_2);
        const float t3_0 = L0.w;
        const float t3_1 = L1.w;
        const float t3_2 = (t3_0 + t3_1);
        const float t3_3 = (t3_2 * 0.5f);
        const float t3_4 = (t3_3 + t3_2);
        hiera_st4(p_out + i, make_float4(t0_4, t1_4, t2_4, t3_4));
    }
    const idx_t t = (idx_t)blockIdx.x * 256 + threadIdx.x;
    if (t < n % 4) {
        const idx_t i = nvec * 4 + t;
        const float t0 = hiera_ld(p_tmp0[i]);
        const float t1 = hiera_ld(p_matmul_bias[i % 4096]);
        const float t2 = (t0 + t1);
        const float t3 = (t2 * 0.5f);
        const float t4 = (t3 + t2);
        p_out[i] = hiera_to_bf16(t4);
    }
}

// out = (((tmp0 + matmul.bias) * 0.5) + (tmp0 + matmul.bias))
// n elements (the batch's, at run time) as vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage1_any_scalar(const __nv_bfloat16* __restrict__ p_tmp0, const __nv_bfloat16* __restrict__ p_matmul_bias, __nv_bfloat16* __restrict__ p_out, const idx_t n) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < n; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = hiera_ld(p_tmp0[i]);
        const float t1 = hiera_ld(p_matmul_bias[i % 4096]);
        const float t2 = (t0 + t1);
        const float t3 = (t2 * 0.5f);
        const float t4 = (t3 + t2);
        p_out[i] = hiera_to_bf16(t4);
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* matmul_weight, const hiera_tensor* matmul_bias, double scaling_factor, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    // The batch is taken at run time: dim 0 of x (1 to 524287; beyond, an index would overflow).
    if (x->ndim < 1) return 2;
    const long long hiera_nb = x->sizes[0];
    if (hiera_nb < 1 || hiera_nb > 524287LL) return 2;
    if (x->ndim != 2 || x->sizes[0] != hiera_nb || x->sizes[1] != 4096) return 2;  // B x 4096
    if (matmul_weight->ndim != 2 || matmul_weight->sizes[0] != 4096 || matmul_weight->sizes[1] != 4096) return 2;  // specialized for 4096x4096
    if (matmul_bias->ndim != 1 || matmul_bias->sizes[0] != 4096) return 2;  // specialized for 4096
    (void)scaling_factor;  // baked into the kernels as a constant
    if (out->ndim != 2 || out->sizes[0] != hiera_nb || out->sizes[1] != 4096) return 2;  // B x 4096
    const __nv_bfloat16* p_x = (const __nv_bfloat16*)x->data;
    const __nv_bfloat16* p_matmul_weight = (const __nv_bfloat16*)matmul_weight->data;
    const __nv_bfloat16* p_matmul_bias = (const __nv_bfloat16*)matmul_bias->data;
    __nv_bfloat16* p_out = (__nv_bfloat16*)out->data;
    float* hiera_ws = hiera_workspace(((((size_t)hiera_nb * 4096ull + 63) / 64 * 64)) * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    __nv_bfloat16* p_tmp0 = (__nv_bfloat16*)(hiera_ws + 0);  // bfloat16
    cublasHandle_t hiera_h = hiera_cublas(hiera_s);
    if (hiera_h == nullptr) return 5;
    if (hiera_nb == 16384) {  // the given batch: the kernels specialised to it
        // tmp0 = x @ matmul.weight + matmul.bias (cuBLASLt, column-major C^T = B^T A^T)
        {
            HieraLtPlan0* p = hiera_lt_plan0(p_matmul_bias + 0);
            if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
            const float alpha = 1.0f, beta = 0.0f;
            if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_matmul_weight + 0, p->a, p_x + 0, p->b,
                               &beta, p_tmp0, p->c, p_tmp0, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                               hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
        }
        if (hiera_aligned16(p_out) && hiera_aligned16(p_tmp0)) {
            hiera_stage1<<<1056, 256, 0, hiera_s>>>(p_tmp0, p_out);
        } else {
            hiera_stage1_scalar<<<1056, 256, 0, hiera_s>>>(p_tmp0, p_out);
        }
    } else {  // any other: the kernels taking the batch
        // tmp0 = x @ matmul.weight: M=(int)((long long)hiera_nb * 1LL) N=4096 K=4096 (CUDA_R_16BF operands, CUDA_R_16BF out, CUBLAS_COMPUTE_32F; column-major: C^T = B^T A^T)
        {
            const float alpha = 1.0f, beta = 0.0f;
            if (cublasGemmEx(hiera_h, CUBLAS_OP_T, CUBLAS_OP_N, 4096, (int)((long long)hiera_nb * 1LL), 4096, &alpha, p_matmul_weight + 0, CUDA_R_16BF, 4096, p_x + 0, CUDA_R_16BF, 4096, &beta, p_tmp0 + 0, CUDA_R_16BF, 4096, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) return 5;
        }
        {
            const idx_t hiera_n = (idx_t)((long long)hiera_nb * 4096LL);
            if (hiera_aligned16(p_out) && hiera_aligned16(p_tmp0) && hiera_aligned16(p_matmul_bias)) {
                {
                    unsigned long long g = ((unsigned long long)hiera_n / 4 + 255) / 256;
                    g = g < 1 ? 1 : g > 1056ull ? 1056ull : g;
                    hiera_stage1_any<<<(unsigned)g, 256, 0, hiera_s>>>(p_tmp0, p_matmul_bias, p_out, hiera_n);
                }
            } else {
                {
                    unsigned long long g = ((unsigned long long)hiera_n / 1 + 255) / 256;
                    g = g < 1 ? 1 : g > 1056ull ? 1056ull : g;
                    hiera_stage1_any_scalar<<<(unsigned)g, 256, 0, hiera_s>>>(p_tmp0, p_matmul_bias, p_out, hiera_n);
                }
            }
        }
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
