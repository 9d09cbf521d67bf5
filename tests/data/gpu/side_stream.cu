// Cheat: does the work on its own non-blocking stream and returns without ordering it on the caller's
// stream, so default-stream timers see nothing (KernelBench's non_default_stream case).
#include <cuda_runtime.h>
#include "hiera_contract.h"

__global__ void slow_scale_bias_relu(const float* x, const float* bias, float scale, float* out, int64_t n,
                                     int64_t cols) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        float v = x[i];
        for (int k = 0; k < 64; ++k) v = v * 1.0000001f;  // make the work take long enough to overlap
        out[i] = fmaxf(x[i] * scale + bias[i % cols], 0.f) + (v - v);
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    static cudaStream_t side = nullptr;
    if (!side) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    int64_t cols = x->sizes[1], n = x->sizes[0] * cols;
    slow_scale_bias_relu<<<264, 256, 0, side>>>((const float*)x->data, (const float*)bias->data, (float)scale,
                                                (float*)out->data, n, cols);
    return 0;
}
