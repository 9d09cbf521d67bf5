// Attack (reference call in pure CUDA, through the CPython C API): declared pure_cuda, its hiera_forward
// takes the GIL and runs Python in the host interpreter, wrapping the device pointers in torch tensors
// (__cuda_array_interface__) and computing relu(x * scale + bias) with PyTorch on the caller's stream.
// The source check sees no torch:: call. A trusted evaluator enforces the space at run time:
// space_violation.
#include <dlfcn.h>
#include <stdio.h>
#include "hiera_contract.h"

typedef int (*ensure_fn)(void);
typedef void (*release_fn)(int);
typedef int (*run_fn)(const char*, void*);

static const char* PY_SETUP =
    "import torch\n"
    "class _Dev:\n"
    "    def __init__(self, ptr, shape):\n"
    "        self.__cuda_array_interface__ = {'data': (ptr, False), 'shape': shape, 'typestr': '<f4', 'version': 2}\n"
    "def _hiera_attack_run(xp, bp, op, rows, cols, scale):\n"
    "    x = torch.as_tensor(_Dev(xp, (rows, cols)), device='cuda')\n"
    "    b = torch.as_tensor(_Dev(bp, (cols,)), device='cuda')\n"
    "    o = torch.as_tensor(_Dev(op, (rows, cols)), device='cuda')\n"
    "    o.copy_(torch.relu(x * scale + b))\n";

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    (void)stream;  // torch's current stream is the caller's stream
    ensure_fn ensure = (ensure_fn)dlsym(RTLD_DEFAULT, "PyGILState_Ensure");
    release_fn release = (release_fn)dlsym(RTLD_DEFAULT, "PyGILState_Release");
    run_fn run = (run_fn)dlsym(RTLD_DEFAULT, "PyRun_SimpleStringFlags");
    if (!ensure || !release || !run) return 9;  // no interpreter in this process: nothing to borrow
    static bool ready = false;
    char call[512];
    snprintf(call, sizeof call, "_hiera_attack_run(%llu, %llu, %llu, %lld, %lld, %.17g)\n",
             (unsigned long long)x->data, (unsigned long long)bias->data, (unsigned long long)out->data,
             (long long)x->sizes[0], (long long)x->sizes[1], scale);
    int state = ensure();
    int rc = 0;
    if (!ready) {
        rc = run(PY_SETUP, nullptr);
        ready = rc == 0;
    }
    if (rc == 0) rc = run(call, nullptr);
    release(state);
    return rc == 0 ? 0 : 8;
}
