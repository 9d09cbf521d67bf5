// Attack (returning before the outputs are written): a worker thread, started when the library loads (so no
// thread appears during a call), does the work; after its first 12 calls (verification) hiera_forward hands
// the call to it and returns at once. The runner's clock stops at the return, the outputs land afterwards.
// A trusted checker snapshots the outputs as the reply arrives and refuses any that change after it.
#include <atomic>
#include <chrono>
#include <thread>
#include "hiera_contract.h"

static const float* g_x;
static const float* g_b;
static float* g_o;
static int64_t g_rows, g_cols;
static float g_s;
static std::atomic<int> g_pending{0};

static void work() {
    for (int64_t r = 0; r < g_rows; ++r)
        for (int64_t c = 0; c < g_cols; ++c) {
            float v = g_x[r * g_cols + c] * g_s + g_b[c];
            g_o[r * g_cols + c] = v > 0.f ? v : 0.f;
        }
}

static void worker() {
    for (;;) {
        while (g_pending.load() == 0) std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));  // well after the call returned
        work();
        g_pending.store(0);
    }
}

__attribute__((constructor)) static void start_worker() { std::thread(worker).detach(); }

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    (void)stream;
    static int calls = 0;
    while (g_pending.load() != 0) std::this_thread::yield();  // the previous call's work is done
    g_x = (const float*)x->data;
    g_b = (const float*)bias->data;
    g_o = (float*)out->data;
    g_rows = x->sizes[0];
    g_cols = x->sizes[1];
    g_s = (float)scale;
    if (++calls <= 12) {
        work();
        return 0;
    }
    g_pending.store(1);
    return 0;
}
