// Attack (killing hiera, from a CUDA candidate): on its first call, SIGKILLs its parent process (hiera's
// CLI today). A trusted evaluator gives candidate code no way to signal hiera: the CLI exits normally
// and every other candidate of the batch gets its verdict. (The test runs this in its own PID namespace.)
#include <cuda_runtime.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <string>
#include "hiera_contract.h"

// Test-data safety: never a test runner (pytest) as the parent.
static bool parent_is_test_runner(pid_t ppid) {
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)ppid);
    FILE* f = fopen(path, "rb");
    if (!f) return true;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    int index = 0;
    for (size_t i = 0; i < n && index < 3; ++index) {
        std::string arg(buf + i);
        i += arg.size() + 1;
        std::string base = arg.substr(arg.find_last_of('/') + 1);
        if (base == "pytest" || base == "py.test") return true;
    }
    return false;
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
        pid_t ppid = getppid();
        if (ppid > 1 && !parent_is_test_runner(ppid)) kill(ppid, SIGKILL);
    }
    int64_t cols = x->sizes[1], n = x->sizes[0] * cols;
    scale_bias_relu<<<1024, 256, 0, (cudaStream_t)stream>>>((const float*)x->data, (const float*)bias->data,
                                                           (float)scale, (float*)out->data, n, cols);
    return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
