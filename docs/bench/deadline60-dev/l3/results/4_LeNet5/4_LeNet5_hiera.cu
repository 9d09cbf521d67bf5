// hiera expert candidate for '4_LeNet5'
// strategy: T.cudnn_algos
// variant: cuDNN fastest measured algorithm; cuBLASLt algo #0 + bias epilogue; block 256, vec 4, ilp 2
// precision: strict fp32 (no TF32)
//   stage 0: tmp0 = conv2d(x, conv1.weight) (cuDNN; 4096x1x32x32 -> 4096x6x28x28, kernel 5x5)
//   stage 1: fused pointwise over 4096x6x14x14: tmp1 = maximum(maximum(relu((tmp0 + conv1.bias)), relu((tmp0 + conv1.bias))), maximum(relu((tmp0…
//   stage 2: tmp2 = conv2d(tmp1, conv2.weight) (cuDNN; 4096x6x14x14 -> 4096x16x10x10, kernel 5x5)
//   stage 3: fused pointwise over 4096x16x5x5: tmp3 = maximum(maximum(relu((tmp2 + conv2.bias)), relu((tmp2 + conv2.bias))), maximum(relu((tmp2…
//   stage 4: tmp5 = tmp3 @ fc1.weight + fc1.bias -> relu (4096x120x400)
//   stage 5: tmp7 = tmp5 @ fc2.weight + fc2.bias -> relu (4096x84x120)
//   stage 6: out = tmp7 @ fc3.weight + fc3.bias (4096x20x84)
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"
#include <cublas_v2.h>
#include <cublasLt.h>
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


// Convolution 0: tmp0 = conv2d(x, conv1.weight): N=4096 C=1 32x32 -> K=6 28x28,
// kernel 5x5, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
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
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 4096, 1, 32, 32));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 6, 1, 5, 5));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 4096 || ok != 6 || oh != 28 || ow != 28) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 4096, 6, 28, 28));
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


// Convolution 2: tmp2 = conv2d(tmp1, conv2.weight): N=4096 C=6 14x14 -> K=16 10x10,
// kernel 5x5, stride 1x1, padding 0x0, dilation 1x1, groups 1; cuDNN fastest measured algorithm,
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
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 4096, 6, 14, 14));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 16, 6, 5, 5));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, 1));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != 4096 || ok != 16 || oh != 10 || ow != 10) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 4096, 16, 10, 10));
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


// Product 4: tmp5 = tmp3 @ fc1.weight + fc1.bias then ReLU (M=4096 N=120 K=400),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan4 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan4* hiera_lt_plan4(const void* bias) {
    static HieraLtPlan4 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 400, 120, 400);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 400, 4096, 400);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 120, 4096, 120);

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


// Product 5: tmp7 = tmp5 @ fc2.weight + fc2.bias then ReLU (M=4096 N=84 K=120),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_RELU_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan5 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan5* hiera_lt_plan5(const void* bias) {
    static HieraLtPlan5 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 120, 84, 120);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 120, 4096, 120);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 84, 4096, 84);

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


// Product 6: out = tmp7 @ fc3.weight + fc3.bias (M=4096 N=20 K=84),
// CUBLAS_COMPUTE_32F, epilogue CUBLASLT_EPILOGUE_BIAS. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan6 {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
};
static HieraLtPlan6* hiera_lt_plan6(const void* bias) {
    static HieraLtPlan6 p;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, CUDA_R_32F, 84, 20, 84);
        cublasLtMatrixLayoutCreate(&p.b, CUDA_R_32F, 84, 4096, 84);
        cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, 20, 4096, 20);

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

