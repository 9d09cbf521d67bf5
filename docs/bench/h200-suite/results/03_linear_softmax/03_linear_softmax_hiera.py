"""ModelNew for task '03_linear_softmax', exported by hiera. 1.03x over eager on cuda:0 (NVIDIA H200); kernel copy: 03_linear_softmax_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

_HEADER = r"""
// hiera contract for task '03_linear_softmax' (frozen: do not edit; generated from the task).
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
 *   x                input     float32[4096x2048] contiguous
 *   linear_weight    parameter float32[8192x2048] contiguous  'linear.weight'
 *   linear_bias      parameter float32[8192] contiguous  'linear.bias'
 *   out              output    float32[4096x8192] contiguous, allocated by the caller
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
// hiera expert candidate for '03_linear_softmax'
// strategy: T.cublas_sgemm
// variant: cuBLASLt algo #1 + bias epilogue; threads/row auto x2, vec 4, registers
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = x @ linear.weight + linear.bias (4096x8192x2048)
//   stage 1: row reduction over 4096x8192: out = (exp((tmp0 - max_row(tmp0))) / sum_row(exp((tmp0 - max_row(tmp0)))))
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


// Product 0: tmp0 = x @ linear.weight (M=4096 N=8192 K=2048),
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
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 2048, 8192, 2048);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 2048, 4096, 2048);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 8192, 4096, 8192);

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

// out = (exp((tmp0 - max_row(tmp0))) / sum_row(exp((tmp0 - max_row(tmp0)))))
// 4096 rows of 8192: 1024 thread(s) per row, 1 row(s) per block, 2 vector(s) of 4 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(1024) hiera_stage1(const float* __restrict__ p_tmp0, float* __restrict__ p_out) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 8192;
    float4 c0[2];
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const idx_t col = (idx_t)(lane + j * 1024) * 4;
        c0[j] = *reinterpret_cast<const float4*>(&p_tmp0[rb0 + col]);
    }
    float acc0_0 = (-INFINITY);
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const float e0_0 = c0[j].x;
        const float e1_0 = c0[j].y;
        const float e2_0 = c0[j].z;
        const float e3_0 = c0[j].w;
        acc0_0 = fmaxf(acc0_0, e0_0);
        acc0_0 = fmaxf(acc0_0, e1_0);
        acc0_0 = fmaxf(acc0_0, e2_0);
        acc0_0 = fmaxf(acc0_0, e3_0);
    }
    const float red0_0 = hiera_block_max<32>(acc0_0, smem);  // max over the row
    float acc1_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 2; ++j) {
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
    const float red1_0 = hiera_block_sum<32>(acc1_0, smem);  // sum over the row
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const idx_t col = (idx_t)(lane + j * 1024) * 4;
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

// out = (exp((tmp0 - max_row(tmp0))) / sum_row(exp((tmp0 - max_row(tmp0)))))
// 4096 rows of 8192: 1024 thread(s) per row, 1 row(s) per block, 8 vector(s) of 1 per thread; 2 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(1024) hiera_stage1_scalar(const float* __restrict__ p_tmp0, float* __restrict__ p_out) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 8192;
    float c0[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const idx_t col = (idx_t)(lane + j * 1024) * 1;
        c0[j] = p_tmp0[rb0 + col];
    }
    float acc0_0 = (-INFINITY);
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const float e0_0 = c0[j];
        acc0_0 = fmaxf(acc0_0, e0_0);
    }
    const float red0_0 = hiera_block_max<32>(acc0_0, smem);  // max over the row
    float acc1_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 - red0_0);
        const float e0_2 = expf(e0_1);
        acc1_0 = acc1_0 + e0_2;
    }
    const float red1_0 = hiera_block_sum<32>(acc1_0, smem);  // sum over the row
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const idx_t col = (idx_t)(lane + j * 1024) * 1;
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 - red0_0);
        const float e0_2 = expf(e0_1);
        const float e0_3 = (e0_2 / red1_0);
        p_out[r * 8192 + col] = e0_3;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* linear_weight, const hiera_tensor* linear_bias, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 4096 || x->sizes[1] != 2048) return 2;  // specialized for 4096x2048
    if (linear_weight->ndim != 2 || linear_weight->sizes[0] != 8192 || linear_weight->sizes[1] != 2048) return 2;  // specialized for 8192x2048
    if (linear_bias->ndim != 1 || linear_bias->sizes[0] != 8192) return 2;  // specialized for 8192
    if (out->ndim != 2 || out->sizes[0] != 4096 || out->sizes[1] != 8192) return 2;  // specialized for 4096x8192
    const float* p_x = (const float*)x->data;
    const float* p_linear_weight = (const float*)linear_weight->data;
    const float* p_linear_bias = (const float*)linear_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(33554432ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 4096x8192
    // tmp0 = x @ linear.weight + linear.bias (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0* p = hiera_lt_plan0(p_linear_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_linear_weight + 0, p->a, p_x + 0, p->b, &beta,
                           p_tmp0, p->c, p_tmp0, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS, hiera_s)
            != CUBLAS_STATUS_SUCCESS) return 5;
    }
    if (hiera_aligned16(p_tmp0) && hiera_aligned16(p_out)) {
    hiera_stage1<<<4096, 1024, 0, hiera_s>>>(p_tmp0, p_out);
    } else {
    hiera_stage1_scalar<<<4096, 1024, 0, hiera_s>>>(p_tmp0, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '03_linear_softmax' (frozen). Exposes forward() to Python over the C ABI.
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
    auto out = torch::empty({4096, 8192}, x.options().dtype(torch::kFloat));
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
            name="hiera_03_linear_softmax_45264148",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=[],
            extra_ldflags=['-lcublasLt', '-lcublas'],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Linear projection 2048 -> 8192 followed by a softmax over each output row; batch 4096."""
import torch
import torch.nn as nn

batch_size = 4096
in_features = 2048
out_features = 8192


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.softmax(self.linear(x), dim=1)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]



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
