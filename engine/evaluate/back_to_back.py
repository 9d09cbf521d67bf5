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

The candidate's figure is then no lower than its back-to-back equivalent less a fifth (FLOOR_ALLOWANCE), so a
forged report gains at most 1.25x over what the checker's clock saw, however small the kernel. On the CPU the
equivalent is the time per call itself: a call's figure is the same clock. On a GPU a call's figure is device
time (events, caches flushed: the launches hide behind the flush), for the reference too, while a burst's time
includes the launches; the checker therefore also calls the reference back to back, on sets of its own with the
runner stopped, and the equivalent is the reference's timed figure over the back-to-back speedup. Measured on
the H200 before that (docs/bench/back-to-back-2026-12-04/h200-call1.json): an honest fused kernel reported at
4.5 us took 20-24 us a call back to back through ctypes and read 0.51x instead of 2.2x; its 71 us version on
128 MiB read 0.81-1.0x instead of 3.3x. A ModelNew's runner copies each call's outputs into the sets; the
checker times the same copies on its own side and takes them off.

On the CPU too. There a call's figure is the checker's clock around it less the least overhead of the calibration
made before the candidate loaded (timing.Overhead.floor_ms), which a busy machine inflates: beside two busy loops
the calibration's least overhead came out above most timed calls' whole wall time, every call's clock figure
went to zero, and the rewritten reply read `valid` at 47.7x. A burst's request overhead is shared by its calls,
so the same inflation moves the floor by a few percent.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from contracts.verdict import FlagKind, flag_text
from engine.evaluate import device_memory, timing
from engine.evaluate.candidate_process import CandidateProcess, RunnerFailed
from engine.evaluate.exchange import Exchange, Spec
from engine.evaluate.outcome import Status
from engine.evaluate.perturb import Perturber
from engine.evaluate.requests import EvalRequest, Rejected
from engine.evaluate.trial_seam import TrialSeam

_perf_counter = time.perf_counter

TARGET_MS = 20.0  # a candidate's time in one burst
FASTER = 10  # sets are made for a candidate up to this much faster than the reference (MAX_SETS at most)
MAX_SETS = 128  # 128 calls of a 4 us kernel: 0.5 ms of work in one request (an empty one: 0.03-0.05 ms on the CPU)
MIN_SETS = 4  # fewer calls than this in a burst: each is long enough for the per-call cross-check
MAX_BYTES = 2 << 30  # the back-to-back sets' memory, at most; and at most a tenth of the device's free memory
# Timed bursts, the least of them (each a real, checked burst: the clock cannot be made to read less than its
# calls took): the first one carries one-time work (argument lists, first touches), and on the H200 an honest
# 72 us kernel's 8-call bursts scattered from 0.095 to 0.138 ms a call between evaluations.
ROUNDS = 3
SAMPLED = 3  # sets of each burst compared with the reference (a secret choice, made after the reply), and the last
CALIBRATIONS = 7  # empty bursts before the candidate loads
# The share of its back-to-back time a call's figure may go below: back to back, kernels queue with a launch
# gap between them and a cold start per set, which events around one call do not see (honest device-bound calls
# would otherwise carry that into their figure); a forged report gains at most this much (1.25x), as the
# per-call cross-check allows a quarter of the call.
FLOOR_ALLOWANCE = 0.2
# A back-to-back equivalent this many times the runner's report adds a flag: a forged report, or a module
# whose calls are bound by host work (launches, Python) where the reference's are not.
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
    budget = min(MAX_BYTES, int(device_memory.free_bytes(device) * 0.1))
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


Writer = Callable[..., None]  # checker.write_unseen(proc, write, flush)


def calibrate(proc: CandidateProcess, device: torch.device, writer: Writer) -> float:
    """The cost of a burst request itself (request, synchronize, reply), from empty bursts made before the
    candidate loads: their median, in ms. Each is made as a burst is: the runner stopped while the checker
    works (on a GPU, work of this process's own, as a burst follows the writing of its sets, and one launch of
    the runner's: the device's switch between the two processes' contexts is part of every burst), the clock
    from before the thaw."""
    walls = []
    scratch = torch.empty(1 << 16, device=device) if device.type == "cuda" else None
    for _ in range(CALIBRATIONS):
        try:
            writer(proc, (lambda: scratch.fill_(0)) if scratch is not None else (lambda: None), flush=False)
        except Rejected as e:
            raise RunnerFailed("crashed", f"the runner could not be stopped before the candidate loaded: {e}") from e
        proc.freeze(False)  # as a burst's: thawed before the clock starts
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
    """A candidate's back-to-back time (and on a GPU the reference's), ms per call, and what they came from."""

    calls: int
    per_call_ms: float
    walls_ms: tuple[float, ...]  # each timed burst, request to reply
    overhead_ms: float  # an empty burst's cost (calibrated before the candidate loaded), taken off the least wall
    reference_calls: int = 0  # on a GPU: the reference back to back on sets of its own, in the checker, runner frozen
    reference_per_call_ms: float = 0.0
    reference_walls_ms: tuple[float, ...] = ()
    copies_ms: float = 0.0  # a ModelNew runner's copies of its outputs into the sets, timed by the checker, taken off
    runner_walls_ms: tuple[float, ...] = ()  # the runner's own account of each burst: recorded, never used

    def equivalent_ms(self, reference_ms: float) -> float:
        """The candidate's back-to-back time in the units of its per-call figure. On the CPU both are the
        checker's clock: the time itself. On a GPU a call's figure is device time (events, caches flushed, the
        launches hidden behind the flush) and a burst's is the clock, launches included: there the burst says
        how much faster than the reference the candidate is, back to back by the same clock, and the
        equivalent is the reference's timed figure over that speedup. A module whose calls are bound by launches
        or Python is then compared with a reference bound the same way, not with the reference's device time."""
        if not self.reference_calls:
            return self.per_call_ms
        return reference_ms * self.per_call_ms / max(self.reference_per_call_ms, 1e-9)


