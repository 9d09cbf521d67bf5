"""ModelNew for task '05_softmax_rows', exported by hiera. 2.09x over eager on cuda:1 (NVIDIA H200); kernel copy: 05_softmax_rows_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

_HEADER = r"""
// hiera contract for task '05_softmax_rows' (frozen: do not edit; generated from the task).
#include <stdint.h>

#define HIERA_MAX_DIMS 8

/* A view of one tensor: device (or host) pointer, sizes and strides in elements. */
typedef struct {
    void* data;
    int64_t ndim;
    int64_t sizes[HIERA_MAX_DIMS];
    int64_t strides[HIERA_MAX_DIMS];
} hiera_tensor;

/*
 * Arguments, in order (tensors are dense and contiguous; element types as listed):
 *   x                input     float32[8192x8192] contiguous
 *   out              output    float32[8192x8192] contiguous, allocated by the caller
 *   stream           the cudaStream_t to launch on (NULL on the CPU path); all work must be
 *                    ordered on it: the caller reads the outputs on this stream right after return.
 *
 * Return 0 on success, non-zero on failure. Outputs are preallocated by the caller and must be fully
 * written. Inputs, parameters and buffers must not be modified.
 */
#ifdef __cplusplus
extern "C"
#endif
int hiera_forward(
    const hiera_tensor* x,
    hiera_tensor* out,
    void* stream);

"""

_KERNEL = r"""
// hiera expert candidate for '05_softmax_rows'
// strategy: P.grid_block_shape
// variant: threads/row 512, vec 4, registers
// precision: strict fp32 (no TF32)
//   stage 0: row reduction over 8192x8192: out = (exp((x - max_row(x))) / sum_row(exp((x - max_row(x)))))
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
// (contract header inlined above)

typedef unsigned int idx_t;  // every index of this task fits

static inline bool hiera_aligned16(const void* p) { return ((uintptr_t)p & 15u) == 0; }


// Combine a value across `W` consecutive lanes (W a power of two <= 32); every lane gets the result.
template <int W> __device__ __forceinline__ float hiera_warp_sum(float v) {
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
template <int W> __device__ __forceinline__ float hiera_warp_max(float v) {
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
template <int W> __device__ __forceinline__ float hiera_warp_min(float v) {
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
// Combine across a whole block of NW warps: each warp's result goes through shared memory, then every
// warp reduces the NW partials itself, so all threads get the total without a second broadcast.
#define HIERA_BLOCK_REDUCE(NAME, OP, IDENTITY)                                       \
    template <int NW> __device__ __forceinline__ float NAME(float v, float* smem) { \
        v = OP<32>(v);                                                               \
        const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;                  \
        if (lane == 0) smem[warp] = v;                                               \
        __syncthreads();                                                             \
        v = lane < NW ? smem[lane] : IDENTITY;                                       \
        v = OP<32>(v);                                                               \
        __syncthreads();                                                             \
        return v;                                                                    \
    }
HIERA_BLOCK_REDUCE(hiera_block_sum, hiera_warp_sum, 0.0f)
HIERA_BLOCK_REDUCE(hiera_block_max, hiera_warp_max, -INFINITY)
HIERA_BLOCK_REDUCE(hiera_block_min, hiera_warp_min, INFINITY)

// out = (exp((x - max_row(x))) / sum_row(exp((x - max_row(x)))))
// 8192 rows of 8192: 512 thread(s) per row, 1 row(s) per block, 4 vector(s) of 4 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(512) hiera_stage0(const float* __restrict__ p_x, float* __restrict__ p_out) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 8192;
    float4 c0[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 4;
        c0[j] = *reinterpret_cast<const float4*>(&p_x[rb0 + col]);
    }
    float acc0_0 = (-INFINITY);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float e0_0 = c0[j].x;
        const float e1_0 = c0[j].y;
        const float e2_0 = c0[j].z;
        const float e3_0 = c0[j].w;
        acc0_0 = fmaxf(acc0_0, e0_0);
        acc0_0 = fmaxf(acc0_0, e1_0);
        acc0_0 = fmaxf(acc0_0, e2_0);
        acc0_0 = fmaxf(acc0_0, e3_0);
    }
    const float red0_0 = hiera_block_max<16>(acc0_0, smem);  // max over the row
    float acc1_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float e0_0 = c0[j].x;
        const float e0_1 = (e0_0 - red0_0);
        const float e0_2 = expf(e0_1);
        const float e1_0 = c0[j].y;
        const float e1_1 = (e1_0 - red0_0);
        const float e1_2 = expf(e1_1);
        const float e2_0 = c0[j].z;
        const float e2_1 = (e2_0 - red0_0);
        const float e2_2 = expf(e2_1);
        const float e3_0 = c0[j].w;
        const float e3_1 = (e3_0 - red0_0);
        const float e3_2 = expf(e3_1);
        acc1_0 = acc1_0 + e0_2;
        acc1_0 = acc1_0 + e1_2;
        acc1_0 = acc1_0 + e2_2;
        acc1_0 = acc1_0 + e3_2;
    }
    const float red1_0 = hiera_block_sum<16>(acc1_0, smem);  // sum over the row
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 4;
        const float e0_0 = c0[j].x;
        const float e0_1 = (e0_0 - red0_0);
        const float e0_2 = expf(e0_1);
        const float e0_3 = (e0_2 / red1_0);
        const float e1_0 = c0[j].y;
        const float e1_1 = (e1_0 - red0_0);
        const float e1_2 = expf(e1_1);
        const float e1_3 = (e1_2 / red1_0);
        const float e2_0 = c0[j].z;
        const float e2_1 = (e2_0 - red0_0);
        const float e2_2 = expf(e2_1);
        const float e2_3 = (e2_2 / red1_0);
        const float e3_0 = c0[j].w;
        const float e3_1 = (e3_0 - red0_0);
        const float e3_2 = expf(e3_1);
        const float e3_3 = (e3_2 / red1_0);
        *reinterpret_cast<float4*>(&p_out[r * 8192 + col]) = make_float4(e0_3, e1_3, e2_3, e3_3);
    }
}

