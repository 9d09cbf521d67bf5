// ---- cuDNN-on-CPU emulation (tests only) ----
#include <cmath>
#include <cstring>
typedef enum { CUDNN_STATUS_SUCCESS = 0, CUDNN_STATUS_BAD_PARAM = 3, CUDNN_STATUS_NOT_SUPPORTED = 9 } cudnnStatus_t;
typedef enum { CUDNN_TENSOR_NCHW = 0 } cudnnTensorFormat_t;
typedef enum { CUDNN_DATA_FLOAT = 0 } cudnnDataType_t;
typedef enum { CUDNN_CROSS_CORRELATION = 1 } cudnnConvolutionMode_t;
typedef enum { CUDNN_DEFAULT_MATH = 0, CUDNN_TENSOR_OP_MATH = 1, CUDNN_FMA_MATH = 3 } cudnnMathType_t;
typedef enum {
    CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM = 0, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM = 1,
    CUDNN_CONVOLUTION_FWD_ALGO_GEMM = 2, CUDNN_CONVOLUTION_FWD_ALGO_DIRECT = 3, CUDNN_CONVOLUTION_FWD_ALGO_FFT = 4,
    CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING = 5, CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD = 6,
    CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED = 7, CUDNN_CONVOLUTION_FWD_ALGO_COUNT = 8
} cudnnConvolutionFwdAlgo_t;
typedef struct {
    cudnnConvolutionFwdAlgo_t algo; cudnnStatus_t status; float time; size_t memory; int determinism;
    cudnnMathType_t mathType; int reserved[3];
} cudnnConvolutionFwdAlgoPerf_t;
struct HieraEmuDnn { int unused; };
struct HieraEmuTensor { int n, c, h, w; };
struct HieraEmuFilter { int k, c, r, s; };
struct HieraEmuConv { int ph, pw, sh, sw, dh, dw, groups = 1; cudnnMathType_t math = CUDNN_DEFAULT_MATH; };
typedef HieraEmuDnn* cudnnHandle_t;
typedef HieraEmuTensor* cudnnTensorDescriptor_t;
typedef HieraEmuFilter* cudnnFilterDescriptor_t;
typedef HieraEmuConv* cudnnConvolutionDescriptor_t;
static cudnnStatus_t cudnnCreate(cudnnHandle_t* h) { *h = new HieraEmuDnn(); return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnSetStream(cudnnHandle_t, cudaStream_t) { return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnCreateTensorDescriptor(cudnnTensorDescriptor_t* d) { *d = new HieraEmuTensor(); return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnCreateFilterDescriptor(cudnnFilterDescriptor_t* d) { *d = new HieraEmuFilter(); return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnCreateConvolutionDescriptor(cudnnConvolutionDescriptor_t* d) { *d = new HieraEmuConv(); return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnDestroyTensorDescriptor(cudnnTensorDescriptor_t d) { delete d; return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnDestroyFilterDescriptor(cudnnFilterDescriptor_t d) { delete d; return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnDestroyConvolutionDescriptor(cudnnConvolutionDescriptor_t d) { delete d; return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t d, cudnnTensorFormat_t, cudnnDataType_t,
                                                int n, int c, int h, int w) { *d = {n, c, h, w}; return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnSetFilter4dDescriptor(cudnnFilterDescriptor_t d, cudnnDataType_t, cudnnTensorFormat_t,
                                                int k, int c, int r, int s) { *d = {k, c, r, s}; return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnSetConvolution2dDescriptor(cudnnConvolutionDescriptor_t d, int ph, int pw, int sh, int sw,
                                                     int dh, int dw, cudnnConvolutionMode_t, cudnnDataType_t) {
    d->ph = ph; d->pw = pw; d->sh = sh; d->sw = sw; d->dh = dh; d->dw = dw; return CUDNN_STATUS_SUCCESS;
}
static cudnnStatus_t cudnnSetConvolutionGroupCount(cudnnConvolutionDescriptor_t d, int g) { d->groups = g; return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnSetConvolutionMathType(cudnnConvolutionDescriptor_t d, cudnnMathType_t m) { d->math = m; return CUDNN_STATUS_SUCCESS; }
static cudnnStatus_t cudnnGetConvolution2dForwardOutputDim(cudnnConvolutionDescriptor_t c, cudnnTensorDescriptor_t x,
                                                           cudnnFilterDescriptor_t w, int* n, int* k, int* oh, int* ow) {
    *n = x->n; *k = w->k;
    *oh = (x->h + 2 * c->ph - c->dh * (w->r - 1) - 1) / c->sh + 1;
    *ow = (x->w + 2 * c->pw - c->dw * (w->s - 1) - 1) / c->sw + 1;
    return CUDNN_STATUS_SUCCESS;
}
// Like cuDNN: with CUDNN_FMA_MATH on the descriptor only FMA results come back; otherwise a TF32 tensor-op
// algorithm is listed first (the faster one), then the FMA ones.
static int hiera_emu_perf(cudnnConvolutionDescriptor_t cd, int requested, int* got, cudnnConvolutionFwdAlgoPerf_t* perf) {
    const bool tensor_op = cd->math != CUDNN_FMA_MATH;
    const cudnnConvolutionFwdAlgo_t algos[3] = {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
        CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, CUDNN_CONVOLUTION_FWD_ALGO_GEMM};
    const cudnnMathType_t maths[3] = {CUDNN_TENSOR_OP_MATH, CUDNN_FMA_MATH, CUDNN_FMA_MATH};
    const int first = tensor_op ? 0 : 1;
    *got = requested < 3 - first ? requested : 3 - first;
    for (int i = 0; i < *got; ++i) {
        const int j = i + first;
        std::memset(&perf[i], 0, sizeof(perf[i]));
        perf[i].algo = algos[j]; perf[i].status = CUDNN_STATUS_SUCCESS; perf[i].mathType = maths[j];
        perf[i].time = 1.0f + i;
    }
    return 0;
}
static cudnnStatus_t cudnnFindConvolutionForwardAlgorithm(cudnnHandle_t, cudnnTensorDescriptor_t, cudnnFilterDescriptor_t,
        cudnnConvolutionDescriptor_t cd, cudnnTensorDescriptor_t, int requested, int* got, cudnnConvolutionFwdAlgoPerf_t* perf) {
    hiera_emu_perf(cd, requested, got, perf); return CUDNN_STATUS_SUCCESS;
}
static cudnnStatus_t cudnnGetConvolutionForwardAlgorithm_v7(cudnnHandle_t, cudnnTensorDescriptor_t, cudnnFilterDescriptor_t,
        cudnnConvolutionDescriptor_t cd, cudnnTensorDescriptor_t, int requested, int* got, cudnnConvolutionFwdAlgoPerf_t* perf) {
    hiera_emu_perf(cd, requested, got, perf); return CUDNN_STATUS_SUCCESS;
}
static cudnnStatus_t cudnnGetConvolutionForwardWorkspaceSize(cudnnHandle_t, cudnnTensorDescriptor_t, cudnnFilterDescriptor_t,
        cudnnConvolutionDescriptor_t, cudnnTensorDescriptor_t, cudnnConvolutionFwdAlgo_t algo, size_t* bytes) {
    // Like cuDNN at some shapes: no FFT kernels here.
    if (algo == CUDNN_CONVOLUTION_FWD_ALGO_FFT || algo == CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING) return CUDNN_STATUS_NOT_SUPPORTED;
    *bytes = 1024; return CUDNN_STATUS_SUCCESS;
}
static inline float hiera_emu_tf32(float v) {
    unsigned u; std::memcpy(&u, &v, 4); u = (u + 0x1000u) & ~0x1FFFu; std::memcpy(&v, &u, 4); return v;
}
static cudnnStatus_t cudnnConvolutionForward(cudnnHandle_t, const void* alpha, cudnnTensorDescriptor_t xd, const void* xp,
        cudnnFilterDescriptor_t wd, const void* wp, cudnnConvolutionDescriptor_t cd, cudnnConvolutionFwdAlgo_t, void*, size_t,
        const void* beta, cudnnTensorDescriptor_t yd, void* yp) {
    const float* x = (const float*)xp; const float* w = (const float*)wp; float* y = (float*)yp;
    const float a = *(const float*)alpha, b = *(const float*)beta;
    const bool tf32 = cd->math != CUDNN_FMA_MATH;
    const int cg = xd->c / cd->groups, kg = wd->k / cd->groups;
    if (wd->c != cg || yd->c != wd->k) return CUDNN_STATUS_BAD_PARAM;
    for (int n = 0; n < yd->n; ++n)
        for (int k = 0; k < yd->c; ++k)
            for (int oy = 0; oy < yd->h; ++oy)
                for (int ox = 0; ox < yd->w; ++ox) {
                    double acc = 0.0;
                    const int g = k / kg;
                    for (int c = 0; c < cg; ++c)
                        for (int r = 0; r < wd->r; ++r)
                            for (int s = 0; s < wd->s; ++s) {
                                const int iy = oy * cd->sh - cd->ph + r * cd->dh, ix = ox * cd->sw - cd->pw + s * cd->dw;
                                if (iy < 0 || iy >= xd->h || ix < 0 || ix >= xd->w) continue;
                                float xv = x[((n * xd->c + g * cg + c) * xd->h + iy) * xd->w + ix];
                                float wv = w[((k * cg + c) * wd->r + r) * wd->s + s];
                                if (tf32) { xv = hiera_emu_tf32(xv); wv = hiera_emu_tf32(wv); }
                                acc += (double)xv * wv;
                            }
                    float& out = y[((n * yd->c + k) * yd->h + oy) * yd->w + ox];
                    out = a * (float)acc + (b != 0.0f ? b * out : 0.0f);
                }
    return CUDNN_STATUS_SUCCESS;
}
// ---- end of the cuDNN emulation ----
