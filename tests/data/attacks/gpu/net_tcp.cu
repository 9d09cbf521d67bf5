// Attack (network, from a CUDA candidate's host code): on its first call, connects to the test's TCP
// listener on 127.0.0.1 and sends its token. A trusted evaluator: no connection is ever seen.
#include <arpa/inet.h>
#include <cuda_runtime.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "hiera_contract.h"

static const char* TOKEN = "@TOKEN@";

static void phone_home() {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) return;
    sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(@PORT@);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, (sockaddr*)&a, sizeof a) == 0) {
        char msg[256];
        int n = snprintf(msg, sizeof msg, "tcp-cu:%s", TOKEN);
        if (write(s, msg, n) < 0) {}
    }
    close(s);
}

__global__ void scale_bias_relu(const float* x, const float* bias, float scale, float* out, int64_t n, int64_t cols) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = fmaxf(x[i] * scale + bias[i % cols], 0.f);
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    static bool done = false;
    if (!done) {
        done = true;
        phone_home();
    }
    int64_t cols = x->sizes[1], n = x->sizes[0] * cols;
    scale_bias_relu<<<1024, 256, 0, (cudaStream_t)stream>>>((const float*)x->data, (const float*)bias->data,
                                                           (float)scale, (float*)out->data, n, cols);
    return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
