"""ModelNew for task '01_mlp', exported by hiera. 1.02x over eager on cuda:0 (NVIDIA H200); kernel copy: 01_mlp_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

_HEADER = r"""
// hiera contract for task '01_mlp' (frozen: do not edit; generated from the task).
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
 *   x                input     float32[1024x4096] contiguous
 *   fc1_weight       parameter float32[4096x4096] contiguous  'fc1.weight'
 *   fc1_bias         parameter float32[4096] contiguous  'fc1.bias'
 *   fc2_weight       parameter float32[4096x4096] contiguous  'fc2.weight'
 *   fc2_bias         parameter float32[4096] contiguous  'fc2.bias'
 *   fc3_weight       parameter float32[4096x4096] contiguous  'fc3.weight'
 *   fc3_bias         parameter float32[4096] contiguous  'fc3.bias'
 *   fc4_weight       parameter float32[1000x4096] contiguous  'fc4.weight'
 *   fc4_bias         parameter float32[1000] contiguous  'fc4.bias'
 *   out              output    float32[1024x1000] contiguous, allocated by the caller
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
    const hiera_tensor* fc1_weight,
    const hiera_tensor* fc1_bias,
    const hiera_tensor* fc2_weight,
    const hiera_tensor* fc2_bias,
    const hiera_tensor* fc3_weight,
    const hiera_tensor* fc3_bias,
    const hiera_tensor* fc4_weight,
    const hiera_tensor* fc4_bias,
    hiera_tensor* out,
    void* stream);

"""

_KERNEL = r"""
// hiera expert candidate for '01_mlp'
// strategy: T.fast_math
// variant: cuBLASLt algo #2 + bias epilogue
// precision: strict fp32 (no TF32)
//   stage 0: tmp1 = x @ fc1.weight + fc1.bias -> relu (1024x4096x4096)
//   stage 1: tmp3 = tmp1 @ fc2.weight + fc2.bias -> relu (1024x4096x4096)
//   stage 2: tmp5 = tmp3 @ fc3.weight + fc3.bias -> relu (1024x4096x4096)
//   stage 3: out = tmp5 @ fc4.weight + fc4.bias (1024x1000x4096)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
// (contract header inlined above)
#include <cublas_v2.h>
#include <cublasLt.h>

typedef unsigned int idx_t;  // every index of this task fits

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


// Product 0: tmp1 = x @ fc1.weight (M=1024 N=4096 K=4096),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
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
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 4096, 4096, 4096);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 4096, 1024, 4096);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 4096, 1024, 4096);

        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[2 < found ? 2 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}


// Product 1: tmp3 = tmp1 @ fc2.weight (M=1024 N=4096 K=4096),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan1 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan1* hiera_lt_plan1(const void* bias) {
    static HieraLtPlan1 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 4096, 4096, 4096);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 4096, 1024, 4096);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 4096, 1024, 4096);

        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[2 < found ? 2 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}


// Product 2: tmp5 = tmp3 @ fc3.weight (M=1024 N=4096 K=4096),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan2 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan2* hiera_lt_plan2(const void* bias) {
    static HieraLtPlan2 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 4096, 4096, 4096);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 4096, 1024, 4096);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 4096, 1024, 4096);

        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[2 < found ? 2 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}


