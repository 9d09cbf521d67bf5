// hiera expert candidate for '03_conv_residual_block'
// strategy: T.cudnn_algos
// variant: cuDNN fastest measured algorithm; block 128, vec 4, ilp 1
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = conv2d(x, conv1.weight) (cuDNN; 32x128x56x56 -> 32x128x56x56, kernel 3x3)
//   stage 1: fused pointwise over 32x128x56x56: tmp1 = relu(((((tmp0 - bn1_mean) * rsqrt((bn1_var + 1e-05))) * bn1_weight) + bn1_bias))
//   stage 2: tmp2 = conv2d(tmp1, conv2.weight) (cuDNN; 32x128x56x56 -> 32x128x56x56, kernel 3x3)
//   stage 3: fused pointwise over 32x128x56x56: out = relu((((((tmp2 - bn2_mean) * rsqrt((… + …))) * bn2_weight) + bn2_bias) + x))
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


// Convolution 0: tmp0 = conv2d(x, conv1.weight): N=32 C=128 56x56 -> K=128 56x56,
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
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 32, 128, 56, 56));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 128, 128, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 32 || ok != 128 || oh != 56 || ow != 56) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 32, 128, 56, 56));
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


// Convolution 2: tmp2 = conv2d(tmp1, conv2.weight): N=32 C=128 56x56 -> K=128 56x56,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan2 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release2(HieraConvPlan2& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan2();
}
static HieraConvPlan2* hiera_conv_setup2(cudnnHandle_t h, HieraConvPlan2& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 32, 128, 56, 56));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 128, 128, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 32 || ok != 128 || oh != 56 || ow != 56) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 32, 128, 56, 56));
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
static HieraConvPlan2* hiera_conv_plan2(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan2 p;
    static HieraConvPlan2* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup2(h, p);
        if (ready == nullptr) hiera_conv_release2(p);
    }
    return ready;
}

