"""ModelNew for task '04_linear_layernorm', exported by hiera. 1.02x over eager on cuda:0 (NVIDIA H200); kernel copy: 04_linear_layernorm_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

_HEADER = r"""
// hiera contract for task '04_linear_layernorm' (frozen: do not edit; generated from the task).
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
 *   x                input     float32[8192x1024] contiguous
 *   linear_weight    parameter float32[4096x1024] contiguous  'linear.weight'
 *   linear_bias      parameter float32[4096] contiguous  'linear.bias'
 *   norm_weight      parameter float32[4096] contiguous  'norm.weight'
 *   norm_bias        parameter float32[4096] contiguous  'norm.bias'
 *   out              output    float32[8192x4096] contiguous, allocated by the caller
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
    const hiera_tensor* norm_weight,
    const hiera_tensor* norm_bias,
    hiera_tensor* out,
    void* stream);

"""

_KERNEL = r"""
// hiera expert candidate for '04_linear_layernorm'
// strategy: T.cublas_sgemm
// variant: cuBLASLt algo #1 + bias epilogue; threads/row auto x2, vec 4, registers
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = x @ linear.weight + linear.bias (8192x4096x1024)
//   stage 1: row reduction over 8192x4096: out = ((((tmp0 - (sum_row(tmp0) / 4096)) * rsqrt(((sum_row(…) / 4096) + 1e-05))) * norm.weight)…
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
// (contract header inlined above)
#include <cublas_v2.h>
#include <cublasLt.h>

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


// cuBLASLt: one handle and one workspace for the life of the library.
static cublasLtHandle_t hiera_lt() {
    static cublasLtHandle_t h = nullptr;
    if (h == nullptr && cublasLtCreate(&h) != CUBLAS_STATUS_SUCCESS) return nullptr;
    return h;
}
static const size_t HIERA_LT_WS = 32u << 20;
static void* hiera_lt_workspace() {
    static void* ws = nullptr;
    if (ws == nullptr && cudaMalloc(&ws, HIERA_LT_WS) != cudaSuccess) ws = nullptr;
    return ws;
}


// Product 0: tmp0 = x @ linear.weight (M=8192 N=4096 K=1024),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan0 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan0* hiera_lt_plan0(const void* bias) {
    static HieraLtPlan0 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 1024, 4096, 1024);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 1024, 8192, 1024);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 4096, 8192, 4096);

        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[1 < found ? 1 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}


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

