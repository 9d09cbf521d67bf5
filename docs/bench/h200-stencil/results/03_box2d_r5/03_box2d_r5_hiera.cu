// hiera expert candidate for '03_box2d_r5'
// strategy: R.register_blocking
// variant: stencil block 32x8, 16 outputs/thread along axis 0, box-sum path for uniform weights
// precision: float64 throughout (loads, FMAs, accumulators and stores)
//   2-D 11x11 stencil (121 points, float64) on 1 plane(s) of 10240x10240, 1 channel, padding 5x5
//   output tile 128x32 per block, shared tile with halo 138x42; 25600 blocks, 1056 resident at once on 132 SMs; weights in constant memory
#include <cuda_runtime.h>
#include <stdint.h>
#include "hiera_contract.h"

__constant__ double hiera_w[121];
__global__ void __launch_bounds__(256) hiera_stencil(const double* __restrict__ x, double* __restrict__ y) {
    __shared__ double s[138][42];
    const int tx = threadIdx.x, ty = threadIdx.y;
    unsigned int b = blockIdx.x;
    const int o1 = (int)(b % 320u) * 32;  b /= 320u;
    const int o0 = (int)(b % 80u) * 128;  b /= 80u;
    const int plane = (int)b;  // n * 1 + c
    const int c = 0;
    const double* xp = x + (long long)plane * 104857600ll;
    for (int r = ty; r < 138; r += 8) {
        const int g0 = o0 - 5 + r;
        const bool in0 = g0 >= 0 && g0 < 10240;
        for (int q = tx; q < 42; q += 32) {
            const int g1 = o1 - 5 + q;
            s[r][q] = (in0 && g1 >= 0 && g1 < 10240) ? xp[(long long)g0 * 10240 + g1] : (double)0.0;
        }
    }
    double acc[16];
#pragma unroll
    for (int j = 0; j < 16; ++j) acc[j] = 0.0;
    int same = 1;
    for (int i = tx + ty * 32 + 1; i < 121; i += 256) same &= hiera_w[c * 121 + i] == hiera_w[c * 121 + 0];
    const int uniform = __syncthreads_and(same);
    if (uniform) {
        // Box sum: the neighbourhood sum of each window row, then the sums of 11 consecutive ones.
        double h[26];
#pragma unroll
        for (int i = 0; i < 26; ++i) {
            double t = 0.0;
#pragma unroll
            for (int d1 = 0; d1 < 11; ++d1)
                t += s[ty * 16 + i][tx + d1];
            h[i] = t;
        }
        const double w0 = hiera_w[c * 121 + 0];
#pragma unroll
        for (int j = 0; j < 16; ++j) {
            double t = 0.0;
#pragma unroll
            for (int k0 = 0; k0 < 11; ++k0) t += h[j + k0];
            acc[j] = t * w0;
        }
    } else {
#pragma unroll
        for (int i = 0; i < 26; ++i) {
#pragma unroll
            for (int d1 = 0; d1 < 11; ++d1) {
                const double v = s[ty * 16 + i][tx + d1];
#pragma unroll
                for (int j = 0; j < 16; ++j) {
                    const int k0 = i - j;
                    if (k0 >= 0 && k0 < 11) acc[j] = fma(hiera_w[c * 121 + k0 * 11 + d1], v, acc[j]);
                }
            }
        }
    }
    const int q1 = o1 + tx;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const int q0 = o0 + ty * 16 + j;
        if (q0 < 10240 && q1 < 10240) y[(long long)plane * 104857600ll + (long long)q0 * 10240 + q1] = acc[j];
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* weight, int64_t radius, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 4 || x->sizes[0] != 1 || x->sizes[1] != 1 || x->sizes[2] != 10240 || x->sizes[3] != 10240) return 2;  // specialized for 1x1x10240x10240
    if (weight->ndim != 4 || weight->sizes[0] != 1 || weight->sizes[1] != 1 || weight->sizes[2] != 11 || weight->sizes[3] != 11) return 2;  // specialized for 1x1x11x11
    (void)radius;  // baked into the kernel as a constant
    if (out->ndim != 4 || out->sizes[0] != 1 || out->sizes[1] != 1 || out->sizes[2] != 10240 || out->sizes[3] != 10240) return 2;  // specialized for 1x1x10240x10240
    const double* p_weight = (const double*)weight->data;
    const double* p_x = (const double*)x->data;
    double* p_out = (double*)out->data;
    if (cudaMemcpyToSymbolAsync(hiera_w, p_weight, 968, 0, cudaMemcpyDeviceToDevice, hiera_s) != cudaSuccess) return 4;
    hiera_stencil<<<dim3(25600u), dim3(32, 8), 0, hiera_s>>>(p_x, p_out);
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
