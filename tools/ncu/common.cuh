// Shared by the fixture programs: error checks and the warm-up + profiled launch pattern.
// Each program launches its kernel twice; record_fixtures.sh profiles the second launch (--launch-skip 1),
// the way hiera profiles a candidate after warm-up.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                   \
    do {                                                                                              \
        cudaError_t err_ = (call);                                                                    \
        if (err_ != cudaSuccess) {                                                                    \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
            std::exit(1);                                                                             \
        }                                                                                             \
    } while (0)

template <typename Launch>
void warm_then_profile(const char* name, Launch launch) {
    for (int i = 0; i < 2; ++i) {
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
    }
    std::printf("%s: ok\n", name);
}
