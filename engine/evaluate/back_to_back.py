"""Back-to-back calls: the checker's own clock over many calls in one request, a floor under a candidate's figure.

Why. On a GPU a call's figure is the runner's device events, held to the checker's clock around the request
(timing.candidate_times, clock_check.cross_check). That clock sees about a millisecond of procedure around
each call (flush, synchronize, the output checks, the reply) scattering by a quarter of a millisecond, so it
cannot tell a 5 us kernel from a 200 us one: on the H200 a runner whose replies were rewritten to a thousandth
of its events read `valid` at 22-77x on a 4.5 us task (docs/bench/h200-validate-2026-12-02b).

What. The runner is asked for `n` calls in one request, back to back, each on a set of buffers of its own (the
exchange's back-to-back sets: inputs perturbed anew for every set and round, outputs poisoned), with no flush
and no synchronize between them and one at the end. The checker times the request by its own clock, takes off
the request's own cost (calibrated with empty bursts before the candidate loads, when only hiera's code is in
the runner) and divides by `n`. A secret sample of the sets is compared with the reference on its own inputs
after the reply, and snapshotted the moment it arrives (a call skipped, a result cached, or work left running
is caught as in the timed calls).

The candidate's figure is then the larger of its device time and its time per call back to back (less a fifth:
FLOOR_ALLOWANCE): a forged report gains at most 1.25x over the checker's clock, however small the kernel. A
ModelNew's runner copies each call's outputs into the sets; the checker times the same copies on its own side
and takes them off. The reference keeps its device time (events, one call at a time, caches flushed), so where
a candidate's calls are bound by host work (launches, Python) rather than by the device the comparison can
understate its speedup, never overstate it: a runner's host path (ctypes, or the ModelNew's Python) is not the
path a user's program takes, and timing the reference's host path against it would credit or charge the
difference. On a GPU the floor is below the device time for any call long enough to fill the device (warm
weights, no flush).

On the CPU too. There a call's figure is the checker's clock around it less the least overhead of the calibration
made before the candidate loaded (timing.Overhead.floor_ms), which a busy machine inflates: beside two busy loops
the calibration's least overhead came out above most timed calls' whole wall time, every call's clock figure
went to zero, and the rewritten reply read `valid` at 47.7x. A burst's request overhead is shared by its calls,
so the same inflation moves the floor by a few percent.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import torch

from engine.evaluate import timing
from engine.evaluate.candidate_process import CandidateProcess, RunnerFailed
from engine.evaluate.exchange import Exchange, Spec
from engine.evaluate.outcome import Status
from engine.evaluate.perturb import Perturber
from engine.evaluate.requests import EvalRequest

if TYPE_CHECKING:
    from engine.evaluate.checker import Checker

_perf_counter = time.perf_counter

TARGET_MS = 20.0  # a candidate's time in one burst
FASTER = 10  # sets are made for a candidate up to this much faster than the reference (MAX_SETS at most)
MAX_SETS = 128  # 128 calls of a 4 us kernel: 0.5 ms of work in one request (an empty one: 0.03-0.05 ms on the CPU)
MIN_SETS = 4  # fewer calls than this in a burst: each is long enough for the per-call cross-check
MAX_BYTES = 2 << 30  # the back-to-back sets' memory, at most; and at most a tenth of the device's free memory
ROUNDS = 3  # timed bursts, median (the first one's one-time work, argument lists and first touches, is its largest)
SAMPLED = 3  # sets of each burst compared with the reference (a secret choice, made after the reply), and the last
CALIBRATIONS = 7  # empty bursts before the candidate loads
# The share of its back-to-back time a call's figure may go below: back to back, kernels queue with a launch
# gap between them and a cold start per set, which events around one call do not see (honest device-bound calls
# would otherwise carry that into their figure); a forged report gains at most this much (1.25x), as the
# per-call cross-check allows a quarter of the call.
FLOOR_ALLOWANCE = 0.2
# A candidate's device time below its back-to-back time by this factor adds a flag: a forged report, or a
# module whose calls are bound by host work (launches, Python) rather than by the device.
HOST_BOUND = 2.0


def sets_for(req: EvalRequest, ref_ms: float, set_bytes: int, device: torch.device) -> int:
    """How many back-to-back sets this request's candidate gets (0: none): unless the request says no, as many
    as it names, or as plan_sets finds."""
    if req.back_to_back is False:
        return 0
    return max(req.back_to_back_sets, MIN_SETS) if req.back_to_back_sets else plan_sets(ref_ms, set_bytes, device)


def plan_sets(ref_ms: float, set_bytes: int, device: torch.device) -> int:
    """How many back-to-back sets the exchange holds: enough for TARGET_MS of calls of a candidate FASTER times
    faster than the reference, within MAX_SETS and the memory budget; 0 where fewer than MIN_SETS fit."""
    n = math.ceil(TARGET_MS * FASTER / max(ref_ms, 1e-3))
    if device.type == "cuda":
        free, _ = torch.cuda.mem_get_info(device)
    else:
        free = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    budget = min(MAX_BYTES, int(free * 0.1))
    n = min(n, MAX_SETS, budget // max(set_bytes, 1))
    return n if n >= MIN_SETS else 0


def specs(n: int, inputs: Sequence[Any], outputs: Sequence[torch.Tensor]) -> list[Spec]:
    """The sets -1..-n: a copy of set 0's inputs and outputs each (named as set 0's; state is shared, in set 0)."""
    roles = [("input", i, x) for i, x in enumerate(x for x in inputs if isinstance(x, torch.Tensor))]
    roles += [("output", i, o) for i, o in enumerate(outputs)]
    return [Spec(f"{role} {i} [back-to-back {j}]", role, tuple(t.shape), t.dtype, -j)
            for j in range(1, n + 1) for role, i, t in roles]


def set_bytes(inputs: Sequence[Any], outputs: Sequence[torch.Tensor]) -> int:
    """The bytes of one back-to-back set."""
    return sum(x.numel() * x.element_size() for x in [*inputs, *outputs] if isinstance(x, torch.Tensor))


def calibrate(proc: CandidateProcess) -> float:
    """The cost of a burst request itself (request, synchronize, reply), from empty bursts made before the
    candidate loads: their median, in ms."""
    walls = []
    for _ in range(CALIBRATIONS):
        t0 = _perf_counter()
        rep = proc.request("burst", 60.0, count=0, scalars={})
        walls.append((_perf_counter() - t0) * 1e3)
        if not rep.ok:
            raise RunnerFailed("crashed", f"the runner could not answer an empty burst before the candidate "
                                          f"loaded: {rep.detail[:1500]}")
    return statistics.median(walls)


def calls_for(sets: int, reported_ms: float, clock_ms: float) -> int:
    """How many calls this candidate's bursts make: TARGET_MS of its calls, within the sets there are; 0 (no
    burst) where fewer than MIN_SETS would do, a call long enough for the per-call check (or, under the CPU
    emulation of CUDA kernels in the tests, a call of half a second). Its time per call is the smaller of what its
    runner reported and what the checker's clock saw (each a median of the timed calls): a candidate can make
    either larger only by making its own figure so (the figure is at least each), and neither smaller than the
    truth but the report, which the clock then bounds."""
    n = min(sets, math.floor(TARGET_MS / max(min(reported_ms, clock_ms), 1e-4)))  # calls that fit, so: under 5 ms
    return n if n >= MIN_SETS else 0


@dataclass(frozen=True)
class Burst:
    """A candidate's back-to-back time: ms per call, and what it came from."""

    calls: int
    per_call_ms: float
    walls_ms: tuple[float, ...]  # each timed burst, request to reply
    overhead_ms: float  # an empty burst's cost (calibrated before the candidate loaded), taken off the median wall
    copies_ms: float = 0.0  # a ModelNew runner's copies of its outputs into the sets, timed by the checker, taken off


