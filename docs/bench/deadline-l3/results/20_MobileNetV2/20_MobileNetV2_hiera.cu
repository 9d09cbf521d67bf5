// hiera expert candidate for '20_MobileNetV2'
// strategy: R.library_epilogue
// variant: cuDNN fastest measured algorithm; cuBLASLt algo #0 + bias epilogue; threads/row auto, vec 4, registers; block 256, vec 4, ilp 1
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = conv2d(x, features.0.weight) (cuDNN; 10x3x224x224 -> 10x32x112x112, kernel 3x3)
//   stage 1: fused pointwise over 10x32x112x112: tmp1 = relu6(((((tmp0 - features.1.running_mean) * rsqrt((features.1.running_var + 1e-05))) * fe…
//   stage 2: tmp2 = conv2d(tmp1, features.3.0.weight) (cuDNN; 10x32x112x112 -> 10x32x112x112, kernel 3x3)
//   stage 3: fused pointwise over 10x32x112x112: tmp3 = relu6(((((tmp2 - features.3.1.running_mean) * rsqrt((features.3.1.running_var + 1e-05))) …
//   stage 4: tmp4 = conv2d(tmp3, features.3.3.weight) (cuDNN; 10x32x112x112 -> 10x16x112x112, kernel 1x1)
//   stage 5: fused pointwise over 10x16x112x112: tmp5 = ((((tmp4 - features.3.4.running_mean) * rsqrt((features.3.4.running_var + 1e-05))) * feat…
//   stage 6: tmp6 = conv2d(tmp5, features.4.0.weight) (cuDNN; 10x16x112x112 -> 10x96x112x112, kernel 1x1)
//   stage 7: fused pointwise over 10x96x112x112: tmp7 = relu6(((((tmp6 - features.4.1.running_mean) * rsqrt((features.4.1.running_var + 1e-05))) …
//   stage 8: tmp8 = conv2d(tmp7, features.4.3.weight) (cuDNN; 10x96x112x112 -> 10x96x56x56, kernel 3x3)
//   stage 9: fused pointwise over 10x96x56x56: tmp9 = relu6(((((tmp8 - features.4.4.running_mean) * rsqrt((features.4.4.running_var + 1e-05))) …
//   stage 10: tmp10 = conv2d(tmp9, features.4.6.weight) (cuDNN; 10x96x56x56 -> 10x24x56x56, kernel 1x1)
//   stage 11: fused pointwise over 10x24x56x56: tmp11 = ((((tmp10 - features.4.7.running_mean) * rsqrt((features.4.7.running_var + 1e-05))) * fea…
//   stage 12: tmp12 = conv2d(tmp11, features.5.0.weight) (cuDNN; 10x24x56x56 -> 10x144x56x56, kernel 1x1)
//   stage 13: fused pointwise over 10x144x56x56: tmp13 = relu6(((((tmp12 - features.5.1.running_mean) * rsqrt((features.5.1.running_var + 1e-05)))…
//   stage 14: tmp14 = conv2d(tmp13, features.5.3.weight) (cuDNN; 10x144x56x56 -> 10x144x56x56, kernel 3x3)
//   stage 15: fused pointwise over 10x144x56x56: tmp15 = relu6(((((tmp14 - features.5.4.running_mean) * rsqrt((features.5.4.running_var + 1e-05)))…
//   stage 16: tmp16 = conv2d(tmp15, features.5.6.weight) (cuDNN; 10x144x56x56 -> 10x24x56x56, kernel 1x1)
//   stage 17: fused pointwise over 10x24x56x56: tmp17 = ((((tmp16 - features.5.7.running_mean) * rsqrt((features.5.7.running_var + 1e-05))) * fea…
//   stage 18: tmp18 = conv2d(tmp17, features.6.0.weight) (cuDNN; 10x24x56x56 -> 10x144x56x56, kernel 1x1)
//   stage 19: fused pointwise over 10x144x56x56: tmp19 = relu6(((((tmp18 - features.6.1.running_mean) * rsqrt((features.6.1.running_var + 1e-05)))…
//   stage 20: tmp20 = conv2d(tmp19, features.6.3.weight) (cuDNN; 10x144x56x56 -> 10x144x28x28, kernel 3x3)
//   stage 21: fused pointwise over 10x144x28x28: tmp21 = relu6(((((tmp20 - features.6.4.running_mean) * rsqrt((features.6.4.running_var + 1e-05)))…
//   stage 22: tmp22 = conv2d(tmp21, features.6.6.weight) (cuDNN; 10x144x28x28 -> 10x32x28x28, kernel 1x1)
//   stage 23: fused pointwise over 10x32x28x28: tmp23 = ((((tmp22 - features.6.7.running_mean) * rsqrt((features.6.7.running_var + 1e-05))) * fea…
//   stage 24: tmp24 = conv2d(tmp23, features.7.0.weight) (cuDNN; 10x32x28x28 -> 10x192x28x28, kernel 1x1)
//   stage 25: fused pointwise over 10x192x28x28: tmp25 = relu6(((((tmp24 - features.7.1.running_mean) * rsqrt((features.7.1.running_var + 1e-05)))…
//   stage 26: tmp26 = conv2d(tmp25, features.7.3.weight) (cuDNN; 10x192x28x28 -> 10x192x28x28, kernel 3x3)
//   stage 27: fused pointwise over 10x192x28x28: tmp27 = relu6(((((tmp26 - features.7.4.running_mean) * rsqrt((features.7.4.running_var + 1e-05)))…
//   stage 28: tmp28 = conv2d(tmp27, features.7.6.weight) (cuDNN; 10x192x28x28 -> 10x32x28x28, kernel 1x1)
//   stage 29: fused pointwise over 10x32x28x28: tmp29 = ((((tmp28 - features.7.7.running_mean) * rsqrt((features.7.7.running_var + 1e-05))) * fea…
//   stage 30: tmp30 = conv2d(tmp29, features.8.0.weight) (cuDNN; 10x32x28x28 -> 10x192x28x28, kernel 1x1)
//   stage 31: fused pointwise over 10x192x28x28: tmp31 = relu6(((((tmp30 - features.8.1.running_mean) * rsqrt((features.8.1.running_var + 1e-05)))…
//   stage 32: tmp32 = conv2d(tmp31, features.8.3.weight) (cuDNN; 10x192x28x28 -> 10x192x28x28, kernel 3x3)
//   stage 33: fused pointwise over 10x192x28x28: tmp33 = relu6(((((tmp32 - features.8.4.running_mean) * rsqrt((features.8.4.running_var + 1e-05)))…
//   stage 34: tmp34 = conv2d(tmp33, features.8.6.weight) (cuDNN; 10x192x28x28 -> 10x32x28x28, kernel 1x1)
//   stage 35: fused pointwise over 10x32x28x28: tmp35 = ((((tmp34 - features.8.7.running_mean) * rsqrt((features.8.7.running_var + 1e-05))) * fea…
//   stage 36: tmp36 = conv2d(tmp35, features.9.0.weight) (cuDNN; 10x32x28x28 -> 10x192x28x28, kernel 1x1)
//   stage 37: fused pointwise over 10x192x28x28: tmp37 = relu6(((((tmp36 - features.9.1.running_mean) * rsqrt((features.9.1.running_var + 1e-05)))…
//   stage 38: tmp38 = conv2d(tmp37, features.9.3.weight) (cuDNN; 10x192x28x28 -> 10x192x14x14, kernel 3x3)
//   stage 39: fused pointwise over 10x192x14x14: tmp39 = relu6(((((tmp38 - features.9.4.running_mean) * rsqrt((features.9.4.running_var + 1e-05)))…
//   stage 40: tmp40 = conv2d(tmp39, features.9.6.weight) (cuDNN; 10x192x14x14 -> 10x64x14x14, kernel 1x1)
//   stage 41: fused pointwise over 10x64x14x14: tmp41 = ((((tmp40 - features.9.7.running_mean) * rsqrt((features.9.7.running_var + 1e-05))) * fea…
//   stage 42: tmp42 = conv2d(tmp41, features.10.0.weight) (cuDNN; 10x64x14x14 -> 10x384x14x14, kernel 1x1)
//   stage 43: fused pointwise over 10x384x14x14: tmp43 = relu6(((((tmp42 - features.10.1.running_mean) * rsqrt((features.10.1.running_var + 1e-05)…
//   stage 44: tmp44 = conv2d(tmp43, features.10.3.weight) (cuDNN; 10x384x14x14 -> 10x384x14x14, kernel 3x3)
//   stage 45: fused pointwise over 10x384x14x14: tmp45 = relu6(((((tmp44 - features.10.4.running_mean) * rsqrt((features.10.4.running_var + 1e-05)…
//   stage 46: tmp46 = conv2d(tmp45, features.10.6.weight) (cuDNN; 10x384x14x14 -> 10x64x14x14, kernel 1x1)
//   stage 47: fused pointwise over 10x64x14x14: tmp47 = ((((tmp46 - features.10.7.running_mean) * rsqrt((features.10.7.running_var + 1e-05))) * f…
//   stage 48: tmp48 = conv2d(tmp47, features.11.0.weight) (cuDNN; 10x64x14x14 -> 10x384x14x14, kernel 1x1)
//   stage 49: fused pointwise over 10x384x14x14: tmp49 = relu6(((((tmp48 - features.11.1.running_mean) * rsqrt((features.11.1.running_var + 1e-05)…
//   stage 50: tmp50 = conv2d(tmp49, features.11.3.weight) (cuDNN; 10x384x14x14 -> 10x384x14x14, kernel 3x3)
//   stage 51: fused pointwise over 10x384x14x14: tmp51 = relu6(((((tmp50 - features.11.4.running_mean) * rsqrt((features.11.4.running_var + 1e-05)…
//   stage 52: tmp52 = conv2d(tmp51, features.11.6.weight) (cuDNN; 10x384x14x14 -> 10x64x14x14, kernel 1x1)
//   stage 53: fused pointwise over 10x64x14x14: tmp53 = ((((tmp52 - features.11.7.running_mean) * rsqrt((features.11.7.running_var + 1e-05))) * f…
//   stage 54: tmp54 = conv2d(tmp53, features.12.0.weight) (cuDNN; 10x64x14x14 -> 10x384x14x14, kernel 1x1)
//   stage 55: fused pointwise over 10x384x14x14: tmp55 = relu6(((((tmp54 - features.12.1.running_mean) * rsqrt((features.12.1.running_var + 1e-05)…
//   stage 56: tmp56 = conv2d(tmp55, features.12.3.weight) (cuDNN; 10x384x14x14 -> 10x384x14x14, kernel 3x3)
//   stage 57: fused pointwise over 10x384x14x14: tmp57 = relu6(((((tmp56 - features.12.4.running_mean) * rsqrt((features.12.4.running_var + 1e-05)…
//   stage 58: tmp58 = conv2d(tmp57, features.12.6.weight) (cuDNN; 10x384x14x14 -> 10x64x14x14, kernel 1x1)
//   stage 59: fused pointwise over 10x64x14x14: tmp59 = ((((tmp58 - features.12.7.running_mean) * rsqrt((features.12.7.running_var + 1e-05))) * f…
//   stage 60: tmp60 = conv2d(tmp59, features.13.0.weight) (cuDNN; 10x64x14x14 -> 10x384x14x14, kernel 1x1)
//   stage 61: fused pointwise over 10x384x14x14: tmp61 = relu6(((((tmp60 - features.13.1.running_mean) * rsqrt((features.13.1.running_var + 1e-05)…
//   stage 62: tmp62 = conv2d(tmp61, features.13.3.weight) (cuDNN; 10x384x14x14 -> 10x384x14x14, kernel 3x3)
//   stage 63: fused pointwise over 10x384x14x14: tmp63 = relu6(((((tmp62 - features.13.4.running_mean) * rsqrt((features.13.4.running_var + 1e-05)…
//   stage 64: tmp64 = conv2d(tmp63, features.13.6.weight) (cuDNN; 10x384x14x14 -> 10x96x14x14, kernel 1x1)
//   stage 65: fused pointwise over 10x96x14x14: tmp65 = ((((tmp64 - features.13.7.running_mean) * rsqrt((features.13.7.running_var + 1e-05))) * f…
//   stage 66: tmp66 = conv2d(tmp65, features.14.0.weight) (cuDNN; 10x96x14x14 -> 10x576x14x14, kernel 1x1)
//   stage 67: fused pointwise over 10x576x14x14: tmp67 = relu6(((((tmp66 - features.14.1.running_mean) * rsqrt((features.14.1.running_var + 1e-05)…
//   stage 68: tmp68 = conv2d(tmp67, features.14.3.weight) (cuDNN; 10x576x14x14 -> 10x576x14x14, kernel 3x3)
//   stage 69: fused pointwise over 10x576x14x14: tmp69 = relu6(((((tmp68 - features.14.4.running_mean) * rsqrt((features.14.4.running_var + 1e-05)…
//   stage 70: tmp70 = conv2d(tmp69, features.14.6.weight) (cuDNN; 10x576x14x14 -> 10x96x14x14, kernel 1x1)
//   stage 71: fused pointwise over 10x96x14x14: tmp71 = ((((tmp70 - features.14.7.running_mean) * rsqrt((features.14.7.running_var + 1e-05))) * f…
//   stage 72: tmp72 = conv2d(tmp71, features.15.0.weight) (cuDNN; 10x96x14x14 -> 10x576x14x14, kernel 1x1)
//   stage 73: fused pointwise over 10x576x14x14: tmp73 = relu6(((((tmp72 - features.15.1.running_mean) * rsqrt((features.15.1.running_var + 1e-05)…
//   stage 74: tmp74 = conv2d(tmp73, features.15.3.weight) (cuDNN; 10x576x14x14 -> 10x576x14x14, kernel 3x3)
//   stage 75: fused pointwise over 10x576x14x14: tmp75 = relu6(((((tmp74 - features.15.4.running_mean) * rsqrt((features.15.4.running_var + 1e-05)…
//   stage 76: tmp76 = conv2d(tmp75, features.15.6.weight) (cuDNN; 10x576x14x14 -> 10x96x14x14, kernel 1x1)
//   stage 77: fused pointwise over 10x96x14x14: tmp77 = ((((tmp76 - features.15.7.running_mean) * rsqrt((features.15.7.running_var + 1e-05))) * f…
//   stage 78: tmp78 = conv2d(tmp77, features.16.0.weight) (cuDNN; 10x96x14x14 -> 10x576x14x14, kernel 1x1)
//   stage 79: fused pointwise over 10x576x14x14: tmp79 = relu6(((((tmp78 - features.16.1.running_mean) * rsqrt((features.16.1.running_var + 1e-05)…
//   stage 80: tmp80 = conv2d(tmp79, features.16.3.weight) (cuDNN; 10x576x14x14 -> 10x576x7x7, kernel 3x3)
//   stage 81: fused pointwise over 10x576x7x7: tmp81 = relu6(((((tmp80 - features.16.4.running_mean) * rsqrt((features.16.4.running_var + 1e-05)…
//   stage 82: tmp82 = conv2d(tmp81, features.16.6.weight) (cuDNN; 10x576x7x7 -> 10x160x7x7, kernel 1x1)
//   stage 83: fused pointwise over 10x160x7x7: tmp83 = ((((tmp82 - features.16.7.running_mean) * rsqrt((features.16.7.running_var + 1e-05))) * f…
//   stage 84: tmp84 = conv2d(tmp83, features.17.0.weight) (cuDNN; 10x160x7x7 -> 10x960x7x7, kernel 1x1)
//   stage 85: fused pointwise over 10x960x7x7: tmp85 = relu6(((((tmp84 - features.17.1.running_mean) * rsqrt((features.17.1.running_var + 1e-05)…
//   stage 86: tmp86 = conv2d(tmp85, features.17.3.weight) (cuDNN; 10x960x7x7 -> 10x960x7x7, kernel 3x3)
//   stage 87: fused pointwise over 10x960x7x7: tmp87 = relu6(((((tmp86 - features.17.4.running_mean) * rsqrt((features.17.4.running_var + 1e-05)…
//   stage 88: tmp88 = conv2d(tmp87, features.17.6.weight) (cuDNN; 10x960x7x7 -> 10x160x7x7, kernel 1x1)
//   stage 89: fused pointwise over 10x160x7x7: tmp89 = ((((tmp88 - features.17.7.running_mean) * rsqrt((features.17.7.running_var + 1e-05))) * f…
//   stage 90: tmp90 = conv2d(tmp89, features.18.0.weight) (cuDNN; 10x160x7x7 -> 10x960x7x7, kernel 1x1)
//   stage 91: fused pointwise over 10x960x7x7: tmp91 = relu6(((((tmp90 - features.18.1.running_mean) * rsqrt((features.18.1.running_var + 1e-05)…
//   stage 92: tmp92 = conv2d(tmp91, features.18.3.weight) (cuDNN; 10x960x7x7 -> 10x960x7x7, kernel 3x3)
//   stage 93: fused pointwise over 10x960x7x7: tmp93 = relu6(((((tmp92 - features.18.4.running_mean) * rsqrt((features.18.4.running_var + 1e-05)…
//   stage 94: tmp94 = conv2d(tmp93, features.18.6.weight) (cuDNN; 10x960x7x7 -> 10x160x7x7, kernel 1x1)
//   stage 95: fused pointwise over 10x160x7x7: tmp95 = ((((tmp94 - features.18.7.running_mean) * rsqrt((features.18.7.running_var + 1e-05))) * f…
//   stage 96: tmp96 = conv2d(tmp95, features.19.0.weight) (cuDNN; 10x160x7x7 -> 10x960x7x7, kernel 1x1)
//   stage 97: fused pointwise over 10x960x7x7: tmp97 = relu6(((((tmp96 - features.19.1.running_mean) * rsqrt((features.19.1.running_var + 1e-05)…
//   stage 98: tmp98 = conv2d(tmp97, features.19.3.weight) (cuDNN; 10x960x7x7 -> 10x960x7x7, kernel 3x3)
//   stage 99: fused pointwise over 10x960x7x7: tmp99 = relu6(((((tmp98 - features.19.4.running_mean) * rsqrt((features.19.4.running_var + 1e-05)…
//   stage 100: tmp100 = conv2d(tmp99, features.19.6.weight) (cuDNN; 10x960x7x7 -> 10x320x7x7, kernel 1x1)
//   stage 101: fused pointwise over 10x320x7x7: tmp101 = ((((tmp100 - features.19.7.running_mean) * rsqrt((features.19.7.running_var + 1e-05))) * …
//   stage 102: tmp102 = conv2d(tmp101, features.20.weight) (cuDNN; 10x320x7x7 -> 10x1280x7x7, kernel 1x1)
//   stage 103: row reduction over 10x1280x1x7: tmp103 = sum_row(((((((… + …) + relu6(…)) + relu6((… + …))) + relu6(((… * …) + features.21.bias)))…
//   stage 104: fused pointwise over 10x1280: tmp104 = (tmp103 / 49)
//   stage 105: out = tmp104 @ classifier.1.weight + classifier.1.bias (10x1000x1280)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"
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


// Convolution 0: tmp0 = conv2d(x, features.0.weight): N=10 C=3 224x224 -> K=32 112x112,
// kernel 3x3, stride 2x2, padding 1x1, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
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
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 3, 224, 224));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 32, 3, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 2, 2, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 32 || oh != 112 || ow != 112) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 32, 112, 112));
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


// Convolution 2: tmp2 = conv2d(tmp1, features.3.0.weight): N=10 C=32 112x112 -> K=32 112x112,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 32; cuDNN fastest measured algorithm,
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
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 32, 112, 112));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 32, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 32));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 32 || oh != 112 || ow != 112) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 32, 112, 112));
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


// Convolution 4: tmp4 = conv2d(tmp3, features.3.3.weight): N=10 C=32 112x112 -> K=16 112x112,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan4 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release4(HieraConvPlan4& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan4();
}
static HieraConvPlan4* hiera_conv_setup4(cudnnHandle_t h, HieraConvPlan4& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 32, 112, 112));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 16, 32, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 16 || oh != 112 || ow != 112) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 16, 112, 112));
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
static HieraConvPlan4* hiera_conv_plan4(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan4 p;
    static HieraConvPlan4* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup4(h, p);
        if (ready == nullptr) hiera_conv_release4(p);
    }
    return ready;
}


// Convolution 6: tmp6 = conv2d(tmp5, features.4.0.weight): N=10 C=16 112x112 -> K=96 112x112,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan6 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release6(HieraConvPlan6& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan6();
}
static HieraConvPlan6* hiera_conv_setup6(cudnnHandle_t h, HieraConvPlan6& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 16, 112, 112));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 96, 16, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 96 || oh != 112 || ow != 112) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 96, 112, 112));
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
static HieraConvPlan6* hiera_conv_plan6(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan6 p;
    static HieraConvPlan6* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup6(h, p);
        if (ready == nullptr) hiera_conv_release6(p);
    }
    return ready;
}


// Convolution 8: tmp8 = conv2d(tmp7, features.4.3.weight): N=10 C=96 112x112 -> K=96 56x56,
// kernel 3x3, stride 2x2, padding 1x1, dilation 1x1, groups 96; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan8 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release8(HieraConvPlan8& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan8();
}
static HieraConvPlan8* hiera_conv_setup8(cudnnHandle_t h, HieraConvPlan8& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 96, 112, 112));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 96, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 2, 2, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 96));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 96 || oh != 56 || ow != 56) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 96, 56, 56));
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
static HieraConvPlan8* hiera_conv_plan8(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan8 p;
    static HieraConvPlan8* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup8(h, p);
        if (ready == nullptr) hiera_conv_release8(p);
    }
    return ready;
}


// Convolution 10: tmp10 = conv2d(tmp9, features.4.6.weight): N=10 C=96 56x56 -> K=24 56x56,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan10 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release10(HieraConvPlan10& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan10();
}
static HieraConvPlan10* hiera_conv_setup10(cudnnHandle_t h, HieraConvPlan10& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 96, 56, 56));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 24, 96, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 24 || oh != 56 || ow != 56) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 24, 56, 56));
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
static HieraConvPlan10* hiera_conv_plan10(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan10 p;
    static HieraConvPlan10* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup10(h, p);
        if (ready == nullptr) hiera_conv_release10(p);
    }
    return ready;
}


// Convolution 12: tmp12 = conv2d(tmp11, features.5.0.weight): N=10 C=24 56x56 -> K=144 56x56,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan12 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release12(HieraConvPlan12& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan12();
}
static HieraConvPlan12* hiera_conv_setup12(cudnnHandle_t h, HieraConvPlan12& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 24, 56, 56));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 144, 24, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 144 || oh != 56 || ow != 56) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 144, 56, 56));
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
static HieraConvPlan12* hiera_conv_plan12(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan12 p;
    static HieraConvPlan12* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup12(h, p);
        if (ready == nullptr) hiera_conv_release12(p);
    }
    return ready;
}


// Convolution 14: tmp14 = conv2d(tmp13, features.5.3.weight): N=10 C=144 56x56 -> K=144 56x56,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 144; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan14 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release14(HieraConvPlan14& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan14();
}
static HieraConvPlan14* hiera_conv_setup14(cudnnHandle_t h, HieraConvPlan14& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 144, 56, 56));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 144, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 144));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 144 || oh != 56 || ow != 56) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 144, 56, 56));
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
static HieraConvPlan14* hiera_conv_plan14(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan14 p;
    static HieraConvPlan14* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup14(h, p);
        if (ready == nullptr) hiera_conv_release14(p);
    }
    return ready;
}


// Convolution 16: tmp16 = conv2d(tmp15, features.5.6.weight): N=10 C=144 56x56 -> K=24 56x56,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan16 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release16(HieraConvPlan16& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan16();
}
static HieraConvPlan16* hiera_conv_setup16(cudnnHandle_t h, HieraConvPlan16& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 144, 56, 56));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 24, 144, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 24 || oh != 56 || ow != 56) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 24, 56, 56));
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
static HieraConvPlan16* hiera_conv_plan16(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan16 p;
    static HieraConvPlan16* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup16(h, p);
        if (ready == nullptr) hiera_conv_release16(p);
    }
    return ready;
}


// Convolution 18: tmp18 = conv2d(tmp17, features.6.0.weight): N=10 C=24 56x56 -> K=144 56x56,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan18 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release18(HieraConvPlan18& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan18();
}
static HieraConvPlan18* hiera_conv_setup18(cudnnHandle_t h, HieraConvPlan18& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 24, 56, 56));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 144, 24, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 144 || oh != 56 || ow != 56) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 144, 56, 56));
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
static HieraConvPlan18* hiera_conv_plan18(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan18 p;
    static HieraConvPlan18* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup18(h, p);
        if (ready == nullptr) hiera_conv_release18(p);
    }
    return ready;
}


// Convolution 20: tmp20 = conv2d(tmp19, features.6.3.weight): N=10 C=144 56x56 -> K=144 28x28,
// kernel 3x3, stride 2x2, padding 1x1, dilation 1x1, groups 144; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan20 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release20(HieraConvPlan20& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan20();
}
static HieraConvPlan20* hiera_conv_setup20(cudnnHandle_t h, HieraConvPlan20& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 144, 56, 56));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 144, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 2, 2, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 144));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 144 || oh != 28 || ow != 28) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 144, 28, 28));
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
static HieraConvPlan20* hiera_conv_plan20(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan20 p;
    static HieraConvPlan20* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup20(h, p);
        if (ready == nullptr) hiera_conv_release20(p);
    }
    return ready;
}


// Convolution 22: tmp22 = conv2d(tmp21, features.6.6.weight): N=10 C=144 28x28 -> K=32 28x28,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan22 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release22(HieraConvPlan22& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan22();
}
static HieraConvPlan22* hiera_conv_setup22(cudnnHandle_t h, HieraConvPlan22& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 144, 28, 28));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 32, 144, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 32 || oh != 28 || ow != 28) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 32, 28, 28));
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
static HieraConvPlan22* hiera_conv_plan22(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan22 p;
    static HieraConvPlan22* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup22(h, p);
        if (ready == nullptr) hiera_conv_release22(p);
    }
    return ready;
}


// Convolution 24: tmp24 = conv2d(tmp23, features.7.0.weight): N=10 C=32 28x28 -> K=192 28x28,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan24 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release24(HieraConvPlan24& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan24();
}
static HieraConvPlan24* hiera_conv_setup24(cudnnHandle_t h, HieraConvPlan24& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 32, 28, 28));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 192, 32, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 192 || oh != 28 || ow != 28) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 28, 28));
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
static HieraConvPlan24* hiera_conv_plan24(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan24 p;
    static HieraConvPlan24* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup24(h, p);
        if (ready == nullptr) hiera_conv_release24(p);
    }
    return ready;
}


// Convolution 26: tmp26 = conv2d(tmp25, features.7.3.weight): N=10 C=192 28x28 -> K=192 28x28,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 192; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan26 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release26(HieraConvPlan26& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan26();
}
static HieraConvPlan26* hiera_conv_setup26(cudnnHandle_t h, HieraConvPlan26& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 28, 28));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 192, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 192));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 192 || oh != 28 || ow != 28) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 28, 28));
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
static HieraConvPlan26* hiera_conv_plan26(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan26 p;
    static HieraConvPlan26* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup26(h, p);
        if (ready == nullptr) hiera_conv_release26(p);
    }
    return ready;
}


// Convolution 28: tmp28 = conv2d(tmp27, features.7.6.weight): N=10 C=192 28x28 -> K=32 28x28,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan28 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release28(HieraConvPlan28& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan28();
}
static HieraConvPlan28* hiera_conv_setup28(cudnnHandle_t h, HieraConvPlan28& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 28, 28));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 32, 192, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 32 || oh != 28 || ow != 28) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 32, 28, 28));
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
static HieraConvPlan28* hiera_conv_plan28(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan28 p;
    static HieraConvPlan28* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup28(h, p);
        if (ready == nullptr) hiera_conv_release28(p);
    }
    return ready;
}


// Convolution 30: tmp30 = conv2d(tmp29, features.8.0.weight): N=10 C=32 28x28 -> K=192 28x28,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan30 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release30(HieraConvPlan30& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan30();
}
static HieraConvPlan30* hiera_conv_setup30(cudnnHandle_t h, HieraConvPlan30& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 32, 28, 28));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 192, 32, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 192 || oh != 28 || ow != 28) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 28, 28));
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
static HieraConvPlan30* hiera_conv_plan30(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan30 p;
    static HieraConvPlan30* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup30(h, p);
        if (ready == nullptr) hiera_conv_release30(p);
    }
    return ready;
}


// Convolution 32: tmp32 = conv2d(tmp31, features.8.3.weight): N=10 C=192 28x28 -> K=192 28x28,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 192; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan32 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release32(HieraConvPlan32& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan32();
}
static HieraConvPlan32* hiera_conv_setup32(cudnnHandle_t h, HieraConvPlan32& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 28, 28));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 192, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 192));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 192 || oh != 28 || ow != 28) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 28, 28));
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
static HieraConvPlan32* hiera_conv_plan32(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan32 p;
    static HieraConvPlan32* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup32(h, p);
        if (ready == nullptr) hiera_conv_release32(p);
    }
    return ready;
}


// Convolution 34: tmp34 = conv2d(tmp33, features.8.6.weight): N=10 C=192 28x28 -> K=32 28x28,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan34 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release34(HieraConvPlan34& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan34();
}
static HieraConvPlan34* hiera_conv_setup34(cudnnHandle_t h, HieraConvPlan34& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 28, 28));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 32, 192, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 32 || oh != 28 || ow != 28) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 32, 28, 28));
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
static HieraConvPlan34* hiera_conv_plan34(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan34 p;
    static HieraConvPlan34* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup34(h, p);
        if (ready == nullptr) hiera_conv_release34(p);
    }
    return ready;
}


