"""What the loop's helpers may use of the loop: one Protocol per helper, each listing exactly what it reads.

`Loop` (loop.py) plays the rounds and owns the run's state; its helpers — the profiles (loop_profiling.py),
the result files (result_files.py), the resumption of a stopped run (loop_resume.py) and the re-timing of the
best (retiming.py) — are handed the loop, but see it only through these: the run's events (emit, notice,
account), its settings and store, the evaluator. None of them imports loop.py, so the loop can change anything
else without reading them, and no import circle runs through it.
"""

from __future__ import annotations

from typing import Protocol

from contracts.runrecord import Event
from contracts.vocabulary import Direction, Space
from engine.agents.base import Backend, Context
from engine.deadline import Deadline
from engine.evaluate.outcome import Candidate, Outcome
from engine.evaluate.pipeline import Evaluator
from engine.loop_plan import Plan
from engine.loop_state import LoopSettings, LoopState
from engine.phases import PhaseClock
from engine.progress import WorkCount
from engine.store import RunStore
from engine.task.spec import TaskSpec


class RunEvents(Protocol):
    """The run's events: what a helper says (a notice, an event) and records (an evaluated candidate)."""

    def emit(self, event: Event) -> None: ...

    def notice(self, state: LoopState, message: str) -> None: ...

    def account(self, state: LoopState, c: Candidate, o: Outcome, r: int, i: int, retime: bool = False) -> None: ...


class RetimeHost(RunEvents, Protocol):
    """retiming.py: the best timed again, within the run's plan and deadline, counted as work."""

    evaluator: Evaluator  # made by Loop.run before any helper runs
    plan: Plan
    deadline: Deadline
    work: WorkCount


class FilesHost(Protocol):
    """result_files.py: the run's result files, beside the task or in the run's folder."""

    spec: TaskSpec
    settings: LoopSettings
    store: RunStore
    evaluator: Evaluator

    def emit(self, event: Event) -> None: ...


class ResumeHost(Protocol):
    """loop_resume.py: a stopped run's state rebuilt from the store."""

    settings: LoopSettings
    sizes: list[int]
    store: RunStore

    def consider(self, state: LoopState, c: Candidate, o: Outcome, r: int, space: Space, d: Direction
                 ) -> None: ...


class ProfilesHost(Protocol):
    """loop_profiling.py: Nsight Compute on the reference and the rounds' bests, and the builds it needs ahead."""

    spec: TaskSpec
    settings: LoopSettings
    store: RunStore
    evaluator: Evaluator
    backend: Backend
    clock: PhaseClock
    allowed: tuple[Space, ...]
    sizes: list[int]

    def notice(self, state: LoopState, message: str) -> None: ...

    def context(self, state: LoopState, r: int) -> Context: ...
