"""ModelNew for task '08_linear_dropout_tanh_clamp', exported by hiera. 1.01x over eager on cuda:0 (NVIDIA H200); kernel copy: 08_linear_dropout_tanh_clamp_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

_HEADER = r"""
// hiera contract for task '08_linear_dropout_tanh_clamp' (frozen: do not edit; generated from the task).
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
 *   x                input     float32[4096x4096] contiguous
 *   linear_weight    parameter float32[2048x4096] contiguous  'linear.weight'
 *   linear_bias      parameter float32[2048] contiguous  'linear.bias'
 *   clamp_min        scalar    float64 scalar (seen: -0.5)
 *   clamp_max        scalar    float64 scalar (seen: 0.75)
 *   out              output    float32[4096x2048] contiguous, allocated by the caller
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
    double clamp_min,
    double clamp_max,
    hiera_tensor* out,
    void* stream);

"""

_KERNEL = r"""
// hiera expert candidate for '08_linear_dropout_tanh_clamp'
// strategy: T.cublas_sgemm
// variant: cublasSgemm; block 128, vec 4, ilp 4
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = x @ linear.weight (4096x2048x4096)
//   stage 1: fused pointwise over 4096x2048: out = clamp(tanh((tmp0 + linear.bias)), -0.5, 0.75)
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

// out = clamp(tanh((tmp0 + linear.bias)), -0.5, 0.75)
// 8388608 elements as 2097152 vectors of 4; 128 threads/block, 4 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage1(const float* __restrict__ p_tmp0, const float* __restrict__ p_linear_bias, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 2097152; v0 += step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const idx_t v = v0 + (idx_t)u * 128;
            if (v >= 2097152) break;
            const idx_t i = v * 4;
            const float4 L0 = *reinterpret_cast<const float4*>(p_tmp0 + i);
            const float4 L1 = *reinterpret_cast<const float4*>(p_linear_bias + i % 2048);
            const float t0_0 = L0.x;
            const float t0_1 = L1.x;
            const float t0_2 = (t0_0 + t0_1);
            const float t0_3 = tanhf(t0_2);
            const float t0_4 = fminf(fmaxf(t0_3, (-0.5f)), 0.75f);
            const float t1_0 = L0.y;
            const float t1_1 = L1.y;
            const float t1_2 = (t1_0 + t1_1);
            const float t1_3 = tanhf(t1_2);
            const float t1_4 = fminf(fmaxf(t1_3, (-0.5f)), 0.75f);
            const float t2_0 = L0.z;
            const float t2_1 = L1.z;
            const float t2_2 = (t2_0 + t2_1);
            const float t2_3 = tanhf(t2_2);
            const float t2_4 = fminf(fmaxf(t2_3, (-0.5f)), 0.75f);
            const float t3_0 = L0.w;
            const float t3_1 = L1.w;
            const float t3_2 = (t3_0 + t3_1);
            const float t3_3 = tanhf(t3_2);
            const float t3_4 = fminf(fmaxf(t3_3, (-0.5f)), 0.75f);
            *reinterpret_cast<float4*>(p_out + i) = make_float4(t0_4, t1_4, t2_4, t3_4);
        }
    }
}

