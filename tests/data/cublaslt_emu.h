// ---- cuBLASLt-on-CPU emulation (tests only) ----
// The subset the GEMM generators call, computed naively in column-major as cuBLASLt does:
// D = epilogue(alpha * op(A) op(B) + beta * C (+ bias)), fp32 accumulation in k order. Under
// CUBLAS_COMPUTE_32F_FAST_TF32 every operand element is truncated to TF32 (its 13 low mantissa bits cleared,
// as the tensor cores read fp32 data) and the sum is truncated toward zero after each 8-deep step, so a
// candidate that lets plain TF32 in under the strict fp32 policy fails verification as it would on the GPU, and
// one that feeds exact TF32 numbers (the 3xTF32 split) loses only what the accumulation loses.
#include <cmath>
#include <cstdint>
#include <cstring>
#ifndef HIERA_EMU_CUBLAS_COMMON  // (the classic cuBLAS emulation, cublas_emu.h, may have defined them)
#define HIERA_EMU_CUBLAS_COMMON
typedef enum { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_INVALID_VALUE = 7, CUBLAS_STATUS_NOT_SUPPORTED = 15 }
    cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
#endif
typedef enum { CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32F_FAST_TF32 = 77 } cublasComputeType_t;
typedef enum { CUDA_R_32F = 0 } cudaDataType;
typedef enum {
    CUBLASLT_EPILOGUE_DEFAULT = 1, CUBLASLT_EPILOGUE_RELU = 2, CUBLASLT_EPILOGUE_BIAS = 4,
    CUBLASLT_EPILOGUE_RELU_BIAS = 6
} cublasLtEpilogue_t;
typedef enum {
    CUBLASLT_MATMUL_DESC_TRANSA = 3, CUBLASLT_MATMUL_DESC_TRANSB = 4, CUBLASLT_MATMUL_DESC_EPILOGUE = 7,
    CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8
} cublasLtMatmulDescAttributes_t;
typedef enum { CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6 }
    cublasLtMatrixLayoutAttribute_t;
typedef enum {
    CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5,
    CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6
} cublasLtMatmulPreferenceAttributes_t;
struct HieraEmuLt { int unused; };
struct HieraEmuLtDesc {
    cublasComputeType_t compute; cublasOperation_t ta = CUBLAS_OP_N, tb = CUBLAS_OP_N;
    cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT; const float* bias = nullptr;
};
struct HieraEmuLtLayout { uint64_t rows, cols; int64_t ld; int batch = 1; long long stride = 0; };
struct HieraEmuLtPref { int unused; };
typedef HieraEmuLt* cublasLtHandle_t;
typedef HieraEmuLtDesc* cublasLtMatmulDesc_t;
typedef HieraEmuLtLayout* cublasLtMatrixLayout_t;
typedef HieraEmuLtPref* cublasLtMatmulPreference_t;
typedef struct { uint64_t data[8]; } cublasLtMatmulAlgo_t;
typedef struct {
    cublasLtMatmulAlgo_t algo; size_t workspaceSize; cublasStatus_t state; float wavesCount; int reserved[4];
} cublasLtMatmulHeuristicResult_t;

static cublasStatus_t cublasLtCreate(cublasLtHandle_t* h) { *h = new HieraEmuLt(); return CUBLAS_STATUS_SUCCESS; }
static cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* d, cublasComputeType_t c, cudaDataType) {
    *d = new HieraEmuLtDesc(); (*d)->compute = c; return CUBLAS_STATUS_SUCCESS;
}
static cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t a,
                                                     const void* v, size_t) {
    switch (a) {
        case CUBLASLT_MATMUL_DESC_TRANSA: d->ta = *(const cublasOperation_t*)v; break;
        case CUBLASLT_MATMUL_DESC_TRANSB: d->tb = *(const cublasOperation_t*)v; break;
        case CUBLASLT_MATMUL_DESC_EPILOGUE: d->epi = *(const cublasLtEpilogue_t*)v; break;
        case CUBLASLT_MATMUL_DESC_BIAS_POINTER: d->bias = *(const float* const*)v; break;
        default: return CUBLAS_STATUS_INVALID_VALUE;
    }
    return CUBLAS_STATUS_SUCCESS;
}
static cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* l, cudaDataType, uint64_t rows, uint64_t cols,
                                                 int64_t ld) {
    *l = new HieraEmuLtLayout(); (*l)->rows = rows; (*l)->cols = cols; (*l)->ld = ld;
    return ld < (int64_t)rows ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_SUCCESS;
}
static cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t l, cublasLtMatrixLayoutAttribute_t a,
                                                       const void* v, size_t) {
    if (a == CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT) l->batch = *(const int*)v;
    else if (a == CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET) l->stride = *(const long long*)v;
    else return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}
static cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* p) {
    *p = new HieraEmuLtPref(); return CUBLAS_STATUS_SUCCESS;
}
static cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t, cublasLtMatmulPreferenceAttributes_t,
                                                           const void*, size_t) { return CUBLAS_STATUS_SUCCESS; }
static cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t p) { delete p; return CUBLAS_STATUS_SUCCESS; }
// Four interchangeable "algorithms" (the emulation has one way to multiply).
static cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
                                                     cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                                                     cublasLtMatrixLayout_t, cublasLtMatmulPreference_t, int requested,
                                                     cublasLtMatmulHeuristicResult_t* res, int* found) {
    *found = requested < 4 ? requested : 4;
    for (int i = 0; i < *found; ++i) { memset(&res[i], 0, sizeof(res[i])); res[i].algo.data[0] = (uint64_t)i; }
    return CUBLAS_STATUS_SUCCESS;
}
static inline float hiera_emu_tf32_truncate(float x) {
    uint32_t u; memcpy(&u, &x, 4); u &= 0xffffe000u; memcpy(&x, &u, 4); return x;
}
// The tensor cores' fp32 accumulation, modelled as truncation toward zero once per 8-deep step: on an H200 the
// TF32 path's accumulation alone (exact TF32 operands) is 2-12x SGEMM's error on normal data and up to 170x on
// all-positive data, growing with K (docs/bench/gemm-split-h200), the signature of a biased, not rounded, sum.
static inline float hiera_emu_add_rz(float acc, double block) {
    const double s = (double)acc + block;
    float r = (float)s;
    if (std::fabs((double)r) > std::fabs(s)) r = std::nextafter(r, 0.0f);
    return r;
}
static cublasStatus_t cublasLtMatmul(cublasLtHandle_t, cublasLtMatmulDesc_t d, const void* alpha, const void* A,
                                     cublasLtMatrixLayout_t la, const void* B, cublasLtMatrixLayout_t lb,
                                     const void* beta, const void* C, cublasLtMatrixLayout_t lc, void* D,
                                     cublasLtMatrixLayout_t ld, const cublasLtMatmulAlgo_t*, void*, size_t, cudaStream_t) {
    const uint64_t m = d->ta == CUBLAS_OP_N ? la->rows : la->cols, k = d->ta == CUBLAS_OP_N ? la->cols : la->rows;
    const uint64_t kb = d->tb == CUBLAS_OP_N ? lb->rows : lb->cols, n = d->tb == CUBLAS_OP_N ? lb->cols : lb->rows;
    if (k != kb || lc->rows != m || lc->cols != n || ld->rows != m || ld->cols != n) return CUBLAS_STATUS_INVALID_VALUE;
    if (la->batch != ld->batch || lb->batch != ld->batch || lc->batch != ld->batch) return CUBLAS_STATUS_INVALID_VALUE;
    const bool bias = d->epi == CUBLASLT_EPILOGUE_BIAS || d->epi == CUBLASLT_EPILOGUE_RELU_BIAS;
    const bool relu = d->epi == CUBLASLT_EPILOGUE_RELU || d->epi == CUBLASLT_EPILOGUE_RELU_BIAS;
    if (bias && d->bias == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
    const bool tf32 = d->compute == CUBLAS_COMPUTE_32F_FAST_TF32;
    const float al = *(const float*)alpha, be = *(const float*)beta;
    for (int b = 0; b < ld->batch; ++b) {
        const float* a = (const float*)A + b * la->stride;
        const float* bb = (const float*)B + b * lb->stride;
        const float* c = (const float*)C + b * lc->stride;
        float* out = (float*)D + b * ld->stride;
        for (uint64_t j = 0; j < n; ++j) {
            for (uint64_t i = 0; i < m; ++i) {
                float acc = 0.0f;
                double block = 0.0;  // TF32: one tensor-core step's 8 exact products
                for (uint64_t p = 0; p < k; ++p) {
                    float x = d->ta == CUBLAS_OP_N ? a[i + p * la->ld] : a[p + i * la->ld];
                    float y = d->tb == CUBLAS_OP_N ? bb[p + j * lb->ld] : bb[j + p * lb->ld];
                    if (!tf32) { acc += x * y; continue; }
                    block += (double)hiera_emu_tf32_truncate(x) * (double)hiera_emu_tf32_truncate(y);
                    if (p % 8 == 7 || p + 1 == k) { acc = hiera_emu_add_rz(acc, block); block = 0.0; }
                }
                float v = al * acc;
                if (be != 0.0f) v += be * c[i + j * lc->ld];
                if (bias) v += d->bias[i];
                if (relu) v = v > 0.0f ? v : 0.0f;
                out[i + j * ld->ld] = v;
            }
        }
    }
    return CUBLAS_STATUS_SUCCESS;
}
// ---- end of the cuBLASLt emulation ----
