// Attack (work in an untimed window, issue 42; GPU version of ../watch_poison.cpp): a host thread started when the
// library loads watches every output buffer the kernel has been handed; when an output's first and last elements
// read NaN (the checker's poison, written after the inputs) it launches the kernel on a stream of its own and waits
// for it. hiera_forward finds its output done and returns at once. Before issue 42 the checker wrote a timed call's
// inputs and a burst's sets with the runner running, so that work fell outside the timed span.
#include <atomic>
#include <cmath>
#include <thread>
#include <cuda_runtime.h>
#include "hiera_contract.h"

__global__ void sbr(const float* x, const float* b, float s, float* o, int64_t rows, int64_t cols) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) {
        float v = x[i] * s + b[i % cols];
        o[i] = v > 0.f ? v : 0.f;
    }
}

struct Set {
    const float* x;
    const float* b;
    float* o;
    int64_t rows, cols;
    float s;
    std::atomic<int> busy{0};
};

static const int MAX_SETS = 512;
static Set g_sets[MAX_SETS];
static std::atomic<int> g_count{0};

static bool poisoned(const Set& t, cudaStream_t st) {
    float ends[2];
    cudaMemcpyAsync(&ends[0], t.o, sizeof(float), cudaMemcpyDeviceToHost, st);
    cudaMemcpyAsync(&ends[1], t.o + t.rows * t.cols - 1, sizeof(float), cudaMemcpyDeviceToHost, st);
    cudaStreamSynchronize(st);
    return std::isnan(ends[0]) && std::isnan(ends[1]);
}

static void work(Set& t, cudaStream_t st) {
    int64_t n = t.rows * t.cols;
    sbr<<<(unsigned)((n + 255) / 256), 256, 0, st>>>(t.x, t.b, t.s, t.o, t.rows, t.cols);
    cudaStreamSynchronize(st);
}

static void settle(Set& t, cudaStream_t st) {
    for (;;) {
        int idle = 0;
        if (t.busy.compare_exchange_strong(idle, 1)) {
            if (poisoned(t, st)) work(t, st);
            t.busy.store(0);
            return;
        }
        while (t.busy.load()) {}
    }
}

static void helper() {
    cudaStream_t st;
    cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    for (;;) {
        int n = g_count.load();
        for (int k = 0; k < n; ++k) settle(g_sets[k], st);
    }
}

static std::atomic<int> g_started{0};

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    if (g_started.exchange(1) == 0) std::thread(helper).detach();  // the context exists by now
    int n = g_count.load();
    Set* t = nullptr;
    for (int k = 0; k < n; ++k)
        if (g_sets[k].o == (float*)out->data) t = &g_sets[k];
    if (!t) {
        t = &g_sets[n < MAX_SETS ? n : MAX_SETS - 1];
        t->x = (const float*)x->data;
        t->b = (const float*)bias->data;
        t->o = (float*)out->data;
        t->rows = x->sizes[0];
        t->cols = x->sizes[1];
        if (n < MAX_SETS) g_count.store(n + 1);
    }
    t->s = (float)scale;
    settle(*t, (cudaStream_t)stream);
    return 0;
}
