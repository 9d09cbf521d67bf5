"""A candidate far slower than the reference stops being timed after a few calls (timing_policy.clearly_slower):
its figure from those calls, said in the reply; one as fast as the reference is timed in full (the control)."""

from __future__ import annotations

from pathlib import Path

from engine.evaluate.timing_policy import MIN_SLOW_TRIALS, MIN_TRIALS, SLOWER_STOP, clearly_slower
from tests.conftest import TASKS


def test_clearly_slower_needs_enough_calls_and_every_one_over_the_ratio() -> None:
    slow = [SLOWER_STOP * 1.1] * MIN_SLOW_TRIALS
    assert clearly_slower(slow, 1.0)
    assert not clearly_slower(slow[:-1], 1.0)  # too few calls yet
    assert not clearly_slower([*slow[:-1], 1.5], 1.0)  # one call near the reference: not clearly slower
    assert not clearly_slower(slow, None) and not clearly_slower(slow, 0.0)


def _reply(tmp_path: Path, body: str):
    from engine.evaluate.checker import Checker
    from engine.evaluate.requests import EvalRequest

    task = TASKS / "relu_positive.py"
    artifact = tmp_path / "candidate.py"
    artifact.write_text(task.read_text() + "\n\nimport time as _t\n\nclass ModelNew(Model):\n"
                        f"    def forward(self, *args):\n        {body}\n        return super().forward(*args)\n")
    checker = Checker(str(task), "cpu", "fp32", str(tmp_path / "work"), sandboxed=False)
    try:
        return checker.evaluate(EvalRequest("c", "modelnew", str(artifact), None, correctness_trials=1,
                                            timing_trials=MIN_TRIALS, back_to_back=False, batch=512,
                                            variants=(1, 3)))
    finally:
        checker.close()


def test_a_candidate_far_slower_than_the_reference_is_timed_briefly(tmp_path: Path) -> None:
    reply = _reply(tmp_path, "_t.sleep(0.02)")
    assert reply.status.value == "valid", reply.reason
    assert reply.candidate.trials <= MIN_SLOW_TRIALS + 1
    assert "timed" in reply.extra["timing_cut"] and reply.reference.median_ms * SLOWER_STOP < reply.candidate.median_ms
    # verified at the other sizes, not timed there
    assert {c.batch: c.status for c in reply.shapes.checks} == {1: "valid", 3: "valid"}
    assert all(c.candidate_ms is None for c in reply.shapes.checks)


def test_control_a_candidate_as_fast_as_the_reference_is_timed_in_full(tmp_path: Path) -> None:
    reply = _reply(tmp_path, "pass")
    assert reply.status.value == "valid", reply.reason
    assert "timing_cut" not in reply.extra and reply.candidate.trials >= MIN_TRIALS
    assert all(c.candidate_ms is not None for c in reply.shapes.checks)
