// Correct CPU candidate for scale_bias_relu specialized to 256 rows, as hiera's generators specialize a kernel to
// the task's shapes: any other size is declined with 2 (wire.GENERATED_CODES), the way generated code says so.
#include "hiera_contract.h"

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    (void)stream;
    if (x->sizes[0] != 256 || x->sizes[1] != 512) return 2;
    const float* xp = (const float*)x->data;
    const float* bp = (const float*)bias->data;
    float* op = (float*)out->data;
    const float s = (float)scale;
    for (int64_t r = 0; r < 256; ++r)
        for (int64_t c = 0; c < 512; ++c) {
            float v = xp[r * 512 + c] * s + bp[c];
            op[r * 512 + c] = v > 0.f ? v : 0.f;
        }
    return 0;
}
