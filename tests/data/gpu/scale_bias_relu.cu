// Correct CUDA candidate for (big_)scale_bias_relu: one fused pass, float4 loads, on the caller's stream.
#include <cuda_runtime.h>
#include "hiera_contract.h"

__global__ void scale_bias_relu_kernel(const float4* __restrict__ x, const float* __restrict__ bias, float scale,
                                       float4* __restrict__ out, int64_t n4, int64_t cols) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n4; i += (int64_t)gridDim.x * blockDim.x) {
        float4 v = x[i];
        int64_t c = (i * 4) % cols;
        v.x = fmaxf(v.x * scale + bias[c], 0.f);
        v.y = fmaxf(v.y * scale + bias[c + 1], 0.f);
        v.z = fmaxf(v.z * scale + bias[c + 2], 0.f);
        v.w = fmaxf(v.w * scale + bias[c + 3], 0.f);
        out[i] = v;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    int64_t cols = x->sizes[1];
    int64_t n = x->sizes[0] * cols;
    if (cols % 4 != 0) return 1;
    int64_t n4 = n / 4;
    int blocks = (int)((n4 + 255) / 256);
    if (blocks > 132 * 32) blocks = 132 * 32;
    scale_bias_relu_kernel<<<blocks, 256, 0, (cudaStream_t)stream>>>(
        (const float4*)x->data, (const float*)bias->data, (float)scale, (float4*)out->data, n4, cols);
    return cudaGetLastError() == cudaSuccess ? 0 : 2;
}
