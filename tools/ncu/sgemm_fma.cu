// Fixture: FP32 matrix multiply on CUDA cores. A register-blocked SGEMM (128x128 block tile, 8x8 outputs per
// thread) keeps the FMA pipe busy while the tensor cores idle: the fix is MMA on tensor cores (direction T).
// EXPECT: T
// KERNEL: sgemm_fma
#include "common.cuh"

constexpr int BM = 128, BN = 128, BK = 8;

// Thread (tx, ty) of 16x16 computes rows {ty*4 + i, 64 + ty*4 + i} and columns {tx*4 + j, 64 + tx*4 + j},
// i, j < 4: each quarter-warp's 128-bit shared loads then cover 128 contiguous bytes (no bank conflicts).
__global__ __launch_bounds__(256) void sgemm_fma(int M, int N, int K, const float* __restrict__ A,
                                                 const float* __restrict__ B, float* __restrict__ C) {
    __shared__ __align__(16) float As[BK][BM + 4];  // A tile stored k-major; +4 keeps the transposing stores conflict-free
    __shared__ __align__(16) float Bs[BK][BN];
    const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[8][8] = {};
    float a[8], b[8];
    for (int k0 = 0; k0 < K; k0 += BK) {
        {
            const int r = tid / 2, c = (tid % 2) * 4;
            const float4 v = *reinterpret_cast<const float4*>(&A[(size_t)(row0 + r) * K + k0 + c]);
            As[c + 0][r] = v.x;
            As[c + 1][r] = v.y;
            As[c + 2][r] = v.z;
            As[c + 3][r] = v.w;
        }
        {
            const int r = tid / 32, c = (tid % 32) * 4;
            *reinterpret_cast<float4*>(&Bs[r][c]) = *reinterpret_cast<const float4*>(&B[(size_t)(k0 + r) * N + col0 + c]);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            *reinterpret_cast<float4*>(&a[0]) = *reinterpret_cast<const float4*>(&As[k][ty * 4]);  // HOT: fma
            *reinterpret_cast<float4*>(&a[4]) = *reinterpret_cast<const float4*>(&As[k][64 + ty * 4]);  // HOT: fma
            *reinterpret_cast<float4*>(&b[0]) = *reinterpret_cast<const float4*>(&Bs[k][tx * 4]);  // HOT: fma
            *reinterpret_cast<float4*>(&b[4]) = *reinterpret_cast<const float4*>(&Bs[k][64 + tx * 4]);  // HOT: fma
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);  // HOT: fma
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int r = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
        *reinterpret_cast<float4*>(&C[(size_t)r * N + col0 + tx * 4]) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        *reinterpret_cast<float4*>(&C[(size_t)r * N + col0 + 64 + tx * 4]) =
            make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
}

int main() {
    const int n = 2048;
    float *A = nullptr, *B = nullptr, *C = nullptr;
    const size_t bytes = sizeof(float) * (size_t)n * n;
    CHECK(cudaMalloc(&A, bytes));
    CHECK(cudaMalloc(&B, bytes));
    CHECK(cudaMalloc(&C, bytes));
    CHECK(cudaMemset(A, 0, bytes));
    CHECK(cudaMemset(B, 0, bytes));
    dim3 grid(n / BN, n / BM);
    warm_then_profile("sgemm_fma", [&] { sgemm_fma<<<grid, 256>>>(n, n, n, A, B, C); });
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
    return 0;
}
