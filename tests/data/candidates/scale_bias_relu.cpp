// Correct CPU candidate for scale_bias_relu: one pass, OpenMP over rows.
#include "hiera_contract.h"

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    (void)stream;
    const float* xp = (const float*)x->data;
    const float* bp = (const float*)bias->data;
    float* op = (float*)out->data;
    const int64_t rows = x->sizes[0], cols = x->sizes[1];
    const float s = (float)scale;
#pragma omp parallel for
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
            float v = xp[r * cols + c] * s + bp[c];
            op[r * cols + c] = v > 0.f ? v : 0.f;
        }
    }
    return 0;
}