// out = ((((tmp0 - (sum_row(tmp0) / 4096)) * rsqrt(((sum_row(…) / 4096) + 1e-05))) * norm.weight) + norm.bias)
// 8192 rows of 4096: 512 thread(s) per row, 1 row(s) per block, 2 vector(s) of 4 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(512) hiera_stage1(const float* __restrict__ p_tmp0, const float* __restrict__ p_norm_weight, const float* __restrict__ p_norm_bias, float* __restrict__ p_out) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 4096;
    const idx_t rb1 = 0;
    const idx_t rb2 = 0;
    float4 c0[2];
    float4 c1[2];
    float4 c2[2];
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 4;
        c0[j] = *reinterpret_cast<const float4*>(&p_tmp0[rb0 + col]);
        c1[j] = *reinterpret_cast<const float4*>(&p_norm_weight[rb1 + col]);
        c2[j] = *reinterpret_cast<const float4*>(&p_norm_bias[rb2 + col]);
    }
    float acc0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const float e0_0 = c0[j].x;
        const float e1_0 = c0[j].y;
        const float e2_0 = c0[j].z;
        const float e3_0 = c0[j].w;
        acc0_0 = acc0_0 + e0_0;
        acc0_0 = acc0_0 + e1_0;
        acc0_0 = acc0_0 + e2_0;
        acc0_0 = acc0_0 + e3_0;
    }
    const float red0_0 = hiera_block_sum<16>(acc0_0, smem);  // sum over the row
    const float h1_0 = (red0_0 / 4096.0f);
    float acc1_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const float e0_0 = c0[j].x;
        const float e0_1 = (e0_0 - h1_0);
        const float e0_2 = (e0_1 * e0_1);
        const float e1_0 = c0[j].y;
        const float e1_1 = (e1_0 - h1_0);
        const float e1_2 = (e1_1 * e1_1);
        const float e2_0 = c0[j].z;
        const float e2_1 = (e2_0 - h1_0);
        const float e2_2 = (e2_1 * e2_1);
        const float e3_0 = c0[j].w;
        const float e3_1 = (e3_0 - h1_0);
        const float e3_2 = (e3_1 * e3_1);
        acc1_0 = acc1_0 + e0_2;
        acc1_0 = acc1_0 + e1_2;
        acc1_0 = acc1_0 + e2_2;
        acc1_0 = acc1_0 + e3_2;
    }
    const float red1_0 = hiera_block_sum<16>(acc1_0, smem);  // sum over the row
    const float h2_0 = (red1_0 / 4096.0f);
    const float h2_1 = (h2_0 + 1e-05f);
    const float h2_2 = rsqrtf(h2_1);
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 4;
        const float e0_0 = c0[j].x;
        const float e0_1 = (e0_0 - h1_0);
        const float e0_2 = (e0_1 * h2_2);
        const float e0_3 = c1[j].x;
        const float e0_4 = (e0_2 * e0_3);
        const float e0_5 = c2[j].x;
        const float e0_6 = (e0_4 + e0_5);
        const float e1_0 = c0[j].y;
        const float e1_1 = (e1_0 - h1_0);
        const float e1_2 = (e1_1 * h2_2);
        const float e1_3 = c1[j].y;
        const float e1_4 = (e1_2 * e1_3);
        const float e1_5 = c2[j].y;
        const float e1_6 = (e1_4 + e1_5);
        const float e2_0 = c0[j].z;
        const float e2_1 = (e2_0 - h1_0);
        const float e2_2 = (e2_1 * h2_2);
        const float e2_3 = c1[j].z;
        const float e2_4 = (e2_2 * e2_3);
        const float e2_5 = c2[j].z;
        const float e2_6 = (e2_4 + e2_5);
        const float e3_0 = c0[j].w;
        const float e3_1 = (e3_0 - h1_0);
        const float e3_2 = (e3_1 * h2_2);
        const float e3_3 = c1[j].w;
        const float e3_4 = (e3_2 * e3_3);
        const float e3_5 = c2[j].w;
        const float e3_6 = (e3_4 + e3_5);
        *reinterpret_cast<float4*>(&p_out[r * 4096 + col]) = make_float4(e0_6, e1_6, e2_6, e3_6);
    }
}

