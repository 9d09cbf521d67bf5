// Claims pure CUDA but names a cuBLAS call: a space violation (never built).
#include "hiera_contract.h"
extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    // a comment mentioning cublasSgemm( is not a violation
    cublasSgemm(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    return 0;
}
