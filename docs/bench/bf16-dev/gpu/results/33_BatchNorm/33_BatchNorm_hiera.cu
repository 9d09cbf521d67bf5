// hiera expert candidate for '33_BatchNorm'
// strategy: R.fuse_pointwise
// variant: block 128, vec 4, ilp 4
// sizes: the batch (dim 0) at run time, 1 to 127: at 64 (get_inputs()) the kernels specialised to it, at any other the general ones; every other size as given
// precision: bf16 policy; bfloat16 storage widened to fp32 on load and rounded on store; fp32 arithmetic and accumulation (products: half operands on tensor cores, fp32 accumulate, no reduced-precision reductions)
//   stage 0: fused pointwise over 64x64x512x512: out = ((((x - bn.running_mean) * rsqrt((bn.running_var + 1e-05))) * bn.weight) + bn.bias)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
// bf16 and fp16 storage: widened to float on load, rounded to nearest even on store; all arithmetic is fp32.
__device__ __forceinline__ float hiera_ld(float x) { return x; }
__device__ __forceinline__ float hiera_ld(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float hiera_ld(__half x) { return __half2float(x); }
__device__ __forceinline__ __nv_bfloat16 hiera_to_bf16(float f) { return __float2bfloat16_rn(f); }
__device__ __forceinline__ __half hiera_to_half(float f) { return __float2half_rn(f); }

#define HIERA_HALF_VECTORS(T, T2, TO_F2, FROM_F2)                                                   \
    __device__ __forceinline__ float2 hiera_ld2(const T* p) {                                       \
        return TO_F2(*reinterpret_cast<const T2*>(p));                                              \
    }                                                                                               \
    __device__ __forceinline__ float4 hiera_ld4(const T* p) {                                       \
        const uint2 u = *reinterpret_cast<const uint2*>(p);                                         \
        const float2 a = TO_F2(*reinterpret_cast<const T2*>(&u.x));                                 \
        const float2 b = TO_F2(*reinterpret_cast<const T2*>(&u.y));                                 \
        return make_float4(a.x, a.y, b.x, b.y);                                                     \
    }                                                                                               \
    __device__ __forceinline__ void hiera_st2(T* p, float2 v) {                                     \
        *reinterpret_cast<T2*>(p) = FROM_F2(v.x, v.y);                                              \
    }                                                                                               \
    __device__ __forceinline__ void hiera_st4(T* p, float4 v) {                                     \
        T2 a = FROM_F2(v.x, v.y), b = FROM_F2(v.z, v.w);                                            \
        uint2 u;                                                                                    \
        u.x = *reinterpret_cast<const unsigned int*>(&a);                                           \
        u.y = *reinterpret_cast<const unsigned int*>(&b);                                           \
        *reinterpret_cast<uint2*>(p) = u;                                                           \
    }
HIERA_HALF_VECTORS(__nv_bfloat16, __nv_bfloat162, __bfloat1622float2, __floats2bfloat162_rn)
HIERA_HALF_VECTORS(__half, __half2, __half22float2, __floats2half2_rn)

typedef unsigned int idx_t;  // every index of this task fits

static inline bool hiera_aligned16(const void* p) { return ((uintptr_t)p & 15u) == 0; }

// out = ((((x - bn.running_mean) * rsqrt((bn.running_var + 1e-05))) * bn.weight) + bn.bias)
// 1073741824 elements as 268435456 vectors of 4; 128 threads/block, 4 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage0(const __nv_bfloat16* __restrict__ p_x, const __nv_bfloat16* __restrict__ p_bn_running_mean, const __nv_bfloat16* __restrict__ p_bn_running_var, const __nv_bfloat16* __restrict__ p_bn_weight, const __nv_bfloat16* __restrict__ p_bn_bias, __nv_bfloat16* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 268435456; v0 += step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const idx_t v = v0 + (idx_t)u * 128;
            if (v >= 268435456) break;
            const idx_t i = v * 4;
            const float4 L0 = hiera_ld4(p_x + i);
            const float U1 = hiera_ld(p_bn_running_mean[(i / 262144) % 64]);
            const float U2 = hiera_ld(p_bn_running_var[(i / 262144) % 64]);
            const float U3 = hiera_ld(p_bn_weight[(i / 262144) % 64]);
            const float U4 = hiera_ld(p_bn_bias[(i / 262144) % 64]);
            const float t0_0 = L0.x;
            const float t0_1 = U1;
            const float t0_2 = (t0_0 - t0_1);
            const float t0_3 = U2;
            const float t0_4 = (t0_3 + 1e-05f);
            const float t0_5 = rsqrtf(t0_4);
            const float t0_6 = (t0_2 * t0_5);
            const float t0_7 = U3;
            const float t0_8 = (t0_6 * t0_7);
            const float t0_9 = U4;
            const float t0_10 = (t0_8 + t0_9);
            const float t1_0 = L0.y;
            const float t1_1 = U1;
            const float t1_2 = (t1_0 - t1_1);
            const float t1_3 = U2;
            const float t1_4 = (t1_3 + 1e-05f);
            const float t1_5 = rsqrtf(t1_4);
            const float t1_6 = (t1_2 * t1_5);
            const float t1_7 = U3;
            const float t1_8 = (t1_6 * t1_7);
            const float t1_9 = U4;
            const float t1_10 = (t1_8 + t1_9);
            const float t2_0 = L0.z;
            const float t2_1 = U1;
            const float t2_2 = (t2_0 - t2_1);
            const float t2_3 = U2;
            const float t2_4 = (t2_3 + 1e-05f);
            const float t2_5 = rsqrtf(t2_4);
            const float t2_6 = (t2_2 * t2_5);
            const float t2_7 = U3;
            const float t2_8 = (t2_6 * t2_7);
            const float t2_9 = U4;
            const float t2_10 = (t2_8 + t2_9);
            const float t3_0 = L0.w;
            const float t3_1 = U1;
            const float t3_2 = (t3_0 - t3_1);
            const float t3_3 = U2;
            const float t3_4 = (t3_3 + 1e-05f);
            const float t3_5 = rsqrtf(t3_4);
            const float t3_6 = (t3_2 * t3_5);
            const float t3_7 = U3;
            const float t3_8 = (t3_6 * t3_7);
            const float t3_9 = U4;
            const float t3_10 = (t3_8 + t3_9);
            hiera_st4(p_out + i, make_float4(t0_10, t1_10, t2_10, t3_10));
        }
    }
}

