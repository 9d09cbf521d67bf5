"""ModelNew for task '04_gelu', exported by hiera. 1.01x over eager on cuda:0 (NVIDIA H200); kernel copy: 04_gelu_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

_HEADER = r"""
// hiera contract for task '04_gelu' (frozen: do not edit; generated from the task).
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
 *   x                input     float32[4096x16384] contiguous
 *   out              output    float32[4096x16384] contiguous, allocated by the caller
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
// hiera expert candidate for '04_gelu'
// strategy: R.fuse_pointwise
// variant: block 128, vec 4, ilp 1
// precision: strict fp32 (no TF32)
//   stage 0: fused pointwise over 4096x16384: out = gelu(x)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
// (contract header inlined above)

typedef unsigned int idx_t;  // every index of this task fits

static inline bool hiera_aligned16(const void* p) { return ((uintptr_t)p & 15u) == 0; }

// out = gelu(x)
// 67108864 elements as 16777216 vectors of 4; 128 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage0(const float* __restrict__ p_x, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 128;
    for (idx_t v0 = (idx_t)blockIdx.x * 128 + threadIdx.x; v0 < 16777216; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_x + i);
        const float t0_0 = L0.x;
        const float t0_1 = (t0_0 * 0.5f * (1.0f + erff(t0_0 * 0.707106781186547524f)));
        const float t1_0 = L0.y;
        const float t1_1 = (t1_0 * 0.5f * (1.0f + erff(t1_0 * 0.707106781186547524f)));
        const float t2_0 = L0.z;
        const float t2_1 = (t2_0 * 0.5f * (1.0f + erff(t2_0 * 0.707106781186547524f)));
        const float t3_0 = L0.w;
        const float t3_1 = (t3_0 * 0.5f * (1.0f + erff(t3_0 * 0.707106781186547524f)));
        *reinterpret_cast<float4*>(p_out + i) = make_float4(t0_1, t1_1, t2_1, t3_1);
    }
}

// out = gelu(x)
// 67108864 elements as 67108864 vectors of 1; 128 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage0_scalar(const float* __restrict__ p_x, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 128;
    for (idx_t v0 = (idx_t)blockIdx.x * 128 + threadIdx.x; v0 < 67108864; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_x[i];
        const float t1 = (t0 * 0.5f * (1.0f + erff(t0 * 0.707106781186547524f)));
        p_out[i] = t1;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 4096 || x->sizes[1] != 16384) return 2;  // specialized for 4096x16384
    if (out->ndim != 2 || out->sizes[0] != 4096 || out->sizes[1] != 16384) return 2;  // specialized for 4096x16384
    const float* p_x = (const float*)x->data;
    float* p_out = (float*)out->data;
    if (hiera_aligned16(p_out) && hiera_aligned16(p_x)) {
        hiera_stage0<<<131072, 128, 0, hiera_s>>>(p_x, p_out);
    } else {
        hiera_stage0_scalar<<<524288, 128, 0, hiera_s>>>(p_x, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '04_gelu' (frozen). Exposes forward() to Python over the C ABI.
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
    auto out = torch::empty({4096, 16384}, x.options().dtype(torch::kFloat));
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
            name="hiera_04_gelu_5861050",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=[],
            extra_ldflags=[],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Exact (erf) GELU applied elementwise to a 4096 x 16384 tensor (64M elements)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4096
dim = 16384


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.gelu(x)


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