// tmp1 = relu(((((tmp0 - bn1_mean) * rsqrt((bn1_var + 1e-05))) * bn1_weight) + bn1_bias))
// 12845056 elements as 3211264 vectors of 4; 128 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage1(const float* __restrict__ p_tmp0, const float* __restrict__ p_bn1_mean, const float* __restrict__ p_bn1_var, const float* __restrict__ p_bn1_weight, const float* __restrict__ p_bn1_bias, float* __restrict__ p_tmp1) {
    const idx_t step = (idx_t)gridDim.x * 128;
    for (idx_t v0 = (idx_t)blockIdx.x * 128 + threadIdx.x; v0 < 3211264; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp0 + i);
        const float U1 = p_bn1_mean[(i / 3136) % 128];
        const float U2 = p_bn1_var[(i / 3136) % 128];
        const float U3 = p_bn1_weight[(i / 3136) % 128];
        const float U4 = p_bn1_bias[(i / 3136) % 128];
        const float t0_0 = L0.x;
        const float t0_1 = U1;
        const float t0_2 = (t0_0 - t0_1);
        const float t0_3 = U2;
        const float t0_4 = (t0_3 + 1e-05f);
        const float t0_5 = rsqrtf(t0_4);
        const float t0_6 = (t0_2 * t0_5);
        const float t0_7 = U3;
        const float t0_8 = (t0_6 * t0_7);
        const float t0_9 = U4;
        const float t0_10 = (t0_8 + t0_9);
        const float t0_11 = (t0_10 > 0.0f ? t0_10 : 0.0f);
        const float t1_0 = L0.y;
        const float t1_1 = U1;
        const float t1_2 = (t1_0 - t1_1);
        const float t1_3 = U2;
        const float t1_4 = (t1_3 + 1e-05f);
        const float t1_5 = rsqrtf(t1_4);
        const float t1_6 = (t1_2 * t1_5);
        const float t1_7 = U3;
        const float t1_8 = (t1_6 * t1_7);
        const float t1_9 = U4;
        const float t1_10 = (t1_8 + t1_9);
        const float t1_11 = (t1_10 > 0.0f ? t1_10 : 0.0f);
        const float t2_0 = L0.z;
        const float t2_1 = U1;
        const float t2_2 = (t2_0 - t2_1);
        const float t2_3 = U2;
        const float t2_4 = (t2_3 + 1e-05f);
        const float t2_5 = rsqrtf(t2_4);
        const float t2_6 = (t2_2 * t2_5);
        const float t2_7 = U3;
        const float t2_8 = (t2_6 * t2_7);
        const float t2_9 = U4;
        const float t2_10 = (t2_8 + t2_9);
        const float t2_11 = (t2_10 > 0.0f ? t2_10 : 0.0f);
        const float t3_0 = L0.w;
        const float t3_1 = U1;
        const float t3_2 = (t3_0 - t3_1);
        const float t3_3 = U2;
        const float t3_4 = (t3_3 + 1e-05f);
        const float t3_5 = rsqrtf(t3_4);
        const float t3_6 = (t3_2 * t3_5);
        const float t3_7 = U3;
        const float t3_8 = (t3_6 * t3_7);
        const float t3_9 = U4;
        const float t3_10 = (t3_8 + t3_9);
        const float t3_11 = (t3_10 > 0.0f ? t3_10 : 0.0f);
        *reinterpret_cast<float4*>(p_tmp1 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp1 = relu(((((tmp0 - bn1_mean) * rsqrt((bn1_var + 1e-05))) * bn1_weight) + bn1_bias))
// 12845056 elements as 12845056 vectors of 1; 128 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage1_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_bn1_mean, const float* __restrict__ p_bn1_var, const float* __restrict__ p_bn1_weight, const float* __restrict__ p_bn1_bias, float* __restrict__ p_tmp1) {
    const idx_t step = (idx_t)gridDim.x * 128;
    for (idx_t v0 = (idx_t)blockIdx.x * 128 + threadIdx.x; v0 < 12845056; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp0[i];
        const float t1 = p_bn1_mean[(i / 3136) % 128];
        const float t2 = (t0 - t1);
        const float t3 = p_bn1_var[(i / 3136) % 128];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_bn1_weight[(i / 3136) % 128];
        const float t8 = (t6 * t7);
        const float t9 = p_bn1_bias[(i / 3136) % 128];
        const float t10 = (t8 + t9);
        const float t11 = (t10 > 0.0f ? t10 : 0.0f);
        p_tmp1[i] = t11;
    }
}

