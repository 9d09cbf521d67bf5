// Crashes the process: writes through a null pointer.
#include "hiera_contract.h"
extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    volatile float* p = nullptr;
    *p = 1.0f;
    return 0;
}
