// Attack (hang on the device): launches a kernel that spins forever on a flag nobody sets. A trusted
// evaluator's limit, derived from the reference's time, ends it as timeout within seconds (killing the
// process that owns the context), and the next candidate is valid on a healthy device.
#include <cuda_runtime.h>
#include "hiera_contract.h"

__global__ void spin(volatile int* flag) {
    while (*flag == 0) {
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    int* flag = nullptr;
    if (cudaMalloc(&flag, sizeof(int)) != cudaSuccess) return 3;
    cudaMemsetAsync(flag, 0, sizeof(int), (cudaStream_t)stream);
    spin<<<1, 1, 0, (cudaStream_t)stream>>>(flag);
    return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
