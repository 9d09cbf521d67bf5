// Fixture: a tensor-core GEMM without data reuse. Each warp computes one 16x16 tile with WMMA (half inputs,
// float accumulate) and loads every fragment straight from global memory: the tensor pipe runs, but warps
// mostly wait on loads that a shared-memory tile would reuse 8x over (direction R).
// EXPECT: R
// KERNEL: wmma_gemm_global
#include <cuda_fp16.h>
#include <mma.h>

#include "common.cuh"

using namespace nvcuda;

__global__ void wmma_gemm_global(const half* __restrict__ A, const half* __restrict__ B, float* __restrict__ C,
                                 int M, int N, int K) {
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int tiles_n = N / 16;
    const int tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm * 16 >= M) return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + (size_t)tm * 16 * K + k, K);  // HOT: no_reuse
        wmma::load_matrix_sync(b, B + (size_t)k * N + tn * 16, N);  // HOT: no_reuse
        wmma::mma_sync(c, a, b, c);  // HOT: no_reuse
    }
    wmma::store_matrix_sync(C + (size_t)tm * 16 * N + tn * 16, c, N, wmma::mem_row_major);
}

int main() {
    const int n = 2048;
    half *A = nullptr, *B = nullptr;
    float* C = nullptr;
    CHECK(cudaMalloc(&A, sizeof(half) * (size_t)n * n));
    CHECK(cudaMalloc(&B, sizeof(half) * (size_t)n * n));
    CHECK(cudaMalloc(&C, sizeof(float) * (size_t)n * n));
    CHECK(cudaMemset(A, 0, sizeof(half) * (size_t)n * n));
    CHECK(cudaMemset(B, 0, sizeof(half) * (size_t)n * n));
    const int warps = (n / 16) * (n / 16), threads = 128;
    warm_then_profile("wmma_gemm_global", [&] { wmma_gemm_global<<<warps * 32 / threads, threads>>>(A, B, C, n, n, n); });
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
    return 0;
}
