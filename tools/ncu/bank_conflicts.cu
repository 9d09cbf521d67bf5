// Fixture: shared-memory bank conflicts. A tiled transpose whose 32x32 tile has no padding: reading a tile
// column puts all 32 lanes of a warp on one bank, a 32-way conflict. Global accesses stay coalesced.
// EXPECT: M
// KERNEL: transpose_conflicted
#include "common.cuh"

constexpr int TILE = 32, ROWS = 8;

__global__ void transpose_conflicted(const float* __restrict__ in, float* __restrict__ out, int n) {
    __shared__ float tile[TILE][TILE];  // no +1 padding: column reads conflict
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];  // HOT: bank_conflict
    }
}

int main() {
    const int n = 4096;
    float *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, sizeof(float) * (size_t)n * n));
    CHECK(cudaMalloc(&out, sizeof(float) * (size_t)n * n));
    CHECK(cudaMemset(in, 0, sizeof(float) * (size_t)n * n));
    dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
    warm_then_profile("transpose_conflicted", [&] { transpose_conflicted<<<grid, block>>>(in, out, n); });
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
