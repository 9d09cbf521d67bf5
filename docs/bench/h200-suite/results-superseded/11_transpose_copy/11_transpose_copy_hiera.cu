// hiera expert candidate for '11_transpose_copy'
// strategy: M.vectorize_16B
// variant: block 128, vec 1, ilp 1
// precision: strict fp32 (no TF32)
//   stage 0: fused pointwise over 16x1024x4096: out = x
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"

typedef unsigned int idx_t;  // every index of this task fits
// out = x
// 67108864 elements as 67108864 vectors of 1; 128 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage0(const float* __restrict__ p_x, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 128;
    for (idx_t v0 = (idx_t)blockIdx.x * 128 + threadIdx.x; v0 < 67108864; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_x[(i / 4194304) * 4194304 + (i / 4096) % 1024 + (i % 4096) * 1024];
        p_out[i] = t0;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 3 || x->sizes[0] != 16 || x->sizes[1] != 4096 || x->sizes[2] != 1024) return 2;  // specialized for 16x4096x1024
    if (out->ndim != 3 || out->sizes[0] != 16 || out->sizes[1] != 1024 || out->sizes[2] != 4096) return 2;  // specialized for 16x1024x4096
    const float* p_x = (const float*)x->data;
    float* p_out = (float*)out->data;
    hiera_stage0<<<524288, 128, 0, hiera_s>>>(p_x, p_out);
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
