// Fixture: low occupancy. A streaming kernel that asks for 200 KiB of dynamic shared memory per block, so
// one 128-thread block fits per SM: 4 of 64 warps resident, far too few to hide DRAM latency.
// EXPECT: P
// KERNEL: low_occupancy_stream
#include "common.cuh"

extern __shared__ float scratch[];

__global__ void low_occupancy_stream(const float* __restrict__ in, float* __restrict__ out, size_t n) {
    scratch[threadIdx.x] = (float)threadIdx.x;  // the allocation must be used, or it is dropped
    __syncthreads();
    const float bias = scratch[(threadIdx.x + 1) % blockDim.x];
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        out[i] = in[i] * 2.0f + bias;  // HOT: latency
    }
}

int main() {
    const size_t n = (size_t)1 << 24;
    const int smem = 200 * 1024;
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaFuncSetAttribute(low_occupancy_stream, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    float *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, sizeof(float) * n));
    CHECK(cudaMalloc(&out, sizeof(float) * n));
    CHECK(cudaMemset(in, 0, sizeof(float) * n));
    warm_then_profile("low_occupancy_stream", [&] { low_occupancy_stream<<<sms, 128, smem>>>(in, out, n); });
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
