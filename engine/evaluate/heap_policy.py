"""One heap policy for the two processes whose calls are compared: the checker (the reference) and the runner
(the candidate).

A forward allocates its temporaries afresh on every call (PyTorch's CPU tensors come from malloc). glibc hands
out and takes back the memory of a large block by its own history: a freed block above a threshold that moves
with what was freed before goes back to the kernel (mmap'ed blocks, and the heap's top trimmed past twice that
threshold), and the next call pays a page fault per 4 KiB to get it again. The checker is a long-lived process
whose heap had settled; a runner is new. Measured on the 2-core CPU (2026-12-08, a causal-attention block whose
forward allocates about 36 MB): the reference's own forward, run as a candidate, took 9216 page faults a call
in the runner and none in the checker, and read 0.67x against itself (33.1 vs 22.2 ms); with the heap kept, 0.91x.

So both processes keep what they free (trimming off) and serve every block up to glibc's largest mmap
threshold (32 MiB) from the heap, as a program that has run a while does; a larger block is mapped afresh on
every call in both. Where the C library has no mallopt (not glibc), nothing changes and both keep its default.

Kept free of hiera's imports: the runner loads it from its sandbox's /hiera beside wire.py.
"""

from __future__ import annotations

import ctypes

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_BYTES = 32 << 20  # glibc's largest (DEFAULT_MMAP_THRESHOLD_MAX on 64-bit)
TRIM_THRESHOLD_BYTES = (1 << 31) - 1  # a C int: free memory at the heap's top is never given back


def keep_heap_warm() -> bool:
    """Apply the policy to this process; whether the C library took it."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and bool(mallopt(M_TRIM_THRESHOLD,
                                                                                 TRIM_THRESHOLD_BYTES))
