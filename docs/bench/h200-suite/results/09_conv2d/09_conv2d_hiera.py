"""ModelNew for task '09_conv2d', exported by hiera. 1.90x over eager on cuda:0 (NVIDIA H200); kernel copy: 09_conv2d_hiera.cu.

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
// hiera contract for task '09_conv2d' (frozen: do not edit; generated from the task).
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
 *   x                input     float32[128x64x112x112] contiguous
 *   conv_weight      parameter float32[128x64x3x3] contiguous  'conv.weight'
 *   conv_bias        parameter float32[128] contiguous  'conv.bias'
 *   out              output    float32[128x128x112x112] contiguous, allocated by the caller
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
    hiera_tensor* out,
    void* stream);

"""

_KERNEL = r"""
// hiera expert candidate for '09_conv2d'
// strategy: T.cudnn_algos
// variant: cuDNN fastest measured algorithm; block 128, vec 4, ilp 1
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = conv2d(x, conv.weight) (cuDNN; 128x64x112x112 -> 128x128x112x112, kernel 3x3)
//   stage 1: fused pointwise over 128x128x112x112: out = (tmp0 + conv.bias)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
// (contract header inlined above)
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


// Convolution 0: tmp0 = conv2d(x, conv.weight): N=128 C=64 112x112 -> K=128 112x112,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
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
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 128, 64, 112, 112));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 128, 64, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 128 || ok != 128 || oh != 112 || ow != 112) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 128, 128, 112, 112));
    // Candidates in timed by cuDNN, fastest first; the first that ran and uses an allowed math type.
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int got = 0;
    HIERA_DNN(cudnnFindConvolutionForwardAlgorithm(h, p.x, p.w, p.conv, p.y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf));
    int pick = -1;
    for (int i = 0; i < got && pick < 0; ++i)
        if (perf[i].status == CUDNN_STATUS_SUCCESS && (perf[i].mathType == CUDNN_FMA_MATH)) pick = i;
    if (pick < 0) return nullptr;
    p.algo = perf[pick].algo;
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, perf[pick].mathType));
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

// out = (tmp0 + conv.bias)
// 205520896 elements as 51380224 vectors of 4; 128 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage1(const float* __restrict__ p_tmp0, const float* __restrict__ p_conv_bias, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 128;
    for (idx_t v0 = (idx_t)blockIdx.x * 128 + threadIdx.x; v0 < 51380224; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp0 + i);
        const float U1 = p_conv_bias[(i / 12544) % 128];
        const float t0_0 = L0.x;
        const float t0_1 = U1;
        const float t0_2 = (t0_0 + t0_1);
        const float t1_0 = L0.y;
        const float t1_1 = U1;
        const float t1_2 = (t1_0 + t1_1);
        const float t2_0 = L0.z;
        const float t2_1 = U1;
        const float t2_2 = (t2_0 + t2_1);
        const float t3_0 = L0.w;
        const float t3_1 = U1;
        const float t3_2 = (t3_0 + t3_1);
        *reinterpret_cast<float4*>(p_out + i) = make_float4(t0_2, t1_2, t2_2, t3_2);
    }
}

// out = (tmp0 + conv.bias)
// 205520896 elements as 205520896 vectors of 1; 128 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage1_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_conv_bias, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 128;
    for (idx_t v0 = (idx_t)blockIdx.x * 128 + threadIdx.x; v0 < 205520896; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp0[i];
        const float t1 = p_conv_bias[(i / 12544) % 128];
        const float t2 = (t0 + t1);
        p_out[i] = t2;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* conv_weight, const hiera_tensor* conv_bias, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 4 || x->sizes[0] != 128 || x->sizes[1] != 64 || x->sizes[2] != 112 || x->sizes[3] != 112) return 2;  // specialized for 128x64x112x112
    if (conv_weight->ndim != 4 || conv_weight->sizes[0] != 128 || conv_weight->sizes[1] != 64 || conv_weight->sizes[2] != 3 || conv_weight->sizes[3] != 3) return 2;  // specialized for 128x64x3x3
    if (conv_bias->ndim != 1 || conv_bias->sizes[0] != 128) return 2;  // specialized for 128
    if (out->ndim != 4 || out->sizes[0] != 128 || out->sizes[1] != 128 || out->sizes[2] != 112 || out->sizes[3] != 112) return 2;  // specialized for 128x128x112x112
    const float* p_x = (const float*)x->data;
    const float* p_conv_weight = (const float*)conv_weight->data;
    const float* p_conv_bias = (const float*)conv_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(205520896ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 128x128x112x112
    cudnnHandle_t hiera_dnn = hiera_cudnn(hiera_s);
    if (hiera_dnn == nullptr) return 6;
    {  // convolution 0 (cuDNN)
        HieraConvPlan0* cp = hiera_conv_plan0(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_x, cp->w, p_conv_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp0) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_out) && hiera_aligned16(p_tmp0)) {
        hiera_stage1<<<401408, 128, 0, hiera_s>>>(p_tmp0, p_conv_bias, p_out);
    } else {
        hiera_stage1_scalar<<<1605632, 128, 0, hiera_s>>>(p_tmp0, p_conv_bias, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}

"""

_BINDING = r"""
// hiera binding for task '09_conv2d' (frozen). Exposes forward() to Python over the C ABI.
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

std::vector<torch::Tensor> forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
    auto x_c = x.contiguous();
    hiera_tensor x_v = hiera_view(x_c);
    auto conv_weight_c = conv_weight.contiguous();
    hiera_tensor conv_weight_v = hiera_view(conv_weight_c);
    auto conv_bias_c = conv_bias.contiguous();
    hiera_tensor conv_bias_v = hiera_view(conv_bias_c);
    auto out = torch::empty({128, 128, 112, 112}, x.options().dtype(torch::kFloat));
    hiera_tensor out_v = hiera_view(out);
#ifdef HIERA_WITH_CUDA
    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
    int rc = hiera_forward(&x_v, &conv_weight_v, &conv_bias_v, &out_v, stream);
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
            name="hiera_09_conv2d_75939442",
            cpp_sources=[_HEADER + _BINDING],
            cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo'],
            extra_cflags=['-O3', '-DHIERA_WITH_CUDA'],
            extra_include_paths=_cudnn_build_flags()[0],
            extra_ldflags=[] + _cudnn_build_flags()[1],
            verbose=False,
        )
    return _ext


# --- the reference task, verbatim ---
"""2D convolution, 3x3, stride 1, padding 1, 64 -> 128 channels with bias, on a 128 x 64 x 112 x 112 batch."""
import torch
import torch.nn as nn

batch_size = 128
in_channels = 64
out_channels = 128
kernel_size = 3
height = 112
width = 112


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]



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
        outs = _extension().forward(inputs[0], state['conv.weight'], state['conv.bias'])
        out = outs[0]
        return out
