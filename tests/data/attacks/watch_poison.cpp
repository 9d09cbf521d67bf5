// Attack (work in an untimed window, issue 42): a helper thread, started when the library loads, watches every
// output buffer the kernel has been handed (a timed call's and each back-to-back set's). The checker writes a
// call's inputs, then poisons its outputs with NaN: the moment the last element turns NaN the inputs are there,
// and the helper computes the result while the checker still works (the rest of its writes, a flush request,
// the other sets of a burst). hiera_forward then finds its output done and returns at once: its time is the
// request's, not the work's. Correct on every call, so only the clock can tell. A trusted checker stops the
// runner while it writes and starts its clock before letting it run again: the helper's work is then timed.
#include <atomic>
#include <cmath>
#include <thread>
#include "hiera_contract.h"

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

static void work(Set& t) {
    const int64_t n = t.rows * t.cols;
    for (int64_t i = n - 1; i >= 1; --i) {  // element 0 last: it says the output is complete
        float v = t.x[i] * t.s + t.b[i % t.cols];
        t.o[i] = v > 0.f ? v : 0.f;
    }
    float v = t.x[0] * t.s + t.b[0];
    t.o[0] = v > 0.f ? v : 0.f;
}

static bool poisoned(const Set& t) { return std::isnan(t.o[0]) && std::isnan(t.o[t.rows * t.cols - 1]); }

// Whoever claims a set first computes it (if it is still poisoned); the other waits for it.
static void settle(Set& t) {
    for (;;) {
        int idle = 0;
        if (t.busy.compare_exchange_strong(idle, 1)) {
            if (poisoned(t)) work(t);
            t.busy.store(0);
            return;
        }
        while (t.busy.load()) {}
    }
}

static void helper() {
    for (;;) {
        int n = g_count.load();
        for (int k = 0; k < n; ++k)
            if (poisoned(g_sets[k])) settle(g_sets[k]);
    }
}

__attribute__((constructor)) static void start_helper() { std::thread(helper).detach(); }

static Set& set_for(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out) {
    int n = g_count.load();
    for (int k = 0; k < n; ++k)
        if (g_sets[k].o == (float*)out->data) return g_sets[k];
    Set& t = g_sets[n < MAX_SETS ? n : MAX_SETS - 1];
    t.x = (const float*)x->data;
    t.b = (const float*)bias->data;
    t.o = (float*)out->data;
    t.rows = x->sizes[0];
    t.cols = x->sizes[1];
    t.s = (float)scale;
    if (n < MAX_SETS) g_count.store(n + 1);
    return t;
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    (void)stream;
    Set& t = set_for(x, bias, scale, out);
    t.s = (float)scale;
    settle(t);  // done already by the helper, or done here
    return 0;
}
