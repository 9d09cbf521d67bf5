"""How a contract kernel is compiled: the one recipe the evaluator's build (engine/evaluate/build.py) and the
exported file's fallback build (engine/task/export.py) both follow.

A kernel built one way when verified and another when delivered is not the kernel that was verified: a
preprocessor branch on a define only the delivered build sets (TORCH_EXTENSION_NAME, the torch headers' macros,
__CUDA_NO_HALF_OPERATORS__, a define of hiera's own) gave a `valid` verdict and an exported file wrong on every
call (issue 42). So the kernel is always its own translation unit, `SOURCE_NAME` beside `hiera_contract.h`, with
these flags and the CUDA shim appended, and nothing else defined.
"""

from __future__ import annotations

# Appended to every CUDA candidate: the worker reads launch errors through the candidate's own CUDA runtime (it is
# linked statically, so torch's copy cannot see them). Appending keeps line numbers intact.
CUDA_SHIM = """
#include <cuda_runtime.h>
extern "C" int hiera_peek_last_error(void) { return (int)cudaGetLastError(); }
extern "C" const char* hiera_error_string(int e) { return cudaGetErrorString((cudaError_t)e); }
"""

CUDA_FLAGS = ("-O3", "-std=c++17", "-lineinfo", "--expt-relaxed-constexpr", "-Xcompiler", "-fPIC", "-shared")
CPP_FLAGS = ("-O3", "-march=native", "-fopenmp", "-std=c++17", "-fPIC", "-shared")
SOURCE_NAME = {True: "cuda_source.cu", False: "cpu_source.cpp"}  # by cuda
SCRATCH = "/sandbox"  # where the verified build's source lies (the sandbox's scratch): its __FILE__


def source_text(source: str, cuda: bool) -> str:
    """The translation unit compiled: the candidate's source, and the CUDA shim after it."""
    return source + (CUDA_SHIM if cuda else "")


def arch_flags(cuda_arch: str | None) -> list[str]:
    return [f"-gencode=arch=compute_{cuda_arch},code=sm_{cuda_arch}"] if cuda_arch else []
