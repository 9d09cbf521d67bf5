// Attack (the exported build is not the verified build, issue 42): correct where it is verified, wrong in the
// exported file. The exported file used to compile the kernel inside torch's extension build, which defines
// TORCH_EXTENSION_NAME (and the torch headers' macros) in its translation unit; the evaluator compiles the kernel
// alone, where nothing defines it. A kernel that tests for it is `valid`, and the file the user gets writes
// zeros. The exported file must load the library that was verified, or build the kernel by the same recipe.
#include "hiera_contract.h"

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    (void)stream;
    const float* xp = (const float*)x->data;
    const float* bp = (const float*)bias->data;
    float* op = (float*)out->data;
    const int64_t rows = x->sizes[0], cols = x->sizes[1];
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
#ifdef TORCH_EXTENSION_NAME
            op[r * cols + c] = 0.f;
#else
            float v = xp[r * cols + c] * (float)scale + bp[c];
            op[r * cols + c] = v > 0.f ? v : 0.f;
#endif
        }
    return 0;
}