// Convolution 36: tmp36 = conv2d(tmp35, features.9.0.weight): N=10 C=32 28x28 -> K=192 28x28,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan36 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release36(HieraConvPlan36& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan36();
}
static HieraConvPlan36* hiera_conv_setup36(cudnnHandle_t h, HieraConvPlan36& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 32, 28, 28));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 192, 32, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 192 || oh != 28 || ow != 28) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 28, 28));
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
static HieraConvPlan36* hiera_conv_plan36(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan36 p;
    static HieraConvPlan36* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup36(h, p);
        if (ready == nullptr) hiera_conv_release36(p);
    }
    return ready;
}


// Convolution 38: tmp38 = conv2d(tmp37, features.9.3.weight): N=10 C=192 28x28 -> K=192 14x14,
// kernel 3x3, stride 2x2, padding 1x1, dilation 1x1, groups 192; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan38 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release38(HieraConvPlan38& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan38();
}
static HieraConvPlan38* hiera_conv_setup38(cudnnHandle_t h, HieraConvPlan38& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 28, 28));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 192, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 2, 2, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 192));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 192 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 14, 14));
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
static HieraConvPlan38* hiera_conv_plan38(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan38 p;
    static HieraConvPlan38* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup38(h, p);
        if (ready == nullptr) hiera_conv_release38(p);
    }
    return ready;
}


// Convolution 40: tmp40 = conv2d(tmp39, features.9.6.weight): N=10 C=192 14x14 -> K=64 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan40 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release40(HieraConvPlan40& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan40();
}
static HieraConvPlan40* hiera_conv_setup40(cudnnHandle_t h, HieraConvPlan40& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 192, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 64, 192, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 64 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 64, 14, 14));
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
static HieraConvPlan40* hiera_conv_plan40(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan40 p;
    static HieraConvPlan40* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup40(h, p);
        if (ready == nullptr) hiera_conv_release40(p);
    }
    return ready;
}


// Convolution 42: tmp42 = conv2d(tmp41, features.10.0.weight): N=10 C=64 14x14 -> K=384 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan42 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release42(HieraConvPlan42& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan42();
}
static HieraConvPlan42* hiera_conv_setup42(cudnnHandle_t h, HieraConvPlan42& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 64, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 384, 64, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 384 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
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
static HieraConvPlan42* hiera_conv_plan42(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan42 p;
    static HieraConvPlan42* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup42(h, p);
        if (ready == nullptr) hiera_conv_release42(p);
    }
    return ready;
}


// Convolution 44: tmp44 = conv2d(tmp43, features.10.3.weight): N=10 C=384 14x14 -> K=384 14x14,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 384; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan44 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release44(HieraConvPlan44& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan44();
}
static HieraConvPlan44* hiera_conv_setup44(cudnnHandle_t h, HieraConvPlan44& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 384, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 384));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 384 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
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
static HieraConvPlan44* hiera_conv_plan44(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan44 p;
    static HieraConvPlan44* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup44(h, p);
        if (ready == nullptr) hiera_conv_release44(p);
    }
    return ready;
}


// Convolution 46: tmp46 = conv2d(tmp45, features.10.6.weight): N=10 C=384 14x14 -> K=64 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan46 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release46(HieraConvPlan46& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan46();
}
static HieraConvPlan46* hiera_conv_setup46(cudnnHandle_t h, HieraConvPlan46& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 64, 384, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 64 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 64, 14, 14));
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
static HieraConvPlan46* hiera_conv_plan46(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan46 p;
    static HieraConvPlan46* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup46(h, p);
        if (ready == nullptr) hiera_conv_release46(p);
    }
    return ready;
}


// Convolution 48: tmp48 = conv2d(tmp47, features.11.0.weight): N=10 C=64 14x14 -> K=384 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan48 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release48(HieraConvPlan48& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan48();
}
static HieraConvPlan48* hiera_conv_setup48(cudnnHandle_t h, HieraConvPlan48& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 64, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 384, 64, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 384 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
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
static HieraConvPlan48* hiera_conv_plan48(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan48 p;
    static HieraConvPlan48* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup48(h, p);
        if (ready == nullptr) hiera_conv_release48(p);
    }
    return ready;
}


// Convolution 50: tmp50 = conv2d(tmp49, features.11.3.weight): N=10 C=384 14x14 -> K=384 14x14,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 384; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan50 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release50(HieraConvPlan50& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan50();
}
static HieraConvPlan50* hiera_conv_setup50(cudnnHandle_t h, HieraConvPlan50& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 384, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 384));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 384 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
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
static HieraConvPlan50* hiera_conv_plan50(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan50 p;
    static HieraConvPlan50* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup50(h, p);
        if (ready == nullptr) hiera_conv_release50(p);
    }
    return ready;
}


// Convolution 52: tmp52 = conv2d(tmp51, features.11.6.weight): N=10 C=384 14x14 -> K=64 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan52 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release52(HieraConvPlan52& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan52();
}
static HieraConvPlan52* hiera_conv_setup52(cudnnHandle_t h, HieraConvPlan52& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 64, 384, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 64 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 64, 14, 14));
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
static HieraConvPlan52* hiera_conv_plan52(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan52 p;
    static HieraConvPlan52* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup52(h, p);
        if (ready == nullptr) hiera_conv_release52(p);
    }
    return ready;
}


// Convolution 54: tmp54 = conv2d(tmp53, features.12.0.weight): N=10 C=64 14x14 -> K=384 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan54 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release54(HieraConvPlan54& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan54();
}
static HieraConvPlan54* hiera_conv_setup54(cudnnHandle_t h, HieraConvPlan54& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 64, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 384, 64, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 384 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
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
static HieraConvPlan54* hiera_conv_plan54(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan54 p;
    static HieraConvPlan54* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup54(h, p);
        if (ready == nullptr) hiera_conv_release54(p);
    }
    return ready;
}


// Convolution 56: tmp56 = conv2d(tmp55, features.12.3.weight): N=10 C=384 14x14 -> K=384 14x14,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 384; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan56 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release56(HieraConvPlan56& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan56();
}
static HieraConvPlan56* hiera_conv_setup56(cudnnHandle_t h, HieraConvPlan56& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 384, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 384));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 384 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
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
static HieraConvPlan56* hiera_conv_plan56(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan56 p;
    static HieraConvPlan56* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup56(h, p);
        if (ready == nullptr) hiera_conv_release56(p);
    }
    return ready;
}


// Convolution 58: tmp58 = conv2d(tmp57, features.12.6.weight): N=10 C=384 14x14 -> K=64 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan58 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release58(HieraConvPlan58& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan58();
}
static HieraConvPlan58* hiera_conv_setup58(cudnnHandle_t h, HieraConvPlan58& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 64, 384, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 64 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 64, 14, 14));
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
static HieraConvPlan58* hiera_conv_plan58(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan58 p;
    static HieraConvPlan58* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup58(h, p);
        if (ready == nullptr) hiera_conv_release58(p);
    }
    return ready;
}


// Convolution 60: tmp60 = conv2d(tmp59, features.13.0.weight): N=10 C=64 14x14 -> K=384 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan60 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release60(HieraConvPlan60& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan60();
}
static HieraConvPlan60* hiera_conv_setup60(cudnnHandle_t h, HieraConvPlan60& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 64, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 384, 64, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 384 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
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
static HieraConvPlan60* hiera_conv_plan60(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan60 p;
    static HieraConvPlan60* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup60(h, p);
        if (ready == nullptr) hiera_conv_release60(p);
    }
    return ready;
}


// Convolution 62: tmp62 = conv2d(tmp61, features.13.3.weight): N=10 C=384 14x14 -> K=384 14x14,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 384; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan62 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release62(HieraConvPlan62& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan62();
}
static HieraConvPlan62* hiera_conv_setup62(cudnnHandle_t h, HieraConvPlan62& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 384, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 384));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 384 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
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
static HieraConvPlan62* hiera_conv_plan62(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan62 p;
    static HieraConvPlan62* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup62(h, p);
        if (ready == nullptr) hiera_conv_release62(p);
    }
    return ready;
}


// Convolution 64: tmp64 = conv2d(tmp63, features.13.6.weight): N=10 C=384 14x14 -> K=96 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan64 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release64(HieraConvPlan64& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan64();
}
static HieraConvPlan64* hiera_conv_setup64(cudnnHandle_t h, HieraConvPlan64& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 384, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 96, 384, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 96 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 96, 14, 14));
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
static HieraConvPlan64* hiera_conv_plan64(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan64 p;
    static HieraConvPlan64* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup64(h, p);
        if (ready == nullptr) hiera_conv_release64(p);
    }
    return ready;
}


// Convolution 66: tmp66 = conv2d(tmp65, features.14.0.weight): N=10 C=96 14x14 -> K=576 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan66 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release66(HieraConvPlan66& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan66();
}
static HieraConvPlan66* hiera_conv_setup66(cudnnHandle_t h, HieraConvPlan66& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 96, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 576, 96, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 576 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 14, 14));
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
static HieraConvPlan66* hiera_conv_plan66(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan66 p;
    static HieraConvPlan66* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup66(h, p);
        if (ready == nullptr) hiera_conv_release66(p);
    }
    return ready;
}


// Convolution 68: tmp68 = conv2d(tmp67, features.14.3.weight): N=10 C=576 14x14 -> K=576 14x14,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 576; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan68 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release68(HieraConvPlan68& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan68();
}
static HieraConvPlan68* hiera_conv_setup68(cudnnHandle_t h, HieraConvPlan68& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 576, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 576));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 576 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 14, 14));
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
static HieraConvPlan68* hiera_conv_plan68(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan68 p;
    static HieraConvPlan68* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup68(h, p);
        if (ready == nullptr) hiera_conv_release68(p);
    }
    return ready;
}


// Convolution 70: tmp70 = conv2d(tmp69, features.14.6.weight): N=10 C=576 14x14 -> K=96 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan70 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release70(HieraConvPlan70& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan70();
}
static HieraConvPlan70* hiera_conv_setup70(cudnnHandle_t h, HieraConvPlan70& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 96, 576, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 96 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 96, 14, 14));
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
static HieraConvPlan70* hiera_conv_plan70(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan70 p;
    static HieraConvPlan70* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup70(h, p);
        if (ready == nullptr) hiera_conv_release70(p);
    }
    return ready;
}


// Convolution 72: tmp72 = conv2d(tmp71, features.15.0.weight): N=10 C=96 14x14 -> K=576 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan72 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release72(HieraConvPlan72& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan72();
}
static HieraConvPlan72* hiera_conv_setup72(cudnnHandle_t h, HieraConvPlan72& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 96, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 576, 96, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 576 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 14, 14));
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
static HieraConvPlan72* hiera_conv_plan72(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan72 p;
    static HieraConvPlan72* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup72(h, p);
        if (ready == nullptr) hiera_conv_release72(p);
    }
    return ready;
}


// Convolution 74: tmp74 = conv2d(tmp73, features.15.3.weight): N=10 C=576 14x14 -> K=576 14x14,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 576; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan74 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release74(HieraConvPlan74& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan74();
}
static HieraConvPlan74* hiera_conv_setup74(cudnnHandle_t h, HieraConvPlan74& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 576, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 576));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 576 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 14, 14));
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
static HieraConvPlan74* hiera_conv_plan74(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan74 p;
    static HieraConvPlan74* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup74(h, p);
        if (ready == nullptr) hiera_conv_release74(p);
    }
    return ready;
}


// Convolution 76: tmp76 = conv2d(tmp75, features.15.6.weight): N=10 C=576 14x14 -> K=96 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan76 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release76(HieraConvPlan76& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan76();
}
static HieraConvPlan76* hiera_conv_setup76(cudnnHandle_t h, HieraConvPlan76& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 96, 576, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 96 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 96, 14, 14));
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
static HieraConvPlan76* hiera_conv_plan76(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan76 p;
    static HieraConvPlan76* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup76(h, p);
        if (ready == nullptr) hiera_conv_release76(p);
    }
    return ready;
}


// Convolution 78: tmp78 = conv2d(tmp77, features.16.0.weight): N=10 C=96 14x14 -> K=576 14x14,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan78 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release78(HieraConvPlan78& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan78();
}
static HieraConvPlan78* hiera_conv_setup78(cudnnHandle_t h, HieraConvPlan78& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 96, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 576, 96, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 576 || oh != 14 || ow != 14) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 14, 14));
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
static HieraConvPlan78* hiera_conv_plan78(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan78 p;
    static HieraConvPlan78* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup78(h, p);
        if (ready == nullptr) hiera_conv_release78(p);
    }
    return ready;
}


// Convolution 80: tmp80 = conv2d(tmp79, features.16.3.weight): N=10 C=576 14x14 -> K=576 7x7,
// kernel 3x3, stride 2x2, padding 1x1, dilation 1x1, groups 576; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan80 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release80(HieraConvPlan80& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan80();
}
static HieraConvPlan80* hiera_conv_setup80(cudnnHandle_t h, HieraConvPlan80& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 576, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 2, 2, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 576));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 576 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 7, 7));
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
static HieraConvPlan80* hiera_conv_plan80(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan80 p;
    static HieraConvPlan80* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup80(h, p);
        if (ready == nullptr) hiera_conv_release80(p);
    }
    return ready;
}


// Convolution 82: tmp82 = conv2d(tmp81, features.16.6.weight): N=10 C=576 7x7 -> K=160 7x7,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan82 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release82(HieraConvPlan82& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan82();
}
static HieraConvPlan82* hiera_conv_setup82(cudnnHandle_t h, HieraConvPlan82& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 576, 7, 7));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 160, 576, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 160 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 160, 7, 7));
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
static HieraConvPlan82* hiera_conv_plan82(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan82 p;
    static HieraConvPlan82* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup82(h, p);
        if (ready == nullptr) hiera_conv_release82(p);
    }
    return ready;
}


// Convolution 84: tmp84 = conv2d(tmp83, features.17.0.weight): N=10 C=160 7x7 -> K=960 7x7,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan84 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release84(HieraConvPlan84& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan84();
}
static HieraConvPlan84* hiera_conv_setup84(cudnnHandle_t h, HieraConvPlan84& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 160, 7, 7));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 960, 160, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 960 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
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
static HieraConvPlan84* hiera_conv_plan84(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan84 p;
    static HieraConvPlan84* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup84(h, p);
        if (ready == nullptr) hiera_conv_release84(p);
    }
    return ready;
}


// Convolution 86: tmp86 = conv2d(tmp85, features.17.3.weight): N=10 C=960 7x7 -> K=960 7x7,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 960; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan86 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release86(HieraConvPlan86& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan86();
}
static HieraConvPlan86* hiera_conv_setup86(cudnnHandle_t h, HieraConvPlan86& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 960, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 960));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 960 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
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
static HieraConvPlan86* hiera_conv_plan86(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan86 p;
    static HieraConvPlan86* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup86(h, p);
        if (ready == nullptr) hiera_conv_release86(p);
    }
    return ready;
}


// Convolution 88: tmp88 = conv2d(tmp87, features.17.6.weight): N=10 C=960 7x7 -> K=160 7x7,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan88 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release88(HieraConvPlan88& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan88();
}
static HieraConvPlan88* hiera_conv_setup88(cudnnHandle_t h, HieraConvPlan88& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 160, 960, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 160 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 160, 7, 7));
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
static HieraConvPlan88* hiera_conv_plan88(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan88 p;
    static HieraConvPlan88* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup88(h, p);
        if (ready == nullptr) hiera_conv_release88(p);
    }
    return ready;
}


// Convolution 90: tmp90 = conv2d(tmp89, features.18.0.weight): N=10 C=160 7x7 -> K=960 7x7,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan90 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release90(HieraConvPlan90& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan90();
}
static HieraConvPlan90* hiera_conv_setup90(cudnnHandle_t h, HieraConvPlan90& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 160, 7, 7));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 960, 160, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 960 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
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
static HieraConvPlan90* hiera_conv_plan90(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan90 p;
    static HieraConvPlan90* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup90(h, p);
        if (ready == nullptr) hiera_conv_release90(p);
    }
    return ready;
}


// Convolution 92: tmp92 = conv2d(tmp91, features.18.3.weight): N=10 C=960 7x7 -> K=960 7x7,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 960; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan92 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release92(HieraConvPlan92& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan92();
}
static HieraConvPlan92* hiera_conv_setup92(cudnnHandle_t h, HieraConvPlan92& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 960, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 960));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 960 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
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
static HieraConvPlan92* hiera_conv_plan92(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan92 p;
    static HieraConvPlan92* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup92(h, p);
        if (ready == nullptr) hiera_conv_release92(p);
    }
    return ready;
}


// Convolution 94: tmp94 = conv2d(tmp93, features.18.6.weight): N=10 C=960 7x7 -> K=160 7x7,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan94 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release94(HieraConvPlan94& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan94();
}
static HieraConvPlan94* hiera_conv_setup94(cudnnHandle_t h, HieraConvPlan94& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 160, 960, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 160 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 160, 7, 7));
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
static HieraConvPlan94* hiera_conv_plan94(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan94 p;
    static HieraConvPlan94* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup94(h, p);
        if (ready == nullptr) hiera_conv_release94(p);
    }
    return ready;
}


// Convolution 96: tmp96 = conv2d(tmp95, features.19.0.weight): N=10 C=160 7x7 -> K=960 7x7,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan96 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release96(HieraConvPlan96& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan96();
}
static HieraConvPlan96* hiera_conv_setup96(cudnnHandle_t h, HieraConvPlan96& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 160, 7, 7));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 960, 160, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 960 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
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
static HieraConvPlan96* hiera_conv_plan96(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan96 p;
    static HieraConvPlan96* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup96(h, p);
        if (ready == nullptr) hiera_conv_release96(p);
    }
    return ready;
}


// Convolution 98: tmp98 = conv2d(tmp97, features.19.3.weight): N=10 C=960 7x7 -> K=960 7x7,
// kernel 3x3, stride 1x1, padding 1x1, dilation 1x1, groups 960; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan98 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release98(HieraConvPlan98& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan98();
}
static HieraConvPlan98* hiera_conv_setup98(cudnnHandle_t h, HieraConvPlan98& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 960, 1, 3, 3));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 960));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 960 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
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
static HieraConvPlan98* hiera_conv_plan98(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan98 p;
    static HieraConvPlan98* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup98(h, p);
        if (ready == nullptr) hiera_conv_release98(p);
    }
    return ready;
}


// Convolution 100: tmp100 = conv2d(tmp99, features.19.6.weight): N=10 C=960 7x7 -> K=320 7x7,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan100 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release100(HieraConvPlan100& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan100();
}
static HieraConvPlan100* hiera_conv_setup100(cudnnHandle_t h, HieraConvPlan100& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 960, 7, 7));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 320, 960, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 320 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 320, 7, 7));
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
static HieraConvPlan100* hiera_conv_plan100(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan100 p;
    static HieraConvPlan100* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup100(h, p);
        if (ready == nullptr) hiera_conv_release100(p);
    }
    return ready;
}


// Convolution 102: tmp102 = conv2d(tmp101, features.20.weight): N=10 C=320 7x7 -> K=1280 7x7,
// kernel 1x1, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
// math CUDNN_FMA_MATH. Descriptors, algorithm and workspace are set up once (the shapes are fixed).
struct HieraConvPlan102 {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
};
static void hiera_conv_release102(HieraConvPlan102& p) {
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan102();
}
static HieraConvPlan102* hiera_conv_setup102(cudnnHandle_t h, HieraConvPlan102& p) {
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 320, 7, 7));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 1280, 320, 1, 1));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 10 || ok != 1280 || oh != 7 || ow != 7) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 10, 1280, 7, 7));
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
static HieraConvPlan102* hiera_conv_plan102(cudnnHandle_t h) {
    static std::mutex lock;
    static HieraConvPlan102 p;
    static HieraConvPlan102* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {
        ready = hiera_conv_setup102(h, p);
        if (ready == nullptr) hiera_conv_release102(p);
    }
    return ready;
}


// Product 105: out = tmp104 @ classifier.1.weight + classifier.1.bias (M=10 N=1000 K=1280),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan105 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan105* hiera_lt_plan105(const void* bias) {
    static HieraLtPlan105 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 1280, 1000, 1280);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 1280, 10, 1280);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 1000, 10, 1000);

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

// tmp1 = relu6(((((tmp0 - features.1.running_mean) * rsqrt((features.1.running_var + 1e-05))) * features.1.weight) + f…
// 4014080 elements as 1003520 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage1(const float* __restrict__ p_tmp0, const float* __restrict__ p_features_1_running_mean, const float* __restrict__ p_features_1_running_var, const float* __restrict__ p_features_1_weight, const float* __restrict__ p_features_1_bias, float* __restrict__ p_tmp1) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1003520; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp0 + i);
        const float U1 = p_features_1_running_mean[(i / 12544) % 32];
        const float U2 = p_features_1_running_var[(i / 12544) % 32];
        const float U3 = p_features_1_weight[(i / 12544) % 32];
        const float U4 = p_features_1_bias[(i / 12544) % 32];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp1 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp1 = relu6(((((tmp0 - features.1.running_mean) * rsqrt((features.1.running_var + 1e-05))) * features.1.weight) + f…
// 4014080 elements as 4014080 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage1_scalar(const float* __restrict__ p_tmp0, const float* __restrict__ p_features_1_running_mean, const float* __restrict__ p_features_1_running_var, const float* __restrict__ p_features_1_weight, const float* __restrict__ p_features_1_bias, float* __restrict__ p_tmp1) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 4014080; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp0[i];
        const float t1 = p_features_1_running_mean[(i / 12544) % 32];
        const float t2 = (t0 - t1);
        const float t3 = p_features_1_running_var[(i / 12544) % 32];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_1_weight[(i / 12544) % 32];
        const float t8 = (t6 * t7);
        const float t9 = p_features_1_bias[(i / 12544) % 32];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp1[i] = t11;
    }
}

// tmp3 = relu6(((((tmp2 - features.3.1.running_mean) * rsqrt((features.3.1.running_var + 1e-05))) * features.3.1.weigh…
// 4014080 elements as 1003520 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage3(const float* __restrict__ p_tmp2, const float* __restrict__ p_features_3_1_running_mean, const float* __restrict__ p_features_3_1_running_var, const float* __restrict__ p_features_3_1_weight, const float* __restrict__ p_features_3_1_bias, float* __restrict__ p_tmp3) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1003520; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp2 + i);
        const float U1 = p_features_3_1_running_mean[(i / 12544) % 32];
        const float U2 = p_features_3_1_running_var[(i / 12544) % 32];
        const float U3 = p_features_3_1_weight[(i / 12544) % 32];
        const float U4 = p_features_3_1_bias[(i / 12544) % 32];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp3 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp3 = relu6(((((tmp2 - features.3.1.running_mean) * rsqrt((features.3.1.running_var + 1e-05))) * features.3.1.weigh…
// 4014080 elements as 4014080 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage3_scalar(const float* __restrict__ p_tmp2, const float* __restrict__ p_features_3_1_running_mean, const float* __restrict__ p_features_3_1_running_var, const float* __restrict__ p_features_3_1_weight, const float* __restrict__ p_features_3_1_bias, float* __restrict__ p_tmp3) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 4014080; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp2[i];
        const float t1 = p_features_3_1_running_mean[(i / 12544) % 32];
        const float t2 = (t0 - t1);
        const float t3 = p_features_3_1_running_var[(i / 12544) % 32];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_3_1_weight[(i / 12544) % 32];
        const float t8 = (t6 * t7);
        const float t9 = p_features_3_1_bias[(i / 12544) % 32];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp3[i] = t11;
    }
}

// tmp5 = ((((tmp4 - features.3.4.running_mean) * rsqrt((features.3.4.running_var + 1e-05))) * features.3.4.weight) + f…
// 2007040 elements as 501760 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage5(const float* __restrict__ p_tmp4, const float* __restrict__ p_features_3_4_running_mean, const float* __restrict__ p_features_3_4_running_var, const float* __restrict__ p_features_3_4_weight, const float* __restrict__ p_features_3_4_bias, float* __restrict__ p_tmp5) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 501760; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp4 + i);
        const float U1 = p_features_3_4_running_mean[(i / 12544) % 16];
        const float U2 = p_features_3_4_running_var[(i / 12544) % 16];
        const float U3 = p_features_3_4_weight[(i / 12544) % 16];
        const float U4 = p_features_3_4_bias[(i / 12544) % 16];
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
        *reinterpret_cast<float4*>(p_tmp5 + i) = make_float4(t0_10, t1_10, t2_10, t3_10);
    }
}

// tmp5 = ((((tmp4 - features.3.4.running_mean) * rsqrt((features.3.4.running_var + 1e-05))) * features.3.4.weight) + f…
// 2007040 elements as 2007040 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage5_scalar(const float* __restrict__ p_tmp4, const float* __restrict__ p_features_3_4_running_mean, const float* __restrict__ p_features_3_4_running_var, const float* __restrict__ p_features_3_4_weight, const float* __restrict__ p_features_3_4_bias, float* __restrict__ p_tmp5) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 2007040; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp4[i];
        const float t1 = p_features_3_4_running_mean[(i / 12544) % 16];
        const float t2 = (t0 - t1);
        const float t3 = p_features_3_4_running_var[(i / 12544) % 16];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_3_4_weight[(i / 12544) % 16];
        const float t8 = (t6 * t7);
        const float t9 = p_features_3_4_bias[(i / 12544) % 16];
        const float t10 = (t8 + t9);
        p_tmp5[i] = t10;
    }
}

// tmp7 = relu6(((((tmp6 - features.4.1.running_mean) * rsqrt((features.4.1.running_var + 1e-05))) * features.4.1.weigh…
// 12042240 elements as 3010560 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage7(const float* __restrict__ p_tmp6, const float* __restrict__ p_features_4_1_running_mean, const float* __restrict__ p_features_4_1_running_var, const float* __restrict__ p_features_4_1_weight, const float* __restrict__ p_features_4_1_bias, float* __restrict__ p_tmp7) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 3010560; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp6 + i);
        const float U1 = p_features_4_1_running_mean[(i / 12544) % 96];
        const float U2 = p_features_4_1_running_var[(i / 12544) % 96];
        const float U3 = p_features_4_1_weight[(i / 12544) % 96];
        const float U4 = p_features_4_1_bias[(i / 12544) % 96];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp7 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp7 = relu6(((((tmp6 - features.4.1.running_mean) * rsqrt((features.4.1.running_var + 1e-05))) * features.4.1.weigh…
// 12042240 elements as 12042240 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage7_scalar(const float* __restrict__ p_tmp6, const float* __restrict__ p_features_4_1_running_mean, const float* __restrict__ p_features_4_1_running_var, const float* __restrict__ p_features_4_1_weight, const float* __restrict__ p_features_4_1_bias, float* __restrict__ p_tmp7) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 12042240; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp6[i];
        const float t1 = p_features_4_1_running_mean[(i / 12544) % 96];
        const float t2 = (t0 - t1);
        const float t3 = p_features_4_1_running_var[(i / 12544) % 96];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_4_1_weight[(i / 12544) % 96];
        const float t8 = (t6 * t7);
        const float t9 = p_features_4_1_bias[(i / 12544) % 96];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp7[i] = t11;
    }
}

// tmp9 = relu6(((((tmp8 - features.4.4.running_mean) * rsqrt((features.4.4.running_var + 1e-05))) * features.4.4.weigh…
// 3010560 elements as 752640 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage9(const float* __restrict__ p_tmp8, const float* __restrict__ p_features_4_4_running_mean, const float* __restrict__ p_features_4_4_running_var, const float* __restrict__ p_features_4_4_weight, const float* __restrict__ p_features_4_4_bias, float* __restrict__ p_tmp9) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 752640; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp8 + i);
        const float U1 = p_features_4_4_running_mean[(i / 3136) % 96];
        const float U2 = p_features_4_4_running_var[(i / 3136) % 96];
        const float U3 = p_features_4_4_weight[(i / 3136) % 96];
        const float U4 = p_features_4_4_bias[(i / 3136) % 96];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp9 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp9 = relu6(((((tmp8 - features.4.4.running_mean) * rsqrt((features.4.4.running_var + 1e-05))) * features.4.4.weigh…
// 3010560 elements as 3010560 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage9_scalar(const float* __restrict__ p_tmp8, const float* __restrict__ p_features_4_4_running_mean, const float* __restrict__ p_features_4_4_running_var, const float* __restrict__ p_features_4_4_weight, const float* __restrict__ p_features_4_4_bias, float* __restrict__ p_tmp9) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 3010560; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp8[i];
        const float t1 = p_features_4_4_running_mean[(i / 3136) % 96];
        const float t2 = (t0 - t1);
        const float t3 = p_features_4_4_running_var[(i / 3136) % 96];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_4_4_weight[(i / 3136) % 96];
        const float t8 = (t6 * t7);
        const float t9 = p_features_4_4_bias[(i / 3136) % 96];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp9[i] = t11;
    }
}

// tmp11 = ((((tmp10 - features.4.7.running_mean) * rsqrt((features.4.7.running_var + 1e-05))) * features.4.7.weight) + …
// 752640 elements as 188160 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage11(const float* __restrict__ p_tmp10, const float* __restrict__ p_features_4_7_running_mean, const float* __restrict__ p_features_4_7_running_var, const float* __restrict__ p_features_4_7_weight, const float* __restrict__ p_features_4_7_bias, float* __restrict__ p_tmp11) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 188160; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp10 + i);
        const float U1 = p_features_4_7_running_mean[(i / 3136) % 24];
        const float U2 = p_features_4_7_running_var[(i / 3136) % 24];
        const float U3 = p_features_4_7_weight[(i / 3136) % 24];
        const float U4 = p_features_4_7_bias[(i / 3136) % 24];
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
        *reinterpret_cast<float4*>(p_tmp11 + i) = make_float4(t0_10, t1_10, t2_10, t3_10);
    }
}

