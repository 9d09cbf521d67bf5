// Faults the GPU: writes far outside the output (an illegal memory access poisons the CUDA context).
#include <cuda_runtime.h>
#include "hiera_contract.h"

__global__ void bad(float* out) { out[(int64_t)1 << 40] = 1.f; }

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    bad<<<1, 1, 0, (cudaStream_t)stream>>>((float*)out->data);
    return 0;
}
