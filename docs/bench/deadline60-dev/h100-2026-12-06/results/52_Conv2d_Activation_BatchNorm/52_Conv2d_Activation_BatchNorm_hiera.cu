// hiera expert candidate for '52_Conv2d_Activation_BatchNorm'
// strategy: T.cudnn_algos
// variant: cuDNN fastest measured algorithm; block 256, vec 4, ilp 4
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = conv2d(x, conv.weight) (cuDNN; 64x64x128x128 -> 64x128x126x126, kernel 3x3)
//   stage 1: fused pointwise over 64x128x126x126: out = (((((tanh(softplus(…, 1, 20)) * (tmp0 + conv.bias)) - bn.running_mean) * rsqrt((bn.runnin…
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"
#include <cudnn.h>

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


// Convolution 0: tmp0 = conv2d(x, conv.weight): N=64 C=64 128x128 -> K=128 126x126,
// kernel 3x3, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
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
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 64, 64, 128, 128));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 128, 64, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 64 || ok != 128 || oh != 126 || ow != 126) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 64, 128, 126, 126));
    // Timed by cuDNN 3 times (one Find times each algorithm once): among the pairs of
    // (algorithm, math type) that ran every time with an allowed math type, the least total time wins.
    const int kinds = CUDNN_CONVOLUTION_FWD_ALGO_COUNT * 4;  // algorithm x math type (4 math types)
    float total[kinds] = {};
    int runs[kinds] = {};  // in how many Finds the pair ran (once per Find, should one list it twice)
    for (int run = 0; run < 3; ++run) {
        cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
        int got = 0;
        HIERA_DNN(cudnnFindConvolutionForwardAlgorithm(h, p.x, p.w, p.conv, p.y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf));
        for (int i = 0; i < got; ++i)
            if (perf[i].status == CUDNN_STATUS_SUCCESS && (perf[i].mathType == CUDNN_FMA_MATH)) {
                const int kind = (int)perf[i].algo * 4 + (int)perf[i].mathType % 4;
                if (runs[kind] > run) continue;
                total[kind] += perf[i].time;
                runs[kind] = run + 1;
            }
    }
    int pick = -1;
    for (int kind = 0; kind < kinds; ++kind)
        if (runs[kind] == 3 && (pick < 0 || total[kind] < total[pick])) pick = kind;
    if (pick < 0) return nullptr;
    p.algo = (cudnnConvolutionFwdAlgo_t)(pick / 4);
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, (cudnnMathType_t)(pick % 4)));
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

// out = (((((tanh(softplus(…, 1, 20)) * (tmp0 + conv.bias)) - bn.running_mean) * rsqrt((bn.running_var + 1e-05))) * b…
// 130056192 elements as 130056192 vectors of 1; 256 threads/block, 4 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage1(const float* __restrict__ p_tmp0, const float* __restrict__ p_conv_bias, const float* __restrict__ p_bn_running_mean, const float* __restrict__ p_bn_running_var, const float* __restrict__ p_bn_weight, const float* __restrict__ p_bn_bias, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 1024;
    for (idx_t v0 = (idx_t)blockIdx.x * 1024 + threadIdx.x; v0 < 130056192; v0 += step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 130056192) break;
            const idx_t i = v * 1;
            const float t0 = p_tmp0[i];
            const float t1 = p_conv_bias[(i / 15876) % 128];
            const float t2 = (t0 + t1);
            const float t3 = ((t2) * 1.0f > 20.0f ? (t2) : log1pf(expf((t2) * 1.0f)) / 1.0f);
            const float t4 = tanhf(t3);
            const float t5 = (t4 * t2);
            const float t6 = p_bn_running_mean[(i / 15876) % 128];
            const float t7 = (t5 - t6);
            const float t8 = p_bn_running_var[(i / 15876) % 128];
            const float t9 = (t8 + 1e-05f);
            const float t10 = rsqrtf(t9);
            const float t11 = (t7 * t10);
            const float t12 = p_bn_weight[(i / 15876) % 128];
            const float t13 = (t11 * t12);
            const float t14 = p_bn_bias[(i / 15876) % 128];
            const float t15 = (t13 + t14);
            p_out[i] = t15;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* conv_weight, const hiera_tensor* conv_bias, const hiera_tensor* bn_weight, const hiera_tensor* bn_bias, const hiera_tensor* bn_running_mean, const hiera_tensor* bn_running_var, const hiera_tensor* bn_num_batches_tracked, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 4 || x->sizes[0] != 64 || x->sizes[1] != 64 || x->sizes[2] != 128 || x->sizes[3] != 128) return 2;  // specialized for 64x64x128x128
    if (conv_weight->ndim != 4 || conv_weight->sizes[0] != 128 || conv_weight->sizes[1] != 64 || conv_weight->sizes[2] != 3 || conv_weight->sizes[3] != 3) return 2;  // specialized for 128x64x3x3
    if (conv_bias->ndim != 1 || conv_bias->sizes[0] != 128) return 2;  // specialized for 128
    if (bn_weight->ndim != 1 || bn_weight->sizes[0] != 128) return 2;  // specialized for 128
    if (bn_bias->ndim != 1 || bn_bias->sizes[0] != 128) return 2;  // specialized for 128
    if (bn_running_mean->ndim != 1 || bn_running_mean->sizes[0] != 128) return 2;  // specialized for 128
    if (bn_running_var->ndim != 1 || bn_running_var->sizes[0] != 128) return 2;  // specialized for 128
    (void)bn_num_batches_tracked;  // not read by this computation
    if (out->ndim != 4 || out->sizes[0] != 64 || out->sizes[1] != 128 || out->sizes[2] != 126 || out->sizes[3] != 126) return 2;  // specialized for 64x128x126x126
    const float* p_x = (const float*)x->data;
    const float* p_conv_weight = (const float*)conv_weight->data;
    const float* p_conv_bias = (const float*)conv_bias->data;
    const float* p_bn_running_mean = (const float*)bn_running_mean->data;
    const float* p_bn_running_var = (const float*)bn_running_var->data;
    const float* p_bn_weight = (const float*)bn_weight->data;
    const float* p_bn_bias = (const float*)bn_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(130056192ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 64x128x126x126
    cudnnHandle_t hiera_dnn = hiera_cudnn(hiera_s);
    if (hiera_dnn == nullptr) return 6;
    {  // convolution 0 (cuDNN)
        HieraConvPlan0* cp = hiera_conv_plan0(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_x, cp->w, p_conv_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp0) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage1<<<127008, 256, 0, hiera_s>>>(p_tmp0, p_conv_bias, p_bn_running_mean, p_bn_running_var, p_bn_weight, p_bn_bias, p_out);
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