// out = ((((x - bn.running_mean) * rsqrt((bn.running_var + 1e-05))) * bn.weight) + bn.bias)
// 1073741824 elements as 1073741824 vectors of 1; 128 threads/block, 4 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage0_scalar(const __nv_bfloat16* __restrict__ p_x, const __nv_bfloat16* __restrict__ p_bn_running_mean, const __nv_bfloat16* __restrict__ p_bn_running_var, const __nv_bfloat16* __restrict__ p_bn_weight, const __nv_bfloat16* __restrict__ p_bn_bias, __nv_bfloat16* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 1073741824; v0 += step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const idx_t v = v0 + (idx_t)u * 128;
            if (v >= 1073741824) break;
            const idx_t i = v * 1;
            const float t0 = hiera_ld(p_x[i]);
            const float t1 = hiera_ld(p_bn_running_mean[(i / 262144) % 64]);
            const float t2 = (t0 - t1);
            const float t3 = hiera_ld(p_bn_running_var[(i / 262144) % 64]);
            const float t4 = (t3 + 1e-05f);
            const float t5 = rsqrtf(t4);
            const float t6 = (t2 * t5);
            const float t7 = hiera_ld(p_bn_weight[(i / 262144) % 64]);
            const float t8 = (t6 * t7);
            const float t9 = hiera_ld(p_bn_bias[(i / 262144) % 64]);
            const float t10 = (t8 + t9);
            p_out[i] = hiera_to_bf16(t10);
        }
    }
}