// tmp1 = maximum(maximum(relu((tmp0 + conv1.bias)), relu((tmp0 + conv1.bias))), maximum(relu((tmp0 + conv1.bias)), rel…
// 4816896 elements as 4816896 vectors of 1; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage1(const float* __restrict__ p_tmp0, const float* __restrict__ p_conv1_bias, float* __restrict__ p_tmp1) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 4816896; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 4816896) break;
            const idx_t i = v * 1;
            const float t0 = p_tmp0[(i / 14) * 56 + (i % 14) * 2];
            const float t1 = p_conv1_bias[(i / 196) % 6];
            const float t2 = (t0 + t1);
            const float t3 = (t2 > 0.0f ? t2 : 0.0f);
            const float t4 = p_tmp0[(i / 14) * 56 + (i % 14) * 2 + 1];
            const float t5 = (t4 + t1);
            const float t6 = (t5 > 0.0f ? t5 : 0.0f);
            const float t7 = fmaxf(t3, t6);
            const float t8 = p_tmp0[(i / 14) * 56 + (i % 14) * 2 + 28];
            const float t9 = (t8 + t1);
            const float t10 = (t9 > 0.0f ? t9 : 0.0f);
            const float t11 = p_tmp0[(i / 14) * 56 + (i % 14) * 2 + 29];
            const float t12 = (t11 + t1);
            const float t13 = (t12 > 0.0f ? t12 : 0.0f);
            const float t14 = fmaxf(t10, t13);
            const float t15 = fmaxf(t7, t14);
            p_tmp1[i] = t15;
        }
    }
}

