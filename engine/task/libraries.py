"""The CUDA libraries a kernel calls, and where cuDNN lives.

Both the evaluator's nvcc build (engine/evaluate/build.py) and the exported ModelNew file
(engine/task/export.py, built by torch's load_inline on the user's machine) need the same answer. The
exported file cannot import hiera, so `find_cudnn` is written to be copied into it verbatim (it uses only
os, sys and pathlib): one search, two places it runs.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

# A call into the library, not a mention in a comment: the name followed by "(".
_CALLS = (("cublasLt", r"\bcublasLt\w*\s*\("), ("cublas", r"\bcublas\w*\s*\("), ("cudnn", r"\bcudnn\w*\s*\("))


def libraries_called(source: str) -> list[str]:
    """Which of cublasLt, cublas and cudnn the source calls, in link order (a cuBLASLt call counts for both:
    the handle-creating helpers of the two are often mixed)."""
    return [name for name, pattern in _CALLS if re.search(pattern, source)]


def find_cudnn():
    """(include folder, library folder, linker -l name) for cuDNN, or None when no cudnn.h is found.

    cuDNN does not come with the CUDA toolkit. Looked for in CUDNN_HOME (or CUDNN_PATH), then the
    nvidia-cudnn wheel PyTorch itself depends on (site-packages/nvidia/cudnn), then /usr and
    /usr/local/cuda. The wheel has only the versioned libcudnn.so.N, so that file is named to the linker
    (":libcudnn.so.9"); its folder goes into the rpath so the built module loads without LD_LIBRARY_PATH.
    The library folder is None when only the header was found (link with plain -lcudnn).
    """
    roots = [Path(os.environ[v]) for v in ("CUDNN_HOME", "CUDNN_PATH") if os.environ.get(v)]
    roots += [Path(p) / "nvidia" / "cudnn" for p in sys.path if p]
    roots += [Path("/usr"), Path("/usr/local/cuda")]
    for root in roots:
        if not (root / "include" / "cudnn.h").exists():
            continue
        for libdir in (root / "lib", root / "lib64", root / "lib" / "x86_64-linux-gnu"):
            libs = list(libdir.glob("libcudnn.so*")) if libdir.is_dir() else []
            if libs:
                if libdir / "libcudnn.so" in libs:
                    return str(root / "include"), str(libdir), "cudnn"
                # The newest of libcudnn.so.8, .so.9, ... (by version number, not by text).
                newest = max(libs, key=lambda f: [int(v) for v in f.name[len("libcudnn.so."):].split(".")
                                                  if v.isdigit()])
                return str(root / "include"), str(libdir), ":" + newest.name
        return str(root / "include"), None, "cudnn"
    return None
