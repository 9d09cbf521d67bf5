"""ModelNew for task '03_gemm_transposed_b', exported by hiera. 1.00x over eager on cuda:0 (NVIDIA H200); kernel copy: 03_gemm_transposed_b_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

_HEADER = r"""
// hiera contract for task '03_gemm_transposed_b' (frozen: do not edit; generated from the task).
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
 *   A                input     float32[8192x4096] contiguous
 *   B                input     float32[2048x4096] contiguous
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
    const hiera_tensor* A,
    const hiera_tensor* B,
    hiera_tensor* out,
    void* stream);

"""

_KERNEL = r"""
// hiera expert candidate for '03_gemm_transposed_b'
// strategy: T.cublas_sgemm
// variant: cuBLASLt algo #1 + bias epilogue
// precision: strict fp32 (no TF32)
//   stage 0: out = A @ B (8192x2048x4096)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
// (contract header inlined above)
#include <cublas_v2.h>
#include <cublasLt.h>

typedef unsigned int idx_t;  // every index of this task fits

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


// Product 0: out = A @ B (M=8192 N=2048 K=4096),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_DEFAULT. Descriptors and the algorithm are chosen once (shapes are fixed).
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
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 4096, 2048, 4096);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 4096, 8192, 4096);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 2048, 8192, 2048);

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

extern "C" int hiera_forward(const hiera_tensor* A, const hiera_tensor* B, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (A->ndim != 2 || A->sizes[0] != 8192 || A->sizes[1] != 4096) return 2;  // specialized for 8192x4096
    if (B->ndim != 2 || B->sizes[0] != 2048 || B->sizes[1] != 4096) return 2;  // specialized for 2048x4096
    if (out->ndim != 2 || out->sizes[0] != 8192 || out->sizes[1] != 2048) return 2;  // specialized for 8192x2048
    const float* p_A = (const float*)A->data;
    const float* p_B = (const float*)B->data;
    float* p_out = (float*)out->data;
    // out = A @ B (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0* p = hiera_lt_plan0(nullptr);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_B + 0, p->a, p_A + 0, p->b, &beta,
                           p_out, p->c, p_out, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS, hiera_s)
            != CUBLAS_STATUS_SUCCESS) return 5;
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '03_gemm_transposed_b' (frozen). Exposes forward() to Python over the C ABI.
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

std::vector<torch::Tensor> forward(torch::Tensor A, torch::Tensor B) {
    auto A_c = A.contiguous();
    hiera_tensor A_v = hiera_view(A_c);
    auto B_c = B.contiguous();
    hiera_tensor B_v = hiera_view(B_c);
    auto out = torch::empty({8192, 2048}, A.options().dtype(torch::kFloat));
    hiera_tensor out_v = hiera_view(out);
#ifdef HIERA_WITH_CUDA
    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
    int rc = hiera_forward(&A_v, &B_v, &out_v, stream);
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
            name="hiera_03_gemm_transposed_b_65241076",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=[],
            extra_ldflags=['-lcublasLt', '-lcublas'],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Matrix product with a transposed right operand, C = A @ B^T, A: 8192x4096, B: 2048x4096."""
import torch
import torch.nn as nn

M = 8192
K = 4096
N = 2048


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B.t())


def get_inputs():
    A = torch.randn(M, K)
    B = torch.randn(N, K)
    return [A, B]


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
        outs = _extension().forward(inputs[0], inputs[1])
        out = outs[0]
        return out
