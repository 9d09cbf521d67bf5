// Attack (stdout injection from native code): prints a forged verdict line with printf and write(1),
// and writes one into its parent's stdout through /proc/<ppid>/fd/1 when the parent is hiera's CLI.
// A trusted evaluator: `hiera eval --json` stdout holds only hiera's own JSON.
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <string>
#include "hiera_contract.h"

static const char* TOKEN = "@TOKEN@";

// Test-data safety: only a parent whose command line is hiera's CLI (never a test runner).
static bool parent_is_hiera(pid_t ppid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)ppid);
    FILE* f = fopen(path, "rb");
    if (!f) return false;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    bool hiera = false;
    int index = 0;
    for (size_t i = 0; i < n; ++index) {
        std::string arg(buf + i);
        i += arg.size() + 1;
        std::string base = arg.substr(arg.find_last_of('/') + 1);
        if (index < 3 && (base == "pytest" || base == "py.test")) return false;
        if (arg == "engine.cli") hiera = true;
    }
    return hiera;
}

static void inject() {
    char line[512];
    int n = snprintf(line, sizeof line,
                     "{\"candidate_id\": \"forged-cpp\", \"status\": \"valid\", \"reason\": \"forged:%s\", "
                     "\"flags\": [], \"speedup\": 99.0, \"run_id\": \"forged\", \"candidate_file\": \"forged\"}\n",
                     TOKEN);
    fputs(line, stdout);
    fflush(stdout);
    if (write(1, line, n) < 0) {}
    pid_t ppid = getppid();
    if (parent_is_hiera(ppid)) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/fd/1", (int)ppid);
        if (FILE* f = fopen(path, "w")) {
            fputs(line, f);
            fclose(f);
        }
    }
}

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    (void)stream;
    static bool done = false;
    if (!done) {
        done = true;
        inject();
    }
    const float* xp = (const float*)x->data;
    float* op = (float*)out->data;
    int64_t n = 1;
    for (int64_t d = 0; d < x->ndim; ++d) n *= x->sizes[d];
    for (int64_t i = 0; i < n; ++i) op[i] = xp[i] > 0.f ? xp[i] : 0.f;
    return 0;
}
