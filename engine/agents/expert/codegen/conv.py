"""2-D convolutions of a Program through cuDNN: one plan per ConvStage, built on the first call.

The generated file calls cuDNN's convolution API directly (cudnn.h, linked by the build when the source
calls cudnn*). The rest of the graph around a convolution (bias, batch norm in eval, activations, a
residual add) stays in the generated pointwise/row kernel after it, so the output is written once and read
once, where eager PyTorch makes a pass per operator.

Precision: under the strict fp32 policy the convolution's math type is CUDNN_FMA_MATH and only algorithms
cuDNN reports with that math type are taken (CUDNN_DEFAULT_MATH lets cuDNN use TF32 tensor cores for
fp32 data on Ampere and later); the tf32 policy allows CUDNN_DEFAULT_MATH.
"""

from __future__ import annotations

from engine.agents.expert.codegen.common import pointer
from engine.agents.expert.codegen.variants import ConvParams
from engine.agents.expert.ir import ConvStage, Program

# ConvParams.algo names -> cuDNN's enum.
ALGOS = {
    "implicit_gemm": "CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM",
    "implicit_precomp_gemm": "CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM",
    "gemm": "CUDNN_CONVOLUTION_FWD_ALGO_GEMM",
    "fft": "CUDNN_CONVOLUTION_FWD_ALGO_FFT",
    "fft_tiling": "CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING",
    "winograd": "CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD",
    "winograd_nonfused": "CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED",
}

# hiera_forward's return code when a cuDNN call fails (the evaluator reports "failed with code 6").
CUDNN_FAILED = 6

# Algorithms that compute the plain sum of products (GEMM family, direct): their fp32 error is that of any
# fp32 convolution. FFT and Winograd transform the operands first and round differently, which can exceed
# the strict fp32 tolerance on some shapes; "find_exact" keeps cuDNN's timing but only among these.
EXACT = ("CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM", "CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM",
         "CUDNN_CONVOLUTION_FWD_ALGO_GEMM", "CUDNN_CONVOLUTION_FWD_ALGO_DIRECT")

CUDNN_HANDLE = r"""
#include <map>
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
"""


# cudnnFind times each algorithm once; algorithms within ~10% of each other trade places between processes
# (05_conv_bn_relu on the H200: implicit GEMM in one run, Winograd in the next). Summing a few Finds favours the
# one that is fastest on the whole; the exported file still runs its own Finds, so the pick can still differ.
FIND_RUNS = 3


_ALGO_QUERY = "(h, p.x, p.w, p.conv, p.y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf)"


def _choose(params: ConvParams, idx: int, math_ok: str) -> str:
    """C++ that sets p.algo (and the math type cuDNN reported for it), or returns nullptr."""
    if params.algo == "heuristic":
        return f"""    // Candidates in cuDNN's heuristic order; the first that ran and uses an allowed math type.
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int got = 0;
    HIERA_DNN(cudnnGetConvolutionForwardAlgorithm_v7{_ALGO_QUERY});
    int pick = -1;
    for (int i = 0; i < got && pick < 0; ++i)
        if (perf[i].status == CUDNN_STATUS_SUCCESS && ({math_ok})) pick = i;
    if (pick < 0) return nullptr;
    p.algo = perf[pick].algo;
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, perf[pick].mathType));"""
    if params.algo in ("find", "find_exact"):
        if params.algo == "find_exact":
            math_ok = f"({math_ok}) && (" + " || ".join(f"perf[i].algo == {a}" for a in EXACT) + ")"
        return f"""    // Timed by cuDNN {FIND_RUNS} times (one Find times each algorithm once): among the pairs of
    // (algorithm, math type) that ran every time with an allowed math type, the least total time wins.
    const int kinds = CUDNN_CONVOLUTION_FWD_ALGO_COUNT * 4;  // algorithm x math type (4 math types)
    float total[kinds] = {{}};
    int runs[kinds] = {{}};  // in how many Finds the pair ran (once per Find, should one list it twice)
    for (int run = 0; run < {FIND_RUNS}; ++run) {{
        cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
        int got = 0;
        HIERA_DNN(cudnnFindConvolutionForwardAlgorithm{_ALGO_QUERY});
        for (int i = 0; i < got; ++i)
            if (perf[i].status == CUDNN_STATUS_SUCCESS && ({math_ok})) {{
                const int kind = (int)perf[i].algo * 4 + (int)perf[i].mathType % 4;
                if (runs[kind] > run) continue;
                total[kind] += perf[i].time;
                runs[kind] = run + 1;
            }}
    }}
    int pick = -1;
    for (int kind = 0; kind < kinds; ++kind)
        if (runs[kind] == {FIND_RUNS} && (pick < 0 || total[kind] < total[pick])) pick = kind;
    if (pick < 0) return nullptr;
    p.algo = (cudnnConvolutionFwdAlgo_t)(pick / 4);
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, (cudnnMathType_t)(pick % 4)));"""
    if params.algo not in ALGOS:
        raise ValueError(f"unknown cuDNN algorithm '{params.algo}'")
    return f"    p.algo = {ALGOS[params.algo]};"


