"""A reference that disagrees with itself on a trial's inputs (its forward draws random numbers whose effect shows
only there) gives no verdict on that trial; one that disagrees with itself on the task's own inputs cannot judge
anyone, and says so. Seen on the H200: a 6-layer LSTM that draws its initial state with torch.randn forgets it on
the task's inputs and keeps it on inputs scaled by 100 (the forget gate saturates), so every candidate, the
reference captured in a CUDA graph included, was `incorrect` on that trial."""

from __future__ import annotations

from pathlib import Path

import torch

from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
from engine.evaluate.checker import self_disagreement
from engine.evaluate.outcome import Precision, Space, Status
from engine.task.spec import load_task

# Random only where x > 50: never on get_inputs()'s [0, 1), nor negated, shifted or centred; on x * 100, yes.
RANDOM_OFF_DISTRIBUTION = '''
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        return torch.where(x > 50, torch.randn_like(x), x) * 2


def get_inputs():
    return [torch.rand(64, 32)]


def get_init_inputs():
    return []
'''

RANDOM_EVERYWHERE = RANDOM_OFF_DISTRIBUTION.replace("torch.where(x > 50, torch.randn_like(x), x)",
                                                    "(x + torch.randn_like(x))")

HONEST = '''
import torch
from torch import nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.where(x > 50, torch.randn_like(x), x) * 2
'''

# Wrong by 1e-3 relative on the task's own inputs: the trials that still judge must catch it.
WRONG = HONEST.replace("* 2", "* 2.002")


def _evaluate(tmp_path: Path, task_source: str, sources: dict[str, str]) -> dict[str, object]:
    task = tmp_path / "task.py"
    task.write_text(task_source)
    spec = load_task(task)
    cands = [Candidate(name, CandidateKind.MODELNEW, src, Space.LIBRARIES_PYTORCH) for name, src in sources.items()]
    with Evaluator(spec, tmp_path / "work", EvalSettings(device="cpu", timing_trials=5),
                   cache_dir=tmp_path / "cache") as ev:
        outs = ev.evaluate(cands)
    return {c.id: o for c, o in zip(cands, outs)}


def test_the_rule_itself() -> None:
    a = torch.rand(100)
    assert self_disagreement([a], [a.clone()], Precision.FP32, True) == ""
    assert "mismatch" in self_disagreement([a], [a + 0.1], Precision.FP32, True)


def test_a_trial_the_reference_cannot_judge_gives_no_verdict_and_the_others_still_judge(tmp_path: Path) -> None:
    outs = _evaluate(tmp_path, RANDOM_OFF_DISTRIBUTION, {"honest": HONEST, "wrong": WRONG})
    honest, wrong = outs["honest"], outs["wrong"]
    assert honest.status is Status.VALID, honest.reason
    flags = [f for f in honest.flags if f.startswith("self_disagreement")]
    assert flags and "inputs scaled by 100" in flags[0], honest.flags
    assert wrong.status is Status.INCORRECT, wrong.reason


def test_control_without_the_rule_the_honest_twin_is_incorrect() -> None:
    # What the checker saw before: the reference's own second call fails the trial's rule on x * 100.
    torch.manual_seed(0)
    x = torch.rand(64, 32) * 100
    ns: dict[str, object] = {}
    exec(RANDOM_OFF_DISTRIBUTION, ns)
    m = ns["Model"]()
    assert "mismatch" in self_disagreement([m(x)], [m(x)], Precision.FP32, False)


def test_a_reference_random_on_its_own_inputs_judges_no_one_and_says_what_to_do(tmp_path: Path) -> None:
    twin = HONEST.replace("torch.where(x > 50, torch.randn_like(x), x)", "(x + torch.randn_like(x))")
    o = _evaluate(tmp_path, RANDOM_EVERYWHERE, {"twin": twin})["twin"]
    assert o.status is Status.INCORRECT
    assert "disagrees with itself" in o.reason and "make Model.forward deterministic" in o.reason, o.reason
