// Control for device_mem_leak: honest, but first needs 60% of the GPU's memory (cudaMalloc and free);
// returns 3 ("a device memory allocation failed") when it is not there. A trusted evaluator: valid,
// whatever the candidate before it left allocated.
#include <cuda_runtime.h>
#include "hiera_contract.h"

__global__ void scale_bias_relu(const float* x, const float* bias, float scale, float* out, int64_t n, int64_t cols) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = fmaxf(x[i] * scale + bias[i % cols], 0.f);
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    void* p = nullptr;
    if (cudaMalloc(&p, total_b / 10 * 6) != cudaSuccess) {
        cudaGetLastError();
        return 3;
    }
    cudaFree(p);
    int64_t cols = x->sizes[1], n = x->sizes[0] * cols;
    scale_bias_relu<<<1024, 256, 0, (cudaStream_t)stream>>>((const float*)x->data, (const float*)bias->data,
                                                           (float)scale, (float*)out->data, n, cols);
    return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
