"""ModelNew for task '06_cnn_classifier', exported by hiera. 1.33x over eager on cuda:0 (NVIDIA H200); kernel copy: 06_cnn_classifier_hiera.cu.

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.
"""

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline
import os
import sys
from pathlib import Path


def find_cudnn():
    """(include folder, library folder, linker -l name) for cuDNN, or None when no cudnn.h is found.

    cuDNN does not come with the CUDA toolkit. Looked for in CUDNN_HOME (or CUDNN_PATH), then the
    nvidia-cudnn wheel PyTorch itself depends on (site-packages/nvidia/cudnn), then /usr and
    /usr/local/cuda. The wheel has only the versioned libcudnn.so.N, so that file is named to the linker
    (":libcudnn.so.9"); its folder goes into the rpath so the built module loads without LD_LIBRARY_PATH.
    The library folder is None when only the header was found (link with plain -lcudnn).
    """
    roots = [Path(os.environ[v]) for v in ("CUDNN_HOME", "CUDNN_PATH") if os.environ.get(v)]
    roots += [Path(p) / "nvidia" / "cudnn" for p in sys.path if p]
    roots += [Path("/usr"), Path("/usr/local/cuda")]
    for root in roots:
        if not (root / "include" / "cudnn.h").exists():
            continue
        for libdir in (root / "lib", root / "lib64", root / "lib" / "x86_64-linux-gnu"):
            libs = sorted(libdir.glob("libcudnn.so*")) if libdir.is_dir() else []
            if libs:
                plain = libdir / "libcudnn.so"
                return str(root / "include"), str(libdir), "cudnn" if plain in libs else ":" + libs[0].name
        return str(root / "include"), None, "cudnn"
    return None


def _cudnn_build_flags():
    """([include folder], linker flags) for cuDNN on this machine; a clear error when it is missing."""
    found = find_cudnn()
    if found is None:
        raise ImportError("this kernel calls cuDNN, and no cudnn.h was found: install the nvidia-cudnn wheel "
                          "that matches your PyTorch, or set CUDNN_HOME to a cuDNN folder with include/ and lib/")
    include, libdir, lib = found
    return [include], ([f"-L{libdir}", f"-l{lib}", f"-Wl,-rpath,{libdir}"] if libdir else ["-lcudnn"])

_HEADER = r"""
// hiera contract for task '06_cnn_classifier' (frozen: do not edit; generated from the task).
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
 *   x                input     float32[128x3x224x224] contiguous
 *   conv_weight      parameter float32[64x3x7x7] contiguous  'conv.weight'
 *   conv_bias        parameter float32[64] contiguous  'conv.bias'
 *   fc_weight        parameter float32[1000x64] contiguous  'fc.weight'
 *   fc_bias          parameter float32[1000] contiguous  'fc.bias'
 *   out              output    float32[128x1000] contiguous, allocated by the caller
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
    const hiera_tensor* conv_weight,
    const hiera_tensor* conv_bias,
    const hiera_tensor* fc_weight,
    const hiera_tensor* fc_bias,
    hiera_tensor* out,
    void* stream);

"""

