"""A candidate at other batch sizes (issue 29): verified and briefly timed by the trusted checker, beside the
task's own shapes, in the same runner, by the same rules.

The checker's exchange holds one set of buffers per size (wire.Buffer.group: set 0 the task's own shapes and
every parameter and buffer, set k the k-th size's inputs and outputs), all handed to each fresh runner when
it starts, so a size costs no second sandbox: a call names its set. Once the candidate is verified and timed at
the given shapes (its verdict is then settled; nothing here changes it), each size gets:

- VARIANT_TRIALS trials on fresh inputs under the checker's secret seeds (get_inputs() drawn as often as the
  size needs, concatenated along dim 0 and cut to it; the second trial with one of the off-distribution
  transforms), each compared with the reference computed here on those inputs, with the inputs and weights
  checked for mutation and the outputs NaN-poisoned first, as at the given shapes;
- then a few timed calls (3 to 10, about VARIANT_TIMING_MS of them) on perturbed inputs, the first and the last
  compared with the reference, the outputs snapshotted on reply; the reference timed the same way (on the CPU
  with the runner frozen, on a GPU once the runner is gone).

A failure at one size is that size's status (a kernel that ignores its sizes writes past a smaller buffer or
leaves most of a larger one unwritten), never the candidate's verdict; a runner that dies there ends the
checks (the sizes left are SKIPPED, with why). A size whose buffers would not fit in memory is SKIPPED and
said so (doubling a GB-sized task's batch may not fit).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from contracts.shapes import DECLINED, SKIPPED, ShapeCheck, ShapeReport
from engine.evaluate import device_memory, timing, wire
from engine.evaluate.candidate_process import CandidateProcess, RunnerFailed
from engine.evaluate.exchange import Exchange, Spec
from engine.evaluate.library_audit import check_libraries
from engine.evaluate.off_distribution import TRANSFORMS
from engine.evaluate.outcome import Status
from engine.evaluate.perturb import Perturber
from engine.evaluate.requests import EvalRequest, Rejected
from engine.evaluate.trial_seam import TrialSeam

VARIANT_TRIALS = 2
VARIANT_TIMING_MS = {"cuda": 20.0, "cpu": 30.0}  # wall time of each side's timed calls, per size
MIN_CALLS, MAX_CALLS = 3, 10
# The share of free memory a size's buffers may take, counting the checker's own copies (its inputs, the
# reference's outputs, a perturbed copy) beside the shared buffers: four times the buffers.
MEMORY_SHARE = 0.5
COPIES = 4

_perf_counter = time.perf_counter


@dataclass(frozen=True)
class Planned:
    """A size to check, and the set of buffers its calls use."""

    size: int
    group: int


def _declined(r: Rejected) -> bool:
    """Whether the candidate refused the size by its own return code (wire.SHAPE_DECLINED, as the runner words
    it): a kernel specialized to the task's shapes, not a crash."""
    return r.status is Status.RUNTIME_ERROR and f"hiera_forward returned {wire.SHAPE_DECLINED} (" in r.reason


def _resized(shape: Sequence[int], size: int) -> tuple[int, ...]:
    return (size, *tuple(shape)[1:])


