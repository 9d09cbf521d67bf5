// A CUDA candidate for scale_bias_relu that ignores the sizes it is given: it always reads and writes the
// 256 x 512 elements of get_inputs()'s shape (correct there, and only there). Called on a smaller tensor it
// writes past the end of its output; on a larger one it leaves most of it unwritten.
#include <cuda_runtime.h>
#include "hiera_contract.h"

__global__ void ignores_sizes_kernel(const float* __restrict__ x, const float* __restrict__ bias, float scale,
                                     float* __restrict__ out, long long n, long long cols) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const float v = x[i] * scale + bias[i % cols];
        out[i] = v > 0.f ? v : 0.f;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    const long long cols = 512, n = 256LL * cols;
    ignores_sizes_kernel<<<(int)((n + 255) / 256), 256, 0, (cudaStream_t)stream>>>(
        (const float*)x->data, (const float*)bias->data, (float)scale, (float*)out->data, n, cols);
    return cudaGetLastError() == cudaSuccess ? 0 : 2;
}
