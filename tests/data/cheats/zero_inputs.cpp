// Cheat: computes the right answer, then zeroes its input (KernelBench's zero_out_kernel).
#include "hiera_contract.h"
extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    float* xp = (float*)x->data;
    const float* bp = (const float*)bias->data;
    float* op = (float*)out->data;
    int64_t rows = x->sizes[0], cols = x->sizes[1];
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            float v = xp[r * cols + c] * (float)scale + bp[c];
            op[r * cols + c] = v > 0.f ? v : 0.f;
        }
    for (int64_t i = 0; i < rows * cols; ++i) xp[i] = 0.f;
    return 0;
}
