"""What a check made beside the checker's own may use of it: the seam between `Checker` (checker.py) and the
back-to-back check (back_to_back.py) and the batch-size variants check (variants.py).

Those two checks run trials of their own on the same runner, under the same secrets and the same rules as the
checker's: they need its exchange writes, its comparisons, its seeds and secret random source, its limits, its
request to the runner and its way of stopping the runner while the reference is timed. They get exactly that,
through this Protocol, rather than the checker's private members: what they may touch is listed here, and the
checker can change anything else without reading them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import torch

from engine.evaluate import timing, wire
from engine.evaluate.candidate_process import CandidateProcess
from engine.evaluate.exchange import Exchange, OutputSnapshot
from engine.evaluate.outcome import Status
from engine.evaluate.perturb import Perturber
from engine.evaluate.requests import EvalRequest


class TrialSeam(Protocol):
    """The checker, as the back-to-back and variants checks see it."""

    device: torch.device
    task: Any  # the task's module (Model, get_inputs, get_init_inputs): trusted, the checker imported it
    flusher: timing.CacheFlusher
    rng: random.Random  # secret: never seeded by a task; picks which calls are checked
    overhead: timing.Overhead  # an honest timed call's cost beyond its own time (clock_check.calibrate)
    perturbation: Perturber | None  # how this request's timed inputs are perturbed (set once timing starts)
    ref_ms: float | None  # the reference's own time per call, once estimated
    min_call_s: float  # the request's floor on any one call's limit

    # --- seeds and the task's own objects ---
    def seed(self, req: EvalRequest, what: str, index: int = 0) -> int: ...

    def make_reference(self, seed: int) -> torch.nn.Module: ...

    def reference_outputs(self, ref: torch.nn.Module, inputs: Sequence[Any], fresh: bool = False
                          ) -> list[torch.Tensor]: ...

    def timing_pool(self, req: EvalRequest) -> list[list[Any]]: ...

    def scalars(self, ref: torch.nn.Module, layout: dict[str, Any] | None, inputs: Sequence[Any]
                ) -> dict[str, Any]: ...

    # --- the exchange: writing inputs, judging outputs ---
    def write(self, ex: Exchange, inputs: Sequence[Any], ref: torch.nn.Module, group: int = 0) -> None: ...

    def write_unseen(self, proc: CandidateProcess, write: Callable[[], None], flush: bool = True) -> None: ...

    def check_unchanged(self, ex: Exchange, inputs: Sequence[Any], ref: torch.nn.Module, when: str,
                        group: int = 0) -> None: ...

    def compare(self, ex: Exchange, expected: Sequence[torch.Tensor], what: str, status: Status,
                capped: bool = True, group: int = 0, slacks: Sequence[torch.Tensor | None] = ()) -> None: ...

    @staticmethod
    def settled_since(snap: OutputSnapshot, what: str) -> None: ...

    # --- the runner: limits, requests, stopping it while the reference is timed ---
    def call_limit_s(self) -> float: ...

    def first_call_limit_s(self, req: EvalRequest) -> float: ...

    def ask(self, proc: CandidateProcess, op: str, limit: float, deadline: float, what: str, **fields: Any
            ) -> wire.Reply: ...

    def frozen(self, proc: CandidateProcess, time_reference: Callable[[int], list[float]], n: int
               ) -> list[float]: ...