# Batch sizes whose plans a general convolution keeps (each holds descriptors and a workspace); past that the
# cache is emptied and the sizes it meets next set up again.
MAX_PLANS = 16
_FIXED_NOTE = (
    "// Set up on the first call that succeeds: a failed setup (out of memory during cuDNN's timing, say) frees\n"
    "// what it made and is tried again on the next call instead of failing every call after it.")
_RUNTIME_NOTE = (
    "// Set up on the first call at each batch size that succeeds (a failed setup frees what it made and is\n"
    f"// tried again on the next call at that size). At most {MAX_PLANS} sizes are kept: past that the cache\n"
    "// is emptied (calls are made from one thread per stream, so no plan in use by another call is freed).")


def conv_plan(st: ConvStage, idx: int | str, params: ConvParams, tf32: bool, runtime: bool = False) -> str:
    """The plan struct and its one-time setup for convolution `idx`. `runtime`: the batch N is the call's
    (codegen/runtime_batch.py): one plan per batch size met, each set up (and its algorithm chosen) on the first
    call at that size, named `{idx}_any`."""
    math = "CUDNN_DEFAULT_MATH" if tf32 else "CUDNN_FMA_MATH"
    math_ok = "true" if tf32 else "perf[i].mathType == CUDNN_FMA_MATH"
    (ph, pw), (sh, sw), (dh, dw) = st.padding, st.stride, st.dilation
    _, k, oh, ow = st.out_shape
    tag = f"{idx}_any" if runtime else f"{idx}"
    n = "(int)n" if runtime else f"{st.n}"
    n_param = ", long long n" if runtime else ""
    once = ("one plan per batch size, set up on the first call at that size" if runtime else
            "Descriptors, algorithm and workspace are set up once (the shapes are fixed)")
    head = f"""
// Convolution {tag}: {st.out} = conv2d({st.x}, {st.weight}): N={"the call's" if runtime else st.n} C={st.c} \
{st.h}x{st.w} -> K={st.k} {oh}x{ow},
// kernel {st.r}x{st.s}, stride {sh}x{sw}, padding {ph}x{pw}, dilation {dh}x{dw}, groups {st.groups}; {params.label()},
// math {math}. {once}.
struct HieraConvPlan{tag} {{
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t algo;
    void* ws = nullptr;
    size_t ws_bytes = 0;
}};
static void hiera_conv_release{tag}(HieraConvPlan{tag}& p) {{
    if (p.x) cudnnDestroyTensorDescriptor(p.x);
    if (p.y) cudnnDestroyTensorDescriptor(p.y);
    if (p.w) cudnnDestroyFilterDescriptor(p.w);
    if (p.conv) cudnnDestroyConvolutionDescriptor(p.conv);
    if (p.ws) cudaFree(p.ws);
    p = HieraConvPlan{tag}();
}}
static HieraConvPlan{tag}* hiera_conv_setup{tag}(cudnnHandle_t h, HieraConvPlan{tag}& p{n_param}) {{
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.x));
    HIERA_DNN(cudnnCreateTensorDescriptor(&p.y));
    HIERA_DNN(cudnnCreateFilterDescriptor(&p.w));
    HIERA_DNN(cudnnCreateConvolutionDescriptor(&p.conv));
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, {n}, {st.c}, {st.h}, {st.w}));
    HIERA_DNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, {st.k}, {st.c // st.groups}, \
{st.r}, {st.s}));
    HIERA_DNN(cudnnSetConvolution2dDescriptor(p.conv, {ph}, {pw}, {sh}, {sw}, {dh}, {dw}, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
    HIERA_DNN(cudnnSetConvolutionGroupCount(p.conv, {st.groups}));
    HIERA_DNN(cudnnSetConvolutionMathType(p.conv, {math}));
    int on = 0, ok = 0, oh = 0, ow = 0;
    HIERA_DNN(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &on, &ok, &oh, &ow));
    if (on != {n} || ok != {k} || oh != {oh} || ow != {ow}) return nullptr;
    HIERA_DNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, {n}, {k}, {oh}, {ow}));
{_choose(params, idx, math_ok)}
    HIERA_DNN(cudnnGetConvolutionForwardWorkspaceSize(h, p.x, p.w, p.conv, p.y, p.algo, &p.ws_bytes));
    if (p.ws_bytes > 0 && cudaMalloc(&p.ws, p.ws_bytes) != cudaSuccess) return nullptr;
    return &p;
}}
"""
    if runtime:
        return head + _RUNTIME_NOTE + f"""
static HieraConvPlan{tag}* hiera_conv_plan{tag}(cudnnHandle_t h, long long n) {{
    static std::mutex lock;
    static std::map<long long, HieraConvPlan{tag}> plans;
    std::lock_guard<std::mutex> guard(lock);
    auto found = plans.find(n);
    if (found != plans.end()) return &found->second;
    if (plans.size() >= {MAX_PLANS}) {{
        for (auto& kept : plans) hiera_conv_release{tag}(kept.second);
        plans.clear();
    }}
    HieraConvPlan{tag}& p = plans[n];
    if (hiera_conv_setup{tag}(h, p, n) == nullptr) {{
        hiera_conv_release{tag}(p);
        plans.erase(n);
        return nullptr;
    }}
    return &p;
}}
"""
    return head + _FIXED_NOTE + f"""
static HieraConvPlan{tag}* hiera_conv_plan{tag}(cudnnHandle_t h) {{
    static std::mutex lock;
    static HieraConvPlan{tag} p;
    static HieraConvPlan{tag}* ready = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (ready == nullptr) {{
        ready = hiera_conv_setup{tag}(h, p);
        if (ready == nullptr) hiera_conv_release{tag}(p);
    }}
    return ready;
}}
"""


def conv_launch(prog: Program, st: ConvStage, idx: int, extent: str | None = None) -> str:
    """The call of convolution `idx`; with `extent` (this call's batch, codegen/runtime_batch.py) the general plan
    of conv_plan(runtime=True) for that batch."""
    x, w, y = (pointer(prog.buffer(b).c_name) for b in (st.x, st.weight, st.out))
    tag = f"{idx}_any" if extent is not None else f"{idx}"
    n = f", {extent}" if extent is not None else ""
    return f"""    {{  // convolution {tag} (cuDNN)
        HieraConvPlan{tag}* cp = hiera_conv_plan{tag}(hiera_dnn{n});
        if (cp == nullptr) return {CUDNN_FAILED};
        const float one = 1.0f, zero = 0.0f;
        if (cudnnConvolutionForward(hiera_dnn, &one, cp->x, {x}, cp->w, {w}, cp->conv, cp->algo, cp->ws, cp->ws_bytes,
                                    &zero, cp->y, {y}) != CUDNN_STATUS_SUCCESS) return {CUDNN_FAILED};
    }}"""
