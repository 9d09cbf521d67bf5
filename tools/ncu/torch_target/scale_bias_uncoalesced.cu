// A correct but slow contract candidate for scale_bias.py: consecutive threads walk down a column, so every
// load and store of a warp lands in a different 128-byte row segment (uncoalesced: direction M).
// EXPECT: M
#include <cuda_runtime.h>
#include "hiera_contract.h"

__global__ void scale_bias_columns(const float* __restrict__ x, const float* __restrict__ bias, float scale,
                                   float* __restrict__ out, int64_t rows, int64_t cols) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i >= rows * cols) return;
    const int64_t r = i % rows, c = i / rows;  // column-major walk over a row-major matrix
    out[r * cols + c] = x[r * cols + c] * scale + bias[c];  // HOT: uncoalesced
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    const int64_t rows = x->sizes[0], cols = x->sizes[1];
    const int64_t n = rows * cols;
    const int threads = 256;
    scale_bias_columns<<<(unsigned)((n + threads - 1) / threads), threads, 0, (cudaStream_t)stream>>>(
        (const float*)x->data, (const float*)bias->data, (float)scale, (float*)out->data, rows, cols);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
