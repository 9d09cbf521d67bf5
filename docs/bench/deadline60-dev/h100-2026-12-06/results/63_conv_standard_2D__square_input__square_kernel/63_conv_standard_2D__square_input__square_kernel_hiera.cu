// hiera expert candidate for '63_conv_standard_2D__square_input__square_kernel'
// strategy: T.cudnn_algos
// variant: cuDNN fastest measured algorithm
// sizes: the shapes of get_inputs() only
// precision: strict fp32 (no TF32)
//   stage 0: out = conv2d(x, conv2d.weight) (cuDNN; 16x16x1024x1024 -> 16x128x1022x1022, kernel 3x3)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"
#include <cudnn.h>

typedef unsigned int idx_t;  // every index of this task fits

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


// Convolution 0: out = conv2d(x, conv2d.weight): N=16 C=16 1024x1024 -> K=128 1022x1022,
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
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 16, 16, 1024, 1024));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 128, 16, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 16 || ok != 128 || oh != 1022 || ow != 1022) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 16, 128, 1022, 1022));
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

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* conv2d_weight, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 4 || x->sizes[0] != 16 || x->sizes[1] != 16 || x->sizes[2] != 1024 || x->sizes[3] != 1024) return 2;  // specialized for 16x16x1024x1024
    if (conv2d_weight->ndim != 4 || conv2d_weight->sizes[0] != 128 || conv2d_weight->sizes[1] != 16 || conv2d_weight->sizes[2] != 3 || conv2d_weight->sizes[3] != 3) return 2;  // specialized for 128x16x3x3
    if (out->ndim != 4 || out->sizes[0] != 16 || out->sizes[1] != 128 || out->sizes[2] != 1022 || out->sizes[3] != 1022) return 2;  // specialized for 16x128x1022x1022
    const float* p_x = (const float*)x->data;
    const float* p_conv2d_weight = (const float*)conv2d_weight->data;
    float* p_out = (float*)out->data;
    cudnnHandle_t hiera_dnn = hiera_cudnn(hiera_s);
    if (hiera_dnn == nullptr) return 6;
    {  // convolution 0 (cuDNN)
        HieraConvPlan0* cp = hiera_conv_plan0(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_x, cp->w, p_conv2d_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_out) != CUDNN_STATUS_SUCCESS) return 6;
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
