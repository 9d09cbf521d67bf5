"""ModelNew for task '02_linear_gelu_residual', exported by hiera. 1.02x over eager on cuda:1 (NVIDIA H200); kernel copy: 02_linear_gelu_residual_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

_HEADER = r"""
// hiera contract for task '02_linear_gelu_residual' (frozen: do not edit; generated from the task).
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
 *   x                input     float32[8192x2048] contiguous
 *   linear_weight    parameter float32[2048x2048] contiguous  'linear.weight'
 *   linear_bias      parameter float32[2048] contiguous  'linear.bias'
 *   out              output    float32[8192x2048] contiguous, allocated by the caller
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
    const hiera_tensor* linear_weight,
    const hiera_tensor* linear_bias,
    hiera_tensor* out,
    void* stream);

"""

_KERNEL = r"""
// hiera expert candidate for '02_linear_gelu_residual'
// strategy: T.cublas_sgemm
// variant: cublasSgemm; block 512, vec 4, ilp 1
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = x @ linear.weight (8192x2048x2048)
//   stage 1: fused pointwise over 8192x2048: out = (x + gelu((tmp0 + linear.bias)))
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
// (contract header inlined above)
#include <cublas_v2.h>

typedef unsigned int idx_t;  // every index of this task fits

static inline bool hiera_aligned16(const void* p) { return ((uintptr_t)p & 15u) == 0; }


// Temporaries live in one device buffer kept for the life of the library (grown if ever needed).
static float* hiera_workspace(size_t bytes) {
    static float* ws = nullptr;
    static size_t have = 0;
    if (have < bytes) {
        if (ws != nullptr) cudaFree(ws);
        ws = nullptr;
        have = 0;
        if (cudaMalloc((void**)&ws, bytes) != cudaSuccess) return nullptr;
        have = bytes;
    }
    return ws;
}


// One cuBLAS handle for the life of the library; set to the caller's stream on every call.
static cublasHandle_t hiera_cublas(cudaStream_t s) {
    static cublasHandle_t h = nullptr;
    if (h == nullptr) {
        if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
    }
    cublasSetStream(h, s);
    return h;
}

// out = (x + gelu((tmp0 + linear.bias)))
// 16777216 elements as 4194304 vectors of 4; 512 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(512) hiera_stage1(const float* __restrict__ p_x, const float* __restrict__ p_tmp0, const float* __restrict__ p_linear_bias, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 4194304; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_x + i);
        const float4 L1 = *reinterpret_cast<const float4*>(p_tmp0 + i);
        const float4 L2 = *reinterpret_cast<const float4*>(p_linear_bias + i % 2048);
        const float t0_0 = L0.x;
        const float t0_1 = L1.x;
        const float t0_2 = L2.x;
        const float t0_3 = (t0_1 + t0_2);
        const float t0_4 = (t0_3 * 0.5f * (1.0f + erff(t0_3 * 0.707106781186547524f)));
        const float t0_5 = (t0_0 + t0_4);
        const float t1_0 = L0.y;
        const float t1_1 = L1.y;
        const float t1_2 = L2.y;
        const float t1_3 = (t1_1 + t1_2);
        const float t1_4 = (t1_3 * 0.5f * (1.0f + erff(t1_3 * 0.707106781186547524f)));
        const float t1_5 = (t1_0 + t1_4);
        const float t2_0 = L0.z;
        const float t2_1 = L1.z;
        const float t2_2 = L2.z;
        const float t2_3 = (t2_1 + t2_2);
        const float t2_4 = (t2_3 * 0.5f * (1.0f + erff(t2_3 * 0.707106781186547524f)));
        const float t2_5 = (t2_0 + t2_4);
        const float t3_0 = L0.w;
        const float t3_1 = L1.w;
        const float t3_2 = L2.w;
        const float t3_3 = (t3_1 + t3_2);
        const float t3_4 = (t3_3 * 0.5f * (1.0f + erff(t3_3 * 0.707106781186547524f)));
        const float t3_5 = (t3_0 + t3_4);
        *reinterpret_cast<float4*>(p_out + i) = make_float4(t0_5, t1_5, t2_5, t3_5);
    }
}