// out = ((((x - bn.running_mean) * rsqrt((bn.running_var + 1e-05))) * bn.weight) + bn.bias)
// n elements (the batch's, at run time) as vectors of 4; 128 threads/block, 4 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage0_any(const __nv_bfloat16* __restrict__ p_x, const __nv_bfloat16* __restrict__ p_bn_running_mean, const __nv_bfloat16* __restrict__ p_bn_running_var, const __nv_bfloat16* __restrict__ p_bn_weight, const __nv_bfloat16* __restrict__ p_bn_bias, __nv_bfloat16* __restrict__ p_out, const idx_t n) {
    const idx_t nvec = n / 4;
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < nvec; v0 += step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const idx_t v = v0 + (idx_t)u * 128;
            if (v >= nvec) break;
            const idx_t i = v * 4;
            const float4 L0 = hiera_ld4(p_x + i);
            const float U1 = hiera_ld(p_bn_running_mean[(i / 262144) % 64]);
            const float U2 = hiera_ld(p_bn_running_var[(i / 262144) % 64]);
            const float U3 = hiera_ld(p_bn_weight[(i / 262144) % 64]);
            const float U4 = hiera_ld(p_bn_bias[(i / 262144) % 64]);
            const float t0_0 = L0.x;
            const float t0_1 = U1;
            const float t0_2 = (t0_0 - t0_1);
            const float t0_3 = U2;
            const float t0_4 = (t0_3 + 1e-05f);
            const float t0_5 = rsqrtf(t0_4);
            const float t0_6 = (t0_2 * t0_5);
            const float t0_7 = U3;
            const float t0_8 = (t0_6 * t0_7);
            const float t0_9 = U4;
            const float t0_10 = (t0_8 + t0_9);
            const float t1_0 = L0.y;
            const float t1_1 = U1;
            const float t1_2 = (t1_0 - t1_1);
            const float t1_3 = U2;
            const float t1_4 = (t1_3 + 1e-05f);
            const float t1_5 = rsqrtf(t1_4);
            const float t1_6 = (t1_2 * t1_5);
            const float t1_7 = U3;
            const float t1_8 = (t1_6 * t1_7);
            const float t1_9 = U4;
            const float t1_10 = (t1_8 + t1_9);
            const float t2_0 = L0.z;
            const float t2_1 = U1;
            const float t2_2 = (t2_0 - t2_1);
            const float t2_3 = U2;
            const float t2_4 = (t2_3 + 1e-05f);
            const float t2_5 = rsqrtf(t2_4);
            const float t2_6 = (t2_2 * t2_5);
            const float t2_7 = U3;
            const float t2_8 = (t2_6 * t2_7);
            const float t2_9 = U4;
            const float t2_10 = (t2_8 + t2_9);
            const float t3_0 = L0.w;
            const float t3_1 = U1;
            const float t3_2 = (t3_0 - t3_1);
            const float t3_3 = U2;
            const float t3_4 = (t3_3 + 1e-05f);
            const float t3_5 = rsqrtf(t3_4);
            const float t3_6 = (t3_2 * t3_5);
            const float t3_7 = U3;
            const float t3_8 = (t3_6 * t3_7);
            const float t3_9 = U4;
            const float t3_10 = (t3_8 + t3_9);
            hiera_st4(p_out + i, make_float4(t0_10, t1_10, t2_10, t3_10));
        }
    }
    const idx_t t = (idx_t)blockIdx.x * 128 + threadIdx.x;
    if (t < n % 4) {
        const idx_t i = nvec * 4 + t;
        const float t0 = hiera_ld(p_x[i]);
        const float t1 = hiera_ld(p_bn_running_mean[(i / 262144) % 64]);
        const float t2 = (t0 - t1);
        const float t3 = hiera_ld(p_bn_running_var[(i / 262144) % 64]);
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = hiera_ld(p_bn_weight[(i / 262144) % 64]);
        const float t8 = (t6 * t7);
        const float t9 = hiera_ld(p_bn_bias[(i / 262144) % 64]);
        const float t10 = (t8 + t9);
        p_out[i] = hiera_to_bf16(t10);
    }
}