// tmp11 = ((((tmp10 - features.4.7.running_mean) * rsqrt((features.4.7.running_var + 1e-05))) * features.4.7.weight) + …
// 752640 elements as 752640 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage11_scalar(const float* __restrict__ p_tmp10, const float* __restrict__ p_features_4_7_running_mean, const float* __restrict__ p_features_4_7_running_var, const float* __restrict__ p_features_4_7_weight, const float* __restrict__ p_features_4_7_bias, float* __restrict__ p_tmp11) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 752640; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp10[i];
        const float t1 = p_features_4_7_running_mean[(i / 3136) % 24];
        const float t2 = (t0 - t1);
        const float t3 = p_features_4_7_running_var[(i / 3136) % 24];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_4_7_weight[(i / 3136) % 24];
        const float t8 = (t6 * t7);
        const float t9 = p_features_4_7_bias[(i / 3136) % 24];
        const float t10 = (t8 + t9);
        p_tmp11[i] = t10;
    }
}

// tmp13 = relu6(((((tmp12 - features.5.1.running_mean) * rsqrt((features.5.1.running_var + 1e-05))) * features.5.1.weig…
// 4515840 elements as 1128960 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage13(const float* __restrict__ p_tmp12, const float* __restrict__ p_features_5_1_running_mean, const float* __restrict__ p_features_5_1_running_var, const float* __restrict__ p_features_5_1_weight, const float* __restrict__ p_features_5_1_bias, float* __restrict__ p_tmp13) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1128960; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp12 + i);
        const float U1 = p_features_5_1_running_mean[(i / 3136) % 144];
        const float U2 = p_features_5_1_running_var[(i / 3136) % 144];
        const float U3 = p_features_5_1_weight[(i / 3136) % 144];
        const float U4 = p_features_5_1_bias[(i / 3136) % 144];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp13 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp13 = relu6(((((tmp12 - features.5.1.running_mean) * rsqrt((features.5.1.running_var + 1e-05))) * features.5.1.weig…
// 4515840 elements as 4515840 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage13_scalar(const float* __restrict__ p_tmp12, const float* __restrict__ p_features_5_1_running_mean, const float* __restrict__ p_features_5_1_running_var, const float* __restrict__ p_features_5_1_weight, const float* __restrict__ p_features_5_1_bias, float* __restrict__ p_tmp13) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 4515840; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp12[i];
        const float t1 = p_features_5_1_running_mean[(i / 3136) % 144];
        const float t2 = (t0 - t1);
        const float t3 = p_features_5_1_running_var[(i / 3136) % 144];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_5_1_weight[(i / 3136) % 144];
        const float t8 = (t6 * t7);
        const float t9 = p_features_5_1_bias[(i / 3136) % 144];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp13[i] = t11;
    }
}

// tmp15 = relu6(((((tmp14 - features.5.4.running_mean) * rsqrt((features.5.4.running_var + 1e-05))) * features.5.4.weig…
// 4515840 elements as 1128960 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage15(const float* __restrict__ p_tmp14, const float* __restrict__ p_features_5_4_running_mean, const float* __restrict__ p_features_5_4_running_var, const float* __restrict__ p_features_5_4_weight, const float* __restrict__ p_features_5_4_bias, float* __restrict__ p_tmp15) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1128960; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp14 + i);
        const float U1 = p_features_5_4_running_mean[(i / 3136) % 144];
        const float U2 = p_features_5_4_running_var[(i / 3136) % 144];
        const float U3 = p_features_5_4_weight[(i / 3136) % 144];
        const float U4 = p_features_5_4_bias[(i / 3136) % 144];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp15 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp15 = relu6(((((tmp14 - features.5.4.running_mean) * rsqrt((features.5.4.running_var + 1e-05))) * features.5.4.weig…
// 4515840 elements as 4515840 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage15_scalar(const float* __restrict__ p_tmp14, const float* __restrict__ p_features_5_4_running_mean, const float* __restrict__ p_features_5_4_running_var, const float* __restrict__ p_features_5_4_weight, const float* __restrict__ p_features_5_4_bias, float* __restrict__ p_tmp15) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 4515840; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp14[i];
        const float t1 = p_features_5_4_running_mean[(i / 3136) % 144];
        const float t2 = (t0 - t1);
        const float t3 = p_features_5_4_running_var[(i / 3136) % 144];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_5_4_weight[(i / 3136) % 144];
        const float t8 = (t6 * t7);
        const float t9 = p_features_5_4_bias[(i / 3136) % 144];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp15[i] = t11;
    }
}

// tmp17 = ((((tmp16 - features.5.7.running_mean) * rsqrt((features.5.7.running_var + 1e-05))) * features.5.7.weight) + …
// 752640 elements as 188160 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage17(const float* __restrict__ p_tmp16, const float* __restrict__ p_features_5_7_running_mean, const float* __restrict__ p_features_5_7_running_var, const float* __restrict__ p_features_5_7_weight, const float* __restrict__ p_features_5_7_bias, float* __restrict__ p_tmp17) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 188160; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp16 + i);
        const float U1 = p_features_5_7_running_mean[(i / 3136) % 24];
        const float U2 = p_features_5_7_running_var[(i / 3136) % 24];
        const float U3 = p_features_5_7_weight[(i / 3136) % 24];
        const float U4 = p_features_5_7_bias[(i / 3136) % 24];
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
        *reinterpret_cast<float4*>(p_tmp17 + i) = make_float4(t0_10, t1_10, t2_10, t3_10);
    }
}

// tmp17 = ((((tmp16 - features.5.7.running_mean) * rsqrt((features.5.7.running_var + 1e-05))) * features.5.7.weight) + …
// 752640 elements as 752640 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage17_scalar(const float* __restrict__ p_tmp16, const float* __restrict__ p_features_5_7_running_mean, const float* __restrict__ p_features_5_7_running_var, const float* __restrict__ p_features_5_7_weight, const float* __restrict__ p_features_5_7_bias, float* __restrict__ p_tmp17) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 752640; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp16[i];
        const float t1 = p_features_5_7_running_mean[(i / 3136) % 24];
        const float t2 = (t0 - t1);
        const float t3 = p_features_5_7_running_var[(i / 3136) % 24];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_5_7_weight[(i / 3136) % 24];
        const float t8 = (t6 * t7);
        const float t9 = p_features_5_7_bias[(i / 3136) % 24];
        const float t10 = (t8 + t9);
        p_tmp17[i] = t10;
    }
}

// tmp19 = relu6(((((tmp18 - features.6.1.running_mean) * rsqrt((features.6.1.running_var + 1e-05))) * features.6.1.weig…
// 4515840 elements as 1128960 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage19(const float* __restrict__ p_tmp18, const float* __restrict__ p_features_6_1_running_mean, const float* __restrict__ p_features_6_1_running_var, const float* __restrict__ p_features_6_1_weight, const float* __restrict__ p_features_6_1_bias, float* __restrict__ p_tmp19) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1128960; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp18 + i);
        const float U1 = p_features_6_1_running_mean[(i / 3136) % 144];
        const float U2 = p_features_6_1_running_var[(i / 3136) % 144];
        const float U3 = p_features_6_1_weight[(i / 3136) % 144];
        const float U4 = p_features_6_1_bias[(i / 3136) % 144];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp19 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp19 = relu6(((((tmp18 - features.6.1.running_mean) * rsqrt((features.6.1.running_var + 1e-05))) * features.6.1.weig…
// 4515840 elements as 4515840 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage19_scalar(const float* __restrict__ p_tmp18, const float* __restrict__ p_features_6_1_running_mean, const float* __restrict__ p_features_6_1_running_var, const float* __restrict__ p_features_6_1_weight, const float* __restrict__ p_features_6_1_bias, float* __restrict__ p_tmp19) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 4515840; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp18[i];
        const float t1 = p_features_6_1_running_mean[(i / 3136) % 144];
        const float t2 = (t0 - t1);
        const float t3 = p_features_6_1_running_var[(i / 3136) % 144];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_6_1_weight[(i / 3136) % 144];
        const float t8 = (t6 * t7);
        const float t9 = p_features_6_1_bias[(i / 3136) % 144];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp19[i] = t11;
    }
}

// tmp21 = relu6(((((tmp20 - features.6.4.running_mean) * rsqrt((features.6.4.running_var + 1e-05))) * features.6.4.weig…
// 1128960 elements as 282240 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage21(const float* __restrict__ p_tmp20, const float* __restrict__ p_features_6_4_running_mean, const float* __restrict__ p_features_6_4_running_var, const float* __restrict__ p_features_6_4_weight, const float* __restrict__ p_features_6_4_bias, float* __restrict__ p_tmp21) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 282240; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp20 + i);
        const float U1 = p_features_6_4_running_mean[(i / 784) % 144];
        const float U2 = p_features_6_4_running_var[(i / 784) % 144];
        const float U3 = p_features_6_4_weight[(i / 784) % 144];
        const float U4 = p_features_6_4_bias[(i / 784) % 144];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp21 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp21 = relu6(((((tmp20 - features.6.4.running_mean) * rsqrt((features.6.4.running_var + 1e-05))) * features.6.4.weig…
// 1128960 elements as 1128960 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage21_scalar(const float* __restrict__ p_tmp20, const float* __restrict__ p_features_6_4_running_mean, const float* __restrict__ p_features_6_4_running_var, const float* __restrict__ p_features_6_4_weight, const float* __restrict__ p_features_6_4_bias, float* __restrict__ p_tmp21) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1128960; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp20[i];
        const float t1 = p_features_6_4_running_mean[(i / 784) % 144];
        const float t2 = (t0 - t1);
        const float t3 = p_features_6_4_running_var[(i / 784) % 144];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_6_4_weight[(i / 784) % 144];
        const float t8 = (t6 * t7);
        const float t9 = p_features_6_4_bias[(i / 784) % 144];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp21[i] = t11;
    }
}

// tmp23 = ((((tmp22 - features.6.7.running_mean) * rsqrt((features.6.7.running_var + 1e-05))) * features.6.7.weight) + …
// 250880 elements as 62720 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage23(const float* __restrict__ p_tmp22, const float* __restrict__ p_features_6_7_running_mean, const float* __restrict__ p_features_6_7_running_var, const float* __restrict__ p_features_6_7_weight, const float* __restrict__ p_features_6_7_bias, float* __restrict__ p_tmp23) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 62720; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp22 + i);
        const float U1 = p_features_6_7_running_mean[(i / 784) % 32];
        const float U2 = p_features_6_7_running_var[(i / 784) % 32];
        const float U3 = p_features_6_7_weight[(i / 784) % 32];
        const float U4 = p_features_6_7_bias[(i / 784) % 32];
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
        *reinterpret_cast<float4*>(p_tmp23 + i) = make_float4(t0_10, t1_10, t2_10, t3_10);
    }
}

// tmp23 = ((((tmp22 - features.6.7.running_mean) * rsqrt((features.6.7.running_var + 1e-05))) * features.6.7.weight) + …
// 250880 elements as 250880 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage23_scalar(const float* __restrict__ p_tmp22, const float* __restrict__ p_features_6_7_running_mean, const float* __restrict__ p_features_6_7_running_var, const float* __restrict__ p_features_6_7_weight, const float* __restrict__ p_features_6_7_bias, float* __restrict__ p_tmp23) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 250880; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp22[i];
        const float t1 = p_features_6_7_running_mean[(i / 784) % 32];
        const float t2 = (t0 - t1);
        const float t3 = p_features_6_7_running_var[(i / 784) % 32];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_6_7_weight[(i / 784) % 32];
        const float t8 = (t6 * t7);
        const float t9 = p_features_6_7_bias[(i / 784) % 32];
        const float t10 = (t8 + t9);
        p_tmp23[i] = t10;
    }
}

// tmp25 = relu6(((((tmp24 - features.7.1.running_mean) * rsqrt((features.7.1.running_var + 1e-05))) * features.7.1.weig…
// 1505280 elements as 376320 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage25(const float* __restrict__ p_tmp24, const float* __restrict__ p_features_7_1_running_mean, const float* __restrict__ p_features_7_1_running_var, const float* __restrict__ p_features_7_1_weight, const float* __restrict__ p_features_7_1_bias, float* __restrict__ p_tmp25) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 376320; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp24 + i);
        const float U1 = p_features_7_1_running_mean[(i / 784) % 192];
        const float U2 = p_features_7_1_running_var[(i / 784) % 192];
        const float U3 = p_features_7_1_weight[(i / 784) % 192];
        const float U4 = p_features_7_1_bias[(i / 784) % 192];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp25 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp25 = relu6(((((tmp24 - features.7.1.running_mean) * rsqrt((features.7.1.running_var + 1e-05))) * features.7.1.weig…
// 1505280 elements as 1505280 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage25_scalar(const float* __restrict__ p_tmp24, const float* __restrict__ p_features_7_1_running_mean, const float* __restrict__ p_features_7_1_running_var, const float* __restrict__ p_features_7_1_weight, const float* __restrict__ p_features_7_1_bias, float* __restrict__ p_tmp25) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1505280; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp24[i];
        const float t1 = p_features_7_1_running_mean[(i / 784) % 192];
        const float t2 = (t0 - t1);
        const float t3 = p_features_7_1_running_var[(i / 784) % 192];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_7_1_weight[(i / 784) % 192];
        const float t8 = (t6 * t7);
        const float t9 = p_features_7_1_bias[(i / 784) % 192];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp25[i] = t11;
    }
}

// tmp27 = relu6(((((tmp26 - features.7.4.running_mean) * rsqrt((features.7.4.running_var + 1e-05))) * features.7.4.weig…
// 1505280 elements as 376320 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage27(const float* __restrict__ p_tmp26, const float* __restrict__ p_features_7_4_running_mean, const float* __restrict__ p_features_7_4_running_var, const float* __restrict__ p_features_7_4_weight, const float* __restrict__ p_features_7_4_bias, float* __restrict__ p_tmp27) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 376320; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp26 + i);
        const float U1 = p_features_7_4_running_mean[(i / 784) % 192];
        const float U2 = p_features_7_4_running_var[(i / 784) % 192];
        const float U3 = p_features_7_4_weight[(i / 784) % 192];
        const float U4 = p_features_7_4_bias[(i / 784) % 192];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp27 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp27 = relu6(((((tmp26 - features.7.4.running_mean) * rsqrt((features.7.4.running_var + 1e-05))) * features.7.4.weig…
// 1505280 elements as 1505280 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage27_scalar(const float* __restrict__ p_tmp26, const float* __restrict__ p_features_7_4_running_mean, const float* __restrict__ p_features_7_4_running_var, const float* __restrict__ p_features_7_4_weight, const float* __restrict__ p_features_7_4_bias, float* __restrict__ p_tmp27) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1505280; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp26[i];
        const float t1 = p_features_7_4_running_mean[(i / 784) % 192];
        const float t2 = (t0 - t1);
        const float t3 = p_features_7_4_running_var[(i / 784) % 192];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_7_4_weight[(i / 784) % 192];
        const float t8 = (t6 * t7);
        const float t9 = p_features_7_4_bias[(i / 784) % 192];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp27[i] = t11;
    }
}

// tmp29 = ((((tmp28 - features.7.7.running_mean) * rsqrt((features.7.7.running_var + 1e-05))) * features.7.7.weight) + …
// 250880 elements as 62720 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage29(const float* __restrict__ p_tmp28, const float* __restrict__ p_features_7_7_running_mean, const float* __restrict__ p_features_7_7_running_var, const float* __restrict__ p_features_7_7_weight, const float* __restrict__ p_features_7_7_bias, float* __restrict__ p_tmp29) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 62720; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp28 + i);
        const float U1 = p_features_7_7_running_mean[(i / 784) % 32];
        const float U2 = p_features_7_7_running_var[(i / 784) % 32];
        const float U3 = p_features_7_7_weight[(i / 784) % 32];
        const float U4 = p_features_7_7_bias[(i / 784) % 32];
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
        *reinterpret_cast<float4*>(p_tmp29 + i) = make_float4(t0_10, t1_10, t2_10, t3_10);
    }
}

// tmp29 = ((((tmp28 - features.7.7.running_mean) * rsqrt((features.7.7.running_var + 1e-05))) * features.7.7.weight) + …
// 250880 elements as 250880 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage29_scalar(const float* __restrict__ p_tmp28, const float* __restrict__ p_features_7_7_running_mean, const float* __restrict__ p_features_7_7_running_var, const float* __restrict__ p_features_7_7_weight, const float* __restrict__ p_features_7_7_bias, float* __restrict__ p_tmp29) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 250880; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp28[i];
        const float t1 = p_features_7_7_running_mean[(i / 784) % 32];
        const float t2 = (t0 - t1);
        const float t3 = p_features_7_7_running_var[(i / 784) % 32];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_7_7_weight[(i / 784) % 32];
        const float t8 = (t6 * t7);
        const float t9 = p_features_7_7_bias[(i / 784) % 32];
        const float t10 = (t8 + t9);
        p_tmp29[i] = t10;
    }
}

// tmp31 = relu6(((((tmp30 - features.8.1.running_mean) * rsqrt((features.8.1.running_var + 1e-05))) * features.8.1.weig…
// 1505280 elements as 376320 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage31(const float* __restrict__ p_tmp30, const float* __restrict__ p_features_8_1_running_mean, const float* __restrict__ p_features_8_1_running_var, const float* __restrict__ p_features_8_1_weight, const float* __restrict__ p_features_8_1_bias, float* __restrict__ p_tmp31) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 376320; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp30 + i);
        const float U1 = p_features_8_1_running_mean[(i / 784) % 192];
        const float U2 = p_features_8_1_running_var[(i / 784) % 192];
        const float U3 = p_features_8_1_weight[(i / 784) % 192];
        const float U4 = p_features_8_1_bias[(i / 784) % 192];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp31 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp31 = relu6(((((tmp30 - features.8.1.running_mean) * rsqrt((features.8.1.running_var + 1e-05))) * features.8.1.weig…
// 1505280 elements as 1505280 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage31_scalar(const float* __restrict__ p_tmp30, const float* __restrict__ p_features_8_1_running_mean, const float* __restrict__ p_features_8_1_running_var, const float* __restrict__ p_features_8_1_weight, const float* __restrict__ p_features_8_1_bias, float* __restrict__ p_tmp31) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1505280; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp30[i];
        const float t1 = p_features_8_1_running_mean[(i / 784) % 192];
        const float t2 = (t0 - t1);
        const float t3 = p_features_8_1_running_var[(i / 784) % 192];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_8_1_weight[(i / 784) % 192];
        const float t8 = (t6 * t7);
        const float t9 = p_features_8_1_bias[(i / 784) % 192];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp31[i] = t11;
    }
}

// tmp33 = relu6(((((tmp32 - features.8.4.running_mean) * rsqrt((features.8.4.running_var + 1e-05))) * features.8.4.weig…
// 1505280 elements as 376320 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage33(const float* __restrict__ p_tmp32, const float* __restrict__ p_features_8_4_running_mean, const float* __restrict__ p_features_8_4_running_var, const float* __restrict__ p_features_8_4_weight, const float* __restrict__ p_features_8_4_bias, float* __restrict__ p_tmp33) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 376320; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp32 + i);
        const float U1 = p_features_8_4_running_mean[(i / 784) % 192];
        const float U2 = p_features_8_4_running_var[(i / 784) % 192];
        const float U3 = p_features_8_4_weight[(i / 784) % 192];
        const float U4 = p_features_8_4_bias[(i / 784) % 192];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp33 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp33 = relu6(((((tmp32 - features.8.4.running_mean) * rsqrt((features.8.4.running_var + 1e-05))) * features.8.4.weig…
// 1505280 elements as 1505280 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage33_scalar(const float* __restrict__ p_tmp32, const float* __restrict__ p_features_8_4_running_mean, const float* __restrict__ p_features_8_4_running_var, const float* __restrict__ p_features_8_4_weight, const float* __restrict__ p_features_8_4_bias, float* __restrict__ p_tmp33) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1505280; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp32[i];
        const float t1 = p_features_8_4_running_mean[(i / 784) % 192];
        const float t2 = (t0 - t1);
        const float t3 = p_features_8_4_running_var[(i / 784) % 192];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_8_4_weight[(i / 784) % 192];
        const float t8 = (t6 * t7);
        const float t9 = p_features_8_4_bias[(i / 784) % 192];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp33[i] = t11;
    }
}

// tmp35 = ((((tmp34 - features.8.7.running_mean) * rsqrt((features.8.7.running_var + 1e-05))) * features.8.7.weight) + …
// 250880 elements as 62720 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage35(const float* __restrict__ p_tmp34, const float* __restrict__ p_features_8_7_running_mean, const float* __restrict__ p_features_8_7_running_var, const float* __restrict__ p_features_8_7_weight, const float* __restrict__ p_features_8_7_bias, float* __restrict__ p_tmp35) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 62720; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp34 + i);
        const float U1 = p_features_8_7_running_mean[(i / 784) % 32];
        const float U2 = p_features_8_7_running_var[(i / 784) % 32];
        const float U3 = p_features_8_7_weight[(i / 784) % 32];
        const float U4 = p_features_8_7_bias[(i / 784) % 32];
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
        *reinterpret_cast<float4*>(p_tmp35 + i) = make_float4(t0_10, t1_10, t2_10, t3_10);
    }
}

// tmp35 = ((((tmp34 - features.8.7.running_mean) * rsqrt((features.8.7.running_var + 1e-05))) * features.8.7.weight) + …
// 250880 elements as 250880 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage35_scalar(const float* __restrict__ p_tmp34, const float* __restrict__ p_features_8_7_running_mean, const float* __restrict__ p_features_8_7_running_var, const float* __restrict__ p_features_8_7_weight, const float* __restrict__ p_features_8_7_bias, float* __restrict__ p_tmp35) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 250880; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp34[i];
        const float t1 = p_features_8_7_running_mean[(i / 784) % 32];
        const float t2 = (t0 - t1);
        const float t3 = p_features_8_7_running_var[(i / 784) % 32];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_8_7_weight[(i / 784) % 32];
        const float t8 = (t6 * t7);
        const float t9 = p_features_8_7_bias[(i / 784) % 32];
        const float t10 = (t8 + t9);
        p_tmp35[i] = t10;
    }
}

// tmp37 = relu6(((((tmp36 - features.9.1.running_mean) * rsqrt((features.9.1.running_var + 1e-05))) * features.9.1.weig…
// 1505280 elements as 376320 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage37(const float* __restrict__ p_tmp36, const float* __restrict__ p_features_9_1_running_mean, const float* __restrict__ p_features_9_1_running_var, const float* __restrict__ p_features_9_1_weight, const float* __restrict__ p_features_9_1_bias, float* __restrict__ p_tmp37) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 376320; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp36 + i);
        const float U1 = p_features_9_1_running_mean[(i / 784) % 192];
        const float U2 = p_features_9_1_running_var[(i / 784) % 192];
        const float U3 = p_features_9_1_weight[(i / 784) % 192];
        const float U4 = p_features_9_1_bias[(i / 784) % 192];
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
        const float t0_11 = fminf(fmaxf(t0_10, 0.0f), 6.0f);
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
        const float t1_11 = fminf(fmaxf(t1_10, 0.0f), 6.0f);
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
        const float t2_11 = fminf(fmaxf(t2_10, 0.0f), 6.0f);
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
        const float t3_11 = fminf(fmaxf(t3_10, 0.0f), 6.0f);
        *reinterpret_cast<float4*>(p_tmp37 + i) = make_float4(t0_11, t1_11, t2_11, t3_11);
    }
}

// tmp37 = relu6(((((tmp36 - features.9.1.running_mean) * rsqrt((features.9.1.running_var + 1e-05))) * features.9.1.weig…
// 1505280 elements as 1505280 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage37_scalar(const float* __restrict__ p_tmp36, const float* __restrict__ p_features_9_1_running_mean, const float* __restrict__ p_features_9_1_running_var, const float* __restrict__ p_features_9_1_weight, const float* __restrict__ p_features_9_1_bias, float* __restrict__ p_tmp37) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1505280; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp36[i];
        const float t1 = p_features_9_1_running_mean[(i / 784) % 192];
        const float t2 = (t0 - t1);
        const float t3 = p_features_9_1_running_var[(i / 784) % 192];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_9_1_weight[(i / 784) % 192];
        const float t8 = (t6 * t7);
        const float t9 = p_features_9_1_bias[(i / 784) % 192];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp37[i] = t11;
    }
}

// tmp39 = relu6(((((tmp38 - features.9.4.running_mean) * rsqrt((features.9.4.running_var + 1e-05))) * features.9.4.weig…
// 376320 elements as 376320 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage39(const float* __restrict__ p_tmp38, const float* __restrict__ p_features_9_4_running_mean, const float* __restrict__ p_features_9_4_running_var, const float* __restrict__ p_features_9_4_weight, const float* __restrict__ p_features_9_4_bias, float* __restrict__ p_tmp39) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 376320; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp38[i];
        const float t1 = p_features_9_4_running_mean[(i / 196) % 192];
        const float t2 = (t0 - t1);
        const float t3 = p_features_9_4_running_var[(i / 196) % 192];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_9_4_weight[(i / 196) % 192];
        const float t8 = (t6 * t7);
        const float t9 = p_features_9_4_bias[(i / 196) % 192];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp39[i] = t11;
    }
}

// tmp41 = ((((tmp40 - features.9.7.running_mean) * rsqrt((features.9.7.running_var + 1e-05))) * features.9.7.weight) + …
// 125440 elements as 125440 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage41(const float* __restrict__ p_tmp40, const float* __restrict__ p_features_9_7_running_mean, const float* __restrict__ p_features_9_7_running_var, const float* __restrict__ p_features_9_7_weight, const float* __restrict__ p_features_9_7_bias, float* __restrict__ p_tmp41) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 125440; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp40[i];
        const float t1 = p_features_9_7_running_mean[(i / 196) % 64];
        const float t2 = (t0 - t1);
        const float t3 = p_features_9_7_running_var[(i / 196) % 64];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_9_7_weight[(i / 196) % 64];
        const float t8 = (t6 * t7);
        const float t9 = p_features_9_7_bias[(i / 196) % 64];
        const float t10 = (t8 + t9);
        p_tmp41[i] = t10;
    }
}

// tmp43 = relu6(((((tmp42 - features.10.1.running_mean) * rsqrt((features.10.1.running_var + 1e-05))) * features.10.1.w…
// 752640 elements as 752640 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage43(const float* __restrict__ p_tmp42, const float* __restrict__ p_features_10_1_running_mean, const float* __restrict__ p_features_10_1_running_var, const float* __restrict__ p_features_10_1_weight, const float* __restrict__ p_features_10_1_bias, float* __restrict__ p_tmp43) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 752640; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp42[i];
        const float t1 = p_features_10_1_running_mean[(i / 196) % 384];
        const float t2 = (t0 - t1);
        const float t3 = p_features_10_1_running_var[(i / 196) % 384];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_10_1_weight[(i / 196) % 384];
        const float t8 = (t6 * t7);
        const float t9 = p_features_10_1_bias[(i / 196) % 384];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp43[i] = t11;
    }
}

// tmp45 = relu6(((((tmp44 - features.10.4.running_mean) * rsqrt((features.10.4.running_var + 1e-05))) * features.10.4.w…
// 752640 elements as 752640 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage45(const float* __restrict__ p_tmp44, const float* __restrict__ p_features_10_4_running_mean, const float* __restrict__ p_features_10_4_running_var, const float* __restrict__ p_features_10_4_weight, const float* __restrict__ p_features_10_4_bias, float* __restrict__ p_tmp45) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 752640; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp44[i];
        const float t1 = p_features_10_4_running_mean[(i / 196) % 384];
        const float t2 = (t0 - t1);
        const float t3 = p_features_10_4_running_var[(i / 196) % 384];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_10_4_weight[(i / 196) % 384];
        const float t8 = (t6 * t7);
        const float t9 = p_features_10_4_bias[(i / 196) % 384];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp45[i] = t11;
    }
}

// tmp47 = ((((tmp46 - features.10.7.running_mean) * rsqrt((features.10.7.running_var + 1e-05))) * features.10.7.weight)…
// 125440 elements as 125440 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage47(const float* __restrict__ p_tmp46, const float* __restrict__ p_features_10_7_running_mean, const float* __restrict__ p_features_10_7_running_var, const float* __restrict__ p_features_10_7_weight, const float* __restrict__ p_features_10_7_bias, float* __restrict__ p_tmp47) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 125440; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp46[i];
        const float t1 = p_features_10_7_running_mean[(i / 196) % 64];
        const float t2 = (t0 - t1);
        const float t3 = p_features_10_7_running_var[(i / 196) % 64];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_10_7_weight[(i / 196) % 64];
        const float t8 = (t6 * t7);
        const float t9 = p_features_10_7_bias[(i / 196) % 64];
        const float t10 = (t8 + t9);
        p_tmp47[i] = t10;
    }
}