// out = ((((tmp0 - (sum_row(tmp0) / 4096)) * rsqrt(((sum_row(…) / 4096) + 1e-05))) * norm.weight) + norm.bias)
// 8192 rows of 4096: 512 thread(s) per row, 1 row(s) per block, 8 vector(s) of 1 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(512) hiera_stage1_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_norm_weight, const float* __restrict__ p_norm_bias, float* __restrict__ p_out) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 4096;
    const idx_t rb1 = 0;
    const idx_t rb2 = 0;
    float c0[8];
    float c1[8];
    float c2[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 1;
        c0[j] = p_tmp0[rb0 + col];
        c1[j] = p_norm_weight[rb1 + col];
        c2[j] = p_norm_bias[rb2 + col];
    }
    float acc0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const float e0_0 = c0[j];
        acc0_0 = acc0_0 + e0_0;
    }
    const float red0_0 = hiera_block_sum<16>(acc0_0, smem);  // sum over the row
    const float h1_0 = (red0_0 / 4096.0f);
    float acc1_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 - h1_0);
        const float e0_2 = (e0_1 * e0_1);
        acc1_0 = acc1_0 + e0_2;
    }
    const float red1_0 = hiera_block_sum<16>(acc1_0, smem);  // sum over the row
    const float h2_0 = (red1_0 / 4096.0f);
    const float h2_1 = (h2_0 + 1e-05f);
    const float h2_2 = rsqrtf(h2_1);
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const idx_t col = (idx_t)(lane + j * 512) * 1;
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 - h1_0);
        const float e0_2 = (e0_1 * h2_2);
        const float e0_3 = c1[j];
        const float e0_4 = (e0_2 * e0_3);
        const float e0_5 = c2[j];
        const float e0_6 = (e0_4 + e0_5);
        p_out[r * 4096 + col] = e0_6;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* linear_weight, const hiera_tensor* linear_bias, const hiera_tensor* norm_weight, const hiera_tensor* norm_bias, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 8192 || x->sizes[1] != 1024) return 2;  // specialized for 8192x1024
    if (linear_weight->ndim != 2 || linear_weight->sizes[0] != 4096 || linear_weight->sizes[1] != 1024) return 2;  // specialized for 4096x1024
    if (linear_bias->ndim != 1 || linear_bias->sizes[0] != 4096) return 2;  // specialized for 4096
    if (norm_weight->ndim != 1 || norm_weight->sizes[0] != 4096) return 2;  // specialized for 4096
    if (norm_bias->ndim != 1 || norm_bias->sizes[0] != 4096) return 2;  // specialized for 4096
    if (out->ndim != 2 || out->sizes[0] != 8192 || out->sizes[1] != 4096) return 2;  // specialized for 8192x4096
    const float* p_x = (const float*)x->data;
    const float* p_linear_weight = (const float*)linear_weight->data;
    const float* p_linear_bias = (const float*)linear_bias->data;
    const float* p_norm_weight = (const float*)norm_weight->data;
    const float* p_norm_bias = (const float*)norm_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(33554432ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 8192x4096
    // tmp0 = x @ linear.weight + linear.bias (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0* p = hiera_lt_plan0(p_linear_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_linear_weight + 0, p->a, p_x + 0, p->b, &beta,
                           p_tmp0, p->c, p_tmp0, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS, hiera_s)
            != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_tmp0) && hiera_aligned16(p_norm_weight) && hiera_aligned16(p_norm_bias) && hiera_aligned16(p_out)) {
    hiera_stage1<<<8192, 512, 0, hiera_s>>>(p_tmp0, p_norm_weight, p_norm_bias, p_out);
    } else {
    hiera_stage1_scalar<<<8192, 512, 0, hiera_s>>>(p_tmp0, p_norm_weight, p_norm_bias, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '04_linear_layernorm' (frozen). Exposes forward() to Python over the C ABI.
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

std::vector<torch::Tensor> forward(torch::Tensor x, torch::Tensor linear_weight, torch::Tensor linear_bias, torch::Tensor norm_weight, torch::Tensor norm_bias) {
    auto x_c = x.contiguous();
    hiera_tensor x_v = hiera_view(x_c);
    auto linear_weight_c = linear_weight.contiguous();
    hiera_tensor linear_weight_v = hiera_view(linear_weight_c);
    auto linear_bias_c = linear_bias.contiguous();
    hiera_tensor linear_bias_v = hiera_view(linear_bias_c);
    auto norm_weight_c = norm_weight.contiguous();
    hiera_tensor norm_weight_v = hiera_view(norm_weight_c);
    auto norm_bias_c = norm_bias.contiguous();
    hiera_tensor norm_bias_v = hiera_view(norm_bias_c);
    auto out = torch::empty({8192, 4096}, x.options().dtype(torch::kFloat));
    hiera_tensor out_v = hiera_view(out);
#ifdef HIERA_WITH_CUDA
    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
    int rc = hiera_forward(&x_v, &linear_weight_v, &linear_bias_v, &norm_weight_v, &norm_bias_v, &out_v, stream);
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
            name="hiera_04_linear_layernorm_65848632",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=[],
            extra_ldflags=['-lcublasLt', '-lcublas'],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Linear projection 1024 -> 4096 followed by LayerNorm over the 4096 outputs; batch 8192."""
import torch
import torch.nn as nn

batch_size = 8192
in_features = 1024
out_features = 4096
eps = 1e-5


class Model(nn.Module):
    def __init__(self, in_features, out_features, eps):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.norm = nn.LayerNorm(out_features, eps=eps)
        with torch.no_grad():  # non-trivial affine parameters
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(out_features))
            self.norm.bias.copy_(0.1 * torch.randn(out_features))

    def forward(self, x):
        return self.norm(self.linear(x))


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, eps]



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
        outs = _extension().forward(inputs[0], state['linear.weight'], state['linear.bias'], state['norm.weight'], state['norm.bias'])
        out = outs[0]
        return out