// out = ((((x - bn.running_mean) * rsqrt((bn.running_var + 1e-05))) * bn.weight) + bn.bias)
// n elements (the batch's, at run time) as vectors of 1; 128 threads/block, 4 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage0_any_scalar(const __nv_bfloat16* __restrict__ p_x, const __nv_bfloat16* __restrict__ p_bn_running_mean, const __nv_bfloat16* __restrict__ p_bn_running_var, const __nv_bfloat16* __restrict__ p_bn_weight, const __nv_bfloat16* __restrict__ p_bn_bias, __nv_bfloat16* __restrict__ p_out, const idx_t n) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < n; v0 += step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const idx_t v = v0 + (idx_t)u * 128;
            if (v >= n) break;
            const idx_t i = v * 1;
            const float t0 = hiera_ld(p_x[i]);
            const float t1 = hiera_ld(p_bn_running_mean[(i / 262144) % 64]);
            const float t2 = (t0 - t1);
            const float t3 = hiera_ld(p_bn_running_var[(i / 262144) % 64]);
            const float t4 = (t3 + 1e-05f);
            const float t5 = rsqrtf(t4);
            const float t6 = (t2 * t5);
            const float t7 = hiera_ld(p_bn_weight[(i / 262144) % 64]);
            const float t8 = (t6 * t7);
            const float t9 = hiera_ld(p_bn_bias[(i / 262144) % 64]);
            const float t10 = (t8 + t9);
            p_out[i] = hiera_to_bf16(t10);
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bn_weight, const hiera_tensor* bn_bias, const hiera_tensor* bn_running_mean, const hiera_tensor* bn_running_var, const hiera_tensor* bn_num_batches_tracked, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    // The batch is taken at run time: dim 0 of x (1 to 127; beyond, an index would overflow).
    if (x->ndim < 1) return 2;
    const long long hiera_nb = x->sizes[0];
    if (hiera_nb < 1 || hiera_nb > 127LL) return 2;
    if (x->ndim != 4 || x->sizes[0] != hiera_nb || x->sizes[1] != 64 || x->sizes[2] != 512 || x->sizes[3] != 512) return 2;  // B x 64x512x512
    if (bn_weight->ndim != 1 || bn_weight->sizes[0] != 64) return 2;  // specialized for 64
    if (bn_bias->ndim != 1 || bn_bias->sizes[0] != 64) return 2;  // specialized for 64
    if (bn_running_mean->ndim != 1 || bn_running_mean->sizes[0] != 64) return 2;  // specialized for 64
    if (bn_running_var->ndim != 1 || bn_running_var->sizes[0] != 64) return 2;  // specialized for 64
    (void)bn_num_batches_tracked;  // not read by this computation
    if (out->ndim != 4 || out->sizes[0] != hiera_nb || out->sizes[1] != 64 || out->sizes[2] != 512 || out->sizes[3] != 512) return 2;  // B x 64x512x512
    const __nv_bfloat16* p_x = (const __nv_bfloat16*)x->data;
    const __nv_bfloat16* p_bn_running_mean = (const __nv_bfloat16*)bn_running_mean->data;
    const __nv_bfloat16* p_bn_running_var = (const __nv_bfloat16*)bn_running_var->data;
    const __nv_bfloat16* p_bn_weight = (const __nv_bfloat16*)bn_weight->data;
    const __nv_bfloat16* p_bn_bias = (const __nv_bfloat16*)bn_bias->data;
    __nv_bfloat16* p_out = (__nv_bfloat16*)out->data;
    if (hiera_nb == 64) {  // the given batch: the kernels specialised to it
        if (hiera_aligned16(p_out) && hiera_aligned16(p_x)) {
            hiera_stage0<<<524288, 128, 0, hiera_s>>>(p_x, p_bn_running_mean, p_bn_running_var, p_bn_weight, p_bn_bias, p_out);
        } else {
            hiera_stage0_scalar<<<2097152, 128, 0, hiera_s>>>(p_x, p_bn_running_mean, p_bn_running_var, p_bn_weight, p_bn_bias, p_out);
        }
    } else {  // any other: the kernels taking the batch
        {
            const idx_t hiera_n = (idx_t)((long long)hiera_nb * 16777216LL);
            if (hiera_aligned16(p_out) && hiera_aligned16(p_x)) {
                {
                    unsigned long long g = ((unsigned long long)hiera_n / 4 + 511) / 512;
                    g = g < 1 ? 1 : g > 2147483647ull ? 2147483647ull : g;
                    hiera_stage0_any<<<(unsigned)g, 128, 0, hiera_s>>>(p_x, p_bn_running_mean, p_bn_running_var, p_bn_weight, p_bn_bias, p_out, hiera_n);
                }
            } else {
                {
                    unsigned long long g = ((unsigned long long)hiera_n / 1 + 511) / 512;
                    g = g < 1 ? 1 : g > 2147483647ull ? 2147483647ull : g;
                    hiera_stage0_any_scalar<<<(unsigned)g, 128, 0, hiera_s>>>(p_x, p_bn_running_mean, p_bn_running_var, p_bn_weight, p_bn_bias, p_out, hiera_n);
                }
            }
        }
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
