// hiera expert candidate for '09_conv2d'
// strategy: T.cudnn_algos
// variant: cuDNN fastest measured algorithm; block 128, vec 4, ilp 1
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = conv2d(x, conv.weight) (cuDNN; 128x64x112x112 -> 128x128x112x112, kernel 3x3)
//   stage 1: fused pointwise over 128x128x112x112: out = (tmp0 + conv.bias)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"
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
