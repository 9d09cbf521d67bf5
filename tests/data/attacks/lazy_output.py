# Attack (an output filled after the call returns): forward returns a tensor over pages mapped PROT_NONE, and
# a SIGSEGV handler (a small C helper built with the system's gcc at import) computes the result when the
# pages are first touched, into a second mapping of the same memory, then opens them: the runner, copying the
# output out after its timer stopped, pays for the work. The call itself takes microseconds. A trusted runner
# refuses an output whose memory torch's allocator does not own.
import ctypes
import os
import subprocess

import torch
from torch import nn

_C = r"""
#define _GNU_SOURCE
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>
/* The result is computed into a second, writable mapping of the same memory, and the pages torch sees are
   opened only once it is complete: a thread touching them meanwhile waits in the handler. */
static const float *g_in; static float *g_out, *g_shadow; static size_t g_n, g_bytes;
static volatile int g_state;  /* 0 empty, 1 filling, 2 done */
static void fill(int sig, siginfo_t *si, void *ctx) {
    char *a = (char *)si->si_addr;
    if (!(a >= (char *)g_out && a < (char *)g_out + g_bytes)) {
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
        return;
    }
    if (__sync_bool_compare_and_swap(&g_state, 0, 1)) {
        for (int pass = 0; pass < 40; ++pass)
            for (size_t i = 0; i < g_n; ++i) { volatile float v = g_in[i]; g_shadow[i] = v > 0.f ? v : 0.f; }
        mprotect(g_out, g_bytes, PROT_READ | PROT_WRITE);
        g_state = 2;
    }
    while (g_state != 2) {}
}
void *lazy_relu(const float *in, size_t n) {
    static int ready = 0;
    if (!ready) {
        struct sigaction sa = {0};
        sa.sa_sigaction = fill;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigaction(SIGSEGV, &sa, 0);
        ready = 1;
    }
    size_t bytes = (n * sizeof(float) + 4095) & ~(size_t)4095;
    int fd = memfd_create("lazy", 0);
    ftruncate(fd, bytes);
    g_shadow = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    void *p = mmap(0, bytes, PROT_NONE, MAP_SHARED, fd, 0);
    close(fd);
    g_in = in; g_out = p; g_n = n; g_bytes = bytes; g_state = 0;
    return p;
}
"""


def _helper():
    src, lib = os.path.abspath("lazy_helper.c"), os.path.abspath("lazy_helper.so")
    with open(src, "w") as f:
        f.write(_C)
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", src, "-o", lib], check=True, capture_output=True)
    h = ctypes.CDLL(lib)
    h.lazy_relu.restype = ctypes.c_void_p
    h.lazy_relu.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    return h


_lib = _helper()


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        n = x.numel()
        ptr = _lib.lazy_relu(x.data_ptr(), n)
        self._keep = x
        return torch.frombuffer((ctypes.c_float * n).from_address(ptr), dtype=torch.float32).view(x.shape)