// tmp49 = relu6(((((tmp48 - features.11.1.running_mean) * rsqrt((features.11.1.running_var + 1e-05))) * features.11.1.w…
// 752640 elements as 752640 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage49(const float* __restrict__ p_tmp48, const float* __restrict__ p_features_11_1_running_mean, const float* __restrict__ p_features_11_1_running_var, const float* __restrict__ p_features_11_1_weight, const float* __restrict__ p_features_11_1_bias, float* __restrict__ p_tmp49) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 752640; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp48[i];
        const float t1 = p_features_11_1_running_mean[(i / 196) % 384];
        const float t2 = (t0 - t1);
        const float t3 = p_features_11_1_running_var[(i / 196) % 384];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_11_1_weight[(i / 196) % 384];
        const float t8 = (t6 * t7);
        const float t9 = p_features_11_1_bias[(i / 196) % 384];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp49[i] = t11;
    }
}

// tmp51 = relu6(((((tmp50 - features.11.4.running_mean) * rsqrt((features.11.4.running_var + 1e-05))) * features.11.4.w…
// 752640 elements as 752640 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage51(const float* __restrict__ p_tmp50, const float* __restrict__ p_features_11_4_running_mean, const float* __restrict__ p_features_11_4_running_var, const float* __restrict__ p_features_11_4_weight, const float* __restrict__ p_features_11_4_bias, float* __restrict__ p_tmp51) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 752640; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp50[i];
        const float t1 = p_features_11_4_running_mean[(i / 196) % 384];
        const float t2 = (t0 - t1);
        const float t3 = p_features_11_4_running_var[(i / 196) % 384];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_11_4_weight[(i / 196) % 384];
        const float t8 = (t6 * t7);
        const float t9 = p_features_11_4_bias[(i / 196) % 384];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp51[i] = t11;
    }
}

// tmp53 = ((((tmp52 - features.11.7.running_mean) * rsqrt((features.11.7.running_var + 1e-05))) * features.11.7.weight)…
// 125440 elements as 125440 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage53(const float* __restrict__ p_tmp52, const float* __restrict__ p_features_11_7_running_mean, const float* __restrict__ p_features_11_7_running_var, const float* __restrict__ p_features_11_7_weight, const float* __restrict__ p_features_11_7_bias, float* __restrict__ p_tmp53) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 125440; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp52[i];
        const float t1 = p_features_11_7_running_mean[(i / 196) % 64];
        const float t2 = (t0 - t1);
        const float t3 = p_features_11_7_running_var[(i / 196) % 64];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_11_7_weight[(i / 196) % 64];
        const float t8 = (t6 * t7);
        const float t9 = p_features_11_7_bias[(i / 196) % 64];
        const float t10 = (t8 + t9);
        p_tmp53[i] = t10;
    }
}

// tmp55 = relu6(((((tmp54 - features.12.1.running_mean) * rsqrt((features.12.1.running_var + 1e-05))) * features.12.1.w…
// 752640 elements as 752640 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage55(const float* __restrict__ p_tmp54, const float* __restrict__ p_features_12_1_running_mean, const float* __restrict__ p_features_12_1_running_var, const float* __restrict__ p_features_12_1_weight, const float* __restrict__ p_features_12_1_bias, float* __restrict__ p_tmp55) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 752640; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp54[i];
        const float t1 = p_features_12_1_running_mean[(i / 196) % 384];
        const float t2 = (t0 - t1);
        const float t3 = p_features_12_1_running_var[(i / 196) % 384];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_12_1_weight[(i / 196) % 384];
        const float t8 = (t6 * t7);
        const float t9 = p_features_12_1_bias[(i / 196) % 384];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp55[i] = t11;
    }
}

// tmp57 = relu6(((((tmp56 - features.12.4.running_mean) * rsqrt((features.12.4.running_var + 1e-05))) * features.12.4.w…
// 752640 elements as 752640 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage57(const float* __restrict__ p_tmp56, const float* __restrict__ p_features_12_4_running_mean, const float* __restrict__ p_features_12_4_running_var, const float* __restrict__ p_features_12_4_weight, const float* __restrict__ p_features_12_4_bias, float* __restrict__ p_tmp57) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 752640; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp56[i];
        const float t1 = p_features_12_4_running_mean[(i / 196) % 384];
        const float t2 = (t0 - t1);
        const float t3 = p_features_12_4_running_var[(i / 196) % 384];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_12_4_weight[(i / 196) % 384];
        const float t8 = (t6 * t7);
        const float t9 = p_features_12_4_bias[(i / 196) % 384];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp57[i] = t11;
    }
}

// tmp59 = ((((tmp58 - features.12.7.running_mean) * rsqrt((features.12.7.running_var + 1e-05))) * features.12.7.weight)…
// 125440 elements as 125440 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage59(const float* __restrict__ p_tmp58, const float* __restrict__ p_features_12_7_running_mean, const float* __restrict__ p_features_12_7_running_var, const float* __restrict__ p_features_12_7_weight, const float* __restrict__ p_features_12_7_bias, float* __restrict__ p_tmp59) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 125440; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp58[i];
        const float t1 = p_features_12_7_running_mean[(i / 196) % 64];
        const float t2 = (t0 - t1);
        const float t3 = p_features_12_7_running_var[(i / 196) % 64];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_12_7_weight[(i / 196) % 64];
        const float t8 = (t6 * t7);
        const float t9 = p_features_12_7_bias[(i / 196) % 64];
        const float t10 = (t8 + t9);
        p_tmp59[i] = t10;
    }
}

// tmp61 = relu6(((((tmp60 - features.13.1.running_mean) * rsqrt((features.13.1.running_var + 1e-05))) * features.13.1.w…
// 752640 elements as 752640 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage61(const float* __restrict__ p_tmp60, const float* __restrict__ p_features_13_1_running_mean, const float* __restrict__ p_features_13_1_running_var, const float* __restrict__ p_features_13_1_weight, const float* __restrict__ p_features_13_1_bias, float* __restrict__ p_tmp61) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 752640; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp60[i];
        const float t1 = p_features_13_1_running_mean[(i / 196) % 384];
        const float t2 = (t0 - t1);
        const float t3 = p_features_13_1_running_var[(i / 196) % 384];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_13_1_weight[(i / 196) % 384];
        const float t8 = (t6 * t7);
        const float t9 = p_features_13_1_bias[(i / 196) % 384];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp61[i] = t11;
    }
}

// tmp63 = relu6(((((tmp62 - features.13.4.running_mean) * rsqrt((features.13.4.running_var + 1e-05))) * features.13.4.w…
// 752640 elements as 752640 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage63(const float* __restrict__ p_tmp62, const float* __restrict__ p_features_13_4_running_mean, const float* __restrict__ p_features_13_4_running_var, const float* __restrict__ p_features_13_4_weight, const float* __restrict__ p_features_13_4_bias, float* __restrict__ p_tmp63) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 752640; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp62[i];
        const float t1 = p_features_13_4_running_mean[(i / 196) % 384];
        const float t2 = (t0 - t1);
        const float t3 = p_features_13_4_running_var[(i / 196) % 384];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_13_4_weight[(i / 196) % 384];
        const float t8 = (t6 * t7);
        const float t9 = p_features_13_4_bias[(i / 196) % 384];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp63[i] = t11;
    }
}

// tmp65 = ((((tmp64 - features.13.7.running_mean) * rsqrt((features.13.7.running_var + 1e-05))) * features.13.7.weight)…
// 188160 elements as 188160 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage65(const float* __restrict__ p_tmp64, const float* __restrict__ p_features_13_7_running_mean, const float* __restrict__ p_features_13_7_running_var, const float* __restrict__ p_features_13_7_weight, const float* __restrict__ p_features_13_7_bias, float* __restrict__ p_tmp65) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 188160; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp64[i];
        const float t1 = p_features_13_7_running_mean[(i / 196) % 96];
        const float t2 = (t0 - t1);
        const float t3 = p_features_13_7_running_var[(i / 196) % 96];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_13_7_weight[(i / 196) % 96];
        const float t8 = (t6 * t7);
        const float t9 = p_features_13_7_bias[(i / 196) % 96];
        const float t10 = (t8 + t9);
        p_tmp65[i] = t10;
    }
}

// tmp67 = relu6(((((tmp66 - features.14.1.running_mean) * rsqrt((features.14.1.running_var + 1e-05))) * features.14.1.w…
// 1128960 elements as 1128960 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage67(const float* __restrict__ p_tmp66, const float* __restrict__ p_features_14_1_running_mean, const float* __restrict__ p_features_14_1_running_var, const float* __restrict__ p_features_14_1_weight, const float* __restrict__ p_features_14_1_bias, float* __restrict__ p_tmp67) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1128960; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp66[i];
        const float t1 = p_features_14_1_running_mean[(i / 196) % 576];
        const float t2 = (t0 - t1);
        const float t3 = p_features_14_1_running_var[(i / 196) % 576];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_14_1_weight[(i / 196) % 576];
        const float t8 = (t6 * t7);
        const float t9 = p_features_14_1_bias[(i / 196) % 576];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp67[i] = t11;
    }
}

// tmp69 = relu6(((((tmp68 - features.14.4.running_mean) * rsqrt((features.14.4.running_var + 1e-05))) * features.14.4.w…
// 1128960 elements as 1128960 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage69(const float* __restrict__ p_tmp68, const float* __restrict__ p_features_14_4_running_mean, const float* __restrict__ p_features_14_4_running_var, const float* __restrict__ p_features_14_4_weight, const float* __restrict__ p_features_14_4_bias, float* __restrict__ p_tmp69) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1128960; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp68[i];
        const float t1 = p_features_14_4_running_mean[(i / 196) % 576];
        const float t2 = (t0 - t1);
        const float t3 = p_features_14_4_running_var[(i / 196) % 576];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_14_4_weight[(i / 196) % 576];
        const float t8 = (t6 * t7);
        const float t9 = p_features_14_4_bias[(i / 196) % 576];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp69[i] = t11;
    }
}

// tmp71 = ((((tmp70 - features.14.7.running_mean) * rsqrt((features.14.7.running_var + 1e-05))) * features.14.7.weight)…
// 188160 elements as 188160 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage71(const float* __restrict__ p_tmp70, const float* __restrict__ p_features_14_7_running_mean, const float* __restrict__ p_features_14_7_running_var, const float* __restrict__ p_features_14_7_weight, const float* __restrict__ p_features_14_7_bias, float* __restrict__ p_tmp71) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 188160; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp70[i];
        const float t1 = p_features_14_7_running_mean[(i / 196) % 96];
        const float t2 = (t0 - t1);
        const float t3 = p_features_14_7_running_var[(i / 196) % 96];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_14_7_weight[(i / 196) % 96];
        const float t8 = (t6 * t7);
        const float t9 = p_features_14_7_bias[(i / 196) % 96];
        const float t10 = (t8 + t9);
        p_tmp71[i] = t10;
    }
}

// tmp73 = relu6(((((tmp72 - features.15.1.running_mean) * rsqrt((features.15.1.running_var + 1e-05))) * features.15.1.w…
// 1128960 elements as 1128960 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage73(const float* __restrict__ p_tmp72, const float* __restrict__ p_features_15_1_running_mean, const float* __restrict__ p_features_15_1_running_var, const float* __restrict__ p_features_15_1_weight, const float* __restrict__ p_features_15_1_bias, float* __restrict__ p_tmp73) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1128960; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp72[i];
        const float t1 = p_features_15_1_running_mean[(i / 196) % 576];
        const float t2 = (t0 - t1);
        const float t3 = p_features_15_1_running_var[(i / 196) % 576];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_15_1_weight[(i / 196) % 576];
        const float t8 = (t6 * t7);
        const float t9 = p_features_15_1_bias[(i / 196) % 576];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp73[i] = t11;
    }
}

// tmp75 = relu6(((((tmp74 - features.15.4.running_mean) * rsqrt((features.15.4.running_var + 1e-05))) * features.15.4.w…
// 1128960 elements as 1128960 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage75(const float* __restrict__ p_tmp74, const float* __restrict__ p_features_15_4_running_mean, const float* __restrict__ p_features_15_4_running_var, const float* __restrict__ p_features_15_4_weight, const float* __restrict__ p_features_15_4_bias, float* __restrict__ p_tmp75) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1128960; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp74[i];
        const float t1 = p_features_15_4_running_mean[(i / 196) % 576];
        const float t2 = (t0 - t1);
        const float t3 = p_features_15_4_running_var[(i / 196) % 576];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_15_4_weight[(i / 196) % 576];
        const float t8 = (t6 * t7);
        const float t9 = p_features_15_4_bias[(i / 196) % 576];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp75[i] = t11;
    }
}

// tmp77 = ((((tmp76 - features.15.7.running_mean) * rsqrt((features.15.7.running_var + 1e-05))) * features.15.7.weight)…
// 188160 elements as 188160 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage77(const float* __restrict__ p_tmp76, const float* __restrict__ p_features_15_7_running_mean, const float* __restrict__ p_features_15_7_running_var, const float* __restrict__ p_features_15_7_weight, const float* __restrict__ p_features_15_7_bias, float* __restrict__ p_tmp77) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 188160; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp76[i];
        const float t1 = p_features_15_7_running_mean[(i / 196) % 96];
        const float t2 = (t0 - t1);
        const float t3 = p_features_15_7_running_var[(i / 196) % 96];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_15_7_weight[(i / 196) % 96];
        const float t8 = (t6 * t7);
        const float t9 = p_features_15_7_bias[(i / 196) % 96];
        const float t10 = (t8 + t9);
        p_tmp77[i] = t10;
    }
}

// tmp79 = relu6(((((tmp78 - features.16.1.running_mean) * rsqrt((features.16.1.running_var + 1e-05))) * features.16.1.w…
// 1128960 elements as 1128960 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage79(const float* __restrict__ p_tmp78, const float* __restrict__ p_features_16_1_running_mean, const float* __restrict__ p_features_16_1_running_var, const float* __restrict__ p_features_16_1_weight, const float* __restrict__ p_features_16_1_bias, float* __restrict__ p_tmp79) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 1128960; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp78[i];
        const float t1 = p_features_16_1_running_mean[(i / 196) % 576];
        const float t2 = (t0 - t1);
        const float t3 = p_features_16_1_running_var[(i / 196) % 576];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_16_1_weight[(i / 196) % 576];
        const float t8 = (t6 * t7);
        const float t9 = p_features_16_1_bias[(i / 196) % 576];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp79[i] = t11;
    }
}

// tmp81 = relu6(((((tmp80 - features.16.4.running_mean) * rsqrt((features.16.4.running_var + 1e-05))) * features.16.4.w…
// 282240 elements as 282240 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage81(const float* __restrict__ p_tmp80, const float* __restrict__ p_features_16_4_running_mean, const float* __restrict__ p_features_16_4_running_var, const float* __restrict__ p_features_16_4_weight, const float* __restrict__ p_features_16_4_bias, float* __restrict__ p_tmp81) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 282240; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp80[i];
        const float t1 = p_features_16_4_running_mean[(i / 49) % 576];
        const float t2 = (t0 - t1);
        const float t3 = p_features_16_4_running_var[(i / 49) % 576];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_16_4_weight[(i / 49) % 576];
        const float t8 = (t6 * t7);
        const float t9 = p_features_16_4_bias[(i / 49) % 576];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp81[i] = t11;
    }
}

// tmp83 = ((((tmp82 - features.16.7.running_mean) * rsqrt((features.16.7.running_var + 1e-05))) * features.16.7.weight)…
// 78400 elements as 78400 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage83(const float* __restrict__ p_tmp82, const float* __restrict__ p_features_16_7_running_mean, const float* __restrict__ p_features_16_7_running_var, const float* __restrict__ p_features_16_7_weight, const float* __restrict__ p_features_16_7_bias, float* __restrict__ p_tmp83) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 78400; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp82[i];
        const float t1 = p_features_16_7_running_mean[(i / 49) % 160];
        const float t2 = (t0 - t1);
        const float t3 = p_features_16_7_running_var[(i / 49) % 160];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_16_7_weight[(i / 49) % 160];
        const float t8 = (t6 * t7);
        const float t9 = p_features_16_7_bias[(i / 49) % 160];
        const float t10 = (t8 + t9);
        p_tmp83[i] = t10;
    }
}

// tmp85 = relu6(((((tmp84 - features.17.1.running_mean) * rsqrt((features.17.1.running_var + 1e-05))) * features.17.1.w…
// 470400 elements as 470400 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage85(const float* __restrict__ p_tmp84, const float* __restrict__ p_features_17_1_running_mean, const float* __restrict__ p_features_17_1_running_var, const float* __restrict__ p_features_17_1_weight, const float* __restrict__ p_features_17_1_bias, float* __restrict__ p_tmp85) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 470400; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp84[i];
        const float t1 = p_features_17_1_running_mean[(i / 49) % 960];
        const float t2 = (t0 - t1);
        const float t3 = p_features_17_1_running_var[(i / 49) % 960];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_17_1_weight[(i / 49) % 960];
        const float t8 = (t6 * t7);
        const float t9 = p_features_17_1_bias[(i / 49) % 960];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp85[i] = t11;
    }
}

// tmp87 = relu6(((((tmp86 - features.17.4.running_mean) * rsqrt((features.17.4.running_var + 1e-05))) * features.17.4.w…
// 470400 elements as 470400 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage87(const float* __restrict__ p_tmp86, const float* __restrict__ p_features_17_4_running_mean, const float* __restrict__ p_features_17_4_running_var, const float* __restrict__ p_features_17_4_weight, const float* __restrict__ p_features_17_4_bias, float* __restrict__ p_tmp87) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 470400; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp86[i];
        const float t1 = p_features_17_4_running_mean[(i / 49) % 960];
        const float t2 = (t0 - t1);
        const float t3 = p_features_17_4_running_var[(i / 49) % 960];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_17_4_weight[(i / 49) % 960];
        const float t8 = (t6 * t7);
        const float t9 = p_features_17_4_bias[(i / 49) % 960];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp87[i] = t11;
    }
}

// tmp89 = ((((tmp88 - features.17.7.running_mean) * rsqrt((features.17.7.running_var + 1e-05))) * features.17.7.weight)…
// 78400 elements as 78400 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage89(const float* __restrict__ p_tmp88, const float* __restrict__ p_features_17_7_running_mean, const float* __restrict__ p_features_17_7_running_var, const float* __restrict__ p_features_17_7_weight, const float* __restrict__ p_features_17_7_bias, float* __restrict__ p_tmp89) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 78400; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp88[i];
        const float t1 = p_features_17_7_running_mean[(i / 49) % 160];
        const float t2 = (t0 - t1);
        const float t3 = p_features_17_7_running_var[(i / 49) % 160];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_17_7_weight[(i / 49) % 160];
        const float t8 = (t6 * t7);
        const float t9 = p_features_17_7_bias[(i / 49) % 160];
        const float t10 = (t8 + t9);
        p_tmp89[i] = t10;
    }
}

// tmp91 = relu6(((((tmp90 - features.18.1.running_mean) * rsqrt((features.18.1.running_var + 1e-05))) * features.18.1.w…
// 470400 elements as 470400 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage91(const float* __restrict__ p_tmp90, const float* __restrict__ p_features_18_1_running_mean, const float* __restrict__ p_features_18_1_running_var, const float* __restrict__ p_features_18_1_weight, const float* __restrict__ p_features_18_1_bias, float* __restrict__ p_tmp91) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 470400; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp90[i];
        const float t1 = p_features_18_1_running_mean[(i / 49) % 960];
        const float t2 = (t0 - t1);
        const float t3 = p_features_18_1_running_var[(i / 49) % 960];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_18_1_weight[(i / 49) % 960];
        const float t8 = (t6 * t7);
        const float t9 = p_features_18_1_bias[(i / 49) % 960];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp91[i] = t11;
    }
}

// tmp93 = relu6(((((tmp92 - features.18.4.running_mean) * rsqrt((features.18.4.running_var + 1e-05))) * features.18.4.w…
// 470400 elements as 470400 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage93(const float* __restrict__ p_tmp92, const float* __restrict__ p_features_18_4_running_mean, const float* __restrict__ p_features_18_4_running_var, const float* __restrict__ p_features_18_4_weight, const float* __restrict__ p_features_18_4_bias, float* __restrict__ p_tmp93) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 470400; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp92[i];
        const float t1 = p_features_18_4_running_mean[(i / 49) % 960];
        const float t2 = (t0 - t1);
        const float t3 = p_features_18_4_running_var[(i / 49) % 960];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_18_4_weight[(i / 49) % 960];
        const float t8 = (t6 * t7);
        const float t9 = p_features_18_4_bias[(i / 49) % 960];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp93[i] = t11;
    }
}

// tmp95 = ((((tmp94 - features.18.7.running_mean) * rsqrt((features.18.7.running_var + 1e-05))) * features.18.7.weight)…
// 78400 elements as 78400 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage95(const float* __restrict__ p_tmp94, const float* __restrict__ p_features_18_7_running_mean, const float* __restrict__ p_features_18_7_running_var, const float* __restrict__ p_features_18_7_weight, const float* __restrict__ p_features_18_7_bias, float* __restrict__ p_tmp95) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 78400; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp94[i];
        const float t1 = p_features_18_7_running_mean[(i / 49) % 160];
        const float t2 = (t0 - t1);
        const float t3 = p_features_18_7_running_var[(i / 49) % 160];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_18_7_weight[(i / 49) % 160];
        const float t8 = (t6 * t7);
        const float t9 = p_features_18_7_bias[(i / 49) % 160];
        const float t10 = (t8 + t9);
        p_tmp95[i] = t10;
    }
}

// tmp97 = relu6(((((tmp96 - features.19.1.running_mean) * rsqrt((features.19.1.running_var + 1e-05))) * features.19.1.w…
// 470400 elements as 470400 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage97(const float* __restrict__ p_tmp96, const float* __restrict__ p_features_19_1_running_mean, const float* __restrict__ p_features_19_1_running_var, const float* __restrict__ p_features_19_1_weight, const float* __restrict__ p_features_19_1_bias, float* __restrict__ p_tmp97) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 470400; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp96[i];
        const float t1 = p_features_19_1_running_mean[(i / 49) % 960];
        const float t2 = (t0 - t1);
        const float t3 = p_features_19_1_running_var[(i / 49) % 960];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_19_1_weight[(i / 49) % 960];
        const float t8 = (t6 * t7);
        const float t9 = p_features_19_1_bias[(i / 49) % 960];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp97[i] = t11;
    }
}

// tmp99 = relu6(((((tmp98 - features.19.4.running_mean) * rsqrt((features.19.4.running_var + 1e-05))) * features.19.4.w…
// 470400 elements as 470400 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage99(const float* __restrict__ p_tmp98, const float* __restrict__ p_features_19_4_running_mean, const float* __restrict__ p_features_19_4_running_var, const float* __restrict__ p_features_19_4_weight, const float* __restrict__ p_features_19_4_bias, float* __restrict__ p_tmp99) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 470400; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp98[i];
        const float t1 = p_features_19_4_running_mean[(i / 49) % 960];
        const float t2 = (t0 - t1);
        const float t3 = p_features_19_4_running_var[(i / 49) % 960];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_19_4_weight[(i / 49) % 960];
        const float t8 = (t6 * t7);
        const float t9 = p_features_19_4_bias[(i / 49) % 960];
        const float t10 = (t8 + t9);
        const float t11 = fminf(fmaxf(t10, 0.0f), 6.0f);
        p_tmp99[i] = t11;
    }
}

// tmp101 = ((((tmp100 - features.19.7.running_mean) * rsqrt((features.19.7.running_var + 1e-05))) * features.19.7.weight…
// 156800 elements as 156800 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage101(const float* __restrict__ p_tmp100, const float* __restrict__ p_features_19_7_running_mean, const float* __restrict__ p_features_19_7_running_var, const float* __restrict__ p_features_19_7_weight, const float* __restrict__ p_features_19_7_bias, float* __restrict__ p_tmp101) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 156800; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp100[i];
        const float t1 = p_features_19_7_running_mean[(i / 49) % 320];
        const float t2 = (t0 - t1);
        const float t3 = p_features_19_7_running_var[(i / 49) % 320];
        const float t4 = (t3 + 1e-05f);
        const float t5 = rsqrtf(t4);
        const float t6 = (t2 * t5);
        const float t7 = p_features_19_7_weight[(i / 49) % 320];
        const float t8 = (t6 * t7);
        const float t9 = p_features_19_7_bias[(i / 49) % 320];
        const float t10 = (t8 + t9);
        p_tmp101[i] = t10;
    }
}

// tmp103 = sum_row(((((((… + …) + relu6(…)) + relu6((… + …))) + relu6(((… * …) + features.21.bias))) + relu6((((… * …) * features.…
// 12800 rows of 7: 1 thread(s) per row, 256 row(s) per block, 7 vector(s) of 1 per thread; 1 reduction pass(es); the row stays in registers between passes
__global__ void __launch_bounds__(256) hiera_stage103(const float* __restrict__ p_tmp102, const float* __restrict__ p_features_21_running_mean, const float* __restrict__ p_features_21_running_var, const float* __restrict__ p_features_21_weight, const float* __restrict__ p_features_21_bias, float* __restrict__ p_tmp103) {
    const int lane = threadIdx.x % 1;
    const idx_t r = (idx_t)blockIdx.x * 256 + threadIdx.x / 1;
    const idx_t rb0 = (r) * 49;
    const idx_t rb1 = (r) * 49 + 1;
    const idx_t rb2 = (r) * 49 + 2;
    const idx_t rb3 = (r) * 49 + 3;
    const idx_t rb4 = (r) * 49 + 4;
    const idx_t rb5 = (r) * 49 + 5;
    const idx_t rb6 = (r) * 49 + 6;
    const idx_t rb7 = r % 1280;
    const idx_t rb8 = r % 1280;
    const idx_t rb9 = r % 1280;
    const idx_t rb10 = r % 1280;
    float c0[7];
    float c1[7];
    float c2[7];
    float c3[7];
    float c4[7];
    float c5[7];
    float c6[7];
#pragma unroll
    for (int j = 0; j < 7; ++j) {
        const idx_t col = ((idx_t)j * 1 + lane) * 1;
        c0[j] = p_tmp102[rb0 + (col) * 7];
        c1[j] = p_tmp102[rb1 + (col) * 7];
        c2[j] = p_tmp102[rb2 + (col) * 7];
        c3[j] = p_tmp102[rb3 + (col) * 7];
        c4[j] = p_tmp102[rb4 + (col) * 7];
        c5[j] = p_tmp102[rb5 + (col) * 7];
        c6[j] = p_tmp102[rb6 + (col) * 7];
    }
    const float h0_0 = p_features_21_running_mean[rb7];
    const float h0_1 = p_features_21_running_var[rb8];
    const float h0_2 = (h0_1 + 1e-05f);
    const float h0_3 = rsqrtf(h0_2);
    const float h0_4 = p_features_21_weight[rb9];
    const float h0_5 = p_features_21_bias[rb10];
    float acc0_0_0 = 0.0f;
#pragma unroll
    for (int j = 0; j < 7; ++j) {
        const float e0_0 = c0[j];
        const float e0_1 = (e0_0 - h0_0);
        const float e0_2 = (e0_1 * h0_3);
        const float e0_3 = (e0_2 * h0_4);
        const float e0_4 = (e0_3 + h0_5);
        const float e0_5 = fminf(fmaxf(e0_4, 0.0f), 6.0f);
        const float e0_6 = c1[j];
        const float e0_7 = (e0_6 - h0_0);
        const float e0_8 = (e0_7 * h0_3);
        const float e0_9 = (e0_8 * h0_4);
        const float e0_10 = (e0_9 + h0_5);
        const float e0_11 = fminf(fmaxf(e0_10, 0.0f), 6.0f);
        const float e0_12 = (e0_5 + e0_11);
        const float e0_13 = c2[j];
        const float e0_14 = (e0_13 - h0_0);
        const float e0_15 = (e0_14 * h0_3);
        const float e0_16 = (e0_15 * h0_4);
        const float e0_17 = (e0_16 + h0_5);
        const float e0_18 = fminf(fmaxf(e0_17, 0.0f), 6.0f);
        const float e0_19 = (e0_12 + e0_18);
        const float e0_20 = c3[j];
        const float e0_21 = (e0_20 - h0_0);
        const float e0_22 = (e0_21 * h0_3);
        const float e0_23 = (e0_22 * h0_4);
        const float e0_24 = (e0_23 + h0_5);
        const float e0_25 = fminf(fmaxf(e0_24, 0.0f), 6.0f);
        const float e0_26 = (e0_19 + e0_25);
        const float e0_27 = c4[j];
        const float e0_28 = (e0_27 - h0_0);
        const float e0_29 = (e0_28 * h0_3);
        const float e0_30 = (e0_29 * h0_4);
        const float e0_31 = (e0_30 + h0_5);
        const float e0_32 = fminf(fmaxf(e0_31, 0.0f), 6.0f);
        const float e0_33 = (e0_26 + e0_32);
        const float e0_34 = c5[j];
        const float e0_35 = (e0_34 - h0_0);
        const float e0_36 = (e0_35 * h0_3);
        const float e0_37 = (e0_36 * h0_4);
        const float e0_38 = (e0_37 + h0_5);
        const float e0_39 = fminf(fmaxf(e0_38, 0.0f), 6.0f);
        const float e0_40 = (e0_33 + e0_39);
        const float e0_41 = c6[j];
        const float e0_42 = (e0_41 - h0_0);
        const float e0_43 = (e0_42 * h0_3);
        const float e0_44 = (e0_43 * h0_4);
        const float e0_45 = (e0_44 + h0_5);
        const float e0_46 = fminf(fmaxf(e0_45, 0.0f), 6.0f);
        const float e0_47 = (e0_40 + e0_46);
        acc0_0_0 += e0_47;
    }
    const float red0_0_0 = acc0_0_0;  // sum over the row
    if (lane == 0) {
        p_tmp103[r] = red0_0_0;
    }
}

