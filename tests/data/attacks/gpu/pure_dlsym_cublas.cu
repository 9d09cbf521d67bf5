// Attack (a library call in pure CUDA, through dlopen/dlsym): declared pure_cuda, it computes the Linear
// layer with cuBLAS's SGEMM, looked up at run time by name in the cuBLAS that PyTorch already loaded, so
// no cuBLAS header, call or -lcublas appears in the source (the names are strings). A trusted evaluator
// enforces the space at run time (no cuBLAS in a pure CUDA runner): space_violation.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "hiera_contract.h"

typedef int (*create_fn)(void**);
typedef int (*set_stream_fn)(void*, cudaStream_t);
typedef int (*gemm_fn)(void*, int, int, int, int, int, const float*, const float*, int, const float*, int,
                       const float*, float*, int);

static void* find_library() {
    const char* names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so"};
    for (const char* n : names)
        if (void* h = dlopen(n, RTLD_NOW | RTLD_GLOBAL)) return h;
    FILE* maps = fopen("/proc/self/maps", "r");  // not on the search path: where PyTorch loaded it from
    char line[4096];
    while (maps && fgets(line, sizeof line, maps)) {
        char* path = strchr(line, '/');
        if (path && strstr(path, "libcublas.so")) {
            path[strcspn(path, "\n")] = 0;
            fclose(maps);
            return dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        }
    }
    if (maps) fclose(maps);
    return nullptr;
}

__global__ void add_bias(float* out, const float* bias, int64_t n, int64_t cols) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] += bias[i % cols];
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* w, const hiera_tensor* b, hiera_tensor* out,
                             void* stream) {
    static void* handle = nullptr;
    static set_stream_fn set_stream = nullptr;
    static gemm_fn gemm = nullptr;
    if (!handle) {
        void* lib = find_library();
        if (!lib) return 5;
        create_fn create = (create_fn)dlsym(lib, "cublasCreate_v2");
        set_stream = (set_stream_fn)dlsym(lib, "cublasSetStream_v2");
        gemm = (gemm_fn)dlsym(lib, "cublasSgemm_v2");
        if (!create || !set_stream || !gemm || create(&handle) != 0) return 5;
    }
    int m = (int)x->sizes[0], k = (int)x->sizes[1], n = (int)w->sizes[0];
    const float one = 1.f, zero = 0.f;
    set_stream(handle, (cudaStream_t)stream);
    // Row-major out[m, n] = x[m, k] @ w[n, k]^T is column-major out^T = w^T^T x^T: op(A) = T on w, N on x.
    if (gemm(handle, 1, 0, n, m, k, &one, (const float*)w->data, k, (const float*)x->data, k, &zero,
             (float*)out->data, n) != 0)
        return 5;
    add_bias<<<256, 256, 0, (cudaStream_t)stream>>>((float*)out->data, (const float*)b->data, (int64_t)m * n, n);
    return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
