// Does not compile: a missing semicolon and an undeclared name.
#include "hiera_contract.h"
extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    int n = x->sizes[0]
    return undeclared_name;
}
