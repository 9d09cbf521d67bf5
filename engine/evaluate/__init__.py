"""Evaluate candidate implementations of a task: build, check space, verify, time.

Stages (each its own module): build.py (compile, cache), worker.py (the isolated process),
session.py (what runs inside it), verify.py (correctness and anti-cheat checks), timing.py (timers),
outcome.py (typed results), pipeline.py (the stages in order).
"""

from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Precision, Status, Timing
from engine.evaluate.pipeline import EvalSettings, Evaluator, candidate_from_file, resolve_device

__all__ = ["Candidate", "CandidateKind", "EvalSettings", "Evaluator", "Outcome", "Precision", "Status",
           "Timing", "candidate_from_file", "resolve_device"]