class BackToBack:
    """The back-to-back bursts of one candidate, on the exchange's back-to-back sets."""

    def __init__(self, checker: TrialSeam, req: EvalRequest, ex: Exchange, calls: int):
        self.c = checker
        self.req = req
        self.ex = ex
        self.groups = ex.back_to_back_groups()[:calls]
        self.ref = checker.make_reference(checker.seed(req, "timing"))
        self.pool = checker.timing_pool(req)
        self.perturb: Perturber = checker.perturbation
        self._ref_sets: list[list[Any]] | None = None  # the reference's burst inputs (_reference_burst)

    def _fill(self, round_: int) -> list[tuple[Sequence[Any], torch.Tensor]]:
        """New inputs in every set (each its own perturbation of a pool set), outputs poisoned, set 0's state
        rewritten; the (pool set, generator state) each set's inputs are made again from."""
        made = []
        for j, g in enumerate(self.groups):
            base = self._base(j, round_)
            made.append((base, self.perturb.state()))
            self.perturb.write(self.ex.of_role("input", g), base)
            self.ex.poison_outputs(g)
        for buf, v in zip(self.ex.of_role("state"), self.ref.state_dict().values()):
            buf.copy_(v)
        timing.sync(self.c.device)
        return made

    def _base(self, j: int, round_: int) -> Sequence[Any]:
        """The pool set that set j's inputs are a perturbation of in this round (the reference's sets too)."""
        return self.pool[(j + round_) % len(self.pool)]

    def _ref_estimate_ms(self) -> float:
        """The reference's estimated time per call (a second where there is none)."""
        return self.c.ref_ms if self.c.ref_ms is not None else 1000.0

    def _limit_s(self) -> float:
        """A burst's time limit: n calls at the per-call limit's rate (a hang ends as `timeout`)."""
        n = len(self.groups)
        return max(0.75 + n * 50.0 * self._ref_estimate_ms() / 1e3, n * self.c.min_call_s, 2.0)

    def candidate(self, proc: CandidateProcess, deadline: float, scalars: dict[str, Any], overhead_ms: float
                  ) -> Burst:
        """ROUNDS bursts of the candidate, each checked on a secret sample of its sets and followed by one of the
        reference on the same sets (the runner frozen)."""
        c, ex, n = self.c, self.ex, len(self.groups)
        m = self.reference_calls() if c.device.type == "cuda" else 0
        walls: list[float] = []
        runner: list[float] = []
        ref_walls: list[float] = []
        copies: list[float] = []  # a ModelNew's copies of its outputs into the sets, timed here (_copies_ms)
        for r in range(ROUNDS):
            what = f"back-to-back burst {r + 1} ({n} calls)"
            made: list[tuple[Sequence[Any], torch.Tensor]] = []
            # Every set written with the runner stopped, the clock from before the thaw: a candidate that watches
            # its sets computes inside the burst's time, not while the checker fills the rest (issue 42).
            c.write_unseen(proc, lambda r=r, made=made: made.extend(self._fill(r)), flush=False)
            end_state = self.perturb.state()
            picks = sorted(set(c.rng.sample(range(n), min(SAMPLED, n))) | {n - 1})
            # Thawed before the clock starts (the freezer's thaw took up to 35 ms on a busy 2-core machine, more
            # than a small task's whole burst): what is left to a watching candidate is the moment between the
            # thaw and the request, not the writing of every set.
            proc.freeze(False)
            t0 = _perf_counter()
            rep = c.ask(proc, "burst", self._limit_s(), deadline, what, scalars=scalars, count=n)
            wall = (_perf_counter() - t0) * 1e3
            # Snapshotted the moment the reply is in (work left running shows as a change later), outside the
            # clock: 4 sets of 16 chunks are 64 small copies, 0.3 ms of this process's launches.
            snaps = [ex.snapshot_outputs(c.rng, self.groups[j]) for j in picks]
            walls.append(wall)
            if rep.ms is not None:
                runner.append(round(rep.ms, 4))
            for j, snap in zip(picks, snaps):
                g, (base, state) = self.groups[j], made[j]
                call = f"{what}, call {j + 1}"
                inputs = self.perturb.make(base, state)
                c.check_unchanged(ex, inputs, self.ref, call, group=g)
                c.compare(ex, c.reference_outputs(self.ref, inputs, fresh=True),
                          f"{call} disagrees with the reference on its own inputs (work skipped when called back to "
                          "back, or a cached result?)", Status.SUSPECT, group=g)
                c.settled_since(snap, call)
            # The generator where the writes left it: remaking a set's inputs rewound it, and the next round
            # would otherwise draw inputs a set of this one already had.
            self.perturb.restore(end_state)
            # Both timed here with the runner stopped and this process's full threads (the runner has its own).
            if self.req.kind == "modelnew":
                copies.append(c.frozen(proc, lambda _: [self._copies_ms()], 1)[0])
            if m:
                ref_walls.append(c.frozen(proc, lambda _, r=r: [self._reference_burst(m, r)], 1)[0])
        net = [w - k for w, k in zip(walls, copies)] if copies else walls
        return Burst(n, max(min(net) - overhead_ms, 0.0) / n, tuple(round(w, 4) for w in walls),
                     overhead_ms, m, min(ref_walls) / m if m else 0.0,
                     tuple(round(w, 4) for w in ref_walls), round(statistics.median(copies), 4) if copies else 0.0,
                     tuple(runner))

    def reference_calls(self) -> int:
        """The reference's calls in a burst of its own: TARGET_MS of them by its estimate (at least 2, at most
        the sets there are)."""
        return max(2, min(len(self.groups), math.ceil(TARGET_MS / max(self._ref_estimate_ms(), 1e-4))))

    def _reference_burst(self, m: int, round_: int) -> float:
        """The reference called back to back on `m` sets of inputs of the checker's own (the shared sets are
        within the candidate's reach), drawn afresh like the candidate's, by the same clock, in ms. Its outputs
        are its own tensors, as a user's eager calls make them."""
        if self._ref_sets is None:
            self._ref_sets = [[x.clone() if isinstance(x, torch.Tensor) else x for x in self._base(j, 0)]
                              for j in range(m)]
        for j, args in enumerate(self._ref_sets):
            self.perturb.write([x for x in args if isinstance(x, torch.Tensor)], self._base(j, round_))
        timing.sync(self.c.device)
        t0 = _perf_counter()
        with torch.no_grad():
            for args in self._ref_sets:
                self.ref(*args)
        timing.sync(self.c.device)
        return (_perf_counter() - t0) * 1e3

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


