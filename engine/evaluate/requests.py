"""What the evaluation worker is asked and what it answers: one candidate per request.

These cross from the CLI or server process to the checker process (pickled over its authenticated
socket); both are trusted sides. What crosses to a candidate's runner is in wire.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from contracts.shapes import ShapeReport
from contracts.verdict import EXCESSIVE_SPEEDUP
from engine.evaluate.outcome import ErrorStats, Status, Timing


@dataclass(frozen=True)
class CeilingsRequest:
    """Ask the checker for its device's measured ceilings (engine/evaluate/ceilings.py): from the cache, else
    measured now, while nothing else of the run uses the device."""

    remeasure: bool = False


@dataclass(frozen=True)
class RegionsRequest:
    """Ask the checker where the reference's forward spends its time (engine/evaluate/region_times.py), while
    nothing else of the run uses the device."""


@dataclass(frozen=True)
class EvalRequest:
    candidate_id: str
    kind: str  # CandidateKind value
    artifact: str  # .so for native candidates, .py for ModelNew
    contract: dict[str, Any] | None  # contract layout (native candidates)
    correctness_trials: int = 5
    timing_trials: int = 100
    seed: int = 1234
    timing: bool = True
    excessive_speedup: float = EXCESSIVE_SPEEDUP  # the flag the editor words as "over 10x"
    # Extra callables timed against the same reference in the same way ("compile:default", ...).
    label: str = ""
    space: str = "libraries_pytorch"  # the largest space the candidate may use, enforced while it runs
    timeout_s: float | None = None  # the whole evaluation of this candidate; None: 600 s
    load_timeout_s: float = 600.0  # importing a ModelNew that builds itself, or its first (compiling) call
    # torch.compile's caches shared with the task's other candidates of the same trust: only hiera's own
    # generated ModelNew files (their source is the task's own code around torch.compile), so that a mode is
    # compiled once per task; any other candidate compiles in caches of its own, which nothing else reads.
    shared_compile_cache: bool = False
    # The least time one call may take before it is cut (0: derived from the reference alone). For callers
    # that knowingly evaluate slow code: the tests' CPU emulation of CUDA kernels runs ~1000x a real one.
    min_call_limit_s: float = 0.0
    # The task's batch (dim 0 of every tensor input and output) and the other sizes to verify and briefly time
    # the candidate at (issue 29; contracts/shapes.py); none: the given shapes only.
    batch: int | None = None
    variants: tuple[int, ...] = ()
    # Back-to-back calls timed by the checker's clock, a floor under the candidate's figure (back_to_back.py):
    # False, none; back_to_back_sets: how many calls a burst makes (0: from the reference's time, which a loaded
    # machine inflates; the CPU tests of the protocol fix it).
    back_to_back: bool | None = None
    back_to_back_sets: int = 0


@dataclass
class EvalReply:
    candidate_id: str
    status: Status
    reason: str
    flags: list[str] = field(default_factory=list)
    candidate: Timing | None = None
    reference: Timing | None = None
    error: ErrorStats | None = None
    verify_s: float = 0.0
    time_s: float = 0.0
    load_s: float = 0.0
    fatal: bool = False  # the device is unusable (CUDA fault): the worker must be restarted
    extra: dict[str, Any] = field(default_factory=dict)  # measurements worth keeping (the timing cross-check)
    shapes: ShapeReport | None = None  # what it was found valid on at the other batch sizes (request.variants)


class Rejected(Exception):
    def __init__(self, status: Status, reason: str, error: ErrorStats | None = None):
        super().__init__(reason)
        self.status, self.reason, self.error = status, reason, error