// out = (x + gelu((tmp0 + linear.bias)))
// 16777216 elements as 16777216 vectors of 1; 512 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(512) hiera_stage1_scalar(const float* __restrict__ p_x, const float* __restrict__ p_tmp0, const float* __restrict__ p_linear_bias, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 16777216; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_x[i];
        const float t1 = p_tmp0[i];
        const float t2 = p_linear_bias[i % 2048];
        const float t3 = (t1 + t2);
        const float t4 = (t3 * 0.5f * (1.0f + erff(t3 * 0.707106781186547524f)));
        const float t5 = (t0 + t4);
        p_out[i] = t5;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* linear_weight, const hiera_tensor* linear_bias, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 8192 || x->sizes[1] != 2048) return 2;  // specialized for 8192x2048
    if (linear_weight->ndim != 2 || linear_weight->sizes[0] != 2048 || linear_weight->sizes[1] != 2048) return 2;  // specialized for 2048x2048
    if (linear_bias->ndim != 1 || linear_bias->sizes[0] != 2048) return 2;  // specialized for 2048
    if (out->ndim != 2 || out->sizes[0] != 8192 || out->sizes[1] != 2048) return 2;  // specialized for 8192x2048
    const float* p_x = (const float*)x->data;
    const float* p_linear_weight = (const float*)linear_weight->data;
    const float* p_linear_bias = (const float*)linear_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(16777216ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 8192x2048
    cublasHandle_t hiera_h = hiera_cublas(hiera_s);
    if (hiera_h == nullptr) return 5;
    // tmp0 = x @ linear.weight: M=8192 N=2048 K=2048 (column-major: C^T = B^T A^T)
    {
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasSgemm(hiera_h, CUBLAS_OP_T, CUBLAS_OP_N, 2048, 8192, 2048, &alpha, p_linear_weight + 0, 2048, p_x + 0, 2048, &beta, p_tmp0 + 0, 2048) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_out) && hiera_aligned16(p_x) && hiera_aligned16(p_tmp0) && hiera_aligned16(p_linear_bias)) {
        hiera_stage1<<<8192, 512, 0, hiera_s>>>(p_x, p_tmp0, p_linear_bias, p_out);
    } else {
        hiera_stage1_scalar<<<32768, 512, 0, hiera_s>>>(p_x, p_tmp0, p_linear_bias, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '02_linear_gelu_residual' (frozen). Exposes forward() to Python over the C ABI.
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

std::vector<torch::Tensor> forward(torch::Tensor x, torch::Tensor linear_weight, torch::Tensor linear_bias) {
    auto x_c = x.contiguous();
    hiera_tensor x_v = hiera_view(x_c);
    auto linear_weight_c = linear_weight.contiguous();
    hiera_tensor linear_weight_v = hiera_view(linear_weight_c);
    auto linear_bias_c = linear_bias.contiguous();
    hiera_tensor linear_bias_v = hiera_view(linear_bias_c);
    auto out = torch::empty({8192, 2048}, x.options().dtype(torch::kFloat));
    hiera_tensor out_v = hiera_view(out);
#ifdef HIERA_WITH_CUDA
    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
    int rc = hiera_forward(&x_v, &linear_weight_v, &linear_bias_v, &out_v, stream);
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
            name="hiera_02_linear_gelu_residual_44161091",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=[],
            extra_ldflags=['-lcublas'],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Residual branch: x + GELU(Linear(x)) on 8192 x 2048 activations."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8192
hidden_size = 2048


class Model(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.linear = nn.Linear(hidden_size, hidden_size)

    def forward(self, x):
        return x + F.gelu(self.linear(x))


def get_inputs():
    return [torch.randn(batch_size, hidden_size)]


def get_init_inputs():
    return [hidden_size]



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
        outs = _extension().forward(inputs[0], state['linear.weight'], state['linear.bias'])
        out = outs[0]
        return out
