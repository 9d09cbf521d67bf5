"""Stopping at the speed of light: a run whose best reaches STOP_FRACTION of its bound spends no more budget.

The bound is a lower bound on any implementation's time (engine/evaluate/speed_of_light.py), so a best at 85% of
it can gain at most 15% more, less than a round's noise on most machines: the user gets the rest of the run's
time back, and a study the measurement. The result says so (RunResult.stopped_early, a notice).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from contracts.runrecord import StoppedEarly

if TYPE_CHECKING:
    from engine.loop_state import LoopState


def stop_early(sizes: list[int], t0: float, state: LoopState, played: int) -> StoppedEarly | None:
    """After round `played` of rounds of `sizes` candidates, in a run started at perf_counter() t0: the stop,
    when the best so far is at its bound and rounds are left; else None."""
    sol = state.best.outcome.speed_of_light if state.best is not None else None
    left = sum(sizes[played:])
    if sol is None or not sol.at_bound or not left:
        return None
    spent = time.perf_counter() - t0
    per_candidate = spent / max(state.evaluated, 1)
    return StoppedEarly(played, sol.fraction, sol.bound, left, round(per_candidate * left, 1))