// out = (exp((x - max_row(x))) / sum_row(exp((x - max_row(x)))))
// 8192 rows of 8192: 512 thread(s) per row, 1 row(s) per block, 16 vector(s) of 1 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(512) hiera_stage0_scalar(const float* __restrict__ p_x, float* __restrict__ p_out) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 8192;
    float c0[16];
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 1;
        c0[j] = p_x[rb0 + col];
    }
    float acc0_0 = (-INFINITY);
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const float e0_0 = c0[j];
        acc0_0 = fmaxf(acc0_0, e0_0);
    }
    const float red0_0 = hiera_block_max<16>(acc0_0, smem);  // max over the row
    float acc1_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 - red0_0);
        const float e0_2 = expf(e0_1);
        acc1_0 = acc1_0 + e0_2;
    }
    const float red1_0 = hiera_block_sum<16>(acc1_0, smem);  // sum over the row
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 1;
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 - red0_0);
        const float e0_2 = expf(e0_1);
        const float e0_3 = (e0_2 / red1_0);
        p_out[r * 8192 + col] = e0_3;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 8192 || x->sizes[1] != 8192) return 2;  // specialized for 8192x8192
    if (out->ndim != 2 || out->sizes[0] != 8192 || out->sizes[1] != 8192) return 2;  // specialized for 8192x8192
    const float* p_x = (const float*)x->data;
    float* p_out = (float*)out->data;
    if (hiera_aligned16(p_x) && hiera_aligned16(p_out)) {
    hiera_stage0<<<8192, 512, 0, hiera_s>>>(p_x, p_out);
    } else {
    hiera_stage0_scalar<<<8192, 512, 0, hiera_s>>>(p_x, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '05_softmax_rows' (frozen). Exposes forward() to Python over the C ABI.
#ifdef HIERA_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif


static hiera_tensor hiera_view(const torch::Tensor& t) {
    TORCH_CHECK(t.dim() <= HIERA_MAX_DIMS, "hiera: tensors of more than ", HIERA_MAX_DIMS, " dims");
    hiera_tensor v{};
    v.data = t.data_ptr();
    v.ndim = t.dim();
    for (int64_t i = 0; i < t.dim(); ++i) { v.sizes[i] = t.size(i); v.strides[i] = t.stride(i); }
    return v;
}

std::vector<torch::Tensor> forward(torch::Tensor x) {
    auto x_c = x.contiguous();
    hiera_tensor x_v = hiera_view(x_c);
    auto out = torch::empty({8192, 8192}, x.options().dtype(torch::kFloat));
    hiera_tensor out_v = hiera_view(out);
#ifdef HIERA_WITH_CUDA
    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
    int rc = hiera_forward(&x_v, &out_v, stream);
    TORCH_CHECK(rc == 0, "hiera_forward failed with code ", rc);
    return {out};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &forward, "hiera contract forward"); }

"""

_ext = None


def _extension():
    global _ext
    if _ext is None:
        _ext = load_inline(
            name="hiera_05_softmax_rows_1589314",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=[],
            extra_ldflags=[],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Softmax over each row of an 8192 x 8192 matrix."""
import torch
import torch.nn as nn

batch_size = 8192
dim = 8192


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=1)


def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]


def get_init_inputs():
    return []



class ModelNew(nn.Module):
    def __init__(self, *init_inputs):
        super().__init__()
        reference = Model(*init_inputs)
        for name, child in reference.named_children():
            self.add_module(name, child)
        for name, p in reference._parameters.items():
            self.register_parameter(name, p)
        for name, b in reference._buffers.items():
            self.register_buffer(name, b)
        self._scalars = {k: getattr(reference, k) for k in []}

    def forward(self, *inputs):
        state = dict(self.named_parameters())
        state.update(self.named_buffers())
        outs = _extension().forward(inputs[0])
        out = outs[0]
        return out