class BackToBack:
    """The back-to-back bursts of one candidate, on the exchange's back-to-back sets."""

    def __init__(self, checker: Checker, req: EvalRequest, ex: Exchange, calls: int):
        self.c = checker
        self.req = req
        self.ex = ex
        self.groups = ex.back_to_back_groups()[:calls]
        self.ref = checker.make_reference(checker._seed(req, "timing"))
        self.pool = checker._timing_pool(req)
        self.perturb: Perturber = checker._perturbation

    def _fill(self, round_: int) -> list[tuple[Sequence[Any], torch.Tensor]]:
        """New inputs in every set (each its own perturbation of a pool set), outputs poisoned, set 0's state
        rewritten; the (pool set, generator state) each set's inputs are made again from."""
        made = []
        for j, g in enumerate(self.groups):
            base = self.pool[(j + round_) % len(self.pool)]
            made.append((base, self.perturb.state()))
            self.perturb.write(self.ex.of_role("input", g), base)
            self.ex.poison_outputs(g)
        for buf, v in zip(self.ex.of_role("state"), self.ref.state_dict().values()):
            buf.copy_(v)
        timing.sync(self.c.device)
        return made

    def _limit_s(self) -> float:
        """A burst's time limit: n calls at the per-call limit's rate (a hang ends as `timeout`)."""
        ref_ms = self.c._ref_ms if self.c._ref_ms is not None else 1000.0
        n = len(self.groups)
        return max(0.75 + n * 50.0 * ref_ms / 1e3, n * self.c._min_call_s, 2.0)

    def candidate(self, proc: CandidateProcess, deadline: float, scalars: dict[str, Any], overhead_ms: float
                  ) -> Burst:
        c, ex, n = self.c, self.ex, len(self.groups)
        walls: list[float] = []
        copies: list[float] = []  # a ModelNew's copies of its outputs into the sets, timed here (_copies_ms)
        for r in range(ROUNDS):
            what = f"back-to-back burst {r + 1} ({n} calls)"
            made = self._fill(r)
            end_state = self.perturb.state()
            picks = sorted(set(c._rng.sample(range(n), min(SAMPLED, n))) | {n - 1})
            t0 = _perf_counter()
            c._ask(proc, "burst", self._limit_s(), deadline, what, scalars=scalars, count=n)
            snaps = [ex.snapshot_outputs(c._rng, self.groups[j]) for j in picks]
            wall = (_perf_counter() - t0) * 1e3
            walls.append(wall)
            for j, snap in zip(picks, snaps):
                g, (base, state) = self.groups[j], made[j]
                call = f"{what}, call {j + 1}"
                inputs = self.perturb.make(base, state)
                c._check_unchanged(ex, inputs, self.ref, call, group=g)
                c._compare(ex, c._reference_outputs(self.ref, inputs), f"{call} disagrees with the reference on its "
                           "own inputs (work skipped when called back to back, or a cached result?)", Status.SUSPECT,
                           group=g)
                c._settled_since(snap, call)
            # The generator where the writes left it: remaking a set's inputs rewound it, and the next round
            # would otherwise draw inputs a set of this one already had.
            self.perturb.restore(end_state)
            if self.req.kind == "modelnew":
                copies.append(self._copies_ms())
        net = [w - k for w, k in zip(walls, copies)] if copies else walls
        return Burst(n, max(statistics.median(net) - overhead_ms, 0.0) / n, tuple(round(w, 4) for w in walls),
                     overhead_ms, round(statistics.median(copies), 4) if copies else 0.0)

    def _copies_ms(self) -> float:
        """What a ModelNew runner's burst spends copying its outputs into the sets (a call's returned tensors are
        its own; the shared buffers are the exchange's), timed here on the same bytes: each set's outputs copied
        over the next set's, n copies in all, once the sets were checked. A memory-bound candidate would
        otherwise carry twice its traffic into the floor."""
        outs = [self.ex.of_role("output", g) for g in self.groups]
        pairs = [(outs[j + 1], outs[j]) for j in range(len(outs) - 2, -1, -1)] + [(outs[0], outs[1])]
        timing.sync(self.c.device)
        t0 = _perf_counter()
        for dst, src in pairs:
            for d, x in zip(dst, src):
                d.copy_(x)
        timing.sync(self.c.device)
        return (_perf_counter() - t0) * 1e3


def floor(samples: list[float], burst: Burst | None) -> list[float]:
    """Each timed call's figure no less than the candidate's back-to-back time per call, less FLOOR_ALLOWANCE."""
    return samples if burst is None else [max(x, burst.per_call_ms * (1 - FLOOR_ALLOWANCE)) for x in samples]


def record(extra: dict[str, Any], flags: list[str], burst: Burst, reported_ms: float) -> None:
    """The burst in the reply's extra, and a flag where the runner's reported time was far below its calls'."""
    extra["back_to_back"] = {"calls": burst.calls, "candidate_ms": round(burst.per_call_ms, 6),
                             "reported_ms": round(reported_ms, 6), "request_overhead_ms": round(burst.overhead_ms, 4),
                             "output_copies_ms": burst.copies_ms, "walls_ms": burst.walls_ms}
    if burst.per_call_ms > HOST_BOUND * reported_ms:
        flags.append(f"host_bound: back to back its calls took {burst.per_call_ms:.4g} ms each by the checker's "
                     f"clock, {burst.per_call_ms / max(reported_ms, 1e-9):.1f}x the {reported_ms:.4g} ms its runner "
                     "reported; the figure is the clock's (launches or host work, or a report that was not the call's "
                     "time)")
