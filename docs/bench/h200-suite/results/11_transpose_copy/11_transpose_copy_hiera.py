"""ModelNew for task '11_transpose_copy', exported by hiera. 3.50x over eager on cuda:1 (NVIDIA H200); kernel copy: 11_transpose_copy_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

_HEADER = r"""
// hiera contract for task '11_transpose_copy' (frozen: do not edit; generated from the task).
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
 *   x                input     float32[16x4096x1024] contiguous
 *   out              output    float32[16x1024x4096] contiguous, allocated by the caller
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
// hiera expert candidate for '11_transpose_copy'
// strategy: R.fuse_pointwise
// variant: transpose tile 64x64, block 32x16 (8/thread), xor swizzle
// precision: strict fp32 (no TF32)
//   stage 0: tiled transpose over 16x1024x4096: out = x
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
// (contract header inlined above)

typedef unsigned int idx_t;  // every index of this task fits
// out = x
// tiled transpose of the plane (dim 1: 1024) x (last dim: 4096), batch 16: 64x64 tiles, 32x16 threads, xor-swizzled shared memory; reads and writes both coalesced.
__global__ void __launch_bounds__(512) hiera_stage0(const float* __restrict__ p_x, float* __restrict__ p_out) {
    __shared__ float s0[64][64];
    const idx_t tile = blockIdx.x;
    const idx_t l0 = (tile % 64) * 64;
    const idx_t c0 = ((tile / 64) % 16) * 64;
    const idx_t b = tile / 1024;
    (void)b;
    const idx_t base0 = (b) * 4194304;  // x
    const idx_t base1 = (b) * 4194304;  // out
#pragma unroll
    for (int y = 0; y < 4; ++y) {
#pragma unroll
        for (int x = 0; x < 2; ++x) {
            const int j = (int)threadIdx.y + y * 16;  // along the last dim
            const int i = (int)threadIdx.x + x * 32;  // along dim 1: unit stride in the source
            const idx_t c = c0 + (idx_t)i, l = l0 + (idx_t)j;
            s0[j][i ^ (j & 31)] = p_x[base0 + c + l * 1024];
        }
    }
    __syncthreads();
#pragma unroll
    for (int y = 0; y < 4; ++y) {
#pragma unroll
        for (int x = 0; x < 2; ++x) {
            const int j = (int)threadIdx.y + y * 16;  // along dim 1
            const int i = (int)threadIdx.x + x * 32;  // along the last dim: unit stride in the output
            const idx_t c = c0 + (idx_t)j, l = l0 + (idx_t)i;
            const float t0 = s0[i][j ^ (i & 31)];
            p_out[base1 + c * 4096 + l] = t0;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 3 || x->sizes[0] != 16 || x->sizes[1] != 4096 || x->sizes[2] != 1024) return 2;  // specialized for 16x4096x1024
    if (out->ndim != 3 || out->sizes[0] != 16 || out->sizes[1] != 1024 || out->sizes[2] != 4096) return 2;  // specialized for 16x1024x4096
    const float* p_x = (const float*)x->data;
    float* p_out = (float*)out->data;
    hiera_stage0<<<16384, dim3(32, 16), 0, hiera_s>>>(p_x, p_out);
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '11_transpose_copy' (frozen). Exposes forward() to Python over the C ABI.
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
    auto out = torch::empty({16, 1024, 4096}, x.options().dtype(torch::kFloat));
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
            name="hiera_11_transpose_copy_97311140",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=[],
            extra_ldflags=[],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Batched transpose materialised as a contiguous copy: (16, 4096, 1024) -> (16, 1024, 4096)."""
import torch
import torch.nn as nn

batch_size = 16
rows = 4096
cols = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.transpose(1, 2).contiguous()


def get_inputs():
    x = torch.randn(batch_size, rows, cols)
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
