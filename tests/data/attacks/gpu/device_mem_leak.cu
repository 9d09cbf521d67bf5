// Attack (device memory carried over, part 1): on its first call, allocates half the GPU's memory and
// never frees it; its own results are correct. In a shared worker the next candidate starts with half a
// GPU. A trusted evaluator ends the candidate's process (and its CUDA context) with its evaluation:
// device_mem_probe, evaluated next, finds the memory free.
#include <cuda_runtime.h>
#include "hiera_contract.h"

__global__ void scale_bias_relu(const float* x, const float* bias, float scale, float* out, int64_t n, int64_t cols) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = fmaxf(x[i] * scale + bias[i % cols], 0.f);
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    static bool done = false;
    if (!done) {
        done = true;
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        size_t chunk = (size_t)1 << 30, held = 0;
        void* p = nullptr;
        while (held + chunk <= total_b / 2 && cudaMalloc(&p, chunk) == cudaSuccess) held += chunk;
        cudaGetLastError();  // the last failed cudaMalloc, if any, is not this call's error
    }
    int64_t cols = x->sizes[1], n = x->sizes[0] * cols;
    scale_bias_relu<<<1024, 256, 0, (cudaStream_t)stream>>>((const float*)x->data, (const float*)bias->data,
                                                           (float)scale, (float*)out->data, n, cols);
    return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
