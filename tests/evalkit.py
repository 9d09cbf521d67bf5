"""Helpers for evaluator tests: one Evaluator (and so one worker) per task, reused across candidates."""

from __future__ import annotations

from pathlib import Path

from contracts.vocabulary import Space
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator, Outcome
from engine.evaluate.outcome import Precision
from engine.task.spec import load_task

_KIND = {".cu": CandidateKind.CUDA, ".cpp": CandidateKind.CPP, ".py": CandidateKind.MODELNEW}


def candidate(path: Path, space: Space | None = None) -> Candidate:
    return Candidate(path.stem, _KIND[path.suffix], path.read_text(), space)


def evaluator(task: Path, tmp: Path, device: str = "cpu", timeout_s: float = 120.0,
              precision: Precision = Precision.FP32, trials: int = 100) -> Evaluator:
    spec = load_task(task)
    return Evaluator(spec, tmp / spec.name, EvalSettings(device=device, precision=precision, timing_trials=trials,
                                                          request_timeout_s=timeout_s), cache_dir=tmp / "cache")


def evaluate_one(ev: Evaluator, path: Path, space: Space | None = None) -> Outcome:
    [o] = ev.evaluate([candidate(path, space)])
    return o
