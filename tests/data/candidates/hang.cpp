// Never returns.
#include "hiera_contract.h"
extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    volatile int spin = 1;
    while (spin) {}
    return 0;
}
