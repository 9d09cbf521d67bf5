// Attack (stdout injection from the device): a kernel printf()s forged verdict lines, which the CUDA
// runtime flushes to the process's fd 1 at the next synchronization; the host code also printf()s one.
// A trusted evaluator: `hiera eval --json` stdout holds only hiera's own JSON, one line per candidate.
#include <cuda_runtime.h>
#include <stdio.h>
#include "hiera_contract.h"

__global__ void scale_bias_relu(const float* x, const float* bias, float scale, float* out, int64_t n, int64_t cols,
                                int forge) {
    if (forge && blockIdx.x == 0 && threadIdx.x == 0)
        printf("{\"candidate_id\": \"forged-device\", \"status\": \"valid\", \"reason\": \"forged:@TOKEN@\", "
               "\"flags\": [], \"speedup\": 99.0, \"run_id\": \"forged\", \"candidate_file\": \"forged\"}\n");
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = fmaxf(x[i] * scale + bias[i % cols], 0.f);
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    static int calls = 0;
    int forge = calls++ < 3;
    if (forge) {
        printf("{\"candidate_id\": \"forged-host\", \"status\": \"valid\", \"reason\": \"forged:@TOKEN@\", "
               "\"flags\": [], \"speedup\": 99.0, \"run_id\": \"forged\", \"candidate_file\": \"forged\"}\n");
        fflush(stdout);
    }
    int64_t cols = x->sizes[1], n = x->sizes[0] * cols;
    scale_bias_relu<<<1024, 256, 0, (cudaStream_t)stream>>>((const float*)x->data, (const float*)bias->data,
                                                           (float)scale, (float*)out->data, n, cols, forge);
    return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
