"""The off-distribution transforms (engine/evaluate/off_distribution.py) on every tensor a trial can hold, and a
checker that fails on its own is said to have failed, not the candidate."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import torch

from contracts.verdict import FlagKind, flag_kind
from engine.evaluate.off_distribution import TRANSFORMS
from tests.conftest import TASKS


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float64])
@pytest.mark.parametrize("shape", [(1,), (), (0,), (3, 1), (5,)])
@pytest.mark.parametrize("name", [n for n, _ in TRANSFORMS])
def test_each_transform_keeps_the_shape_and_dtype_of_any_input(name: str, shape: tuple[int, ...],
                                                               dtype: torch.dtype) -> None:
    x = torch.rand(shape, dtype=torch.float64).to(dtype) + 0.5
    y = dict(TRANSFORMS)[name](x)
    assert y.shape == x.shape and y.dtype == x.dtype
    assert torch.isfinite(y).all()


def test_a_one_element_input_is_shifted_by_one() -> None:
    x = torch.tensor([2.0])
    assert dict(TRANSFORMS)["shifted by its standard deviation"](x).item() == 3.0


def _evaluate(tmp_path: Path, task: str, variants: tuple[int, ...]):
    from engine.evaluate.checker import Checker
    from engine.evaluate.requests import EvalRequest

    artifact = tmp_path / "candidate.py"
    artifact.write_text((TASKS / task).read_text() + "\n\nclass ModelNew(Model):\n    pass\n")
    checker = Checker(str(TASKS / task), "cpu", "fp32", str(tmp_path / "work"), sandboxed=False)
    try:
        return checker.evaluate(EvalRequest("c", "modelnew", str(artifact), None, correctness_trials=1,
                                            timing_trials=5, batch=8, variants=variants))
    finally:
        checker.close()


def test_a_per_row_input_at_batch_one_is_verified(tmp_path: Path) -> None:
    reply = _evaluate(tmp_path, "per_row_weights.py", (1, 3))
    assert reply.status.value == "valid", reply.reason
    assert reply.shapes is not None and {c.batch for c in reply.shapes.checks} >= {1, 3}
    assert all(c.status == "valid" for c in reply.shapes.checks if c.batch in (1, 3)), reply.shapes


def test_an_error_of_the_checkers_own_is_no_verdict_on_the_candidate(tmp_path: Path, monkeypatch) -> None:
    from engine.evaluate import variants

    def broken(*args, **kwargs):
        raise ValueError("a bug of hiera's")

    monkeypatch.setattr(variants.VariantCheck, "run", broken)
    reply = _evaluate(tmp_path, "per_row_weights.py", (1,))
    assert reply.status.value == "runtime_error" and reply.fatal
    assert "hiera's checker failed" in reply.reason and "ValueError" in reply.reason
    assert "not a verdict on the candidate" in reply.reason
    assert [flag_kind(f)[0] for f in reply.flags] == [FlagKind.CHECKER_ERROR]
    assert "a bug of hiera's" in reply.extra["checker_traceback"]
    assert shutil.which("true")  # the process lives on: the reply came back instead of an exception


def test_a_modelnews_forward_gets_its_non_tensor_arguments_at_their_positions(tmp_path: Path) -> None:
    reply = _evaluate(tmp_path, "float_argument.py", (1, 3))
    assert reply.status.value == "valid", reply.reason
    assert all(c.status == "valid" for c in reply.shapes.checks if c.batch in (1, 3)), reply.shapes


def test_call_args_puts_each_value_back_at_its_position() -> None:
    from engine.evaluate.runner import Refused, call_args

    assert call_args(["x", "y"], {}) == ["x", "y"]
    assert call_args(["x", "y"], {"__args__": [[1, 0.5]]}) == ["x", 0.5, "y"]
    assert call_args(["x"], {"__args__": [[0, 2], [2, "mean"]]}) == [2, "x", "mean"]
    with pytest.raises(Refused):
        call_args(["x"], {"__args__": [[3, 1.0]]})
    with pytest.raises(Refused):
        call_args(["x"], {"__args__": [["a", 1.0]]})


def test_a_forward_that_changes_its_own_buffer_is_refused_with_what_to_do(tmp_path: Path) -> None:
    reply = _evaluate(tmp_path, "running_mean.py", ())
    assert reply.status.value == "runtime_error"
    assert "buffer 'running'" in reply.reason and "To fix" in reply.reason
    assert [flag_kind(f)[0] for f in reply.flags] == [FlagKind.TASK_STATEFUL]


def test_a_forward_that_changes_its_input_in_place_lets_a_candidate_do_the_same(tmp_path: Path) -> None:
    """The unchanged reference as its candidate: valid, the input named in the reply; and its weight, written in
    place to the same values, does not make the task stateful."""
    reply = _evaluate(tmp_path, "scales_input_in_place.py", (1, 3))
    assert reply.status.value == "valid", reply.reason
    assert reply.extra["inputs_the_reference_modifies"] == [0]


def test_control_without_the_allowance_the_same_candidate_is_called_a_cheat(tmp_path: Path, monkeypatch) -> None:
    from engine.evaluate.checker import Checker

    real = Checker.reference_outputs

    def forgetful(self, *args, **kwargs):
        out = real(self, *args, **kwargs)
        self.inputs_modified.clear()
        return out

    monkeypatch.setattr(Checker, "reference_outputs", forgetful)
    reply = _evaluate(tmp_path, "scales_input_in_place.py", ())
    assert reply.status.value == "suspect" and "modified input 0" in reply.reason


def test_task_refused_needs_every_outcome_to_carry_the_flag() -> None:
    from contracts.verdict import flag_text, task_refused

    stateful = flag_text(FlagKind.TASK_STATEFUL, "it keeps a running mean")
    assert task_refused([[stateful], ["other: x", stateful]]) == "it keeps a running mean"
    assert task_refused([[stateful], []]) is None
    assert task_refused([]) is None
