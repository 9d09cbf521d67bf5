"""How much timing a candidate and its reference get: the number of timed calls (from the time per call and
a wall-time target), the fewest calls before a median may be called settled, the reference's trials by the
same rule, the reference's own timer, the seconds a phase spends (reply.extra), and for a host-bound forward on
a GPU, the reference's figure from its blocks beside and after the candidate's.

The checker (checker.py) makes the calls; this module decides how many and times the reference (trusted: the
task's own module, in the checker's process).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from engine.evaluate import timing
from engine.evaluate.perturb import Perturber

_perf_counter = time.perf_counter

TIMING_TARGET_MS = {"cuda": 600.0, "cpu": 1500.0}  # wall time to spend on each side's timed calls
MIN_TRIALS = 20
# The fewest timed calls on a GPU for a call so slow that MIN_TRIALS of them would pass the time target (a
# 233 ms fp64 convolution: 20 calls are 4.7 s a candidate); they still stop only once the median is settled.
MIN_SLOW_TRIALS = 5


# A candidate whose fastest timed call so far is over this many times the reference's median, after at least
# MIN_SLOW_TRIALS calls, stops being timed (clearly_slower).
SLOWER_STOP = 2.0


def clearly_slower(cand_ms: Sequence[float], ref_ms: float | None) -> bool:
    """Whether the calls timed so far already say the candidate is far slower than the reference: at least
    MIN_SLOW_TRIALS of them, the fastest over SLOWER_STOP times the reference's median. Its figure is then those
    calls' (honest, from fewer samples): more calls would refine a number no decision needs, and on a large
    module each costs seconds (a generated SGEMM at 8.6x slower than MKL spent 39 s being timed on the CPU). Only
    ever the candidate's own loss: a runner that reports slower calls than it made is cut short at its own
    figure."""
    return (ref_ms is not None and ref_ms > 0 and len(cand_ms) >= MIN_SLOW_TRIALS
            and min(cand_ms) > SLOWER_STOP * ref_ms)


def trials_for(est_ms: float, timing_trials: int, device: torch.device) -> int:
    """Timed calls for a call of about est_ms: as many as the time target holds, at least MIN_TRIALS (or the
    request's cap, if lower) and at most the request's cap (timing_trials)."""
    target = TIMING_TARGET_MS["cuda" if device.type == "cuda" else "cpu"]
    by_time = math.ceil(target / max(est_ms, 1e-3))
    return int(max(min(MIN_TRIALS, timing_trials), min(timing_trials, by_time)))


def floor_for(est_ms: float) -> int:
    """The fewest GPU calls before the median may be called settled: MIN_TRIALS, fewer for slow calls."""
    by_time = math.ceil(TIMING_TARGET_MS["cuda"] / max(est_ms, 1e-3))
    return max(MIN_SLOW_TRIALS, min(MIN_TRIALS, by_time))


def settled(time_more: Callable[[int], list[float]], cap: int, floor: int) -> list[float]:
    """The reference's trials on a GPU: by the same rule as the candidate's, at least `floor` and at most
    `cap` (its own time sets both: a 30 ms reference is not timed as often as a 30 us one)."""
    ms = time_more(min(floor, cap))
    while len(ms) < cap and not timing.median_settled(ms, floor):
        ms += time_more(min(5, cap - len(ms)))
    return ms


def reference_timer(ref: torch.nn.Module, pool: Sequence[Sequence[Any]], perturb: Perturber, device: torch.device,
                    flusher: timing.CacheFlusher) -> Callable[[int], list[float]]:
    """The reference timed in the checker the way the runner times a candidate (flush enqueued, events or the
    host clock, device-wide sync, each call on pool inputs perturbed the same way); returns
    `time(n) -> n more trials`."""
    # The reference's own buffers, made at its first timed call: on a GPU that is once the candidate's runner is
    # gone, so a set of several GiB is not held beside the candidate's timing; except for a host-bound forward,
    # timed beside the runner too (its sets are small: a forward whose launches outlast its device work), where
    # they are made in the first block beside it and kept.
    bufs: list[Any] = []
    done = [0]

    def run() -> Any:
        with torch.no_grad():
            return ref(*bufs)

    def time_more(n: int) -> list[float]:
        if done[0] == 0:
            bufs[:] = [x.clone() if isinstance(x, torch.Tensor) else x for x in pool[0]]
            timing.warm_up(run, device)
        ms = []
        for _ in range(n):
            perturb.write([b for b in bufs if isinstance(b, torch.Tensor)], pool[done[0] % len(pool)])
            ms.append(timing.time_call(run, device, before=flusher.flush)[0])
            done[0] += 1
        return ms

    return time_more


def counted(time_more: Callable[[int], list[float]], into: dict[str, Any], key: str) -> Callable[[int], list[float]]:
    """time_more, with the wall seconds spent in it added up in into[key] (the run's phases: eager's share of a
    candidate's timing)."""
    def counted(n: int) -> list[float]:
        t0 = _perf_counter()
        try:
            return time_more(n)
        finally:
            into[key] = round(into.get(key, 0.0) + _perf_counter() - t0, 4)

    return counted


# --- host-bound forwards on a GPU: the reference timed beside the candidate as well as after it ---------------

# A forward whose host takes at least this share of its device time to issue its launches runs at the CPU's
# speed, not the GPU's (launch-bound models: ResNet18, a small ViT). On the H100 (2026-12-07) such a forward's
# time drifted by 15-30% between blocks of 60 calls in one plain process, so the reference timed in one block
# after the candidate's read an unchanged copy at 0.84x-1.36x (BENCHMARKS.md).
HOST_BOUND = 0.6
# Two medians of the reference further apart than this are reported (a flag) beside the figure.
DRIFT_NOTED = 0.05


def host_bound(host_issue_ms: float, device_ms: float) -> bool:
    """Whether a forward that took `host_issue_ms` of host time to issue and `device_ms` by the device's events
    is host-bound (its device time is the host's issue rate)."""
    return device_ms > 0 and host_issue_ms >= HOST_BOUND * device_ms


@dataclass(frozen=True)
class ReferenceBlocks:
    """The reference's figure from its two sets of timed calls on a GPU: `beside`, in blocks between the
    candidate's (its runner frozen, still alive), and `after`, once the runner was gone."""
    samples: list[float]  # the side used
    used: str  # "beside" or "after"
    beside_ms: float  # median
    after_ms: float  # median
    drift: float  # how far apart the two medians are, over the lower

    def record(self) -> dict[str, Any]:
        return {"beside_ms": round(self.beside_ms, 6), "after_ms": round(self.after_ms, 6), "used": self.used,
                "drift": round(self.drift, 4)}


def reference_of_blocks(beside: list[float], after: list[float]) -> ReferenceBlocks:
    """The faster of the two: the blocks beside the candidate's share its moment (the host's speed then), but a
    runner that is frozen is still alive, and kernels it queued before could still run and slow them, which
    would flatter the candidate. Such work can only make the reference slower, never faster, so the lower
    median is one no candidate can have inflated; where the host drifted, it credits the candidate with less,
    never more, than either block alone."""
    mb, ma = statistics.median(beside), statistics.median(after)
    used = "beside" if mb < ma else "after"
    return ReferenceBlocks(list(beside if used == "beside" else after), used, mb, ma,
                           abs(mb - ma) / max(min(mb, ma), 1e-12))