// Product 3: out = tmp5 @ fc4.weight (M=1024 N=1000 K=4096),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan3 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan3* hiera_lt_plan3(const void* bias) {
    static HieraLtPlan3 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 4096, 1000, 4096);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 4096, 1024, 4096);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1000, 1024, 1000);

        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[2 < found ? 2 : 0].algo;
        p.ok = true;
    }
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* fc1_weight, const hiera_tensor* fc1_bias, const hiera_tensor* fc2_weight, const hiera_tensor* fc2_bias, const hiera_tensor* fc3_weight, const hiera_tensor* fc3_bias, const hiera_tensor* fc4_weight, const hiera_tensor* fc4_bias, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 2 || x->sizes[0] != 1024 || x->sizes[1] != 4096) return 2;  // specialized for 1024x4096
    if (fc1_weight->ndim != 2 || fc1_weight->sizes[0] != 4096 || fc1_weight->sizes[1] != 4096) return 2;  // specialized for 4096x4096
    if (fc1_bias->ndim != 1 || fc1_bias->sizes[0] != 4096) return 2;  // specialized for 4096
    if (fc2_weight->ndim != 2 || fc2_weight->sizes[0] != 4096 || fc2_weight->sizes[1] != 4096) return 2;  // specialized for 4096x4096
    if (fc2_bias->ndim != 1 || fc2_bias->sizes[0] != 4096) return 2;  // specialized for 4096
    if (fc3_weight->ndim != 2 || fc3_weight->sizes[0] != 4096 || fc3_weight->sizes[1] != 4096) return 2;  // specialized for 4096x4096
    if (fc3_bias->ndim != 1 || fc3_bias->sizes[0] != 4096) return 2;  // specialized for 4096
    if (fc4_weight->ndim != 2 || fc4_weight->sizes[0] != 1000 || fc4_weight->sizes[1] != 4096) return 2;  // specialized for 1000x4096
    if (fc4_bias->ndim != 1 || fc4_bias->sizes[0] != 1000) return 2;  // specialized for 1000
    if (out->ndim != 2 || out->sizes[0] != 1024 || out->sizes[1] != 1000) return 2;  // specialized for 1024x1000
    const float* p_x = (const float*)x->data;
    const float* p_fc1_weight = (const float*)fc1_weight->data;
    const float* p_fc1_bias = (const float*)fc1_bias->data;
    const float* p_fc2_weight = (const float*)fc2_weight->data;
    const float* p_fc2_bias = (const float*)fc2_bias->data;
    const float* p_fc3_weight = (const float*)fc3_weight->data;
    const float* p_fc3_bias = (const float*)fc3_bias->data;
    const float* p_fc4_weight = (const float*)fc4_weight->data;
    const float* p_fc4_bias = (const float*)fc4_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(12582912ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp1 = hiera_ws + 0;  // 1024x4096
    float* p_tmp3 = hiera_ws + 4194304;  // 1024x4096
    float* p_tmp5 = hiera_ws + 8388608;  // 1024x4096
    // tmp1 = x @ fc1.weight + fc1.bias then ReLU (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan0* p = hiera_lt_plan0(p_fc1_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_fc1_weight + 0, p->a, p_x + 0, p->b, &beta,
                           p_tmp1, p->c, p_tmp1, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS, hiera_s)
            != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // tmp3 = tmp1 @ fc2.weight + fc2.bias then ReLU (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan1* p = hiera_lt_plan1(p_fc2_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_fc2_weight + 0, p->a, p_tmp1 + 0, p->b, &beta,
                           p_tmp3, p->c, p_tmp3, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS, hiera_s)
            != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // tmp5 = tmp3 @ fc3.weight + fc3.bias then ReLU (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan2* p = hiera_lt_plan2(p_fc3_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_fc3_weight + 0, p->a, p_tmp3 + 0, p->b, &beta,
                           p_tmp5, p->c, p_tmp5, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS, hiera_s)
            != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // out = tmp5 @ fc4.weight + fc4.bias (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan3* p = hiera_lt_plan3(p_fc4_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_fc4_weight + 0, p->a, p_tmp5 + 0, p->b, &beta,
                           p_out, p->c, p_out, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS, hiera_s)
            != CUBLAS_STATUS_SUCCESS) return 5;
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '01_mlp' (frozen). Exposes forward() to Python over the C ABI.
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

std::vector<torch::Tensor> forward(torch::Tensor x, torch::Tensor fc1_weight, torch::Tensor fc1_bias, torch::Tensor fc2_weight, torch::Tensor fc2_bias, torch::Tensor fc3_weight, torch::Tensor fc3_bias, torch::Tensor fc4_weight, torch::Tensor fc4_bias) {
    auto x_c = x.contiguous();
    hiera_tensor x_v = hiera_view(x_c);
    auto fc1_weight_c = fc1_weight.contiguous();
    hiera_tensor fc1_weight_v = hiera_view(fc1_weight_c);
    auto fc1_bias_c = fc1_bias.contiguous();
    hiera_tensor fc1_bias_v = hiera_view(fc1_bias_c);
    auto fc2_weight_c = fc2_weight.contiguous();
    hiera_tensor fc2_weight_v = hiera_view(fc2_weight_c);
    auto fc2_bias_c = fc2_bias.contiguous();
    hiera_tensor fc2_bias_v = hiera_view(fc2_bias_c);
    auto fc3_weight_c = fc3_weight.contiguous();
    hiera_tensor fc3_weight_v = hiera_view(fc3_weight_c);
    auto fc3_bias_c = fc3_bias.contiguous();
    hiera_tensor fc3_bias_v = hiera_view(fc3_bias_c);
    auto fc4_weight_c = fc4_weight.contiguous();
    hiera_tensor fc4_weight_v = hiera_view(fc4_weight_c);
    auto fc4_bias_c = fc4_bias.contiguous();
    hiera_tensor fc4_bias_v = hiera_view(fc4_bias_c);
    auto out = torch::empty({1024, 1000}, x.options().dtype(torch::kFloat));
    hiera_tensor out_v = hiera_view(out);
#ifdef HIERA_WITH_CUDA
    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
    int rc = hiera_forward(&x_v, &fc1_weight_v, &fc1_bias_v, &fc2_weight_v, &fc2_bias_v, &fc3_weight_v, &fc3_bias_v, &fc4_weight_v, &fc4_bias_v, &out_v, stream);
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
            name="hiera_01_mlp_2054381",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=[],
            extra_ldflags=['-lcublasLt', '-lcublas'],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Four-layer MLP classifier: 4096 -> 4096 -> 4096 -> 4096 -> 1000 with ReLU between layers; batch 1024."""
import torch
import torch.nn as nn

batch_size = 1024
input_size = 4096
hidden_size = 4096
num_classes = 1000


class Model(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super().__init__()
        self.fc1 = nn.Linear(input_size, hidden_size)
        self.fc2 = nn.Linear(hidden_size, hidden_size)
        self.fc3 = nn.Linear(hidden_size, hidden_size)
        self.fc4 = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        x = torch.relu(self.fc3(x))
        return self.fc4(x)


def get_inputs():
    return [torch.randn(batch_size, input_size)]


def get_init_inputs():
    return [input_size, hidden_size, num_classes]



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
        outs = _extension().forward(inputs[0], state['fc1.weight'], state['fc1.bias'], state['fc2.weight'], state['fc2.bias'], state['fc3.weight'], state['fc3.bias'], state['fc4.weight'], state['fc4.bias'])
        out = outs[0]
        return out