// out = relu((((((tmp2 - bn2_mean) * rsqrt((… + …))) * bn2_weight) + bn2_bias) + x))
// 12845056 elements as 3211264 vectors of 4; 128 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage3(const float* __restrict__ p_tmp2, const float* __restrict__ p_bn2_mean, const float* __restrict__ p_bn2_var, const float* __restrict__ p_bn2_weight, const float* __restrict__ p_bn2_bias, const float* __restrict__ p_x, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 128;
    for (idx_t v0 = (idx_t)blockIdx.x * 128 + threadIdx.x; v0 < 3211264; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp2 + i);
        const float U1 = p_bn2_mean[(i / 3136) % 128];
        const float U2 = p_bn2_var[(i / 3136) % 128];
        const float U3 = p_bn2_weight[(i / 3136) % 128];
        const float U4 = p_bn2_bias[(i / 3136) % 128];
        const float4 L5 = *reinterpret_cast<const float4*>(p_x + i);
        const float t0_0 = L0.x;
        const float t0_1 = U1;
        const float t0_2 = (t0_0 - t0_1);
        const float t0_3 = U2;
        const float t0_4 = (t0_3 + 1e-05f);
        const float t0_5 = rsqrtf(t0_4);
        const float t0_6 = (t0_2 * t0_5);
        const float t0_7 = U3;
        const float t0_8 = (t0_6 * t0_7);
        const float t0_9 = U4;
        const float t0_10 = (t0_8 + t0_9);
        const float t0_11 = L5.x;
        const float t0_12 = (t0_10 + t0_11);
        const float t0_13 = (t0_12 > 0.0f ? t0_12 : 0.0f);
        const float t1_0 = L0.y;
        const float t1_1 = U1;
        const float t1_2 = (t1_0 - t1_1);
        const float t1_3 = U2;
        const float t1_4 = (t1_3 + 1e-05f);
        const float t1_5 = rsqrtf(t1_4);
        const float t1_6 = (t1_2 * t1_5);
        const float t1_7 = U3;
        const float t1_8 = (t1_6 * t1_7);
        const float t1_9 = U4;
        const float t1_10 = (t1_8 + t1_9);
        const float t1_11 = L5.y;
        const float t1_12 = (t1_10 + t1_11);
        const float t1_13 = (t1_12 > 0.0f ? t1_12 : 0.0f);
        const float t2_0 = L0.z;
        const float t2_1 = U1;
        const float t2_2 = (t2_0 - t2_1);
        const float t2_3 = U2;
        const float t2_4 = (t2_3 + 1e-05f);
        const float t2_5 = rsqrtf(t2_4);
        const float t2_6 = (t2_2 * t2_5);
        const float t2_7 = U3;
        const float t2_8 = (t2_6 * t2_7);
        const float t2_9 = U4;
        const float t2_10 = (t2_8 + t2_9);
        const float t2_11 = L5.z;
        const float t2_12 = (t2_10 + t2_11);
        const float t2_13 = (t2_12 > 0.0f ? t2_12 : 0.0f);
        const float t3_0 = L0.w;
        const float t3_1 = U1;
        const float t3_2 = (t3_0 - t3_1);
        const float t3_3 = U2;
        const float t3_4 = (t3_3 + 1e-05f);
        const float t3_5 = rsqrtf(t3_4);
        const float t3_6 = (t3_2 * t3_5);
        const float t3_7 = U3;
        const float t3_8 = (t3_6 * t3_7);
        const float t3_9 = U4;
        const float t3_10 = (t3_8 + t3_9);
        const float t3_11 = L5.w;
        const float t3_12 = (t3_10 + t3_11);
        const float t3_13 = (t3_12 > 0.0f ? t3_12 : 0.0f);
        *reinterpret_cast<float4*>(p_out + i) = make_float4(t0_13, t1_13, t2_13, t3_13);
    }
}

