"""Timers for candidate and reference calls, and the cache hygiene between trials.

CUDA: each trial is bracketed by device-wide synchronizes (all streams), timed with CUDA events, after
the L2 cache was flushed by writing a buffer larger than it and the persisting-L2 lines reset (a
persisting access window survives a plain flush: llm.c PR #851). CPU: time.perf_counter around
the call, after a write over a buffer larger than the last-level cache.

Every function and class used to take a time is captured at import, before any candidate code runs.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import math
import os
import time
from collections.abc import Callable
from typing import Any

import torch

_perf_counter = time.perf_counter
_cuda_sync = torch.cuda.synchronize
_Event = torch.cuda.Event

METHOD_CUDA = "cuda_events+device_sync+l2_flush"
METHOD_CPU = "perf_counter+cache_flush"


def _load_cudart() -> Any | None:
    """The CUDA runtime library torch uses, for the two L2 calls torch does not expose."""
    candidates = []
    torch_lib = os.path.join(os.path.dirname(torch.__file__), "lib")
    candidates += sorted(glob.glob(os.path.join(torch_lib, "libcudart.so*")))
    for base in torch.__path__:
        site = os.path.dirname(base)
        candidates += sorted(glob.glob(os.path.join(site, "nvidia", "cu*", "lib", "libcudart.so*")))
        candidates += sorted(glob.glob(os.path.join(site, "nvidia", "cuda_runtime", "lib", "libcudart.so*")))
    found = ctypes.util.find_library("cudart")
    if found:
        candidates.append(found)
    for c in candidates:
        try:
            return ctypes.CDLL(c)
        except OSError:
            continue
    return None


class CacheFlusher:
    """Empties the data caches between trials (and resets persisting L2 on CUDA)."""

    def __init__(self, device: torch.device):
        self.device = device
        self.notes: list[str] = []
        if device.type == "cuda":
            l2 = getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 64 << 20)
            self.buf = torch.empty(max(4 * l2, 256 << 20), dtype=torch.uint8, device=device)
            self.cudart = _load_cudart()
            if self.cudart is None:
                self.notes.append("persisting-L2 reset unavailable (libcudart not found)")
        else:
            self.buf = torch.empty(64 << 20, dtype=torch.uint8)
            self.cudart = None

    def flush(self) -> None:
        if self.cudart is not None:
            # cudaLimitPersistingL2CacheSize = 0x06; then demote every persisting line to normal.
            self.cudart.cudaDeviceSetLimit(ctypes.c_int(0x06), ctypes.c_size_t(0))
            self.cudart.cudaCtxResetPersistingL2Cache()
        self.buf.fill_(1)
        self.buf.fill_(0)


def time_call(fn: Callable[[], Any], device: torch.device,
              before: Callable[[], None] | None = None) -> tuple[float, Any]:
    """One timed call in milliseconds, bracketed by device-wide synchronization.

    CUDA: sync; `before` (the cache flush, enqueued on the GPU); start event; fn; end event; sync. The
    flush is still running on the GPU while the host prepares fn's launches, so the events measure the
    device's work and not the host's launch latency, for candidate and reference alike (triton's do_bench
    orders it the same way). Work fn leaves on other streams is caught by the verifier, not here.
    """
    if device.type == "cuda":
        start, end = _Event(enable_timing=True), _Event(enable_timing=True)
        _cuda_sync()
        if before is not None:
            before()
        start.record()
        out = fn()
        end.record()
        _cuda_sync()
        return start.elapsed_time(end), out
    if before is not None:
        before()
    t0 = _perf_counter()
    out = fn()
    return (_perf_counter() - t0) * 1e3, out


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        _cuda_sync()


def warm_up(fn: Callable[[], Any], device: torch.device, min_calls: int = 3, min_ms: float = 30.0) -> float:
    """Call until both minimums are met (module loads, autotuning, allocator growth); median ms."""
    times = []
    t0 = _perf_counter()
    while len(times) < min_calls or ((_perf_counter() - t0) * 1e3 < min_ms and len(times) < 1000):
        ms, _ = time_call(fn, device)
        times.append(ms)
    times.sort()
    return times[len(times) // 2]


# How closely a median must be known before the timed calls stop: the 95% confidence half-width of the
# median within this share of it. The timing spread between runs on the H200 is about 3% (BENCHMARKS.md);
# 0.5% keeps the figure's own uncertainty well inside that.
MEDIAN_HALF_WIDTH = 0.005


def median_settled(samples: list[float], min_trials: int, rel: float = MEDIAN_HALF_WIDTH) -> bool:
    """Whether enough samples were taken that their median is known to `rel` (95%).

    The median's standard error is about 1.253 sigma / sqrt(n), and sigma is about IQR / 1.349 for a normal
    bulk, so its 95% half-width is about 1.82 IQR / sqrt(n). The IQR ignores the odd slow outlier (a clock
    step, a preemption) that would make a standard deviation wait for many more calls than the median needs.
    So a kernel whose calls agree to 1% stops at the minimum, and one that scatters by 5% runs on to the cap.
    """
    n = len(samples)
    if n < max(min_trials, 4):
        return False
    s = sorted(samples)
    med = s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])
    iqr = s[(3 * n) // 4] - s[n // 4]
    return med > 0 and 1.82 * iqr / math.sqrt(n) <= rel * med
