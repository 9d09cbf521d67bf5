"""Where a run's wall time went: every second of it in exactly one phase, so the phases sum to the wall time.

The loop says which phase it is in as it goes (`clock.enter("build")`); the time since the previous change is
added to the phase it leaves. Work that runs beside the loop's own thread (the reference profile while the
evaluation worker starts) is not counted twice: the loop is in whatever phase it is waiting in.

Phases (RunResult.phases; README "Every second accounted for"):
    start             process start to the loop: imports, loading and probing the task, the device
    worker            starting the evaluation worker (the checker: torch, the task, the device)
    reference_profile waiting for the reference's Nsight Compute profile
    regions           timing the reference's submodules (where its time goes: engine/evaluate/region_times.py)
    decide            the agents: space, directions, strategy, candidates (model calls with the LLM backend)
    build             compiling a round's candidates (in parallel)
    runner            per candidate: starting its sandboxed runner and loading it
    verify            per candidate: the correctness trials
    time_candidate    per candidate: its timed calls
    time_reference    per candidate: eager's timed calls beside it
    evaluate_other    per candidate: the rest of its evaluation (exchange, cleanup, the worker's round trips)
    profile           Nsight Compute on a round's best
    retime            timing the best again before it is reported
    finish            writing the result files and the record
"""

from __future__ import annotations

import os
import time

ORDER = ("start", "worker", "reference_profile", "regions", "decide", "build", "runner", "verify", "time_candidate",
         "time_reference", "evaluate_other", "profile", "retime", "finish")


def process_age_s() -> float:
    """Seconds since this process started (its interpreter's own start included), from /proc; 0 elsewhere."""
    try:
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return max(uptime - start_ticks / os.sysconf("SC_CLK_TCK"), 0.0)
    except (OSError, ValueError, IndexError):
        return 0.0


class PhaseClock:
    def __init__(self, phase: str = "start", already_s: float = 0.0):
        self.seconds: dict[str, float] = {p: 0.0 for p in ORDER}
        self.seconds[phase] = already_s
        self.phase = phase
        self._t = time.perf_counter()

    def enter(self, phase: str) -> str:
        """Switch to `phase`; returns the phase left (to come back to it)."""
        now = time.perf_counter()
        self.seconds[self.phase] = self.seconds.get(self.phase, 0.0) + (now - self._t)
        self._t, left, self.phase = now, self.phase, phase
        return left

    def split(self, phase: str, parts: dict[str, float]) -> None:
        """Move seconds already counted in `phase` to finer phases (a candidate's evaluation as the worker
        measured its parts); never more than `phase` holds, so the sum stays the wall time."""
        self.enter(self.phase)
        for name, s in parts.items():
            s = max(min(s, self.seconds.get(phase, 0.0)), 0.0)
            self.seconds[phase] -= s
            self.seconds[name] = self.seconds.get(name, 0.0) + s

    def snapshot(self) -> dict[str, float]:
        self.enter(self.phase)
        return {k: round(v, 3) for k, v in self.seconds.items()}