// tmp104 = (tmp103 / 49)
// 12800 elements as 3200 vectors of 4; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage104(const float* __restrict__ p_tmp103, float* __restrict__ p_tmp104) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 3200; v0 += step) {
        const idx_t i = v0 * 4;
        const float4 L0 = *reinterpret_cast<const float4*>(p_tmp103 + i);
        const float t0_0 = L0.x;
        const float t0_1 = (t0_0 / 49.0f);
        const float t1_0 = L0.y;
        const float t1_1 = (t1_0 / 49.0f);
        const float t2_0 = L0.z;
        const float t2_1 = (t2_0 / 49.0f);
        const float t3_0 = L0.w;
        const float t3_1 = (t3_0 / 49.0f);
        *reinterpret_cast<float4*>(p_tmp104 + i) = make_float4(t0_1, t1_1, t2_1, t3_1);
    }
}

// tmp104 = (tmp103 / 49)
// 12800 elements as 12800 vectors of 1; 256 threads/block, 1 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage104_scalar(const float* __restrict__ p_tmp103, float* __restrict__ p_tmp104) {
    const idx_t step = (idx_t)gridDim.x * 256;
    for (idx_t v0 = (idx_t)blockIdx.x * 256 + threadIdx.x; v0 < 12800; v0 += step) {
        const idx_t i = v0 * 1;
        const float t0 = p_tmp103[i];
        const float t1 = (t0 / 49.0f);
        p_tmp104[i] = t1;
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* features_0_weight, const hiera_tensor* features_1_weight, const hiera_tensor* features_1_bias, const hiera_tensor* features_3_0_weight, const hiera_tensor* features_3_1_weight, const hiera_tensor* features_3_1_bias, const hiera_tensor* features_3_3_weight, const hiera_tensor* features_3_4_weight, const hiera_tensor* features_3_4_bias, const hiera_tensor* features_4_0_weight, const hiera_tensor* features_4_1_weight, const hiera_tensor* features_4_1_bias, const hiera_tensor* features_4_3_weight, const hiera_tensor* features_4_4_weight, const hiera_tensor* features_4_4_bias, const hiera_tensor* features_4_6_weight, const hiera_tensor* features_4_7_weight, const hiera_tensor* features_4_7_bias, const hiera_tensor* features_5_0_weight, const hiera_tensor* features_5_1_weight, const hiera_tensor* features_5_1_bias, const hiera_tensor* features_5_3_weight, const hiera_tensor* features_5_4_weight, const hiera_tensor* features_5_4_bias, const hiera_tensor* features_5_6_weight, const hiera_tensor* features_5_7_weight, const hiera_tensor* features_5_7_bias, const hiera_tensor* features_6_0_weight, const hiera_tensor* features_6_1_weight, const hiera_tensor* features_6_1_bias, const hiera_tensor* features_6_3_weight, const hiera_tensor* features_6_4_weight, const hiera_tensor* features_6_4_bias, const hiera_tensor* features_6_6_weight, const hiera_tensor* features_6_7_weight, const hiera_tensor* features_6_7_bias, const hiera_tensor* features_7_0_weight, const hiera_tensor* features_7_1_weight, const hiera_tensor* features_7_1_bias, const hiera_tensor* features_7_3_weight, const hiera_tensor* features_7_4_weight, const hiera_tensor* features_7_4_bias, const hiera_tensor* features_7_6_weight, const hiera_tensor* features_7_7_weight, const hiera_tensor* features_7_7_bias, const hiera_tensor* features_8_0_weight, const hiera_tensor* features_8_1_weight, const hiera_tensor* features_8_1_bias, const hiera_tensor* features_8_3_weight, const hiera_tensor* features_8_4_weight, const hiera_tensor* features_8_4_bias, const hiera_tensor* features_8_6_weight, const hiera_tensor* features_8_7_weight, const hiera_tensor* features_8_7_bias, const hiera_tensor* features_9_0_weight, const hiera_tensor* features_9_1_weight, const hiera_tensor* features_9_1_bias, const hiera_tensor* features_9_3_weight, const hiera_tensor* features_9_4_weight, const hiera_tensor* features_9_4_bias, const hiera_tensor* features_9_6_weight, const hiera_tensor* features_9_7_weight, const hiera_tensor* features_9_7_bias, const hiera_tensor* features_10_0_weight, const hiera_tensor* features_10_1_weight, const hiera_tensor* features_10_1_bias, const hiera_tensor* features_10_3_weight, const hiera_tensor* features_10_4_weight, const hiera_tensor* features_10_4_bias, const hiera_tensor* features_10_6_weight, const hiera_tensor* features_10_7_weight, const hiera_tensor* features_10_7_bias, const hiera_tensor* features_11_0_weight, const hiera_tensor* features_11_1_weight, const hiera_tensor* features_11_1_bias, const hiera_tensor* features_11_3_weight, const hiera_tensor* features_11_4_weight, const hiera_tensor* features_11_4_bias, const hiera_tensor* features_11_6_weight, const hiera_tensor* features_11_7_weight, const hiera_tensor* features_11_7_bias, const hiera_tensor* features_12_0_weight, const hiera_tensor* features_12_1_weight, const hiera_tensor* features_12_1_bias, const hiera_tensor* features_12_3_weight, const hiera_tensor* features_12_4_weight, const hiera_tensor* features_12_4_bias, const hiera_tensor* features_12_6_weight, const hiera_tensor* features_12_7_weight, const hiera_tensor* features_12_7_bias, const hiera_tensor* features_13_0_weight, const hiera_tensor* features_13_1_weight, const hiera_tensor* features_13_1_bias, const hiera_tensor* features_13_3_weight, const hiera_tensor* features_13_4_weight, const hiera_tensor* features_13_4_bias, const hiera_tensor* features_13_6_weight, const hiera_tensor* features_13_7_weight, const hiera_tensor* features_13_7_bias, const hiera_tensor* features_14_0_weight, const hiera_tensor* features_14_1_weight, const hiera_tensor* features_14_1_bias, const hiera_tensor* features_14_3_weight, const hiera_tensor* features_14_4_weight, const hiera_tensor* features_14_4_bias, const hiera_tensor* features_14_6_weight, const hiera_tensor* features_14_7_weight, const hiera_tensor* features_14_7_bias, const hiera_tensor* features_15_0_weight, const hiera_tensor* features_15_1_weight, const hiera_tensor* features_15_1_bias, const hiera_tensor* features_15_3_weight, const hiera_tensor* features_15_4_weight, const hiera_tensor* features_15_4_bias, const hiera_tensor* features_15_6_weight, const hiera_tensor* features_15_7_weight, const hiera_tensor* features_15_7_bias, const hiera_tensor* features_16_0_weight, const hiera_tensor* features_16_1_weight, const hiera_tensor* features_16_1_bias, const hiera_tensor* features_16_3_weight, const hiera_tensor* features_16_4_weight, const hiera_tensor* features_16_4_bias, const hiera_tensor* features_16_6_weight, const hiera_tensor* features_16_7_weight, const hiera_tensor* features_16_7_bias, const hiera_tensor* features_17_0_weight, const hiera_tensor* features_17_1_weight, const hiera_tensor* features_17_1_bias, const hiera_tensor* features_17_3_weight, const hiera_tensor* features_17_4_weight, const hiera_tensor* features_17_4_bias, const hiera_tensor* features_17_6_weight, const hiera_tensor* features_17_7_weight, const hiera_tensor* features_17_7_bias, const hiera_tensor* features_18_0_weight, const hiera_tensor* features_18_1_weight, const hiera_tensor* features_18_1_bias, const hiera_tensor* features_18_3_weight, const hiera_tensor* features_18_4_weight, const hiera_tensor* features_18_4_bias, const hiera_tensor* features_18_6_weight, const hiera_tensor* features_18_7_weight, const hiera_tensor* features_18_7_bias, const hiera_tensor* features_19_0_weight, const hiera_tensor* features_19_1_weight, const hiera_tensor* features_19_1_bias, const hiera_tensor* features_19_3_weight, const hiera_tensor* features_19_4_weight, const hiera_tensor* features_19_4_bias, const hiera_tensor* features_19_6_weight, const hiera_tensor* features_19_7_weight, const hiera_tensor* features_19_7_bias, const hiera_tensor* features_20_weight, const hiera_tensor* features_21_weight, const hiera_tensor* features_21_bias, const hiera_tensor* classifier_1_weight, const hiera_tensor* classifier_1_bias, const hiera_tensor* features_1_running_mean, const hiera_tensor* features_1_running_var, const hiera_tensor* features_1_num_batches_tracked, const hiera_tensor* features_3_1_running_mean, const hiera_tensor* features_3_1_running_var, const hiera_tensor* features_3_1_num_batches_tracked, const hiera_tensor* features_3_4_running_mean, const hiera_tensor* features_3_4_running_var, const hiera_tensor* features_3_4_num_batches_tracked, const hiera_tensor* features_4_1_running_mean, const hiera_tensor* features_4_1_running_var, const hiera_tensor* features_4_1_num_batches_tracked, const hiera_tensor* features_4_4_running_mean, const hiera_tensor* features_4_4_running_var, const hiera_tensor* features_4_4_num_batches_tracked, const hiera_tensor* features_4_7_running_mean, const hiera_tensor* features_4_7_running_var, const hiera_tensor* features_4_7_num_batches_tracked, const hiera_tensor* features_5_1_running_mean, const hiera_tensor* features_5_1_running_var, const hiera_tensor* features_5_1_num_batches_tracked, const hiera_tensor* features_5_4_running_mean, const hiera_tensor* features_5_4_running_var, const hiera_tensor* features_5_4_num_batches_tracked, const hiera_tensor* features_5_7_running_mean, const hiera_tensor* features_5_7_running_var, const hiera_tensor* features_5_7_num_batches_tracked, const hiera_tensor* features_6_1_running_mean, const hiera_tensor* features_6_1_running_var, const hiera_tensor* features_6_1_num_batches_tracked, const hiera_tensor* features_6_4_running_mean, const hiera_tensor* features_6_4_running_var, const hiera_tensor* features_6_4_num_batches_tracked, const hiera_tensor* features_6_7_running_mean, const hiera_tensor* features_6_7_running_var, const hiera_tensor* features_6_7_num_batches_tracked, const hiera_tensor* features_7_1_running_mean, const hiera_tensor* features_7_1_running_var, const hiera_tensor* features_7_1_num_batches_tracked, const hiera_tensor* features_7_4_running_mean, const hiera_tensor* features_7_4_running_var, const hiera_tensor* features_7_4_num_batches_tracked, const hiera_tensor* features_7_7_running_mean, const hiera_tensor* features_7_7_running_var, const hiera_tensor* features_7_7_num_batches_tracked, const hiera_tensor* features_8_1_running_mean, const hiera_tensor* features_8_1_running_var, const hiera_tensor* features_8_1_num_batches_tracked, const hiera_tensor* features_8_4_running_mean, const hiera_tensor* features_8_4_running_var, const hiera_tensor* features_8_4_num_batches_tracked, const hiera_tensor* features_8_7_running_mean, const hiera_tensor* features_8_7_running_var, const hiera_tensor* features_8_7_num_batches_tracked, const hiera_tensor* features_9_1_running_mean, const hiera_tensor* features_9_1_running_var, const hiera_tensor* features_9_1_num_batches_tracked, const hiera_tensor* features_9_4_running_mean, const hiera_tensor* features_9_4_running_var, const hiera_tensor* features_9_4_num_batches_tracked, const hiera_tensor* features_9_7_running_mean, const hiera_tensor* features_9_7_running_var, const hiera_tensor* features_9_7_num_batches_tracked, const hiera_tensor* features_10_1_running_mean, const hiera_tensor* features_10_1_running_var, const hiera_tensor* features_10_1_num_batches_tracked, const hiera_tensor* features_10_4_running_mean, const hiera_tensor* features_10_4_running_var, const hiera_tensor* features_10_4_num_batches_tracked, const hiera_tensor* features_10_7_running_mean, const hiera_tensor* features_10_7_running_var, const hiera_tensor* features_10_7_num_batches_tracked, const hiera_tensor* features_11_1_running_mean, const hiera_tensor* features_11_1_running_var, const hiera_tensor* features_11_1_num_batches_tracked, const hiera_tensor* features_11_4_running_mean, const hiera_tensor* features_11_4_running_var, const hiera_tensor* features_11_4_num_batches_tracked, const hiera_tensor* features_11_7_running_mean, const hiera_tensor* features_11_7_running_var, const hiera_tensor* features_11_7_num_batches_tracked, const hiera_tensor* features_12_1_running_mean, const hiera_tensor* features_12_1_running_var, const hiera_tensor* features_12_1_num_batches_tracked, const hiera_tensor* features_12_4_running_mean, const hiera_tensor* features_12_4_running_var, const hiera_tensor* features_12_4_num_batches_tracked, const hiera_tensor* features_12_7_running_mean, const hiera_tensor* features_12_7_running_var, const hiera_tensor* features_12_7_num_batches_tracked, const hiera_tensor* features_13_1_running_mean, const hiera_tensor* features_13_1_running_var, const hiera_tensor* features_13_1_num_batches_tracked, const hiera_tensor* features_13_4_running_mean, const hiera_tensor* features_13_4_running_var, const hiera_tensor* features_13_4_num_batches_tracked, const hiera_tensor* features_13_7_running_mean, const hiera_tensor* features_13_7_running_var, const hiera_tensor* features_13_7_num_batches_tracked, const hiera_tensor* features_14_1_running_mean, const hiera_tensor* features_14_1_running_var, const hiera_tensor* features_14_1_num_batches_tracked, const hiera_tensor* features_14_4_running_mean, const hiera_tensor* features_14_4_running_var, const hiera_tensor* features_14_4_num_batches_tracked, const hiera_tensor* features_14_7_running_mean, const hiera_tensor* features_14_7_running_var, const hiera_tensor* features_14_7_num_batches_tracked, const hiera_tensor* features_15_1_running_mean, const hiera_tensor* features_15_1_running_var, const hiera_tensor* features_15_1_num_batches_tracked, const hiera_tensor* features_15_4_running_mean, const hiera_tensor* features_15_4_running_var, const hiera_tensor* features_15_4_num_batches_tracked, const hiera_tensor* features_15_7_running_mean, const hiera_tensor* features_15_7_running_var, const hiera_tensor* features_15_7_num_batches_tracked, const hiera_tensor* features_16_1_running_mean, const hiera_tensor* features_16_1_running_var, const hiera_tensor* features_16_1_num_batches_tracked, const hiera_tensor* features_16_4_running_mean, const hiera_tensor* features_16_4_running_var, const hiera_tensor* features_16_4_num_batches_tracked, const hiera_tensor* features_16_7_running_mean, const hiera_tensor* features_16_7_running_var, const hiera_tensor* features_16_7_num_batches_tracked, const hiera_tensor* features_17_1_running_mean, const hiera_tensor* features_17_1_running_var, const hiera_tensor* features_17_1_num_batches_tracked, const hiera_tensor* features_17_4_running_mean, const hiera_tensor* features_17_4_running_var, const hiera_tensor* features_17_4_num_batches_tracked, const hiera_tensor* features_17_7_running_mean, const hiera_tensor* features_17_7_running_var, const hiera_tensor* features_17_7_num_batches_tracked, const hiera_tensor* features_18_1_running_mean, const hiera_tensor* features_18_1_running_var, const hiera_tensor* features_18_1_num_batches_tracked, const hiera_tensor* features_18_4_running_mean, const hiera_tensor* features_18_4_running_var, const hiera_tensor* features_18_4_num_batches_tracked, const hiera_tensor* features_18_7_running_mean, const hiera_tensor* features_18_7_running_var, const hiera_tensor* features_18_7_num_batches_tracked, const hiera_tensor* features_19_1_running_mean, const hiera_tensor* features_19_1_running_var, const hiera_tensor* features_19_1_num_batches_tracked, const hiera_tensor* features_19_4_running_mean, const hiera_tensor* features_19_4_running_var, const hiera_tensor* features_19_4_num_batches_tracked, const hiera_tensor* features_19_7_running_mean, const hiera_tensor* features_19_7_running_var, const hiera_tensor* features_19_7_num_batches_tracked, const hiera_tensor* features_21_running_mean, const hiera_tensor* features_21_running_var, const hiera_tensor* features_21_num_batches_tracked, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 4 || x->sizes[0] != 10 || x->sizes[1] != 3 || x->sizes[2] != 224 || x->sizes[3] != 224) return 2;  // specialized for 10x3x224x224
    if (features_0_weight->ndim != 4 || features_0_weight->sizes[0] != 32 || features_0_weight->sizes[1] != 3 || features_0_weight->sizes[2] != 3 || features_0_weight->sizes[3] != 3) return 2;  // specialized for 32x3x3x3
    if (features_1_weight->ndim != 1 || features_1_weight->sizes[0] != 32) return 2;  // specialized for 32
    if (features_1_bias->ndim != 1 || features_1_bias->sizes[0] != 32) return 2;  // specialized for 32
    if (features_3_0_weight->ndim != 4 || features_3_0_weight->sizes[0] != 32 || features_3_0_weight->sizes[1] != 1 || features_3_0_weight->sizes[2] != 3 || features_3_0_weight->sizes[3] != 3) return 2;  // specialized for 32x1x3x3
    if (features_3_1_weight->ndim != 1 || features_3_1_weight->sizes[0] != 32) return 2;  // specialized for 32
    if (features_3_1_bias->ndim != 1 || features_3_1_bias->sizes[0] != 32) return 2;  // specialized for 32
    if (features_3_3_weight->ndim != 4 || features_3_3_weight->sizes[0] != 16 || features_3_3_weight->sizes[1] != 32 || features_3_3_weight->sizes[2] != 1 || features_3_3_weight->sizes[3] != 1) return 2;  // specialized for 16x32x1x1
    if (features_3_4_weight->ndim != 1 || features_3_4_weight->sizes[0] != 16) return 2;  // specialized for 16
    if (features_3_4_bias->ndim != 1 || features_3_4_bias->sizes[0] != 16) return 2;  // specialized for 16
    if (features_4_0_weight->ndim != 4 || features_4_0_weight->sizes[0] != 96 || features_4_0_weight->sizes[1] != 16 || features_4_0_weight->sizes[2] != 1 || features_4_0_weight->sizes[3] != 1) return 2;  // specialized for 96x16x1x1
    if (features_4_1_weight->ndim != 1 || features_4_1_weight->sizes[0] != 96) return 2;  // specialized for 96
    if (features_4_1_bias->ndim != 1 || features_4_1_bias->sizes[0] != 96) return 2;  // specialized for 96
    if (features_4_3_weight->ndim != 4 || features_4_3_weight->sizes[0] != 96 || features_4_3_weight->sizes[1] != 1 || features_4_3_weight->sizes[2] != 3 || features_4_3_weight->sizes[3] != 3) return 2;  // specialized for 96x1x3x3
    if (features_4_4_weight->ndim != 1 || features_4_4_weight->sizes[0] != 96) return 2;  // specialized for 96
    if (features_4_4_bias->ndim != 1 || features_4_4_bias->sizes[0] != 96) return 2;  // specialized for 96
    if (features_4_6_weight->ndim != 4 || features_4_6_weight->sizes[0] != 24 || features_4_6_weight->sizes[1] != 96 || features_4_6_weight->sizes[2] != 1 || features_4_6_weight->sizes[3] != 1) return 2;  // specialized for 24x96x1x1
    if (features_4_7_weight->ndim != 1 || features_4_7_weight->sizes[0] != 24) return 2;  // specialized for 24
    if (features_4_7_bias->ndim != 1 || features_4_7_bias->sizes[0] != 24) return 2;  // specialized for 24
    if (features_5_0_weight->ndim != 4 || features_5_0_weight->sizes[0] != 144 || features_5_0_weight->sizes[1] != 24 || features_5_0_weight->sizes[2] != 1 || features_5_0_weight->sizes[3] != 1) return 2;  // specialized for 144x24x1x1
    if (features_5_1_weight->ndim != 1 || features_5_1_weight->sizes[0] != 144) return 2;  // specialized for 144
    if (features_5_1_bias->ndim != 1 || features_5_1_bias->sizes[0] != 144) return 2;  // specialized for 144
    if (features_5_3_weight->ndim != 4 || features_5_3_weight->sizes[0] != 144 || features_5_3_weight->sizes[1] != 1 || features_5_3_weight->sizes[2] != 3 || features_5_3_weight->sizes[3] != 3) return 2;  // specialized for 144x1x3x3
    if (features_5_4_weight->ndim != 1 || features_5_4_weight->sizes[0] != 144) return 2;  // specialized for 144
    if (features_5_4_bias->ndim != 1 || features_5_4_bias->sizes[0] != 144) return 2;  // specialized for 144
    if (features_5_6_weight->ndim != 4 || features_5_6_weight->sizes[0] != 24 || features_5_6_weight->sizes[1] != 144 || features_5_6_weight->sizes[2] != 1 || features_5_6_weight->sizes[3] != 1) return 2;  // specialized for 24x144x1x1
    if (features_5_7_weight->ndim != 1 || features_5_7_weight->sizes[0] != 24) return 2;  // specialized for 24
    if (features_5_7_bias->ndim != 1 || features_5_7_bias->sizes[0] != 24) return 2;  // specialized for 24
    if (features_6_0_weight->ndim != 4 || features_6_0_weight->sizes[0] != 144 || features_6_0_weight->sizes[1] != 24 || features_6_0_weight->sizes[2] != 1 || features_6_0_weight->sizes[3] != 1) return 2;  // specialized for 144x24x1x1
    if (features_6_1_weight->ndim != 1 || features_6_1_weight->sizes[0] != 144) return 2;  // specialized for 144
    if (features_6_1_bias->ndim != 1 || features_6_1_bias->sizes[0] != 144) return 2;  // specialized for 144
    if (features_6_3_weight->ndim != 4 || features_6_3_weight->sizes[0] != 144 || features_6_3_weight->sizes[1] != 1 || features_6_3_weight->sizes[2] != 3 || features_6_3_weight->sizes[3] != 3) return 2;  // specialized for 144x1x3x3
    if (features_6_4_weight->ndim != 1 || features_6_4_weight->sizes[0] != 144) return 2;  // specialized for 144
    if (features_6_4_bias->ndim != 1 || features_6_4_bias->sizes[0] != 144) return 2;  // specialized for 144
    if (features_6_6_weight->ndim != 4 || features_6_6_weight->sizes[0] != 32 || features_6_6_weight->sizes[1] != 144 || features_6_6_weight->sizes[2] != 1 || features_6_6_weight->sizes[3] != 1) return 2;  // specialized for 32x144x1x1
    if (features_6_7_weight->ndim != 1 || features_6_7_weight->sizes[0] != 32) return 2;  // specialized for 32
    if (features_6_7_bias->ndim != 1 || features_6_7_bias->sizes[0] != 32) return 2;  // specialized for 32
    if (features_7_0_weight->ndim != 4 || features_7_0_weight->sizes[0] != 192 || features_7_0_weight->sizes[1] != 32 || features_7_0_weight->sizes[2] != 1 || features_7_0_weight->sizes[3] != 1) return 2;  // specialized for 192x32x1x1
    if (features_7_1_weight->ndim != 1 || features_7_1_weight->sizes[0] != 192) return 2;  // specialized for 192
    if (features_7_1_bias->ndim != 1 || features_7_1_bias->sizes[0] != 192) return 2;  // specialized for 192
    if (features_7_3_weight->ndim != 4 || features_7_3_weight->sizes[0] != 192 || features_7_3_weight->sizes[1] != 1 || features_7_3_weight->sizes[2] != 3 || features_7_3_weight->sizes[3] != 3) return 2;  // specialized for 192x1x3x3
    if (features_7_4_weight->ndim != 1 || features_7_4_weight->sizes[0] != 192) return 2;  // specialized for 192
    if (features_7_4_bias->ndim != 1 || features_7_4_bias->sizes[0] != 192) return 2;  // specialized for 192
    if (features_7_6_weight->ndim != 4 || features_7_6_weight->sizes[0] != 32 || features_7_6_weight->sizes[1] != 192 || features_7_6_weight->sizes[2] != 1 || features_7_6_weight->sizes[3] != 1) return 2;  // specialized for 32x192x1x1
    if (features_7_7_weight->ndim != 1 || features_7_7_weight->sizes[0] != 32) return 2;  // specialized for 32
    if (features_7_7_bias->ndim != 1 || features_7_7_bias->sizes[0] != 32) return 2;  // specialized for 32
    if (features_8_0_weight->ndim != 4 || features_8_0_weight->sizes[0] != 192 || features_8_0_weight->sizes[1] != 32 || features_8_0_weight->sizes[2] != 1 || features_8_0_weight->sizes[3] != 1) return 2;  // specialized for 192x32x1x1
    if (features_8_1_weight->ndim != 1 || features_8_1_weight->sizes[0] != 192) return 2;  // specialized for 192
    if (features_8_1_bias->ndim != 1 || features_8_1_bias->sizes[0] != 192) return 2;  // specialized for 192
    if (features_8_3_weight->ndim != 4 || features_8_3_weight->sizes[0] != 192 || features_8_3_weight->sizes[1] != 1 || features_8_3_weight->sizes[2] != 3 || features_8_3_weight->sizes[3] != 3) return 2;  // specialized for 192x1x3x3
    if (features_8_4_weight->ndim != 1 || features_8_4_weight->sizes[0] != 192) return 2;  // specialized for 192
    if (features_8_4_bias->ndim != 1 || features_8_4_bias->sizes[0] != 192) return 2;  // specialized for 192
    if (features_8_6_weight->ndim != 4 || features_8_6_weight->sizes[0] != 32 || features_8_6_weight->sizes[1] != 192 || features_8_6_weight->sizes[2] != 1 || features_8_6_weight->sizes[3] != 1) return 2;  // specialized for 32x192x1x1
    if (features_8_7_weight->ndim != 1 || features_8_7_weight->sizes[0] != 32) return 2;  // specialized for 32
    if (features_8_7_bias->ndim != 1 || features_8_7_bias->sizes[0] != 32) return 2;  // specialized for 32
    if (features_9_0_weight->ndim != 4 || features_9_0_weight->sizes[0] != 192 || features_9_0_weight->sizes[1] != 32 || features_9_0_weight->sizes[2] != 1 || features_9_0_weight->sizes[3] != 1) return 2;  // specialized for 192x32x1x1
    if (features_9_1_weight->ndim != 1 || features_9_1_weight->sizes[0] != 192) return 2;  // specialized for 192
    if (features_9_1_bias->ndim != 1 || features_9_1_bias->sizes[0] != 192) return 2;  // specialized for 192
    if (features_9_3_weight->ndim != 4 || features_9_3_weight->sizes[0] != 192 || features_9_3_weight->sizes[1] != 1 || features_9_3_weight->sizes[2] != 3 || features_9_3_weight->sizes[3] != 3) return 2;  // specialized for 192x1x3x3
    if (features_9_4_weight->ndim != 1 || features_9_4_weight->sizes[0] != 192) return 2;  // specialized for 192
    if (features_9_4_bias->ndim != 1 || features_9_4_bias->sizes[0] != 192) return 2;  // specialized for 192
    if (features_9_6_weight->ndim != 4 || features_9_6_weight->sizes[0] != 64 || features_9_6_weight->sizes[1] != 192 || features_9_6_weight->sizes[2] != 1 || features_9_6_weight->sizes[3] != 1) return 2;  // specialized for 64x192x1x1
    if (features_9_7_weight->ndim != 1 || features_9_7_weight->sizes[0] != 64) return 2;  // specialized for 64
    if (features_9_7_bias->ndim != 1 || features_9_7_bias->sizes[0] != 64) return 2;  // specialized for 64
    if (features_10_0_weight->ndim != 4 || features_10_0_weight->sizes[0] != 384 || features_10_0_weight->sizes[1] != 64 || features_10_0_weight->sizes[2] != 1 || features_10_0_weight->sizes[3] != 1) return 2;  // specialized for 384x64x1x1
    if (features_10_1_weight->ndim != 1 || features_10_1_weight->sizes[0] != 384) return 2;  // specialized for 384
    if (features_10_1_bias->ndim != 1 || features_10_1_bias->sizes[0] != 384) return 2;  // specialized for 384
    if (features_10_3_weight->ndim != 4 || features_10_3_weight->sizes[0] != 384 || features_10_3_weight->sizes[1] != 1 || features_10_3_weight->sizes[2] != 3 || features_10_3_weight->sizes[3] != 3) return 2;  // specialized for 384x1x3x3
    if (features_10_4_weight->ndim != 1 || features_10_4_weight->sizes[0] != 384) return 2;  // specialized for 384
    if (features_10_4_bias->ndim != 1 || features_10_4_bias->sizes[0] != 384) return 2;  // specialized for 384
    if (features_10_6_weight->ndim != 4 || features_10_6_weight->sizes[0] != 64 || features_10_6_weight->sizes[1] != 384 || features_10_6_weight->sizes[2] != 1 || features_10_6_weight->sizes[3] != 1) return 2;  // specialized for 64x384x1x1
    if (features_10_7_weight->ndim != 1 || features_10_7_weight->sizes[0] != 64) return 2;  // specialized for 64
    if (features_10_7_bias->ndim != 1 || features_10_7_bias->sizes[0] != 64) return 2;  // specialized for 64
    if (features_11_0_weight->ndim != 4 || features_11_0_weight->sizes[0] != 384 || features_11_0_weight->sizes[1] != 64 || features_11_0_weight->sizes[2] != 1 || features_11_0_weight->sizes[3] != 1) return 2;  // specialized for 384x64x1x1
    if (features_11_1_weight->ndim != 1 || features_11_1_weight->sizes[0] != 384) return 2;  // specialized for 384
    if (features_11_1_bias->ndim != 1 || features_11_1_bias->sizes[0] != 384) return 2;  // specialized for 384
    if (features_11_3_weight->ndim != 4 || features_11_3_weight->sizes[0] != 384 || features_11_3_weight->sizes[1] != 1 || features_11_3_weight->sizes[2] != 3 || features_11_3_weight->sizes[3] != 3) return 2;  // specialized for 384x1x3x3
    if (features_11_4_weight->ndim != 1 || features_11_4_weight->sizes[0] != 384) return 2;  // specialized for 384
    if (features_11_4_bias->ndim != 1 || features_11_4_bias->sizes[0] != 384) return 2;  // specialized for 384
    if (features_11_6_weight->ndim != 4 || features_11_6_weight->sizes[0] != 64 || features_11_6_weight->sizes[1] != 384 || features_11_6_weight->sizes[2] != 1 || features_11_6_weight->sizes[3] != 1) return 2;  // specialized for 64x384x1x1
    if (features_11_7_weight->ndim != 1 || features_11_7_weight->sizes[0] != 64) return 2;  // specialized for 64
    if (features_11_7_bias->ndim != 1 || features_11_7_bias->sizes[0] != 64) return 2;  // specialized for 64
    if (features_12_0_weight->ndim != 4 || features_12_0_weight->sizes[0] != 384 || features_12_0_weight->sizes[1] != 64 || features_12_0_weight->sizes[2] != 1 || features_12_0_weight->sizes[3] != 1) return 2;  // specialized for 384x64x1x1
    if (features_12_1_weight->ndim != 1 || features_12_1_weight->sizes[0] != 384) return 2;  // specialized for 384
    if (features_12_1_bias->ndim != 1 || features_12_1_bias->sizes[0] != 384) return 2;  // specialized for 384
    if (features_12_3_weight->ndim != 4 || features_12_3_weight->sizes[0] != 384 || features_12_3_weight->sizes[1] != 1 || features_12_3_weight->sizes[2] != 3 || features_12_3_weight->sizes[3] != 3) return 2;  // specialized for 384x1x3x3
    if (features_12_4_weight->ndim != 1 || features_12_4_weight->sizes[0] != 384) return 2;  // specialized for 384
    if (features_12_4_bias->ndim != 1 || features_12_4_bias->sizes[0] != 384) return 2;  // specialized for 384
    if (features_12_6_weight->ndim != 4 || features_12_6_weight->sizes[0] != 64 || features_12_6_weight->sizes[1] != 384 || features_12_6_weight->sizes[2] != 1 || features_12_6_weight->sizes[3] != 1) return 2;  // specialized for 64x384x1x1
    if (features_12_7_weight->ndim != 1 || features_12_7_weight->sizes[0] != 64) return 2;  // specialized for 64
    if (features_12_7_bias->ndim != 1 || features_12_7_bias->sizes[0] != 64) return 2;  // specialized for 64
    if (features_13_0_weight->ndim != 4 || features_13_0_weight->sizes[0] != 384 || features_13_0_weight->sizes[1] != 64 || features_13_0_weight->sizes[2] != 1 || features_13_0_weight->sizes[3] != 1) return 2;  // specialized for 384x64x1x1
    if (features_13_1_weight->ndim != 1 || features_13_1_weight->sizes[0] != 384) return 2;  // specialized for 384
    if (features_13_1_bias->ndim != 1 || features_13_1_bias->sizes[0] != 384) return 2;  // specialized for 384
    if (features_13_3_weight->ndim != 4 || features_13_3_weight->sizes[0] != 384 || features_13_3_weight->sizes[1] != 1 || features_13_3_weight->sizes[2] != 3 || features_13_3_weight->sizes[3] != 3) return 2;  // specialized for 384x1x3x3
    if (features_13_4_weight->ndim != 1 || features_13_4_weight->sizes[0] != 384) return 2;  // specialized for 384
    if (features_13_4_bias->ndim != 1 || features_13_4_bias->sizes[0] != 384) return 2;  // specialized for 384
    if (features_13_6_weight->ndim != 4 || features_13_6_weight->sizes[0] != 96 || features_13_6_weight->sizes[1] != 384 || features_13_6_weight->sizes[2] != 1 || features_13_6_weight->sizes[3] != 1) return 2;  // specialized for 96x384x1x1
    if (features_13_7_weight->ndim != 1 || features_13_7_weight->sizes[0] != 96) return 2;  // specialized for 96
    if (features_13_7_bias->ndim != 1 || features_13_7_bias->sizes[0] != 96) return 2;  // specialized for 96
    if (features_14_0_weight->ndim != 4 || features_14_0_weight->sizes[0] != 576 || features_14_0_weight->sizes[1] != 96 || features_14_0_weight->sizes[2] != 1 || features_14_0_weight->sizes[3] != 1) return 2;  // specialized for 576x96x1x1
    if (features_14_1_weight->ndim != 1 || features_14_1_weight->sizes[0] != 576) return 2;  // specialized for 576
    if (features_14_1_bias->ndim != 1 || features_14_1_bias->sizes[0] != 576) return 2;  // specialized for 576
    if (features_14_3_weight->ndim != 4 || features_14_3_weight->sizes[0] != 576 || features_14_3_weight->sizes[1] != 1 || features_14_3_weight->sizes[2] != 3 || features_14_3_weight->sizes[3] != 3) return 2;  // specialized for 576x1x3x3
    if (features_14_4_weight->ndim != 1 || features_14_4_weight->sizes[0] != 576) return 2;  // specialized for 576
    if (features_14_4_bias->ndim != 1 || features_14_4_bias->sizes[0] != 576) return 2;  // specialized for 576
    if (features_14_6_weight->ndim != 4 || features_14_6_weight->sizes[0] != 96 || features_14_6_weight->sizes[1] != 576 || features_14_6_weight->sizes[2] != 1 || features_14_6_weight->sizes[3] != 1) return 2;  // specialized for 96x576x1x1
    if (features_14_7_weight->ndim != 1 || features_14_7_weight->sizes[0] != 96) return 2;  // specialized for 96
    if (features_14_7_bias->ndim != 1 || features_14_7_bias->sizes[0] != 96) return 2;  // specialized for 96
    if (features_15_0_weight->ndim != 4 || features_15_0_weight->sizes[0] != 576 || features_15_0_weight->sizes[1] != 96 || features_15_0_weight->sizes[2] != 1 || features_15_0_weight->sizes[3] != 1) return 2;  // specialized for 576x96x1x1
    if (features_15_1_weight->ndim != 1 || features_15_1_weight->sizes[0] != 576) return 2;  // specialized for 576
    if (features_15_1_bias->ndim != 1 || features_15_1_bias->sizes[0] != 576) return 2;  // specialized for 576
    if (features_15_3_weight->ndim != 4 || features_15_3_weight->sizes[0] != 576 || features_15_3_weight->sizes[1] != 1 || features_15_3_weight->sizes[2] != 3 || features_15_3_weight->sizes[3] != 3) return 2;  // specialized for 576x1x3x3
    if (features_15_4_weight->ndim != 1 || features_15_4_weight->sizes[0] != 576) return 2;  // specialized for 576
    if (features_15_4_bias->ndim != 1 || features_15_4_bias->sizes[0] != 576) return 2;  // specialized for 576
    if (features_15_6_weight->ndim != 4 || features_15_6_weight->sizes[0] != 96 || features_15_6_weight->sizes[1] != 576 || features_15_6_weight->sizes[2] != 1 || features_15_6_weight->sizes[3] != 1) return 2;  // specialized for 96x576x1x1
    if (features_15_7_weight->ndim != 1 || features_15_7_weight->sizes[0] != 96) return 2;  // specialized for 96
    if (features_15_7_bias->ndim != 1 || features_15_7_bias->sizes[0] != 96) return 2;  // specialized for 96
    if (features_16_0_weight->ndim != 4 || features_16_0_weight->sizes[0] != 576 || features_16_0_weight->sizes[1] != 96 || features_16_0_weight->sizes[2] != 1 || features_16_0_weight->sizes[3] != 1) return 2;  // specialized for 576x96x1x1
    if (features_16_1_weight->ndim != 1 || features_16_1_weight->sizes[0] != 576) return 2;  // specialized for 576
    if (features_16_1_bias->ndim != 1 || features_16_1_bias->sizes[0] != 576) return 2;  // specialized for 576
    if (features_16_3_weight->ndim != 4 || features_16_3_weight->sizes[0] != 576 || features_16_3_weight->sizes[1] != 1 || features_16_3_weight->sizes[2] != 3 || features_16_3_weight->sizes[3] != 3) return 2;  // specialized for 576x1x3x3
    if (features_16_4_weight->ndim != 1 || features_16_4_weight->sizes[0] != 576) return 2;  // specialized for 576
    if (features_16_4_bias->ndim != 1 || features_16_4_bias->sizes[0] != 576) return 2;  // specialized for 576
    if (features_16_6_weight->ndim != 4 || features_16_6_weight->sizes[0] != 160 || features_16_6_weight->sizes[1] != 576 || features_16_6_weight->sizes[2] != 1 || features_16_6_weight->sizes[3] != 1) return 2;  // specialized for 160x576x1x1
    if (features_16_7_weight->ndim != 1 || features_16_7_weight->sizes[0] != 160) return 2;  // specialized for 160
    if (features_16_7_bias->ndim != 1 || features_16_7_bias->sizes[0] != 160) return 2;  // specialized for 160
    if (features_17_0_weight->ndim != 4 || features_17_0_weight->sizes[0] != 960 || features_17_0_weight->sizes[1] != 160 || features_17_0_weight->sizes[2] != 1 || features_17_0_weight->sizes[3] != 1) return 2;  // specialized for 960x160x1x1
    if (features_17_1_weight->ndim != 1 || features_17_1_weight->sizes[0] != 960) return 2;  // specialized for 960
    if (features_17_1_bias->ndim != 1 || features_17_1_bias->sizes[0] != 960) return 2;  // specialized for 960
    if (features_17_3_weight->ndim != 4 || features_17_3_weight->sizes[0] != 960 || features_17_3_weight->sizes[1] != 1 || features_17_3_weight->sizes[2] != 3 || features_17_3_weight->sizes[3] != 3) return 2;  // specialized for 960x1x3x3
    if (features_17_4_weight->ndim != 1 || features_17_4_weight->sizes[0] != 960) return 2;  // specialized for 960
    if (features_17_4_bias->ndim != 1 || features_17_4_bias->sizes[0] != 960) return 2;  // specialized for 960
    if (features_17_6_weight->ndim != 4 || features_17_6_weight->sizes[0] != 160 || features_17_6_weight->sizes[1] != 960 || features_17_6_weight->sizes[2] != 1 || features_17_6_weight->sizes[3] != 1) return 2;  // specialized for 160x960x1x1
    if (features_17_7_weight->ndim != 1 || features_17_7_weight->sizes[0] != 160) return 2;  // specialized for 160
    if (features_17_7_bias->ndim != 1 || features_17_7_bias->sizes[0] != 160) return 2;  // specialized for 160
    if (features_18_0_weight->ndim != 4 || features_18_0_weight->sizes[0] != 960 || features_18_0_weight->sizes[1] != 160 || features_18_0_weight->sizes[2] != 1 || features_18_0_weight->sizes[3] != 1) return 2;  // specialized for 960x160x1x1
    if (features_18_1_weight->ndim != 1 || features_18_1_weight->sizes[0] != 960) return 2;  // specialized for 960
    if (features_18_1_bias->ndim != 1 || features_18_1_bias->sizes[0] != 960) return 2;  // specialized for 960
    if (features_18_3_weight->ndim != 4 || features_18_3_weight->sizes[0] != 960 || features_18_3_weight->sizes[1] != 1 || features_18_3_weight->sizes[2] != 3 || features_18_3_weight->sizes[3] != 3) return 2;  // specialized for 960x1x3x3
    if (features_18_4_weight->ndim != 1 || features_18_4_weight->sizes[0] != 960) return 2;  // specialized for 960
    if (features_18_4_bias->ndim != 1 || features_18_4_bias->sizes[0] != 960) return 2;  // specialized for 960
    if (features_18_6_weight->ndim != 4 || features_18_6_weight->sizes[0] != 160 || features_18_6_weight->sizes[1] != 960 || features_18_6_weight->sizes[2] != 1 || features_18_6_weight->sizes[3] != 1) return 2;  // specialized for 160x960x1x1
    if (features_18_7_weight->ndim != 1 || features_18_7_weight->sizes[0] != 160) return 2;  // specialized for 160
    if (features_18_7_bias->ndim != 1 || features_18_7_bias->sizes[0] != 160) return 2;  // specialized for 160
    if (features_19_0_weight->ndim != 4 || features_19_0_weight->sizes[0] != 960 || features_19_0_weight->sizes[1] != 160 || features_19_0_weight->sizes[2] != 1 || features_19_0_weight->sizes[3] != 1) return 2;  // specialized for 960x160x1x1
    if (features_19_1_weight->ndim != 1 || features_19_1_weight->sizes[0] != 960) return 2;  // specialized for 960
    if (features_19_1_bias->ndim != 1 || features_19_1_bias->sizes[0] != 960) return 2;  // specialized for 960
    if (features_19_3_weight->ndim != 4 || features_19_3_weight->sizes[0] != 960 || features_19_3_weight->sizes[1] != 1 || features_19_3_weight->sizes[2] != 3 || features_19_3_weight->sizes[3] != 3) return 2;  // specialized for 960x1x3x3
    if (features_19_4_weight->ndim != 1 || features_19_4_weight->sizes[0] != 960) return 2;  // specialized for 960
    if (features_19_4_bias->ndim != 1 || features_19_4_bias->sizes[0] != 960) return 2;  // specialized for 960
    if (features_19_6_weight->ndim != 4 || features_19_6_weight->sizes[0] != 320 || features_19_6_weight->sizes[1] != 960 || features_19_6_weight->sizes[2] != 1 || features_19_6_weight->sizes[3] != 1) return 2;  // specialized for 320x960x1x1
    if (features_19_7_weight->ndim != 1 || features_19_7_weight->sizes[0] != 320) return 2;  // specialized for 320
    if (features_19_7_bias->ndim != 1 || features_19_7_bias->sizes[0] != 320) return 2;  // specialized for 320
    if (features_20_weight->ndim != 4 || features_20_weight->sizes[0] != 1280 || features_20_weight->sizes[1] != 320 || features_20_weight->sizes[2] != 1 || features_20_weight->sizes[3] != 1) return 2;  // specialized for 1280x320x1x1
    if (features_21_weight->ndim != 1 || features_21_weight->sizes[0] != 1280) return 2;  // specialized for 1280
    if (features_21_bias->ndim != 1 || features_21_bias->sizes[0] != 1280) return 2;  // specialized for 1280
    if (classifier_1_weight->ndim != 2 || classifier_1_weight->sizes[0] != 1000 || classifier_1_weight->sizes[1] != 1280) return 2;  // specialized for 1000x1280
    if (classifier_1_bias->ndim != 1 || classifier_1_bias->sizes[0] != 1000) return 2;  // specialized for 1000
    if (features_1_running_mean->ndim != 1 || features_1_running_mean->sizes[0] != 32) return 2;  // specialized for 32
    if (features_1_running_var->ndim != 1 || features_1_running_var->sizes[0] != 32) return 2;  // specialized for 32
    (void)features_1_num_batches_tracked;  // not read by this computation
    if (features_3_1_running_mean->ndim != 1 || features_3_1_running_mean->sizes[0] != 32) return 2;  // specialized for 32
    if (features_3_1_running_var->ndim != 1 || features_3_1_running_var->sizes[0] != 32) return 2;  // specialized for 32
    (void)features_3_1_num_batches_tracked;  // not read by this computation
    if (features_3_4_running_mean->ndim != 1 || features_3_4_running_mean->sizes[0] != 16) return 2;  // specialized for 16
    if (features_3_4_running_var->ndim != 1 || features_3_4_running_var->sizes[0] != 16) return 2;  // specialized for 16
    (void)features_3_4_num_batches_tracked;  // not read by this computation
    if (features_4_1_running_mean->ndim != 1 || features_4_1_running_mean->sizes[0] != 96) return 2;  // specialized for 96
    if (features_4_1_running_var->ndim != 1 || features_4_1_running_var->sizes[0] != 96) return 2;  // specialized for 96
    (void)features_4_1_num_batches_tracked;  // not read by this computation
    if (features_4_4_running_mean->ndim != 1 || features_4_4_running_mean->sizes[0] != 96) return 2;  // specialized for 96
    if (features_4_4_running_var->ndim != 1 || features_4_4_running_var->sizes[0] != 96) return 2;  // specialized for 96
    (void)features_4_4_num_batches_tracked;  // not read by this computation
    if (features_4_7_running_mean->ndim != 1 || features_4_7_running_mean->sizes[0] != 24) return 2;  // specialized for 24
    if (features_4_7_running_var->ndim != 1 || features_4_7_running_var->sizes[0] != 24) return 2;  // specialized for 24
    (void)features_4_7_num_batches_tracked;  // not read by this computation
    if (features_5_1_running_mean->ndim != 1 || features_5_1_running_mean->sizes[0] != 144) return 2;  // specialized for 144
    if (features_5_1_running_var->ndim != 1 || features_5_1_running_var->sizes[0] != 144) return 2;  // specialized for 144
    (void)features_5_1_num_batches_tracked;  // not read by this computation
    if (features_5_4_running_mean->ndim != 1 || features_5_4_running_mean->sizes[0] != 144) return 2;  // specialized for 144
    if (features_5_4_running_var->ndim != 1 || features_5_4_running_var->sizes[0] != 144) return 2;  // specialized for 144
    (void)features_5_4_num_batches_tracked;  // not read by this computation
    if (features_5_7_running_mean->ndim != 1 || features_5_7_running_mean->sizes[0] != 24) return 2;  // specialized for 24
    if (features_5_7_running_var->ndim != 1 || features_5_7_running_var->sizes[0] != 24) return 2;  // specialized for 24
    (void)features_5_7_num_batches_tracked;  // not read by this computation
    if (features_6_1_running_mean->ndim != 1 || features_6_1_running_mean->sizes[0] != 144) return 2;  // specialized for 144
    if (features_6_1_running_var->ndim != 1 || features_6_1_running_var->sizes[0] != 144) return 2;  // specialized for 144
    (void)features_6_1_num_batches_tracked;  // not read by this computation
    if (features_6_4_running_mean->ndim != 1 || features_6_4_running_mean->sizes[0] != 144) return 2;  // specialized for 144
    if (features_6_4_running_var->ndim != 1 || features_6_4_running_var->sizes[0] != 144) return 2;  // specialized for 144
    (void)features_6_4_num_batches_tracked;  // not read by this computation
    if (features_6_7_running_mean->ndim != 1 || features_6_7_running_mean->sizes[0] != 32) return 2;  // specialized for 32
    if (features_6_7_running_var->ndim != 1 || features_6_7_running_var->sizes[0] != 32) return 2;  // specialized for 32
    (void)features_6_7_num_batches_tracked;  // not read by this computation
    if (features_7_1_running_mean->ndim != 1 || features_7_1_running_mean->sizes[0] != 192) return 2;  // specialized for 192
    if (features_7_1_running_var->ndim != 1 || features_7_1_running_var->sizes[0] != 192) return 2;  // specialized for 192
    (void)features_7_1_num_batches_tracked;  // not read by this computation
    if (features_7_4_running_mean->ndim != 1 || features_7_4_running_mean->sizes[0] != 192) return 2;  // specialized for 192
    if (features_7_4_running_var->ndim != 1 || features_7_4_running_var->sizes[0] != 192) return 2;  // specialized for 192
    (void)features_7_4_num_batches_tracked;  // not read by this computation
    if (features_7_7_running_mean->ndim != 1 || features_7_7_running_mean->sizes[0] != 32) return 2;  // specialized for 32
    if (features_7_7_running_var->ndim != 1 || features_7_7_running_var->sizes[0] != 32) return 2;  // specialized for 32
    (void)features_7_7_num_batches_tracked;  // not read by this computation
    if (features_8_1_running_mean->ndim != 1 || features_8_1_running_mean->sizes[0] != 192) return 2;  // specialized for 192
    if (features_8_1_running_var->ndim != 1 || features_8_1_running_var->sizes[0] != 192) return 2;  // specialized for 192
    (void)features_8_1_num_batches_tracked;  // not read by this computation
    if (features_8_4_running_mean->ndim != 1 || features_8_4_running_mean->sizes[0] != 192) return 2;  // specialized for 192
    if (features_8_4_running_var->ndim != 1 || features_8_4_running_var->sizes[0] != 192) return 2;  // specialized for 192
    (void)features_8_4_num_batches_tracked;  // not read by this computation
    if (features_8_7_running_mean->ndim != 1 || features_8_7_running_mean->sizes[0] != 32) return 2;  // specialized for 32
    if (features_8_7_running_var->ndim != 1 || features_8_7_running_var->sizes[0] != 32) return 2;  // specialized for 32
    (void)features_8_7_num_batches_tracked;  // not read by this computation
    if (features_9_1_running_mean->ndim != 1 || features_9_1_running_mean->sizes[0] != 192) return 2;  // specialized for 192
    if (features_9_1_running_var->ndim != 1 || features_9_1_running_var->sizes[0] != 192) return 2;  // specialized for 192
    (void)features_9_1_num_batches_tracked;  // not read by this computation
    if (features_9_4_running_mean->ndim != 1 || features_9_4_running_mean->sizes[0] != 192) return 2;  // specialized for 192
    if (features_9_4_running_var->ndim != 1 || features_9_4_running_var->sizes[0] != 192) return 2;  // specialized for 192
    (void)features_9_4_num_batches_tracked;  // not read by this computation
    if (features_9_7_running_mean->ndim != 1 || features_9_7_running_mean->sizes[0] != 64) return 2;  // specialized for 64
    if (features_9_7_running_var->ndim != 1 || features_9_7_running_var->sizes[0] != 64) return 2;  // specialized for 64
    (void)features_9_7_num_batches_tracked;  // not read by this computation
    if (features_10_1_running_mean->ndim != 1 || features_10_1_running_mean->sizes[0] != 384) return 2;  // specialized for 384
    if (features_10_1_running_var->ndim != 1 || features_10_1_running_var->sizes[0] != 384) return 2;  // specialized for 384
    (void)features_10_1_num_batches_tracked;  // not read by this computation
    if (features_10_4_running_mean->ndim != 1 || features_10_4_running_mean->sizes[0] != 384) return 2;  // specialized for 384
    if (features_10_4_running_var->ndim != 1 || features_10_4_running_var->sizes[0] != 384) return 2;  // specialized for 384
    (void)features_10_4_num_batches_tracked;  // not read by this computation
    if (features_10_7_running_mean->ndim != 1 || features_10_7_running_mean->sizes[0] != 64) return 2;  // specialized for 64
    if (features_10_7_running_var->ndim != 1 || features_10_7_running_var->sizes[0] != 64) return 2;  // specialized for 64
    (void)features_10_7_num_batches_tracked;  // not read by this computation
    if (features_11_1_running_mean->ndim != 1 || features_11_1_running_mean->sizes[0] != 384) return 2;  // specialized for 384
    if (features_11_1_running_var->ndim != 1 || features_11_1_running_var->sizes[0] != 384) return 2;  // specialized for 384
    (void)features_11_1_num_batches_tracked;  // not read by this computation
    if (features_11_4_running_mean->ndim != 1 || features_11_4_running_mean->sizes[0] != 384) return 2;  // specialized for 384
    if (features_11_4_running_var->ndim != 1 || features_11_4_running_var->sizes[0] != 384) return 2;  // specialized for 384
    (void)features_11_4_num_batches_tracked;  // not read by this computation
    if (features_11_7_running_mean->ndim != 1 || features_11_7_running_mean->sizes[0] != 64) return 2;  // specialized for 64
    if (features_11_7_running_var->ndim != 1 || features_11_7_running_var->sizes[0] != 64) return 2;  // specialized for 64
    (void)features_11_7_num_batches_tracked;  // not read by this computation
    if (features_12_1_running_mean->ndim != 1 || features_12_1_running_mean->sizes[0] != 384) return 2;  // specialized for 384
    if (features_12_1_running_var->ndim != 1 || features_12_1_running_var->sizes[0] != 384) return 2;  // specialized for 384
    (void)features_12_1_num_batches_tracked;  // not read by this computation
    if (features_12_4_running_mean->ndim != 1 || features_12_4_running_mean->sizes[0] != 384) return 2;  // specialized for 384
    if (features_12_4_running_var->ndim != 1 || features_12_4_running_var->sizes[0] != 384) return 2;  // specialized for 384
    (void)features_12_4_num_batches_tracked;  // not read by this computation
    if (features_12_7_running_mean->ndim != 1 || features_12_7_running_mean->sizes[0] != 64) return 2;  // specialized for 64
    if (features_12_7_running_var->ndim != 1 || features_12_7_running_var->sizes[0] != 64) return 2;  // specialized for 64
    (void)features_12_7_num_batches_tracked;  // not read by this computation
    if (features_13_1_running_mean->ndim != 1 || features_13_1_running_mean->sizes[0] != 384) return 2;  // specialized for 384
    if (features_13_1_running_var->ndim != 1 || features_13_1_running_var->sizes[0] != 384) return 2;  // specialized for 384
    (void)features_13_1_num_batches_tracked;  // not read by this computation
    if (features_13_4_running_mean->ndim != 1 || features_13_4_running_mean->sizes[0] != 384) return 2;  // specialized for 384
    if (features_13_4_running_var->ndim != 1 || features_13_4_running_var->sizes[0] != 384) return 2;  // specialized for 384
    (void)features_13_4_num_batches_tracked;  // not read by this computation
    if (features_13_7_running_mean->ndim != 1 || features_13_7_running_mean->sizes[0] != 96) return 2;  // specialized for 96
    if (features_13_7_running_var->ndim != 1 || features_13_7_running_var->sizes[0] != 96) return 2;  // specialized for 96
    (void)features_13_7_num_batches_tracked;  // not read by this computation
    if (features_14_1_running_mean->ndim != 1 || features_14_1_running_mean->sizes[0] != 576) return 2;  // specialized for 576
    if (features_14_1_running_var->ndim != 1 || features_14_1_running_var->sizes[0] != 576) return 2;  // specialized for 576
    (void)features_14_1_num_batches_tracked;  // not read by this computation
    if (features_14_4_running_mean->ndim != 1 || features_14_4_running_mean->sizes[0] != 576) return 2;  // specialized for 576
    if (features_14_4_running_var->ndim != 1 || features_14_4_running_var->sizes[0] != 576) return 2;  // specialized for 576
    (void)features_14_4_num_batches_tracked;  // not read by this computation
    if (features_14_7_running_mean->ndim != 1 || features_14_7_running_mean->sizes[0] != 96) return 2;  // specialized for 96
    if (features_14_7_running_var->ndim != 1 || features_14_7_running_var->sizes[0] != 96) return 2;  // specialized for 96
    (void)features_14_7_num_batches_tracked;  // not read by this computation
    if (features_15_1_running_mean->ndim != 1 || features_15_1_running_mean->sizes[0] != 576) return 2;  // specialized for 576
    if (features_15_1_running_var->ndim != 1 || features_15_1_running_var->sizes[0] != 576) return 2;  // specialized for 576
    (void)features_15_1_num_batches_tracked;  // not read by this computation
    if (features_15_4_running_mean->ndim != 1 || features_15_4_running_mean->sizes[0] != 576) return 2;  // specialized for 576
    if (features_15_4_running_var->ndim != 1 || features_15_4_running_var->sizes[0] != 576) return 2;  // specialized for 576
    (void)features_15_4_num_batches_tracked;  // not read by this computation
    if (features_15_7_running_mean->ndim != 1 || features_15_7_running_mean->sizes[0] != 96) return 2;  // specialized for 96
    if (features_15_7_running_var->ndim != 1 || features_15_7_running_var->sizes[0] != 96) return 2;  // specialized for 96
    (void)features_15_7_num_batches_tracked;  // not read by this computation
    if (features_16_1_running_mean->ndim != 1 || features_16_1_running_mean->sizes[0] != 576) return 2;  // specialized for 576
    if (features_16_1_running_var->ndim != 1 || features_16_1_running_var->sizes[0] != 576) return 2;  // specialized for 576
    (void)features_16_1_num_batches_tracked;  // not read by this computation
    if (features_16_4_running_mean->ndim != 1 || features_16_4_running_mean->sizes[0] != 576) return 2;  // specialized for 576
    if (features_16_4_running_var->ndim != 1 || features_16_4_running_var->sizes[0] != 576) return 2;  // specialized for 576
    (void)features_16_4_num_batches_tracked;  // not read by this computation
    if (features_16_7_running_mean->ndim != 1 || features_16_7_running_mean->sizes[0] != 160) return 2;  // specialized for 160
    if (features_16_7_running_var->ndim != 1 || features_16_7_running_var->sizes[0] != 160) return 2;  // specialized for 160
    (void)features_16_7_num_batches_tracked;  // not read by this computation
    if (features_17_1_running_mean->ndim != 1 || features_17_1_running_mean->sizes[0] != 960) return 2;  // specialized for 960
    if (features_17_1_running_var->ndim != 1 || features_17_1_running_var->sizes[0] != 960) return 2;  // specialized for 960
    (void)features_17_1_num_batches_tracked;  // not read by this computation
    if (features_17_4_running_mean->ndim != 1 || features_17_4_running_mean->sizes[0] != 960) return 2;  // specialized for 960
    if (features_17_4_running_var->ndim != 1 || features_17_4_running_var->sizes[0] != 960) return 2;  // specialized for 960
    (void)features_17_4_num_batches_tracked;  // not read by this computation
    if (features_17_7_running_mean->ndim != 1 || features_17_7_running_mean->sizes[0] != 160) return 2;  // specialized for 160
    if (features_17_7_running_var->ndim != 1 || features_17_7_running_var->sizes[0] != 160) return 2;  // specialized for 160
    (void)features_17_7_num_batches_tracked;  // not read by this computation
    if (features_18_1_running_mean->ndim != 1 || features_18_1_running_mean->sizes[0] != 960) return 2;  // specialized for 960
    if (features_18_1_running_var->ndim != 1 || features_18_1_running_var->sizes[0] != 960) return 2;  // specialized for 960
    (void)features_18_1_num_batches_tracked;  // not read by this computation
    if (features_18_4_running_mean->ndim != 1 || features_18_4_running_mean->sizes[0] != 960) return 2;  // specialized for 960
    if (features_18_4_running_var->ndim != 1 || features_18_4_running_var->sizes[0] != 960) return 2;  // specialized for 960
    (void)features_18_4_num_batches_tracked;  // not read by this computation
    if (features_18_7_running_mean->ndim != 1 || features_18_7_running_mean->sizes[0] != 160) return 2;  // specialized for 160
    if (features_18_7_running_var->ndim != 1 || features_18_7_running_var->sizes[0] != 160) return 2;  // specialized for 160
    (void)features_18_7_num_batches_tracked;  // not read by this computation
    if (features_19_1_running_mean->ndim != 1 || features_19_1_running_mean->sizes[0] != 960) return 2;  // specialized for 960
    if (features_19_1_running_var->ndim != 1 || features_19_1_running_var->sizes[0] != 960) return 2;  // specialized for 960
    (void)features_19_1_num_batches_tracked;  // not read by this computation
    if (features_19_4_running_mean->ndim != 1 || features_19_4_running_mean->sizes[0] != 960) return 2;  // specialized for 960
    if (features_19_4_running_var->ndim != 1 || features_19_4_running_var->sizes[0] != 960) return 2;  // specialized for 960
    (void)features_19_4_num_batches_tracked;  // not read by this computation
    if (features_19_7_running_mean->ndim != 1 || features_19_7_running_mean->sizes[0] != 320) return 2;  // specialized for 320
    if (features_19_7_running_var->ndim != 1 || features_19_7_running_var->sizes[0] != 320) return 2;  // specialized for 320
    (void)features_19_7_num_batches_tracked;  // not read by this computation
    if (features_21_running_mean->ndim != 1 || features_21_running_mean->sizes[0] != 1280) return 2;  // specialized for 1280
    if (features_21_running_var->ndim != 1 || features_21_running_var->sizes[0] != 1280) return 2;  // specialized for 1280
    (void)features_21_num_batches_tracked;  // not read by this computation
    if (out->ndim != 2 || out->sizes[0] != 10 || out->sizes[1] != 1000) return 2;  // specialized for 10x1000
    const float* p_x = (const float*)x->data;
    const float* p_features_0_weight = (const float*)features_0_weight->data;
    const float* p_features_1_running_mean = (const float*)features_1_running_mean->data;
    const float* p_features_1_running_var = (const float*)features_1_running_var->data;
    const float* p_features_1_weight = (const float*)features_1_weight->data;
    const float* p_features_1_bias = (const float*)features_1_bias->data;
    const float* p_features_3_0_weight = (const float*)features_3_0_weight->data;
    const float* p_features_3_1_running_mean = (const float*)features_3_1_running_mean->data;
    const float* p_features_3_1_running_var = (const float*)features_3_1_running_var->data;
    const float* p_features_3_1_weight = (const float*)features_3_1_weight->data;
    const float* p_features_3_1_bias = (const float*)features_3_1_bias->data;
    const float* p_features_3_3_weight = (const float*)features_3_3_weight->data;
    const float* p_features_3_4_running_mean = (const float*)features_3_4_running_mean->data;
    const float* p_features_3_4_running_var = (const float*)features_3_4_running_var->data;
    const float* p_features_3_4_weight = (const float*)features_3_4_weight->data;
    const float* p_features_3_4_bias = (const float*)features_3_4_bias->data;
    const float* p_features_4_0_weight = (const float*)features_4_0_weight->data;
    const float* p_features_4_1_running_mean = (const float*)features_4_1_running_mean->data;
    const float* p_features_4_1_running_var = (const float*)features_4_1_running_var->data;
    const float* p_features_4_1_weight = (const float*)features_4_1_weight->data;
    const float* p_features_4_1_bias = (const float*)features_4_1_bias->data;
    const float* p_features_4_3_weight = (const float*)features_4_3_weight->data;
    const float* p_features_4_4_running_mean = (const float*)features_4_4_running_mean->data;
    const float* p_features_4_4_running_var = (const float*)features_4_4_running_var->data;
    const float* p_features_4_4_weight = (const float*)features_4_4_weight->data;
    const float* p_features_4_4_bias = (const float*)features_4_4_bias->data;
    const float* p_features_4_6_weight = (const float*)features_4_6_weight->data;
    const float* p_features_4_7_running_mean = (const float*)features_4_7_running_mean->data;
    const float* p_features_4_7_running_var = (const float*)features_4_7_running_var->data;
    const float* p_features_4_7_weight = (const float*)features_4_7_weight->data;
    const float* p_features_4_7_bias = (const float*)features_4_7_bias->data;
    const float* p_features_5_0_weight = (const float*)features_5_0_weight->data;
    const float* p_features_5_1_running_mean = (const float*)features_5_1_running_mean->data;
    const float* p_features_5_1_running_var = (const float*)features_5_1_running_var->data;
    const float* p_features_5_1_weight = (const float*)features_5_1_weight->data;
    const float* p_features_5_1_bias = (const float*)features_5_1_bias->data;
    const float* p_features_5_3_weight = (const float*)features_5_3_weight->data;
    const float* p_features_5_4_running_mean = (const float*)features_5_4_running_mean->data;
    const float* p_features_5_4_running_var = (const float*)features_5_4_running_var->data;
    const float* p_features_5_4_weight = (const float*)features_5_4_weight->data;
    const float* p_features_5_4_bias = (const float*)features_5_4_bias->data;
    const float* p_features_5_6_weight = (const float*)features_5_6_weight->data;
    const float* p_features_5_7_running_mean = (const float*)features_5_7_running_mean->data;
    const float* p_features_5_7_running_var = (const float*)features_5_7_running_var->data;
    const float* p_features_5_7_weight = (const float*)features_5_7_weight->data;
    const float* p_features_5_7_bias = (const float*)features_5_7_bias->data;
    const float* p_features_6_0_weight = (const float*)features_6_0_weight->data;
    const float* p_features_6_1_running_mean = (const float*)features_6_1_running_mean->data;
    const float* p_features_6_1_running_var = (const float*)features_6_1_running_var->data;
    const float* p_features_6_1_weight = (const float*)features_6_1_weight->data;
    const float* p_features_6_1_bias = (const float*)features_6_1_bias->data;
    const float* p_features_6_3_weight = (const float*)features_6_3_weight->data;
    const float* p_features_6_4_running_mean = (const float*)features_6_4_running_mean->data;
    const float* p_features_6_4_running_var = (const float*)features_6_4_running_var->data;
    const float* p_features_6_4_weight = (const float*)features_6_4_weight->data;
    const float* p_features_6_4_bias = (const float*)features_6_4_bias->data;
    const float* p_features_6_6_weight = (const float*)features_6_6_weight->data;
    const float* p_features_6_7_running_mean = (const float*)features_6_7_running_mean->data;
    const float* p_features_6_7_running_var = (const float*)features_6_7_running_var->data;
    const float* p_features_6_7_weight = (const float*)features_6_7_weight->data;
    const float* p_features_6_7_bias = (const float*)features_6_7_bias->data;
    const float* p_features_7_0_weight = (const float*)features_7_0_weight->data;
    const float* p_features_7_1_running_mean = (const float*)features_7_1_running_mean->data;
    const float* p_features_7_1_running_var = (const float*)features_7_1_running_var->data;
    const float* p_features_7_1_weight = (const float*)features_7_1_weight->data;
    const float* p_features_7_1_bias = (const float*)features_7_1_bias->data;
    const float* p_features_7_3_weight = (const float*)features_7_3_weight->data;
    const float* p_features_7_4_running_mean = (const float*)features_7_4_running_mean->data;
    const float* p_features_7_4_running_var = (const float*)features_7_4_running_var->data;
    const float* p_features_7_4_weight = (const float*)features_7_4_weight->data;
    const float* p_features_7_4_bias = (const float*)features_7_4_bias->data;
    const float* p_features_7_6_weight = (const float*)features_7_6_weight->data;
    const float* p_features_7_7_running_mean = (const float*)features_7_7_running_mean->data;
    const float* p_features_7_7_running_var = (const float*)features_7_7_running_var->data;
    const float* p_features_7_7_weight = (const float*)features_7_7_weight->data;
    const float* p_features_7_7_bias = (const float*)features_7_7_bias->data;
    const float* p_features_8_0_weight = (const float*)features_8_0_weight->data;
    const float* p_features_8_1_running_mean = (const float*)features_8_1_running_mean->data;
    const float* p_features_8_1_running_var = (const float*)features_8_1_running_var->data;
    const float* p_features_8_1_weight = (const float*)features_8_1_weight->data;
    const float* p_features_8_1_bias = (const float*)features_8_1_bias->data;
    const float* p_features_8_3_weight = (const float*)features_8_3_weight->data;
    const float* p_features_8_4_running_mean = (const float*)features_8_4_running_mean->data;
    const float* p_features_8_4_running_var = (const float*)features_8_4_running_var->data;
    const float* p_features_8_4_weight = (const float*)features_8_4_weight->data;
    const float* p_features_8_4_bias = (const float*)features_8_4_bias->data;
    const float* p_features_8_6_weight = (const float*)features_8_6_weight->data;
    const float* p_features_8_7_running_mean = (const float*)features_8_7_running_mean->data;
    const float* p_features_8_7_running_var = (const float*)features_8_7_running_var->data;
    const float* p_features_8_7_weight = (const float*)features_8_7_weight->data;
    const float* p_features_8_7_bias = (const float*)features_8_7_bias->data;
    const float* p_features_9_0_weight = (const float*)features_9_0_weight->data;
    const float* p_features_9_1_running_mean = (const float*)features_9_1_running_mean->data;
    const float* p_features_9_1_running_var = (const float*)features_9_1_running_var->data;
    const float* p_features_9_1_weight = (const float*)features_9_1_weight->data;
    const float* p_features_9_1_bias = (const float*)features_9_1_bias->data;
    const float* p_features_9_3_weight = (const float*)features_9_3_weight->data;
    const float* p_features_9_4_running_mean = (const float*)features_9_4_running_mean->data;
    const float* p_features_9_4_running_var = (const float*)features_9_4_running_var->data;
    const float* p_features_9_4_weight = (const float*)features_9_4_weight->data;
    const float* p_features_9_4_bias = (const float*)features_9_4_bias->data;
    const float* p_features_9_6_weight = (const float*)features_9_6_weight->data;
    const float* p_features_9_7_running_mean = (const float*)features_9_7_running_mean->data;
    const float* p_features_9_7_running_var = (const float*)features_9_7_running_var->data;
    const float* p_features_9_7_weight = (const float*)features_9_7_weight->data;
    const float* p_features_9_7_bias = (const float*)features_9_7_bias->data;
    const float* p_features_10_0_weight = (const float*)features_10_0_weight->data;
    const float* p_features_10_1_running_mean = (const float*)features_10_1_running_mean->data;
    const float* p_features_10_1_running_var = (const float*)features_10_1_running_var->data;
    const float* p_features_10_1_weight = (const float*)features_10_1_weight->data;
    const float* p_features_10_1_bias = (const float*)features_10_1_bias->data;
    const float* p_features_10_3_weight = (const float*)features_10_3_weight->data;
    const float* p_features_10_4_running_mean = (const float*)features_10_4_running_mean->data;
    const float* p_features_10_4_running_var = (const float*)features_10_4_running_var->data;
    const float* p_features_10_4_weight = (const float*)features_10_4_weight->data;
    const float* p_features_10_4_bias = (const float*)features_10_4_bias->data;
    const float* p_features_10_6_weight = (const float*)features_10_6_weight->data;
    const float* p_features_10_7_running_mean = (const float*)features_10_7_running_mean->data;
    const float* p_features_10_7_running_var = (const float*)features_10_7_running_var->data;
    const float* p_features_10_7_weight = (const float*)features_10_7_weight->data;
    const float* p_features_10_7_bias = (const float*)features_10_7_bias->data;
    const float* p_features_11_0_weight = (const float*)features_11_0_weight->data;
    const float* p_features_11_1_running_mean = (const float*)features_11_1_running_mean->data;
    const float* p_features_11_1_running_var = (const float*)features_11_1_running_var->data;
    const float* p_features_11_1_weight = (const float*)features_11_1_weight->data;
    const float* p_features_11_1_bias = (const float*)features_11_1_bias->data;
    const float* p_features_11_3_weight = (const float*)features_11_3_weight->data;
    const float* p_features_11_4_running_mean = (const float*)features_11_4_running_mean->data;
    const float* p_features_11_4_running_var = (const float*)features_11_4_running_var->data;
    const float* p_features_11_4_weight = (const float*)features_11_4_weight->data;
    const float* p_features_11_4_bias = (const float*)features_11_4_bias->data;
    const float* p_features_11_6_weight = (const float*)features_11_6_weight->data;
    const float* p_features_11_7_running_mean = (const float*)features_11_7_running_mean->data;
    const float* p_features_11_7_running_var = (const float*)features_11_7_running_var->data;
    const float* p_features_11_7_weight = (const float*)features_11_7_weight->data;
    const float* p_features_11_7_bias = (const float*)features_11_7_bias->data;
    const float* p_features_12_0_weight = (const float*)features_12_0_weight->data;
    const float* p_features_12_1_running_mean = (const float*)features_12_1_running_mean->data;
    const float* p_features_12_1_running_var = (const float*)features_12_1_running_var->data;
    const float* p_features_12_1_weight = (const float*)features_12_1_weight->data;
    const float* p_features_12_1_bias = (const float*)features_12_1_bias->data;
    const float* p_features_12_3_weight = (const float*)features_12_3_weight->data;
    const float* p_features_12_4_running_mean = (const float*)features_12_4_running_mean->data;
    const float* p_features_12_4_running_var = (const float*)features_12_4_running_var->data;
    const float* p_features_12_4_weight = (const float*)features_12_4_weight->data;
    const float* p_features_12_4_bias = (const float*)features_12_4_bias->data;
    const float* p_features_12_6_weight = (const float*)features_12_6_weight->data;
    const float* p_features_12_7_running_mean = (const float*)features_12_7_running_mean->data;
    const float* p_features_12_7_running_var = (const float*)features_12_7_running_var->data;
    const float* p_features_12_7_weight = (const float*)features_12_7_weight->data;
    const float* p_features_12_7_bias = (const float*)features_12_7_bias->data;
    const float* p_features_13_0_weight = (const float*)features_13_0_weight->data;
    const float* p_features_13_1_running_mean = (const float*)features_13_1_running_mean->data;
    const float* p_features_13_1_running_var = (const float*)features_13_1_running_var->data;
    const float* p_features_13_1_weight = (const float*)features_13_1_weight->data;
    const float* p_features_13_1_bias = (const float*)features_13_1_bias->data;
    const float* p_features_13_3_weight = (const float*)features_13_3_weight->data;
    const float* p_features_13_4_running_mean = (const float*)features_13_4_running_mean->data;
    const float* p_features_13_4_running_var = (const float*)features_13_4_running_var->data;
    const float* p_features_13_4_weight = (const float*)features_13_4_weight->data;
    const float* p_features_13_4_bias = (const float*)features_13_4_bias->data;
    const float* p_features_13_6_weight = (const float*)features_13_6_weight->data;
    const float* p_features_13_7_running_mean = (const float*)features_13_7_running_mean->data;
    const float* p_features_13_7_running_var = (const float*)features_13_7_running_var->data;
    const float* p_features_13_7_weight = (const float*)features_13_7_weight->data;
    const float* p_features_13_7_bias = (const float*)features_13_7_bias->data;
    const float* p_features_14_0_weight = (const float*)features_14_0_weight->data;
    const float* p_features_14_1_running_mean = (const float*)features_14_1_running_mean->data;
    const float* p_features_14_1_running_var = (const float*)features_14_1_running_var->data;
    const float* p_features_14_1_weight = (const float*)features_14_1_weight->data;
    const float* p_features_14_1_bias = (const float*)features_14_1_bias->data;
    const float* p_features_14_3_weight = (const float*)features_14_3_weight->data;
    const float* p_features_14_4_running_mean = (const float*)features_14_4_running_mean->data;
    const float* p_features_14_4_running_var = (const float*)features_14_4_running_var->data;
    const float* p_features_14_4_weight = (const float*)features_14_4_weight->data;
    const float* p_features_14_4_bias = (const float*)features_14_4_bias->data;
    const float* p_features_14_6_weight = (const float*)features_14_6_weight->data;
    const float* p_features_14_7_running_mean = (const float*)features_14_7_running_mean->data;
    const float* p_features_14_7_running_var = (const float*)features_14_7_running_var->data;
    const float* p_features_14_7_weight = (const float*)features_14_7_weight->data;
    const float* p_features_14_7_bias = (const float*)features_14_7_bias->data;
    const float* p_features_15_0_weight = (const float*)features_15_0_weight->data;
    const float* p_features_15_1_running_mean = (const float*)features_15_1_running_mean->data;
    const float* p_features_15_1_running_var = (const float*)features_15_1_running_var->data;
    const float* p_features_15_1_weight = (const float*)features_15_1_weight->data;
    const float* p_features_15_1_bias = (const float*)features_15_1_bias->data;
    const float* p_features_15_3_weight = (const float*)features_15_3_weight->data;
    const float* p_features_15_4_running_mean = (const float*)features_15_4_running_mean->data;
    const float* p_features_15_4_running_var = (const float*)features_15_4_running_var->data;
    const float* p_features_15_4_weight = (const float*)features_15_4_weight->data;
    const float* p_features_15_4_bias = (const float*)features_15_4_bias->data;
    const float* p_features_15_6_weight = (const float*)features_15_6_weight->data;
    const float* p_features_15_7_running_mean = (const float*)features_15_7_running_mean->data;
    const float* p_features_15_7_running_var = (const float*)features_15_7_running_var->data;
    const float* p_features_15_7_weight = (const float*)features_15_7_weight->data;
    const float* p_features_15_7_bias = (const float*)features_15_7_bias->data;
    const float* p_features_16_0_weight = (const float*)features_16_0_weight->data;
    const float* p_features_16_1_running_mean = (const float*)features_16_1_running_mean->data;
    const float* p_features_16_1_running_var = (const float*)features_16_1_running_var->data;
    const float* p_features_16_1_weight = (const float*)features_16_1_weight->data;
    const float* p_features_16_1_bias = (const float*)features_16_1_bias->data;
    const float* p_features_16_3_weight = (const float*)features_16_3_weight->data;
    const float* p_features_16_4_running_mean = (const float*)features_16_4_running_mean->data;
    const float* p_features_16_4_running_var = (const float*)features_16_4_running_var->data;
    const float* p_features_16_4_weight = (const float*)features_16_4_weight->data;
    const float* p_features_16_4_bias = (const float*)features_16_4_bias->data;
    const float* p_features_16_6_weight = (const float*)features_16_6_weight->data;
    const float* p_features_16_7_running_mean = (const float*)features_16_7_running_mean->data;
    const float* p_features_16_7_running_var = (const float*)features_16_7_running_var->data;
    const float* p_features_16_7_weight = (const float*)features_16_7_weight->data;
    const float* p_features_16_7_bias = (const float*)features_16_7_bias->data;
    const float* p_features_17_0_weight = (const float*)features_17_0_weight->data;
    const float* p_features_17_1_running_mean = (const float*)features_17_1_running_mean->data;
    const float* p_features_17_1_running_var = (const float*)features_17_1_running_var->data;
    const float* p_features_17_1_weight = (const float*)features_17_1_weight->data;
    const float* p_features_17_1_bias = (const float*)features_17_1_bias->data;
    const float* p_features_17_3_weight = (const float*)features_17_3_weight->data;
    const float* p_features_17_4_running_mean = (const float*)features_17_4_running_mean->data;
    const float* p_features_17_4_running_var = (const float*)features_17_4_running_var->data;
    const float* p_features_17_4_weight = (const float*)features_17_4_weight->data;
    const float* p_features_17_4_bias = (const float*)features_17_4_bias->data;
    const float* p_features_17_6_weight = (const float*)features_17_6_weight->data;
    const float* p_features_17_7_running_mean = (const float*)features_17_7_running_mean->data;
    const float* p_features_17_7_running_var = (const float*)features_17_7_running_var->data;
    const float* p_features_17_7_weight = (const float*)features_17_7_weight->data;
    const float* p_features_17_7_bias = (const float*)features_17_7_bias->data;
    const float* p_features_18_0_weight = (const float*)features_18_0_weight->data;
    const float* p_features_18_1_running_mean = (const float*)features_18_1_running_mean->data;
    const float* p_features_18_1_running_var = (const float*)features_18_1_running_var->data;
    const float* p_features_18_1_weight = (const float*)features_18_1_weight->data;
    const float* p_features_18_1_bias = (const float*)features_18_1_bias->data;
    const float* p_features_18_3_weight = (const float*)features_18_3_weight->data;
    const float* p_features_18_4_running_mean = (const float*)features_18_4_running_mean->data;
    const float* p_features_18_4_running_var = (const float*)features_18_4_running_var->data;
    const float* p_features_18_4_weight = (const float*)features_18_4_weight->data;
    const float* p_features_18_4_bias = (const float*)features_18_4_bias->data;
    const float* p_features_18_6_weight = (const float*)features_18_6_weight->data;
    const float* p_features_18_7_running_mean = (const float*)features_18_7_running_mean->data;
    const float* p_features_18_7_running_var = (const float*)features_18_7_running_var->data;
    const float* p_features_18_7_weight = (const float*)features_18_7_weight->data;
    const float* p_features_18_7_bias = (const float*)features_18_7_bias->data;
    const float* p_features_19_0_weight = (const float*)features_19_0_weight->data;
    const float* p_features_19_1_running_mean = (const float*)features_19_1_running_mean->data;
    const float* p_features_19_1_running_var = (const float*)features_19_1_running_var->data;
    const float* p_features_19_1_weight = (const float*)features_19_1_weight->data;
    const float* p_features_19_1_bias = (const float*)features_19_1_bias->data;
    const float* p_features_19_3_weight = (const float*)features_19_3_weight->data;
    const float* p_features_19_4_running_mean = (const float*)features_19_4_running_mean->data;
    const float* p_features_19_4_running_var = (const float*)features_19_4_running_var->data;
    const float* p_features_19_4_weight = (const float*)features_19_4_weight->data;
    const float* p_features_19_4_bias = (const float*)features_19_4_bias->data;
    const float* p_features_19_6_weight = (const float*)features_19_6_weight->data;
    const float* p_features_19_7_running_mean = (const float*)features_19_7_running_mean->data;
    const float* p_features_19_7_running_var = (const float*)features_19_7_running_var->data;
    const float* p_features_19_7_weight = (const float*)features_19_7_weight->data;
    const float* p_features_19_7_bias = (const float*)features_19_7_bias->data;
    const float* p_features_20_weight = (const float*)features_20_weight->data;
    const float* p_features_21_running_mean = (const float*)features_21_running_mean->data;
    const float* p_features_21_running_var = (const float*)features_21_running_var->data;
    const float* p_features_21_weight = (const float*)features_21_weight->data;
    const float* p_features_21_bias = (const float*)features_21_bias->data;
    const float* p_classifier_1_weight = (const float*)classifier_1_weight->data;
    const float* p_classifier_1_bias = (const float*)classifier_1_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(132960640ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 10x32x112x112
    float* p_tmp1 = hiera_ws + 4014080;  // 10x32x112x112
    float* p_tmp2 = hiera_ws + 8028160;  // 10x32x112x112
    float* p_tmp3 = hiera_ws + 12042240;  // 10x32x112x112
    float* p_tmp4 = hiera_ws + 16056320;  // 10x16x112x112
    float* p_tmp5 = hiera_ws + 18063360;  // 10x16x112x112
    float* p_tmp6 = hiera_ws + 20070400;  // 10x96x112x112
    float* p_tmp7 = hiera_ws + 32112640;  // 10x96x112x112
    float* p_tmp8 = hiera_ws + 44154880;  // 10x96x56x56
    float* p_tmp9 = hiera_ws + 47165440;  // 10x96x56x56
    float* p_tmp10 = hiera_ws + 50176000;  // 10x24x56x56
    float* p_tmp11 = hiera_ws + 50928640;  // 10x24x56x56
    float* p_tmp12 = hiera_ws + 51681280;  // 10x144x56x56
    float* p_tmp13 = hiera_ws + 56197120;  // 10x144x56x56
    float* p_tmp14 = hiera_ws + 60712960;  // 10x144x56x56
    float* p_tmp15 = hiera_ws + 65228800;  // 10x144x56x56
    float* p_tmp16 = hiera_ws + 69744640;  // 10x24x56x56
    float* p_tmp17 = hiera_ws + 70497280;  // 10x24x56x56
    float* p_tmp18 = hiera_ws + 71249920;  // 10x144x56x56
    float* p_tmp19 = hiera_ws + 75765760;  // 10x144x56x56
    float* p_tmp20 = hiera_ws + 80281600;  // 10x144x28x28
    float* p_tmp21 = hiera_ws + 81410560;  // 10x144x28x28
    float* p_tmp22 = hiera_ws + 82539520;  // 10x32x28x28
    float* p_tmp23 = hiera_ws + 82790400;  // 10x32x28x28
    float* p_tmp24 = hiera_ws + 83041280;  // 10x192x28x28
    float* p_tmp25 = hiera_ws + 84546560;  // 10x192x28x28
    float* p_tmp26 = hiera_ws + 86051840;  // 10x192x28x28
    float* p_tmp27 = hiera_ws + 87557120;  // 10x192x28x28
    float* p_tmp28 = hiera_ws + 89062400;  // 10x32x28x28
    float* p_tmp29 = hiera_ws + 89313280;  // 10x32x28x28
    float* p_tmp30 = hiera_ws + 89564160;  // 10x192x28x28
    float* p_tmp31 = hiera_ws + 91069440;  // 10x192x28x28
    float* p_tmp32 = hiera_ws + 92574720;  // 10x192x28x28
    float* p_tmp33 = hiera_ws + 94080000;  // 10x192x28x28
    float* p_tmp34 = hiera_ws + 95585280;  // 10x32x28x28
    float* p_tmp35 = hiera_ws + 95836160;  // 10x32x28x28
    float* p_tmp36 = hiera_ws + 96087040;  // 10x192x28x28
    float* p_tmp37 = hiera_ws + 97592320;  // 10x192x28x28
    float* p_tmp38 = hiera_ws + 99097600;  // 10x192x14x14
    float* p_tmp39 = hiera_ws + 99473920;  // 10x192x14x14
    float* p_tmp40 = hiera_ws + 99850240;  // 10x64x14x14
    float* p_tmp41 = hiera_ws + 99975680;  // 10x64x14x14
    float* p_tmp42 = hiera_ws + 100101120;  // 10x384x14x14
    float* p_tmp43 = hiera_ws + 100853760;  // 10x384x14x14
    float* p_tmp44 = hiera_ws + 101606400;  // 10x384x14x14
    float* p_tmp45 = hiera_ws + 102359040;  // 10x384x14x14
    float* p_tmp46 = hiera_ws + 103111680;  // 10x64x14x14
    float* p_tmp47 = hiera_ws + 103237120;  // 10x64x14x14
    float* p_tmp48 = hiera_ws + 103362560;  // 10x384x14x14
    float* p_tmp49 = hiera_ws + 104115200;  // 10x384x14x14
    float* p_tmp50 = hiera_ws + 104867840;  // 10x384x14x14
    float* p_tmp51 = hiera_ws + 105620480;  // 10x384x14x14
    float* p_tmp52 = hiera_ws + 106373120;  // 10x64x14x14
    float* p_tmp53 = hiera_ws + 106498560;  // 10x64x14x14
    float* p_tmp54 = hiera_ws + 106624000;  // 10x384x14x14
    float* p_tmp55 = hiera_ws + 107376640;  // 10x384x14x14
    float* p_tmp56 = hiera_ws + 108129280;  // 10x384x14x14
    float* p_tmp57 = hiera_ws + 108881920;  // 10x384x14x14
    float* p_tmp58 = hiera_ws + 109634560;  // 10x64x14x14
    float* p_tmp59 = hiera_ws + 109760000;  // 10x64x14x14
    float* p_tmp60 = hiera_ws + 109885440;  // 10x384x14x14
    float* p_tmp61 = hiera_ws + 110638080;  // 10x384x14x14
    float* p_tmp62 = hiera_ws + 111390720;  // 10x384x14x14
    float* p_tmp63 = hiera_ws + 112143360;  // 10x384x14x14
    float* p_tmp64 = hiera_ws + 112896000;  // 10x96x14x14
    float* p_tmp65 = hiera_ws + 113084160;  // 10x96x14x14
    float* p_tmp66 = hiera_ws + 113272320;  // 10x576x14x14
    float* p_tmp67 = hiera_ws + 114401280;  // 10x576x14x14
    float* p_tmp68 = hiera_ws + 115530240;  // 10x576x14x14
    float* p_tmp69 = hiera_ws + 116659200;  // 10x576x14x14
    float* p_tmp70 = hiera_ws + 117788160;  // 10x96x14x14
    float* p_tmp71 = hiera_ws + 117976320;  // 10x96x14x14
    float* p_tmp72 = hiera_ws + 118164480;  // 10x576x14x14
    float* p_tmp73 = hiera_ws + 119293440;  // 10x576x14x14
    float* p_tmp74 = hiera_ws + 120422400;  // 10x576x14x14
    float* p_tmp75 = hiera_ws + 121551360;  // 10x576x14x14
    float* p_tmp76 = hiera_ws + 122680320;  // 10x96x14x14
    float* p_tmp77 = hiera_ws + 122868480;  // 10x96x14x14
    float* p_tmp78 = hiera_ws + 123056640;  // 10x576x14x14
    float* p_tmp79 = hiera_ws + 124185600;  // 10x576x14x14
    float* p_tmp80 = hiera_ws + 125314560;  // 10x576x7x7
    float* p_tmp81 = hiera_ws + 125596800;  // 10x576x7x7
    float* p_tmp82 = hiera_ws + 125879040;  // 10x160x7x7
    float* p_tmp83 = hiera_ws + 125957440;  // 10x160x7x7
    float* p_tmp84 = hiera_ws + 126035840;  // 10x960x7x7
    float* p_tmp85 = hiera_ws + 126506240;  // 10x960x7x7
    float* p_tmp86 = hiera_ws + 126976640;  // 10x960x7x7
    float* p_tmp87 = hiera_ws + 127447040;  // 10x960x7x7
    float* p_tmp88 = hiera_ws + 127917440;  // 10x160x7x7
    float* p_tmp89 = hiera_ws + 127995840;  // 10x160x7x7
    float* p_tmp90 = hiera_ws + 128074240;  // 10x960x7x7
    float* p_tmp91 = hiera_ws + 128544640;  // 10x960x7x7
    float* p_tmp92 = hiera_ws + 129015040;  // 10x960x7x7
    float* p_tmp93 = hiera_ws + 129485440;  // 10x960x7x7
    float* p_tmp94 = hiera_ws + 129955840;  // 10x160x7x7
    float* p_tmp95 = hiera_ws + 130034240;  // 10x160x7x7
    float* p_tmp96 = hiera_ws + 130112640;  // 10x960x7x7
    float* p_tmp97 = hiera_ws + 130583040;  // 10x960x7x7
    float* p_tmp98 = hiera_ws + 131053440;  // 10x960x7x7
    float* p_tmp99 = hiera_ws + 131523840;  // 10x960x7x7
    float* p_tmp100 = hiera_ws + 131994240;  // 10x320x7x7
    float* p_tmp101 = hiera_ws + 132151040;  // 10x320x7x7
    float* p_tmp102 = hiera_ws + 132307840;  // 10x1280x7x7
    float* p_tmp103 = hiera_ws + 132935040;  // 10x1280x1x1
    float* p_tmp104 = hiera_ws + 132947840;  // 10x1280
    cudnnHandle_t hiera_dnn = hiera_cudnn(hiera_s);
    if (hiera_dnn == nullptr) return 6;
    {  // convolution 0 (cuDNN)
        HieraConvPlan0* cp = hiera_conv_plan0(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_x, cp->w, p_features_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp0) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp1) && hiera_aligned16(p_tmp0)) {
        hiera_stage1<<<3920, 256, 0, hiera_s>>>(p_tmp0, p_features_1_running_mean, p_features_1_running_var, p_features_1_weight, p_features_1_bias, p_tmp1);
    } else {
        hiera_stage1_scalar<<<15680, 256, 0, hiera_s>>>(p_tmp0, p_features_1_running_mean, p_features_1_running_var, p_features_1_weight, p_features_1_bias, p_tmp1);
    }
    {  // convolution 2 (cuDNN)
        HieraConvPlan2* cp = hiera_conv_plan2(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp1, cp->w, p_features_3_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp2) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp3) && hiera_aligned16(p_tmp2)) {
        hiera_stage3<<<3920, 256, 0, hiera_s>>>(p_tmp2, p_features_3_1_running_mean, p_features_3_1_running_var, p_features_3_1_weight, p_features_3_1_bias, p_tmp3);
    } else {
        hiera_stage3_scalar<<<15680, 256, 0, hiera_s>>>(p_tmp2, p_features_3_1_running_mean, p_features_3_1_running_var, p_features_3_1_weight, p_features_3_1_bias, p_tmp3);
    }
    {  // convolution 4 (cuDNN)
        HieraConvPlan4* cp = hiera_conv_plan4(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp3, cp->w, p_features_3_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp4) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp5) && hiera_aligned16(p_tmp4)) {
        hiera_stage5<<<1960, 256, 0, hiera_s>>>(p_tmp4, p_features_3_4_running_mean, p_features_3_4_running_var, p_features_3_4_weight, p_features_3_4_bias, p_tmp5);
    } else {
        hiera_stage5_scalar<<<7840, 256, 0, hiera_s>>>(p_tmp4, p_features_3_4_running_mean, p_features_3_4_running_var, p_features_3_4_weight, p_features_3_4_bias, p_tmp5);
    }
    {  // convolution 6 (cuDNN)
        HieraConvPlan6* cp = hiera_conv_plan6(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp5, cp->w, p_features_4_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp6) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp7) && hiera_aligned16(p_tmp6)) {
        hiera_stage7<<<11760, 256, 0, hiera_s>>>(p_tmp6, p_features_4_1_running_mean, p_features_4_1_running_var, p_features_4_1_weight, p_features_4_1_bias, p_tmp7);
    } else {
        hiera_stage7_scalar<<<47040, 256, 0, hiera_s>>>(p_tmp6, p_features_4_1_running_mean, p_features_4_1_running_var, p_features_4_1_weight, p_features_4_1_bias, p_tmp7);
    }
    {  // convolution 8 (cuDNN)
        HieraConvPlan8* cp = hiera_conv_plan8(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp7, cp->w, p_features_4_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp8) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp9) && hiera_aligned16(p_tmp8)) {
        hiera_stage9<<<2940, 256, 0, hiera_s>>>(p_tmp8, p_features_4_4_running_mean, p_features_4_4_running_var, p_features_4_4_weight, p_features_4_4_bias, p_tmp9);
    } else {
        hiera_stage9_scalar<<<11760, 256, 0, hiera_s>>>(p_tmp8, p_features_4_4_running_mean, p_features_4_4_running_var, p_features_4_4_weight, p_features_4_4_bias, p_tmp9);
    }
    {  // convolution 10 (cuDNN)
        HieraConvPlan10* cp = hiera_conv_plan10(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp9, cp->w, p_features_4_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp10) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp11) && hiera_aligned16(p_tmp10)) {
        hiera_stage11<<<735, 256, 0, hiera_s>>>(p_tmp10, p_features_4_7_running_mean, p_features_4_7_running_var, p_features_4_7_weight, p_features_4_7_bias, p_tmp11);
    } else {
        hiera_stage11_scalar<<<2940, 256, 0, hiera_s>>>(p_tmp10, p_features_4_7_running_mean, p_features_4_7_running_var, p_features_4_7_weight, p_features_4_7_bias, p_tmp11);
    }
    {  // convolution 12 (cuDNN)
        HieraConvPlan12* cp = hiera_conv_plan12(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp11, cp->w, p_features_5_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp12) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp13) && hiera_aligned16(p_tmp12)) {
        hiera_stage13<<<4410, 256, 0, hiera_s>>>(p_tmp12, p_features_5_1_running_mean, p_features_5_1_running_var, p_features_5_1_weight, p_features_5_1_bias, p_tmp13);
    } else {
        hiera_stage13_scalar<<<17640, 256, 0, hiera_s>>>(p_tmp12, p_features_5_1_running_mean, p_features_5_1_running_var, p_features_5_1_weight, p_features_5_1_bias, p_tmp13);
    }
    {  // convolution 14 (cuDNN)
        HieraConvPlan14* cp = hiera_conv_plan14(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp13, cp->w, p_features_5_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp14) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp15) && hiera_aligned16(p_tmp14)) {
        hiera_stage15<<<4410, 256, 0, hiera_s>>>(p_tmp14, p_features_5_4_running_mean, p_features_5_4_running_var, p_features_5_4_weight, p_features_5_4_bias, p_tmp15);
    } else {
        hiera_stage15_scalar<<<17640, 256, 0, hiera_s>>>(p_tmp14, p_features_5_4_running_mean, p_features_5_4_running_var, p_features_5_4_weight, p_features_5_4_bias, p_tmp15);
    }
    {  // convolution 16 (cuDNN)
        HieraConvPlan16* cp = hiera_conv_plan16(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp15, cp->w, p_features_5_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp16) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp17) && hiera_aligned16(p_tmp16)) {
        hiera_stage17<<<735, 256, 0, hiera_s>>>(p_tmp16, p_features_5_7_running_mean, p_features_5_7_running_var, p_features_5_7_weight, p_features_5_7_bias, p_tmp17);
    } else {
        hiera_stage17_scalar<<<2940, 256, 0, hiera_s>>>(p_tmp16, p_features_5_7_running_mean, p_features_5_7_running_var, p_features_5_7_weight, p_features_5_7_bias, p_tmp17);
    }
    {  // convolution 18 (cuDNN)
        HieraConvPlan18* cp = hiera_conv_plan18(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp17, cp->w, p_features_6_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp18) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp19) && hiera_aligned16(p_tmp18)) {
        hiera_stage19<<<4410, 256, 0, hiera_s>>>(p_tmp18, p_features_6_1_running_mean, p_features_6_1_running_var, p_features_6_1_weight, p_features_6_1_bias, p_tmp19);
    } else {
        hiera_stage19_scalar<<<17640, 256, 0, hiera_s>>>(p_tmp18, p_features_6_1_running_mean, p_features_6_1_running_var, p_features_6_1_weight, p_features_6_1_bias, p_tmp19);
    }
    {  // convolution 20 (cuDNN)
        HieraConvPlan20* cp = hiera_conv_plan20(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp19, cp->w, p_features_6_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp20) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp21) && hiera_aligned16(p_tmp20)) {
        hiera_stage21<<<1103, 256, 0, hiera_s>>>(p_tmp20, p_features_6_4_running_mean, p_features_6_4_running_var, p_features_6_4_weight, p_features_6_4_bias, p_tmp21);
    } else {
        hiera_stage21_scalar<<<4410, 256, 0, hiera_s>>>(p_tmp20, p_features_6_4_running_mean, p_features_6_4_running_var, p_features_6_4_weight, p_features_6_4_bias, p_tmp21);
    }
    {  // convolution 22 (cuDNN)
        HieraConvPlan22* cp = hiera_conv_plan22(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp21, cp->w, p_features_6_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp22) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp23) && hiera_aligned16(p_tmp22)) {
        hiera_stage23<<<245, 256, 0, hiera_s>>>(p_tmp22, p_features_6_7_running_mean, p_features_6_7_running_var, p_features_6_7_weight, p_features_6_7_bias, p_tmp23);
    } else {
        hiera_stage23_scalar<<<980, 256, 0, hiera_s>>>(p_tmp22, p_features_6_7_running_mean, p_features_6_7_running_var, p_features_6_7_weight, p_features_6_7_bias, p_tmp23);
    }
    {  // convolution 24 (cuDNN)
        HieraConvPlan24* cp = hiera_conv_plan24(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp23, cp->w, p_features_7_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp24) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp25) && hiera_aligned16(p_tmp24)) {
        hiera_stage25<<<1470, 256, 0, hiera_s>>>(p_tmp24, p_features_7_1_running_mean, p_features_7_1_running_var, p_features_7_1_weight, p_features_7_1_bias, p_tmp25);
    } else {
        hiera_stage25_scalar<<<5880, 256, 0, hiera_s>>>(p_tmp24, p_features_7_1_running_mean, p_features_7_1_running_var, p_features_7_1_weight, p_features_7_1_bias, p_tmp25);
    }
    {  // convolution 26 (cuDNN)
        HieraConvPlan26* cp = hiera_conv_plan26(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp25, cp->w, p_features_7_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp26) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp27) && hiera_aligned16(p_tmp26)) {
        hiera_stage27<<<1470, 256, 0, hiera_s>>>(p_tmp26, p_features_7_4_running_mean, p_features_7_4_running_var, p_features_7_4_weight, p_features_7_4_bias, p_tmp27);
    } else {
        hiera_stage27_scalar<<<5880, 256, 0, hiera_s>>>(p_tmp26, p_features_7_4_running_mean, p_features_7_4_running_var, p_features_7_4_weight, p_features_7_4_bias, p_tmp27);
    }
    {  // convolution 28 (cuDNN)
        HieraConvPlan28* cp = hiera_conv_plan28(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp27, cp->w, p_features_7_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp28) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp29) && hiera_aligned16(p_tmp28)) {
        hiera_stage29<<<245, 256, 0, hiera_s>>>(p_tmp28, p_features_7_7_running_mean, p_features_7_7_running_var, p_features_7_7_weight, p_features_7_7_bias, p_tmp29);
    } else {
        hiera_stage29_scalar<<<980, 256, 0, hiera_s>>>(p_tmp28, p_features_7_7_running_mean, p_features_7_7_running_var, p_features_7_7_weight, p_features_7_7_bias, p_tmp29);
    }
    {  // convolution 30 (cuDNN)
        HieraConvPlan30* cp = hiera_conv_plan30(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp29, cp->w, p_features_8_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp30) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp31) && hiera_aligned16(p_tmp30)) {
        hiera_stage31<<<1470, 256, 0, hiera_s>>>(p_tmp30, p_features_8_1_running_mean, p_features_8_1_running_var, p_features_8_1_weight, p_features_8_1_bias, p_tmp31);
    } else {
        hiera_stage31_scalar<<<5880, 256, 0, hiera_s>>>(p_tmp30, p_features_8_1_running_mean, p_features_8_1_running_var, p_features_8_1_weight, p_features_8_1_bias, p_tmp31);
    }
    {  // convolution 32 (cuDNN)
        HieraConvPlan32* cp = hiera_conv_plan32(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp31, cp->w, p_features_8_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp32) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp33) && hiera_aligned16(p_tmp32)) {
        hiera_stage33<<<1470, 256, 0, hiera_s>>>(p_tmp32, p_features_8_4_running_mean, p_features_8_4_running_var, p_features_8_4_weight, p_features_8_4_bias, p_tmp33);
    } else {
        hiera_stage33_scalar<<<5880, 256, 0, hiera_s>>>(p_tmp32, p_features_8_4_running_mean, p_features_8_4_running_var, p_features_8_4_weight, p_features_8_4_bias, p_tmp33);
    }
    {  // convolution 34 (cuDNN)
        HieraConvPlan34* cp = hiera_conv_plan34(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp33, cp->w, p_features_8_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp34) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp35) && hiera_aligned16(p_tmp34)) {
        hiera_stage35<<<245, 256, 0, hiera_s>>>(p_tmp34, p_features_8_7_running_mean, p_features_8_7_running_var, p_features_8_7_weight, p_features_8_7_bias, p_tmp35);
    } else {
        hiera_stage35_scalar<<<980, 256, 0, hiera_s>>>(p_tmp34, p_features_8_7_running_mean, p_features_8_7_running_var, p_features_8_7_weight, p_features_8_7_bias, p_tmp35);
    }
    {  // convolution 36 (cuDNN)
        HieraConvPlan36* cp = hiera_conv_plan36(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp35, cp->w, p_features_9_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp36) != CUDNN_STATUS_SUCCESS) return 6;
    }
    if (hiera_aligned16(p_tmp37) && hiera_aligned16(p_tmp36)) {
        hiera_stage37<<<1470, 256, 0, hiera_s>>>(p_tmp36, p_features_9_1_running_mean, p_features_9_1_running_var, p_features_9_1_weight, p_features_9_1_bias, p_tmp37);
    } else {
        hiera_stage37_scalar<<<5880, 256, 0, hiera_s>>>(p_tmp36, p_features_9_1_running_mean, p_features_9_1_running_var, p_features_9_1_weight, p_features_9_1_bias, p_tmp37);
    }
    {  // convolution 38 (cuDNN)
        HieraConvPlan38* cp = hiera_conv_plan38(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp37, cp->w, p_features_9_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp38) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage39<<<1470, 256, 0, hiera_s>>>(p_tmp38, p_features_9_4_running_mean, p_features_9_4_running_var, p_features_9_4_weight, p_features_9_4_bias, p_tmp39);
    {  // convolution 40 (cuDNN)
        HieraConvPlan40* cp = hiera_conv_plan40(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp39, cp->w, p_features_9_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp40) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage41<<<490, 256, 0, hiera_s>>>(p_tmp40, p_features_9_7_running_mean, p_features_9_7_running_var, p_features_9_7_weight, p_features_9_7_bias, p_tmp41);
    {  // convolution 42 (cuDNN)
        HieraConvPlan42* cp = hiera_conv_plan42(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp41, cp->w, p_features_10_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp42) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage43<<<2940, 256, 0, hiera_s>>>(p_tmp42, p_features_10_1_running_mean, p_features_10_1_running_var, p_features_10_1_weight, p_features_10_1_bias, p_tmp43);
    {  // convolution 44 (cuDNN)
        HieraConvPlan44* cp = hiera_conv_plan44(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp43, cp->w, p_features_10_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp44) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage45<<<2940, 256, 0, hiera_s>>>(p_tmp44, p_features_10_4_running_mean, p_features_10_4_running_var, p_features_10_4_weight, p_features_10_4_bias, p_tmp45);
    {  // convolution 46 (cuDNN)
        HieraConvPlan46* cp = hiera_conv_plan46(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp45, cp->w, p_features_10_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp46) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage47<<<490, 256, 0, hiera_s>>>(p_tmp46, p_features_10_7_running_mean, p_features_10_7_running_var, p_features_10_7_weight, p_features_10_7_bias, p_tmp47);
    {  // convolution 48 (cuDNN)
        HieraConvPlan48* cp = hiera_conv_plan48(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp47, cp->w, p_features_11_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp48) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage49<<<2940, 256, 0, hiera_s>>>(p_tmp48, p_features_11_1_running_mean, p_features_11_1_running_var, p_features_11_1_weight, p_features_11_1_bias, p_tmp49);
    {  // convolution 50 (cuDNN)
        HieraConvPlan50* cp = hiera_conv_plan50(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp49, cp->w, p_features_11_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp50) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage51<<<2940, 256, 0, hiera_s>>>(p_tmp50, p_features_11_4_running_mean, p_features_11_4_running_var, p_features_11_4_weight, p_features_11_4_bias, p_tmp51);
    {  // convolution 52 (cuDNN)
        HieraConvPlan52* cp = hiera_conv_plan52(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp51, cp->w, p_features_11_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp52) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage53<<<490, 256, 0, hiera_s>>>(p_tmp52, p_features_11_7_running_mean, p_features_11_7_running_var, p_features_11_7_weight, p_features_11_7_bias, p_tmp53);
    {  // convolution 54 (cuDNN)
        HieraConvPlan54* cp = hiera_conv_plan54(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp53, cp->w, p_features_12_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp54) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage55<<<2940, 256, 0, hiera_s>>>(p_tmp54, p_features_12_1_running_mean, p_features_12_1_running_var, p_features_12_1_weight, p_features_12_1_bias, p_tmp55);
    {  // convolution 56 (cuDNN)
        HieraConvPlan56* cp = hiera_conv_plan56(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp55, cp->w, p_features_12_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp56) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage57<<<2940, 256, 0, hiera_s>>>(p_tmp56, p_features_12_4_running_mean, p_features_12_4_running_var, p_features_12_4_weight, p_features_12_4_bias, p_tmp57);
    {  // convolution 58 (cuDNN)
        HieraConvPlan58* cp = hiera_conv_plan58(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp57, cp->w, p_features_12_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp58) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage59<<<490, 256, 0, hiera_s>>>(p_tmp58, p_features_12_7_running_mean, p_features_12_7_running_var, p_features_12_7_weight, p_features_12_7_bias, p_tmp59);
    {  // convolution 60 (cuDNN)
        HieraConvPlan60* cp = hiera_conv_plan60(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp59, cp->w, p_features_13_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp60) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage61<<<2940, 256, 0, hiera_s>>>(p_tmp60, p_features_13_1_running_mean, p_features_13_1_running_var, p_features_13_1_weight, p_features_13_1_bias, p_tmp61);
    {  // convolution 62 (cuDNN)
        HieraConvPlan62* cp = hiera_conv_plan62(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp61, cp->w, p_features_13_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp62) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage63<<<2940, 256, 0, hiera_s>>>(p_tmp62, p_features_13_4_running_mean, p_features_13_4_running_var, p_features_13_4_weight, p_features_13_4_bias, p_tmp63);
    {  // convolution 64 (cuDNN)
        HieraConvPlan64* cp = hiera_conv_plan64(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp63, cp->w, p_features_13_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp64) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage65<<<735, 256, 0, hiera_s>>>(p_tmp64, p_features_13_7_running_mean, p_features_13_7_running_var, p_features_13_7_weight, p_features_13_7_bias, p_tmp65);
    {  // convolution 66 (cuDNN)
        HieraConvPlan66* cp = hiera_conv_plan66(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp65, cp->w, p_features_14_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp66) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage67<<<4410, 256, 0, hiera_s>>>(p_tmp66, p_features_14_1_running_mean, p_features_14_1_running_var, p_features_14_1_weight, p_features_14_1_bias, p_tmp67);
    {  // convolution 68 (cuDNN)
        HieraConvPlan68* cp = hiera_conv_plan68(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp67, cp->w, p_features_14_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp68) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage69<<<4410, 256, 0, hiera_s>>>(p_tmp68, p_features_14_4_running_mean, p_features_14_4_running_var, p_features_14_4_weight, p_features_14_4_bias, p_tmp69);
    {  // convolution 70 (cuDNN)
        HieraConvPlan70* cp = hiera_conv_plan70(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp69, cp->w, p_features_14_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp70) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage71<<<735, 256, 0, hiera_s>>>(p_tmp70, p_features_14_7_running_mean, p_features_14_7_running_var, p_features_14_7_weight, p_features_14_7_bias, p_tmp71);
    {  // convolution 72 (cuDNN)
        HieraConvPlan72* cp = hiera_conv_plan72(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp71, cp->w, p_features_15_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp72) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage73<<<4410, 256, 0, hiera_s>>>(p_tmp72, p_features_15_1_running_mean, p_features_15_1_running_var, p_features_15_1_weight, p_features_15_1_bias, p_tmp73);
    {  // convolution 74 (cuDNN)
        HieraConvPlan74* cp = hiera_conv_plan74(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp73, cp->w, p_features_15_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp74) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage75<<<4410, 256, 0, hiera_s>>>(p_tmp74, p_features_15_4_running_mean, p_features_15_4_running_var, p_features_15_4_weight, p_features_15_4_bias, p_tmp75);
    {  // convolution 76 (cuDNN)
        HieraConvPlan76* cp = hiera_conv_plan76(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp75, cp->w, p_features_15_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp76) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage77<<<735, 256, 0, hiera_s>>>(p_tmp76, p_features_15_7_running_mean, p_features_15_7_running_var, p_features_15_7_weight, p_features_15_7_bias, p_tmp77);
    {  // convolution 78 (cuDNN)
        HieraConvPlan78* cp = hiera_conv_plan78(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp77, cp->w, p_features_16_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp78) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage79<<<4410, 256, 0, hiera_s>>>(p_tmp78, p_features_16_1_running_mean, p_features_16_1_running_var, p_features_16_1_weight, p_features_16_1_bias, p_tmp79);
    {  // convolution 80 (cuDNN)
        HieraConvPlan80* cp = hiera_conv_plan80(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp79, cp->w, p_features_16_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp80) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage81<<<1103, 256, 0, hiera_s>>>(p_tmp80, p_features_16_4_running_mean, p_features_16_4_running_var, p_features_16_4_weight, p_features_16_4_bias, p_tmp81);
    {  // convolution 82 (cuDNN)
        HieraConvPlan82* cp = hiera_conv_plan82(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp81, cp->w, p_features_16_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp82) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage83<<<307, 256, 0, hiera_s>>>(p_tmp82, p_features_16_7_running_mean, p_features_16_7_running_var, p_features_16_7_weight, p_features_16_7_bias, p_tmp83);
    {  // convolution 84 (cuDNN)
        HieraConvPlan84* cp = hiera_conv_plan84(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp83, cp->w, p_features_17_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp84) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage85<<<1838, 256, 0, hiera_s>>>(p_tmp84, p_features_17_1_running_mean, p_features_17_1_running_var, p_features_17_1_weight, p_features_17_1_bias, p_tmp85);
    {  // convolution 86 (cuDNN)
        HieraConvPlan86* cp = hiera_conv_plan86(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp85, cp->w, p_features_17_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp86) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage87<<<1838, 256, 0, hiera_s>>>(p_tmp86, p_features_17_4_running_mean, p_features_17_4_running_var, p_features_17_4_weight, p_features_17_4_bias, p_tmp87);
    {  // convolution 88 (cuDNN)
        HieraConvPlan88* cp = hiera_conv_plan88(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp87, cp->w, p_features_17_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp88) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage89<<<307, 256, 0, hiera_s>>>(p_tmp88, p_features_17_7_running_mean, p_features_17_7_running_var, p_features_17_7_weight, p_features_17_7_bias, p_tmp89);
    {  // convolution 90 (cuDNN)
        HieraConvPlan90* cp = hiera_conv_plan90(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp89, cp->w, p_features_18_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp90) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage91<<<1838, 256, 0, hiera_s>>>(p_tmp90, p_features_18_1_running_mean, p_features_18_1_running_var, p_features_18_1_weight, p_features_18_1_bias, p_tmp91);
    {  // convolution 92 (cuDNN)
        HieraConvPlan92* cp = hiera_conv_plan92(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp91, cp->w, p_features_18_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp92) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage93<<<1838, 256, 0, hiera_s>>>(p_tmp92, p_features_18_4_running_mean, p_features_18_4_running_var, p_features_18_4_weight, p_features_18_4_bias, p_tmp93);
    {  // convolution 94 (cuDNN)
        HieraConvPlan94* cp = hiera_conv_plan94(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp93, cp->w, p_features_18_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp94) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage95<<<307, 256, 0, hiera_s>>>(p_tmp94, p_features_18_7_running_mean, p_features_18_7_running_var, p_features_18_7_weight, p_features_18_7_bias, p_tmp95);
    {  // convolution 96 (cuDNN)
        HieraConvPlan96* cp = hiera_conv_plan96(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp95, cp->w, p_features_19_0_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp96) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage97<<<1838, 256, 0, hiera_s>>>(p_tmp96, p_features_19_1_running_mean, p_features_19_1_running_var, p_features_19_1_weight, p_features_19_1_bias, p_tmp97);
    {  // convolution 98 (cuDNN)
        HieraConvPlan98* cp = hiera_conv_plan98(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp97, cp->w, p_features_19_3_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp98) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage99<<<1838, 256, 0, hiera_s>>>(p_tmp98, p_features_19_4_running_mean, p_features_19_4_running_var, p_features_19_4_weight, p_features_19_4_bias, p_tmp99);
    {  // convolution 100 (cuDNN)
        HieraConvPlan100* cp = hiera_conv_plan100(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp99, cp->w, p_features_19_6_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp100) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage101<<<613, 256, 0, hiera_s>>>(p_tmp100, p_features_19_7_running_mean, p_features_19_7_running_var, p_features_19_7_weight, p_features_19_7_bias, p_tmp101);
    {  // convolution 102 (cuDNN)
        HieraConvPlan102* cp = hiera_conv_plan102(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp101, cp->w, p_features_20_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp102) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage103<<<50, 256, 0, hiera_s>>>(p_tmp102, p_features_21_running_mean, p_features_21_running_var, p_features_21_weight, p_features_21_bias, p_tmp103);
    if (hiera_aligned16(p_tmp104) && hiera_aligned16(p_tmp103)) {
        hiera_stage104<<<13, 256, 0, hiera_s>>>(p_tmp103, p_tmp104);
    } else {
        hiera_stage104_scalar<<<50, 256, 0, hiera_s>>>(p_tmp103, p_tmp104);
    }
    // out = tmp104 @ classifier.1.weight + classifier.1.bias (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan105* p = hiera_lt_plan105(p_classifier_1_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_classifier_1_weight + 0, p->a, p_tmp104 + 0, p->b,
                           &beta, p_out, p->c, p_out, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
