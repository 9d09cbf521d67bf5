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
from dataclasses import dataclass
from typing import Any

import torch

from contracts.verdict import median
from engine.evaluate.outcome import quantile

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
    return median(times)


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


@dataclass(frozen=True)
class Overhead:
    """What one timed call costs beyond the call itself (the request, the reply, the runner's checks), measured
    before the candidate loaded: the same procedure with nothing in it."""

    median_ms: float
    iqr_ms: float
    # The least of the calibration's calls: an overhead no call goes below (a call preempted or not). What the
    # checker's clock attributes to a call is its wall time less this, so that it can only overstate the call:
    # on a loaded 2-core machine most of the calibration's calls waited for a core (a median of 24 ms against
    # 1 ms unpreempted), and a wall time less that median put honest and forged calls alike near zero.
    floor_ms: float = 0.0

    @staticmethod
    def of(gaps: list[float]) -> Overhead:
        p25, med, p75 = quartiles(gaps)
        return Overhead(med, p75 - p25, min(gaps))

    def trusted(self, walls: list[float]) -> list[float]:
        return [max(w - self.floor_ms, 0.0) for w in walls]


def candidate_times(reported: list[float], walls: list[float], overhead: Overhead, gpu: bool) -> list[float]:
    """Each timed call's time as the verdict uses it, from what the runner reported and what the checker's clock
    saw (`walls`, request to reply). The runner's report can be rewritten by the candidate (its clock patched,
    its reply divided); the checker's clock less the calibrated overhead (`trusted`) cannot be made smaller.

    CPU: the larger of the two, per call: a forged report is held to the clock, which can only overstate a
    call (by the overhead's scatter above its floor: tens of microseconds on a quiet machine, preemptions on a
    loaded one, which `unstable_timing` then names).

    GPU: the runner's device events (the clock also counts host time launching work, which the reference's
    events do not count either), but never below the clock less an allowance of a quarter of the call (the
    share of honest host time seen on the H200: up to 0.23 ms on a 0.96 ms call) or the overhead's spread: a
    forged report gains at most that, however small the kernel (the cross-check's suspect rule forgives
    0.25 ms, which a 0.2 ms kernel could hide whole)."""
    trusted = overhead.trusted(walls)
    if not gpu:
        return [max(t, r) for t, r in zip(trusted, reported)]
    allowance = max(0.25 * quantile(sorted(trusted), 0.5), 4 * overhead.iqr_ms)
    return [max(r, t - allowance) for t, r in zip(trusted, reported)]


def quartiles(samples: list[float]) -> tuple[float, float, float]:
    """(p25, median, p75), as outcome.Timing reports them."""
    s = sorted(samples)
    return quantile(s, 0.25), quantile(s, 0.5), quantile(s, 0.75)


# A side whose timings swing this much is flagged (`timing_swing`, a warning): on a loaded 2-core machine an
# honest 0.2 ms CPU reference read 24 ms (the median of calls most of which waited for a core). The figure's
# verdict is its confidence interval's (contracts/verdict.py); the flag says the machine was busy.
SWING = 5.0  # median over the fastest call
WIDE_SPREAD = 1.0  # interquartile range over the median


def spread_of(samples: list[float]) -> dict[str, float]:
    """How far one side's timed calls scattered: what a `timing_swing` flag rests on."""
    p25, med, p75 = quartiles(samples)
    fastest = min(samples)
    return {"median_ms": round(med, 6), "min_ms": round(fastest, 6), "p25_ms": round(p25, 6),
            "p75_ms": round(p75, 6), "iqr_over_median": round((p75 - p25) / med, 4) if med > 0 else 0.0,
            "median_over_min": round(min(med / max(fastest, 1e-6), 1e6), 3)}


def swung(spread: dict[str, float]) -> bool:
    return spread["median_over_min"] > SWING or spread["iqr_over_median"] > WIDE_SPREAD