class VariantCheck:
    """The variant sizes of one request on one checker (which owns the task, the seeds and the runner)."""

    def __init__(self, checker: TrialSeam, req: EvalRequest):
        self.c = checker
        self.req = req
        self.batch = req.batch or 0
        self.gpu = checker.device.type == "cuda"

    # --- which sizes, and their buffers ---------------------------------------------------------------------

    def plan(self, inputs: Sequence[Any], outs: Sequence[torch.Tensor]) -> tuple[list[Planned], list[ShapeCheck]]:
        """The sizes to check (ascending, each with its set of buffers) and those left out because their buffers
        would not fit beside what is already held."""
        if not self.req.variants or not self.batch:
            return [], []
        tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
        per_row = sum(x.numel() * x.element_size() for x in [*tensors, *outs]) / self.batch
        room = MEMORY_SHARE * device_memory.free_bytes(self.c.device)
        planned, skipped = [], []
        for size in sorted(self.req.variants):
            need = COPIES * per_row * size
            if need > room:
                skipped.append(ShapeCheck(size, SKIPPED, f"its buffers need about {need / 2**30:.1f} GiB, "
                                                         f"{room / MEMORY_SHARE / 2**30:.1f} GiB free"))
                continue
            room -= need
            planned.append(Planned(size, len(planned) + 1))
        return planned, skipped

    @staticmethod
    def specs(planned: Sequence[Planned], inputs: Sequence[Any], outs: Sequence[torch.Tensor]) -> list[Spec]:
        """The exchange's buffers for the planned sizes: each size's inputs and outputs (no state: set 0's)."""
        specs = []
        tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
        for p in planned:
            specs += [Spec(f"input {i} [batch {p.size}]", "input", _resized(x.shape, p.size), x.dtype, p.group)
                      for i, x in enumerate(tensors)]
            specs += [Spec(f"output {i} [batch {p.size}]", "output", _resized(o.shape, p.size), o.dtype, p.group)
                      for i, o in enumerate(outs)]
        return specs

    # --- inputs ----------------------------------------------------------------------------------------------

    def inputs(self, size: int, what: str, index: int) -> list[Any]:
        """get_inputs() drawn under secret seeds as often as `size` needs, every tensor concatenated along dim 0
        and cut to `size` (so each element comes from the task's own distribution); numbers from the first."""
        draws = []
        for j in range(max(1, math.ceil(size / self.batch))):
            torch.manual_seed(self.c.seed(self.req, f"variant {size} {what}", index * 64 + j))
            with torch.device(self.c.device):
                made = self.c.task.get_inputs()
            draws.append([x.to(self.c.device) if isinstance(x, torch.Tensor) else x for x in made])
        out: list[Any] = []
        for i, x in enumerate(draws[0]):
            if isinstance(x, torch.Tensor):
                out.append(torch.cat([d[i] for d in draws])[:size].contiguous() if x.dim() else x)
            else:
                out.append(x)
        return out

    # --- the checks ------------------------------------------------------------------------------------------

    def run(self, proc: CandidateProcess, ex: Exchange, planned: Sequence[Planned], skipped: Sequence[ShapeCheck],
            deadline: float, cand_ms: float | None, restart: Callable[[], CandidateProcess]
            ) -> tuple[list[ShapeCheck], list[Later], CandidateProcess | None]:
        """Each planned size verified (and, with cand_ms, the candidate's median at the given shapes, timed) in
        `proc`. A runner that dies at one size (a kernel writing far past a smaller buffer) is replaced by a fresh
        one, `restart()`, for the sizes left (the same candidate: nothing of another crosses). Returns the checks,
        the sizes whose reference is still to be timed (on a GPU, once the runner is gone) and the runner now
        alive (None when it could not be started again)."""
        checks: list[ShapeCheck] = list(skipped)
        later: list[Later] = []
        ended = ""
        live: CandidateProcess | None = proc
        for p in planned:
            if live is None:
                checks.append(ShapeCheck(p.size, SKIPPED, ended))
                continue
            proc = live
            # A write far past a smaller size's buffer can reach other buffers' canaries (the state's among them):
            # that size's own verdict, so each size starts with its canaries set again.
            ex.arm(p.group)
            try:
                self._verify(proc, ex, p, deadline)
                check_libraries(proc, self.req)
                check = ShapeCheck(p.size, Status.VALID.value)
                if cand_ms is not None:
                    check, timer = self._time(proc, ex, p, deadline, cand_ms)
                    if timer is not None:
                        later.append(timer)
                checks.append(check)
            except Rejected as r:
                checks.append(ShapeCheck(p.size, DECLINED if _declined(r) else r.status.value, r.reason))
            except RunnerFailed as f:
                status = Status.TIMEOUT if f.kind == "timeout" else Status.RUNTIME_ERROR
                checks.append(ShapeCheck(p.size, status.value, f.reason))
                proc.cleanup()
                live, ended = None, f"not checked: the runner ended at batch {p.size} and could not be started again"
                if p is not planned[-1] and f.kind != "timeout":
                    try:
                        live = restart()
                    except (Rejected, RunnerFailed):
                        live = None
            except torch.cuda.OutOfMemoryError as e:
                checks.append(ShapeCheck(p.size, SKIPPED, f"out of GPU memory in the checker ({str(e)[:120]})"))
                live, ended = None, "not checked: the checker ran out of GPU memory at a smaller size"
                proc.cleanup()
        return sorted(checks, key=lambda c: c.batch), later, live

    def _limit(self, size: int, first: bool) -> float:
        scale = max(1.0, size / self.batch)
        return (self.c.first_call_limit_s(self.req) if first else self.c.call_limit_s()) * scale

    def _verify(self, proc: CandidateProcess, ex: Exchange, p: Planned, deadline: float) -> None:
        want = [tuple(o.shape) for o in ex.of_role("output", p.group)]
        for t in range(VARIANT_TRIALS):
            seed = self.c.seed(self.req, "trial", t)
            ref = self.c.make_reference(seed)
            inputs = self.inputs(p.size, "trial", t)
            name, transform = TRANSFORMS[(p.group + t) % len(TRANSFORMS)] if t else ("", None)
            if transform is not None:
                inputs = [transform(x) if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs]
            expected = self.c.reference_outputs(ref, inputs)
            got = [tuple(e.shape) for e in expected]
            if got != want:
                raise Rejected(Status.RUNTIME_ERROR, f"not checked: the reference's outputs at batch {p.size} are "
                                                     f"{got}, not {want}")
            if transform is not None and not all(bool(torch.isfinite(e).all()) for e in expected
                                                 if e.is_floating_point()):
                continue
            what = f"batch {p.size}, trial {t + 1}" + (f", inputs {name}" if name else "")
            self.c.write(ex, inputs, ref, group=p.group)
            if self.req.kind == "modelnew":
                self.c.ask(proc, "construct", self.c.first_call_limit_s(self.req), deadline, what, seed=seed)
            self.c.ask(proc, "call", self._limit(p.size, t == 0), deadline, what,
                        scalars=self.c.scalars(ref, self.req.contract, inputs), timed=False, flush=False,
                        group=p.group)
            self.c.check_unchanged(ex, inputs, ref, what, group=p.group)
            self.c.compare(ex, expected, what, Status.INCORRECT, capped=transform is None, group=p.group)

    def _time(self, proc: CandidateProcess, ex: Exchange, p: Planned, deadline: float, cand_ms: float
              ) -> tuple[ShapeCheck, Later | None]:
        c = self.c
        seed = c.seed(self.req, "timing")
        ref = c.make_reference(seed)
        pool = [self.inputs(p.size, "pool", i) for i in range(2)]
        perturb = Perturber(pool[0], c.device, lambda xs: _finite(c.reference_outputs(ref, xs, fresh=True)))
        est = max(cand_ms * p.size / self.batch, 1e-3)
        n = int(min(MAX_CALLS, max(MIN_CALLS, math.ceil(VARIANT_TIMING_MS["cuda" if self.gpu else "cpu"] / est))))
        scalars = c.scalars(ref, self.req.contract, pool[0])
        if self.req.kind == "modelnew":
            # A ModelNew takes its parameters from the shared state when it is made: this reference's, written
            # first (made before, it kept the last trial's, and every timed call read as wrong).
            c.write(ex, pool[0], ref, group=p.group)
            c.ask(proc, "construct", c.first_call_limit_s(self.req), deadline, f"batch {p.size}", seed=seed)
        reported: list[float] = []
        walls: list[float] = []
        snap = None
        for i in range(n):
            what = f"batch {p.size}, timed call {i + 1}"
            if snap is not None:
                c.settled_since(snap, what)
            base = pool[i % len(pool)]
            state = perturb.state()
            perturb.write(ex.of_role("input", p.group), base)
            for buf, v in zip(ex.of_role("state"), ref.state_dict().values()):
                buf.copy_(v)
            ex.poison_outputs(p.group)
            timing.sync(c.device)
            if not self.gpu:
                c.ask(proc, "flush", c.call_limit_s(), deadline, what)
            t0 = _perf_counter()
            rep = c.ask(proc, "call", self._limit(p.size, False), deadline, what, scalars=scalars, timed=True,
                         flush=self.gpu, group=p.group)
            snap = ex.snapshot_outputs(c.rng, p.group)
            walls.append((_perf_counter() - t0) * 1e3)
            if rep.ms is None or not math.isfinite(rep.ms) or rep.ms < 0:
                raise Rejected(Status.SUSPECT, f"{what}: the runner reported no valid time ({rep.ms!r})")
            reported.append(rep.ms)
            if i in (0, n - 1):
                inputs = perturb.make(base, state)
                c.check_unchanged(ex, inputs, ref, what, group=p.group)
                c.compare(ex, c.reference_outputs(ref, inputs, fresh=True), f"{what} disagrees with the reference on "
                          "its own inputs (work skipped when timed, or a cached result?)", Status.SUSPECT,
                          group=p.group)
                c.settled_since(snap, what)
        if snap is not None:
            c.settled_since(snap, f"batch {p.size}, the last timed call")
        cand = statistics.median(timing.candidate_times(reported, walls, c.overhead, gpu=self.gpu))
        time_ref = self._reference_timer(ref, pool, perturb)
        if self.gpu:  # timed once the runner is gone: it could keep the device busy with work already queued
            return ShapeCheck(p.size, Status.VALID.value, "", round(cand, 6)), Later(p.size, n, time_ref)
        ref_ms = statistics.median(c.frozen(proc, lambda k: [time_ref() for _ in range(k)], n))
        return ShapeCheck(p.size, Status.VALID.value, "", round(cand, 6), round(ref_ms, 6)), None

    def _reference_timer(self, ref: torch.nn.Module, pool: list[list[Any]], perturb: Perturber
                         ) -> Callable[[], float]:
        """One timed reference call per call (the first warms it up), on the pool's sets perturbed the same way,
        after the same flush, by the checker's clock or events."""
        c = self.c
        bufs = [x.clone() if isinstance(x, torch.Tensor) else x for x in pool[0]]
        done = [0]

        def run() -> Any:
            with torch.no_grad():
                return ref(*bufs)

        def one() -> float:
            if done[0] == 0:
                timing.warm_up(run, c.device, min_calls=1, min_ms=0.0)
            perturb.write([b for b in bufs if isinstance(b, torch.Tensor)], pool[done[0] % len(pool)])
            done[0] += 1
            return timing.time_call(run, c.device, before=c.flusher.flush)[0]

        return one


def _finite(outs: Sequence[torch.Tensor]) -> bool:
    return all(bool(torch.isfinite(o).all()) for o in outs if o.is_floating_point())


@dataclass(frozen=True)
class Later:
    """A size whose reference is timed once the runner is gone (GPU): `calls` calls of `time_one`."""

    size: int
    calls: int
    time_one: Callable[[], float]


def finish(batch: int, checks: list[ShapeCheck], later: Sequence[Later], given_speedup: float | None = None
           ) -> ShapeReport:
    """The report, with the reference medians of the sizes left to time now that the runner is gone, and the
    speedup at the given shapes (what a slower size is measured against: contracts/shapes.py SLOWER_LIMIT)."""
    out = {c.batch: c for c in checks}
    for item in later:
        c = out[item.size]
        ms = statistics.median(item.time_one() for _ in range(item.calls))
        out[item.size] = ShapeCheck(c.batch, c.status, c.reason, c.candidate_ms, round(ms, 6))
    return ShapeReport(batch, tuple(sorted(out.values(), key=lambda c: c.batch)), given_speedup=given_speedup)
