"""hiera's folder in the user's cache: $XDG_CACHE_HOME/hiera, else ~/.cache/hiera.

What hiera's trusted processes keep between runs lives under it, each in a folder of its own: compiled bytecode
(engine/pycache.py), the device's measured ceilings (engine/evaluate/ceilings.py) and the kernels PyTorch's
jiterator compiles in the checker (engine/evaluate/worker.py; PyTorch's own default would be
~/.cache/torch/kernels, a folder of the user's that hiera has no business writing into). Sandboxed processes get
a home of their own and never write here.
"""

from __future__ import annotations

import os
from pathlib import Path


def hiera_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hiera"


KERNEL_CACHE = "PYTORCH_KERNEL_CACHE_PATH"


def jiterator_cache(env: dict[str, str]) -> dict[str, str]:
    """`env` with PyTorch's jiterator kernel cache pointed into hiera's folder, for a trusted process that runs
    torch on a GPU (the checker; hiera doctor's ceilings). PyTorch reads the setting once, at the first
    jiterator compile of a process, so it goes in before that process starts or before its first such kernel.
    A user's own setting, or USE_PYTORCH_KERNEL_CACHE=0, is left as it is; where hiera's folder cannot be made
    (a read-only home) the cache is turned off rather than falling back to the user's ~/.cache/torch."""
    if env.get(KERNEL_CACHE) or env.get("USE_PYTORCH_KERNEL_CACHE") == "0":
        return env
    folder = hiera_cache() / "torch-kernels"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return {**env, "USE_PYTORCH_KERNEL_CACHE": "0"}
    return {**env, KERNEL_CACHE: str(folder)}
