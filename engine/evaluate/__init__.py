"""Evaluate candidate implementations of a task: build, check space, verify, time.

Stages (each its own module): build.py (compile, cache, in the sandbox), worker.py (the checker's process),
checker.py (what runs in it: inputs, the reference, verdicts; never candidate code; its concerns in
inputs_pool.py, timing_policy.py, clock_check.py, runner_limits.py, library_audit.py and variants.py),
candidate_process.py and runner.py (one sandboxed runner per candidate: sandbox.py, cgroups.py), wire.py and
exchange.py (what crosses between them: messages and shared buffers; cudadrv.py the CUDA driver calls),
verify.py (comparisons), timing.py (timers), outcome.py and requests.py (typed results), pipeline.py (the
stages in order), session.py (a task and a candidate in one process, for the profiler only).
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
