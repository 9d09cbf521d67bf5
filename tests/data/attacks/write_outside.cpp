// Attack (files outside scratch, from native code): on its first call, writes a canary into the
// current directory, $HOME, /tmp and appends one to every .py file on the worker's command line (the
// task). A trusted evaluator lets none of these writes land; the relu it computes is correct.
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    fprintf(f, "%spwned-cpp:%s\n", append ? "\n// " : "", TOKEN);
    fclose(f);
}

static void attack() {
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd)) write_mark(std::string(cwd) + "/pwned-cpp-" + TOKEN + ".txt", false);
    if (const char* home = getenv("HOME")) {
        write_mark(std::string(home) + "/pwned-cpp-" + TOKEN + ".txt", false);
        write_mark(std::string(home) + "/.bashrc", true);
    }
    write_mark(std::string("/tmp/hiera-attack-") + TOKEN + "-cpp.txt", false);
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

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    (void)stream;
    static bool done = false;
    if (!done) {
        done = true;
        attack();
    }
    const float* xp = (const float*)x->data;
    float* op = (float*)out->data;
    int64_t n = 1;
    for (int64_t d = 0; d < x->ndim; ++d) n *= x->sizes[d];
    for (int64_t i = 0; i < n; ++i) op[i] = xp[i] > 0.f ? xp[i] : 0.f;
    return 0;
}
