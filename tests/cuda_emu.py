"""Run a generated CUDA candidate on the CPU: the .cu turned into C++ over a tiny CUDA emulation.

Machines without a GPU can still check that a generated kernel indexes correctly: every launch runs its
blocks one at a time, each with blockDim OS threads that meet at a real barrier for __syncthreads, and
__shared__ arrays become function statics (one block at a time owns them). The result is an ordinary
CPU candidate for the real evaluator (same `hiera_forward` ABI), so the reference comparison, mutation
and aliasing checks all apply. Covers what the flat and tiled-transpose generators emit, cuDNN's
convolution (a naive CPU loop nest, CUDNN_SHIM), cuBLASLt's matmul (CUBLASLT_SHIM, which truncates operands to
TF32 under CUBLAS_COMPUTE_32F_FAST_TF32 as the tensor cores do) and the classic cuBLAS's cublasSgemm and its
strided-batched form (CUBLAS_SHIM); warp shuffles (row reductions: tests/test_expert_rows.py adds them) and
cuBLAS's half-precision calls (cublasGemmEx) are not emulated.
"""

from __future__ import annotations

import re
from pathlib import Path

SHIM = r"""// ---- CUDA-on-CPU emulation (tests only) ----
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct alignas(16) float4 { float x, y, z, w; };
static inline float4 make_float4(float a, float b, float c, float d) { return float4{a, b, c, d}; }
typedef void* cudaStream_t;
typedef int cudaError_t;
static const cudaError_t cudaSuccess = 0;
static inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }

static thread_local dim3 threadIdx, blockIdx;
static dim3 blockDim, gridDim;

class HieraEmuBarrier {
  public:
    explicit HieraEmuBarrier(unsigned n) : n_(n) {}
    void wait() {
        std::unique_lock<std::mutex> lock(m_);
        const unsigned gen = gen_;
        if (++count_ == n_) {
            count_ = 0;
            ++gen_;
            cv_.notify_all();
        } else {
            cv_.wait(lock, [&] { return gen_ != gen; });
        }
    }

  private:
    std::mutex m_;
    std::condition_variable cv_;
    unsigned n_, count_ = 0, gen_ = 0;
};
static HieraEmuBarrier* hiera_emu_barrier = nullptr;
static inline void __syncthreads() { hiera_emu_barrier->wait(); }

struct HieraEmuConfig { dim3 grid, block; };
static inline HieraEmuConfig hiera_emu_cfg(dim3 g, dim3 b) { return HieraEmuConfig{g, b}; }

// Blocks run one after another (so function-static "shared" arrays belong to one block at a time); the
// threads of a block run concurrently and meet at the barrier for __syncthreads and at each block's end.
static void hiera_emu_launch(HieraEmuConfig cfg, const std::function<void()>& kernel) {
    blockDim = cfg.block;
    gridDim = cfg.grid;
    const unsigned nt = cfg.block.x * cfg.block.y * cfg.block.z;
    const unsigned nb = cfg.grid.x * cfg.grid.y * cfg.grid.z;
    HieraEmuBarrier barrier(nt);
    hiera_emu_barrier = &barrier;
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < nt; ++t) {
        threads.emplace_back([&, t] {
            threadIdx = dim3(t % cfg.block.x, (t / cfg.block.x) % cfg.block.y, t / (cfg.block.x * cfg.block.y));
            for (unsigned b = 0; b < nb; ++b) {
                blockIdx = dim3(b % cfg.grid.x, (b / cfg.grid.x) % cfg.grid.y, b / (cfg.grid.x * cfg.grid.y));
                kernel();
                barrier.wait();
            }
        });
    }
    for (auto& th : threads) th.join();
    hiera_emu_barrier = nullptr;
}

static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline unsigned __float_as_uint(float x) { unsigned u; memcpy(&u, &x, 4); return u; }
static inline float __uint_as_float(unsigned u) { float x; memcpy(&x, &u, 4); return x; }
static inline cudaError_t cudaMalloc(void** p, size_t bytes) { *p = malloc(bytes); return *p ? 0 : 2; }
static inline cudaError_t cudaFree(void* p) { free(p); return 0; }

// __syncthreads_and: every thread's predicate ANDed at a barrier (the stencil generator's uniform-weight check).
static std::atomic<int> hiera_emu_any_false{0};
static inline int __syncthreads_and(int p) {
    if (!p) hiera_emu_any_false = 1;
    hiera_emu_barrier->wait();
    const int all = !hiera_emu_any_false;
    hiera_emu_barrier->wait();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) hiera_emu_any_false = 0;
    hiera_emu_barrier->wait();
    return all;
}
// Constant memory is an ordinary static array; copies to it are memcpy (host memory stands for the device's).
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };
template <class T>
static inline cudaError_t cudaMemcpyToSymbolAsync(T& symbol, const void* src, size_t bytes, size_t offset,
                                                  cudaMemcpyKind, cudaStream_t) {
    memcpy((char*)&symbol + offset, src, bytes);
    return cudaSuccess;
}
template <class T>
static inline T __ldg(const T* p) { return *p; }

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __constant__ static
#define __restrict__
// ---- end of the emulation ----
"""

# The subset of cuDNN the convolution generator calls, computed naively on the CPU. Algorithms that
# cuDNN would run with TF32 tensor cores (math type other than CUDNN_FMA_MATH) round their inputs to TF32
# here too, so a candidate that lets TF32 in under the strict fp32 policy fails verification as it would
# on the GPU. The emulated Find lists a TF32 algorithm first (as the faster one), then FMA ones.
CUDNN_SHIM = (Path(__file__).parent / "data" / "cudnn_emu.h").read_text()
CUBLASLT_SHIM = (Path(__file__).parent / "data" / "cublaslt_emu.h").read_text()
CUBLAS_SHIM = (Path(__file__).parent / "data" / "cublas_emu.h").read_text()

_LAUNCH = re.compile(r"(\w+)<<<(.+?), 0, hiera_s>>>\((.*?)\);")


def emulated_cpp(cuda_source: str) -> str:
    """The candidate .cu as a C++ candidate whose kernels run on the CPU threads of the emulation above."""
    if re.search(r"__shfl|\bcublasGemm\w*\s*\(|cp\.async|asm\s*\(", cuda_source):
        raise ValueError("this candidate uses warp shuffles, cuBLAS's half-precision calls or inline PTX: not emulated")
    src = cuda_source.replace("#include <cuda_runtime.h>", SHIM).replace("#include <cudnn.h>", CUDNN_SHIM)
    src = src.replace("#include <cublas_v2.h>\n", CUBLAS_SHIM).replace("#include <cublasLt.h>", CUBLASLT_SHIM)
    src, n = _LAUNCH.subn(lambda m: f"hiera_emu_launch(hiera_emu_cfg({m.group(2)}), [&]() {{ "
                                    f"{m.group(1)}({m.group(3)}); }});", src)
    if n == 0:
        raise ValueError("no kernel launch found")
    return src


# The least time the evaluator gives one call of an emulated kernel (EvalSettings.min_call_limit_s): the
# emulation runs a thread per CUDA thread, hundreds of times slower than the reference it is judged against,
# and a call limit derived from the reference's time cuts it on a loaded machine.
EMULATED_CALL_S = 60.0
