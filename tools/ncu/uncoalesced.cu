// Fixture: a strided copy. Each thread reads one float 32 floats (128 bytes) after its neighbour's, so a
// warp's load touches 32 sectors instead of 4: the textbook uncoalesced access.
// EXPECT: M
// KERNEL: strided_copy
#include "common.cuh"

__global__ void strided_copy(const float* __restrict__ in, float* __restrict__ out, int n, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[(size_t)i * stride];  // HOT: uncoalesced
    }
}

int main() {
    const int n = 1 << 21, stride = 32;
    float *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, sizeof(float) * (size_t)n * stride));
    CHECK(cudaMalloc(&out, sizeof(float) * (size_t)n));
    CHECK(cudaMemset(in, 0, sizeof(float) * (size_t)n * stride));
    warm_then_profile("strided_copy", [&] { strided_copy<<<n / 256, 256>>>(in, out, n, stride); });
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
