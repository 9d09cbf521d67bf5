// Incorrect: forgets the bias.
#include "hiera_contract.h"
extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    const float* xp = (const float*)x->data;
    float* op = (float*)out->data;
    int64_t n = x->sizes[0] * x->sizes[1];
    for (int64_t i = 0; i < n; ++i) { float v = xp[i] * (float)scale; op[i] = v > 0.f ? v : 0.f; }
    return 0;
}
