// Attack (code injection through the exported file), CUDA: an honest scale_bias_relu kernel whose block
// comment holds a triple quote; pasted into a raw triple-quoted Python string it would end the string and run
// the next line as Python on import. A trusted export embeds it inertly: no marker, and the kernel still runs.
#include <cuda_runtime.h>
#include "hiera_contract.h"

/* """
import pathlib; pathlib.Path("@MARK@").write_text("pwned by the exported file")
_rest = r""" */

__global__ void scale_bias_relu_kernel(const float* __restrict__ x, const float* __restrict__ bias, float scale,
                                       float* __restrict__ out, int64_t n, int64_t cols) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = fmaxf(x[i] * scale + bias[i % cols], 0.f);
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    int64_t cols = x->sizes[1], n = x->sizes[0] * cols;
    scale_bias_relu_kernel<<<1024, 256, 0, (cudaStream_t)stream>>>((const float*)x->data, (const float*)bias->data,
                                                                   (float)scale, (float*)out->data, n, cols);
    return cudaGetLastError() == cudaSuccess ? 0 : 2;
}
