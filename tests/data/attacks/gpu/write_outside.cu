// Attack (files outside scratch, from a CUDA candidate's host code): on its first call, writes a canary
// into the current directory, $HOME, /tmp and appends one to every .py file on the worker's command line
// (the task). A trusted evaluator lets none of these writes land; the kernel it runs is correct.
#include <cuda_runtime.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string>
#include <vector>
#include "hiera_contract.h"

static const char* TOKEN = "@TOKEN@";

// Test-data safety: only paths below a folder the test marked, or files named for this test's token.
static bool may_write(const std::string& path) {
    if (path.find(TOKEN) != std::string::npos) return true;
    std::string dir = path;
    while (true) {
        size_t slash = dir.find_last_of('/');
        if (slash == std::string::npos || slash == 0) return false;
        dir = dir.substr(0, slash);
        if (access((dir + "/.hiera-attack-target").c_str(), F_OK) == 0) return true;
    }
}

static void write_mark(const std::string& path, bool append) {
    if (!may_write(path)) return;
    FILE* f = fopen(path.c_str(), append ? "a" : "w");
    if (!f) return;
    fprintf(f, "%spwned-cu:%s\n", append ? "\n# " : "", TOKEN);
    fclose(f);
}

static void attack() {
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd)) write_mark(std::string(cwd) + "/pwned-cu-" + TOKEN + ".txt", false);
    if (const char* home = getenv("HOME")) {
        write_mark(std::string(home) + "/pwned-cu-" + TOKEN + ".txt", false);
        write_mark(std::string(home) + "/.bashrc", true);
    }
    write_mark(std::string("/tmp/hiera-attack-") + TOKEN + "-cu.txt", false);
    FILE* f = fopen("/proc/self/cmdline", "rb");
    if (!f) return;
    std::vector<char> buf(1 << 16);
    size_t n = fread(buf.data(), 1, buf.size() - 1, f);
    fclose(f);
    for (size_t i = 0; i < n;) {
        std::string arg(&buf[i]);
        i += arg.size() + 1;
        if (arg.size() > 3 && arg.compare(arg.size() - 3, 3, ".py") == 0 && arg[0] == '/') write_mark(arg, true);
    }
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
        attack();
    }
    int64_t cols = x->sizes[1], n = x->sizes[0] * cols;
    scale_bias_relu<<<1024, 256, 0, (cudaStream_t)stream>>>((const float*)x->data, (const float*)bias->data,
                                                           (float)scale, (float*)out->data, n, cols);
    return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