_KERNEL = r"""
// hiera expert candidate for '06_cnn_classifier'
// strategy: T.cudnn_algos
// variant: cuDNN algorithm implicit_precomp_gemm; cuBLASLt algo #0 + bias epilogue; threads/row auto, vec 4, registers
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = conv2d(x, conv.weight) (cuDNN; 128x3x224x224 -> 128x64x112x112, kernel 7x7)
//   stage 1: row reduction over 128x64x12544: tmp1 = (sum_row(relu((tmp0 + conv.bias))) / 12544)
//   stage 2: out = tmp1 @ fc.weight + fc.bias (128x1000x64)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
// (contract header inlined above)
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cudnn.h>

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


#include <mutex>

// One cuDNN handle for the life of the library; set to the caller's stream on every call.
static cudnnHandle_t hiera_cudnn(cudaStream_t s) {
    static cudnnHandle_t h = nullptr;
    if (h == nullptr && cudnnCreate(&h) != CUDNN_STATUS_SUCCESS) {
        h = nullptr;
        return nullptr;
    }
    if (cudnnSetStream(h, s) != CUDNN_STATUS_SUCCESS) return nullptr;
    return h;
}
#define HIERA_DNN(call) do { if ((call) != CUDNN_STATUS_SUCCESS) return nullptr; } while (0)


// Convolution 0: tmp0 = conv2d(x, conv.weight): N=128 C=3 224x224 -> K=64 112x112,
// kernel 7x7, stride 2x2, padding 3x3, dilation 1x1, groups 1; cuDNN algorithm implicit_precomp_gemm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan0 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release0(HieraConvPlan0& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan0();
}
static HieraConvPlan0* hiera_conv_setup0(cudnnHandle_t h, HieraConvPlan0& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 128, 3, 224, 224));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 64, 3, 7, 7));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 3, 3, 2, 2, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 128 || ok != 64 || oh != 112 || ow != 112) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 128, 64, 112, 112));
    p.algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
    HIERA_DNN(cudnnGetConvolutionForwardWorkspaceSize(h, p.x, p.w, p.conv, p.y, p.algo, &p.ws_bytes));
    if (p.ws_bytes > 0 && cudaMalloc(&p.ws, p.ws_bytes) != cudaSuccess) return nullptr;
    return &p;
}
// Set up on the first call that succeeds: a failed setup (out of memory during cuDNN's timing, say) frees
// what it made and is tried again on the next call instead of failing every call after it.
static HieraConvPlan0* hiera_conv_plan0(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan0 p;
    static HieraConvPlan0* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup0(h, p);
        if (ready == nullptr) hiera_conv_release0(p);
    }
    return ready;
}


// Product 2: out = tmp1 @ fc.weight (M=128 N=1000 K=64),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
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
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 64, 1000, 64);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 64, 128, 64);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1000, 128, 1000);

        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[0 < found ? 0 : 0].algo;
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

// tmp1 = (sum_row(relu((tmp0 + conv.bias))) / 12544)
// 8192 rows of 12544: 1024 thread(s) per row, 1 row(s) per block, 4 vector(s) of 4 per thread; 1 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(1024) hiera_stage1(const float* __restrict__ p_tmp0, const float* __restrict__ p_conv_bias, float* __restrict__ p_tmp1) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 12544;
    const idx_t rb1 = r % 64;
    float4 c0[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const idx_t col = (idx_t)(lane + j * 1024) * 4;
        c0[j] = col < 12544 ? *reinterpret_cast<const float4*>(&p_tmp0[rb0 + col]) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    const float h0_0 = p_conv_bias[rb1];
    float acc0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const idx_t col = (idx_t)(lane + j * 1024) * 4;
        if (col < 12544) {
            const float e0_0 = c0[j].x;
            const float e0_1 = (e0_0 + h0_0);
            const float e0_2 = (e0_1 > 0.0f ? e0_1 : 0.0f);
            const float e1_0 = c0[j].y;
            const float e1_1 = (e1_0 + h0_0);
            const float e1_2 = (e1_1 > 0.0f ? e1_1 : 0.0f);
            const float e2_0 = c0[j].z;
            const float e2_1 = (e2_0 + h0_0);
            const float e2_2 = (e2_1 > 0.0f ? e2_1 : 0.0f);
            const float e3_0 = c0[j].w;
            const float e3_1 = (e3_0 + h0_0);
            const float e3_2 = (e3_1 > 0.0f ? e3_1 : 0.0f);
            acc0_0 = acc0_0 + e0_2;
            acc0_0 = acc0_0 + e1_2;
            acc0_0 = acc0_0 + e2_2;
            acc0_0 = acc0_0 + e3_2;
        }
    }
    const float red0_0 = hiera_block_sum<32>(acc0_0, smem);  // sum over the row
    const float h1_0 = (red0_0 / 12544.0f);
    if (lane == 0) {
        p_tmp1[r] = h1_0;
    }
}

// tmp1 = (sum_row(relu((tmp0 + conv.bias))) / 12544)
// 8192 rows of 12544: 1024 thread(s) per row, 1 row(s) per block, 13 vector(s) of 1 per thread; 1 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(1024) hiera_stage1_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_conv_bias, float* __restrict__ p_tmp1) {
    __shared__ float smem[32];
    const int lane = threadIdx.x;
    const idx_t r = (idx_t)blockIdx.x;
    const idx_t rb0 = (r) * 12544;
    const idx_t rb1 = r % 64;
    float c0[13];
#pragma unroll
    for (int j = 0; j < 13; ++j) {
        const idx_t col = (idx_t)(lane + j * 1024) * 1;
        c0[j] = (col) < 12544 ? p_tmp0[rb0 + col] : 0.0f;
    }
    const float h0_0 = p_conv_bias[rb1];
    float acc0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 13; ++j) {
        const idx_t col = (idx_t)(lane + j * 1024) * 1;
        if (col < 12544) {
            const float e0_0 = c0[j];
            const float e0_1 = (e0_0 + h0_0);
            const float e0_2 = (e0_1 > 0.0f ? e0_1 : 0.0f);
            acc0_0 = acc0_0 + e0_2;
        }
    }
    const float red0_0 = hiera_block_sum<32>(acc0_0, smem);  // sum over the row
    const float h1_0 = (red0_0 / 12544.0f);
    if (lane == 0) {
        p_tmp1[r] = h1_0;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* conv_weight, const hiera_tensor* conv_bias, const hiera_tensor* fc_weight, const hiera_tensor* fc_bias, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 4 || x->sizes[0] != 128 || x->sizes[1] != 3 || x->sizes[2] != 224 || x->sizes[3] != 224) return 2;  // specialized for 128x3x224x224
    if (conv_weight->ndim != 4 || conv_weight->sizes[0] != 64 || conv_weight->sizes[1] != 3 || conv_weight->sizes[2] != 7 || conv_weight->sizes[3] != 7) return 2;  // specialized for 64x3x7x7
    if (conv_bias->ndim != 1 || conv_bias->sizes[0] != 64) return 2;  // specialized for 64
    if (fc_weight->ndim != 2 || fc_weight->sizes[0] != 1000 || fc_weight->sizes[1] != 64) return 2;  // specialized for 1000x64
    if (fc_bias->ndim != 1 || fc_bias->sizes[0] != 1000) return 2;  // specialized for 1000
    if (out->ndim != 2 || out->sizes[0] != 128 || out->sizes[1] != 1000) return 2;  // specialized for 128x1000
    const float* p_x = (const float*)x->data;
    const float* p_conv_weight = (const float*)conv_weight->data;
    const float* p_conv_bias = (const float*)conv_bias->data;
    const float* p_fc_weight = (const float*)fc_weight->data;
    const float* p_fc_bias = (const float*)fc_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(102768640ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 128x64x112x112
    float* p_tmp1 = hiera_ws + 102760448;  // 128x64x1
    cudnnHandle_t hiera_dnn = hiera_cudnn(hiera_s);
    if (hiera_dnn == nullptr) return 6;
    {  // convolution 0 (cuDNN)
        HieraConvPlan0* cp = hiera_conv_plan0(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_x, cp->w, p_conv_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp0) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp0)) {
    hiera_stage1<<<8192, 1024, 0, hiera_s>>>(p_tmp0, p_conv_bias, p_tmp1);
    } else {
    hiera_stage1_scalar<<<8192, 1024, 0, hiera_s>>>(p_tmp0, p_conv_bias, p_tmp1);
    }
    // out = tmp1 @ fc.weight + fc.bias (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan2* p = hiera_lt_plan2(p_fc_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_fc_weight + 0, p->a, p_tmp1 + 0, p->b, &beta,
                           p_out, p->c, p_out, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS, hiera_s)
            != CUBLAS_STATUS_SUCCESS) return 5;
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '06_cnn_classifier' (frozen). Exposes forward() to Python over the C ABI.
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

std::vector<torch::Tensor> forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias, torch::Tensor fc_weight, torch::Tensor fc_bias) {
    auto x_c = x.contiguous();
    hiera_tensor x_v = hiera_view(x_c);
    auto conv_weight_c = conv_weight.contiguous();
    hiera_tensor conv_weight_v = hiera_view(conv_weight_c);
    auto conv_bias_c = conv_bias.contiguous();
    hiera_tensor conv_bias_v = hiera_view(conv_bias_c);
    auto fc_weight_c = fc_weight.contiguous();
    hiera_tensor fc_weight_v = hiera_view(fc_weight_c);
    auto fc_bias_c = fc_bias.contiguous();
    hiera_tensor fc_bias_v = hiera_view(fc_bias_c);
    auto out = torch::empty({128, 1000}, x.options().dtype(torch::kFloat));
    hiera_tensor out_v = hiera_view(out);
#ifdef HIERA_WITH_CUDA
    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
    int rc = hiera_forward(&x_v, &conv_weight_v, &conv_bias_v, &fc_weight_v, &fc_bias_v, &out_v, stream);
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
            name="hiera_06_cnn_classifier_40104598",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=_cudnn_build_flags()[0],
            extra_ldflags=['-lcublasLt', '-lcublas'] + _cudnn_build_flags()[1],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""Tiny CNN classifier: conv 7x7/2 (3 -> 64), ReLU, global average pool, Linear 64 -> 1000; 128 x 3 x 224 x 224."""
import torch
import torch.nn as nn

batch_size = 128
in_channels = 3
height = 224
width = 224
conv_channels = 64
num_classes = 1000


class Model(nn.Module):
    def __init__(self, in_channels, conv_channels, num_classes):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, conv_channels, kernel_size=7, stride=2, padding=3)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(conv_channels, num_classes)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        x = torch.flatten(self.pool(x), 1)
        return self.fc(x)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, conv_channels, num_classes]



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
        outs = _extension().forward(inputs[0], state['conv.weight'], state['conv.bias'], state['fc.weight'], state['fc.bias'])
        out = outs[0]
        return out