def floor(samples: list[float], burst: Burst | None, reference_ms: float) -> list[float]:
    """Each timed call's figure no lower than the back-to-back equivalent (Burst.equivalent_ms against the
    reference's timed median), less FLOOR_ALLOWANCE."""
    if burst is None:
        return samples
    least = burst.equivalent_ms(reference_ms) * (1 - FLOOR_ALLOWANCE)
    return [max(x, least) for x in samples]


def record(extra: dict[str, Any], flags: list[str], burst: Burst, reported_ms: float, reference_ms: float) -> None:
    """The bursts in the reply's extra, and a flag where the runner's report claimed far less time than its calls
    took back to back."""
    equivalent = burst.equivalent_ms(reference_ms)
    extra["back_to_back"] = {"calls": burst.calls, "candidate_ms": round(burst.per_call_ms, 6),
                             "equivalent_ms": round(equivalent, 6), "reported_ms": round(reported_ms, 6),
                             "request_overhead_ms": round(burst.overhead_ms, 4),
                             "output_copies_ms": burst.copies_ms, "walls_ms": burst.walls_ms,
                             "runner_walls_ms": burst.runner_walls_ms}
    if burst.reference_calls:
        extra["back_to_back"].update({"reference_calls": burst.reference_calls,
                                      "reference_ms": round(burst.reference_per_call_ms, 6),
                                      "reference_walls_ms": burst.reference_walls_ms})
    if equivalent > HOST_BOUND * reported_ms:
        against = (f", against the reference's {burst.reference_per_call_ms:.4g} ms by the same clock" if
                   burst.reference_calls else "")
        flags.append(flag_text(FlagKind.BACK_TO_BACK_SLOWER,
                               f"called back to back its calls took {burst.per_call_ms:.4g} ms each by the checker's "
                               f"clock{against}: {equivalent / max(reported_ms, 1e-9):.1f}x the {reported_ms:.4g} ms "
                               "its runner reported; the figure is held to the back-to-back time (launches or host "
                               "work, or a report that was not the call's time)"))