// out = clamp(tanh((tmp0 + linear.bias)), -0.5, 0.75)
// 8388608 elements as 8388608 vectors of 1; 128 threads/block, 4 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage1_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_linear_bias, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 8388608; v0 += step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const idx_t v = v0 + (idx_t)u * 128;
            if (v >= 8388608) break;
            const idx_t i = v * 1;
            const float t0 = p_tmp0[i];
            const float t1 = p_linear_bias[i % 2048];
            const float t2 = (t0 + t1);
            const float t3 = tanhf(t2);
            const float t4 = fminf(fmaxf(t3, (-0.5f)), 0.75f);
            p_out[i] = t4;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* linear_weight, const hiera_tensor* linear_bias, double clamp_min, double clamp_max, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 4096 || x->sizes[1] != 4096) return 2;  // specialized for 4096x4096
    if (linear_weight->ndim != 2 || linear_weight->sizes[0] != 2048 || linear_weight->sizes[1] != 4096) return 2;  // specialized for 2048x4096
    if (linear_bias->ndim != 1 || linear_bias->sizes[0] != 2048) return 2;  // specialized for 2048
    (void)clamp_min;  // baked into the kernels as a constant
    (void)clamp_max;  // baked into the kernels as a constant
    if (out->ndim != 2 || out->sizes[0] != 4096 || out->sizes[1] != 2048) return 2;  // specialized for 4096x2048
    const float* p_x = (const float*)x->data;
    const float* p_linear_weight = (const float*)linear_weight->data;
    const float* p_linear_bias = (const float*)linear_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(8388608ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 4096x2048
    cublasHandle_t hiera_h = hiera_cublas(hiera_s);
    if (hiera_h == nullptr) return 5;
    // tmp0 = x @ linear.weight: M=4096 N=2048 K=4096 (column-major: C^T = B^T A^T)
    {
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasSgemm(hiera_h, CUBLAS_OP_T, CUBLAS_OP_N, 2048, 4096, 4096, &alpha, p_linear_weight + 0, 4096, p_x + 0, 4096, &beta, p_tmp0 + 0, 2048) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_out) && hiera_aligned16(p_tmp0) && hiera_aligned16(p_linear_bias)) {
        hiera_stage1<<<4096, 128, 0, hiera_s>>>(p_tmp0, p_linear_bias, p_out);
    } else {
        hiera_stage1_scalar<<<16384, 128, 0, hiera_s>>>(p_tmp0, p_linear_bias, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '08_linear_dropout_tanh_clamp' (frozen). Exposes forward() to Python over the C ABI.
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

std::vector<torch::Tensor> forward(torch::Tensor x, torch::Tensor linear_weight, torch::Tensor linear_bias, double clamp_min, double clamp_max) {
    auto x_c = x.contiguous();
    hiera_tensor x_v = hiera_view(x_c);
    auto linear_weight_c = linear_weight.contiguous();
    hiera_tensor linear_weight_v = hiera_view(linear_weight_c);
    auto linear_bias_c = linear_bias.contiguous();
    hiera_tensor linear_bias_v = hiera_view(linear_bias_c);
    auto out = torch::empty({4096, 2048}, x.options().dtype(torch::kFloat));
    hiera_tensor out_v = hiera_view(out);
#ifdef HIERA_WITH_CUDA
    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
    int rc = hiera_forward(&x_v, &linear_weight_v, &linear_bias_v, clamp_min, clamp_max, &out_v, stream);
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
            name="hiera_08_linear_dropout_tanh_clamp_77298121",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=[],
            extra_ldflags=['-lcublas'],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Linear 4096 -> 2048 -> Dropout(p=0, an identity) -> tanh -> clamp to [-0.5, 0.75]; batch 4096."""
import torch
import torch.nn as nn

batch_size = 4096
in_features = 4096
out_features = 2048
dropout_p = 0.0
clamp_min = -0.5
clamp_max = 0.75


class Model(nn.Module):
    def __init__(self, in_features, out_features, dropout_p, clamp_min, clamp_max):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.dropout = nn.Dropout(dropout_p)
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x):
        x = self.dropout(self.linear(x))
        x = torch.tanh(x)
        return torch.clamp(x, min=self.clamp_min, max=self.clamp_max)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, dropout_p, clamp_min, clamp_max]



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
        self._scalars = {k: getattr(reference, k) for k in ['clamp_min', 'clamp_max']}

    def forward(self, *inputs):
        state = dict(self.named_parameters())
        state.update(self.named_buffers())
        outs = _extension().forward(inputs[0], state['linear.weight'], state['linear.bias'], self._scalars['clamp_min'], self._scalars['clamp_max'])
        out = outs[0]
        return out
