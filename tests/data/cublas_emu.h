// ---- classic cuBLAS on the CPU (tests only) ----
// The subset the generators call (the handle, cublasSgemm and its strided-batched form), computed naively in
// column-major as cuBLAS does: C = alpha * op(A) op(B) + beta * C with fp32 accumulation in k order. Under
// CUBLAS_TF32_TENSOR_OP_MATH the operands are truncated to TF32 as the tensor cores read them, so a candidate
// that lets TF32 in where the policy is strict fp32 fails verification as it would on the GPU.
#include <cstdint>
#include <cstring>
#ifndef HIERA_EMU_CUBLAS_COMMON
#define HIERA_EMU_CUBLAS_COMMON
typedef enum { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_INVALID_VALUE = 7, CUBLAS_STATUS_NOT_SUPPORTED = 15 }
    cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
#endif
typedef enum { CUBLAS_DEFAULT_MATH = 0, CUBLAS_TF32_TENSOR_OP_MATH = 3 } cublasMath_t;
struct HieraEmuBlas { cublasMath_t math; };
typedef HieraEmuBlas* cublasHandle_t;

static cublasStatus_t cublasCreate(cublasHandle_t* h) { *h = new HieraEmuBlas{CUBLAS_DEFAULT_MATH}; return CUBLAS_STATUS_SUCCESS; }
static cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t m) { h->math = m; return CUBLAS_STATUS_SUCCESS; }
static cublasStatus_t cublasSetStream(cublasHandle_t, cudaStream_t) { return CUBLAS_STATUS_SUCCESS; }
static inline float hiera_emu_blas_tf32(float x) {
    uint32_t u; memcpy(&u, &x, 4); u &= 0xffffe000u; memcpy(&x, &u, 4); return x;
}
static cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                                                int n, int k, const float* alpha, const float* A, int lda,
                                                long long sa, const float* B, int ldb, long long sb, const float* beta,
                                                float* C, int ldc, long long sc, int count) {
    if (m < 0 || n < 0 || k < 0 || count < 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (lda < (ta == CUBLAS_OP_N ? m : k) || ldb < (tb == CUBLAS_OP_N ? k : n) || ldc < m) return CUBLAS_STATUS_INVALID_VALUE;
    const bool tf32 = h->math == CUBLAS_TF32_TENSOR_OP_MATH;
    for (int b = 0; b < count; ++b) {
        const float* a = A + b * sa;
        const float* bb = B + b * sb;
        float* c = C + b * sc;
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < m; ++i) {
                float acc = 0.0f;
                for (int p = 0; p < k; ++p) {
                    float x = ta == CUBLAS_OP_N ? a[i + (long long)p * lda] : a[p + (long long)i * lda];
                    float y = tb == CUBLAS_OP_N ? bb[p + (long long)j * ldb] : bb[j + (long long)p * ldb];
                    acc += tf32 ? hiera_emu_blas_tf32(x) * hiera_emu_blas_tf32(y) : x * y;
                }
                float& out = c[i + (long long)j * ldc];
                out = *alpha * acc + (*beta != 0.0f ? *beta * out : 0.0f);
            }
        }
    }
    return CUBLAS_STATUS_SUCCESS;
}
static cublasStatus_t cublasSgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                  const float* alpha, const float* A, int lda, const float* B, int ldb,
                                  const float* beta, float* C, int ldc) {
    return cublasSgemmStridedBatched(h, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1);
}
// ---- end of the classic cuBLAS emulation ----
