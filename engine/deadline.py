"""A run's deadline (`hiera optimize --deadline S`, the editor's `hiera.deadline`): the run ends by S seconds after
its process started, start-up included, with its best so far, and its result names what the deadline left out.

Two parts work together:
- the plan (soft): before each step that costs seconds (a round, a candidate's evaluation, a build, a profile, the
  best's re-timing) the loop asks `fits` whether the step's estimate fits in what is left; the estimates are what
  this run's own steps cost so far (`Costs`), so a task with 8 GB of weights plans with its own slow evaluations
  and a small one with its fast ones. A step that does not fit is left out and named (`leave_out`).
- the stop (hard): an alarm at the deadline less FINISH_S (the run's ending: its result files, the record, the
  `result` event) raises DeadlineReached in the loop's thread wherever it waits (a candidate's evaluation, a
  build); the loop then ends as on Ctrl-C, with its best so far. The plan keeps that rare; the alarm makes it sure.

DeadlineReached is a KeyboardInterrupt: every place that already stops cleanly on Ctrl-C stops cleanly on it.
"""

from __future__ import annotations

import math
import signal
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

# What a run's ending takes after the hard stop: writing the result files (the export is parsed once written),
# the store's summary, the `result` event (0.1-0.5 s measured on the 2-core CPU machine), and the evaluator's
# worker killed after the event. Kept apart from the plan, which never spends it.
FINISH_S = 2.0
# The shortest deadline accepted: start-up alone (imports, the task's probe, the worker) takes 5-10 s.
MIN_DEADLINE_S = 10.0
# An optional step (a profile: what the next round's decision reads, never a result by itself) is taken only when
# it costs at most this share of the time left: under a 60 s deadline a 12 s profile is one fifth of the run.
OPTIONAL_SHARE = 0.15
# What a profile costs before this run has taken one: Nsight Compute's replay passes over the first launches, 5-17 s
# a profile on the H200 (BENCHMARKS.md, "Loop speed").
PROFILE_GUESS_S = 12.0
# What a torch.compile candidate's compile costs before this run has timed one: 10-75 s on the H200 (whole models
# the most; BENCHMARKS.md), 20-45 s on a 2-core CPU.
COMPILE_GUESS_S = {"cuda": 30.0, "cpu": 40.0}


class DeadlineReached(KeyboardInterrupt):
    """The hard stop: raised in the loop's thread when the deadline (less FINISH_S) has come."""


@dataclass
class Costs:
    """What this run's steps cost, by kind of step ("evaluate:<loop_plan.candidate_class>", "compile", "build",
    "profile"): the estimate of the next one is the median of those seen (None before the first)."""

    seen: dict[str, list[float]] = field(default_factory=dict)

    def add(self, kind: str, seconds: float) -> None:
        if seconds > 0 and math.isfinite(seconds):
            self.seen.setdefault(kind, []).append(seconds)

    def estimate(self, kind: str) -> float | None:
        xs = self.seen.get(kind)
        return statistics.median(xs) if xs else None


class Deadline:
    """The wall-time limit of one run, counted from its process's start (`started` is that instant on
    time.perf_counter's clock); limit_s None: no deadline (every `fits` holds, nothing is left out)."""

    def __init__(self, limit_s: float | None, started: float | None = None):
        self.limit_s = limit_s
        self.started = time.perf_counter() if started is None else started
        self.left_out: list[str] = []
        self.costs = Costs()
        self._armed = False  # the alarm may still raise
        self._installed = False  # our SIGALRM handler is in place
        self._old_handler: object = None

    @property
    def active(self) -> bool:
        return self.limit_s is not None

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def left(self) -> float:
        """Seconds until the run must have ended (inf without a deadline)."""
        if self.limit_s is None:
            return math.inf
        return self.limit_s - self.elapsed()

    def spendable(self) -> float:
        """Seconds the plan may still spend: what is left less the run's ending."""
        return self.left() - FINISH_S

    def fits(self, seconds: float | None, reserve: float = 0.0) -> bool:
        """Whether a step estimated at `seconds` (None: no estimate yet, so it is tried) fits, keeping `reserve`
        seconds for what must come after it (the best's re-timing)."""
        if self.limit_s is None or seconds is None:
            return self.limit_s is None or self.spendable() > reserve
        return seconds + reserve <= self.spendable()

    def affords(self, seconds: float) -> bool:
        """Whether an optional step (a profile) is worth its cost: at most OPTIONAL_SHARE of what is left."""
        return self.limit_s is None or seconds <= OPTIONAL_SHARE * self.spendable()

    def cap(self, seconds: float, reserve: float = 0.0) -> float:
        """A step's own time limit, held inside the deadline less `reserve` (what must come after it: the best's
        re-timing), at least one second so a limit is never zero."""
        return seconds if self.limit_s is None else max(1.0, min(seconds, self.spendable() - reserve))

    def leave_out(self, what: str) -> None:
        """Name a step the deadline left out (said once, in the order they were left out)."""
        if what not in self.left_out:
            self.left_out.append(what)

    # --- the hard stop ---------------------------------------------------------------------------------------

    def arm(self) -> None:
        """Start the alarm (main thread only: signals are delivered there), at the deadline less FINISH_S and at
        least a tenth of a second from now."""
        if self.limit_s is None or self._installed or threading.current_thread() is not threading.main_thread():
            return
        self._old_handler = signal.signal(signal.SIGALRM, self._ring)
        self._installed = self._armed = True
        signal.setitimer(signal.ITIMER_REAL, max(self.spendable(), 0.1))

    def disarm(self) -> None:
        """Stop the alarm (the run's ending must not be cut by it) and give SIGALRM back its handler."""
        if not self._installed:
            return
        self._armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._old_handler if self._old_handler is not None else signal.SIG_DFL)
        self._installed = False

    def _ring(self, signum: int, frame: object) -> None:
        if self._armed:
            self._armed = False
            raise DeadlineReached(f"the {self.limit_s:g} s deadline")

    @contextmanager
    def armed(self) -> Iterator[Deadline]:
        self.arm()
        try:
            yield self
        finally:
            self.disarm()
