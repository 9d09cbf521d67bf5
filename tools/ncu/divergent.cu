// Fixture: warp divergence. Lanes take one of four paths by lane index, so each path runs with a quarter
// of the warp active while the other lanes wait; the paths are loops, so the compiler cannot predicate them.
// EXPECT: C
// KERNEL: divergent_paths
#include "common.cuh"

__global__ void divergent_paths(const float* __restrict__ in, float* __restrict__ out, int n, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float x = in[i];
    const int path = threadIdx.x & 3;
    float acc = x;
    if (path == 0) {  // HOT: divergent
        for (int k = 0; k < iters; ++k) acc = fmaf(acc, 1.0001f, x);
    } else if (path == 1) {  // HOT: divergent
        for (int k = 0; k < iters; ++k) acc = fmaf(acc, 0.9997f, -x) + 0.5f;
    } else if (path == 2) {  // HOT: divergent
        for (int k = 0; k < iters; ++k) acc = fmaf(acc, acc * 1e-7f, 0.25f * x);
    } else {
        for (int k = 0; k < iters; ++k) acc = fmaf(x, 0.5f, acc) * 0.999f;
    }
    out[i] = acc;
}

int main() {
    const int n = 1 << 20, iters = 512;
    float *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, sizeof(float) * n));
    CHECK(cudaMalloc(&out, sizeof(float) * n));
    CHECK(cudaMemset(in, 0, sizeof(float) * n));
    warm_then_profile("divergent_paths", [&] { divergent_paths<<<n / 256, 256>>>(in, out, n, iters); });
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
