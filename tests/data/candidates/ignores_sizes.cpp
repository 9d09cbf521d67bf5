// A CPU candidate for scale_bias_relu that ignores the sizes it is given: it always reads and writes the
// 256 x 512 elements of get_inputs()'s shape (correct there, and only there). Called on a smaller tensor it
// writes past the end of its output; on a larger one it leaves most of it unwritten.
#include "hiera_contract.h"

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    (void)stream;
    const float* xp = (const float*)x->data;
    const float* bp = (const float*)bias->data;
    float* op = (float*)out->data;
    const float s = (float)scale;
    for (long long i = 0; i < 256LL * 512; ++i) {
        const float v = xp[i] * s + bp[i % 512];
        op[i] = v > 0.f ? v : 0.f;
    }
    return 0;
}