// out = relu((((((tmp2 - bn2_mean) * rsqrt((… + …))) * bn2_weight) + bn2_bias) + x))
// 12845056 elements as 12845056 vectors of 1; 128 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(128) hiera_stage3_scalar(const float* __restrict__ p_tmp2, const float* __restrict__ p_bn2_mean, const float* __restrict__ p_bn2_var, const float* __restrict__ p_bn2_weight, const float* __restrict__ p_bn2_bias, const float* __restrict__ p_x, float* __restrict__ p_out) {
    const idx_t step = (idx_t)gridDim.x * 128;
    for (idx_t v0 = (idx_t)blockIdx.x * 128 + threadIdx.x; v0 < 12845056; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp2[i];
        const float t1 = p_bn2_mean[(i / 3136) % 128];
        const float t2 = (t0 - t1);
        const float t3 = p_bn2_var[(i / 3136) % 128];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_bn2_weight[(i / 3136) % 128];
        const float t8 = (t6 * t7);
        const float t9 = p_bn2_bias[(i / 3136) % 128];
        const float t10 = (t8 + t9);
        const float t11 = p_x[i];
        const float t12 = (t10 + t11);
        const float t13 = (t12 > 0.0f ? t12 : 0.0f);
        p_out[i] = t13;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bn1_weight, const hiera_tensor* bn1_bias, const hiera_tensor* bn2_weight, const hiera_tensor* bn2_bias, const hiera_tensor* conv1_weight, const hiera_tensor* conv2_weight, const hiera_tensor* bn1_mean, const hiera_tensor* bn1_var, const hiera_tensor* bn2_mean, const hiera_tensor* bn2_var, double eps, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 4 || x->sizes[0] != 32 || x->sizes[1] != 128 || x->sizes[2] != 56 || x->sizes[3] != 56) return 2;  // specialized for 32x128x56x56
    if (bn1_weight->ndim != 1 || bn1_weight->sizes[0] != 128) return 2;  // specialized for 128
    if (bn1_bias->ndim != 1 || bn1_bias->sizes[0] != 128) return 2;  // specialized for 128
    if (bn2_weight->ndim != 1 || bn2_weight->sizes[0] != 128) return 2;  // specialized for 128
    if (bn2_bias->ndim != 1 || bn2_bias->sizes[0] != 128) return 2;  // specialized for 128
    if (conv1_weight->ndim != 4 || conv1_weight->sizes[0] != 128 || conv1_weight->sizes[1] != 128 || conv1_weight->sizes[2] != 3 || conv1_weight->sizes[3] != 3) return 2;  // specialized for 128x128x3x3
    if (conv2_weight->ndim != 4 || conv2_weight->sizes[0] != 128 || conv2_weight->sizes[1] != 128 || conv2_weight->sizes[2] != 3 || conv2_weight->sizes[3] != 3) return 2;  // specialized for 128x128x3x3
    if (bn1_mean->ndim != 1 || bn1_mean->sizes[0] != 128) return 2;  // specialized for 128
    if (bn1_var->ndim != 1 || bn1_var->sizes[0] != 128) return 2;  // specialized for 128
    if (bn2_mean->ndim != 1 || bn2_mean->sizes[0] != 128) return 2;  // specialized for 128
    if (bn2_var->ndim != 1 || bn2_var->sizes[0] != 128) return 2;  // specialized for 128
    (void)eps;  // baked into the kernels as a constant
    if (out->ndim != 4 || out->sizes[0] != 32 || out->sizes[1] != 128 || out->sizes[2] != 56 || out->sizes[3] != 56) return 2;  // specialized for 32x128x56x56
    const float* p_x = (const float*)x->data;
    const float* p_conv1_weight = (const float*)conv1_weight->data;
    const float* p_bn1_weight = (const float*)bn1_weight->data;
    const float* p_bn1_bias = (const float*)bn1_bias->data;
    const float* p_bn1_mean = (const float*)bn1_mean->data;
    const float* p_bn1_var = (const float*)bn1_var->data;
    const float* p_conv2_weight = (const float*)conv2_weight->data;
    const float* p_bn2_weight = (const float*)bn2_weight->data;
    const float* p_bn2_bias = (const float*)bn2_bias->data;
    const float* p_bn2_mean = (const float*)bn2_mean->data;
    const float* p_bn2_var = (const float*)bn2_var->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(38535168ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 32x128x56x56
    float* p_tmp1 = hiera_ws + 12845056;  // 32x128x56x56
    float* p_tmp2 = hiera_ws + 25690112;  // 32x128x56x56
    cudnnHandle_t hiera_dnn = hiera_cudnn(hiera_s);
    if (hiera_dnn == nullptr) return 6;
    {  // convolution 0 (cuDNN)
        HieraConvPlan0* cp = hiera_conv_plan0(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_x, cp->w, p_conv1_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp0) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp1) && hiera_aligned16(p_tmp0)) {
        hiera_stage1<<<25088, 128, 0, hiera_s>>>(p_tmp0, p_bn1_mean, p_bn1_var, p_bn1_weight, p_bn1_bias, p_tmp1);
    } else {
        hiera_stage1_scalar<<<100352, 128, 0, hiera_s>>>(p_tmp0, p_bn1_mean, p_bn1_var, p_bn1_weight, p_bn1_bias, p_tmp1);
    }
    {  // convolution 2 (cuDNN)
        HieraConvPlan2* cp = hiera_conv_plan2(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp1, cp->w, p_conv2_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp2) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_out) && hiera_aligned16(p_tmp2) && hiera_aligned16(p_x)) {
        hiera_stage3<<<25088, 128, 0, hiera_s>>>(p_tmp2, p_bn2_mean, p_bn2_var, p_bn2_weight, p_bn2_bias, p_x, p_out);
    } else {
        hiera_stage3_scalar<<<100352, 128, 0, hiera_s>>>(p_tmp2, p_bn2_mean, p_bn2_var, p_bn2_weight, p_bn2_bias, p_x, p_out);
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
