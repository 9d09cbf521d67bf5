"""hiera's folder in the user's cache: $XDG_CACHE_HOME/hiera, else ~/.cache/hiera.

What hiera's trusted processes keep between runs lives under it, each in a folder of its own: compiled bytecode
(engine/pycache.py), the device's measured ceilings (engine/evaluate/ceilings.py), the kernels PyTorch's
jiterator compiles in the checker (engine/evaluate/worker.py; PyTorch's own default would be
~/.cache/torch/kernels, a folder of the user's that hiera has no business writing into) and the CUDA driver's
JIT cache of the checker (its default: ~/.nv/ComputeCache). Sandboxed processes get
a home of their own and never write here.
"""

from __future__ import annotations

import os
from pathlib import Path


def hiera_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hiera"


KERNEL_CACHE = "PYTORCH_KERNEL_CACHE_PATH"
# The CUDA driver's just-in-time cache (PTX compiled for the card at load: cuDNN's runtime-compiled kernels, say);
# its default is ~/.nv/ComputeCache, found written by the checker in the escape test's home on the H100
# (2026-12-07, after the jiterator's had been moved).
CUDA_JIT_CACHE = "CUDA_CACHE_PATH"


def gpu_caches(env: dict[str, str]) -> dict[str, str]:
    """`env` with PyTorch's jiterator kernel cache and the CUDA driver's JIT cache pointed into hiera's folder, for
    a trusted process that runs torch on a GPU (the checker; hiera doctor's ceilings). Both are read once, when
    the process first compiles such a kernel or initialises CUDA, so this goes in before that. A user's own
    setting of either (or USE_PYTORCH_KERNEL_CACHE=0, CUDA_CACHE_DISABLE=1) is left as it is; where hiera's folder
    cannot be made (a read-only home) the caches are turned off rather than falling back to the user's folders."""
    out = dict(env)
    wanted = []
    if not (env.get(KERNEL_CACHE) or env.get("USE_PYTORCH_KERNEL_CACHE") == "0"):
        wanted.append((KERNEL_CACHE, "torch-kernels", ("USE_PYTORCH_KERNEL_CACHE", "0")))
    if not (env.get(CUDA_JIT_CACHE) or env.get("CUDA_CACHE_DISABLE") == "1"):
        wanted.append((CUDA_JIT_CACHE, "cuda-jit", ("CUDA_CACHE_DISABLE", "1")))
    for var, name, (off, value) in wanted:
        folder = hiera_cache() / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            out[off] = value
            continue
        out[var] = str(folder)
    return out
