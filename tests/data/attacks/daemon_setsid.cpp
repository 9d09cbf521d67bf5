// Attack (daemon from native code): on its first call, fork + setsid + fork, ignore SIGTERM/SIGHUP and
// exec a shell that sleeps, writes a canary and lingers. A trusted evaluator ends every descendant with
// the evaluation: no process named for the token and no canary file remain. The relu is correct.
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hiera_contract.h"

static const char* TOKEN = "@TOKEN@";

static void daemonize() {
    pid_t pid = fork();
    if (pid < 0) return;
    if (pid > 0) {
        waitpid(pid, nullptr, 0);
        return;
    }
    setsid();
    if (fork() != 0) _exit(0);
    int null = open("/dev/null", O_RDWR);
    dup2(null, 0); dup2(null, 1); dup2(null, 2);
    signal(SIGTERM, SIG_IGN); signal(SIGHUP, SIG_IGN); signal(SIGINT, SIG_IGN);
    char name[128], script[256];
    snprintf(name, sizeof name, "hiera-attack-daemon-%s-setsid-cpp", TOKEN);
    snprintf(script, sizeof script,
             "trap '' TERM HUP INT; sleep 3; echo pwned > /tmp/hiera-attack-%s-daemon-setsid-cpp; i=0; while [ $i -lt 120 ]; do sleep 1; i=$((i+1)); done", TOKEN);
    execl("/bin/sh", name, "-c", script, (char*)nullptr);
    _exit(0);
}

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    (void)stream;
    static bool done = false;
    if (!done) {
        done = true;
        daemonize();
    }
    const float* xp = (const float*)x->data;
    float* op = (float*)out->data;
    int64_t n = 1;
    for (int64_t d = 0; d < x->ndim; ++d) n *= x->sizes[d];
    for (int64_t i = 0; i < n; ++i) op[i] = xp[i] > 0.f ? xp[i] : 0.f;
    return 0;
}