// tmp3 = maximum(maximum(relu((tmp2 + conv2.bias)), relu((tmp2 + conv2.bias))), maximum(relu((tmp2 + conv2.bias)), rel…
// 1638400 elements as 1638400 vectors of 1; 256 threads/block, 2 vector(s) per thread per trip.
__global__ void __launch_bounds__(256) hiera_stage3(const float* __restrict__ p_tmp2, const float* __restrict__ p_conv2_bias, float* __restrict__ p_tmp3) {
    const idx_t step = (idx_t)gridDim.x * 512;
    for (idx_t v0 = (idx_t)blockIdx.x * 512 + threadIdx.x; v0 < 1638400; v0 += step) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const idx_t v = v0 + (idx_t)u * 256;
            if (v >= 1638400) break;
            const idx_t i = v * 1;
            const float t0 = p_tmp2[(i / 5) * 20 + (i % 5) * 2];
            const float t1 = p_conv2_bias[(i / 25) % 16];
            const float t2 = (t0 + t1);
            const float t3 = (t2 > 0.0f ? t2 : 0.0f);
            const float t4 = p_tmp2[(i / 5) * 20 + (i % 5) * 2 + 1];
            const float t5 = (t4 + t1);
            const float t6 = (t5 > 0.0f ? t5 : 0.0f);
            const float t7 = fmaxf(t3, t6);
            const float t8 = p_tmp2[(i / 5) * 20 + (i % 5) * 2 + 10];
            const float t9 = (t8 + t1);
            const float t10 = (t9 > 0.0f ? t9 : 0.0f);
            const float t11 = p_tmp2[(i / 5) * 20 + (i % 5) * 2 + 11];
            const float t12 = (t11 + t1);
            const float t13 = (t12 > 0.0f ? t12 : 0.0f);
            const float t14 = fmaxf(t10, t13);
            const float t15 = fmaxf(t7, t14);
            p_tmp3[i] = t15;
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* conv1_weight, const hiera_tensor* conv1_bias, const hiera_tensor* conv2_weight, const hiera_tensor* conv2_bias, const hiera_tensor* fc1_weight, const hiera_tensor* fc1_bias, const hiera_tensor* fc2_weight, const hiera_tensor* fc2_bias, const hiera_tensor* fc3_weight, const hiera_tensor* fc3_bias, hiera_tensor* out, void* stream) {
    cudaStream_t hiera_s = (cudaStream_t)stream;
    if (x->ndim != 4 || x->sizes[0] != 4096 || x->sizes[1] != 1 || x->sizes[2] != 32 || x->sizes[3] != 32) return 2;  // specialized for 4096x1x32x32
    if (conv1_weight->ndim != 4 || conv1_weight->sizes[0] != 6 || conv1_weight->sizes[1] != 1 || conv1_weight->sizes[2] != 5 || conv1_weight->sizes[3] != 5) return 2;  // specialized for 6x1x5x5
    if (conv1_bias->ndim != 1 || conv1_bias->sizes[0] != 6) return 2;  // specialized for 6
    if (conv2_weight->ndim != 4 || conv2_weight->sizes[0] != 16 || conv2_weight->sizes[1] != 6 || conv2_weight->sizes[2] != 5 || conv2_weight->sizes[3] != 5) return 2;  // specialized for 16x6x5x5
    if (conv2_bias->ndim != 1 || conv2_bias->sizes[0] != 16) return 2;  // specialized for 16
    if (fc1_weight->ndim != 2 || fc1_weight->sizes[0] != 120 || fc1_weight->sizes[1] != 400) return 2;  // specialized for 120x400
    if (fc1_bias->ndim != 1 || fc1_bias->sizes[0] != 120) return 2;  // specialized for 120
    if (fc2_weight->ndim != 2 || fc2_weight->sizes[0] != 84 || fc2_weight->sizes[1] != 120) return 2;  // specialized for 84x120
    if (fc2_bias->ndim != 1 || fc2_bias->sizes[0] != 84) return 2;  // specialized for 84
    if (fc3_weight->ndim != 2 || fc3_weight->sizes[0] != 20 || fc3_weight->sizes[1] != 84) return 2;  // specialized for 20x84
    if (fc3_bias->ndim != 1 || fc3_bias->sizes[0] != 20) return 2;  // specialized for 20
    if (out->ndim != 2 || out->sizes[0] != 4096 || out->sizes[1] != 20) return 2;  // specialized for 4096x20
    const float* p_x = (const float*)x->data;
    const float* p_conv1_weight = (const float*)conv1_weight->data;
    const float* p_conv1_bias = (const float*)conv1_bias->data;
    const float* p_conv2_weight = (const float*)conv2_weight->data;
    const float* p_conv2_bias = (const float*)conv2_bias->data;
    const float* p_fc1_weight = (const float*)fc1_weight->data;
    const float* p_fc1_bias = (const float*)fc1_bias->data;
    const float* p_fc2_weight = (const float*)fc2_weight->data;
    const float* p_fc2_bias = (const float*)fc2_bias->data;
    const float* p_fc3_weight = (const float*)fc3_weight->data;
    const float* p_fc3_bias = (const float*)fc3_bias->data;
    float* p_out = (float*)out->data;
    float* hiera_ws = hiera_workspace(33112064ull * sizeof(float));
    if (hiera_ws == nullptr) return 3;
    float* p_tmp0 = hiera_ws + 0;  // 4096x6x28x28
    float* p_tmp1 = hiera_ws + 19267584;  // 4096x6x14x14
    float* p_tmp2 = hiera_ws + 24084480;  // 4096x16x10x10
    float* p_tmp3 = hiera_ws + 30638080;  // 4096x16x5x5
    float* p_tmp5 = hiera_ws + 32276480;  // 4096x120
    float* p_tmp7 = hiera_ws + 32768000;  // 4096x84
    cudnnHandle_t hiera_dnn = hiera_cudnn(hiera_s);
    if (hiera_dnn == nullptr) return 6;
    {  // convolution 0 (cuDNN)
        HieraConvPlan0* cp = hiera_conv_plan0(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_x, cp->w, p_conv1_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp0) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage1<<<9408, 256, 0, hiera_s>>>(p_tmp0, p_conv1_bias, p_tmp1);
    {  // convolution 2 (cuDNN)
        HieraConvPlan2* cp = hiera_conv_plan2(hiera_dnn);
        if (cp == nullptr) return 6;
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, p_tmp1, cp->w, p_conv2_weight, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, p_tmp2) != CUDNN_STATUS_SUCCESS) return 6;
    }
    hiera_stage3<<<3200, 256, 0, hiera_s>>>(p_tmp2, p_conv2_bias, p_tmp3);
    // tmp5 = tmp3 @ fc1.weight + fc1.bias then ReLU (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan4* p = hiera_lt_plan4(p_fc1_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_fc1_weight + 0, p->a, p_tmp3 + 0, p->b,
                           &beta, p_tmp5, p->c, p_tmp5, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // tmp7 = tmp5 @ fc2.weight + fc2.bias then ReLU (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan5* p = hiera_lt_plan5(p_fc2_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_fc2_weight + 0, p->a, p_tmp5 + 0, p->b,
                           &beta, p_tmp7, p->c, p_tmp7, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    // out = tmp7 @ fc3.weight + fc3.bias (cuBLASLt, column-major C^T = B^T A^T)
    {
        HieraLtPlan6* p = hiera_lt_plan6(p_fc3_bias + 0);
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = 1.0f, beta = 0.0f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, p_fc3_weight + 0, p->a, p_tmp7 + 0, p->b,
                           &beta, p_out, p->c, p_out, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }
    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;
}
