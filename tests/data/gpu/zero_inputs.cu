// Cheat: correct output, then zeroes the input on the same stream.
#include <cuda_runtime.h>
#include "hiera_contract.h"

__global__ void k(float* x, const float* bias, float scale, float* out, int64_t n, int64_t cols) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        out[i] = fmaxf(x[i] * scale + bias[i % cols], 0.f);
        x[i] = 0.f;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    int64_t cols = x->sizes[1], n = x->sizes[0] * cols;
    k<<<1024, 256, 0, (cudaStream_t)stream>>>((float*)x->data, (const float*)bias->data, (float)scale,
                                               (float*)out->data, n, cols);
    return 0;
}
