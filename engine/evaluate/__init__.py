"""Evaluate candidate implementations of a task: build, check space, verify, time.

Stages (each its own module): build.py (compile, cache), worker.py (the isolated process),
session.py (what runs inside it), verify.py (correctness and anti-cheat checks), timing.py (timers),
outcome.py (typed results), pipeline.py (the stages in order).
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Precision, Status, Timing

# The pipeline imports torch (about a second); load it only when asked for, so that reading the run store
# (engine.store, which needs the outcome types) stays cheap for the language server.
_LAZY = {"EvalSettings", "Evaluator", "candidate_from_file", "resolve_device"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module("engine.evaluate.pipeline"), name)
    raise AttributeError(name)


__all__ = ["Candidate", "CandidateKind", "EvalSettings", "Evaluator", "Outcome", "Precision", "Status",
           "Timing", "candidate_from_file", "resolve_device"]
